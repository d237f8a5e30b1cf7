"""engine.api.report: a typed record of how a run ended, whose JSON (``--json``) keeps the keys of the dict it
replaced."""

from __future__ import annotations

import json
from pathlib import Path

from genplan.engine import api
from genplan.engine.events import RunFailed, RunFinished
from genplan.engine.runs.outcome import RunReport
from genplan.engine.runs.run import RunOutcome
from genplan.engine.runs.status import RunStatus


def test_a_pipeline_report_is_typed_and_its_json_has_the_keys_of_before(tmp_path: Path) -> None:
    summary = {"selected_program": "programs/c1-v00.py", "debug_solved": 5, "debug_total": 6, "wall_seconds": 1.5}
    outcome = RunOutcome(RunStatus.FINISHED, RunFinished(), summary=summary, run_dir=tmp_path / "r1")
    report = api.report(outcome)
    assert isinstance(report, RunReport)
    assert (report.run_dir, report.status, report.error, report.calls) == (tmp_path / "r1", RunStatus.FINISHED, None, None)
    # the dict engine.api.report returned before: run directory first, the summary, the status; then the account
    assert list(report.to_json()) == ["run_dir", "selected_program", "debug_solved", "debug_total", "wall_seconds", "status",
                                      "account"]
    assert json.loads(json.dumps(report.to_json(account=False))) == {"run_dir": str(tmp_path / "r1"), **summary,
                                                                     "status": "finished"}
    assert report.account is not None and report.to_json()["account"] == report.account.to_dict()


def test_a_report_prefers_what_the_approach_prints_and_names_the_error(tmp_path: Path) -> None:
    outcome = RunOutcome(RunStatus.FAILED, RunFailed(error="no key"), summary={"bulky": [1, 2, 3]},
                         report={"calls": 2, "error": "no key", "outcome": "failure"}, run_dir=tmp_path)
    report = api.report(outcome)
    assert (report.error, report.calls, report.details["outcome"]) == ("no key", 2, "failure")
    assert report.to_json(account=False) == {"run_dir": str(tmp_path), "calls": 2, "error": "no key",
                                             "outcome": "failure", "status": "failed"}
