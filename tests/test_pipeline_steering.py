"""Steering a run: pausing before requests (edit the prompt, answer by hand, stop) and continuing from
an edited strategy or program version."""

from __future__ import annotations

from pathlib import Path

from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_pipeline_stein import make_pipeline

from genplan.engine.approaches.presets import load_preset
from genplan.engine.llm import ChatMessage, ChatRequest
from genplan.engine.pipeline.conversation import answer_for
from genplan.engine.runs.gateway import Decision
from genplan.engine.runs.store import RunStore, fork_run


class ScriptedPerson:
    """A controller standing in for the person at the keyboard."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def before_request(self, request_id: int, request: ChatRequest) -> Decision:
        self.seen.append(request.step)
        if request.step == "nl.domain":
            edited = [*request.messages[:-1], ChatMessage("user", request.messages[-1].content + "\nEDITED BY A PERSON")]
            return Decision.edit(edited)
        if request.step == "strategy.generate":
            return Decision.answer_with("Pseudocode:\n1. typed by a person: move every car (version 1)")
        if request.step == "code.generate":
            return Decision.stop()
        return Decision.send()


def test_step_mode_edit_answer_and_stop(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel())
    person = ScriptedPerson()
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"), controller=person)
    result = pipeline.run()
    assert result.status == "stopped" and "code.generate" in result.message
    assert person.seen[0] == "nl.domain" and person.seen[-1] == "code.generate"
    # the edited prompt is what the server received; the hand-written answer was never sent
    assert scripted_server.requests[0].messages[-1]["content"].endswith("EDITED BY A PERSON")
    assert "strategy.generate" not in scripted_server.steps()
    assert "typed by a person" in (pipeline.store.path / "strategies" / "v01.md").read_text()
    # step mode asks one request at a time
    assert scripted_server.max_in_flight == 1


def _artifact_request(store: RunStore, file: str) -> int:
    return next(e.data["request_id"] for e in store.events() if e.type == "artifact.created" and e.data["file"] == file)


def test_continue_from_an_edited_program(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM], ))
    config = load_preset("F5-3").with_changes(initial_programs=1, code_rounds=1)
    first = make_pipeline(scripted_server, tmp_path / "a", config)
    assert first.run().debug_solved < 6
    asked = len(scripted_server.requests)
    request_id = _artifact_request(first.store, "programs/c1-v00.py")
    fork = fork_run(first.store, tmp_path / "b", request_id, answer_for("program", CORRECT_PROGRAM))
    resumed = make_pipeline(scripted_server, tmp_path / "b", config, store=fork).run()
    # nothing before the edit was asked again, the edited program solved everything: no more requests
    assert len(scripted_server.requests) == asked
    assert resumed.debug_solved == 6 and resumed.selected_program.name == "c1-v00.py"
    assert "ferry_at != start" in resumed.selected_program.read_text()


def test_continue_from_an_edited_strategy_validates_it(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(strategy_plan_mistakes=1))
    config = load_preset("F5-3").with_changes(initial_programs=1)
    first = make_pipeline(scripted_server, tmp_path / "a", config)
    first.run()
    request_id = _artifact_request(first.store, "strategies/v01.md")
    scripted_server.clear()
    fork = fork_run(first.store, tmp_path / "b", request_id, answer_for("strategy", "my own strategy (version 7)"))
    resumed = make_pipeline(scripted_server, tmp_path / "b", config, store=fork)
    resumed.run()
    assert (fork.path / "strategies" / "v01.md").read_text().strip() == "my own strategy (version 7)"
    steps = scripted_server.steps()
    assert steps[:6] == ["strategy.plan"] * 6  # the edited strategy went straight to validation
    assert "strategy.reflect" not in steps  # version 7 plans are all right in the synthetic model


class WatchingPerson(ScriptedPerson):
    """Only watching: every request is sent as is, and the engine may send independent ones at once."""

    def before_request(self, request_id: int, request: ChatRequest) -> Decision:
        self.seen.append(request.step)
        return Decision.send()

    def wants_to_pause(self) -> bool:
        return False


def test_a_watching_controller_keeps_requests_concurrent(tmp_path: Path) -> None:
    with ScriptedServer(fixed_delay_s=0.2) as server:
        server.respond_with(FerryModel())
        person = WatchingPerson()
        make_pipeline(server, tmp_path, load_preset("F5-3"), controller=person).run()
        assert server.max_in_flight > 1 and len(person.seen) == len(server.requests)


def test_continue_from_edit_finds_the_answer_behind_a_version(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    from genplan.engine import api

    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM]))
    config = load_preset("F5-3").with_changes(initial_programs=1, code_rounds=0)
    first = make_pipeline(scripted_server, tmp_path / "runs", config)
    first.run()
    asked = len(scripted_server.requests)
    fork = RunStore.open(api.fork(first.store.path, "programs/c1-v00.py", "program", CORRECT_PROGRAM))
    assert fork.path.parent == first.store.path.parent and fork.meta()["forked_from"] == str(first.store.path)
    result = make_pipeline(scripted_server, tmp_path, config, store=fork).run()
    assert len(scripted_server.requests) == asked and result.debug_solved == 6
    try:
        api.fork(first.store.path, "programs/nope.py", "program", "x")
    except api.NotResumable as exc:
        assert "no answer of this run wrote this file" in str(exc)
    else:
        raise AssertionError("an unknown version must be refused")
