"""Stepping through a plan action by action: facts added and removed, the state, the failing step."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static

from genplan.tui.actions import bindings
from genplan.tui.plan_trace import FAILED, NOT_RUN, PlanTrace
from genplan.tui.widgets.key_bar import KeyBar

STATUS_STYLE = {"ok": "green", FAILED: "bold red", NOT_RUN: "dim"}


class PlanStepperScreen(Screen[None]):
    BINDINGS = bindings("stepper")
    DEFAULT_CSS = """
    PlanStepperScreen #plan-summary { height: auto; max-height: 4; background: $boost; padding: 0 1; }
    PlanStepperScreen #plan-steps { width: 45%; min-width: 30; height: 1fr; }
    PlanStepperScreen #plan-detail { width: 1fr; height: 1fr; padding: 0 1; }
    """

    def __init__(self, title: str, trace: PlanTrace) -> None:
        super().__init__()
        self.title_text = title
        self.trace = trace
        self.show_static = False  # facts no action changes (road maps, types) fill the state: hidden by default
        self.row = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._summary(), id="plan-summary")
            with Horizontal():
                yield DataTable(id="plan-steps", cursor_type="row")
                with VerticalScroll(id="plan-detail"):
                    yield Static(id="plan-effects")
        yield KeyBar()

    def _summary(self) -> Text:
        text = Text(self.title_text, style="bold")
        text.append(f" — {self.trace.summary}", style="green" if self.trace.result.valid else "red")
        if self.trace.message:
            text.append("\n" + self.trace.message, style="italic")
        return text

    def on_mount(self) -> None:
        table = self.query_one("#plan-steps", DataTable)
        table.add_column("#", key="index")
        table.add_column("action", key="action")
        table.add_column("", key="status")
        table.add_row("", Text("(initial state)", style="dim"), "", key="initial")
        for step in self.trace.steps:
            table.add_row(str(step.number), Text(step.action, style=STATUS_STYLE.get(step.status, "")),
                          Text(step.status, style=STATUS_STYLE.get(step.status, "")), key=str(step.index))
        table.add_row("", Text("(goal)", style="dim"), "", key="goal")
        table.focus()
        if self.trace.failing_step is not None:
            self.action_jump_failure()
        else:
            self.show_row(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_row(event.cursor_row)

    def show_row(self, row: int) -> None:
        """Row 0 is the initial state, rows 1..n the actions, the last row the goal check."""
        self.row = row
        trace = self.trace
        detail = Text()
        if row == 0:
            detail.append("Initial state", style="bold")
            detail.append(self._static_note() + "\n", style="dim")
            for fact in self._visible(trace.initial_state):
                detail.append(f"  {fact}\n")
        elif row <= len(trace.steps):
            step = trace.steps[row - 1]
            detail.append(f"Step {step.number}: {step.action}", style="bold")
            detail.append(f"   [{step.status}]\n", style=STATUS_STYLE.get(step.status, ""))
            if step.status == FAILED:
                detail.append("\nNot executable — unsatisfied preconditions:\n", style="bold red")
                for fact in step.unsatisfied:
                    detail.append(f"  ✗ {fact}\n", style="bold red")
                if trace.result.kind not in ("unsatisfied-precondition", "unsatisfied-static-precondition"):
                    detail.append(f"  {trace.message}\n", style="red")
            elif step.status == NOT_RUN:
                detail.append("\nNot executed: the plan failed before this step.\n", style="dim")
            else:
                detail.append("\nAdded:\n", style="bold green")
                for fact in step.added or ["(nothing)"]:
                    detail.append(f"  + {fact}\n", style="green")
                detail.append("Removed:\n", style="bold red")
                for fact in step.deleted or ["(nothing)"]:
                    detail.append(f"  - {fact}\n", style="red")
                if step.fired:
                    detail.append("Conditional effects that fired:\n", style="bold")
                    for effect in step.fired:
                        detail.append(f"  ⇒ {effect}\n")
            state = trace.state_after(step.index) if step.status == "ok" else trace.state_before(step.index)
            detail.append("\nState " + ("after this step" if step.status == "ok" else "before this step"),
                          style="bold")
            detail.append(self._static_note() + ":\n", style="dim")
            added = set(step.added)
            for fact in self._visible(state):
                detail.append(f"  {fact}\n", style="green" if fact in added else "")
            if step.status == "ok" and step.deleted:
                detail.append("\nNo longer true after this step:\n", style="bold red")
                for fact in sorted(step.deleted):
                    detail.append(f"  - {fact}\n", style="red")
        else:
            detail.append("Goal after the last executed step\n", style="bold")
            for fact, holds in trace.goal_status():
                detail.append(f"  {'✓' if holds else '✗'} {fact}\n", style="green" if holds else "bold red")
        self.query_one("#plan-effects", Static).update(detail)

    def _visible(self, facts: object) -> list[str]:
        shown = sorted(facts)  # type: ignore[call-overload]
        return shown if self.show_static else [f for f in shown if f not in self.trace.static]

    def _static_note(self) -> str:
        count = len(self.trace.static)
        if not count:
            return ""
        return f" ({count} static facts shown; s hides them)" if self.show_static else \
            f" ({count} static facts hidden; s shows them)"

    def action_toggle_static(self) -> None:
        self.show_static = not self.show_static
        self.show_row(self.row)

    def action_jump_failure(self) -> None:
        failing = self.trace.failing_step
        if failing is None:
            self.notify("The plan is valid.")
            return
        row = failing + 1 if failing < len(self.trace.steps) else len(self.trace.steps) + 1
        self.query_one("#plan-steps", DataTable).move_cursor(row=row)
        self.show_row(row)

    def action_first(self) -> None:
        self.query_one("#plan-steps", DataTable).move_cursor(row=0)

    def action_last(self) -> None:
        self.query_one("#plan-steps", DataTable).move_cursor(row=len(self.trace.steps) + 1)

    def action_close(self) -> None:
        self.dismiss(None)
