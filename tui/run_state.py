"""The state of one run as the TUI shows it, built only from the engine's events.

The same object serves a live run (events from the pipeline's bus), a reopened run and a replay
(events from ``events.jsonl``), so every view works the same on all three.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# genplan.engine.events imports only the standard library: the first screen does not wait for the engine
from genplan.engine.events import (
    ArtifactCreated,
    ArtifactEdited,
    AttemptStarted,
    ChecksPassed,
    CommandExecuted,
    EvaluationProgress,
    Event,
    FeedbackLimit,
    FeedbackRound,
    Notice,
    PromptEdited,
    RequestPaused,
    RequestRetry,
    RequestSent,
    ResponseReceived,
    RunFailed,
    RunFinished,
    RunResumed,
    RunStarted,
    SelectionMade,
    StepFinished,
    StepStarted,
    TextDelta,
    ValidationResult,
)

RUNNING, DONE, CACHED, PAUSED, PASS, FAIL, FAILED, INFO, STOPPED = (
    "running", "done", "cached", "paused", "pass", "fail", "failed", "info", "stopped",
)


@dataclass
class TimelineEntry:
    key: str
    kind: str  # phase, request, check, artifact, selection, notice, run; AutoToS: round, passed, limit, evaluation
    title: str
    detail: str = ""
    status: str = INFO
    tokens: int | None = None
    seconds: float | None = None
    started: float = 0.0
    file: Path | None = None
    request_id: str | None = None
    step: str | None = None  # the request's pipeline step (nl.domain, strategy.plan, ...)
    # the engine's typed event the row shows (a request's: its RequestSent, or what announced it first); views read
    # its fields (a check's plan, a round's feedback), never a copy of them by name
    event: Event | None = None
    call: int | None = None  # a request row: its place among the run's calls (1, 2, 3, ...)
    response_file: Path | None = None  # a request row: its answer in the run directory


@dataclass
class CheckResult:
    task: str
    valid: bool
    kind: str | None
    message: str
    plan: list[str] | None = None


@dataclass
class ArtifactRef:
    kind: str  # nl_domain, nl_task, strategy, reflection, program
    version: str
    file: Path | None


@dataclass
class Totals:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True  # False once a call had no price
    unpriced_calls: int = 0  # calls whose model has no price (not in the price table nor in [prices])
    # calls whose answer came without token counts: an imported run's recorded answers (Silver et al.'s cache,
    # AutoToS and PDDLego+ logs hold none), a manual answer; their tokens are unknown, not 0
    uncounted_calls: int = 0
    cached_calls: int = 0  # answered from the on-disk response cache (not sent, not counted in ``calls``)
    kept_calls: int = 0  # answers kept from an earlier run (a resumed run, a fork): not sent again
    started: float | None = None
    finished: float | None = None

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def tokens_known(self) -> bool:
        """Whether any counted call reported its tokens (else the total is unknown, not 0)."""
        return self.calls == 0 or self.uncounted_calls < self.calls

    def elapsed(self, now: float) -> float:
        if self.started is None:
            return 0.0
        return max(0.0, (self.finished if self.finished is not None else now) - self.started)


@dataclass
class Update:
    """What one event changed, so that views refresh only what they must."""

    entries: list[int] = field(default_factory=list)  # indices of new or changed timeline entries
    added: bool = False  # whether entries were appended
    results: bool = False
    totals: bool = False
    stream: tuple[str, str] | None = None  # (request id, text) appended to a response
    stream_started: str | None = None  # a request whose response starts now
    artifact: ArtifactRef | None = None
    status: bool = False
    paused_request: str | None = None


def _text(value: Any) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class TrialPlace:
    """Where in a PDDLego+ trial an event happened: the time step, the attempt after a reset (outer loop) and the
    retry after a solver error (inner loop), all counted from 0."""

    step: int
    attempt: int = 0
    retry: int = 0

    def parts(self) -> list[str]:
        """["step 3", "attempt 2", "retry 1"] (attempts shown from 1, retries from 1; the first of each unsaid)."""
        return [f"step {self.step}"] + ([f"attempt {self.attempt + 1}"] if self.attempt > 0 else []) + (
            [f"retry {self.retry}"] if self.retry > 0 else [])

    @property
    def label(self) -> str:
        """The stem of the call's files (``s01-a0-r2``), naming its solver check."""
        return f"s{self.step:02d}-a{self.attempt}-r{self.retry}"


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def trial_place(event: Event | None) -> TrialPlace | None:
    """The place in a trial of a PDDLego+ event; None for any other (a pipeline request's ``step`` is its name)."""
    if isinstance(event, (RequestSent, RequestPaused)):
        step, attempt, retry = event.time_step, event.attempt, event.retry
    elif isinstance(event, (ValidationResult, ArtifactCreated)):
        step, attempt, retry = event.step, event.attempt, event.retry
    elif isinstance(event, (AttemptStarted, CommandExecuted)):
        step, attempt, retry = event.step, event.attempt, None
    elif isinstance(event, (StepStarted, Notice)):
        step, attempt, retry = event.step, None, None
    else:
        return None
    if _count(step) is None:
        return None
    return TrialPlace(int(step or 0), max(0, _count(attempt) or 0), max(0, _count(retry) or 0))


