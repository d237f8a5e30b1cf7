"""Issue 58: a unit-test search whose states fill the sandbox's memory is feedback to the model and the run goes
on; only genplan's own failure ends a run. The successor function that explodes is a fixture written for these
tests (never a model's answer): every successor carries a fact no state had before, so the search never ends and
holds more states at every step. The model is the real ``openai`` client against a scripted server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry
from test_autotos_pddl import FERRY, GOAL

from genplan.engine.approaches import get_approach
from genplan.engine.approaches.autotos import new_run, parameters, run
from genplan.engine.autotos import harness
from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.events import FeedbackRound, read_log
from genplan.engine.llm import ModelSettings, make_provider
from genplan.engine.prompts import render_autotos
from genplan.engine.runs import create_named
from genplan.engine.runs.run import Run, RunSetup, execute

FERRY_DIR = small_ferry()
QUARTER_GIB = 0.25  # the sandbox's memory in these tests: the fixture's search fills it in seconds

# Test fixture: 40 successors per state, each with one more made-up fact, none of them ever seen before.
EXPLODES = '''```python
def succ(state, objects):
    size = len(state)
    return [(f"(wander n{i})", frozenset(state | {("trace", f"n{size}", f"n{i}")})) for i in range(40)]
```'''


def _start(server: ScriptedServer, runs: Path, **given: object) -> Run:
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    params = parameters({**get_approach("autotos").presets["AutoToS"], "preset": "AutoToS", "evaluate": False,
                         "memory_gib": QUARTER_GIB, **given})
    new = new_run(str(FERRY_DIR), params)
    store = create_named(runs, new.stem or "", {**new.meta, "model": settings.to_dict()})
    return Run(store, RunSetup(make_provider(settings, no_cache=True), model=settings.to_dict()),
               target=str(FERRY_DIR), parameters=params)


def _rounds(run_dir: Path) -> list[FeedbackRound]:
    events = read_log((run_dir / "events.jsonl").read_text().splitlines())
    return [e for e in events if isinstance(e, FeedbackRound)]


def _explode_then_fix(server: ScriptedServer, runs: Path, **given: object) -> tuple[Run, FeedbackRound, str]:
    """The fixture's function first, a sound one after the feedback: the run's one round and the feedback the
    model was sent."""
    server.on_step("autotos.succ", [EXPLODES, FERRY])
    server.on_step("autotos.goal", [GOAL])
    started = _start(server, runs, **given)
    outcome = execute(started, run)
    assert outcome.status == "finished", outcome
    assert outcome.value.calls == 3 and outcome.value.stopped is None  # succ, goal, succ again: the run went on
    (round_,) = _rounds(started.path)
    sent = server.requests[2].messages[-1]["content"]
    return started, round_, sent


def test_an_exploding_search_is_genplans_feedback_under_genplans_rules_and_the_run_goes_on(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    started, round_, sent = _explode_then_fix(scripted_server, tmp_path / "runs")
    assert (round_.check, round_.category, round_.target) == ("search-memory", "search timeout", "succ")
    assert round_.failure["memory_bytes"] == int(QUARTER_GIB * 2**30) and round_.failure["states"] > 1000
    # genplan's own words: what stopped the search, in how much memory and with how many states
    assert "filled the memory it may use (0.25 GiB)" in sent and f"{round_.failure['states']:,} states" in sent
    assert round_.feedback in sent
    run_json = json.loads((started.path / "run.json").read_text())
    assert run_json["status"] == "finished" and run_json.get("error") is None


def test_an_exploding_search_is_the_releases_search_timeout_under_the_releases_rules(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    _started, round_, sent = _explode_then_fix(scripted_server, tmp_path / "runs", memory_as_timeout=True)
    # as the release's run of such a function ended: its search had no memory limit and ran into its time limit
    assert (round_.check, round_.category) == ("search-timeout", "search timeout")
    assert round_.failure["stopped_by"] == "memory"
    assert round_.feedback == render_autotos("feedback_search_timeout")
    assert round_.feedback in sent and "memory" not in sent.split("\n\n")[-1]


def test_the_release_rules_include_the_timeout_for_a_search_out_of_memory() -> None:
    from genplan.cli.autotos_options import rule_parameters
    from genplan.engine.autotos.logfile import AutoToSLog
    from genplan.engine.autotos.session import log_settings

    assert rule_parameters(True)["memory_as_timeout"] is True and rule_parameters(False)["memory_as_timeout"] is False
    assert log_settings(AutoToSLog("x.txt", "crossword", None, False)).memory_as_timeout is True
    assert parameters({}).settings().memory_as_timeout is False  # a live run's default: genplan's feedback


def _request(succ: str, **fields: object) -> dict:
    source = succ.split("```python\n", 1)[1].rsplit("```", 1)[0]
    init = sorted([["location", "l0"], ["location", "l1"], ["car", "c0"], ["at-ferry", "l0"], ["empty-ferry"]])
    return {"op": "soundness", "domain": "pddl", "call_timeout": 1.0, "clock": "cpu",
            "succ": {"source": source, "name": "succ"},
            "goal": {"source": "def is_goal(state, goal):\n    return False\n", "name": "is_goal"},
            "instances": [{"init": init, "extra": [[]], "goal_extra": [[["at", "c0", "l1"]]]}],
            "pst": False, "search_timeout": 600.0, "depth_first": False, **fields}


def test_the_sandboxed_search_stops_itself_at_its_watermark_and_says_how_far_it_came() -> None:
    executor = SandboxExecutor(memory_bytes=int(QUARTER_GIB * 2**30))
    try:
        answer = executor.run(_request(EXPLODES), 600.0)
        evaluated = executor.run({**_request(EXPLODES), "op": "evaluate"}, 600.0)
    finally:
        executor.close()
    assert answer["failure"] == "search-memory" and answer["instance"] == 0
    # stopped by its own watermark (a quarter GiB less the headroom of 128 MiB), not by a MemoryError at the limit
    watermark = 2**28 - 2**27
    assert watermark < answer["resident"] < 2**28 and answer["states"] > 1000 and answer["expanded"] > 0
    # in the evaluation the same search is one instance out of memory, counted as such by the loop
    (result,) = evaluated["results"]
    assert result["error"] == "out-of-memory" and result["states"] > 1000


def test_a_search_with_no_room_to_grow_is_genplans_limit_and_ends_the_run() -> None:
    # 64 MiB, the least the sandbox allows: the watermark lies below what Python itself takes
    executor = SandboxExecutor(memory_bytes=2**26)
    try:
        answer = executor.run(_request(EXPLODES), 600.0)
    finally:
        executor.close()
    assert answer["failure"] == "out-of-memory" and answer["memory_bytes"] == 2**26


def test_without_an_address_space_limit_the_search_has_no_watermark() -> None:
    # in-process (the benchmark's reference, tests of the harness): nothing to measure the search against
    if harness.address_space_limit() is not None:
        pytest.skip("this process runs under an address-space limit")
    search = harness.Search(harness.Functions({"domain": "24game", "succ": None, "goal": None}), [], [], False,
                            False, float("inf"), False)
    assert search.watermark is None and search.filled_by_states() is False


ENDLESS_LOG = (Path(__file__).resolve().parents[2] / "shared" / "autotos" / "clean_logs" / "blocks"
               / "llama3.1-70b-noval_logs" / "script_log_20240809_005653.txt")


@pytest.mark.skipif(not ENDLESS_LOG.is_file(), reason="needs ../shared/autotos (the AutoToS release's logs)")
def test_a_published_search_that_fills_the_memory_replays_as_the_releases_timeout(tmp_path: Path, capsys) -> None:
    """The log's 8th answer makes a search that never ends: the release stopped it at its 600 s ("Timeout occurred
    during search with the successor function.") and asked once more. In a quarter GiB, with the release's 600 s
    per search, the import's search fills the memory long before: the release's search timeout all the same, and
    the replay makes the log's 9 calls (before issue 58 the run failed, out of memory)."""
    from genplan.cli.main import main
    from genplan.engine.autotos.logfile import parse_log

    code = main(["import", "autotos", str(ENDLESS_LOG), "--no-eval", "--memory", str(QUARTER_GIB), "--json",
                 "--quiet", "--runs", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err[-2000:]
    result = json.loads(captured.out)
    assert result["calls"] == parse_log(ENDLESS_LOG).calls == 9
    (timeout,) = [r for r in _rounds(Path(result["run_dir"])) if r.category == "search timeout"]
    assert timeout.check == "search-timeout" and timeout.failure["stopped_by"] == "memory"
    record = json.loads((Path(result["run_dir"]) / "import.json").read_text())
    assert record["divergences"] == [] and record["wanted_more"] is False
