"""``RunStatus`` and the typed ``run.json``: run directories stay the same bytes, old ones still open.

The old run is tests/data/runs/legacy-bas (written by genplan's code before ``engine/runs/`` existed); it is
opened on a copy, and every one of its files must be byte for byte what it was after opening, listing and
reading its overview.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

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


def test_an_old_runs_outcome_reads_typed_and_stays_the_same_bytes(tmp_path: Path) -> None:
    from genplan.engine.runs.outcome import RunSummary, read_summary, write_outcome

    run_dir = tmp_path / LEGACY.name
    shutil.copytree(LEGACY, run_dir)
    before = snapshot(run_dir)
    summary = read_summary(run_dir)
    assert summary is not None and summary.status is RunStatus.FINISHED
    assert (summary.debug_solved, summary.debug_total, summary.wall_seconds) == (6, 6, 2.109)
    assert summary.selected_program is not None and summary.selected_program.name == "c1-v01.py"
    assert summary.outcome is None and summary.trial_outcome is None
    assert snapshot(run_dir) == before
    # written back from what was read: the same bytes
    write_outcome(run_dir, summary.data)
    assert snapshot(run_dir) == before
    # a value of the wrong type counts as missing; a trial's outcome reads in a few words
    odd = RunSummary.from_dict({"status": 3, "debug_solved": "6", "debug_total": True, "wall_seconds": "x",
                                "outcome": "failure", "reason": "solver"})
    assert (odd.status, odd.debug_solved, odd.debug_total, odd.wall_seconds) == (RunStatus.UNKNOWN, None, None, None)
    assert odd.trial_outcome == "failure (solver)" and odd.data["debug_solved"] == "6"


def test_the_run_overview_reads_run_json_through_run_meta(tmp_path: Path) -> None:
    """engine.runs.overview is the one view of a run at a glance; engine.versions adds the results to it."""
    from genplan.engine.runs.overview import RunOverview, read_overview
    from genplan.engine.versions import VersionsOverview

    run_dir = tmp_path / LEGACY.name
    shutil.copytree(LEGACY, run_dir)
    overview = read_overview(run_dir)
    assert isinstance(overview, RunOverview) and overview.meta == runs.read_meta(run_dir)
    assert (overview.status, overview.selected_program, overview.debug_solved, overview.debug_total) == (
        "finished", "c1-v01", 6, 6)
    assert overview.preset == overview.meta.preset and overview.summary is not None
    full = run_overview(run_dir)
    assert isinstance(full, VersionsOverview) and full.results and full.tasks
    assert all(getattr(full, name) == getattr(overview, name) for name in ("run_id", "status", "preset", "created",
                                                                           "meta", "selected_program", "outcome"))
    # an AutoToS run of before: its preset at the top of run.json, its evaluation in run.json's result
    old = tmp_path / "autotos-blocks-1"
    old.mkdir()
    (old / "run.json").write_text(json.dumps({"status": "finished", "model": "gpt-x", "preset": "AutoToS",
                                              "approach": "autotos", "result": {"evaluation": {"solved": 3,
                                                                                              "failed": 1}}}))
    own = read_overview(old)
    assert (own.status, own.preset, own.outcome, own.summary) == ("finished", "AutoToS", "3/4 solved", None)
    # a PDDLego+ trial: its outcome from the trial record
    from genplan.engine.runs.outcome import write_outcome

    write_outcome(old, {"outcome": "failure", "reason": "solver"}, trial=True)
    assert read_overview(old).outcome == "failure (solver)"
    missing = read_overview(tmp_path / "nothing")
    assert (missing.status, missing.preset, missing.meta.status) == ("?", "?", RunStatus.UNKNOWN)


def test_answers_are_read_by_request(tmp_path: Path) -> None:
    """engine.runs.answers reads the gateway's request and answer records (the old run's, on a copy)."""
    from genplan.engine.runs import answers

    run_dir = tmp_path / LEGACY.name
    shutil.copytree(LEGACY, run_dir)
    before = snapshot(run_dir)
    recorded = answers.answers(run_dir)
    assert [(a.request_id, a.step) for a in recorded] == [(1, "baseline.summary"), (3, "baseline.strategy"),
                                                          (5, "baseline.code"), (7, "baseline.fix")]
    first = (run_dir / "responses" / "0001-baseline.summary.md").read_text(encoding="utf-8")
    assert recorded[0].text == first and not recorded[0].human
    assert sum(a.tokens for a in recorded) == 2127 + 172  # what the summary counted
    assert answers.recorded_answer(run_dir, 1) == first
    assert answers.recorded_answer(run_dir, "responses/0001-baseline.summary.md") == first
    assert answers.recorded_answer(run_dir, "responses/0001-baseline.summary.json") == first
    assert answers.recorded_answer(run_dir, 2) == answers.recorded_answer(run_dir, None) == ""
    step, request = answers.request_record(run_dir, 3)
    assert step == "baseline.strategy" and request["id"] == 3 and request["messages"]
    record = answers.response_record(run_dir, 3, step)
    assert record is not None and record["original_hash"] == request["hash"]
    assert answers.response_record(run_dir, 4, step) is None
    with pytest.raises(FileNotFoundError):
        answers.request_record(run_dir, 9)
    target = tmp_path / "copy"
    assert answers.copy_records(run_dir, target, lambda r: r.request_id < 5) == 2 + 4
    assert sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file()) == [
        "requests/0001-baseline.summary.json", "requests/0003-baseline.strategy.json",
        "responses/0001-baseline.summary.json", "responses/0001-baseline.summary.md",
        "responses/0003-baseline.strategy.json", "responses/0003-baseline.strategy.md"]
    assert (target / "responses" / "0001-baseline.summary.md").read_text(encoding="utf-8") == first
    assert layout.request_file(3, "baseline.strategy") == "requests/0003-baseline.strategy.json"
    assert layout.response_file(3, "baseline.strategy", ".md") == "responses/0003-baseline.strategy.md"
    assert snapshot(run_dir) == before
