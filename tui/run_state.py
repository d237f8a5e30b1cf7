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
    RequestPaused,
    RequestRetry,
    RequestSent,
    ResponseReceived,
    RunFailed,
    RunFinished,
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
    data: dict[str, Any] = field(default_factory=dict)


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


def request_context(data: dict[str, Any]) -> str:
    """What a request is about, as the engine says it: its task, version, candidate; for PDDLego+ the time
    step, the attempt after a reset (outer loop) and the retry after a solver error (inner loop)."""
    parts = [_text(data.get(name)) for name in ("task", "version") if data.get(name)]
    if data.get("candidate") and not data.get("version"):  # a version (c1-v00) already names its candidate
        parts.append(f"candidate {data['candidate']}")
    return " ".join(parts + time_step_parts(data))


def time_step_parts(data: dict[str, Any]) -> list[str]:
    """["step 3", "attempt 2", "retry 1"] from a PDDLego+ event (attempts counted from 1, retries from 0)."""
    step = data.get("time_step", data.get("step"))
    if not isinstance(step, int) or isinstance(step, bool):
        return []
    parts = [f"step {step}"]
    attempt, retry = data.get("attempt"), data.get("retry")
    if isinstance(attempt, int) and attempt > 0:
        parts.append(f"attempt {attempt + 1}")
    if isinstance(retry, int) and retry > 0:
        parts.append(f"retry {retry}")
    return parts


