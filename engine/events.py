"""Typed events: what an approach publishes to watchers and appends to its run's event log.

One dataclass per kind of event, told apart by its ``TYPE`` (the ``type`` of the JSON line). One line of
``events.jsonl`` per event::

    {"type": "request.sent", "data": {...fields...}, "seq": 3, "time": 1.7e9, "schema": 2}

The log is append-only and flushed per event, so a run killed at any moment can be resumed and replayed.
Watchers (the CLI's progress, the TUI, the store's fork logic) subscribe to the same objects and dispatch on
their classes. :func:`decode` is the one reader of a line: logs written before the event classes existed
(schema 1, the same line without ``schema``) decode to the same classes, and fields a class does not declare
(an approach's own, or a newer writer's) are kept in ``extra`` and written back unchanged. AutoToS runs made
before they used these classes logged ``{"t": ..., "event": "autotos.<kind>", ...}``: those lines decode to the
events that now stand for them (a prompt to ``RequestSent``, a version to ``ArtifactCreated``, a round to
``FeedbackRound``, ...).

This module imports nothing but the standard library: the TUI reads events before the engine is loaded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

SCHEMA = 2  # 1: the log before typed events (no "schema" key); the line's shape is unchanged


@dataclass(kw_only=True)
class Event:
    """The envelope every event shares; ``seq`` and ``time`` are set by the bus when it is published."""

    TYPE: ClassVar[str] = ""
    LIVE_ONLY: ClassVar[bool] = False  # shown to watchers, never logged (streamed text, waits)
    seq: int = 0
    time: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def type(self) -> str:
        return self.TYPE

    @property
    def data(self) -> dict[str, Any]:
        """The payload as the log holds it: the fields that are set, then the undeclared ones."""
        payload = {name: getattr(self, name) for name in payload_fields(type(self))}
        return {**{k: v for k, v in payload.items() if v is not None}, **self.extra}

    def to_json(self) -> str:
        return json.dumps({"type": self.type, "data": self.data, "seq": self.seq, "time": self.time,
                           "schema": SCHEMA}, sort_keys=True, default=str)


_ENVELOPE = frozenset({"seq", "time", "extra"})
_FIELDS: dict[type[Event], tuple[str, ...]] = {}


def payload_fields(cls: type[Event]) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name not in _ENVELOPE)
    return names


# ---------------------------------------------------------------------------------------------- the run
@dataclass(kw_only=True)
class RunStarted(Event):
    TYPE = "run.started"
    approach: str | None = None
    preset: str | None = None
    domain: str | None = None
    debug_tasks: list[str] | None = None
    environment: dict[str, Any] | None = None  # PDDLego+: the text game and its settings
    purpose: str | None = None  # a run made for one check (e.g. "strategy-check"), not a pipeline run
    checks_strategy_of: str | None = None


@dataclass(kw_only=True)
class RunFinished(Event):
    """How the run ended (the pipeline's RunResult, AutoToS's outcome, a trial's record)."""

    TYPE = "run.finished"
    status: str | None = None  # finished, stopped, failed
    message: str | None = None
    run_dir: str | None = None
    selected_program: str | None = None
    debug_solved: int | None = None
    debug_total: int | None = None
    strategy_versions: int | None = None
    programs_generated: int | None = None
    strategy_solved: int | None = None  # a strategy check's result
    purpose: str | None = None
    llm_calls: int | None = None
    cache_hits: int | None = None
    resumed_responses: int | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None
    wall_seconds: float | None = None
    outcome: str | None = None  # PDDLego+: success / failure
    reason: str | None = None
    calls: int | None = None
    steps: int | None = None


@dataclass(kw_only=True)
class RunFailed(Event):
    TYPE = "run.failed"
    message: str | None = None
    error: str | None = None
    traceback: str | None = None  # an internal error's: the file (relative to the run) that holds its traceback


@dataclass(kw_only=True)
class RunResumed(Event):
    """A resumed run goes on from here: logged before its first new event, right after where it had ended (a
    stop's or an earlier end's ``run.finished``, a ``run.failed``, the last line of a killed run)."""

    TYPE = "run.resumed"
    previous_status: str | None = None  # what run.json said before: stopped, failed, interrupted, finished


# --------------------------------------------------------------------------------------------- the steps
@dataclass(kw_only=True)
class StepStarted(Event):
    """A phase of an approach: nl, strategy, strategy-validation, code, program-check, time-step, ..."""

    TYPE = "step.started"
    phase: str = ""
    round: int | None = None
    task: str | None = None
    version: str | None = None
    candidate: int | None = None
    step: int | None = None  # PDDLego+: the time step in the environment


@dataclass(kw_only=True)
class StepFinished(Event):
    TYPE = "step.finished"
    phase: str = ""
    version: str | None = None
    solved: int | None = None


@dataclass(kw_only=True)
class AttemptStarted(Event):
    """PDDLego+: the environment was reset and the commands so far replayed before another attempt."""

    TYPE = "attempt.started"
    step: int | None = None
    attempt: int | None = None
    replayed: int | None = None


@dataclass(kw_only=True)
class CommandExecuted(Event):
    """PDDLego+: one command run in the environment and what the environment said."""

    TYPE = "command.executed"
    step: int | None = None
    attempt: int | None = None
    command: str | None = None
    observation: str | None = None
    error: str | None = None
    goal_reached: bool | None = None


# ------------------------------------------------------------------------------------------ the requests
@dataclass(kw_only=True)
class _AboutRequest(Event):
    request_id: int | None = None
    step: str | None = None  # the pipeline step that asks (nl.domain, strategy.plan, code.revise, ...)


@dataclass(kw_only=True)
class _RequestContext(_AboutRequest):
    # what the request is about, for watchers
    task: str | None = None
    version: str | None = None
    candidate: int | None = None
    time_step: int | None = None  # PDDLego+: where in the trial
    attempt: int | None = None
    retry: int | None = None


@dataclass(kw_only=True)
class RequestSent(_RequestContext):
    TYPE = "request.sent"
    file: str | None = None  # requests/NNNN-<step>.json
    messages: int | None = None


@dataclass(kw_only=True)
class RequestPaused(_RequestContext):
    """The controller holds the request for a person (step mode); ``held`` False: it only looks at it on the way
    out (a person watching), so the request is being sent, not waiting."""

    TYPE = "request.paused"
    LIVE_ONLY = True
    held: bool = True


@dataclass(kw_only=True)
class PromptEdited(_AboutRequest):
    """A person edited a request's prompt before it was sent (step mode): the request file holds the prompt as
    sent; ``messages`` are the changed messages' places (from 1)."""

    TYPE = "request.edited"
    messages: list[int] | None = None


@dataclass(kw_only=True)
class TextDelta(_AboutRequest):
    TYPE = "text.delta"
    LIVE_ONLY = True
    text: str = ""


@dataclass(kw_only=True)
class RequestRetry(_AboutRequest):
    """A failed attempt is retried after a wait (live only: a wait is not a result)."""

    TYPE = "request.retry"
    LIVE_ONLY = True
    attempt: int | None = None
    delay_s: float | None = None
    reason: str | None = None


@dataclass(kw_only=True)
class ResponseReceived(_AboutRequest):
    TYPE = "response.received"
    file: str | None = None  # responses/NNNN-<step>.md
    cached: bool | None = None
    human: bool | None = None  # a person's answer
    truncated: bool | None = None
    resumed: bool | None = None  # kept from before (a resumed run, a fork): not sent again
    latency_s: float | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None


# ---------------------------------------------------------------------------- checks, artefacts, choices
@dataclass(kw_only=True)
class ValidationResult(Event):
    """One check of one task: a strategy's plan, a program's plan, PDDLego+'s solver call."""

    TYPE = "validation.result"
    what: str | None = None  # strategy, strategy-final, program, pddl
    version: str | None = None
    task: str | None = None
    valid: bool | None = None
    kind: str | None = None  # the failure kind (Table 13 of Stein et al.), or "plan" / "solver-error"
    message: str | None = None
    plan: list[str] | None = None
    step: int | None = None  # PDDLego+: where in the trial
    attempt: int | None = None
    retry: int | None = None
    planner: str | None = None
    warnings: list[str] | None = None  # PDDLego+: what the reader accepted but warned about (a type its own parent)


@dataclass(kw_only=True)
class ArtifactCreated(Event):
    """A file the approach wrote; ``request_id`` names the answer it came from (for forking after an edit)."""

    TYPE = "artifact.created"
    kind: str | None = None  # nl_domain, nl_task, strategy, reflection, program, pddl_domain, pddl_problem
    file: str | None = None
    request_id: int | None = None
    version: str | None = None
    candidate: int | None = None
    task: str | None = None
    about: str | None = None  # a reflection's subject: strategy or program
    step: int | None = None
    attempt: int | None = None
    retry: int | None = None


@dataclass(kw_only=True)
class ArtifactEdited(Event):
    """A person's edit: ``edited`` (the version changed) -> ``file`` (the new version), with both hashes."""

    TYPE = "artifact.edited"
    kind: str | None = None
    edited: str | None = None
    file: str | None = None
    old_hash: str | None = None
    new_hash: str | None = None
    origin: str | None = None  # tui, outside


@dataclass(kw_only=True)
class SelectionMade(Event):
    TYPE = "selection.made"
    kind: str | None = None  # strategy, program
    version: str | None = None
    solved: int | None = None
    total: int | None = None
    file: str | None = None


@dataclass(kw_only=True)
class Notice(Event):
    """Something a person should know: an extraction that failed, a cut-off answer, a fallback."""

    TYPE = "notice"
    level: str = "info"  # info, warning, error
    message: str = ""
    request_id: int | None = None
    step: int | None = None  # PDDLego+: the time step


# ------------------------------------------------------------------------------ AutoToS's unit tests
@dataclass(kw_only=True)
class FeedbackRound(Event):
    """AutoToS: a unit test of the successor function or the goal test failed; its feedback goes to the model
    (the next request asks for ``target`` again)."""

    TYPE = "feedback.round"
    number: int | None = None  # 1-based, over both functions
    phase: str | None = None  # the check that failed: goal, soundness, completeness
    target: str | None = None  # the function asked for again: succ, goal
    check: str | None = None  # the harness's failure kind (goal-wrong, pst, incomplete, succ-exception, ...)
    category: str | None = None  # the paper's feedback category (succ soundness, goal exception, ...)
    failure: dict[str, Any] | None = None  # the failing test as the harness reported it
    feedback: str | None = None  # the text the model gets


@dataclass(kw_only=True)
class ChecksPassed(Event):
    """AutoToS: one kind of unit test passed (goal, soundness, completeness)."""

    TYPE = "checks.passed"
    check: str | None = None


@dataclass(kw_only=True)
class FeedbackLimit(Event):
    """AutoToS: the feedback rounds of ``target`` are spent; the run stops without functions that pass."""

    TYPE = "feedback.limit"
    target: str | None = None
    rounds: int | None = None


@dataclass(kw_only=True)
class EvaluationProgress(Event):
    """AutoToS: the evaluation instances searched so far with the final functions."""

    TYPE = "evaluation.progress"
    done: int | None = None
    total: int | None = None
    solved: int | None = None
    seconds: float | None = None


@dataclass(kw_only=True)
class UnknownEvent(Event):
    """A line of a type this version does not know (a newer writer's): kept, shown as it is."""

    name: str = ""

    @property
    def type(self) -> str:
        return self.name

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.extra)


