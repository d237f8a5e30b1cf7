"""The five panels of the main screen. They only display; actions live in the app (``app.*`` bindings)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option

from ..artifacts import Version
from ..domain_info import DomainInfo, TaskInfo
from .code_area import CodeArea
from .markdown_view import MarkdownView
from .results_table import ResultsTable
from .stream_view import StreamView
from .timeline import Timeline


class DomainPanel(Vertical):
    DEFAULT_CSS = """
    DomainPanel #domain-description { height: 7; border-bottom: solid $panel-lighten-2; }
    """

    def compose(self) -> ComposeResult:
        yield MarkdownView(id="domain-description")
        yield CodeArea("", syntax="pddl", read_only=True, id="domain-code")

    def on_mount(self) -> None:
        self.query_one("#domain-description", MarkdownView).update("Loading the domain…", follow=False)

    def show(self, info: DomainInfo) -> None:
        self.query_one("#domain-description", MarkdownView).update(info.describe(), follow=False)
        self.query_one("#domain-code", CodeArea).load_text(info.domain_text)


class TaskList(OptionList):
    BINDINGS = [Binding("p", "app.plan_stepper", "Plan stepper")]


class TasksPanel(Horizontal):
    DEFAULT_CSS = """
    TasksPanel #task-list { width: 24; height: 1fr; }
    TasksPanel #task-tabs { width: 1fr; height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tasks: list[TaskInfo] = []

    def compose(self) -> ComposeResult:
        yield TaskList(id="task-list")
        with TabbedContent(id="task-tabs"):
            with TabPane("PDDL", id="task-pddl-tab"):
                yield CodeArea("", syntax="pddl", read_only=True, id="task-pddl")
            with TabPane("NL", id="task-nl-tab"):
                yield CodeArea("No run has described this task yet.", syntax="markdown", read_only=True,
                               soft_wrap=True, id="task-nl")
            with TabPane("Python", id="task-python-tab"):
                yield CodeArea("", syntax="python", read_only=True, soft_wrap=True, id="task-python")

    def show_tasks(self, tasks: list[TaskInfo]) -> None:
        self.tasks = tasks
        options = self.query_one("#task-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options([Option(task.label, id=task.label) for task in tasks])
        if tasks:
            options.highlighted = min(highlighted or 0, len(tasks) - 1)

    def selected(self) -> TaskInfo | None:
        index = self.query_one("#task-list", OptionList).highlighted
        if index is None or not 0 <= index < len(self.tasks):
            return None
        return self.tasks[index]

    def show_task(self, pddl: str, nl: str, python: str) -> None:
        self.query_one("#task-pddl", CodeArea).load_text(pddl)
        self.query_one("#task-nl", CodeArea).load_text(nl)
        self.query_one("#task-python", CodeArea).load_text(python)


class RunsTable(DataTable):
    BINDINGS = [
        Binding("enter", "app.open_selected_run", "Open run"),
        Binding("y", "app.replay_selected_run", "Replay"),
        Binding("c", "app.resume_run", "Resume"),
    ]


class RunsPanel(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("Runs of this domain (enter opens, y replays, c resumes an unfinished run)", classes="panel-title")
        yield RunsTable(id="runs-table", cursor_type="row")

    def on_mount(self) -> None:
        table = self.query_one(RunsTable)
        for column in ("run", "status", "preset", "model", "created"):
            table.add_column(column, key=column)

    def show(self, runs: list) -> None:
        table = self.query_one(RunsTable)
        table.clear()
        for run in reversed(runs):  # newest first
            style = {"finished": "green", "failed": "red", "running": "yellow", "stopped": "magenta"}.get(run.status, "")
            table.add_row(run.run_id, Text(run.status, style=style), run.preset, run.model or "manual",
                          run.created, key=run.run_id)

    def selected(self) -> str | None:
        table = self.query_one(RunsTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key((table.cursor_row, 0)).row_key.value


class RunTimeline(Timeline):
    BINDINGS = [
        Binding("enter", "app.show_entry", "Show"),
        Binding("e", "app.edit_selected", "Edit"),
        Binding("x", "app.rerun_selected", "Rerun"),
    ]


class RunResults(ResultsTable):
    BINDINGS = [Binding("p", "app.plan_stepper", "Plan stepper")]


class RunPanel(Vertical):
    DEFAULT_CSS = """
    RunPanel #run-top { height: 1fr; }
    RunPanel #run-timeline { width: 55%; }
    RunPanel #results-title { height: 1; background: $boost; padding: 0 1; }
    RunPanel #run-results { height: 7; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="run-top"):
            yield RunTimeline(id="run-timeline")
            yield StreamView(id="run-stream")
        yield Static("debug results", id="results-title")
        yield RunResults(id="run-results")


class VersionsTable(DataTable):
    BINDINGS = [
        Binding("e", "app.edit_selected", "Edit"),
        Binding("m", "app.mark_selected", "Mark"),
        Binding("c", "app.compare_selected", "Compare"),
        Binding("h", "app.history_selected", "History"),
        Binding("x", "app.rerun_selected", "Rerun"),
    ]


class VersionsPanel(Horizontal):
    DEFAULT_CSS = """
    VersionsPanel #versions-table { width: 42; height: 1fr; }
    VersionsPanel #version-preview { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.versions: list[Version] = []
        self.marked: str | None = None

    def compose(self) -> ComposeResult:
        yield VersionsTable(id="versions-table", cursor_type="row")
        yield CodeArea("", read_only=True, soft_wrap=True, id="version-preview")

    def on_mount(self) -> None:
        table = self.query_one(VersionsTable)
        table.add_column("", key="mark")
        table.add_column("run", key="run")
        table.add_column("kind", key="kind")
        table.add_column("version", key="version")

    def show(self, versions: list[Version]) -> None:
        table = self.query_one(VersionsTable)
        selected = self.selected()
        row = table.cursor_row
        table.clear()
        self.versions = list(versions)
        for version in self.versions:
            mark = "●" if version.key == self.marked else ""
            table.add_row(mark, version.run_id, version.kind, version.name, key=version.key)
        if self.versions:
            keys = [v.key for v in self.versions]
            target = keys.index(selected.key) if selected is not None and selected.key in keys else row
            table.move_cursor(row=min(max(target, 0), len(keys) - 1), animate=False)

    def selected(self) -> Version | None:
        table = self.query_one(VersionsTable)
        if not self.versions or not 0 <= table.cursor_row < len(self.versions):
            return None
        return self.versions[table.cursor_row]

    def show_preview(self, text: str, syntax: str) -> None:
        self.query_one("#version-preview", CodeArea).show(text, syntax)

    def set_mark(self, key: str | None) -> None:
        self.marked = key
        table = self.query_one(VersionsTable)
        for version in self.versions:
            table.update_cell(version.key, "mark", "●" if version.key == key else "")