def time_step_label(data: dict[str, Any]) -> str:
    """The stem of a PDDLego+ call's files (``s01-a0-r2``), naming its solver check."""
    return f"s{int(data.get('step', 0)):02d}-a{int(data.get('attempt', 0))}-r{int(data.get('retry', 0))}"


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
            entry.data.setdefault("call", self.request_rows)
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
        parts += time_step_parts(event.data) if event.phase else []
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
                                        data=dict(event.data)), update)
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
        entry.detail = "; ".join(part for part in (request_context(entry.data), retry) if part)

    def _request_sent(self, event: RequestSent, update: Update) -> None:
        rid = _text(event.request_id)
        step = _text(event.step)
        data = event.data
        detail = request_context(data)
        entry = self._changed(f"req:{rid}", update)  # a paused request is announced once it is decided
        if entry is None:
            entry = self._add(TimelineEntry(f"req:{rid}", "request", step or "request", detail, RUNNING,
                                            started=event.time, request_id=rid, step=step), update)
            update.stream_started = rid
        elif detail:
            entry.detail = detail  # which task it concerns, also for a request that was held first
        entry.status = RUNNING
        entry.file = self.resolve(event.file)
        entry.data.update(data)
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
            entry.data["response_file"] = str(response_file)
        if event.truncated:
            entry.detail = (entry.detail + " (cut off)").strip()

    def call_number(self, request_id: str | None) -> int | None:
        """A request's place among the run's calls (1, 2, 3, ...: the ids skip the ids kept for retries)."""
        entry = self.entry(f"req:{request_id}") if request_id is not None else None
        number = entry.data.get("call") if entry is not None else None
        return number if isinstance(number, int) else None

    def request_about(self, request_id: str | None = None, step: str | None = None) -> str:
        """The task/version a request concerns (``request_id`` None: the last announced one of ``step``)."""
        rid = request_id if request_id is not None else self.last_request
        entry = self.entry(f"req:{rid}") if rid is not None else None
        if entry is None or (step is not None and entry.step != step):
            return ""
        return request_context(entry.data) or entry.detail

    def response_text(self, request_id: str) -> str:
        """The whole answer: streamed text if we saw it, else the response file of the run directory."""
        entry = self.entry(f"req:{request_id}")
        file = entry.data.get("response_file") if entry is not None else None
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
            entry = self._add(TimelineEntry(f"req:{rid}", "request", step or "request", request_context(event.data),
                                            request_id=rid, step=step, started=event.time), update)
        entry.status = PAUSED
        update.paused_request = rid

    def _validation(self, event: ValidationResult, update: Update) -> None:
        data = event.data
        what = _text(event.what or "plan")
        version = _text(event.version)
        task = _text(event.task)
        if not version and not task and time_step_parts(data):  # a PDDLego+ solver check: one per call
            version, task = time_step_label(data), "solver"
        valid = bool(event.valid)
        plan = event.plan if isinstance(event.plan, list) else None
        result = CheckResult(task, valid, event.kind, _text(event.message), plan)
        key = (what, version)
        self.results.setdefault(key, {})[task] = result
        self.current_results = key
        update.results = True
        title = f"check {what} {version}".strip()
        self._add(TimelineEntry(f"check:{what}:{version}:{task}", "check", title, task, PASS if valid else FAIL,
                                started=event.time, data=dict(data)), update)

    def _artifact(self, event: ArtifactCreated, update: Update) -> None:
        ref = ArtifactRef(_text(event.kind), _text(event.version), self.resolve(event.file))
        self.artifacts.append(ref)
        update.artifact = ref
        title = f"{ref.kind.replace('_', ' ')} {ref.version}".strip()
        self._add(TimelineEntry(f"art:{ref.kind}:{ref.version}", "artifact", title,
                                ref.file.name if ref.file else "", DONE, started=event.time, file=ref.file,
                                data=dict(event.data)), update)

    def _selection(self, event: SelectionMade, update: Update) -> None:
        kind, version = _text(event.kind), _text(event.version)
        solved, total = event.solved, event.total
        score = f"{solved}/{total} debug tasks" if solved is not None and total is not None else ""
        self._add(TimelineEntry(f"sel:{kind}:{version}:{event.seq}", "selection", f"selected {kind} {version}",
                                score, DONE, started=event.time, data=dict(event.data)), update)

    def _edited(self, event: ArtifactEdited, update: Update) -> None:
        file = self.resolve(event.file)
        origin = {"outside": "outside genplan", "cli": "with genplan edit"}.get(str(event.origin), "in the TUI")
        title = f"edited {event.kind or ''} {Path(str(event.edited or '')).stem}".strip()
        hashes = f"{(event.old_hash or '')[:8]} → {(event.new_hash or '')[:8]}"
        detail = f"→ {file.name if file else '?'} ({origin}; {hashes})"
        self._add(TimelineEntry(f"edit:{event.seq}", "edit", title, detail, DONE, started=event.time, file=file,
                                data=dict(event.data)), update)

    def _attempt(self, event: AttemptStarted, update: Update) -> None:
        attempt = event.attempt
        if isinstance(attempt, int) and attempt > 0:  # the first attempt of a step needs no row
            detail = f"{' '.join(time_step_parts(event.data))}: replayed {event.replayed or 0} commands"
            self._add(TimelineEntry(f"attempt:{event.seq}", "reset", "reset", detail, INFO, started=event.time,
                                    data=dict(event.data)), update)

    def _command(self, event: CommandExecuted, update: Update) -> None:
        observation = _text(event.observation).strip().splitlines()
        detail = "goal reached" if event.goal_reached else (observation[0] if observation else "")
        error = event.error
        self._add(TimelineEntry(f"command:{event.seq}", "command", _text(event.command),
                                _text(error) if error else detail, FAIL if error else PASS, started=event.time,
                                data=dict(event.data)), update)

    def _notice(self, event: Notice, update: Update) -> None:
        level = _text(event.level or "info")
        self._add(TimelineEntry(f"notice:{event.seq}", "notice", level, _text(event.message),
                                FAIL if level in ("error", "warning") else INFO, started=event.time,
                                data=dict(event.data)), update)

    # ------------------------------------------------------------------ AutoToS's unit tests
    def _feedback_round(self, event: FeedbackRound, update: Update) -> None:
        """A failed unit test: which check, the paper's category, the failing test; the feedback is in ``data``."""
        failure: dict[str, Any] = event.failure if isinstance(event.failure, dict) else {}
        parts = [_text(event.category or event.check)]
        if failure.get("state") is not None:
            parts.append(f"on {failure_value(failure['state'])}")
        if event.target:
            parts.append(f"→ {event.target}")
        title = f"round {event.number}: {_text(event.phase or 'unit')} failed"
        self._add(TimelineEntry(f"round:{event.number}", "round", title, " ".join(parts), FAIL,
                                started=event.time, data=dict(event.data)), update)

    def _checks_passed(self, event: ChecksPassed, update: Update) -> None:
        self._add(TimelineEntry(f"passed:{event.seq}", "passed", f"{_text(event.check)} tests passed", "", PASS,
                                started=event.time, data=dict(event.data)), update)

    def _feedback_limit(self, event: FeedbackLimit, update: Update) -> None:
        detail = f"{event.rounds} feedback rounds for {_text(event.target)} spent"
        self._add(TimelineEntry(f"limit:{event.seq}", "limit", "feedback limit", detail, STOPPED, started=event.time,
                                data=dict(event.data)), update)

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
        entry.data = dict(event.data)

def round_text(entry: TimelineEntry) -> str:
    """An AutoToS round as the Answer view shows it (Markdown): the check, its category, the failing test as the
    harness reported it and the feedback the model got, word for word."""
    import json

    data = entry.data
    lines = [f"check `{_text(data.get('check'))}` · category *{_text(data.get('category'))}* · "
             f"feedback to `{_text(data.get('target'))}`", ""]
    failure = data.get("failure")
    if isinstance(failure, dict) and failure:
        lines += ["The failing test:", "", "```text"]
        for key, value in failure.items():
            shown = value if isinstance(value, str) else json.dumps(value, default=str)
            lines.append(f"{key}: {shown.rstrip()}")
        lines += ["```", ""]
    lines += ["The feedback the model got:", "", "```text", _text(data.get("feedback")).rstrip("\n"), "```"]
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
    FeedbackRound: RunState._feedback_round,
    ChecksPassed: RunState._checks_passed,
    FeedbackLimit: RunState._feedback_limit,
    EvaluationProgress: RunState._evaluation,
}
