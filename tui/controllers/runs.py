"""The run shown and the run going on: opening and replaying runs, driving the pipeline (or an approach's own
loop) through a session, step mode and manual answers, and applying the engine's events to the run's state.

The engine is reached through tui/session.py (the sessions) and the events; the views through ``Views``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

# genplan.engine.api is imported where it is used (it loads every approach): not before the first screen
from genplan.engine.events import Event, TextDelta
from genplan.tui import messages as msg
from genplan.tui.controllers.base import Context, Host, Views
from genplan.tui.controllers.replay import ReplayController
from genplan.tui.controllers.versions import VersionsController
from genplan.tui.run_state import PAUSED, RUNNING, RunState, Update
from genplan.tui.session import EventQueue, Fork, RunSession
from genplan.tui.widgets.totals_bar import Source

ORDER_WAIT_S = 1.5  # at most this long a question waits for an earlier one still on its way to the person

if TYPE_CHECKING:
    from genplan.engine.api import RunReport
    from genplan.tui.screens.step import StepChoice

DRAIN_BATCH = 400  # events per tick: a long log loads over several ticks, the UI stays responsive
MANUAL_NOTE = ("No model is configured: you will answer every request yourself (manual provider). "
               "Press s to set a model.")


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


class RunsController:
    def __init__(self, ctx: Context, host: Host, views: Views, versions: VersionsController) -> None:
        self.ctx, self.host, self.views, self.versions = ctx, host, views, versions
        versions.runs = versions.plans.runs = self
        self.state: RunState | None = None  # the shown run
        self.run_dir: Path | None = None
        self.live = False  # the shown run is running in this process
        self.events = EventQueue()  # its events, not yet applied to the state
        self.session: RunSession | None = None
        self.progress_lines: list[str] = []  # an own-loop run's progress lines (preparing its tasks)
        self.stepping = threading.Event()
        if ctx.options.step:
            self.stepping.set()
        self.pending: list[msg.StepRequested | msg.AnswerRequested] = []  # not yet decided
        self.asked: set[int] = set()  # the ids of the run's requests that reached the person
        self.order_wait_until: float | None = None  # waiting for an earlier request's question, until then
        self.request_screen_open = False
        # Set by "later": questions that arrive afterwards wait in the list until a is pressed, instead of opening
        # over whatever the person turned to (a run asks several at once: nl.task for every task).
        self.put_off = False
        self.deferred_start: tuple[Path | None, tuple[str, Path, str] | None] | None = None  # r pressed while loading
        self.after_stop: Callable[[], object] | None = None  # what follows once the stopped run has ended
        self.rerun_runs: dict[Path, bool] = {}  # run directory -> whether its versions can be rerun
        self.status_note = "loading"
        self.replay = ReplayController(host, views, ctx.options.speed, self.engine_event, self.rewind)
        self.replay.classroom = ctx.options.classroom
        self.handlers: dict[type[msg.WorkDone], Any] = {
            msg.RunProgress: self.on_run_progress, msg.RunCreated: self.on_run_created,
            msg.PipelineEnded: self.on_pipeline_ended, msg.StepRequested: self.on_question,
            msg.AnswerRequested: self.on_question,
        }

    # ------------------------------------------------------------------ what is shown
    @property
    def mode(self) -> str:
        return self.replay.mode() or ("step" if self.stepping.is_set() else "watch")

    def status(self) -> str | None:
        """The totals bar's status word, when the run's own status is not the point."""
        if self.pending:
            return "waiting for you (a)"
        if self.state is None:
            return self.status_note
        if self.live and not self.state.entries and self.progress_lines:
            return "preparing"  # an own-loop run's tasks (AutoToS: instances, unit tests, optimal plans)
        return None

    def shown_preset(self) -> str:
        """The preset of the run shown (as its run.json says), of the run being started, else the app's."""
        if self.run_dir is not None:
            run_id = self.run_dir.name
            overview = self.ctx.overviews.get(run_id)
            if overview is not None and overview.preset not in ("", "?"):
                return overview.preset
            listed = next((r.preset for r in self.ctx.runs if r.run_id == run_id and r.preset not in ("", "?")), None)
            if listed:
                return listed
        if self.session is not None and self.session.start is not None:
            return str(self.session.label)
        return self.ctx.prefs.preset if self.ctx.prefs is not None else ""

    def caps(self) -> Any:
        """The caps on a run's spend in force (the settings file's [budget] and the command line's), once the
        settings are read; before that the command line's."""
        return self.ctx.prefs.budget if self.ctx.prefs is not None else self.ctx.options.budget

    def source(self) -> Source:
        """Which domain, run, preset and model the totals bar names: a run opened or replayed names the model
        recorded in it (another model's run is not "you answer"); a run going on here, and no run, the session's."""
        settings = self.ctx.settings
        model = "no model: you answer" if settings is not None and not settings.is_configured else (
            (settings.model or "") if settings is not None else "…")
        if self.run_dir is not None and self.session is None:
            listed = next((r for r in self.ctx.runs if r.run_id == self.run_dir.name), None)
            if listed is not None:  # "" in run.json: no model was configured, a person answered
                model = listed.model or ("answered by hand" if listed.model == "" else "model not recorded")
        run = f"run {self.run_dir.name}" if self.run_dir is not None else "no run open"
        if self.ctx.options.read_only:  # served to a classroom: no model is asked here
            return Source(self.ctx.domain_dir.name, run, "", "read-only: watch and replay")
        return Source(self.ctx.domain_dir.name, run, self.shown_preset(), model)

    def source_label(self) -> str:
        return " · ".join(part for part in self.source() if part)

    def rerun_offered(self) -> bool:
        """Whether the run shown has versions to rerun (its approach writes programs); not a PDDLego+ or PlanGen
        trial, nor an AutoToS run."""
        if self.session is not None:  # a run going on: its approach says whether it writes programs
            return self.session.writes_programs
        run_dir = self.run_dir
        if run_dir is None:
            return True
        known = self.rerun_runs.get(run_dir)
        if known is None and not approaches_loaded():
            return True  # asked again once the warm-up thread has loaded them: no second of imports on the UI thread
        if known is None:  # its approach, as the registry knows it (none recorded: stein's; none known: rerun)
            from genplan.engine.api import approach_of_run
            from genplan.engine.api.presets import reruns_versions

            known = self.rerun_runs[run_dir] = reruns_versions(approach_of_run(run_dir))
        return known

    # ------------------------------------------------------------------ opening and replaying runs
    def open_run(self, run_dir: Path, replay: bool = False) -> None:
        from genplan.engine.api import runs as run_files

        if not run_files.is_run_dir(run_dir):
            self.host.notify(f"{run_dir}: not a genplan run directory (no {run_files.META})", severity="error")
            return
        if self.session is not None:
            self.host.notify("A run is going on; stop it first (ctrl+b).", severity="warning")
            return
        self.replay.stop()
        self.events.take(len(self.events))  # what is still queued belongs to the run shown before
        self.run_dir = run_dir
        self.state = RunState(run_dir)
        self.live = False
        self.run_opened(run_dir.name)
        self.views.reset_run("—")
        self.load_run_events(run_dir, replay)
        self.views.refresh_totals()

    def open_selected(self, replay: bool = False) -> None:
        run_id = self.views.selected_run_id()
        if run_id:
            self.open_run(self.ctx.runs_dir / run_id, replay=replay)

    def load_run_events(self, run_dir: Path, replay: bool) -> None:
        state = self.state  # the view the events are for; another run may be opened before they are read

        def load() -> None:
            from genplan.tui.replay import load_events

            try:
                events = load_events(run_dir)
            except OSError as exc:
                error = f"{run_dir}: {exc}"
                self.host.from_thread(lambda: self.host.notify(error, severity="error"))
                return

            def hand_over() -> None:  # in the app's thread, so no other run can be opened in between
                if self.state is not state:
                    return
                if replay:
                    self.replay.start(run_dir, events)
                else:
                    for event in events:
                        self.events.put(event)

            try:
                self.host.from_thread(hand_over)
            except RuntimeError:  # the app closed while the log was read: nothing is shown any more
                pass

        self.host.in_thread(load, "run-events", exclusive=True)

    def rewind(self, before: list[Event]) -> None:
        """The replay stepped back: the run's view again from the start, with the events before the position."""
        self.events.take(len(self.events))  # drop what is still queued from later events
        self.state = RunState(self.run_dir)
        self.views.reset_run("—", show=False)
        for event in before:
            self.events.put(event)

    def run_opened(self, run_id: str) -> None:
        """The Versions tree expands (and filters to) this run; the results matrix shows it."""
        self.views.set_current_run(run_id)
        self.versions.show_matrix(run_id)
        self.views.show_run_header()
        self.versions.schedule_overview(run_id)

    def export_shown(self) -> None:
        """The run shown as one HTML page beside it (engine.api.share, as `genplan export` writes it), in a
        worker; a note says where the page went."""
        from genplan.engine.api import runs as run_files

        run_dir = self.run_dir
        if run_dir is None or not run_files.is_run_dir(run_dir):
            self.host.notify("Open a run first (3 Runs, enter); E writes the run shown as a page.", severity="warning")
            return

        def export() -> None:
            from genplan.engine.api.share import ExportError, default_page, export_run

            try:
                page = export_run(run_dir, default_page(run_dir))
            except ExportError as exc:
                error = str(exc)
                self.host.from_thread(lambda: self.host.notify(error, severity="error", markup=False))
                return
            note = f"Page of {run_dir.name} written: {page.path} ({page.size / 1e6:.2f} MB)"
            self.host.from_thread(lambda: self.host.notify(note, timeout=12, markup=False))

        self.host.notify(f"Writing the page of {run_dir.name}…", markup=False)
        self.host.in_thread(export, "export", exclusive=True)

    # ------------------------------------------------------------------ starting runs
    def resume(self) -> None:
        run_dir = self.run_dir
        if self.views.active_tab() == "runs":
            run_id = self.views.selected_run_id()
            run_dir = self.ctx.runs_dir / run_id if run_id else run_dir
        if run_dir is None:
            self.host.notify("Open a run first (3 Runs, enter).", severity="warning")
            return
        from genplan.engine import api

        try:  # checked as the resume checks it, before anything is shown or written: a finished run, another domain
            api.resume_target(run_dir, self.ctx.domain_dir)
        except api.NotResumable as refused:
            self.host.notify(str(refused), title="Not resumed", severity="warning", timeout=12, markup=False)
            return
        self.start_run(run_dir=run_dir)

    def start_run(self, run_dir: Path | None = None, start_from: tuple[str, Path, str] | None = None,
                       strategy_check: tuple[Path, str, str] | None = None) -> None:
        ctx = self.ctx
        if self.session is not None:
            self.host.notify("A run is already going on.", severity="warning")
            return
        if ctx.settings is None or ctx.prefs is None or ctx.domain_info is None:
            # pressed in the first moments: start as soon as the settings and the domain are loaded
            first = self.deferred_start is None
            self.deferred_start = (run_dir, start_from)
            if first:
                self.host.notify("Starting as soon as the settings and the domain are loaded…")
            return
        if ctx.domain_info.error:
            self.host.notify("The domain could not be loaded; the pipeline cannot start.", severity="error")
            return
        self.replay.stop()
        new = None
        if run_dir is None and start_from is None and strategy_check is None:
            new = self.new_request()
            if new is None:
                return
        if not ctx.settings.is_configured:
            self.host.notify(MANUAL_NOTE, title="Manual provider", timeout=8)
        session = partial(RunSession, ctx.domain_dir, ctx.settings, self.host.post_message, self.engine_event,
                          self.stepping, no_cache=ctx.options.no_cache, memory_gib=ctx.options.memory_gib,
                          budget=self.caps())
        if strategy_check is not None:
            self.session = session(strategy_check=strategy_check, label="strategy check")
        elif run_dir is not None and start_from is not None:  # "continue from here" with an edited version
            kind, path, text = start_from
            relative = str(Path(path).resolve().relative_to(Path(run_dir).resolve()))
            self.session = session(fork=Fork(Path(run_dir), relative, kind, text), label=Path(run_dir).name)
        elif run_dir is not None:  # an unfinished run of any approach goes on; its answers on disk are kept
            self.session = session(resume=Path(run_dir), label=Path(run_dir).name)
        else:  # a new run of the chosen preset, whatever its approach
            assert new is not None
            request, note = new
            self.session = session(start=request, label=request.preset)
            self.show_new_run(None, note)
            self.run_session(self.session)
            return
        self.show_new_run(run_dir, "waiting for the first answer")
        self.run_session(self.session)

    def new_request(self) -> tuple[Any, str] | None:
        """A new run of the chosen preset, the same request for every approach (api.start_request): on this domain
        directory or in the approach's game, with the launch options the approach takes, the person's settings of
        the preset, its own evaluation as --eval-limit says; and the note shown until its first answer. None (after a
        one-line notice) when it cannot start here."""
        from genplan.engine import api
        from genplan.engine.api.presets import Capability, EvaluationSettings, RunOptions, start_target

        ctx = self.ctx
        assert ctx.prefs is not None
        changes, limit = ctx.options.pipeline_changes, ctx.options.eval_limit
        try:
            approach, preset = api.approach_of(ctx.prefs.preset)
            target = start_target(approach, ctx.domain_dir)
            if target is None:
                raise api.GenplanError(f"preset {preset}: not an approach the TUI can start here")
            options = RunOptions(seed=changes.get("split_seed"), max_concurrency=changes.get("max_concurrency"),
                                 faithful=changes.get("faithful"), memory_gib=ctx.options.memory_gib)
            game = dict(ctx.options.game) if approach.can(Capability.GAME) else {}  # which game a trial plays
            # every eval task unless --eval-limit says otherwise (0: none)
            evaluation = EvaluationSettings(enabled=limit is None or limit > 0, limit=limit)
            request, _unused = api.start_request(preset, target, ctx.runs_dir, options, evaluation=evaluation,
                                                 parameters={**ctx.prefs.parameters(), **game}, source="genplan-tui")
            api.prepare(request)  # its parameters checked now: a hand-edited settings file says so in one line
        except api.GenplanError as exc:
            self.host.notify(str(exc), severity="error")
            return None
        if target == str(ctx.domain_dir):
            return request, "waiting for the first answer"
        return request, f"{preset}: starting the game ({target})"

    def show_new_run(self, run_dir: Path | None, note: str) -> None:
        self.events.take(len(self.events))  # the run shown before may not have been applied in full
        self.state = RunState(run_dir)
        self.run_dir = run_dir
        self.live = True
        self.progress_lines = []
        self.views.reset_run(note)

    def continue_trial(self, run_dir: Path, relative: str, text: str, kind: str) -> None:
        """A new run that continues ``run_dir`` from an edit of its file ``relative`` of ``kind`` (a PDDLego+
        trial's PDDL file: the same game; an AutoToS function), the calls before it kept; api.fork and api.resume
        do the rest."""
        if self.session is not None:
            self.host.notify("A run is already going on.", severity="warning")
            return
        if self.ctx.settings is None:
            self.host.notify("The settings are still loading; try again in a moment.", severity="warning")
            return
        self.replay.stop()
        if not self.ctx.settings.is_configured:
            self.host.notify("No model is configured: you will answer every request after the edit yourself "
                             "(manual provider). Press s to set a model.", title="Manual provider", timeout=8)
        ctx = self.ctx
        self.session = RunSession(ctx.domain_dir, ctx.settings, self.host.post_message, self.engine_event,
                                  self.stepping, fork=Fork(run_dir, relative, kind, text),
                                  no_cache=ctx.options.no_cache, label=run_dir.name, budget=self.caps())
        self.show_new_run(None, f"continuing {run_dir.name} from the edited {Path(relative).name}")
        self.run_session(self.session)

    def run_session(self, session: RunSession) -> None:
        def run() -> None:
            try:
                result = session.run()
            except Exception as exc:  # noqa: BLE001 - shown as one line
                # genplan's own errors are written for the person; anything else is named by its type
                from genplan.engine.api import GenplanError

                said = str(exc) if isinstance(exc, GenplanError) else f"{type(exc).__name__}: {exc}"
                self.host.post_message(msg.PipelineEnded(None, said))
                return
            self.host.post_message(msg.PipelineEnded(result, None))

        self.host.in_thread(run, "pipeline", exclusive=True)
        self.views.refresh_totals()

    def start_deferred(self) -> None:
        """A start asked for while loading goes ahead once everything it needs is there."""
        if self.deferred_start is not None and self.ctx.settings is not None and self.ctx.domain_info is not None:
            run_dir, start_from = self.deferred_start
            self.deferred_start = None
            self.start_run(run_dir=run_dir, start_from=start_from)

    # ------------------------------------------------------------------ what the run tells
    def on_run_progress(self, message: msg.RunProgress) -> None:
        """An own-loop run's progress lines: shown in the answer view until the first request goes out."""
        if self.host.shutting_down() or self.session is None:
            return
        self.progress_lines.append(message.line)
        state = self.state
        if state is not None and not any(e.kind == "request" for e in state.entries):
            title = f"{self.session.label}: preparing"
            self.views.show_progress(title, "```text\n" + "\n".join(self.progress_lines[-12:]) + "\n```")
        self.views.refresh_totals()

    def on_run_created(self, message: msg.RunCreated) -> None:
        if self.host.shutting_down():
            return
        self.run_dir = message.run_dir
        if self.state is not None:
            self.state.run_dir = message.run_dir
        self.run_opened(message.run_dir.name)
        self.host.load_runs()
        self.views.refresh_totals()

    def on_pipeline_ended(self, message: msg.PipelineEnded) -> None:
        if self.host.shutting_down():
            return
        self.drain()
        self.session = None
        self.live = False
        self.forget_questions()
        then, self.after_stop = self.after_stop, None
        if then is not None:  # the person stopped this run to continue another from an edit
            self.host.load_runs()
            # in place of "Stopping at the next request…", which would stay while the new run goes on
            self.host.notify(f"{message.result.run_dir.name if message.result is not None else 'The run'} stopped; "
                             "the new run continues from your edit.", timeout=4)
            then()
            return
        if message.error:
            self.host.notify(f"The run failed: {message.error}", severity="error", timeout=10)
        elif message.result is not None:  # the run's report (engine/api.report), of any approach
            self.host.notify(run_note(message.result, self.state.standing() if self.state is not None else ""),
                             severity="error" if message.result.error else "information", timeout=10)
        self.host.load_runs()
        self.views.refresh_totals()

    def engine_event(self, event: Event) -> None:
        """Called from pipeline threads (and the replayer): queue it for the UI."""
        self.events.put(event)

    def drain(self) -> None:
        """Apply the queued events to the run's state (a batch per tick) and show what they changed."""
        state = self.state
        if self.host.shutting_down() or state is None:
            return
        batch = coalesce_deltas(self.events.take(DRAIN_BATCH))
        if not batch:
            self.views.sync_timeline(state)
            return
        changed: set[int] = set()
        results = totals = False
        streamed: dict[str, list[str]] = {}
        started: list[str] = []
        for event in batch:
            update = state.apply(event)
            changed.update(update.entries)
            results = results or update.results
            totals = totals or update.totals or update.status
            if update.stream_started:
                started.append(update.stream_started)
            if update.stream is not None:
                streamed.setdefault(update.stream[0], []).append(update.stream[1])
            if update.artifact is not None and update.artifact.file is not None:
                self.versions.index_file(update.artifact.file, from_watcher=False)
        self.views.show_run_events(state, Update(entries=sorted(changed), results=results, totals=totals),
                                   started, streamed)
        if (results or totals) and self.run_dir is not None:
            self.versions.schedule_overview(self.run_dir.name)
        if totals or changed:
            self.views.refresh_totals()

    # ------------------------------------------------------------------ stopping, step mode, manual answers
    def stop_run(self) -> None:
        if self.session is None:
            self.host.notify("No run is going on.")
            return
        self.session.stop()
        self.forget_questions()
        self.host.notify("Stopping at the next request…")
        self.views.refresh_totals()

    def going_on(self) -> str | None:
        return str(self.session.label) if self.session is not None else None

    def waits_for_person(self) -> bool:
        return bool(self.pending)

    def stop_then(self, then: Callable[[], object]) -> None:
        """Stop the run going on and, once it has ended, do ``then`` (continue another run from an edit)."""
        if self.session is None:
            then()
            return
        self.after_stop = then
        self.stop_run()

    def edit_logged(self, run_dir: Path, event: Event) -> None:
        """A person's edit was logged in ``run_dir``: the timeline of that run, when shown, gets its ✎ row."""
        if self.state is not None and self.run_dir is not None and self.run_dir.resolve() == Path(run_dir).resolve():
            self.events.put(event)

    def toggle_step(self) -> None:
        if self.stepping.is_set():
            self.stepping.clear()
            # Requests already held go out as they are.
            for question in [q for q in self.pending if isinstance(q, msg.StepRequested)]:
                self.decide(question, "send")
        else:
            self.stepping.set()
        self.host.notify(f"Mode: {self.mode}" + (" — the run pauses before every request."
                                                 if self.stepping.is_set() else ""))
        self.views.refresh_totals()

    def on_question(self, message: msg.StepRequested | msg.AnswerRequested) -> None:
        if message.request_id is not None:
            self.asked.add(message.request_id)
        self.pending.append(message)
        self.views.refresh_totals()
        self.open_next_question()

    def answer_pending(self) -> None:
        if not self.pending:
            self.host.notify("Nothing is waiting for you.")
            return
        self.put_off = False
        self.open_next_question()

    def open_next_question(self) -> None:
        from genplan.tui.screens.step import RequestScreen

        # a question the run answered itself meanwhile (a stop answers every waiting one) is no longer asked
        self.pending[:] = [q for q in self.pending if not q.future.done()]
        # put_off: "later" holds every question until a, even when this was scheduled (after an earlier answer's
        # refresh) before the person said "later"; Textual runs such a callback once its screen is current again
        if self.put_off or self.request_screen_open or not self.pending:
            return
        self.drain()  # the request's own announcement may still be queued
        # in the pipeline's order: concurrent requests (one per task) reach the person in whatever order their
        # threads came; the ids follow the pipeline's order, and an earlier one on its way is waited for a moment
        question = min(self.pending, key=lambda q: (q.request_id is None, q.request_id or 0))
        if self._earlier_on_its_way(question.request_id):
            if self.order_wait_until is None:
                self.order_wait_until = time.monotonic() + ORDER_WAIT_S
            if time.monotonic() < self.order_wait_until:
                async def again() -> None:
                    await asyncio.sleep(0.05)
                    self.open_next_question()

                self.host.in_task(again, "question-order")
                return
        self.order_wait_until = None
        manual = isinstance(question, msg.AnswerRequested)
        request_id = question.request_id
        self.request_screen_open = True

        def decided(choice: StepChoice | None) -> None:
            self.request_screen_open = False
            if choice is None or choice.action == "later":
                self.put_off = True
                self.host.notify("The run waits; press a to decide.")
                self.views.refresh_totals()
                return
            self.decide(question, choice.action, choice)
            self.host.after_refresh(self.open_next_question)

        # the task it concerns, as the engine announced it in the request's pause event (both a held request and a
        # manual one carry the request's id)
        state = self.state
        about = state.request_about(None if request_id is None else str(request_id), question.request.step) \
            if state is not None else ""
        call = state.call_number(None if request_id is None else str(request_id)) if state is not None else None
        self.host.open_screen(RequestScreen(request_id, question.request, manual=manual, about=about, call=call),
                              decided)

    def decide(self, question: msg.StepRequested | msg.AnswerRequested, action: str,
               choice: StepChoice | None = None) -> None:
        from genplan.engine.api import Decision

        if question in self.pending:
            self.pending.remove(question)
        if self.state is not None and question.request_id is not None and action != "stop":
            answered = isinstance(question, msg.AnswerRequested) or action == "answer"
            update = self.state.decided(str(question.request_id), "answered" if answered else RUNNING)
            self.views.show_run_events(self.state, update, [], {})
        if isinstance(question, msg.AnswerRequested):
            if not question.future.done():
                question.future.set_result(choice.answer if action == "answer" and choice is not None else None)
            if action == "stop" and self.session is not None:
                self.session.stop()
        else:
            if action == "watch":
                self.stepping.clear()
                decision = Decision.send()
            elif action == "edit":
                assert choice is not None and choice.messages is not None  # the request screen's edit
                decision = Decision.edit(list(choice.messages))
            elif action == "answer":
                assert choice is not None  # the request screen's answer
                decision = Decision.answer_with(choice.answer or "")
            elif action == "stop":
                decision = Decision.stop()
                if self.session is not None:
                    self.session.stop()
            else:
                decision = Decision.send()
            if not question.future.done():
                question.future.set_result(decision)
        if action == "stop":  # the session answered every other waiting question with "stop": none is asked any more
            self.forget_questions()
        self.views.refresh_totals()

    def forget_questions(self) -> None:
        """The run ended or was stopped: its waiting questions are answered (by the stop) and none is asked."""
        self.pending.clear()
        self.asked.clear()
        self.put_off = False

    def _earlier_on_its_way(self, request_id: int | None) -> bool:
        """Whether a request before ``request_id`` was announced (held for a decision) and has not reached the
        person yet: its thread is on its way to ask."""
        if request_id is None or self.state is None:
            return False
        return any(entry.kind == "request" and entry.status in (PAUSED, RUNNING) and entry.request_id is not None
                   and entry.request_id.isdigit() and int(entry.request_id) < request_id
                   and int(entry.request_id) not in self.asked for entry in self.state.entries)

    def shutdown(self) -> None:
        if self.session is not None:
            self.session.stop()


