"""The strategy-refinement pipeline end to end against the scripted server (real client, real HTTP)."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import (
    BUGGY_PROGRAM,
    CORRECT_PROGRAM,
    CRASHING_PROGRAM,
    FERRY,
    LOOPING_PROGRAM,
    FerryModel,
)
from support.scripted_server import ScriptedServer

from genplan.engine.api import pipeline as pipeline_on
from genplan.engine.approaches.presets import load_preset
from genplan.engine.domainlib import DomainDir
from genplan.engine.llm import ModelSettings, make_provider
from genplan.engine.pipeline import Pipeline
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.runs.store import RunStore


def make_pipeline(server: ScriptedServer, root: Path, config: PipelineConfig, domain: Path = FERRY, **kw) -> Pipeline:
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    provider = make_provider(settings, no_cache=True)
    store = kw.pop("store", None) or RunStore.create(root, {"config": config.to_dict()})
    return pipeline_on(DomainDir.open(domain), config, provider, store, **kw)


def events(store: RunStore) -> list:
    return list(store.events())


def test_strategy_solved_at_once_and_first_program_correct(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel())
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"))
    result = pipeline.run()
    assert result.status == "finished"
    assert result.debug_solved == result.debug_total == 6
    assert result.strategy_versions == 1 and result.programs_generated == 1
    steps = scripted_server.steps()
    assert steps[0] == "nl.domain" and steps.count("nl.task") == 6
    # 6 validation plans + the final strategy check's 2 plans for the prompt tasks
    assert steps.count("strategy.plan") == 8 and "strategy.reflect" not in steps
    assert steps.count("code.generate") == 1 and "code.reflect" not in steps
    # every request carried its step header and is on disk with its response
    assert all(r.step for r in scripted_server.requests)
    store = pipeline.store
    assert len(list((store.path / "requests").glob("*.json"))) == len(steps)
    assert (store.path / "strategies" / "v01.md").read_text().startswith("1. for every car")
    assert "def generate_solution" in (store.path / "programs" / "c1-v00.py").read_text()
    summary = json.loads((store.path / "summary.json").read_text())
    assert summary["selected_program"].endswith("programs/c1-v00.py") and summary["llm_calls"] == len(steps)
    types = [e.type for e in events(store)]
    assert types[0] == "run.started" and types[-1] == "run.finished"
    assert [e.seq for e in events(store)] == list(range(1, len(types) + 1))


def test_strategy_bug_found_reflected_and_fixed(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(strategy_plan_mistakes=1))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"))
    result = pipeline.run()
    steps = scripted_server.steps()
    assert steps.count("strategy.reflect") == 1 and steps.count("strategy.revise") == 1
    assert result.strategy_versions == 2
    reflect = scripted_server.requests_for("strategy.reflect")[0].messages
    # the reflection continues the planning conversation and carries the validator's feedback
    assert reflect[-2]["role"] == "assistant" and "not executable" in reflect[-1]["content"]
    v1 = json.loads((pipeline.store.path / "results" / "strategy-v01.json").read_text())
    v2 = json.loads((pipeline.store.path / "results" / "strategy-v02.json").read_text())
    assert sum(c["solved"] for c in v1) == 5 and sum(c["solved"] for c in v2) == 6
    assert any(e.type == "selection.made" and e.data["version"] == "v02" for e in events(pipeline.store))


def test_code_exception_reflected_and_fixed(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(programs=[CRASHING_PROGRAM, CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"))
    result = pipeline.run()
    steps = scripted_server.steps()
    assert steps.count("code.reflect") == 1 and steps.count("code.revise") == 1
    reflect_prompt = scripted_server.requests_for("code.reflect")[0].messages[-1]["content"]
    assert "KeyError" in reflect_prompt or "IndexError" in reflect_prompt
    assert "<file-name-omitted>" in reflect_prompt
    assert result.debug_solved == 6 and result.selected_program.name == "c1-v01.py"


def test_timeout_feedback_then_all_candidates_fail_and_best_is_selected(
    scripted_server: ScriptedServer, tmp_path: Path
) -> None:
    config = load_preset("F5-3").with_changes(initial_programs=2, code_rounds=1, program_timeout_s=0.5)
    scripted_server.respond_with(FerryModel(programs=[LOOPING_PROGRAM, BUGGY_PROGRAM, BUGGY_PROGRAM, LOOPING_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, config)
    result = pipeline.run()
    steps = scripted_server.steps()
    assert steps.count("code.generate") == 2 and steps.count("code.revise") == 2
    first_reflect = scripted_server.requests_for("code.reflect")[0].messages[-1]["content"]
    assert "time limit" in first_reflect
    # c1-v01 (buggy, some tasks solved) beats the looping programs; ties go to the later version
    solved = {p.label: p.solved for p in pipeline.programs}
    best = max(solved.values())
    assert best < 6
    assert result.selected_program.name == f"{[k for k, v in solved.items() if v == best][-1]}.py"


def test_no_reflection_ablation_revises_directly(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("F3-6-CR"))
    result = pipeline.run()
    steps = scripted_server.steps()
    assert "code.reflect" not in steps and steps.count("code.revise") == 1
    assert result.debug_solved == 6


def test_killed_run_resumes_without_repeating_requests(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    model = FerryModel(strategy_plan_mistakes=1)
    scripted_server.respond_with(model)
    first = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"))
    first.run()
    done = len(scripted_server.requests)
    # simulate a crash after request 12: drop every later response and the end of the event log
    store = first.store
    kept = 0
    for f in (store.path / "responses").glob("*.json"):
        if int(f.name[:4]) > 12:
            f.unlink()
        else:
            kept += 1
    assert 0 < kept < done
    lines = (store.path / "events.jsonl").read_text().splitlines()
    cut = next(i for i, line in enumerate(lines) if '"request_id": 13' in line)
    (store.path / "events.jsonl").write_text("\n".join(lines[:cut]) + "\n")
    scripted_server.clear()
    model.seen.clear()  # every request still to answer comes after the descriptions: counts restart cleanly
    resumed = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"), store=RunStore.open(store.path))
    result = resumed.run()
    asked_again = len(scripted_server.requests)
    assert asked_again == done - kept
    assert result.debug_solved == 6
    logged = list(store.events())
    assert [e.seq for e in logged] == list(range(1, len(logged) + 1))
    assert sum(e.type == "run.started" for e in logged) == 1


def test_rate_limits_and_server_errors_are_retried(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    from support.scripted_server import Reply

    scripted_server.respond_with(FerryModel())
    scripted_server.on_step(
        "nl.domain", [Reply.rate_limited(retry_after=0.01), Reply.server_error(502), "SYNTHETIC: ferry domain."]
    )
    result = make_pipeline(scripted_server, tmp_path, load_preset("F5-3")).run()
    assert result.status == "finished" and result.debug_solved == 6
    assert scripted_server.steps()[:3] == ["nl.domain"] * 3


def test_second_identical_run_is_served_from_the_cache(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel())
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url)
    results = []
    for attempt in range(2):
        provider = make_provider(settings, cache_dir=tmp_path / "cache")
        store = RunStore.create(tmp_path / "runs", {"attempt": attempt})
        results.append(pipeline_on(DomainDir.open(FERRY), load_preset("F5-3"), provider, store).run())
    first, second = results
    # the final strategy check asks exactly what validation asked for the 2 prompt tasks: served from the cache
    assert first.totals["calls"] == len(scripted_server.requests) and first.totals["cache_hits"] == 2
    assert second.totals["calls"] == 0 and second.totals["cache_hits"] == first.totals["calls"] + 2
    assert second.debug_solved == 6


def test_recorded_event_order_is_deterministic_under_concurrency(tmp_path: Path) -> None:
    orders = []
    for attempt in range(2):
        with ScriptedServer() as server:
            # answers come back in a different order each time: later tasks answer faster in attempt 1
            model = FerryModel()
            server.respond_with(model)
            config = load_preset("F5-3").with_changes(max_concurrency=6)
            pipeline = make_pipeline(server, tmp_path / str(attempt), config)
            pipeline.run()
            orders.append([(e.type, e.data.get("request_id"), e.data.get("task")) for e in pipeline.store.events()])
    assert orders[0] == orders[1]
