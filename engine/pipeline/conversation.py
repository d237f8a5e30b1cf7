"""The small vocabulary of a conversation with the model: messages by role, and the extractor of a program."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from genplan.engine.extract import Extraction, extract_code
from genplan.engine.llm import ChatMessage

Extractor = Callable[[str], Extraction[Any]]


def user(text: str) -> ChatMessage:
    return ChatMessage("user", text)


def assistant(text: str) -> ChatMessage:
    return ChatMessage("assistant", text)


PYTHON_FENCE = "```python"


def first_block(text: str) -> str:
    """The reference code's extraction: what follows the first ```python up to the next fence (or the end of
    the answer); without such a block, the whole answer. It never fails: whatever it gives is run, and what
    goes wrong is fed back as the program's error."""
    start = text.find(PYTHON_FENCE)
    if start < 0:
        return text
    rest = text[start + len(PYTHON_FENCE):]
    end = rest.find("```")
    return rest if end < 0 else rest[:end]


def first_block_extractor(text: str) -> Extraction[Any]:
    return Extraction(first_block(text), "")


def or_whole_answer(extractor: Extractor) -> Extractor:
    """``extractor``, with the whole answer where it finds nothing (the reference code takes a strategy so:
    utils/helper.py, ``parse_strategy_response``)."""

    def extract(text: str) -> Extraction[Any]:
        got = extractor(text)
        return got if got.ok else Extraction(text.strip(), f"the whole answer ({got.reason})")

    return extract


def code_extractor(functions: tuple[str, ...], previous: str | None = None) -> Extractor:
    """Extraction of a program's source (the extractor also returns where it found it; we keep the code)."""

    def extract(text: str) -> Extraction[Any]:
        got = extract_code(text, functions, previous_code=previous)
        return Extraction(got.value.code if got.value is not None else None, got.reason)

    return extract


def answer_for(kind: str, text: str) -> str:
    """Wrap an edited artefact as a model answer the pipeline's extractors read back unchanged."""
    if kind == "strategy":
        return f"Pseudocode:\n{text.strip()}\n"
    if kind == "program":
        return f"```python\n{text.strip()}\n```\n"
    return text
