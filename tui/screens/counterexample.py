"""A counterexample of a program version: where it came from, the shrunk task (PDDL and the Python encoding),
what the program returned and the feedback. p steps through that output, c continues the run with the task."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from genplan.tui.actions import bindings
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.text_view import TextView


def _size(data: dict[str, Any] | None) -> str:
    if not data:
        return "?"
    return f"{data.get('objects')} objects, {data.get('init')} initial facts, {data.get('goal')} goal facts"


def counterexample_text(record: dict[str, Any], pddl: str) -> str:
    """The screen's text from a search record (engine.counterexample.record) and the task file's text."""
    if not record.get("task"):
        return (f"No counterexample: the program solved all {record.get('tasks_tried')} tasks tried "
                f"({record.get('search_seconds', 0.0):.1f} s).")
    shrunk = record.get("shrunk") or {}
    failure = shrunk.get("failure") or record.get("failure") or {}
    plan = failure.get("plan")
    output = "\n".join(plan) if plan else ("(an empty plan)" if plan is not None else "(no plan)")
    lines = [
        f"Found after {record.get('tasks_tried')} tasks ({record.get('search_seconds', 0.0):.1f} s): {record.get('source')}",
        f"Original size: {_size(record.get('original_size'))}",
        f"Shrunk size:   {_size(record.get('shrunk_size'))} ({shrunk.get('steps', 0)} steps, "
        f"{shrunk.get('tries', 0)} tries, {shrunk.get('seconds', 0.0):.1f} s)",
        f"Fails with:    {failure.get('category')} ({failure.get('kind')}) under ordering {failure.get('ordering')}",
        *([f"Stages:        {shrunk['stages_text']}"] if shrunk.get("stages_text") else []),
        "", "── The task (PDDL) ──", "", pddl.rstrip(),
        "", "── As the program receives it ──", "", str(failure.get("python_input", "")).rstrip(),
        "", "── The program's output ──", "", output,
        "", "── Feedback ──", "", str(failure.get("message", "")).strip(),
    ]
    return "\n".join(lines)


class CounterexampleScreen(Screen[str | None]):
    """Dismissed with "continue" or None."""

    BINDINGS = bindings("counterexample")
    AUTO_FOCUS = "TextView"
    DEFAULT_CSS = """
    CounterexampleScreen #counterexample-title { height: auto; background: $boost; padding: 0 1; text-style: bold; }
    """

    def __init__(self, title: str, record: dict[str, Any], pddl: str,
                 on_plan: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.on_plan = on_plan  # opens the plan stepper above this screen
        self.title_text = title
        self.record = record
        self.text = counterexample_text(record, pddl)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="counterexample-title")
            yield TextView(self.text, id="counterexample-text")
        yield KeyBar()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_plan(self) -> None:
        if self.on_plan is not None:
            self.on_plan()

    def action_continue(self) -> None:
        if not self.record.get("task"):
            self.notify("No counterexample to continue with.", severity="warning")
            return
        self.dismiss("continue")