EVENT_TYPES: dict[str, type[Event]] = {cls.TYPE: cls for cls in (
    RunStarted, RunFinished, RunFailed, RunResumed, StepStarted, StepFinished, AttemptStarted, CommandExecuted,
    RequestSent, RequestPaused, PromptEdited, TextDelta, RequestRetry, ResponseReceived,
    ValidationResult, ArtifactCreated, ArtifactEdited, SelectionMade, Notice,
    FeedbackRound, ChecksPassed, FeedbackLimit, EvaluationProgress,
)}


def event_from(type_: str, data: dict[str, Any], seq: int = 0, when: float = 0.0) -> Event:
    """The event of ``type_`` with the payload ``data``; what a class does not declare goes to ``extra``."""
    cls = EVENT_TYPES.get(type_)
    if cls is None:
        return UnknownEvent(name=type_, extra=dict(data), seq=seq, time=when)
    names = payload_fields(cls)
    known = {k: v for k, v in data.items() if k in names}
    extra = {k: v for k, v in data.items() if k not in names}
    return cls(**known, extra=extra, seq=seq, time=when)


def _legacy_autotos(raw: dict[str, Any]) -> Event:
    """A line of an AutoToS run made before it used the typed events: ``{"t": seconds since the start,
    "event": "autotos.<kind>", ...fields}``, as the event that now stands for it."""
    name = str(raw["event"])
    data = {k: v for k, v in raw.items() if k not in ("t", "event")}
    when = float(raw.get("t") or 0.0)
    kind = name.removeprefix("autotos.")
    if kind == "prompt":
        return event_from(RequestSent.TYPE, {"request_id": data.pop("call", None),
                                             "step": f"autotos.{data.get('target')}", **data}, 0, when)
    if kind == "version":
        version = f"{data.get('target')}-{data.get('number')}"
        return event_from(ArtifactCreated.TYPE, {"kind": "function", "version": version,
                                                 "file": f"versions/{version}.py", **data}, 0, when)
    if kind == "error":
        return event_from(RunFailed.TYPE, {"error": data.pop("message", None), **data}, 0, when)
    legacy: dict[str, type[Event]] = {"round": FeedbackRound, "passed": ChecksPassed, "stopped": FeedbackLimit,
                                      "evaluation": EvaluationProgress}
    cls = legacy.get(kind)
    return event_from(cls.TYPE if cls is not None else name, data, 0, when)


