"""The small vocabulary of a conversation with the model: messages by role, and the extractor of a program."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..extract import Extraction, extract_code
from ..llm import ChatMessage

Extractor = Callable[[str], Extraction[Any]]


def user(text: str) -> ChatMessage:
    return ChatMessage("user", text)


def assistant(text: str) -> ChatMessage:
    return ChatMessage("assistant", text)


def code_extractor(functions: tuple[str, ...], previous: str | None = None) -> Extractor:
    """Extraction of a program's source (the extractor also returns where it found it; we keep the code)."""

    def extract(text: str) -> Extraction[Any]:
        got = extract_code(text, functions, previous_code=previous)
        return Extraction(got.value.code if got.value is not None else None, got.reason)

    return extract
