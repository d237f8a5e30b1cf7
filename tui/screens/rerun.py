"""Rerunning a program version on the debug (or eval) tasks: progress, per-task results, feedback."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, cast

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, ProgressBar, Static

from genplan.tui.actions import bindings
from genplan.tui.artifacts import Version
from genplan.tui.outcomes import category_of, outcome_text
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.results_table import first_line
from genplan.tui.widgets.text_view import TextView


class RerunHost(Protocol):
    """What the screen asks of the one who opened it (the versions controller, tui/controllers/versions.py)."""

    def open_plan_stepper(self, task_path: Path, plan: list[str], title: str) -> None: ...
    def rerun_current_on(self, task_set: str, screen: RerunScreen) -> None: ...
    def cancel_rerun(self, job: int) -> None: ...


class RerunScreen(Screen[None]):
    """Filled by the app as RerunProgress messages arrive (``add_result``)."""

    BINDINGS = bindings("rerun")
    DEFAULT_CSS = """
    RerunScreen #rerun-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    RerunScreen ProgressBar { height: 1; padding: 0 1; }
    RerunScreen #rerun-table { height: 1fr; }
    RerunScreen #rerun-detail { height: 1fr; }
    """

    def __init__(self, job: int, title: str, task_set: str, host: RerunHost | None = None) -> None:
        super().__init__()
        self._host = host
        self.job = job
        self.title_text = title
        self.task_set = task_set
        self.checks: list[tuple[Any, Path]] = []
        self.finished = False
        self.error: str | None = None
        self.version: Version | None = None  # the program version rerun (the app sets it)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.title_text} — {self.task_set} tasks", id="rerun-title")
            yield ProgressBar(show_eta=False, id="rerun-progress")
            yield DataTable(id="rerun-table", cursor_type="row")
            yield TextView(id="rerun-detail")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#rerun-table", DataTable)
        table.add_column("task", key="task")
        table.add_column("result", key="result")
        table.add_column("time", key="time")
        table.add_column("feedback", key="feedback")
        table.focus()

    def add_result(self, index: int, total: int, check: Any, task_path: Path) -> None:
        self.checks.append((check, task_path))
        bar = self.query_one(ProgressBar)
        bar.update(total=total, progress=index + 1)
        verdict = outcome_text(category_of(check.kind, check.solved))
        runtime = f"{check.runtime:.2f}s" if check.runtime is not None else ""
        table = self.query_one("#rerun-table", DataTable)
        table.add_row(check.task, verdict, runtime, first_line(check.message or "plan is valid"), key=check.task)
        if len(self.checks) == 1:
            self.show_detail(0)

    def finish(self, error: str | None) -> None:
        self.finished = True
        self.error = error
        solved = sum(1 for check, _ in self.checks if check.solved)
        summary = f"{self.title_text} — {self.task_set} tasks: {solved}/{len(self.checks)} solved"
        if error:
            summary += f" — stopped: {error}"
        self.query_one("#rerun-title", Static).update(summary)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail(event.cursor_row)

    def show_detail(self, row: int) -> None:
        if not 0 <= row < len(self.checks):
            return
        check, _path = self.checks[row]
        parts = [f"{check.task}: {'solved' if check.solved else 'not solved'}"]
        if check.message:
            parts += ["", check.message]
        if check.output:
            parts += ["", f"plan ({len(check.output)} actions):"] + [f"  {a}" for a in check.output[:200]]
            if len(check.output) > 200:
                parts.append(f"  ... {len(check.output) - 200} more")
        stdout = (check.details or {}).get("stdout")
        if stdout:
            parts += ["", "program output:", stdout]
        self.query_one("#rerun-detail", TextView).load_text("\n".join(parts))

    def selected(self) -> tuple[Any, Path] | None:
        row = self.query_one("#rerun-table", DataTable).cursor_row
        return self.checks[row] if 0 <= row < len(self.checks) else None

    def action_plan(self) -> None:
        chosen = self.selected()
        if chosen is None or not chosen[0].output:
            self.notify("This task has no plan to step through (the program returned none).", severity="warning")
            return
        check, path = chosen
        self.host.open_plan_stepper(path, list(check.output), f"{self.title_text} on {check.task}")

    def action_eval(self) -> None:
        self.host.rerun_current_on("eval", self)

    def action_close(self) -> None:
        self.host.cancel_rerun(self.job)
        self.dismiss(None)

    @property
    def host(self) -> RerunHost:
        return self._host if self._host is not None else cast(RerunHost, self.app)