def decode(line: str) -> Event:
    """One line of ``events.jsonl`` (any schema) as its event; ValueError/KeyError for a line that is none."""
    raw = json.loads(line)
    if "type" not in raw and str(raw.get("event", "")).startswith("autotos."):
        return _legacy_autotos(raw)
    data = raw.get("data") or {}
    if not isinstance(data, dict):
        raise ValueError("an event's data is not an object")
    return event_from(str(raw["type"]), data, int(raw.get("seq", 0)), float(raw.get("time", 0.0)))


def read_log(lines: Iterable[str]) -> Iterator[Event]:
    """The events of a log's lines; blank lines and a torn last line (a crash mid-write) are skipped."""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            yield decode(line)
        except (ValueError, KeyError, TypeError):
            continue


# ---------------------------------------------------------------------------------------------- the bus
Subscriber = Callable[[Event], None]


class EventBus:
    """Numbers events, hands them to subscribers in order, and to the log (except live-only ones).

    Publishing is serialised with a lock so that events from concurrent requests keep one total order.
    """

    def __init__(self, log_writer: Callable[[Event], None] | None = None, logged: Sequence[Event] = (),
                 resumed: RunResumed | None = None) -> None:
        """`logged`: the events a resumed run's log holds already. A resumed run publishes its deterministic
        sequence again: while each event is of the kind the log has next, it goes to the subscribers only, with
        the number it has in the log. The first one that differs starts the new part, logged and numbered after
        the log's last event; `resumed` (a resumed run's mark) is logged just before it. A stop's or a
        failure's `RunFinished` and the marks of earlier resumes are no part of that sequence (the resumed run
        publishes the event that came after them instead), so they are passed over, however often the run was
        stopped and resumed before."""
        self._subscribers: list[Subscriber] = []
        self._log_writer = log_writer
        self._replay = [(type(event), event.seq) for event in logged if not isinstance(event, (RunFinished, RunResumed))]
        self._resumed = resumed if logged else None
        self._replayed = 0  # how many of them were published again
        self._last_logged = max((event.seq for event in logged), default=0)
        self._seq = 0
        self._lock = threading.RLock()

    def subscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.append(subscriber)

    def _logged_seq(self, event: Event) -> int | None:
        """The number `event` has in the log, when it is the next one of the logged sequence a resumed run
        publishes again; None when it is new."""
        if self._replayed < len(self._replay) and type(event) is self._replay[self._replayed][0]:
            self._replayed += 1
            return self._replay[self._replayed - 1][1]
        self._replay = []  # the new part has begun: nothing after it is a replay
        return None

    def publish(self, event: Event) -> Event:
        with self._lock:
            write = False
            if not event.LIVE_ONLY:
                logged_seq = self._logged_seq(event)
                write = logged_seq is None
                if write and self._resumed is not None:  # the new part begins: the mark of the resume first
                    mark, self._resumed = self._resumed, None
                    self.publish(mark)
                seq = max(self._seq, self._last_logged) + 1 if logged_seq is None else logged_seq
            else:
                seq = self._seq
            event.seq, event.time = seq, time.time()
            if self._log_writer is not None and write:
                self._log_writer(event)  # a write refused (the run has ended) uses up no number
            self._seq = seq
            for subscriber in list(self._subscribers):
                subscriber(event)
            return event

    def publish_aside(self, event: Event) -> Event:
        """An event from outside the run's own sequence (a person's edit while the run goes on): numbered after
        every event so far, logged, handed to the subscribers. It does not end a resumed run's replay: the
        events published again after it still go to the watchers only, with their logged numbers."""
        with self._lock:
            self._last_logged = max(self._seq, self._last_logged) + 1
            event.seq, event.time = self._last_logged, time.time()
            if self._log_writer is not None:
                self._log_writer(event)
            for subscriber in list(self._subscribers):
                subscriber(event)
            return event


Publish = Callable[[Event], object]


class DeferredPublisher:
    """Holds the logged events of one concurrent request until the coordinator flushes them in a fixed
    order; live-only events (streamed text) go out at once."""

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus
        self._held: list[Event] = []

    def publish(self, event: Event) -> None:
        if event.LIVE_ONLY:
            self.bus.publish(event)
        else:
            self._held.append(event)

    def flush(self) -> None:
        held, self._held = self._held, []
        for event in held:
            self.bus.publish(event)
