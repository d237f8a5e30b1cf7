"""Comparing two versions side by side, and stepping through the history of one artefact."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from genplan.tui.actions import bindings
from genplan.tui.artifacts import Version
from genplan.tui.diffing import diff_stats
from genplan.tui.widgets.diff_view import DiffView
from genplan.tui.widgets.key_bar import KeyBar


class CompareScreen(Screen[None]):
    """``versions`` is the list one can step through; the screen shows versions[i] against versions[j]."""

    BINDINGS = bindings("compare")
    DEFAULT_CSS = """
    CompareScreen #compare-heads { height: auto; }
    CompareScreen .compare-head { height: auto; }
    CompareScreen .compare-head { width: 1fr; background: $boost; padding: 0 1; text-style: bold; }
    CompareScreen #compare-stats { height: 1; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, versions: list[Version], left: int, right: int, *, history: bool = False) -> None:
        super().__init__()
        self.versions = versions
        self.left = left
        self.right = right
        self.history = history

    def compose(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="compare-heads"):
                yield Static("", id="compare-left", classes="compare-head")
                yield Static("", id="compare-right", classes="compare-head")
            yield Static("", id="compare-stats")
            yield DiffView(id="compare-diff")
        yield KeyBar()

    def on_mount(self) -> None:
        # prose (strategies, reflections) wraps from the start; code keeps its lines (w toggles either way)
        self.query_one(DiffView).wrap = self.versions[self.right].syntax != "python"
        self.show()
        self.query_one(DiffView).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step" and not self.history:
            return None
        return True

    def show(self) -> None:
        left, right = self.versions[self.left], self.versions[self.right]
        self.query_one("#compare-left", Static).update(left.label)
        self.query_one("#compare-right", Static).update(right.label)
        view = self.query_one(DiffView)
        syntax = left.syntax if left.syntax == right.syntax else None
        view.show(left.read(), right.read(), syntax)
        stats = diff_stats(view.rows).summary()
        position = f"version {self.right + 1} of {len(self.versions)} · " if self.history else ""
        self.query_one("#compare-stats", Static).update(f"{position}{stats}")

    def action_step(self, delta: int) -> None:
        right = self.right + delta
        if not 1 <= right < len(self.versions):
            self.app.bell()
            return
        self.left, self.right = right - 1, right
        self.show()

    def action_swap(self) -> None:
        self.left, self.right = self.right, self.left
        self.show()

    def action_next_change(self) -> None:
        self.query_one(DiffView).action_next_change()

    def action_previous_change(self) -> None:
        self.query_one(DiffView).action_previous_change()

    def action_close(self) -> None:
        self.dismiss(None)
