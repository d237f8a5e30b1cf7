"""The run's timeline: one row per pipeline step, request, plan check, artefact and notice.

Drawn line by line from cached strips (Textual's line API): a change to one entry redraws that row only.
A DataTable, which this replaces, redraws every visible row on any change, and a running pipeline changes
the timeline many times a second: that was the largest share of the UI's drawing time.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from genplan.engine.events import ArtifactCreated, RequestPaused, RequestSent, ValidationResult
from genplan.tui.actions import bindings
from genplan.tui.outcomes import category_of, look
from genplan.tui.run_state import RunState, TimelineEntry, Update
from genplan.tui.widgets.totals_bar import format_seconds, format_tokens

STATUS_STYLES = {
    "running": "bold yellow",
    "paused": "bold magenta",
    "done": "green",
    "cached": "cyan",
    "kept": "cyan",
    "answered": "bold magenta",
    "pass": "bold green",
    "fail": "bold red",
    "failed": "bold red",
    "stopped": "magenta",
    "info": "dim",
}
KIND_ICONS = {
    "phase": "▸",
    "request": "⇄",
    "check": "?",  # replaced by the outcome's glyph (outcomes.py)
    "artifact": "+",  # a file the run wrote (a person's edit is ✎)
    "selection": "★",
    "notice": "!",
    "edit": "✎",
    "run": "●",
    "command": "›",  # a game command (PDDLego+)
    "reset": "↺",  # the game reset and the successful commands replayed (PDDLego+)
    "round": "✗",  # a unit test failed; its feedback went to the model (AutoToS)
    "passed": "✓",  # a kind of unit test passed (AutoToS)
    "limit": "■",  # the feedback rounds of a function are spent (AutoToS)
    "evaluation": "Σ",  # the evaluation instances searched (AutoToS)
}
# (label, width, justify) after the step column, which takes what is left of the panel.
COLUMNS = (("status", 8, "left"), ("tokens", 6, "right"), ("time", 6, "right"))  # "answered", "stopped"
# Below this width only the status follows the step (at 80 columns the timeline has about 44).
ALL_COLUMNS_WIDTH = 56


def columns_for(width: int) -> tuple[tuple[str, int, str], ...]:
    return COLUMNS if width >= ALL_COLUMNS_WIDTH else COLUMNS[:1]
HEADER_STYLE = Style(bold=True)
HEADER_CELLS = [Text(label) for label in ("step", *(label for label, _width, _justify in COLUMNS))]


# a request's step -> a short verb for a narrow timeline (the row then names its task and version in full)
SHORT_STEPS = {
    "nl.domain": "describe", "nl.task": "describe", "strategy.generate": "strategy", "strategy.plan": "follow",
    "strategy.reflect": "reflect", "strategy.revise": "revise", "code.generate": "code", "code.reflect": "reflect",
    "code.revise": "revise", "baseline.summary": "summary", "baseline.strategy": "strategy",
    "baseline.code": "code", "baseline.fix": "fix",
}


SHORT_PHASES = {"strategy-validation": "validation", "strategy-final-check": "final check",
                "program-check": "program check", "baseline-summary": "summary", "baseline-strategy": "strategy"}
SHORT_ARTIFACTS = {"nl_domain": "NL", "nl_task": "NL", "reflection": "reflect"}


def entry_cells(entry: TimelineEntry) -> list[Text]:
    """Step (with icon and detail), status, tokens, time; then the step in short (``compact_titles``)."""
    indent = "" if entry.kind in ("phase", "run") else "  "
    icon, icon_style = KIND_ICONS.get(entry.kind, " "), ""
    status = Text(entry.status, style=STATUS_STYLES.get(entry.status, ""))
    if entry.kind == "check":  # the outcome's own glyph: a failed check never looks like a pass
        check = entry.event if isinstance(entry.event, ValidationResult) else None
        valid = check.valid if check is not None and check.valid is not None else entry.status == "pass"
        found = look(category_of(check.kind if check is not None else None, bool(valid)))
        icon, icon_style = found.glyph, found.style
        status = Text(found.short, style=found.style)
    title = Text(f"{indent}", no_wrap=True, overflow="ellipsis")
    title.append(icon, style=icon_style)
    title.append(f" {entry.title}")
    if entry.kind in ("phase", "run"):
        title.stylize("bold")
    if entry.detail:
        title.append(f" {entry.detail}", style="dim")
    tokens = format_tokens(entry.tokens) if entry.tokens is not None else ""
    return [title, status, Text(tokens), Text(format_seconds(entry.seconds)),
            *compact_titles(entry, Text(icon, style=icon_style))]  # no indent: the icon marks the row's kind


def compact_titles(entry: TimelineEntry, lead: Text) -> list[Text]:
    """The step for a narrow timeline (classroom mode, 80 columns), shortest last: what names the row — its task
    and version — with the words around them shortened ("✗ task-00 v01" for "✗ check strategy v01 task-00");
    for a request, when even that is too long, the task and version before the verb, so that the verb is cut."""
    event = entry.event
    verb, names = "", []
    if entry.kind == "check":
        check = event if isinstance(event, ValidationResult) else None
        names = [str(check and check.task or entry.detail), str(check and check.version or entry.title.split(" ")[-1])]
    elif entry.kind == "request":
        about = " ".join(name for name in (event.task, event.version) if name) \
            if isinstance(event, (RequestSent, RequestPaused)) else ""
        verb, names = SHORT_STEPS.get(entry.step or "", entry.title), [about or entry.detail]
    elif entry.kind == "edit":
        names = [entry.title.removeprefix("edited "), entry.detail.split(" (")[0]]
    elif entry.kind == "selection":  # "★ strategy v02 6/6" for "★ selected strategy v02 6/6 debug tasks"
        names = [entry.title.removeprefix("selected "), entry.detail.removesuffix(" debug tasks")]
    elif entry.kind == "phase":
        names = [SHORT_PHASES.get(entry.title, entry.title), entry.detail.replace("version ", "")]
    elif entry.kind == "artifact":  # the version names it; the file name (the detail) repeats it
        artifact = event if isinstance(event, ArtifactCreated) else None
        kind = str(artifact and artifact.kind or "")
        names = [SHORT_ARTIFACTS.get(kind, kind.replace("_", " ")), str(artifact and artifact.version or entry.title)]
    else:
        names = [entry.title, entry.detail]
    orders = [[verb, *names], [*names, verb]] if verb else [names]
    titles = []
    for words in orders:
        text = lead.copy()
        text.append(" " + " ".join(word for word in words if word))
        if entry.kind in ("phase", "run"):
            text.stylize("bold")
        titles.append(text)
    return titles


def row_text(cells: list[Text], width: int) -> Text:
    """The cells laid out in one line of ``width`` cells: the step column gets what the others leave (the step
    in short when the whole step does not fit)."""
    columns = columns_for(width)
    step_width = max(4, width - sum(w + 1 for _label, w, _justify in columns))
    line = Text(no_wrap=True, end="")
    title = cells[0]
    for shorter in cells[len(COLUMNS) + 1:]:  # the short forms, each shorter or better cut than the one before
        if title.cell_len <= step_width:
            break
        title = shorter
    title = title.copy()
    title.truncate(step_width, overflow="ellipsis", pad=True)
    line.append_text(title)
    for cell, (_label, column_width, justify) in zip(cells[1:], columns):
        text = cell.copy()
        text.truncate(column_width, overflow="ellipsis")
        padding = " " * (column_width - text.cell_len)
        line.append(" ")
        if justify == "right":
            line.append(padding)
            line.append_text(text)
        else:
            line.append_text(text)
            line.append(padding)
    return line


class Timeline(ScrollView, can_focus=True):
    """Select a row (enter) to see its text; follows the newest row while the cursor is on the last one."""

    BINDINGS = bindings("cursor")
    DEFAULT_CSS = """
    Timeline { height: 1fr; overflow-x: hidden; }
    Timeline > .timeline--cursor { background: $primary 40%; }
    Timeline:focus > .timeline--cursor { background: $primary; color: $text; }
    """
    COMPONENT_CLASSES = {"timeline--cursor"}

    cursor_row: reactive[int] = reactive(0, repaint=False)

    @dataclass
    class Highlighted(Message):
        """The cursor moved to another row (``key`` is its entry's key)."""

        timeline: Timeline
        cursor_row: int
        key: str

        @property
        def control(self) -> Timeline:
            return self.timeline

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._keys: list[str] = []
        self._cells: list[list[Text]] = []
        self._strips: dict[int, Strip] = {}  # row -> its line at _width (cursor style applied when drawn)
        self._width = 0

    # ------------------------------------------------------------------ content
    @property
    def row_count(self) -> int:
        return len(self._keys)

    def reset(self) -> None:
        self._keys.clear()
        self._cells.clear()
        self._strips.clear()
        self.set_reactive(Timeline.cursor_row, 0)
        self._resize_content()

    def sync(self, state: RunState, update: Update | None = None) -> None:
        """Add new rows and redraw changed ones (all rows when ``update`` is None)."""
        follow = not self._keys or self.cursor_row >= len(self._keys) - 1
        indices = range(len(state.entries)) if update is None else sorted(set(update.entries))
        for index in indices:
            while len(self._keys) <= index:  # keep rows in entry order even if an update skipped one
                missing = state.entries[len(self._keys)]
                self._keys.append(missing.key)
                self._cells.append(entry_cells(missing))
            self._cells[index] = entry_cells(state.entries[index])
            self._strips.pop(index, None)
            self._refresh_row(index)
        self._resize_content()
        if follow and self._keys:
            last = len(self._keys) - 1
            if self.cursor_row == last:  # the cursor did not move (e.g. the first row): say so anyway
                self.post_message(self.Highlighted(self, last, self._keys[last]))
            self.move_cursor(row=last)

    def selected_key(self) -> str | None:
        if not self._keys or not 0 <= self.cursor_row < len(self._keys):
            return None
        return self._keys[self.cursor_row]

    # ------------------------------------------------------------------ cursor
    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        if not self._keys:
            return
        self.cursor_row = max(0, min(row, len(self._keys) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self.call_after_refresh(self._keep_cursor_in_view)  # once the new size is laid out
        if 0 <= new < len(self._keys):
            self.post_message(self.Highlighted(self, new, self._keys[new]))

    def action_cursor(self, step: int) -> None:
        self.move_cursor(row=self.cursor_row + step)

    def action_page(self, direction: int) -> None:
        self.move_cursor(row=self.cursor_row + direction * max(1, self._rows_shown() - 1))

    def action_cursor_to(self, row: int) -> None:
        self.move_cursor(row=row if row >= 0 else len(self._keys) - 1)

    def on_click(self, event: events.Click) -> None:
        row = round(self.scroll_offset.y) + event.y - 1  # line 0 is the header
        if event.y >= 1 and 0 <= row < len(self._keys):
            self.move_cursor(row=row)

    def _rows_shown(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _keep_cursor_in_view(self) -> None:
        # force: rows that arrive in one batch outgrow the view before Textual has shown the scrollbar, and without
        # a scrollbar it ignores a scroll (the held request's row, say, stayed below the view)
        top = round(self.scroll_offset.y)
        shown = self._rows_shown()
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True, force=True)
        elif self.cursor_row >= top + shown:
            self.scroll_to(y=self.cursor_row - shown + 1, animate=False, immediate=True, force=True)

    # ------------------------------------------------------------------ drawing
    def _resize_content(self) -> None:
        width = self.scrollable_content_region.width or self._width
        self.virtual_size = Size(width, len(self._keys) + 1)  # + the header line

    def on_resize(self) -> None:
        self._resize_content()  # cached rows are dropped by render_line once the width differs
        self.call_after_refresh(self._keep_cursor_in_view)

    def notify_style_update(self) -> None:
        """Colours changed (theme, focus styles): the cached rows carry the old ones."""
        self._strips.clear()
        super().notify_style_update()

    def on_focus(self) -> None:
        self._refresh_row(self.cursor_row)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor_row)

    def _refresh_row(self, row: int) -> None:
        self.refresh_line(row + 1)  # virtual line: the header is line 0

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self._strips.clear()
        base = self.rich_style
        if y == 0:
            return self._to_strip(row_text(HEADER_CELLS, width), width, base + HEADER_STYLE)
        row = round(self.scroll_offset.y) + y - 1
        if not 0 <= row < len(self._keys):
            return Strip.blank(width, base)
        strip = self._strips.get(row)
        if strip is None:
            strip = self._strips[row] = self._to_strip(row_text(self._cells[row], width), width, base)
        if row == self.cursor_row:
            cursor = self.get_component_rich_style("timeline--cursor")
            return Strip(Segment.apply_style(iter(strip), post_style=cursor), strip.cell_length)
        return strip

    def _to_strip(self, text: Text, width: int, style: Style) -> Strip:
        segments = [Segment(s.text, style + s.style if s.style else style) for s in text.render(self.app.console)]
        return Strip(segments).crop_extend(0, width, style)
