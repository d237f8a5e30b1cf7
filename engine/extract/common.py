"""What every extractor shares: the result type, reasoning-block removal and fenced blocks.

All of it runs in time linear in the answer's length: answers are model output, and models do
produce megabytes of repetition.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

# An answer with more fenced blocks than this is junk (a model repeating itself): extractors look at its last
# ones only, as the last candidate wins anyway, so that their time is bounded per answer rather than per block.
MAX_BLOCKS = 64


@dataclass(frozen=True)
class Extraction(Generic[T]):
    """The result of one extractor: ``value`` (None if nothing was found) and a ``reason``."""

    value: T | None
    reason: str

    @property
    def ok(self) -> bool:
        return self.value is not None

    def __bool__(self) -> bool:
        return self.ok


def fail(reason: str) -> Extraction:  # type: ignore[type-arg]
    return Extraction(None, reason)


# --------------------------------------------------------------------------- reasoning blocks

_REASONING_TAG = re.compile(r"<(/?)(think|thinking|reasoning)>", re.I)
_REASONING_END = re.compile(r"</(?:think|thinking|reasoning)>", re.I)


def clean_answer(text: str) -> str:
    """Normalise line ends and blank out reasoning blocks (keeping the line numbering intact).

    A block runs from an opening tag to the next closing tag of the same name; an opening tag that
    is never closed stays. Some servers put the reasoning at the start of the content and only close
    the tag: everything up to the last closing tag left over is blanked too.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tags = list(_REASONING_TAG.finditer(text))
    closings: dict[str, list[int]] = {}  # tag name -> start offsets of its closing tags, ascending
    for index, tag in enumerate(tags):
        if tag[1]:
            closings.setdefault(tag[2].lower(), []).append(index)
    pieces: list[str] = []
    position = 0
    for index, tag in enumerate(tags):
        if tag[1] or tag.start() < position:
            continue
        candidates = closings.get(tag[2].lower(), [])
        found = bisect.bisect_right(candidates, index)
        if found == len(candidates):
            continue
        closing = tags[candidates[found]]
        pieces += [text[position : tag.start()], "\n" * text.count("\n", tag.start(), closing.end())]
        position = closing.end()
    pieces.append(text[position:])
    text = "".join(pieces)
    last_end = None
    for last_end in _REASONING_END.finditer(text):  # noqa: B007 - only the last match is wanted
        pass
    if last_end is not None:
        cut = last_end.end()
        text = "\n" * text.count("\n", 0, cut) + text[cut:]
    return text


# --------------------------------------------------------------------------- fenced blocks


@dataclass(frozen=True)
class FencedBlock:
    """A fenced block (```lang ... ```); lines are 0-based indices into the answer, ``end`` exclusive."""

    lang: str
    body: str
    start: int
    end: int
    closed: bool


FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")
_FENCE_CLOSE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*$")


def fenced_blocks(text: str) -> list[FencedBlock]:
    """All fenced blocks in order. A fence that is never closed runs to the end (cut-off answers).

    A block is closed by a line of the same fence character, at least as long as its opening fence.
    """
    lines = text.split("\n")
    # Closing candidates per fence character, found in one pass (a search from every opening fence
    # would be quadratic in an answer of many unclosed fences).
    closers: dict[str, list[tuple[int, int]]] = {"`": [], "~": []}
    for number, line in enumerate(lines):
        if line[:1] in " \t`~":
            match = _FENCE_CLOSE.match(line)
            if match is not None:
                closers[match["fence"][0]].append((number, len(match["fence"])))
    blocks: list[FencedBlock] = []
    i = 0
    while i < len(lines):
        match = FENCE_OPEN.match(lines[i]) if lines[i][:1] in " \t`~" else None
        if match is None:
            i += 1
            continue
        fence, indent = match["fence"], len(match["indent"])
        info = match["info"].strip()
        j = _closing_line(closers[fence[0]], i + 1, len(fence), len(lines))
        body = "\n".join(strip_indent(line, indent) for line in lines[i + 1 : j])
        lang = info.split()[0].lower() if info else ""
        blocks.append(FencedBlock(lang, body, i + 1, j, j < len(lines)))
        i = j + 1
    return blocks


def _closing_line(candidates: list[tuple[int, int]], first: int, length: int, end: int) -> int:
    """The first candidate line at or after ``first`` with a fence at least ``length`` long, else ``end``."""
    index = bisect.bisect_left(candidates, (first, 0))
    # Shorter fences in between are content; they are skipped once per block, and the blocks' line
    # ranges do not overlap, so all blocks together skip each candidate at most once.
    while index < len(candidates):
        line, size = candidates[index]
        if size >= length:
            return line
        index += 1
    return end


def strip_indent(line: str, width: int) -> str:
    """Remove up to ``width`` leading blanks (the fence's own indentation inside a list item)."""
    cut = 0
    while cut < width and cut < len(line) and line[cut] in " \t":
        cut += 1
    return line[cut:]


def fence_lines(blocks: list[FencedBlock]) -> set[int]:
    """Line indices belonging to fenced blocks, fence markers included."""
    covered: set[int] = set()
    for block in blocks:
        covered.update(range(block.start - 1, block.end + 1))
    return covered