def request_context(event: Event | None) -> str:
    """What a request is about, as the engine says it: its task, version, candidate; for PDDLego+ the time
    step, the attempt after a reset (outer loop) and the retry after a solver error (inner loop)."""
    parts: list[str] = []
    if isinstance(event, (RequestSent, RequestPaused)):
        parts = [value for value in (event.task, event.version) if value]
        if event.candidate and not event.version:  # a version (c1-v00) already names its candidate
            parts.append(f"candidate {event.candidate}")
    place = trial_place(event)
    return " ".join(parts + (place.parts() if place is not None else []))


class RunState:
    def __init__(self, run_dir: Path | None = None) -> None:
        self.run_dir = run_dir
        self.entries: list[TimelineEntry] = []
        self._index: dict[str, int] = {}
        self.streams: dict[str, list[str]] = {}
        self.results: dict[tuple[str, str], dict[str, CheckResult]] = {}
        self.current_results: tuple[str, str] | None = None
        self.artifacts: list[ArtifactRef] = []
        self.totals = Totals()
        self.status = "idle"
        self.error: str | None = None
        self.last_event_time: float | None = None
        self.last_request: str | None = None
        self.request_rows = 0  # the request rows so far: the n-th is "call n"
        self._phases: dict[str, int] = {}

    # ------------------------------------------------------------------ helpers
    def resolve(self, file: Any) -> Path | None:
        if not file:
            return None
        path = Path(str(file))
        if not path.is_absolute() and self.run_dir is not None:
            from genplan.engine.api.runs import in_run  # the engine is imported when needed, not with the events

            path = in_run(self.run_dir, path)
        return path

    def entry(self, key: str) -> TimelineEntry | None:
        index = self._index.get(key)
        return self.entries[index] if index is not None else None

    def _add(self, entry: TimelineEntry, update: Update) -> TimelineEntry:
        if entry.kind == "request":  # numbered as calls are counted (a request id skips the ids kept for retries)
            self.request_rows += 1
            entry.call = entry.call or self.request_rows
        existing = self._index.get(entry.key)
        if existing is not None:  # a key seen twice (e.g. a resumed run): keep both rows
            entry.key = f"{entry.key}#{len(self.entries)}"
        self._index[entry.key] = len(self.entries)
        self.entries.append(entry)
        update.entries.append(len(self.entries) - 1)
        update.added = True
        return entry

    def _changed(self, key: str, update: Update) -> TimelineEntry | None:
        index = self._index.get(key)
        if index is None:
            return None
        update.entries.append(index)
        return self.entries[index]

    def decided(self, request_id: str, status: str) -> Update:
        """A person decided on a request held for them: its row says so at once (a concurrent request's logged
        events come in the pipeline's order, once the requests before it are answered too)."""
        update = Update()
        entry = self._changed(f"req:{request_id}", update)
        if entry is not None and entry.status in (PAUSED, RUNNING):  # held, or watched on its way to a person
            entry.status = status
        return update

    def stream_text(self, request_id: str) -> str:
        return "".join(self.streams.get(request_id, []))

    def elapsed(self, live: bool) -> float:
        now = time.time() if live else (self.last_event_time or 0.0)
        return self.totals.elapsed(now)

    @property
    def current_table(self) -> dict[str, CheckResult]:
        if self.current_results is None:
            return {}
        return self.results.get(self.current_results, {})

    # ------------------------------------------------------------------ events
    def apply(self, event: Event) -> Update:
        update = Update()
        if not isinstance(event, TextDelta) and event.time:
            self.last_event_time = event.time
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event, update)
        return update

    def _run_started(self, event: RunStarted, update: Update) -> None:
        if self.totals.started is None:
            self.totals.started = event.time
        self.totals.finished = None
        self.status = RUNNING
        # every scalar the run was started with (approach, preset, domain, ...), as the log holds them
        detail = " ".join(f"{k}={v}" for k, v in event.data.items() if isinstance(v, (str, int, float)))
        self._add(TimelineEntry(f"run:{event.seq}", "run", "run started", detail, INFO, started=event.time), update)
        update.status = update.totals = True

    def _run_finished(self, event: RunFinished | RunFailed, update: Update) -> None:
        self.totals.finished = event.time
        failed = isinstance(event, RunFailed)
        self.status = FAILED if failed else DONE
        finished = event if isinstance(event, RunFinished) else None
        stopped = finished is not None and _text(finished.status) == STOPPED
        if stopped:
            self.status = STOPPED
        error = event.error if isinstance(event, RunFailed) else event.extra.get("error")
        if isinstance(event, RunFailed) and event.traceback:  # an internal error: its message says so, and where
            error = event.message
        self.error = _text(error or event.message) if failed or stopped else None
        title = "run failed" if failed else "run stopped" if stopped else "run finished"
        detail = self.error or ("" if failed else _text(event.message))  # e.g. how an AutoToS run ended
        if finished is not None and finished.debug_total:
            detail = f"{finished.debug_solved}/{finished.debug_total} debug tasks solved"
            if finished.selected_program:
                detail += f" by {Path(str(finished.selected_program)).stem}"
            elif self.standing():  # no program yet: "0/6 solved" would hide that the strategy stood at 2/6
                detail = f"no program yet; {self.standing()}"
            if stopped and self.error:
                detail += f" ({self.error})"
        ended = FAILED if failed else STOPPED if stopped else DONE
        self._add(TimelineEntry(f"run:{event.seq}", "run", title, detail, ended,
                                seconds=self.totals.elapsed(event.time), started=event.time), update)
        for index, entry in enumerate(self.entries):  # nothing is running any more; unanswered is not done
            if entry.status in (RUNNING, PAUSED):
                entry.status = ended
                update.entries.append(index)
        update.status = update.totals = True

    def _run_resumed(self, event: RunResumed, update: Update) -> None:
        """A resumed run goes on from here: running again, its earlier end kept above as its row."""
        self.totals.finished = None
        self.status = RUNNING
        self.error = None
        before = _text(event.previous_status)
        self._add(TimelineEntry(f"run:{event.seq}", "run", "run resumed", f"after it was {before}" if before else "",
                                INFO, started=event.time), update)
        update.status = update.totals = True

    def standing(self) -> str:
        """Where the run stood on the debug tasks: the last checked strategy and program versions with their
        pass counts ("strategy v02 at 2/6, program c1-v00 at 3/6"); empty before any check."""
        last: dict[str, tuple[str, dict[str, CheckResult]]] = {}
        for (what, version), table in self.results.items():  # in the order they were first checked
            kind = "program" if what == "program" else "strategy" if what.startswith(("strategy", "plan")) else what
            last[kind] = (version, table)
        return ", ".join(f"{kind} {version} at {sum(r.valid for r in table.values())}/{len(table)}"
                         for kind, (version, table) in last.items() if table)

    def _step_started(self, event: StepStarted, update: Update) -> None:
        phase = _text(event.phase or event.step or "step")
        named = {"round": event.round, "candidate": event.candidate, "version": event.version}
        parts = [f"{name} {value}" for name, value in named.items() if value is not None]
        place = trial_place(event) if event.phase else None
        parts += place.parts() if place is not None else []
        key = f"phase:{phase}:{event.round}:{event.candidate}:{event.version}"
        # Phases such as "strategy round N" have no finish event: the next round ends the previous one.
        for other_key, index in list(self._phases.items()):
            if other_key.startswith(f"phase:{phase}:"):
                done = self.entries[index]
                done.status = DONE
                done.seconds = max(0.0, event.time - done.started)
                update.entries.append(index)
                del self._phases[other_key]
        entry = self._add(TimelineEntry(key, "phase", phase, ", ".join(parts), RUNNING, started=event.time,
                                        event=event), update)
        self._phases[key] = self._index[entry.key]

    def _step_finished(self, event: StepFinished, update: Update) -> None:
        # a finished step names no round or candidate of its own (an older log's extra fields may)
        extra = event.extra
        phase = _text(event.phase or extra.get("step") or "step")
        key = f"phase:{phase}:{extra.get('round')}:{extra.get('candidate')}:{event.version}"
        index = self._phases.pop(key, None)
        if index is None:
            return
        entry = self.entries[index]
        entry.status = FAILED if extra.get("error") else DONE
        entry.seconds = max(0.0, event.time - entry.started)
        update.entries.append(index)

    def _retry(self, event: RequestRetry, update: Update) -> None:
        rid = _text(event.request_id)
        entry = self._changed(f"req:{rid}", update)
        if entry is None:  # a concurrent request is announced after it is answered: its row comes then
            return
        retry = f"attempt {event.attempt} failed ({_text(event.reason)}); retrying in {event.delay_s} s"
        entry.detail = "; ".join(part for part in (request_context(entry.event), retry) if part)

    def _request_sent(self, event: RequestSent, update: Update) -> None:
        rid = _text(event.request_id)
        step = _text(event.step)
        detail = request_context(event)
        entry = self._changed(f"req:{rid}", update)  # a paused request is announced once it is decided
        if entry is None:
            entry = self._add(TimelineEntry(f"req:{rid}", "request", step or "request", detail, RUNNING,
                                            started=event.time, request_id=rid, step=step), update)
            update.stream_started = rid
        elif detail:
            entry.detail = detail  # which task it concerns, also for a request that was held first
        entry.status = RUNNING
        entry.file = self.resolve(event.file)
        entry.event = event  # what the request is about: its task, version, place in a trial
        self.streams.setdefault(rid, [])  # text may have streamed in before the (deferred) announcement
        self.last_request = rid

    def _text_delta(self, event: TextDelta, update: Update) -> None:
        rid = _text(event.request_id)
        text = _text(event.text)
        if not text:
            return
        if rid not in self.streams:
            self.streams[rid] = []
            update.stream_started = rid
        self.streams[rid].append(text)
        update.stream = (rid, text)

    def _response(self, event: ResponseReceived, update: Update) -> None:
        rid = _text(event.request_id)
        entry = self._changed(f"req:{rid}", update)
        tokens_in, tokens_out = event.tokens_in, event.tokens_out
        usage = event.extra.get("usage")
        if isinstance(usage, dict):  # older logs kept a usage table
            tokens_in, tokens_out = usage.get("input_tokens"), usage.get("output_tokens")
        counted = isinstance(tokens_in, int) or isinstance(tokens_out, int)
        cached = bool(event.cached)
        human = bool(event.human)
        resumed = bool(event.resumed)  # kept from before (a resumed run, a fork): not sent again
        if cached:
            self.totals.cached_calls += 1
        elif resumed:
            self.totals.kept_calls += 1
        if not cached and not human and not resumed:
            self.totals.calls += 1
            self.totals.input_tokens += int(tokens_in or 0)
            self.totals.output_tokens += int(tokens_out or 0)
            if not counted:
                self.totals.uncounted_calls += 1
        cost = event.cost_usd
        if isinstance(cost, (int, float)):
            self.totals.cost_usd += float(cost)
        elif not cached and not human and not resumed:
            self.totals.cost_known = False
            self.totals.unpriced_calls += 1
        update.totals = True
        if entry is None:
            step = _text(event.step)
            entry = self._add(TimelineEntry(f"req:{rid}", "request", step or "request", request_id=rid, step=step,
                                            started=event.time), update)
        entry.status = "answered" if human else (CACHED if cached else ("kept" if resumed else DONE))
        entry.tokens = int(tokens_in or 0) + int(tokens_out or 0) if counted else None
        latency = event.latency_s
        entry.seconds = float(latency) if isinstance(latency, (int, float)) else max(0.0, event.time - entry.started)
        response_file = self.resolve(event.file)
        if response_file is not None:
            entry.response_file = response_file
        if event.truncated:
            entry.detail = (entry.detail + " (cut off)").strip()

    def call_number(self, request_id: str | None) -> int | None:
        """A request's place among the run's calls (1, 2, 3, ...: the ids skip the ids kept for retries)."""
        entry = self.entry(f"req:{request_id}") if request_id is not None else None
        return entry.call if entry is not None else None

    def request_about(self, request_id: str | None = None, step: str | None = None) -> str:
        """The task/version a request concerns (``request_id`` None: the last announced one of ``step``)."""
        rid = request_id if request_id is not None else self.last_request
        entry = self.entry(f"req:{rid}") if rid is not None else None
        if entry is None or (step is not None and entry.step != step):
            return ""
        return request_context(entry.event) or entry.detail

    def response_text(self, request_id: str) -> str:
        """The whole answer: streamed text if we saw it, else the response file of the run directory."""
        entry = self.entry(f"req:{request_id}")
        file = entry.response_file if entry is not None else None
        if file:
            from genplan.engine.api.runs import answer_text

            try:
                return answer_text(Path(file))
            except (OSError, ValueError):
                pass
        return self.stream_text(request_id)

    def _paused(self, event: RequestPaused, update: Update) -> None:
        rid = _text(event.request_id)
        entry = self._changed(f"req:{rid}", update)
        if entry is None:
            step = _text(event.step)
            entry = self._add(TimelineEntry(f"req:{rid}", "request", step or "request", request_context(event),
                                            request_id=rid, step=step, started=event.time, event=event), update)
        if event.held is False:  # watched, not held: it is on its way to the model (its announcement may follow later)
            entry.status = RUNNING
            return
        entry.status = PAUSED
        update.paused_request = rid

    def _validation(self, event: ValidationResult, update: Update) -> None:
        what = _text(event.what or "plan")
        version = _text(event.version)
        task = _text(event.task)
        place = trial_place(event)
        if not version and not task and place is not None:  # a PDDLego+ solver check: one per call
            version, task = place.label, "solver"
        valid = bool(event.valid)
        plan = event.plan if isinstance(event.plan, list) else None
        result = CheckResult(task, valid, event.kind, _text(event.message), plan)
        key = (what, version)
        self.results.setdefault(key, {})[task] = result
        self.current_results = key
        update.results = True
        title = f"check {what} {version}".strip()
        self._add(TimelineEntry(f"check:{what}:{version}:{task}", "check", title, task, PASS if valid else FAIL,
                                started=event.time, event=event), update)

    def _artifact(self, event: ArtifactCreated, update: Update) -> None:
        ref = ArtifactRef(_text(event.kind), _text(event.version), self.resolve(event.file))
        self.artifacts.append(ref)
        update.artifact = ref
        title = f"{ref.kind.replace('_', ' ')} {ref.version}".strip()
        self._add(TimelineEntry(f"art:{ref.kind}:{ref.version}", "artifact", title,
                                ref.file.name if ref.file else "", DONE, started=event.time, file=ref.file,
                                event=event), update)

    def _selection(self, event: SelectionMade, update: Update) -> None:
        kind, version = _text(event.kind), _text(event.version)
        solved, total = event.solved, event.total
        score = f"{solved}/{total} debug tasks" if solved is not None and total is not None else ""
        self._add(TimelineEntry(f"sel:{kind}:{version}:{event.seq}", "selection", f"selected {kind} {version}",
                                score, DONE, started=event.time, event=event), update)

    def _edited(self, event: ArtifactEdited, update: Update) -> None:
        file = self.resolve(event.file)
        origin = {"outside": "outside genplan", "cli": "with genplan edit"}.get(str(event.origin), "in the TUI")
        title = f"edited {event.kind or ''} {Path(str(event.edited or '')).stem}".strip()
        hashes = f"{(event.old_hash or '')[:8]} → {(event.new_hash or '')[:8]}"
        detail = f"→ {file.name if file else '?'} ({origin}; {hashes})"
        self._add(TimelineEntry(f"edit:{event.seq}", "edit", title, detail, DONE, started=event.time, file=file,
                                event=event), update)

    def _prompt_edited(self, event: PromptEdited, update: Update) -> None:
        rid = _text(event.request_id)
        places = ", ".join(str(place) for place in event.messages or [])
        which = f"message {places}" if len(event.messages or []) == 1 else f"messages {places}" if places else "prompt"
        call = self.call_number(rid)
        title = f"edited prompt {event.step or ''}".strip()
        detail = f"{which} of {'call ' + str(call) if call else 'request ' + rid} edited before it was sent"
        self._add(TimelineEntry(f"prompt-edit:{event.seq}:{rid}", "edit", title, detail, DONE, started=event.time,
                                request_id=rid, step=event.step, event=event), update)

    def _attempt(self, event: AttemptStarted, update: Update) -> None:
        attempt = event.attempt
        if isinstance(attempt, int) and attempt > 0:  # the first attempt of a step needs no row
            place = trial_place(event)
            detail = f"{' '.join(place.parts() if place else [])}: replayed {event.replayed or 0} commands"
            self._add(TimelineEntry(f"attempt:{event.seq}", "reset", "reset", detail, INFO, started=event.time,
                                    event=event), update)

    def _command(self, event: CommandExecuted, update: Update) -> None:
        observation = _text(event.observation).strip().splitlines()
        detail = "goal reached" if event.goal_reached else (observation[0] if observation else "")
        error = event.error
        self._add(TimelineEntry(f"command:{event.seq}", "command", _text(event.command),
                                _text(error) if error else detail, FAIL if error else PASS, started=event.time,
                                event=event), update)

    def _notice(self, event: Notice, update: Update) -> None:
        level = _text(event.level or "info")
        self._add(TimelineEntry(f"notice:{event.seq}", "notice", level, _text(event.message),
                                FAIL if level in ("error", "warning") else INFO, started=event.time,
                                event=event), update)

    # ------------------------------------------------------------------ AutoToS's unit tests
    def _feedback_round(self, event: FeedbackRound, update: Update) -> None:
        """A failed unit test: which check, the paper's category, the failing test; the feedback is in its event."""
        failure: dict[str, Any] = event.failure if isinstance(event.failure, dict) else {}
        parts = [_text(event.category or event.check)]
        if failure.get("state") is not None:
            parts.append(f"on {failure_value(failure['state'])}")
        if event.target:
            parts.append(f"→ {event.target}")
        title = f"round {event.number}: {_text(event.phase or 'unit')} failed"
        self._add(TimelineEntry(f"round:{event.number}", "round", title, " ".join(parts), FAIL,
                                started=event.time, event=event), update)

    def _checks_passed(self, event: ChecksPassed, update: Update) -> None:
        self._add(TimelineEntry(f"passed:{event.seq}", "passed", f"{_text(event.check)} tests passed", "", PASS,
                                started=event.time, event=event), update)

    def _feedback_limit(self, event: FeedbackLimit, update: Update) -> None:
        detail = f"{event.rounds} feedback rounds for {_text(event.target)} spent"
        self._add(TimelineEntry(f"limit:{event.seq}", "limit", "feedback limit", detail, STOPPED, started=event.time,
                                event=event), update)

    def _evaluation(self, event: EvaluationProgress, update: Update) -> None:
        """One row for the whole evaluation, brought up to date by each report of progress."""
        done, total = event.done, event.total
        detail = f"{done}/{total} instances searched, {event.solved} solved"
        entry = self._changed("evaluation", update)
        if entry is None:
            entry = self._add(TimelineEntry("evaluation", "evaluation", "evaluation", started=event.time), update)
        entry.detail = detail
        entry.status = DONE if done == total else RUNNING
        seconds = event.seconds
        entry.seconds = float(seconds) if isinstance(seconds, (int, float)) else None
        entry.event = event

