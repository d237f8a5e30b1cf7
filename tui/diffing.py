"""Side-by-side alignment of two texts, with the changed words of changed lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

# Below this similarity two paired lines count as rewritten: the whole line is marked, not characters.
CHAR_DIFF_MIN_RATIO = 0.3

Span = tuple[int, int]


@dataclass(frozen=True)
class DiffRow:
    """One aligned row. ``tag`` is equal, replace (changed line), delete (left only) or insert (right only)."""

    tag: str
    left_no: int | None  # 1-based line numbers; None where the side has no line
    right_no: int | None
    left: str | None
    right: str | None
    left_changes: tuple[Span, ...] = ()
    right_changes: tuple[Span, ...] = ()

    @property
    def changed(self) -> bool:
        return self.tag != "equal"


@dataclass(frozen=True)
class DiffStats:
    changed: int
    deleted: int
    inserted: int

    @property
    def identical(self) -> bool:
        return not (self.changed or self.deleted or self.inserted)

    def summary(self) -> str:
        if self.identical:
            return "identical"
        return f"{self.changed} changed, {self.deleted} removed, {self.inserted} added"


_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def tokens(line: str) -> list[tuple[int, int]]:
    """(start, end) of each word, run of spaces and punctuation mark of a line."""
    return [match.span() for match in _TOKEN.finditer(line)]


def word_changes(left: str, right: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """Character ranges of the words that differ between two versions of a line: whole words are marked,
    never single letters inside a word (character marks make prose noisy)."""
    left_tokens, right_tokens = tokens(left), tokens(right)
    left_words = [left[a:b] for a, b in left_tokens]
    right_words = [right[a:b] for a, b in right_tokens]
    matcher = SequenceMatcher(None, left_words, right_words, autojunk=False)
    if matcher.ratio() < CHAR_DIFF_MIN_RATIO:
        return ((0, len(left)),) if left else (), ((0, len(right)),) if right else ()
    left_spans: list[Span] = []
    right_spans: list[Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            left_spans.append((left_tokens[i1][0], left_tokens[i2 - 1][1]))
        if j2 > j1:
            right_spans.append((right_tokens[j1][0], right_tokens[j2 - 1][1]))
    return tuple(left_spans), tuple(right_spans)


char_changes = word_changes  # the earlier name


def side_by_side(left_text: str, right_text: str) -> list[DiffRow]:
    """Rows aligning ``left_text`` and ``right_text`` line by line (difflib opcodes)."""
    left = left_text.splitlines()
    right = right_text.splitlines()
    rows: list[DiffRow] = []
    matcher = SequenceMatcher(None, left, right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for offset in range(i2 - i1):
                i, j = i1 + offset, j1 + offset
                rows.append(DiffRow("equal", i + 1, j + 1, left[i], right[j]))
        elif tag == "delete":
            rows.extend(DiffRow("delete", i + 1, None, left[i], None, ((0, len(left[i])),)) for i in range(i1, i2))
        elif tag == "insert":
            rows.extend(
                DiffRow("insert", None, j + 1, None, right[j], (), ((0, len(right[j])),)) for j in range(j1, j2)
            )
        else:  # replace: pair lines in order, the rest are deletions or insertions
            pairs = min(i2 - i1, j2 - j1)
            for offset in range(pairs):
                i, j = i1 + offset, j1 + offset
                left_spans, right_spans = word_changes(left[i], right[j])
                rows.append(DiffRow("replace", i + 1, j + 1, left[i], right[j], left_spans, right_spans))
            for i in range(i1 + pairs, i2):
                rows.append(DiffRow("delete", i + 1, None, left[i], None, ((0, len(left[i])),)))
            for j in range(j1 + pairs, j2):
                rows.append(DiffRow("insert", None, j + 1, None, right[j], (), ((0, len(right[j])),)))
    return rows


def diff_stats(rows: list[DiffRow]) -> DiffStats:
    return DiffStats(
        changed=sum(1 for r in rows if r.tag == "replace"),
        deleted=sum(1 for r in rows if r.tag == "delete"),
        inserted=sum(1 for r in rows if r.tag == "insert"),
    )


def change_indices(rows: list[DiffRow]) -> list[int]:
    """Indices of the first row of each block of changed rows (for "next change" navigation)."""
    starts = []
    previous_changed = False
    for index, row in enumerate(rows):
        if row.changed and not previous_changed:
            starts.append(index)
        previous_changed = row.changed
    return starts
