"""Pseudocode strategies: after a label line, in the last fenced block, or after an introducing line."""

from __future__ import annotations

import re

from genplan.engine.extract.common import FENCE_OPEN, Extraction, clean_answer, fail, fence_lines, fenced_blocks

_LABEL_WORDS = (
    r"(?:(?:final|revised|updated|corrected|complete|new|improved)\s+)*"
    r"(?:pseudo-?\s?code|strategy)(?:\s+(?:strategy|pseudo-?\s?code))?"
    r"(?:\s*\([^)\n]*\))?"
)
_LABEL_WITH_COLON = re.compile(r"^" + _LABEL_WORDS + r"\s*:\s*(?P<rest>.*)$", re.I)
_LABEL_ALONE = re.compile(r"^" + _LABEL_WORDS + r"$", re.I)
_INTRODUCER = re.compile(r"\b(?:pseudo-?\s?code|strategy)\b[^\n]{0,40}:\s*$", re.I)


def _label_rest(line: str) -> str | None:
    """For a label line ("Pseudocode:", "**Strategy:** ...", "### Final pseudocode"), the text after it."""
    core = line.strip().strip("#>*_` \t")
    match = _LABEL_WITH_COLON.match(core)
    if match is not None:
        return match["rest"].strip().strip("*_` \t")
    if _LABEL_ALONE.match(core):
        return ""
    return None


def _content_after(lines: list[str], index: int, rest: str) -> str:
    """What follows a label on line ``index``: the next fenced block if it starts right there, else the rest."""
    following = lines[index + 1 :]
    if not rest:
        while following and not following[0].strip():
            following = following[1:]
        if following and FENCE_OPEN.match(following[0]):
            blocks = fenced_blocks("\n".join(following))
            if blocks:
                return blocks[0].body.strip()
    return "\n".join([rest, *following]).strip()


def extract_strategy(text: str, fallback_to_text: bool = False) -> Extraction[str]:
    """A strategy (pseudocode or prose), looked for in this order:

    1. after the last label line ("Pseudocode:", "Strategy:", "**Revised pseudocode:**", "## Pseudocode");
       when a fenced block follows the label directly, its content;
    2. the last non-empty fenced block;
    3. after the last line that ends by introducing it ("Here is the pseudocode:");
    4. with ``fallback_to_text`` (prompts that ask for no format, like Silver et al.'s), the whole answer.
    """
    text = clean_answer(text)
    if not text.strip():
        return fail("the answer is empty")
    lines = text.split("\n")
    blocks = fenced_blocks(text)
    inside = fence_lines(blocks)
    for index in range(len(lines) - 1, -1, -1):
        if index in inside:
            continue
        rest = _label_rest(lines[index])
        if rest is None:
            continue
        content = _content_after(lines, index, rest)
        if content:
            return Extraction(content, f"after the label on line {index + 1}")
    for block in reversed(blocks):
        if block.body.strip():
            return Extraction(block.body.strip(), f"the last fenced block (line {block.start})")
    for index in range(len(lines) - 1, -1, -1):
        if _INTRODUCER.search(lines[index]):
            content = "\n".join(lines[index + 1 :]).strip()
            if content:
                return Extraction(content, f"after line {index + 1}, which introduces it")
    if fallback_to_text:
        return Extraction(text.strip(), "the whole answer")
    return fail('the answer has no line "Pseudocode:" (or "Strategy:") followed by the strategy, and no fenced block')