def round_text(entry: TimelineEntry) -> str:
    """An AutoToS round as the Answer view shows it (Markdown): the check, its category, the failing test as the
    harness reported it and the feedback the model got, word for word."""
    import json

    event = entry.event
    if not isinstance(event, FeedbackRound):
        return ""
    lines = [f"check `{_text(event.check)}` · category *{_text(event.category)}* · "
             f"feedback to `{_text(event.target)}`", ""]
    failure = event.failure
    if isinstance(failure, dict) and failure:
        lines += ["The failing test:", "", "```text"]
        for key, value in failure.items():
            shown = value if isinstance(value, str) else json.dumps(value, default=str)
            lines.append(f"{key}: {shown.rstrip()}")
        lines += ["```", ""]
    lines += ["The feedback the model got:", "", "```text", _text(event.feedback).rstrip("\n"), "```"]
    return "\n".join(lines)


def failure_value(value: Any, width: int = 40) -> str:
    """A failing test's state as one short line (the whole of it is shown with the round's feedback)."""
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


# The handlers read the typed fields of their event (engine/events.py); a field that older logs held in another
# shape (ids as text) is taken as it comes, and what a class does not declare (an old usage table) is in ``extra``.
_HANDLERS: dict[type[Event], Any] = {
    RunStarted: RunState._run_started,
    RunFinished: RunState._run_finished,
    RunFailed: RunState._run_finished,
    RunResumed: RunState._run_resumed,
    StepStarted: RunState._step_started,
    StepFinished: RunState._step_finished,
    RequestSent: RunState._request_sent,
    TextDelta: RunState._text_delta,
    ResponseReceived: RunState._response,
    RequestPaused: RunState._paused,
    RequestRetry: RunState._retry,
    ValidationResult: RunState._validation,
    ArtifactCreated: RunState._artifact,
    SelectionMade: RunState._selection,
    AttemptStarted: RunState._attempt,
    CommandExecuted: RunState._command,
    Notice: RunState._notice,
    ArtifactEdited: RunState._edited,
    PromptEdited: RunState._prompt_edited,
    FeedbackRound: RunState._feedback_round,
    ChecksPassed: RunState._checks_passed,
    FeedbackLimit: RunState._feedback_limit,
    EvaluationProgress: RunState._evaluation,
}
