"""The run service (engine/runs.py): typed RunMeta, and a run directory written before the change
(tests/data/runs/legacy-bas, made by main's code at a97888e) still opens and replays; since Bas follows the paper's
steps it is refused, in one line, when asked to continue."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from support.ferry_model import FERRY
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.engine import api, runs
from genplan.engine.approaches.presets import load_preset
from genplan.engine.llm import ModelSettings
from genplan.engine.pipeline.config import BEFORE_REPRODUCTION_SETTINGS, PipelineConfig, made_before_reproduction

LEGACY = Path(__file__).parent / "data" / "runs" / "legacy-bas"


def legacy_copy(root: Path, domain: Path) -> Path:
    """The legacy run under ``root``, naming ``domain`` as its domain (as when it was made)."""
    target = root / LEGACY.name
    shutil.copytree(LEGACY, target)
    meta_file = target / "run.json"
    meta = json.loads(meta_file.read_text())
    meta["domain_dir"] = str(domain)
    meta_file.write_text(json.dumps(meta, indent=2))
    return target


def test_a_legacy_run_opens_with_typed_meta(tmp_path: Path) -> None:
    run_dir = legacy_copy(tmp_path, FERRY)
    store, meta = runs.open_run(run_dir)
    assert store.path == run_dir
    assert (meta.run_id, meta.status, meta.domain_dir) == ("legacy-bas", "finished", str(FERRY))
    # made with genplan's earlier Bas: 4 fix rounds, and the behaviour from before the reproduction settings
    assert made_before_reproduction(meta.config)
    assert PipelineConfig.of_run(meta) == replace(load_preset("Bas"), code_rounds=4, **BEFORE_REPRODUCTION_SETTINGS)
    assert meta.model["model"] and "api_key" not in meta.model and not meta.is_fork
    assert runs.read_meta(run_dir) == meta
    with pytest.raises(FileNotFoundError):
        runs.open_run(tmp_path / "nothing-here")


def test_meta_keeps_unknown_keys_and_fills_defaults() -> None:
    meta = runs.RunMeta.from_dict({"batch": {"preset": "Sil"}, "forked_from": "/x", "forked_at": 3}, run_id="r1")
    assert (meta.run_id, meta.status, meta.extra, meta.is_fork, meta.forked_at) == ("r1", "",
                                                                                      {"batch": {"preset": "Sil"}}, True, 3)
    assert PipelineConfig.of_run(meta) == PipelineConfig()


def test_start_run_writes_what_open_reads(tmp_path: Path) -> None:
    config = load_preset("F3-6-MC")
    request = api.StartRequest(config.preset, str(FERRY), tmp_path, config=config, source="test", extra_meta={"note": 1})
    store, approach, parameters = api.new_run(request, ModelSettings(model="m"))
    _, meta = runs.open_run(store.path)
    assert (approach.name, parameters) == ("stein", config)
    assert (meta.status, meta.source, meta.extra["note"], meta.model_name) == ("running", "test", 1, "m")
    assert PipelineConfig.of_run(meta) == config and meta.domain_dir == str(FERRY.resolve())
    with pytest.raises(ValueError, match="a complete config, or parameters over the preset's, not both"):
        api.StartRequest(config.preset, str(FERRY), tmp_path, config=config, parameters={"code_rounds": 2})


def test_a_legacy_bas_run_cannot_be_continued_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Bas now asks the paper's steps (docs/reproduction.md); the legacy run's answers belong to the old ones."""
    from genplan.cli.main import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    run_dir = legacy_copy(tmp_path, FERRY)
    before = sorted(p.relative_to(run_dir) for p in run_dir.rglob("*"))
    with ScriptedServer() as server:  # no replies: any request would fail the run
        code = main(["run", "--resume", str(run_dir), "--base-url", server.base_url, "--json", "--quiet", "--no-cache"])
        assert server.requests == []
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "cannot be continued" in err[0] and "start a new run" in err[0]
    assert sorted(p.relative_to(run_dir) for p in run_dir.rglob("*")) == before
    assert runs.read_meta(run_dir).status == "finished"
    with pytest.raises(api.NotResumable):
        api.fork(run_dir, "programs/c1-v00.py", "program", "def generate_solution(o, i, g):\n    return []\n")


def test_stored_configs_keep_the_behaviour_they_were_made_with() -> None:
    old = {"approach": "stein", "preset": "F5-3", "code_rounds": 3}
    assert PipelineConfig.from_stored(old) == replace(PipelineConfig(code_rounds=3), **BEFORE_REPRODUCTION_SETTINGS)
    # a run that names any of the newer settings was made with today's defaults for the others
    assert PipelineConfig.from_stored({**old, "debug_orderings": 2}) == PipelineConfig(code_rounds=3, debug_orderings=2)
    assert PipelineConfig.from_stored({}) == PipelineConfig()
    assert not made_before_reproduction(runs.RunMeta.from_dict({"config": load_preset("F5-3").to_dict()}).config)


async def test_a_legacy_run_replays_in_the_tui(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    runs_dir = domain / ".genplan" / "runs"
    runs_dir.mkdir(parents=True)
    run_dir = legacy_copy(runs_dir, domain)
    app = make_app(domain, config_for(isolated, None), replay=run_dir.name, speed=1000.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None and app.replay.replayer.finished, timeout=60,
                       what="the end of the replay")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "done", what="the last events")
        steps = [e.step for e in state.entries if e.kind == "request"]
        assert steps == ["baseline.summary", "baseline.strategy", "baseline.code", "baseline.fix"]
        assert ("program", "c1-v01") in state.results
