"""The main screen: the six tabs, the totals bar and the key bar, and what the controllers ask of them (the
``Views`` of tui/controllers/base.py). It reacts to its widgets' messages (a tab shown, a row or a tree node
highlighted, a file read in a worker) and shows what the controllers hand it; it decides nothing about runs
or versions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static, TabbedContent, TabPane, TextArea

from genplan.tui.artifacts import Version
from genplan.tui.domain_info import DomainInfo, TaskInfo
from genplan.tui.run_state import RUNNING, CheckResult, RunState, TimelineEntry, Update
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.panels import (
    DomainPanel,
    RunPanel,
    RunResults,
    RunsPanel,
    RunsTable,
    RunTimeline,
    TaskList,
    TasksPanel,
    VersionsPanel,
)
from genplan.tui.widgets.results_matrix import MatrixTable, ResultsPanel
from genplan.tui.widgets.timeline import Timeline
from genplan.tui.widgets.totals_bar import UNPRICED_TOAST, TotalsBar
from genplan.tui.widgets.versions_tree import NodeRef, VersionsTree

if TYPE_CHECKING:
    from genplan.engine.api.runs import RunInfo
    from genplan.engine.api.versions import TaskOutcome, VersionResults, VersionsOverview
    from genplan.tui.controllers.runs import RunsController

UNPRICED_TOAST_S = 4
# the replay's keys (space . , n + -)
REPLAY_ACTIONS = frozenset({"pause_replay", "replay_speed", "replay_step", "replay_back", "replay_next_answer"})
FOCUS_TARGETS: dict[str, type[Widget]] = {"tasks": TaskList, "runs": RunsTable, "run": RunTimeline,
                                          "versions": VersionsTree, "results": MatrixTable}


class MainScreen(Screen[None]):
    def __init__(self, on_mounted: Callable[[], None]) -> None:
        super().__init__()
        self.on_mounted = on_mounted  # the app starts loading once the panels are there
        self.runs: RunsController | None = None  # set by the app once the controllers exist
        self.active = "domain"  # the tab shown, as the TabActivated messages say
        self.unpriced_told = False  # "+N unpriced" in the totals was explained once
        self.applicable: tuple[bool, ...] | None = None  # what the app's check_action last depended on

    @property
    def ctl(self) -> RunsController:
        assert self.runs is not None
        return self.runs

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs", initial="domain"):
            with TabPane("1 Domain", id="domain"):
                yield DomainPanel(id="domain-panel")
            with TabPane("2 Tasks", id="tasks"):
                yield TasksPanel(id="tasks-panel")
            with TabPane("3 Runs", id="runs"):
                yield RunsPanel(id="runs-panel")
            with TabPane("4 Run", id="run"):
                yield RunPanel(id="run-panel")
            with TabPane("5 Versions", id="versions"):
                yield VersionsPanel(id="versions-panel")
            with TabPane("6 Results", id="results"):
                yield ResultsPanel(id="results-panel")
        yield TotalsBar(id="totals")
        yield KeyBar()

    def on_mount(self) -> None:
        if self.ctl.replay.classroom:  # started with --classroom
            self.app.set_class(True, "classroom")  # app.tcss: the calmer layout
            self.run_panel.show_caption(None)
        self.on_mounted()

    # ================================================================== tabs and keys
    def active_tab(self) -> str:
        return self.query_one(TabbedContent).active

    def show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        if tab == "results":
            self.ctl.versions.matrix_shown()
        target = FOCUS_TARGETS.get(tab)
        if target is not None:
            self.query_one(target).focus()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.tabbed_content.id != "tabs" or self.runs is None:
            return
        if event.pane.id == "results":
            self.ctl.versions.matrix_shown()
        self.active = event.pane.id or ""
        self.update_applicable()

    def applies(self, action: str) -> bool:
        """Whether a key makes sense now: False hides it (keeps the footer short at 80 columns)."""
        runs = self.ctl
        if action in REPLAY_ACTIONS and self.typing():
            return False  # space, +, -, . and , are the text's characters there
        if action in ("pause_replay", "replay_speed"):
            return runs.replay.replaying
        if action in ("replay_step", "replay_back", "replay_next_answer"):
            return runs.replay.replayer is not None
        if action == "answer_pending":
            return bool(runs.pending)
        if action == "stop_run":
            return runs.session is not None
        if action == "rerun_selected":
            return self.rerun_applies()
        return True

    def typing(self) -> bool:
        """Whether the focus is in a text a person types (the editor, an answer, a search)."""
        return isinstance(self.app.focused, (TextArea, Input)) and not getattr(self.app.focused, "read_only", False)

    def rerun_applies(self) -> bool:
        """x (rerun) is offered for programs and strategies: not for a PDDLego+ trial's or an AutoToS run's rows
        and versions (their files are compared and edited, never rerun here)."""
        if self.active == "versions":  # kept by the tab handler: no query of the screen on every refresh
            return self.ctl.versions.rerun_applies()
        if self.active == "run":
            return self.ctl.rerun_offered()
        return True

    def update_applicable(self) -> None:
        """Which keys apply changed? Only then redraw the footer (it rebuilds all its keys)."""
        runs = self.ctl
        replayer = runs.replay.replayer
        applicable = (runs.replay.replaying, replayer is not None, replayer is not None and replayer.paused,
                      bool(runs.pending), runs.session is not None, self.rerun_applies())
        if applicable != self.applicable:
            self.applicable = applicable
            self.app.refresh_bindings()

    def refresh_totals(self) -> None:
        if self.runs is None or self.runs.host.shutting_down() or not self.query(TotalsBar):
            return  # shutting down
        runs = self.runs
        self.query_one(TotalsBar).show(runs.state, mode=runs.mode, source=runs.source(), live=runs.live,
                                       status=runs.status(), caps=runs.caps())
        if runs.state is not None and not runs.state.totals.cost_known and not self.unpriced_told:
            # one short line, soon gone: the totals bar keeps "+N unpriced" and its tooltip explains it
            self.unpriced_told = True
            self.notify(UNPRICED_TOAST, timeout=UNPRICED_TOAST_S)
        self.update_applicable()

    # ================================================================== domain, tasks, runs
    def show_domain(self, info: DomainInfo, runs_title: str | None) -> None:
        self.query_one(DomainPanel).show(info)
        if runs_title is not None:
            self.query_one("#runs-title", Static).update(runs_title)
        self.query_one(TasksPanel).show_tasks(info.tasks)

    @on(OptionList.OptionHighlighted, "#task-list")
    def task_highlighted(self) -> None:
        self.update_task_view()

    def update_task_view(self) -> None:
        ctx = self.ctl.ctx
        if not self.ctl.host.shutting_down() and ctx.domain_info is not None:
            self.query_one(TasksPanel).show_selected(ctx.domain_info, [r.path for r in ctx.runs])

    def selected_task(self) -> TaskInfo | None:
        return self.query_one(TasksPanel).selected()

    def show_runs(self, runs: list[RunInfo], overviews: dict[str, VersionsOverview]) -> None:
        self.query_one(RunsPanel).show(runs, overviews)

    def selected_run_id(self) -> str | None:
        return self.query_one(RunsPanel).selected()

    # ================================================================== the run view
    @property
    def run_panel(self) -> RunPanel:
        return self.query_one(RunPanel)

    def reset_run(self, note: str, show: bool = True) -> None:
        self.run_panel.reset(note)
        if show:
            self.show_tab("run")

    def show_run_events(self, state: RunState, update: Update, started: list[str],
                        streamed: dict[str, list[str]]) -> None:
        if self.query(RunPanel):  # else the app is closing
            self.run_panel.show_events(state, update, started, streamed)

    def sync_timeline(self, state: RunState) -> None:
        panels = self.query(RunPanel)
        if panels:  # else the app is closing: the panels are being removed (a drain tick can still come)
            panels.first().sync_timeline(state)

    def show_progress(self, title: str, text: str) -> None:
        self.run_panel.show_progress(title, text)

    def show_run_header(self) -> None:
        run_dir = self.ctl.run_dir
        run_id = run_dir.name if run_dir is not None else None
        self.run_panel.show_header(run_id, self.ctl.ctx.overviews.get(run_id or ""),
                                   self.ctl.ctx.accounts.get(run_id or ""))

    def timeline_entry(self) -> TimelineEntry | None:
        state = self.ctl.state
        if state is None:
            return None
        key = self.query_one(RunTimeline).selected_key()
        return state.entry(key) if key else None

    def timeline_focused(self) -> bool:
        return isinstance(self.app.focused, RunTimeline)

    def selected_result(self) -> CheckResult | None:
        return self.query_one(RunResults).selected()

    def on_timeline_highlighted(self, event: Timeline.Highlighted) -> None:
        if event.timeline.id != "run-timeline" or self.runs is None:
            return
        entry = self.timeline_entry()
        if self.runs.replay.classroom:
            self.show_caption(entry)
        if entry is None:
            return
        if self.run_panel.following() and entry.kind != "request":
            return  # following the run: the answer being written stays in view
        self.show_entry_content(entry)

    def show_entry(self) -> None:
        entry = self.timeline_entry()
        if entry is not None:
            self.show_entry_content(entry)

    def show_entry_content(self, entry: TimelineEntry) -> None:
        if self.ctl.state is not None:
            self.run_panel.show_entry(self.ctl.state, entry)

    # ================================================================== classroom mode
    def show_caption(self, entry: TimelineEntry | None, shown: bool = True) -> None:
        """The chosen row's caption, read with the rows after it (was its feedback sent?) and whether the run goes
        on (a live run may still send it; a replay's rows so far are what the room has seen)."""
        state = self.ctl.state
        live = self.ctl.live or self.ctl.replay.replaying or (state is not None and state.status == RUNNING)
        self.run_panel.show_caption(entry, shown, timeline=state.entries if state is not None else (), live=live)

    def show_replay_note(self, note: str) -> None:
        self.run_panel.show_replay_note(note)

    def toggle_classroom(self) -> None:
        on = not self.ctl.replay.classroom
        self.app.set_class(on, "classroom")  # app.tcss: the calmer layout (larger content, fewer panels)
        self.show_caption(self.timeline_entry(), shown=on)
        self.ctl.replay.stop_at_stages(on)
        self.notify("Classroom mode: the caption under the timeline explains the chosen row." if on
                    else "Classroom mode off.", timeout=3)

    # ================================================================== versions and the results matrix
    def on_tree_node_highlighted(self, event: VersionsTree.NodeHighlighted) -> None:
        if event.control.id == "versions-tree" and self.runs is not None:
            self.runs.versions.highlighted()
            self.update_applicable()

    def selected_in_versions(self) -> Version | None:
        return self.query_one(VersionsPanel).selected()

    def selected_node(self) -> NodeRef | None:
        return self.query_one(VersionsPanel).selected_node()

    def selected_tree_run(self) -> str | None:
        return self.query_one(VersionsPanel).selected_run()

    def marked(self) -> str | None:
        return self.query_one(VersionsPanel).marked

    def set_mark(self, key: str | None) -> None:
        self.query_one(VersionsPanel).set_mark(key)

    def filter_versions(self) -> bool:
        panel = self.query_one(VersionsPanel)
        if panel.current_run is None and not panel.only_current:
            return False
        panel.toggle_filter()
        return True

    def show_preview(self, text: str, syntax: str, *, line_numbers: bool = True) -> None:
        self.query_one(VersionsPanel).show_preview(text, syntax, line_numbers=line_numbers)

    def read_preview(self, key: str, read: Callable[[], str]) -> None:
        self.query_one(VersionsPanel).read_preview(key, read)

    def update_run(self, run_id: str, versions: list[Version] | None = None, overview: VersionsOverview | None = None) -> None:
        if overview is not None:
            self.query_one(RunsPanel).update_run(run_id, overview)
        self.query_one(VersionsPanel).update_run(run_id, versions=versions, overview=overview)

    def show_versions(self, versions: list[Version], overviews: list[VersionsOverview],
                      arranged: dict[str, list[tuple[str, str | None, Version]]]) -> None:
        self.query_one(VersionsPanel).show(versions, overviews, arranged)

    def set_current_run(self, run_id: str) -> None:
        self.query_one(VersionsPanel).set_current_run(run_id)

    def matrix_run_id(self) -> str | None:
        overview = self.query_one(ResultsPanel).overview
        return overview.run_id if overview is not None else None

    def show_matrix(self, overview: VersionsOverview | None) -> None:
        self.query_one(ResultsPanel).show(overview)

    def selected_outcome(self) -> tuple[VersionResults, TaskOutcome] | None:
        return self.query_one(ResultsPanel).selected_outcome()
