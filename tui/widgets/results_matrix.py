"""The results matrix: every checked version of a run (rows) × the debug tasks (columns), one outcome per
cell — a glyph and a short word — with the chosen cell's feedback below. ``enter`` opens the cell's plan
in the plan stepper (or its feedback when the check produced no plan).

The outcomes come from the engine (``engine.versions.run_overview``); this panel only lays them out.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from genplan.tui.actions import bindings
from genplan.tui.outcomes import count_text, legend, look
from genplan.tui.widgets.text_view import TextView


class MatrixTable(DataTable):
    BINDINGS = bindings("matrix")


def cell_text(outcome: Any) -> Text:
    if outcome is None:
        return Text("·", style="dim")
    found = look(outcome.category)
    return Text(f"{found.glyph} {found.short}", style=found.style)


def version_name(results: Any) -> Text:
    """The version's label; strategies (v01) and programs (c1-v00) are told apart by their names."""
    return Text(results.label + (" all" if results.all_tasks else ""), style="bold")


class ResultsPanel(Vertical):
    DEFAULT_CSS = """
    ResultsPanel #matrix-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    ResultsPanel #matrix-legend { height: auto; max-height: 2; color: $text-muted; padding: 0 1; }
    ResultsPanel #matrix-table { height: 1fr; }
    ResultsPanel #matrix-detail { height: 7; border-top: solid $panel-lighten-2; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.overview: Any = None  # engine.versions.VersionsOverview
        self.rows: list[Any] = []  # VersionResults per row

    def compose(self) -> ComposeResult:
        yield Static("results: no run open", id="matrix-title")
        yield Static(legend(), id="matrix-legend")
        yield MatrixTable(id="matrix-table", cursor_type="cell", zebra_stripes=True, fixed_columns=2)
        yield TextView(id="matrix-detail")

    @property
    def table(self) -> MatrixTable:
        return self.query_one(MatrixTable)

    def show(self, overview: Any) -> None:
        """Lay out one run's results (keeps the cursor on the same version and task where it can)."""
        table = self.table
        previous = self.selected()
        self.overview = overview
        self.rows = [r for r in overview.results] if overview is not None else []
        table.clear(columns=True)
        if overview is None:
            self.query_one("#matrix-title", Static).update("results: no run open")
            self.query_one("#matrix-detail", TextView).load_text("")
            return
        title = f"results of run {overview.run_id}: {len(self.rows)} versions × {len(overview.tasks)} debug tasks"
        if overview.forked_from:
            title += f" · fork of {overview.forked_from}"
        self.query_one("#matrix-title", Static).update(title)
        table.add_column("version", key="version")
        table.add_column("passed", key="passed")
        for task in overview.tasks:
            table.add_column(task, key=task)
        for index, results in enumerate(self.rows):
            cells = [cell_text(results.outcome(task)) for task in overview.tasks]
            table.add_row(version_name(results), count_text(results.solved, results.total), *cells, key=str(index))
        if previous is not None:
            self.select(previous[0].what, previous[0].label, previous[1])
        elif self.rows:
            table.move_cursor(row=len(self.rows) - 1, column=2, animate=False)
        self.show_detail()

    def select(self, what: str, label: str, task: str | None) -> None:
        row = next((i for i, r in enumerate(self.rows) if (r.what, r.label) == (what, label)), None)
        if row is None or self.overview is None:
            return
        column = 2 + self.overview.tasks.index(task) if task in self.overview.tasks else 2
        self.table.move_cursor(row=row, column=column, animate=False)

    def selected(self) -> tuple[Any, str | None] | None:
        """(VersionResults, task name or None when the cursor is on the version's own columns)."""
        table = self.table
        if not self.rows or self.overview is None:
            return None
        row, column = table.cursor_coordinate
        if not 0 <= row < len(self.rows):
            return None
        task = self.overview.tasks[column - 2] if 2 <= column < 2 + len(self.overview.tasks) else None
        return self.rows[row], task

    def selected_outcome(self) -> tuple[Any, Any] | None:
        chosen = self.selected()
        if chosen is None or chosen[1] is None:
            return None
        outcome = chosen[0].outcome(chosen[1])
        return (chosen[0], outcome) if outcome is not None else None

    def show_detail(self) -> None:
        chosen = self.selected()
        view = self.query_one("#matrix-detail", TextView)
        if chosen is None:
            view.load_text("")
            return
        results, task = chosen
        if task is None:
            failed = [o.task for o in results.outcomes if not o.solved]
            view.load_text(f"{results.what} {results.label}: {results.solved}/{results.total} debug tasks passed"
                           + (f"; failed: {', '.join(failed)}" if failed else ""))
            return
        outcome = results.outcome(task)
        if outcome is None:
            view.load_text(f"{results.what} {results.label} was not checked on {task}.")
            return
        head = f"{results.what} {results.label} on {task}: {outcome.category}"
        if outcome.kind and outcome.kind != outcome.category:
            head += f" ({outcome.kind})"
        plan = f"; plan of {len(outcome.plan)} actions (enter: plan stepper)" if outcome.plan else ""
        view.load_text(head + plan + ("\n\n" + outcome.message if outcome.message else ""))

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        event.stop()
        self.show_detail()
