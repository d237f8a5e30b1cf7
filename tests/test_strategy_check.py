"""The strategy check (the TUI's rerun of a strategy version, ``api.check_strategy``) end to end against the
scripted server: a new run beside the source that reuses its NL descriptions from disk, sends one plan request per
debug task with the checked text as the strategy, validates the plans, and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import FERRY, FerryModel
from support.scripted_server import ScriptedServer
from test_pipeline_stein import make_pipeline

from genplan.engine import api
from genplan.engine.approaches.presets import load_preset
from genplan.engine.llm import ModelSettings
from genplan.engine.runs.store import RunStore

EDITED = "1. For each car not yet where it should be, sail to it, board it.\n2. Sail to its goal and debark it.\n"


def _source_run(server: ScriptedServer, root: Path) -> Path:
    server.respond_with(FerryModel())
    result = make_pipeline(server, root, load_preset("F5-3")).run()
    assert result.status == "finished"
    [run_dir] = [p for p in root.iterdir() if p.is_dir()]
    server.clear()
    return run_dir


def _check(server: ScriptedServer, source: Path) -> api.RunReport:
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    return api.check_strategy(source, "strategies/v01.md", EDITED, FERRY, settings, no_cache=True)


def test_a_strategy_check_plans_every_debug_task_by_the_text_and_does_nothing_else(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    source = _source_run(scripted_server, tmp_path)
    scripted_server.respond_with(FerryModel())
    report = _check(scripted_server, source)

    assert report.run_dir.parent == source.parent and report.run_dir != source
    assert report.status == "finished" and report.to_json()["debug_solved"] == report.to_json()["debug_total"] == 6
    # the NL descriptions come from the source's records: only the six plans are asked, each by the checked text
    assert scripted_server.steps() == ["strategy.plan"] * 6
    assert all(EDITED.strip().splitlines()[0] in json.dumps(r.messages) for r in scripted_server.requests)
    meta = json.loads((report.run_dir / "run.json").read_text())
    assert (meta["purpose"], meta["checks_strategy_of"], meta["checked_strategy"]) == (
        "strategy-check", source.name, "strategies/v01.md")
    assert (report.run_dir / "strategies" / "v01.md").read_text() == EDITED
    assert sorted(p.name for p in (report.run_dir / "nl").iterdir()) == sorted(p.name for p in (source / "nl").iterdir())
    assert not (report.run_dir / "programs").exists() and not (report.run_dir / "reflections").exists()
    types = [event.type for event in RunStore.open(report.run_dir).events()]
    assert types[0] == "run.started" and types[-1] == "run.finished"
    assert (source / "strategies" / "v01.md").read_text() != EDITED  # the source run is untouched


def test_a_failing_plan_is_counted_and_no_reflection_follows(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    source = _source_run(scripted_server, tmp_path)
    scripted_server.respond_with(FerryModel(strategy_plan_mistakes=1))  # the first task's plan is broken
    report = _check(scripted_server, source)
    assert report.status == "finished" and (report.to_json()["debug_solved"], report.to_json()["debug_total"]) == (5, 6)
    assert scripted_server.steps() == ["strategy.plan"] * 6  # no reflection, no revision, no code
    summary = json.loads((report.run_dir / "summary.json").read_text())
    assert summary["strategy_solved"] == 5 and summary["selected_program"] is None
