"""The app's run handling: opening and replaying runs, driving the pipeline, step mode and manual answers.

A part of GenplanApp (see app.py): it uses the app's state (declared in app_state.py) and views; nothing
here runs on its own.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.widgets import TabbedContent

from genplan.engine.approaches import Capability
from genplan.engine.runs import layout

from . import messages as msg
from .app_state import AppState
from .run_state import RunState
from .session import Fork, RunSession
from .widgets.panels import RunPanel, RunResults, RunsPanel, VersionsPanel
from .widgets.stream_view import StreamView

if TYPE_CHECKING:
    from .screens.step import StepChoice


class RunsMixin(AppState):
    # ================================================================== runs
    def open_run(self, run_dir: Path, replay: bool = False) -> None:
        if not layout.is_run_dir(run_dir):
            self.notify(f"{run_dir}: not a genplan run directory (no {layout.META})", severity="error")
            return
        if self.session is not None:
            self.notify("A run is going on; stop it first (ctrl+b).", severity="warning")
            return
        self.stop_replay()
        self.run_dir = run_dir
        self.run_state = RunState(run_dir)
        self.live = False
        self.run_opened(run_dir.name)
        panel = self.main.query_one(RunPanel)
        self.reset_timeline()
        panel.query_one(RunResults).show([])
        panel.query_one(StreamView).show(None, "—", "")
        self.action_show_tab("run")
        self.load_run_events(run_dir, replay)
        self.refresh_totals()

    @work(thread=True, exclusive=True, group="run-events")
    def load_run_events(self, run_dir: Path, replay: bool) -> None:
        from .replay import load_events

        try:
            events = load_events(run_dir)
        except OSError as exc:
            self.call_from_thread(self.notify, f"{run_dir}: {exc}", severity="error")
            return
        if replay:
            self.call_from_thread(self.start_replay, run_dir, events)
        else:
            for event in events:
                self.events.put(event)

    def start_replay(self, run_dir: Path, events: list[Any]) -> None:
        from .replay import Replayer

        self.replayer = Replayer(run_dir, events, self.engine_event, self.options.speed)
        if self.classroom:
            self.stop_at_stages(True)
        self.run_replay()
        self.notify(f"Replaying {run_dir.name}: space pauses, + and - change the speed.")
        self.refresh_totals()

    @work(exclusive=True, group="replay")
    async def run_replay(self) -> None:
        replayer = self.replayer
        if replayer is not None:
            self._replay_playing = True
            try:
                await replayer.play()
            finally:
                self._replay_playing = False
            if replayer is self.replayer:
                self.notify("Replay finished.")
                self.refresh_totals()

    def _replay_position_note(self) -> None:
        replayer = self.replayer
        if replayer is None:
            return
        event = replayer.events[replayer.position - 1] if replayer.position else None
        what = f"{event.type} {event.data.get('step') or event.data.get('phase') or event.data.get('kind') or ''}" \
            if event is not None else "the start"
        self.notify(f"Event {replayer.position} of {len(replayer.events)}: {what.strip()}", timeout=2)
        self.refresh_totals()

    def action_replay_step(self) -> None:
        if self.replayer is None:
            return
        if self.replayer.step() is None:
            self.notify("The replay is at its last event; , steps back.")
            return
        self._replay_position_note()

    def action_replay_next_answer(self) -> None:
        if self.replayer is None:
            return
        if not self.replayer.step_to_answer():
            self.notify("No more answers in this run.")
            return
        self._replay_position_note()

    def action_replay_back(self) -> None:
        """One event back: the run's view is rebuilt from the events before it (instant: no waiting)."""
        replayer = self.replayer
        if replayer is None or replayer.position == 0:
            self.notify("The replay is at its start.")
            return
        before = replayer.rewind_to(replayer.position - 1)
        self.events.take(len(self.events))  # drop what is still queued from later events
        self.run_state = RunState(self.run_dir)
        self.reset_timeline()
        panel = self.main.query_one(RunPanel)
        panel.query_one(RunResults).show([])
        panel.query_one(StreamView).show(None, "—", "")
        for event in before:
            self.events.put(event)
        self._replay_position_note()

    def stop_replay(self) -> None:
        if self.replayer is not None:
            self.workers.cancel_group(self, "replay")
            self.replayer = None

    def action_pause_replay(self) -> None:
        if self.replayer is None:
            return
        if self.replayer.finished:
            self.notify("The replay is over: , steps back; to watch it again, choose the run in 3 Runs and press y.")
            return
        paused = self.replayer.toggle_pause()
        if not paused and not getattr(self, "_replay_playing", False):
            self.run_replay()  # it had reached the end, and was stepped back since
        self.notify("Replay paused." if paused else "Replay resumed.")
        self.refresh_totals()

    def action_replay_speed(self, factor: float) -> None:
        if self.replayer is None:
            return
        self.replayer.clock.speed = min(64.0, max(0.125, self.replayer.clock.speed * factor))
        self.refresh_totals()

    def action_open_selected_run(self) -> None:
        run_id = self.main.query_one(RunsPanel).selected()
        if run_id:
            self.open_run(self.runs_dir / run_id)

    def action_replay_selected_run(self) -> None:
        run_id = self.main.query_one(RunsPanel).selected()
        if run_id:
            self.open_run(self.runs_dir / run_id, replay=True)

    # ================================================================== the pipeline
    def action_start_run(self) -> None:
        self.start_pipeline()

    def action_resume_run(self) -> None:
        run_dir = self.run_dir
        if self.main.query_one(TabbedContent).active == "runs":
            run_id = self.main.query_one(RunsPanel).selected()
            run_dir = self.runs_dir / run_id if run_id else run_dir
        if run_dir is None:
            self.notify("Open a run first (3 Runs, enter).", severity="warning")
            return
        self.start_pipeline(run_dir=run_dir)

    def start_pipeline(self, run_dir: Path | None = None, start_from: tuple[str, Path, str] | None = None,
                       strategy_check: tuple[Path, str, str] | None = None) -> None:
        if self.session is not None:
            self.notify("A run is already going on.", severity="warning")
            return
        if self.settings is None or self.prefs is None or self.domain_info is None:
            # pressed in the first moments: start as soon as the settings and the domain are loaded
            first = self._deferred_start is None
            self._deferred_start = (run_dir, start_from)
            if first:
                self.notify("Starting as soon as the settings and the domain are loaded…")
            return
        if self.domain_info.error:
            self.notify("The domain could not be loaded; the pipeline cannot start.", severity="error")
            return
        self.stop_replay()
        if run_dir is None and start_from is None and strategy_check is None and self.prefs.own_loop is not None:
            self.start_own_loop()
            return
        if not self.settings.is_configured:
            self.notify("No model is configured: you will answer every request yourself (manual provider). "
                        "Press s to set a model.", title="Manual provider", timeout=8)
        session = partial(RunSession, self.domain_dir, self.settings, self.post_message, self.engine_event,
                          self.stepping, no_cache=self.options.no_cache)
        if strategy_check is not None:
            self.session = session(strategy_check=strategy_check, label="strategy check")
        elif run_dir is not None and start_from is not None:  # "continue from here" with an edited version
            kind, path, text = start_from
            relative = str(Path(path).resolve().relative_to(Path(run_dir).resolve()))
            self.session = session(fork=Fork(Path(run_dir), relative, kind, text), label=f"{Path(run_dir).name}")
        elif run_dir is not None:  # an unfinished run of any approach goes on; its answers on disk are kept
            self.session = session(resume=Path(run_dir), label=Path(run_dir).name)
        else:
            try:
                config = self.prefs.to_config()
                if self.options.pipeline_changes:
                    config = config.with_changes(**self.options.pipeline_changes)
            except Exception as exc:  # noqa: BLE001 - ConfigError from a hand-edited file
                self.notify(str(exc), severity="error")
                return
            from genplan.engine.api import StartRequest

            request = StartRequest(config.preset, str(self.domain_dir), self.runs_dir, config=config,
                                   source="genplan-tui")
            self.session = session(start=request, label=config.preset)
        self._show_new_run(run_dir, "waiting for the first answer")
        self.run_pipeline(self.session)
        self.refresh_totals()

    def _show_new_run(self, run_dir: Path | None, note: str) -> None:
        self.run_state = RunState(run_dir)
        self.run_dir = run_dir
        self.live = True
        self._progress_lines = []
        panel = self.main.query_one(RunPanel)
        self.reset_timeline()
        panel.query_one(RunResults).show([])
        panel.query_one(StreamView).show(None, note, "")
        self.action_show_tab("run")

    def start_own_loop(self) -> None:
        """A run of an approach with its own loop, in the domain's runs: AutoToS on this domain directory, a
        PDDLego+ or PlanGen trial in its game (the domain directory only says where the run goes)."""
        assert self.prefs is not None and self.prefs.own_loop is not None and self.settings is not None
        approach, preset = self.prefs.own_loop
        if not self.settings.is_configured:
            self.notify("No model is configured: you will answer every request yourself (manual provider). "
                        "Press s to set a model.", title="Manual provider", timeout=8)
        parameters: dict[str, Any] = {}
        limit = self.options.eval_limit
        if not approach.can(Capability.DOMAIN_DIR):  # a trial in a game: which game
            parameters = dict(self.options.game)
        elif limit is not None:  # else every eval task of the domain
            parameters = {"evaluate": limit > 0, "eval_limit": limit}
        self._start_own_loop_session(preset, parameters, "preparing the tasks" if approach.can(Capability.DOMAIN_DIR)
                                     else f"starting the game ({approach.default_target})")

    def continue_trial(self, run_dir: Path, relative: str, text: str) -> None:
        """A new PDDLego+ trial that continues ``run_dir`` from an edit of its file ``relative`` (the same game,
        the calls before it kept; api.fork and api.resume do the rest)."""
        if self.session is not None:
            self.notify("A run is already going on.", severity="warning")
            return
        if self.settings is None:
            self.notify("The settings are still loading; try again in a moment.", severity="warning")
            return
        self.stop_replay()
        if not self.settings.is_configured:
            self.notify("No model is configured: you will answer every request after the edit yourself (manual "
                        "provider). Press s to set a model.", title="Manual provider", timeout=8)
        self.session = RunSession(self.domain_dir, self.settings, self.post_message, self.engine_event, self.stepping,
                                  fork=Fork(run_dir, relative, "pddl", text), no_cache=self.options.no_cache,
                                  label=run_dir.name)
        self._show_new_run(None, f"continuing {run_dir.name} from the edited {Path(relative).name}")
        self.run_pipeline(self.session)
        self.refresh_totals()

    def _start_own_loop_session(self, preset: str, parameters: dict[str, Any], note: str) -> None:
        from genplan.engine.api import StartRequest
        from genplan.engine.approaches import preset_owner, start_target

        assert self.settings is not None
        owner = preset_owner(preset)
        target = start_target(owner[0], self.domain_dir) if owner is not None else None
        if target is None:
            self.notify(f"preset {preset}: not an approach the TUI can start here", severity="error")
            return
        request = StartRequest(preset, target, self.runs_dir, parameters=parameters, source="genplan-tui")
        self.session = RunSession(self.domain_dir, self.settings, self.post_message, self.engine_event, self.stepping,
                                  start=request, no_cache=self.options.no_cache, label=preset)
        self._show_new_run(None, f"{preset}: {note}")
        self.run_pipeline(self.session)
        self.refresh_totals()

    def on_run_progress(self, message: msg.RunProgress) -> None:
        """An own-loop run's progress lines: shown in the answer view until the first request goes out."""
        if self.shutting_down() or self.session is None:
            return
        lines = self._progress_lines
        lines.append(message.line)
        state = self.run_state
        stream = self.main.query_one(RunPanel).query_one(StreamView)
        if state is not None and not any(e.kind == "request" for e in state.entries) and stream.request_id is None:
            title = f"{self.session.label}: preparing"
            stream.show(None, title, "```text\n" + "\n".join(lines[-12:]) + "\n```")
        self.refresh_totals()

    @work(thread=True, exclusive=True, group="pipeline")
    def run_pipeline(self, session: RunSession) -> None:
        try:
            result = session.run()
        except Exception as exc:  # noqa: BLE001 - shown as one line
            self.post_message(msg.PipelineEnded(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(msg.PipelineEnded(result, None))

    def on_run_created(self, message: msg.RunCreated) -> None:
        if self.shutting_down():
            return  # shutting down
        self.run_dir = message.run_dir
        if self.run_state is not None:
            self.run_state.run_dir = message.run_dir
        self.run_opened(message.run_dir.name)
        self.load_runs()
        self.refresh_totals()

    def start_deferred(self) -> None:
        """A start asked for while loading goes ahead once everything it needs is there."""
        if self._deferred_start is not None and self.settings is not None and self.domain_info is not None:
            run_dir, start_from = self._deferred_start
            self._deferred_start = None
            self.start_pipeline(run_dir=run_dir, start_from=start_from)

    def run_opened(self, run_id: str) -> None:
        """The Versions tree expands (and filters to) this run; the results matrix shows it."""
        self.main.query_one(VersionsPanel).set_current_run(run_id)
        self.show_matrix(run_id)
        self.show_run_header()
        self.schedule_overview(run_id)

    def on_pipeline_ended(self, message: msg.PipelineEnded) -> None:
        if self.shutting_down():
            return  # shutting down
        self.drain_events()
        self.session = None
        self.live = False
        self.pending.clear()
        if message.error:
            self.notify(f"The run stopped: {message.error}", severity="error", timeout=10)
        elif message.result is not None:  # the run's report (engine/api.report), of any approach
            self.notify(run_note(message.result), severity="error" if message.result.get("error") else "information",
                        timeout=10)
        self.load_runs()
        self.refresh_totals()

    def action_stop_run(self) -> None:
        if self.session is None:
            self.notify("No run is going on.")
            return
        self.session.stop()
        self.pending.clear()
        self.notify("Stopping at the next request…")
        self.refresh_totals()

    def action_toggle_step(self) -> None:
        if self.stepping.is_set():
            self.stepping.clear()
            # Requests already held go out as they are.
            for question in [q for q in self.pending if isinstance(q, msg.StepRequested)]:
                self._decide(question, "send")
        else:
            self.stepping.set()
        self.notify(f"Mode: {self.mode}" + (" — the run pauses before every request." if self.stepping.is_set() else ""))
        self.refresh_totals()

    def on_step_requested(self, message: msg.StepRequested) -> None:
        self.pending.append(message)
        self.refresh_totals()
        self.open_next_question()

    def on_answer_requested(self, message: msg.AnswerRequested) -> None:
        self.pending.append(message)
        self.refresh_totals()
        self.open_next_question()

    def action_answer_pending(self) -> None:
        if not self.pending:
            self.notify("Nothing is waiting for you.")
            return
        self.open_next_question()

    def open_next_question(self) -> None:
        from .screens.step import RequestScreen

        if self._request_screen_open or not self.pending:
            return
        self.drain_events()  # the request's own announcement may still be queued
        question = self.pending[0]
        manual = isinstance(question, msg.AnswerRequested)
        request_id = question.request_id
        self._request_screen_open = True

        def decided(choice: StepChoice | None) -> None:
            self._request_screen_open = False
            if choice is None or choice.action == "later":
                self.notify("The run waits; press a to decide.")
                self.refresh_totals()
                return
            self._decide(question, choice.action, choice)
            self.call_after_refresh(self.open_next_question)

        # the task it concerns, as the engine announced it in the request's pause event (both a held request and a
        # manual one carry the request's id)
        state = self.run_state
        about = state.request_about(None if request_id is None else str(request_id), question.request.step) \
            if state is not None else ""
        self.push_screen(RequestScreen(request_id, question.request, manual=manual, about=about), decided)

    def _decide(self, question: msg.StepRequested | msg.AnswerRequested, action: str,
                choice: StepChoice | None = None) -> None:
        from genplan.engine.api import Decision

        if question in self.pending:
            self.pending.remove(question)
        if isinstance(question, msg.AnswerRequested):
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
        self.refresh_totals()


def run_note(summary: dict[str, Any]) -> str:
    """One line on how a run ended, from its report: a pipeline run's debug tasks, an AutoToS run's evaluation, a
    trial's outcome."""
    if "debug_total" in summary:  # an approach that writes programs, or a strategy check
        return f"Run {summary.get('status')}: {summary.get('debug_solved')}/{summary['debug_total']} debug tasks solved."
    calls = f"{summary.get('calls')} call" + ("" if summary.get("calls") == 1 else "s")
    if summary.get("error"):
        return f"The run ended early after {calls}: {summary['error']}"
    if summary.get("status") == "stopped":
        return f"Run stopped after {calls}."
    if summary.get("outcome") is not None:  # a trial in a game
        steps = f"{summary.get('steps')} time step" + ("" if summary.get("steps") == 1 else "s")
        if summary["outcome"] == "success":
            return f"Trial succeeded: the game's goal was reached after {calls} and {steps}."
        return f"Trial failed ({summary.get('reason')}) after {calls} and {steps}."
    if summary.get("stopped"):
        return f"Run finished: the feedback rounds for {summary['stopped']} were spent after {calls}."
    if summary.get("success") is not None:
        total = int(summary["success"]) + int(summary.get("failure") or 0)
        return f"Run finished after {calls}: {summary['success']}/{total} evaluation tasks solved."
    return f"Run finished after {calls} (no evaluation)."
