"""Natural-language descriptions: the answer itself, unwrapped when it is one fenced block."""

from __future__ import annotations

from genplan.engine.extract.common import Extraction, clean_answer, fail, fenced_blocks


def extract_nl(text: str) -> Extraction[str]:
    """A description: the answer without reasoning blocks, unwrapped if it is one fenced block."""
    text = clean_answer(text).strip()
    if not text:
        return fail("the answer is empty")
    blocks = fenced_blocks(text)
    if len(blocks) == 1 and blocks[0].start == 1 and blocks[0].end >= len(text.split("\n")) - 1:
        inner = blocks[0].body.strip()
        if inner:
            return Extraction(inner, "the answer's only fenced block")
    return Extraction(text, "the whole answer")
