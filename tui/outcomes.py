"""One glyph (and colour) per outcome of a check, used by every view that shows one.

The outcome itself — pass, or which column of the error table a failure belongs to — is the engine's
(``genplan.engine.api.versions.check_category``); this module only chooses how it looks. A failure never
uses the pass glyph.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True)
class Look:
    glyph: str
    short: str  # a word that fits a narrow matrix cell
    style: str


PASS_LOOK = Look("✓", "pass", "bold green")
LOOKS = {
    "pass": PASS_LOOK,
    "invalid action": Look("✗", "action", "bold red"),
    "goal not satisfied": Look("◎", "goal", "bold red"),
    "exception": Look("⚡", "exc", "bold magenta"),
    "timeout": Look("⧖", "time", "bold yellow"),
    "wrong type": Look("≠", "type", "bold yellow"),
    "no plan": Look("∅", "noplan", "bold red"),
    "solver error": Look("⊘", "solver", "bold red"),
    "sandbox error": Look("‼", "sandbox", "bold white on red"),
}
UNKNOWN_LOOK = Look("✗", "fail", "bold red")


def look(category: str) -> Look:
    return LOOKS.get(category, UNKNOWN_LOOK)


def category_of(kind: str | None, solved: bool) -> str:
    """The engine's outcome category for a check (imported lazily: the first screen needs no engine)."""
    from genplan.engine.api.versions import check_category

    return check_category(kind, solved)


def outcome_text(category: str, *, words: bool = True) -> Text:
    """``✓ pass`` / ``◎ goal not satisfied`` (or only the glyph and the short word)."""
    found = look(category)
    label = category if words else found.short
    return Text(f"{found.glyph} {label}", style=found.style)


def count_text(solved: int | None, total: int | None) -> Text:
    """``4/6`` coloured by how much passed."""
    if solved is None or not total:
        return Text("–", style="dim")
    style = "bold green" if solved == total else ("bold red" if solved == 0 else "bold yellow")
    return Text(f"{solved}/{total}", style=style)


def legend() -> Text:
    text = Text()
    for category, found in LOOKS.items():
        text.append(f"{found.glyph} ", style=found.style)
        text.append(f"{category}  ")
    return text
