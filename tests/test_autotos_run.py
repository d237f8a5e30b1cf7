"""AutoToS on the one Run context (engine/runs/run.py): its typed parameters, a run made and carried out as every
approach's is (engine.runs.create_named + Run + execute over ``approaches.autotos.run``), and a fork from an edited
successor-function version. The model is the real ``openai`` client against a scripted server on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry
from test_autotos_pddl import FERRY, FERRY_BOARD_KEEPS_EMPTY, GOAL

from genplan.engine.approaches import get_approach
from genplan.engine.approaches.autotos import edited_answer, new_run, parameters, reopen, run
from genplan.engine.autotos.loop import Settings
from genplan.engine.autotos.parameters import AutoToSParameters, BadParameters
from genplan.engine.errors import GenplanError
from genplan.engine.events import (
    ArtifactCreated,
    ChecksPassed,
    FeedbackRound,
    RequestSent,
    ResponseReceived,
    RunFinished,
    RunStarted,
    read_log,
)
from genplan.engine.llm import ModelSettings, make_provider
from genplan.engine.runs import NotResumable, create_named, open_run
from genplan.engine.runs.run import Run, RunSetup, execute
from genplan.engine.runs.store import artifact_request_id, fork_run

ROOT = Path(__file__).resolve().parents[1]
FERRY_DIR = small_ferry()  # ferry with its small debug tasks: the unit-test searches take seconds


# ------------------------------------------------------------------------------------------- typed parameters
def test_the_typed_parameters_hold_every_loop_setting_and_the_presets_parse() -> None:
    names = {f.name for f in dataclasses.fields(AutoToSParameters)}
    assert {f.name for f in dataclasses.fields(Settings)} <= names
    for preset, values in get_approach("autotos").presets.items():
        params = parameters({**values, "preset": preset})
        assert params.preset == preset and params.partial_soundness is values["partial_soundness"]
    # None is "not given" (a CLI option left out): the default stays; an int is a float where seconds are meant
    params = parameters({"eval_limit": None, "eval_timeout": 45, "data": ROOT, "memory_gib": 0.5})
    assert params.eval_limit is None and params.eval_timeout == 45.0 and isinstance(params.eval_timeout, float)
    assert params.data == str(ROOT) and params.memory_gib == 0.5
    assert params.settings().eval_timeout == 45.0 and params.settings().eval_chunk == Settings().eval_chunk
    assert params.settings(eval_chunk=4).eval_chunk == 4  # a front end that may stop: small chunks ...
    assert parameters({"eval_chunk": 16}).settings(eval_chunk=4).eval_chunk == 16  # ... unless one was given
    # what run.json records reads back as the same parameters (what a resume runs with)
    assert parameters(json.loads(json.dumps(params.to_dict()))) == params


@pytest.mark.parametrize("mapping,words", [
    ({"partial_soundnes": True}, "unknown AutoToS parameter partial_soundnes (known: partial_soundness,"),
    ({"eval_limt": 3, "seed": 1}, "unknown AutoToS parameters eval_limt, seed (known:"),
    ({"eval_limit": "3"}, "AutoToS parameter eval_limit: expected int, got str '3'"),
    ({"partial_soundness": 1}, "AutoToS parameter partial_soundness: expected bool, got int 1"),
    ({"max_succ_feedback": True}, "AutoToS parameter max_succ_feedback: expected int, got bool True"),
    ({"call_timeout": "1s"}, "AutoToS parameter call_timeout: expected float, got str '1s'"),
    ({"search": "dfs"}, "AutoToS parameter search: bfs or gbfs, not 'dfs'"),
])
def test_a_bad_parameter_is_one_clear_line(mapping: dict[str, object], words: str) -> None:
    with pytest.raises(BadParameters) as caught:
        parameters(mapping)
    assert isinstance(caught.value, GenplanError)  # the front ends print it as one line
    message = str(caught.value)
    assert words in message and "\n" not in message


def test_a_new_run_records_what_todays_autotos_runs_record(tmp_path: Path) -> None:
    new = new_run(str(FERRY_DIR), parameters({"preset": "AutoToS", "partial_soundness": False, "eval_limit": 2}))
    assert new.stem == "autotos-pddl-ferry"
    meta = dict(new.meta)
    assert (meta["approach"], meta["domain"], meta["preset"], meta["live"]) == ("autotos", "pddl", "AutoToS", True)
    assert meta["config"]["partial_soundness"] is False and meta["config"]["eval_limit"] == 2
    assert meta["source"] == {"domain_dir": str(FERRY_DIR.resolve())} and meta["target"] == str(FERRY_DIR.resolve())
    assert new_run("24game", parameters({"gen_seed": 3})).meta["source"] == {"generated": {"seed": 3, "evaluation": None}}
    assert new_run("24game", parameters({})).stem == "autotos-24game"
    target, params = reopen(meta)
    assert (target, params) == (str(FERRY_DIR.resolve()), parameters(meta["parameters"]))
    with pytest.raises(NotResumable):
        reopen({**meta, "imported_from": "x.txt"})


# ------------------------------------------------------------------------------------------- a run on a Run
def _start(server: ScriptedServer, runs: Path, **given: object) -> Run:
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    params = parameters({**get_approach("autotos").presets["AutoToS"], "preset": "AutoToS", **given})
    new = new_run(str(FERRY_DIR), params)
    store = create_named(runs, new.stem or "", {**new.meta, "model": settings.to_dict()})
    return Run(store, RunSetup(make_provider(settings, no_cache=True), model=settings.to_dict()),
               target=str(FERRY_DIR), parameters=params)


def _events(run_dir: Path) -> list:
    return list(read_log((run_dir / "events.jsonl").read_text().splitlines()))


def test_a_run_on_the_run_context_records_its_requests_answers_events_and_end(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    lines: list[str] = []
    started = _start(scripted_server, tmp_path / "runs", evaluate=True, eval_limit=2)
    started.setup.progress = lines.append
    outcome = execute(started, run)
    run_dir = started.path
    assert run_dir.name.startswith("autotos-pddl-ferry-")
    assert outcome.status == "finished" and outcome.value.calls == 3
    # the outcome record every approach writes: status, time, calls, and how the run evaluated itself
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary == dict(outcome.summary or {})
    assert summary["status"] == "finished" and summary["calls"] == 3 and summary["wall_seconds"] > 0
    assert summary["self_evaluation"] == {"solved": 2, "tasks": 2} and summary["success"] == 2
    assert sorted(p.name for p in (run_dir / "requests").iterdir()) == [
        "0001-autotos.succ.json", "0002-autotos.goal.json", "0003-autotos.succ.json"]
    assert sorted(p.name for p in (run_dir / "responses").iterdir()) == sorted(
        f"{stem}.{ext}" for stem in ("0001-autotos.succ", "0002-autotos.goal", "0003-autotos.succ")
        for ext in ("json", "md"))
    assert (run_dir / "responses" / "0003-autotos.succ.md").read_text() == FERRY
    events = _events(run_dir)
    assert isinstance(events[0], RunStarted) and events[0].approach == "autotos"
    assert isinstance(events[-1], RunFinished) and events[-1].status == "finished"
    assert [e.request_id for e in events if isinstance(e, RequestSent)] == [1, 2, 3]
    assert sum(isinstance(e, ResponseReceived) for e in events) == 3
    # every version names the request whose answer it came from (what a fork from an edit of it starts after)
    assert [(e.file, e.request_id) for e in events if isinstance(e, ArtifactCreated)] == [
        ("versions/succ-1.py", 1), ("versions/goal-1.py", 2), ("versions/succ-2.py", 3)]
    assert [e.category for e in events if isinstance(e, FeedbackRound)] == ["succ soundness"]
    assert [e.check for e in events if isinstance(e, ChecksPassed)] == ["goal", "goal", "soundness", "completeness"]
    info = json.loads((run_dir / "run.json").read_text())
    assert (info["status"], info["error"], info["approach"], info["preset"]) == ("finished", None, "autotos", "AutoToS")
    assert info["result"]["calls"] == 3 and info["result"]["evaluation"]["solved"] == 2
    assert info["totals"]["calls"] == 3 and info["model"]["model"] == scripted_server.model
    assert "call 3: asking for succ" in lines and any(line.startswith("run directory ") for line in lines)


def test_an_edited_successor_version_forks_the_run_and_only_what_follows_is_asked(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    source = _start(scripted_server, tmp_path / "runs", evaluate=False)
    execute(source, run)
    right = (source.path / "versions" / "succ-2.py").read_text()
    # the person edits the first (unsound) successor function into the right one: the fork starts there
    relative = "versions/succ-1.py"
    request_id = artifact_request_id(source.store, relative)
    assert request_id == 1
    answer = edited_answer(source.path, relative, "function", right)
    fork = fork_run(source.store, tmp_path / "runs", request_id, answer, {"edited_version": relative})
    scripted_server.clear()
    scripted_server.on_step("autotos.goal", [GOAL])
    store, meta = open_run(fork.path)
    target, params = reopen(store.meta())
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url)
    forked = Run(store, RunSetup(make_provider(settings, no_cache=True)), target=target, parameters=params)
    outcome = execute(forked, run)
    # the edit answered request 1 (nothing sent for it); the goal request after it was asked anew, with the edit
    assert scripted_server.steps() == ["autotos.goal"]
    assert scripted_server.requests[0].messages[2]["content"] == answer
    assert outcome.status == "finished" and outcome.value.calls == 2 and outcome.value.rounds == []
    assert (fork.path / "versions" / "succ-1.py").read_text().strip() == right.strip()
    info = json.loads((fork.path / "run.json").read_text())
    assert (info["forked_from"], info["forked_at"], info["edited_version"]) == (str(source.path), 1, relative)
    assert info["status"] == "finished" and info["result"]["resumed"] == 1
    with pytest.raises(GenplanError):
        edited_answer(source.path, "responses/0001-autotos.succ.md", "function", right)


def test_a_stop_ends_the_run_with_the_one_stop_exception(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    started = _start(scripted_server, tmp_path / "runs", evaluate=False)
    started.setup.stop_requested = lambda: len(scripted_server.requests) >= 2
    outcome = execute(started, run)
    assert outcome.status == "stopped" and outcome.value.halted and outcome.value.calls == 2
    assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]
    info = json.loads((started.path / "run.json").read_text())
    assert info["status"] == "stopped" and info["result"]["halted"] is True


def test_a_target_the_user_must_fix_is_said_before_a_run_directory_is_made(tmp_path: Path) -> None:
    from genplan.engine.autotos.domains import DataError

    for target, given, words in (
            ("24gmae", {}, "24gmae: neither an AutoToS domain"),
            ("crossword", {}, "genplan has no instance generator for crossword"),
            ("24game", {"data": str(tmp_path / "missing")}, "no such directory"),
            (str(FERRY_DIR), {"generate": 3}, "a domain directory brings its own tasks")):
        with pytest.raises(DataError, match=words):
            new_run(target, parameters(given))


# a successor function that needs more memory than the sandbox gives on states with more than four cars (the
# evaluation's larger tasks; the unit tests' have at most four): its MemoryError is the sandbox's limit
FERRY_OUT_OF_MEMORY = FERRY.replace(
    "    out = []\n", "    out = []\n    if len(cars) > 4:\n        bytearray(8 * 1024 ** 3)\n", 1)


def test_an_evaluation_search_out_of_the_sandboxs_memory_is_counted_and_named_so(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    from genplan.engine.autotos.session import outcome_text

    scripted_server.on_step("autotos.succ", [FERRY_OUT_OF_MEMORY])
    scripted_server.on_step("autotos.goal", [GOAL])
    outcome = execute(_start(scripted_server, tmp_path / "runs", evaluate=True, eval_limit=5), run)
    evaluation = outcome.value.evaluation
    assert outcome.status == "finished" and outcome.value.calls == 2  # the unit tests passed: no feedback round
    # eval tasks 000 and 001 (3 and 4 cars) solved; 002-004 (5-7 cars) out of memory, errors by their count
    assert (evaluation.solved, evaluation.failed, evaluation.errors, evaluation.out_of_memory) == (2, 3, 3, 3)
    assert set(evaluation.reasons.values()) == {
        "out of the sandbox's memory (succ raised MemoryError); --memory GIB gives it more"}
    assert outcome_text(outcome.value).endswith(
        "2/5 solved; 3 failed out of the sandbox's memory (--memory GIB gives it more)")
    recorded = json.loads((outcome.run_dir / "run.json").read_text())["result"]["evaluation"]
    assert recorded["out_of_memory"] == 3
