"""Typed pipeline events: what the engine publishes to watchers and appends to a run's event log.

One event per line of ``events.jsonl``; the log is append-only and flushed per event, so a run killed at
any moment can be resumed and replayed. Watchers (CLI progress, TUI) subscribe to the same events.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

# Event types. Keep these names stable: run directories on disk contain them.
RUN_STARTED = "run.started"
RUN_FINISHED = "run.finished"
RUN_FAILED = "run.failed"
STEP_STARTED = "step.started"  # a pipeline phase: nl, strategy, code (data: phase, round, candidate)
STEP_FINISHED = "step.finished"
REQUEST_SENT = "request.sent"  # data: request_id, step, file (the request JSON), messages count
TEXT_DELTA = "text.delta"  # data: request_id, text (live only: not written to the log)
RESPONSE_RECEIVED = "response.received"  # data: request_id, step, file, usage, cached, latency_s, cost_usd
REQUEST_PAUSED = "request.paused"  # the controller holds a request for a person (step mode)
REQUEST_RETRY = "request.retry"  # data: request_id, step, attempt, delay_s, reason (live only: a wait is not a result)
VALIDATION_RESULT = "validation.result"  # data: what (strategy/program), version, task, valid, kind, message
ARTIFACT_CREATED = "artifact.created"  # data: kind (nl_domain/nl_task/strategy/reflection/program), version, file
SELECTION_MADE = "selection.made"  # data: kind (strategy/program), version, solved, total
NOTICE = "notice"  # data: level, message (retries, extraction failures, fallbacks)

LIVE_ONLY = frozenset({TEXT_DELTA, REQUEST_PAUSED, REQUEST_RETRY})


@dataclass
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    time: float = 0.0

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, default=str)

    @classmethod
    def from_json(cls, line: str) -> Event:
        raw = json.loads(line)
        return cls(type=raw["type"], data=raw.get("data", {}), seq=raw.get("seq", 0), time=raw.get("time", 0.0))


Subscriber = Callable[[Event], None]


class EventBus:
    """Numbers events, hands them to subscribers in order, and to the log (except live-only ones).

    Publishing is serialised with a lock so that events from concurrent requests keep one total order.
    """

    def __init__(self, log_writer: Callable[[Event], None] | None = None, already_logged: int = 0) -> None:
        """`already_logged`: a resumed run replays its deterministic event sequence; the first events are
        in the log already, so they go to subscribers only."""
        self._subscribers: list[Subscriber] = []
        self._log_writer = log_writer
        self._already_logged = already_logged
        self._seq = 0
        self._lock = threading.RLock()

    def subscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.append(subscriber)

    def publish(self, type_: str, **data: Any) -> Event:
        with self._lock:
            if type_ not in LIVE_ONLY:
                self._seq += 1
            event = Event(type_, data, self._seq, time.time())
            if self._log_writer is not None and type_ not in LIVE_ONLY and self._seq > self._already_logged:
                self._log_writer(event)
            for subscriber in list(self._subscribers):
                subscriber(event)
            return event


class DeferredPublisher:
    """Holds the logged events of one concurrent request until the coordinator flushes them in a fixed
    order; live-only events (streamed text) go out at once."""

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus
        self._held: list[tuple[str, dict[str, Any]]] = []

    def publish(self, type_: str, **data: Any) -> None:
        if type_ in LIVE_ONLY:
            self.bus.publish(type_, **data)
        else:
            self._held.append((type_, data))

    def flush(self) -> None:
        held, self._held = self._held, []
        for type_, data in held:
            self.bus.publish(type_, **data)
