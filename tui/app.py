"""The genplan TUI application: panels, modes, and the glue between the engine and the views.

The state is declared in app_state.py and changed only on the UI thread. Long work (loading, the pipeline,
reruns, settings that import the model client) runs in workers and comes back as messages or queued events.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static, TabbedContent, TabPane

from genplan.engine.events import Event, TextDelta
from genplan.engine.runs import layout

from . import messages as msg
from .actions import bindings
from .app_counterexample import CounterexampleMixin
from .app_runs import RunsMixin
from .app_versions import VersionsMixin
from .domain_info import TaskInfo, load_domain_info, nl_description, runs_only_info
from .run_state import TimelineEntry, Update, round_text
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
)
from .widgets.results_matrix import MatrixTable, ResultsPanel
from .widgets.stream_view import StreamView
from .widgets.timeline import Timeline
from .widgets.totals_bar import TotalsBar
from .widgets.versions_tree import VersionsTree

DRAIN_INTERVAL_S = 0.05
UI_SWITCH_INTERVAL_S = 0.001
DRAIN_BATCH = 400  # events per tick: a long log loads over several ticks, the UI stays responsive
# The timeline is brought up to date at most this often while events arrive (each sync lays it out again
# and may move its cursor); the other views follow every tick.
TIMELINE_INTERVAL_S = 0.25
TABS = ("domain", "tasks", "runs", "run", "versions", "results")
UNPRICED_TOAST_S = 4
# versions that are not rerun here (x is not offered on them): AutoToS's functions, PDDLego+'s files
NOT_RERUN = ("function", "pddl")
# files by which an own-loop run's directory is known: a PDDLego+/PlanGen trial's, an AutoToS run's versions
OWN_LOOP_MARKS = (layout.TRIAL, "pddl", "versions")


@dataclass
class LaunchOptions:
    domain_dir: Path
    # where the runs are: None for the domain's .genplan/runs/; a directory of runs of `genplan autotos`,
    # `genplan import autotos`, `genplan pddlego`, `genplan run --out`, ...
    runs_dir: Path | None = None
    no_domain: bool = False  # opened on runs alone (domain_dir is then the runs directory): no domain to load
    run: str | None = None
    replay: str | None = None
    speed: float = 1.0
    preset: str | None = None
    cli_settings: dict[str, Any] = field(default_factory=dict)
    # PipelineConfig fields given on the command line (split_seed, max_concurrency), as `genplan run` takes them
    pipeline_changes: dict[str, Any] = field(default_factory=dict)
    no_cache: bool = False  # do not use the on-disk response cache
    # an own-loop preset's evaluation (AutoToS): only the first N eval tasks (0: none); None: all of them
    eval_limit: int | None = None
    # a PDDLego+ or PlanGen trial's game: {"seed": N, "locations": N} as given; the rest as the approach's defaults
    game: dict[str, int] = field(default_factory=dict)
    config_file: Path | None = None
    step: bool = False
    classroom: bool = False  # the caption under the timeline (stage of the method, why a feedback); L toggles it
    watch_files: bool = True
    # Warm up after the first frame and freeze the long-lived heap (see responsiveness.py).
    tune_gc: bool = True


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


def coalesce_deltas(events: list[Event]) -> list[Event]:
    """Merge consecutive streamed fragments of one request into one event (fewer updates per frame)."""
    merged: list[Event] = []
    for event in events:
        previous = merged[-1] if merged else None
        if (isinstance(event, TextDelta) and isinstance(previous, TextDelta)
                and event.request_id == previous.request_id):
            merged[-1] = replace(previous, text=previous.text + event.text, seq=event.seq, time=event.time)
        else:
            merged.append(event)
    return merged


def resolve_run(runs_dir: Path, run: str) -> Path:
    """A run given as a directory, or as the id of a run in ``runs_dir`` (the domain's, or the one given)."""
    candidate = Path(run)
    if layout.is_run_dir(candidate):
        return candidate
    return runs_dir / run


MAX_TOASTS = 2


class GenplanApp(RunsMixin, VersionsMixin, CounterexampleMixin):
    TITLE = "genplan"
    CSS_PATH = "app.tcss"
    BINDINGS = bindings("app")

    # ================================================================== layout
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

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's notify, with at most MAX_TOASTS notes on screen: the oldest give way, as more stacked up
        would cover the debug results at 80x24 (Textual keeps every note until it times out)."""
        shown = list(self._notifications)
        for older in shown[: max(len(shown) - (MAX_TOASTS - 1), 0)]:
            self._unnotify(older, refresh=False)  # textual 8.2 (pinned); no public way to drop one note
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def on_mount(self) -> None:
        # The pipeline, the sandbox and the renderers run in threads; switching the GIL more often keeps
        # the event loop's waits for it short (the UI stays responsive while they work).
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(UI_SWITCH_INTERVAL_S)
        self.title = f"genplan — {self.domain_dir.name}"
        if self.classroom:
            self.set_class(True, "classroom")  # app.tcss: the calmer layout
            self.main.query_one("#classroom-caption", Static).display = True
            self.show_caption(None)
        self.refresh_totals()
        self.set_interval(DRAIN_INTERVAL_S, self.drain_events)
        self.set_interval(1.0, self.refresh_totals)
        if self.options.tune_gc:
            from . import responsiveness

            self._gc_state = responsiveness.freeze_long_lived()
            self.heap_freezes += 1
        self.load_domain()
        self.call_after_refresh(self._first_paint)

    def _first_paint(self) -> None:
        self.first_screen_at = time.perf_counter()
        # These import the engine's pipeline and model client (seconds on a slow machine): after the first frame.
        self.load_runs()
        self.load_settings()
        if self.options.tune_gc:
            self.warm_up()

    # ================================================================== loading
    @work(thread=True, exclusive=True, group="warm-up")
    def warm_up(self) -> None:
        from . import responsiveness

        responsiveness.warm_up()
        try:
            self.call_from_thread(self._freeze_heap)
        except RuntimeError:  # the app exited meanwhile
            pass

    def _freeze_heap(self) -> None:
        from . import responsiveness

        if self._gc_state is not None and not self._exiting:
            responsiveness.freeze_long_lived(self._gc_state)
            self.heap_freezes += 1

    @work(thread=True, exclusive=True, group="domain")
    def load_domain(self) -> None:
        if self.options.no_domain:
            self.post_message(msg.DomainLoaded(runs_only_info(self.runs_dir)))
            return
        self.post_message(msg.DomainLoaded(load_domain_info(self.domain_dir)))

    @work(thread=True, exclusive=True, group="runs")
    def load_runs(self) -> None:
        """The runs first, then every version in them: reading all the versions of many runs takes a while
        (a second with 50 runs of 20 versions on a busy machine), and the Runs view need not wait for it."""
        from genplan.engine.runs.store import RunStore
        from genplan.engine.versions import domain_overview

        from .widgets.versions_tree import arrange_by_run

        runs = RunStore.list_runs_in(self.runs_dir)
        overviews = domain_overview(self.runs_dir)
        self.post_message(msg.RunsFound(runs, overviews))
        versions = self.version_index.scan()
        self.post_message(msg.RunsListed(runs, versions, overviews, arrange_by_run(versions)))

    @work(thread=True, exclusive=True, group="settings")
    def load_settings(self) -> None:
        from .config import load_tui_settings

        settings, prefs, error = load_tui_settings(self.options.config_file, cli=self.options.cli_settings)
        if self.options.preset:
            from genplan.engine.pipeline import ConfigError

            from .config import check_preset

            try:
                prefs.preset = check_preset(self.options.preset)
                prefs.overrides = {}
            except ConfigError as exc:
                error = error or str(exc)
        self.post_message(msg.SettingsLoaded(settings, prefs, error))

    def on_domain_loaded(self, message: msg.DomainLoaded) -> None:
        if self.shutting_down():
            return  # shutting down
        info = message.info
        self.domain_info = info
        self.main.query_one(DomainPanel).show(info)
        if self.options.runs_dir is not None:
            self.main.query_one("#runs-title", Static).update(
                f"Runs in {self.runs_dir} (enter opens, y replays, c resumes an unfinished run)")
        self.main.query_one(TasksPanel).show_tasks(info.tasks)
        if info.error and not self.options.no_domain:
            self.notify(info.error, title="Domain", severity="error", timeout=10)
        self.status_note = "ready"
        self.refresh_totals()
        if self.options.watch_files and self._watcher is None:
            self.start_watcher()
        self.start_deferred()

    def on_runs_found(self, message: msg.RunsFound) -> None:
        """Only the Runs view: the app takes the runs in with their versions (on_runs_listed)."""
        if self.shutting_down():
            return  # shutting down
        self.main.query_one(RunsPanel).show(message.runs, {o.run_id: o for o in message.overviews})

    def on_runs_listed(self, message: msg.RunsListed) -> None:
        if self.shutting_down():
            return  # shutting down
        first = not self.runs and self.run_state is None
        self.runs = message.runs
        self.overviews = {o.run_id: o for o in message.overviews}
        panel = self.main.query_one(VersionsPanel)
        panel.show(message.versions, message.overviews, message.arranged)
        self.show_run_header()
        self.show_matrix()
        self.update_task_view()
        if first and self.run_state is None:
            if self.options.replay:
                self.open_run(resolve_run(self.runs_dir, self.options.replay), replay=True)
            elif self.options.run:
                self.open_run(resolve_run(self.runs_dir, self.options.run))

    def on_settings_loaded(self, message: msg.SettingsLoaded) -> None:
        if self.shutting_down():
            return  # shutting down
        self.settings, self.prefs, self.settings_error = message.settings, message.prefs, message.error
        self.apply_user_keymap(getattr(message.prefs, "keymap", {}))
        if message.error:
            self.notify(message.error, title="Settings", severity="error", timeout=10)
        self.refresh_totals()
        self.start_deferred()

    @property
    def main(self) -> Screen:
        """The main screen (panels, totals), even while another screen is on top of it."""
        return self.screen_stack[0] if self.screen_stack else self.screen

    # ================================================================== totals / mode
    @property
    def mode(self) -> str:
        if self.replayer is not None:
            if self.replayer.finished:
                return "replay (finished)"
            return "replay (paused)" if self.replayer.paused else f"replay ×{self.replayer.clock.speed:g}"
        return "step" if self.stepping.is_set() else "watch"

    def _replaying(self) -> bool:
        return self.replayer is not None and not self.replayer.finished

    def source_label(self) -> str:
        model = "no model: you answer" if self.settings is not None and not self.settings.is_configured else (
            self.settings.model if self.settings is not None else "…")
        run = f"run {self.run_dir.name}" if self.run_dir is not None else "no run open"
        return f"{self.domain_dir.name} · {run} · {self.shown_preset()} · {model}"

    def shown_preset(self) -> str:
        """The preset of the run shown (as its run.json says), of the run being started, else the app's."""
        if self.run_dir is not None:
            run_id = self.run_dir.name
            overview = self.overviews.get(run_id)
            if overview is not None and overview.preset not in ("", "?"):
                return overview.preset
            listed = next((r.preset for r in self.runs if r.run_id == run_id and r.preset not in ("", "?")), None)
            if listed:
                return listed
        if self.session is not None and self.session.start is not None:
            return str(self.session.label)
        return self.prefs.preset if self.prefs is not None else ""

    def refresh_totals(self) -> None:
        if self.shutting_down():
            return  # shutting down
        if not self.main.query(TotalsBar):
            return  # shutting down
        status = None
        if self.pending:
            status = "waiting for you (a)"
        elif self.run_state is None:
            status = self.status_note
        elif self.live and not self.run_state.entries and self._progress_lines:
            status = "preparing"  # an own-loop run's tasks (AutoToS: instances, unit tests, optimal plans)
        self.main.query_one(TotalsBar).show(self.run_state, mode=self.mode, source=self.source_label(),
                                       live=self.live, status=status)
        if self.run_state is not None and not self.run_state.totals.cost_known and not self._unpriced_told:
            from .widgets.totals_bar import UNPRICED_TOAST

            # one short line, soon gone: the totals bar keeps "+N unpriced" and its tooltip explains it
            self._unpriced_told = True
            self.notify(UNPRICED_TOAST, timeout=UNPRICED_TOAST_S)
        self.update_applicable()

    def update_applicable(self) -> None:
        """Which keys apply changed? Only then redraw the footer (it rebuilds all its keys)."""
        applicable = (self._replaying(), self.replayer is not None, bool(self.pending), self.session is not None,
                      self.rerun_applies())
        if applicable != self._applicable:
            self._applicable = applicable
            self.refresh_bindings()

    def rerun_applies(self) -> bool:
        """x (rerun) is offered for programs and strategies: not for a PDDLego+ trial's or an AutoToS run's rows
        and versions (their files are compared and edited, never rerun here)."""
        tab = self._active_tab  # kept by the tab handler: no query of the screen on every refresh
        if tab == "versions":
            version = self.main.query_one(VersionsPanel).selected()
            return version is None or version.kind not in NOT_RERUN
        if tab == "run":
            return not self.own_loop_shown()
        return True

    def own_loop_shown(self) -> bool:
        """Whether the run shown is an own-loop run (a PDDLego+ or PlanGen trial, an AutoToS run)."""
        if self.session is not None:  # a run going on: its approach says whether it writes programs
            return not self.session.writes_programs
        run_dir = self.run_dir
        if run_dir is None:
            return False
        known = self._own_loop_runs.get(run_dir)
        if known is None:
            known = self._own_loop_runs[run_dir] = any((run_dir / name).exists() for name in OWN_LOOP_MARKS)
        return known

    # ================================================================== events
    def engine_event(self, event: Any) -> None:
        """Called from pipeline threads (and the replayer): queue it for the UI."""
        self.events.put(event)

    def drain_events(self) -> None:
        if self.shutting_down():
            return  # shutting down
        if self.run_state is None or not self.main.query(RunPanel):
            return
        batch = coalesce_deltas(self.events.take(DRAIN_BATCH))
        if not batch:
            self._sync_timeline()
            return
        state = self.run_state
        changed: set[int] = set()
        results = totals = False
        streamed: dict[str, list[str]] = {}
        started: list[str] = []
        for event in batch:
            update: Update = state.apply(event)
            changed.update(update.entries)
            results = results or update.results
            totals = totals or update.totals or update.status
            if update.stream_started:
                started.append(update.stream_started)
            if update.stream is not None:
                streamed.setdefault(update.stream[0], []).append(update.stream[1])
            if update.artifact is not None and update.artifact.file is not None:
                self.index_file(update.artifact.file, from_watcher=False)
        self._timeline_pending |= changed
        self._sync_timeline()
        panel = self.main.query_one(RunPanel)
        stream = panel.query_one(StreamView)
        if started and self._following():
            rid = started[-1]
            entry = state.entry(f"req:{rid}")
            stream.show(rid, self._stream_title(entry, rid), state.stream_text(rid))
        else:
            for rid, pieces in streamed.items():
                stream.append(rid, "".join(pieces))
        if stream.request_id is not None and changed:
            followed = state.entry(f"req:{stream.request_id}")
            if followed is not None:
                stream.set_title(self._stream_title(followed, stream.request_id))
                if followed.status not in ("running", "paused"):
                    stream.view.finish()  # the answer is complete: render all of it
        if results:
            self.show_results()
        if (results or totals) and self.run_dir is not None:
            self.schedule_overview(self.run_dir.name)
        if totals or changed:
            self.refresh_totals()

    def show_run_header(self) -> None:
        from .widgets.panels import run_header

        run_id = self.run_dir.name if self.run_dir is not None else None
        self.main.query_one("#run-header", Static).update(run_header(run_id, self.overviews.get(run_id or "")))

    def _sync_timeline(self) -> None:
        if not self._timeline_pending or self.run_state is None:
            return
        now = time.monotonic()
        if now - self._timeline_synced < TIMELINE_INTERVAL_S:
            return
        timelines = self.main.query(RunTimeline)
        if not timelines:
            return  # the app is closing: the panels are being removed (a drain tick can still come)
        timelines.first().sync(self.run_state, Update(entries=sorted(self._timeline_pending)))
        self._timeline_pending.clear()
        self._timeline_synced = now

    def reset_timeline(self) -> None:
        """Empty the timeline for another run."""
        self._timeline_pending.clear()
        self._timeline_synced = 0.0  # the new run's first rows appear at once
        self.main.query_one(RunPanel).query_one(RunTimeline).reset()

    def _following(self) -> bool:
        timeline = self.main.query_one(RunTimeline)
        return timeline.row_count == 0 or timeline.cursor_row >= timeline.row_count - 1

    def _stream_title(self, entry: TimelineEntry | None, rid: str) -> str:
        if entry is None:
            return f"request {rid}"
        return f"request {rid} · {entry.title} {entry.detail}".strip() + f" · {entry.status}"

    def show_results(self) -> None:
        state = self.run_state
        if state is None:
            return
        table = state.current_table
        panel = self.main.query_one(RunPanel)
        panel.query_one(RunResults).show(list(table.values()))
        if state.current_results is not None:
            what, version = state.current_results
            solved = sum(r.valid for r in table.values())
            panel.query_one("#results-title", Static).update(
                f"debug results: {what} {version} — {solved}/{len(table)} passed", layout=False)

    def on_tree_node_highlighted(self, event: VersionsTree.NodeHighlighted) -> None:
        if self.screen_stack and event.control.id == "versions-tree":
            self.version_highlighted()
            self.update_applicable()

    def on_timeline_highlighted(self, event: Timeline.Highlighted) -> None:
        if self.screen_stack and event.timeline.id == "run-timeline":
            self.timeline_highlighted()

    def timeline_highlighted(self) -> None:
        entry = self._timeline_entry()
        if self.classroom:
            self.show_caption(entry)
        if entry is None:
            return
        if self._following() and entry.kind != "request":
            return  # following the run: the answer being written stays in view
        self.show_entry_content(entry)

    # ================================================================== classroom mode
    def action_toggle_classroom(self) -> None:
        self.classroom = not self.classroom
        self.set_class(self.classroom, "classroom")  # app.tcss: the calmer layout (larger content, fewer panels)
        caption = self.main.query_one("#classroom-caption", Static)
        caption.display = self.classroom
        if self.classroom:
            self.show_caption(self._timeline_entry())
        self.stop_at_stages(self.classroom)
        self.notify("Classroom mode: the caption under the timeline explains the chosen row." if self.classroom
                    else "Classroom mode off.", timeout=3)

    def stop_at_stages(self, on: bool) -> None:
        """Classroom mode: a replay pauses before each new stage of the method until space is pressed."""
        from genplan.engine.events import StepStarted

        replayer = self.replayer
        if replayer is None:
            return
        replayer.stops_before = (lambda event: isinstance(event, StepStarted)) if on else None
        replayer.on_stop = self._stage_reached if on else None

    def _stage_reached(self, event: Event) -> None:
        from .classroom import PHASES

        phase = str(event.data.get("phase") or event.data.get("step") or "")
        self.notify(f"Next: {PHASES.get(phase, phase)}. space goes on.", title="Classroom", timeout=4)
        self.refresh_totals()

    def show_caption(self, entry: TimelineEntry | None) -> None:
        from .classroom import stage_caption

        # it wraps (up to three lines, app.tcss): the reason for a feedback is the point of the caption
        self.main.query_one("#classroom-caption", Static).update(Text(stage_caption(entry)))

    def action_show_entry(self) -> None:
        entry = self._timeline_entry()
        if entry is not None:
            self.show_entry_content(entry)

    def _timeline_entry(self) -> TimelineEntry | None:
        if self.run_state is None:
            return None
        key = self.main.query_one(RunTimeline).selected_key()
        return self.run_state.entry(key) if key else None

    def show_entry_content(self, entry: TimelineEntry) -> None:
        state = self.run_state
        stream = self.main.query_one(StreamView)
        if state is None:
            return
        if entry.kind == "request" and entry.request_id is not None:
            rid = entry.request_id
            if entry.status in ("running", "paused") or not entry.data.get("response_file"):
                stream.show(rid, self._stream_title(entry, rid), state.stream_text(rid))
            else:
                self.read_for_view("stream", self._stream_title(entry, rid), lambda: state.response_text(rid), rid)
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
        if self.shutting_down():
            return
        if message.target == "stream":
            self.main.query_one(StreamView).show(message.request_id, message.title, message.text)
        elif message.target == "preview":
            panel = self.main.query_one(VersionsPanel)
            selected = panel.selected()
            if selected is not None and selected.key == message.title:
                panel.show_preview(message.text, selected.syntax)

    # ================================================================== tasks
    @on(OptionList.OptionHighlighted, "#task-list")
    def task_highlighted(self) -> None:
        self.update_task_view()

    def update_task_view(self) -> None:
        if self.shutting_down():
            return  # shutting down
        if self.domain_info is None:
            return
        task = self.main.query_one(TasksPanel).selected()
        if task is None:
            return
        self.show_task(task)

    @work(thread=True, exclusive=True, group="task-view")
    def show_task(self, task: TaskInfo) -> None:
        info = self.domain_info
        if info is None:
            return
        run_dirs = [r.path for r in self.runs]
        found = nl_description(task, run_dirs)
        nl = found[0] if found else "No run has described this task in natural language yet."
        pddl, python = task.pddl_text(), info.python_text(task)
        self.call_from_thread(self._show_task_texts, pddl, nl, python)

    def _show_task_texts(self, pddl: str, nl: str, python: str) -> None:
        if self.shutting_down():
            return  # shutting down
        self.main.query_one(TasksPanel).show_task(pddl, nl, python)

    # ================================================================== screens & navigation
    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if self.screen_stack and event.tabbed_content.id == "tabs" and event.pane.id == "results":
            self.matrix_shown()
        if self.screen_stack and event.tabbed_content.id == "tabs":
            self._active_tab = event.pane.id or ""
            self.update_applicable()

    def action_show_tab(self, tab: str) -> None:
        self.main.query_one(TabbedContent).active = tab
        if tab == "results":
            self.matrix_shown()
        focus_targets: dict[str, type[Widget]] = {"tasks": TaskList, "runs": RunsTable, "run": RunTimeline,
                                                  "versions": VersionsTree, "results": MatrixTable}
        target = focus_targets.get(tab)
        if target is not None:
            self.main.query_one(target).focus()

    def action_help(self) -> None:
        from .actions import help_markdown
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen(help_markdown(self.keymap, self.get_key_display_for)))

    def get_key_display_for(self, key: str) -> str:
        return self.get_key_display(Binding(key, ""))

    def action_settings(self) -> None:
        from .config import config_path, preset_choices
        from .screens.settings import SettingsResult, SettingsScreen

        if self.settings is None or self.prefs is None:
            self.notify("Still loading the settings; try again in a moment.", severity="warning")
            return

        def saved(result: SettingsResult | None) -> None:
            if result is None:
                return
            self.settings, self.prefs = result.settings, result.prefs
            self.notify(f"Settings saved to {result.path}")
            self.refresh_totals()

        self.push_screen(SettingsScreen(self.settings, self.prefs, config_path(self.options.config_file),
                                        preset_choices()), saved)

    def apply_user_keymap(self, keymap: dict[str, str]) -> None:
        """The settings file's [keymap]: binding id -> keys (checked when the file was read)."""
        self.keymap = dict(keymap)
        self.set_keymap(self.keymap)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False hides a binding that makes no sense right now (keeps the footer short at 80 columns).
        if action in ("pause_replay", "replay_speed"):
            return self._replaying()
        if action in ("replay_step", "replay_back", "replay_next_answer"):
            return self.replayer is not None
        if action == "answer_pending":
            return bool(self.pending)
        if action == "stop_run":
            return self.session is not None
        if action == "rerun_selected":
            return self.rerun_applies()
        return True

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        from .actions import palette_actions, palette_title

        yield from super().get_system_commands(screen)
        seen: set[str] = set()
        for entry in palette_actions():  # the action table: the same actions as the keys and the help
            action = entry.action.removeprefix("app.")
            if action in seen or not self.check_action(action.split("(")[0], ()):
                continue
            seen.add(action)
            yield SystemCommand(palette_title(entry), entry.help, lambda action=action: self.run_action(action))

    async def action_quit(self) -> None:
        self.shutdown()
        self.exit()

    def shutdown(self) -> None:
        if self.session is not None:
            self.session.stop()
        for info in self._rerun_jobs.values():
            info["cancel"].set()
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    def on_unmount(self) -> None:
        self._exiting = True
        self.shutdown()
        sys.setswitchinterval(self._switch_interval)
        if self._gc_state is not None:
            from . import responsiveness

            responsiveness.restore(self._gc_state)
            self._gc_state = None
