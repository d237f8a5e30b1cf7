"""The debug-task results of the current strategy or program version: task, pass/fail, feedback."""

from __future__ import annotations

from textual.widgets import DataTable

from genplan.tui.outcomes import category_of, outcome_text
from genplan.tui.run_state import CheckResult


def first_line(message: str, limit: int = 200) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


class ResultsTable(DataTable):
    DEFAULT_CSS = """
    ResultsTable { height: 8; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row")
        self.results: list[CheckResult] = []

    def on_mount(self) -> None:
        self.add_column("task", key="task")
        self.add_column("result", key="result")
        self.add_column("feedback", key="feedback")

    def show(self, results: list[CheckResult]) -> None:
        row = self.cursor_row
        self.clear()
        self.results = list(results)
        for result in self.results:
            verdict = outcome_text(category_of(result.kind, result.valid))
            self.add_row(result.task, verdict, first_line(result.message), key=result.task)
        if self.results:
            self.move_cursor(row=min(max(row, 0), len(self.results) - 1), animate=False)

    def selected(self) -> CheckResult | None:
        if not self.results or not 0 <= self.cursor_row < len(self.results):
            return None
        return self.results[self.cursor_row]
