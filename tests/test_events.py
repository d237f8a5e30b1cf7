"""Typed events: one class per kind, one decoder, and logs written before the classes existed still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genplan.engine.events import (
    EVENT_TYPES,
    SCHEMA,
    ArtifactCreated,
    ChecksPassed,
    DeferredPublisher,
    EvaluationProgress,
    Event,
    EventBus,
    FeedbackLimit,
    FeedbackRound,
    RequestSent,
    ResponseReceived,
    RunFailed,
    RunFinished,
    TextDelta,
    UnknownEvent,
    ValidationResult,
    decode,
    payload_fields,
    read_log,
)
from genplan.engine.runs.store import RunStore

LEGACY = Path(__file__).parent / "data" / "runs" / "legacy-bas" / "events.jsonl"


def test_every_kind_has_its_own_class_and_type_name() -> None:
    assert len(EVENT_TYPES) == len(set(EVENT_TYPES.values())) == 23
    for name, cls in EVENT_TYPES.items():
        assert cls.TYPE == name and cls().type == name
        assert not {"type", "data", "schema"} & set(payload_fields(cls))  # would clash with the line's keys


@pytest.mark.parametrize("cls", sorted(EVENT_TYPES.values(), key=lambda c: c.TYPE))
def test_each_class_survives_the_log(cls: type[Event]) -> None:
    event = cls(seq=7, time=12.5, extra={"from_an_approach": [1, 2]})
    line = event.to_json()
    assert json.loads(line)["schema"] == SCHEMA
    assert decode(line) == event


def test_a_log_of_the_untyped_schema_decodes_to_the_classes_and_loses_nothing() -> None:
    lines = LEGACY.read_text(encoding="utf-8").splitlines()
    events = list(read_log(lines))
    assert len(events) == len(lines) and not any(isinstance(e, UnknownEvent) for e in events)
    sent = next(e for e in events if isinstance(e, RequestSent))
    assert (sent.request_id, sent.step, sent.messages) == (1, "baseline.summary", 2)
    assert isinstance(events[-1], RunFinished) and events[-1].status == "finished"
    for line, event in zip(lines, events):
        old = json.loads(line)
        again = json.loads(event.to_json())
        # the same line, with its schema named; a null the old writer spelled out is simply left out
        assert again["data"] == {k: v for k, v in old["data"].items() if v is not None}
        assert (again["type"], again["seq"], again["time"]) == (old["type"], old["seq"], old["time"])


# What AutoToS runs logged before they used the event classes (engine/autotos/session.py's old RunRecorder)
AUTOTOS_LEGACY = [
    {"t": 0.002, "event": "autotos.prompt", "target": "succ", "prompt": "Give a successor function", "call": 1},
    {"t": 0.004, "event": "autotos.version", "target": "succ", "number": 1, "name": "get_successor_states",
     "source": "def get_successor_states(state):\n    return []\n", "answer": "```python\n...\n```"},
    {"t": 0.51, "event": "autotos.passed", "check": "goal"},
    {"t": 0.93, "event": "autotos.round", "number": 1, "phase": "soundness", "target": "succ",
     "check": "succ-exception", "category": "succ exception",
     "failure": {"failure": "succ-exception", "state": [1, 1, 10], "error": "IndexError"},
     "feedback": "Testing the successor function raised an exception: IndexError"},
    {"t": 9.5, "event": "autotos.stopped", "target": "goal", "rounds": 9},
    {"t": 12.0, "event": "autotos.evaluation", "done": 64, "total": 1362, "solved": 60, "seconds": 2.5},
    {"t": 12.5, "event": "autotos.error", "message": "the replay has no more answers"},
]


def test_an_autotos_log_of_the_untyped_lines_decodes_to_the_classes() -> None:
    events = list(read_log(json.dumps(line) for line in AUTOTOS_LEGACY))
    assert [type(e) for e in events] == [RequestSent, ArtifactCreated, ChecksPassed, FeedbackRound, FeedbackLimit,
                                         EvaluationProgress, RunFailed]
    sent, version, passed, round_, limit, progress, failed = events
    assert (sent.request_id, sent.step, sent.time, sent.extra["prompt"]) == (1, "autotos.succ", 0.002,
                                                                             "Give a successor function")
    assert (version.kind, version.version, version.file) == ("function", "succ-1", "versions/succ-1.py")
    assert version.extra["source"].startswith("def get_successor_states")  # nothing of the line is lost
    assert passed.check == "goal"
    assert (round_.number, round_.phase, round_.target, round_.check, round_.category) == (
        1, "soundness", "succ", "succ-exception", "succ exception")
    assert round_.failure == AUTOTOS_LEGACY[3]["failure"] and round_.feedback.startswith("Testing the successor")
    assert (limit.target, limit.rounds) == ("goal", 9)
    assert (progress.done, progress.total, progress.solved, progress.seconds) == (64, 1362, 60, 2.5)
    assert failed.error == "the replay has no more answers"
    # written again, each is a line of today's schema that decodes to the same event
    assert [decode(e.to_json()) for e in events] == events
    unknown = decode(json.dumps({"t": 1.0, "event": "autotos.something-newer", "x": 1}))
    assert isinstance(unknown, UnknownEvent) and unknown.type == "autotos.something-newer" and unknown.data == {"x": 1}


def test_fields_a_class_does_not_declare_are_kept() -> None:
    line = json.dumps({"type": "response.received", "seq": 3, "time": 1.0,
                       "data": {"request_id": 2, "usage": {"input_tokens": 5}}})  # an older writer's usage table
    event = decode(line)
    assert isinstance(event, ResponseReceived) and event.request_id == 2
    assert event.extra == {"usage": {"input_tokens": 5}} and event.data["usage"] == {"input_tokens": 5}


def test_an_unknown_kind_is_kept_as_it_came() -> None:
    line = json.dumps({"type": "planner.called", "seq": 4, "time": 2.0, "data": {"planner": "fd"}})
    event = decode(line)
    assert isinstance(event, UnknownEvent) and event.type == "planner.called" and event.data == {"planner": "fd"}
    assert json.loads(event.to_json())["data"] == {"planner": "fd"}


def test_blank_torn_and_foreign_lines_are_skipped() -> None:
    good = ValidationResult(what="program", version="c1-v01", task="task-00", valid=True, seq=1).to_json()
    lines = ["", good, '{"type": "notice", "data": [1]}', "not json", good[: len(good) // 2]]
    assert [e.seq for e in read_log(lines)] == [1]


def test_the_bus_numbers_logs_and_hands_out_in_order(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path, {"config": {}})
    bus = EventBus(store.append_event)
    seen: list[Event] = []
    bus.subscribe(seen.append)
    deferred = DeferredPublisher(bus)
    deferred.publish(ArtifactCreated(kind="strategy", file="strategies/v01.md", request_id=3))
    deferred.publish(TextDelta(request_id=3, text="Pseu"))  # live: at once, before the held one
    assert [type(e) for e in seen] == [TextDelta]
    deferred.flush()
    bus.publish(RunFinished(status="finished"))
    assert [type(e) for e in seen] == [TextDelta, ArtifactCreated, RunFinished]
    logged = list(store.events())
    assert [(type(e), e.seq) for e in logged] == [(ArtifactCreated, 1), (RunFinished, 2)]  # no streamed text
    assert logged[0] == seen[1]


def test_a_run_closed_to_other_threads_logs_nothing_of_theirs_and_skips_no_number(tmp_path: Path) -> None:
    """A run that ended early (ctrl+c, an error) while a request was still out: the late thread's event is refused
    and uses up no number, and what the ending thread records next follows the log without a gap."""
    import threading

    from genplan.engine.errors import RunStopped
    from genplan.engine.events import EventBus, Notice, RunFinished

    store = RunStore.create(tmp_path, {"approach": "stein"})
    bus = EventBus(store.append_event)
    bus.publish(Notice(message="before the end"))
    store.close()
    refused: list[BaseException] = []

    def late() -> None:
        try:
            bus.publish(Notice(message="an answer that came after the end"))
        except RunStopped as exc:
            refused.append(exc)
        try:
            store.write_text("responses/0002-nl.task.md", "late")
        except RunStopped as exc:
            refused.append(exc)

    thread = threading.Thread(target=late)
    thread.start()
    thread.join()
    bus.publish(RunFinished(status="stopped"))
    assert len(refused) == 2 and not (store.path / "responses").exists()
    assert [(event.seq, event.type) for event in store.events()] == [(1, "notice"), (2, "run.finished")]
