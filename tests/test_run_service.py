"""The run service (engine/runs.py): typed RunMeta, and a run directory written before the change
(tests/data/runs/legacy-bas, made by main's code at a97888e) still opens, resumes and replays."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.ferry_model import FERRY
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.engine import runs
from genplan.engine.domainlib import DomainDir
from genplan.engine.pipeline import load_preset

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
    assert meta.pipeline_config() == load_preset("Bas")
    assert meta.model["model"] and "api_key" not in meta.model and not meta.is_fork
    assert runs.read_meta(run_dir) == meta
    with pytest.raises(FileNotFoundError):
        runs.open_run(tmp_path / "nothing-here")


def test_meta_keeps_unknown_keys_and_fills_defaults() -> None:
    meta = runs.RunMeta.from_dict({"batch": {"preset": "Sil"}, "forked_from": "/x", "forked_at": 3}, run_id="r1")
    assert (meta.run_id, meta.status, meta.extra, meta.is_fork, meta.forked_at) == ("r1", "",
                                                                                      {"batch": {"preset": "Sil"}}, True, 3)
    assert meta.pipeline_config() == runs.PipelineConfig()


def test_start_run_writes_what_open_reads(tmp_path: Path) -> None:
    config = load_preset("F3-6-MC")
    store = runs.start_run(tmp_path, DomainDir.open(FERRY), config, {"model": "m"}, source="test", extra={"note": 1})
    _, meta = runs.open_run(store.path)
    assert (meta.status, meta.source, meta.extra["note"], meta.model) == ("running", "test", 1, {"model": "m"})
    assert meta.pipeline_config() == config and meta.domain_dir == str(FERRY.resolve())


def test_a_legacy_run_resumes_without_asking_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from genplan.cli.main import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    run_dir = legacy_copy(tmp_path, FERRY)
    with ScriptedServer() as server:  # no replies: any request would fail the run
        code = main(["run", "--resume", str(run_dir), "--base-url", server.base_url, "--json", "--quiet",
                     "--no-cache"])
        summary = json.loads(capsys.readouterr().out)
        assert server.requests == []
    assert code == 0 and summary["status"] == "finished"
    assert summary["resumed_responses"] == 4 and summary["llm_calls"] == 0
    assert summary["debug_solved"] == summary["debug_total"] == 6
    assert runs.read_meta(run_dir).status == "finished"


async def test_a_legacy_run_replays_in_the_tui(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    runs_dir = domain / ".genplan" / "runs"
    runs_dir.mkdir(parents=True)
    run_dir = legacy_copy(runs_dir, domain)
    app = make_app(domain, config_for(isolated, None), replay=run_dir.name, speed=1000.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replayer is not None and app.replayer.finished, timeout=60,
                       what="the end of the replay")
        state = app.run_state
        await wait_for(pilot, lambda: not app.events and state.status == "done", what="the last events")
        steps = [e.step for e in state.entries if e.kind == "request"]
        assert steps == ["baseline.summary", "baseline.strategy", "baseline.code", "baseline.fix"]
        assert ("program", "c1-v01") in state.results
