"""``RunStatus`` and the typed ``run.json``: run directories stay the same bytes, old ones still open.

The old run is tests/data/runs/legacy-bas (written by genplan's code before ``engine/runs/`` existed); it is
opened on a copy, and every one of its files must be byte for byte what it was after opening, listing and
reading its overview.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from genplan.engine import runs
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.runs import RunMeta, RunStatus, layout
from genplan.engine.runs.store import RunStore
from genplan.engine.versions import domain_overview, run_overview

LEGACY = Path(__file__).parent / "data" / "runs" / "legacy-bas"


def snapshot(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*")) if p.is_file()}


def test_a_status_is_written_as_its_text() -> None:
    assert json.dumps({"status": RunStatus.FINISHED}) == '{"status": "finished"}'
    assert RunStatus.INTERRUPTED == "interrupted" and f"{RunStatus.STOPPED}" == "stopped"
    assert [s.value for s in RunStatus] == ["running", "finished", "stopped", "failed", "interrupted", ""]
    assert RunStatus.parse("failed") is RunStatus.FAILED
    assert RunStatus.parse("half-done") is RunStatus.UNKNOWN and not RunStatus.UNKNOWN
    assert RunStatus.parse(None) is RunStatus.UNKNOWN
    assert RunStatus.STOPPED.ended and not RunStatus.RUNNING.ended and not RunStatus.INTERRUPTED.ended


def test_run_meta_reads_any_run_json() -> None:
    meta = RunMeta.from_dict({"status": "stopped", "run_id": "r", "batch": {"label": "x"}})
    assert meta.status is RunStatus.STOPPED and meta.extra == {"batch": {"label": "x"}}
    assert RunMeta.from_dict({"status": 3}, run_id="d").status is RunStatus.UNKNOWN
    assert RunMeta.from_dict([], run_id="d") == RunMeta(run_id="d", status=RunStatus.UNKNOWN)


def test_an_old_run_opens_unchanged(tmp_path: Path) -> None:
    runs_dir = tmp_path / "runs"
    run_dir = runs_dir / LEGACY.name
    shutil.copytree(LEGACY, run_dir)
    before = snapshot(run_dir)
    assert layout.is_run_dir(run_dir) and layout.run_dirs_in(runs_dir) == [run_dir]

    store, meta = runs.open_run(run_dir)
    assert meta.status is RunStatus.FINISHED and PipelineConfig.of_run(meta).approach == "bas"
    assert store.meta()["status"] == RunStatus.FINISHED
    assert [(info.run_id, info.status) for info in RunStore.list_runs_in(runs_dir)] == [(LEGACY.name, "finished")]
    overview = run_overview(run_dir)
    assert overview.status == "finished" and [o.run_id for o in domain_overview(runs_dir)] == [LEGACY.name]
    assert len(list(store.events())) > 0
    assert snapshot(run_dir) == before


def test_a_new_run_json_has_the_same_shape(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path, {"config": {"preset": "Stein"}}, run_id="r1")
    text = layout.meta_file(store.path).read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["status"] == "running" and '"status": "running"' in text
    assert layout.events_file(store.path).read_bytes() == b""
    store.update_meta(status=RunStatus.FINISHED)
    assert '"status": "finished"' in layout.meta_file(store.path).read_text(encoding="utf-8")
    assert runs.read_meta(store.path).status is RunStatus.FINISHED


def test_the_outcome_is_written_one_way(tmp_path: Path) -> None:
    from genplan.engine.runs.outcome import has_trial, read_outcome, read_trial, write_outcome

    run = RunStore.create(tmp_path, {}, run_id="r1").path
    assert read_outcome(run) is None and read_trial(run) is None and not has_trial(run)
    outcome = {"status": RunStatus.FINISHED, "b": 1, "a": [1, 2]}
    write_outcome(run, outcome)
    # the bytes every writer produced before (the store's JSON: sorted keys, two spaces, a final newline)
    assert layout.summary_file(run).read_text(encoding="utf-8") == json.dumps(
        {"a": [1, 2], "b": 1, "status": "finished"}, indent=2, sort_keys=True) + "\n"
    assert read_outcome(run) == {"a": [1, 2], "b": 1, "status": "finished"} and not has_trial(run)
    write_outcome(run, {"outcome": "success"}, trial=True)
    assert read_trial(run) == read_outcome(run) == {"outcome": "success"} and has_trial(run)
    assert sorted(p.name for p in run.iterdir()) == ["events.jsonl", "run.json", "summary.json", "trial.json"]
    layout.summary_file(run).write_text("[1]", encoding="utf-8")
    assert read_outcome(run) is None  # not an object: no outcome


def test_an_old_runs_outcome_reads(tmp_path: Path) -> None:
    from genplan.engine.runs.outcome import read_outcome

    summary = read_outcome(LEGACY)
    assert summary is not None and summary["status"] == "finished"
    assert summary == json.loads((LEGACY / "summary.json").read_text(encoding="utf-8"))


def test_listing_reads_run_json_through_run_meta(tmp_path: Path) -> None:
    """An AutoToS run of before (its model a string, its preset at the top, no config) lists as it did."""
    old = tmp_path / "autotos-blocks-1"
    old.mkdir()
    (old / "run.json").write_text(json.dumps({"status": "finished", "model": "gpt-x", "preset": "AutoToS",
                                              "approach": "autotos", "created": "2026-01-01T00:00:00"}))
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "run.json").write_text(json.dumps({"status": "half-done", "approach": "autotos"}))
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "run.json").write_text("{}")
    infos = {info.run_id: info for info in RunStore.list_runs_in(tmp_path)}
    assert sorted(infos) == ["autotos-blocks-1", "bare", "odd"]
    first = infos["autotos-blocks-1"]
    assert (first.status, first.preset, first.model, first.created) == ("finished", "AutoToS", "gpt-x",
                                                                       "2026-01-01T00:00:00")
    assert (infos["odd"].status, infos["odd"].preset) == ("half-done", "autotos")
    assert (infos["bare"].status, infos["bare"].preset, infos["bare"].model) == ("?", "?", None)
    assert runs.read_meta(old).model == {"model": "gpt-x"} and runs.read_meta(old).model_name == "gpt-x"
