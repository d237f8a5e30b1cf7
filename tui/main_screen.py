"""The main screen: the six tabs, the totals bar and the key bar, and what the controllers ask of them (the
``Views`` of tui/controllers/base.py). It reacts to its widgets' messages (a tab shown, a row or a tree node
highlighted, a file read in a worker) and shows what the controllers hand it; it decides nothing about runs
or versions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static, TabbedContent, TabPane

from . import messages as msg
from .artifacts import Version
from .domain_info import DomainInfo, TaskInfo, nl_description
from .run_state import RunState, TimelineEntry, Update, round_text
from .widgets.key_bar import KeyBar
from .widgets.panels import (
    DomainPanel,
    RunPanel,
    RunResults,
    RunsPanel,
    RunsTable,
    RunTimeline,
    TaskList,
    TasksPanel,
    VersionsPanel,
    run_header,
)
from .widgets.results_matrix import MatrixTable, ResultsPanel
from .widgets.stream_view import StreamView
from .widgets.timeline import Timeline
from .widgets.totals_bar import UNPRICED_TOAST, TotalsBar
from .widgets.versions_tree import NodeRef, VersionsTree

if TYPE_CHECKING:
    from genplan.engine.runs.store import RunInfo
    from genplan.engine.versions import RunOverview

    from .controllers.runs import RunsController

# The timeline is brought up to date at most this often while events arrive (each sync lays it out again
# and may move its cursor); the other views follow every tick.
TIMELINE_INTERVAL_S = 0.25
UNPRICED_TOAST_S = 4
FOCUS_TARGETS: dict[str, type[Widget]] = {"tasks": TaskList, "runs": RunsTable, "run": RunTimeline,
                                          "versions": VersionsTree, "results": MatrixTable}


def command_text(entry: TimelineEntry, run_dir: Path | None) -> str:
    """A game command's row in full: the command, what the game answered (or why it refused), and the trial's
    observation history as the engine wrote it (observations.md)."""
    data = entry.data
    answer = str(data.get("error") or data.get("observation") or "").strip()
    lines = [f"**› {entry.title}**", "", "```text", answer or "(no answer)", "```"]
    transcript = run_dir / "observations.md" if run_dir is not None else None
    if transcript is not None and transcript.is_file():
        lines += ["", "---", "", transcript.read_text(encoding="utf-8", errors="replace")]
    return "\n".join(lines)


def stream_title(entry: TimelineEntry | None, rid: str) -> str:
    if entry is None:
        return f"request {rid}"
    return f"request {rid} · {entry.title} {entry.detail}".strip() + f" · {entry.status}"


class MainScreen(Screen[None]):
    def __init__(self, on_mounted: Callable[[], None]) -> None:
        super().__init__()
        self.on_mounted = on_mounted  # the app starts loading once the panels are there
        self.runs: RunsController | None = None  # set by the app once the controllers exist
        self.active = "domain"  # the tab shown, as the TabActivated messages say
        self.timeline_pending: set[int] = set()  # entries changed since the timeline was last synced
        self.timeline_synced = 0.0
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
            self.query_one("#classroom-caption", Static).display = True
            self.show_caption(None)
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

    def rerun_applies(self) -> bool:
        """x (rerun) is offered for programs and strategies: not for a PDDLego+ trial's or an AutoToS run's rows
        and versions (their files are compared and edited, never rerun here)."""
        if self.active == "versions":  # kept by the tab handler: no query of the screen on every refresh
            return self.ctl.versions.rerun_applies()
        if self.active == "run":
            return not self.ctl.own_loop_shown()
        return True

    def update_applicable(self) -> None:
        """Which keys apply changed? Only then redraw the footer (it rebuilds all its keys)."""
        runs = self.ctl
        applicable = (runs.replay.replaying, runs.replay.replayer is not None, bool(runs.pending),
                      runs.session is not None, self.rerun_applies())
        if applicable != self.applicable:
            self.applicable = applicable
            self.app.refresh_bindings()

    def refresh_totals(self) -> None:
        if self.runs is None or self.runs.host.shutting_down() or not self.query(TotalsBar):
            return  # shutting down
        runs = self.runs
        self.query_one(TotalsBar).show(runs.state, mode=runs.mode, source=runs.source_label(), live=runs.live,
                                       status=runs.status())
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
        if self.runs is None or self.runs.host.shutting_down() or self.runs.ctx.domain_info is None:
            return
        task = self.query_one(TasksPanel).selected()
        if task is not None:
            self.show_task(task)

    @work(thread=True, exclusive=True, group="task-view")
    def show_task(self, task: TaskInfo) -> None:
        ctx = self.ctl.ctx
        info = ctx.domain_info
        if info is None:
            return
        found = nl_description(task, [r.path for r in ctx.runs])
        nl = found[0] if found else "No run has described this task in natural language yet."
        pddl, python = task.pddl_text(), info.python_text(task)
        self.app.call_from_thread(self.show_task_texts, pddl, nl, python)

    def show_task_texts(self, pddl: str, nl: str, python: str) -> None:
        if not self.ctl.host.shutting_down():
            self.query_one(TasksPanel).show_task(pddl, nl, python)

    def selected_task(self) -> TaskInfo | None:
        return self.query_one(TasksPanel).selected()

    def show_runs(self, runs: list[RunInfo], overviews: dict[str, RunOverview]) -> None:
        self.query_one(RunsPanel).show(runs, overviews)

    def selected_run_id(self) -> str | None:
        return self.query_one(RunsPanel).selected()

    # ================================================================== the run view
    def reset_run(self, note: str, show: bool = True) -> None:
        self.timeline_pending.clear()
        self.timeline_synced = 0.0  # the new run's first rows appear at once
        panel = self.query_one(RunPanel)
        panel.query_one(RunTimeline).reset()
        panel.query_one(RunResults).show([])
        panel.query_one(StreamView).show(None, note, "")
        if show:
            self.show_tab("run")

    def show_run_events(self, state: RunState, update: Update, started: list[str],
                        streamed: dict[str, list[str]]) -> None:
        if not self.query(RunPanel):
            return  # the app is closing
        self.timeline_pending.update(update.entries)
        self.sync_timeline(state)
        stream = self.query_one(RunPanel).query_one(StreamView)
        if started and self.following():
            rid = started[-1]
            stream.show(rid, stream_title(state.entry(f"req:{rid}"), rid), state.stream_text(rid))
        else:
            for rid, pieces in streamed.items():
                stream.append(rid, "".join(pieces))
        if stream.request_id is not None and update.entries:
            followed = state.entry(f"req:{stream.request_id}")
            if followed is not None:
                stream.set_title(stream_title(followed, stream.request_id))
                if followed.status not in ("running", "paused"):
                    stream.view.finish()  # the answer is complete: render all of it
        if update.results:
            self.show_results(state)

    def sync_timeline(self, state: RunState) -> None:
        if not self.timeline_pending:
            return
        now = time.monotonic()
        if now - self.timeline_synced < TIMELINE_INTERVAL_S:
            return
        timelines = self.query(RunTimeline)
        if not timelines:
            return  # the app is closing: the panels are being removed (a drain tick can still come)
        timelines.first().sync(state, Update(entries=sorted(self.timeline_pending)))
        self.timeline_pending.clear()
        self.timeline_synced = now

    def following(self) -> bool:
        timeline = self.query_one(RunTimeline)
        return timeline.row_count == 0 or timeline.cursor_row >= timeline.row_count - 1

    def show_results(self, state: RunState) -> None:
        table = state.current_table
        panel = self.query_one(RunPanel)
        panel.query_one(RunResults).show(list(table.values()))
        if state.current_results is not None:
            what, version = state.current_results
            solved = sum(r.valid for r in table.values())
            panel.query_one("#results-title", Static).update(
                f"debug results: {what} {version} — {solved}/{len(table)} passed", layout=False)

    def show_progress(self, title: str, text: str) -> None:
        stream = self.query_one(RunPanel).query_one(StreamView)
        if stream.request_id is None:
            stream.show(None, title, text)

    def show_run_header(self) -> None:
        run_dir = self.ctl.run_dir
        run_id = run_dir.name if run_dir is not None else None
        self.query_one("#run-header", Static).update(run_header(run_id, self.ctl.ctx.overviews.get(run_id or "")))

    def timeline_entry(self) -> TimelineEntry | None:
        state = self.ctl.state
        if state is None:
            return None
        key = self.query_one(RunTimeline).selected_key()
        return state.entry(key) if key else None

    def timeline_focused(self) -> bool:
        return isinstance(self.app.focused, RunTimeline)

    def selected_result(self) -> Any:
        return self.query_one(RunResults).selected()

    def on_timeline_highlighted(self, event: Timeline.Highlighted) -> None:
        if event.timeline.id != "run-timeline" or self.runs is None:
            return
        entry = self.timeline_entry()
        if self.runs.replay.classroom:
            self.show_caption(entry)
        if entry is None:
            return
        if self.following() and entry.kind != "request":
            return  # following the run: the answer being written stays in view
        self.show_entry_content(entry)

    def show_entry(self) -> None:
        entry = self.timeline_entry()
        if entry is not None:
            self.show_entry_content(entry)

    def show_entry_content(self, entry: TimelineEntry) -> None:
        state = self.ctl.state
        stream = self.query_one(StreamView)
        if state is None:
            return
        if entry.kind == "request" and entry.request_id is not None:
            rid = entry.request_id
            if entry.status in ("running", "paused") or not entry.data.get("response_file"):
                stream.show(rid, stream_title(entry, rid), state.stream_text(rid))
            else:
                self.read_for_view("stream", stream_title(entry, rid), lambda: state.response_text(rid), rid)
            return
        if entry.kind in ("artifact", "edit") and entry.file is not None:
            file = entry.file

            def read() -> str:
                try:
                    text = file.read_text(encoding="utf-8", errors="replace")
                except OSError as exc:
                    return f"cannot read {file}: {exc.strerror or exc}"
                return f"```python\n{text}\n```" if file.suffix == ".py" else text

            self.read_for_view("stream", f"{entry.title} · {file.name}", read)
            return
        if entry.kind == "check":
            data = entry.data
            lines = [f"**{entry.title} on {entry.detail}: {'pass' if data.get('valid') else 'fail'}**", ""]
            if data.get("message"):
                lines += [str(data["message"]), ""]
            if isinstance(data.get("plan"), list):
                lines += ["```", *[str(a) for a in data["plan"]], "```"]
            stream.show(None, entry.title, "\n".join(lines))
            return
        if entry.kind == "command":  # PDDLego+/PlanGen: the game's whole answer, then the transcript so far
            self.read_for_view("stream", f"› {entry.title}", lambda: command_text(entry, state.run_dir))
            return
        if entry.kind == "round":  # AutoToS: the failed unit test and the feedback the model got, as the engine wrote it
            stream.show(None, entry.title, round_text(entry))
            return
        stream.show(None, entry.title, entry.detail or entry.title)

    @work(thread=True, exclusive=True, group="read-for-view")
    def read_for_view(self, target: str, title: str, read: Callable[[], str], request_id: str | None = None) -> None:
        """File reads happen here, never on the event loop (a busy disk can stall them)."""
        self.post_message(msg.TextLoaded(target, title, read(), request_id))

    def on_text_loaded(self, message: msg.TextLoaded) -> None:
        if self.ctl.host.shutting_down():
            return
        if message.target == "stream":
            self.query_one(StreamView).show(message.request_id, message.title, message.text)
        elif message.target == "preview":
            panel = self.query_one(VersionsPanel)
            selected = panel.selected()
            if selected is not None and selected.key == message.title:
                panel.show_preview(message.text, selected.syntax)

    # ================================================================== classroom mode
    def toggle_classroom(self) -> None:
        on = not self.ctl.replay.classroom
        self.app.set_class(on, "classroom")  # app.tcss: the calmer layout (larger content, fewer panels)
        self.query_one("#classroom-caption", Static).display = on
        if on:
            self.show_caption(self.timeline_entry())
        self.ctl.replay.stop_at_stages(on)
        self.notify("Classroom mode: the caption under the timeline explains the chosen row." if on
                    else "Classroom mode off.", timeout=3)

    def show_caption(self, entry: TimelineEntry | None) -> None:
        from .classroom import stage_caption

        # it wraps (up to three lines, app.tcss): the reason for a feedback is the point of the caption
        self.query_one("#classroom-caption", Static).update(Text(stage_caption(entry)))

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
        self.read_for_view("preview", key, read)

    def update_run(self, run_id: str, versions: list[Version] | None = None, overview: Any = None) -> None:
        self.query_one(VersionsPanel).update_run(run_id, versions=versions, overview=overview)

    def show_versions(self, versions: list[Version], overviews: list[RunOverview],
                      arranged: dict[str, list[tuple[str, str | None, Version]]]) -> None:
        self.query_one(VersionsPanel).show(versions, overviews, arranged)

    def set_current_run(self, run_id: str) -> None:
        self.query_one(VersionsPanel).set_current_run(run_id)

    def matrix_run_id(self) -> str | None:
        overview = self.query_one(ResultsPanel).overview
        return overview.run_id if overview is not None else None

    def show_matrix(self, overview: RunOverview | None) -> None:
        self.query_one(ResultsPanel).show(overview)

    def selected_outcome(self) -> Any:
        return self.query_one(ResultsPanel).selected_outcome()