def approaches_loaded() -> bool:
    """Whether the engine's approaches are imported (by the warm-up thread after the first screen, or a run)."""
    import sys

    module = sys.modules.get("genplan.engine.approaches")  # there from the start of its import: is it done?
    return module is not None and not getattr(getattr(module, "__spec__", None), "_initializing", False)


def run_note(report: RunReport, standing: str = "") -> str:
    """One line on how a run ended, from its account (the same facts the page and the CLI show, whatever the
    approach). ``standing``: where a run stood on its checks when it was stopped before selecting anything
    (RunState.standing), said instead of a result it does not have."""
    from genplan.engine.api import RunStatus  # the engine is loaded once a run has ended
    from genplan.engine.api.runs import count_words

    account = report.account
    if account is None:  # a report made without one (nothing in genplan makes one): its status alone
        return f"Run {report.status}."
    counts = account.counts
    calls = f"{counts.calls} call" + ("" if counts.calls == 1 else "s")
    if counts.calls and counts.model != counts.calls:
        calls += f" ({count_words(counts)})"
    if report.error:
        return f"The run ended early after {calls}: {report.error}"
    outcome = account.outcome
    headline = outcome.facts.headline
    if standing and outcome.status == RunStatus.STOPPED and outcome.facts.selected is None \
            and outcome.facts.result is not None:  # a result in numbers it does not have yet
        headline = f"nothing selected yet; {standing}"
    return f"Run {outcome.status_words} after {calls}: {headline}."
