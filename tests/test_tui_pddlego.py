"""A PDDLego+ run as the TUI shows it: time steps, outer attempts and inner retries named, the game's
commands in the timeline, one solver check per call, and the domain and problem files as versions that compare
step by step (replayed from a trial of the PDDLego+ release)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tui_support import config_for, isolated, make_app, ready, wait_for  # noqa: F401
from textual.coordinate import Coordinate

from genplan.cli.main import main
from genplan.engine.events import ArtifactCreated, RequestSent, ValidationResult
from genplan.engine.versions import check_category
from genplan.tui import run_state
from genplan.tui.replay import load_events
from genplan.tui.screens.compare import CompareScreen
from genplan.tui.screens.pick import NoticeScreen
from genplan.tui.widgets.panels import RunsPanel, RunsTable, VersionsPanel
from genplan.tui.widgets.versions_tree import arrange

TRIAL = (Path(__file__).resolve().parents[1].parent / "shared" / "pddlego-plus" / "output" / "CoinCollector"
         / "CC_PDDLego+_4o" / "2025-04-30_gpt-4o-2024-05-13_PDDL_detailed_11_102.txt")


def test_labels_of_a_pddlego_call() -> None:
    # read from the typed events: a request's time_step, a check's or an artefact's step
    sent = RequestSent(step="pddlego.files", time_step=3, attempt=1, retry=2)
    assert run_state.request_context(sent) == "step 3 attempt 2 retry 2"
    assert run_state.trial_place(ValidationResult(what="pddl", step=0, attempt=0, retry=0)).parts() == ["step 0"]
    assert run_state.trial_place(RequestSent(step="nl.task", task="task-00")) is None  # a pipeline request
    assert run_state.request_context(RequestSent(step="nl.task", task="task-03")) == "task-03"
    assert run_state.request_context(RequestSent(candidate=2)) == "candidate 2"  # code.generate, not a bare "2"
    assert run_state.request_context(RequestSent(version="c2-v01", candidate=2)) == "c2-v01"
    assert run_state.trial_place(ArtifactCreated(kind="pddl_domain", step=1, attempt=0, retry=2)).label == "s01-a0-r2"


def test_an_imported_trial_reads_with_steps_retries_and_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not TRIAL.is_file():
        pytest.skip(f"the PDDLego+ release is not beside the checkout ({TRIAL})")
    assert main(["import", "pddlego", str(TRIAL), "--env", "logged", "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    run = Path(summary["run_dir"])
    state = run_state.RunState(run)
    events = load_events(run)
    for event in events:
        state.apply(event)
    kinds = [e.type for e in events]
    steps = [e for e in state.entries if e.kind == "phase" and e.title == "time-step"]
    assert [e.detail for e in steps] == [f"step {n}" for n in range(len(steps))] and steps
    requests = [e for e in state.entries if e.kind == "request"]
    assert len(requests) == summary["calls"] and all(e.detail.startswith("step ") for e in requests)
    if summary["solver_errors"]:
        assert any("retry 1" in e.detail for e in requests)  # the inner loop is visible
    commands = [e for e in state.entries if e.kind == "command"]
    assert len(commands) == kinds.count("command.executed") > 0
    resets = [e for e in state.entries if e.kind == "reset"]
    assert len(resets) == sum(1 for e in events if e.type == "attempt.started" and e.data["attempt"] > 0)
    assert all("replayed" in e.detail and "attempt" in e.detail for e in resets)
    checks = [e for e in state.entries if e.kind == "check"]
    assert len(checks) == kinds.count("validation.result") == len({e.key for e in checks})
    assert len(state.results) == len(checks)  # one result per solver call, none overwritten
    failed = [e for e in checks if e.status == "fail"]
    assert len(failed) >= summary["solver_errors"] > 0  # the paper counts one per outer attempt; the timeline shows every call
    assert all(isinstance(e.event, ValidationResult) and check_category(e.event.kind, False) == "solver error"
               for e in failed)


async def test_the_trials_pddl_files_are_versions_that_compare_step_by_step(
        tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    if not TRIAL.is_file():
        pytest.skip(f"the PDDLego+ release is not beside the checkout ({TRIAL})")
    assert main(["import", "pddlego", str(TRIAL), "--env", "logged", "--out", str(tmp_path / "out"), "--json"]) == 0
    run = Path(json.loads(capsys.readouterr().out)["run_dir"])
    written = sorted(p.stem for p in (run / "pddl").glob("*.pddl"))
    assert any(name.endswith("-domain") for name in written) and any(name.endswith("-problem") for name in written)
    app = make_app(run.parent, config_for(isolated, None), runs_dir=run.parent, no_domain=True)
    trial = json.loads((run / "trial.json").read_text())
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("3")  # the trial's outcome beside its status
        await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run.name, what="the trial in 3 Runs")
        status = str(app.query_one(RunsTable).get_cell_at(Coordinate(0, 1)))
        assert status == f"finished · {trial['outcome']} ({trial['reason']})"
        await pilot.press("5")
        panel = app.query_one(VersionsPanel)
        await wait_for(pilot, lambda: panel.versions, what="the versions")
        versions = app.ctx.version_index.of_run(run.name)
        assert sorted(v.name for v in versions) == written and {v.kind for v in versions} == {"pddl"}
        domains = [v for v in arrange(versions) if v[0] == "pddl-domain"]
        assert [v.name for _p, _c, v in domains] == [n for n in written if n.endswith("-domain")]  # in writing order
        assert all(v.syntax == "pddl" for v in versions)
        second = domains[1][2]
        assert panel.select(second.key)
        await pilot.pause()
        await pilot.press("c")  # the domain file against the one the model wrote before it
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare screen")
        assert domains[0][2].name in str(app.screen.query_one("#compare-left").render())
        assert second.name in str(app.screen.query_one("#compare-right").render())
        await pilot.press("escape")
        await pilot.press("e")  # a trial replayed in the logged game cannot continue: no editor, the reason
        await wait_for(pilot, lambda: isinstance(app.screen, NoticeScreen), what="the reason")
        assert "continuing needs the real CoinCollector game" in str(app.screen.query_one("#notice-text").render())
        await pilot.press("escape")
        assert any("played in a logged environment; continuing needs the real CoinCollector game" in n.message
                   for n in app.messages)
