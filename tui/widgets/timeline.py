"""The run's timeline: one row per pipeline step, request, plan check, artefact and notice."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from ..run_state import RunState, TimelineEntry, Update
from .totals_bar import format_seconds, format_tokens

STATUS_STYLES = {
    "running": "bold yellow",
    "paused": "bold magenta",
    "done": "green",
    "cached": "cyan",
    "pass": "bold green",
    "fail": "bold red",
    "failed": "bold red",
    "info": "dim",
}
KIND_ICONS = {
    "phase": "▸",
    "request": "⇄",
    "check": "✓",
    "artifact": "✎",
    "selection": "★",
    "notice": "!",
    "run": "●",
}
# (label, key, width): the step column takes what is left of the panel.
COLUMNS = (("step", "step", 30), ("status", "status", 7), ("tokens", "tokens", 6), ("time", "time", 6))


def entry_cells(entry: TimelineEntry) -> list[Text | str]:
    indent = "" if entry.kind in ("phase", "run") else "  "
    title = Text(f"{indent}{KIND_ICONS.get(entry.kind, ' ')} {entry.title}", no_wrap=True, overflow="ellipsis")
    if entry.kind in ("phase", "run"):
        title.stylize("bold")
    if entry.detail:
        title.append(f" {entry.detail}", style="dim")
    status = Text(entry.status, style=STATUS_STYLES.get(entry.status, ""))
    tokens = format_tokens(entry.tokens) if entry.tokens is not None else ""
    return [title, status, Text(tokens, justify="right"), Text(format_seconds(entry.seconds), justify="right")]


class Timeline(DataTable):
    """Select a row (enter) to see its text; follows the newest row while the cursor is on the last one."""

    DEFAULT_CSS = """
    Timeline { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self._keys: list[str] = []

    def on_mount(self) -> None:
        for label, key, width in COLUMNS:
            self.add_column(label, key=key, width=width)

    def reset(self) -> None:
        self.clear()
        self._keys.clear()

    def sync(self, state: RunState, update: Update | None = None) -> None:
        """Add new rows and refresh changed ones (all rows when ``update`` is None)."""
        follow = not self._keys or self.cursor_row >= len(self._keys) - 1
        indices = range(len(state.entries)) if update is None else sorted(set(update.entries))
        for index in indices:
            entry = state.entries[index]
            cells = entry_cells(entry)
            if index < len(self._keys):
                key = self._keys[index]
                for (_, column, _width), value in zip(COLUMNS, cells):
                    self.update_cell(key, column, value)
            else:
                while len(self._keys) < index:  # keep rows in entry order even if an update skipped one
                    missing = state.entries[len(self._keys)]
                    self._keys.append(missing.key)
                    self.add_row(*entry_cells(missing), key=missing.key)
                self._keys.append(entry.key)
                self.add_row(*cells, key=entry.key)
        if follow and self._keys:
            self.move_cursor(row=len(self._keys) - 1, animate=False)

    def selected_key(self) -> str | None:
        if not self._keys or self.cursor_row < 0 or self.cursor_row >= len(self._keys):
            return None
        return self._keys[self.cursor_row]
