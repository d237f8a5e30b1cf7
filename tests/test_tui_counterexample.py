"""The TUI's counterexample key on a program version (k): find and shrink, show the task, step through the
program's output on it, and "continue with this task" as a new run that debugs on it."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import CORRECT_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from support.wrong_programs import FULLY_CORRECT_FERRY
from test_tui_support import (  # noqa: F401 - fixtures
    config_for,
    ferry_copy,
    isolated,
    make_app,
    ready,
    record_run,
    wait_for,
)
from test_tui_versions import select_version

from genplan.tui.screens.counterexample import CounterexampleScreen
from genplan.tui.screens.plan_stepper import PlanStepperScreen
from genplan.tui.widgets.text_view import TextView


def _forks(domain: Path) -> list[Path]:
    runs = domain / ".genplan" / "runs"
    return [p for p in runs.iterdir() if "forked_from" in json.loads((p / "run.json").read_text())]


async def test_counterexample_key_plan_stepper_and_continue_with_this_task(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        # F5-3 (no search in the loop): the scripted program c1-v00 solves every debug task and is selected; it
        # fails the probes (a car that must end on the ferry: it returns an empty plan there)
        first = record_run(domain, server, FerryModel(programs=[CORRECT_PROGRAM]), initial_programs=1)
        assert json.loads((first / "summary.json").read_text())["debug_solved"] == 6
        asked_before = len(server.requests)
        server.respond_with(FerryModel(programs=[FULLY_CORRECT_FERRY]))  # the revision the model will write
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await select_version(pilot, app, f"{first.name}/program/c1-v00")
            await pilot.press("k")
            await wait_for(pilot, lambda: isinstance(app.screen, CounterexampleScreen), timeout=90,
                           what="the counterexample")
            screen = app.screen
            await wait_for(pilot, lambda: screen.query(TextView), what="the counterexample's text")
            shown = screen.query_one(TextView).text
            assert "Original size:" in shown and "Shrunk size:" in shown
            assert "Stages:" in shown  # how far each shrinking stage took the task
            assert "(define (problem" in shown and "objects = {" in shown and "Feedback" in shown
            record = json.loads((first / "counterexamples" / "c1-v00.json").read_text())
            assert record["found"] and (first / record["task"]).read_text().startswith("; counterexample found")
            # the plan stepper on the program's failing output, above the counterexample
            await pilot.press("p")
            await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the plan stepper")
            stepper = app.screen
            failure = record["shrunk"]["failure"]
            assert failure["kind"] == "goal-not-reached" and failure["plan"] == []
            assert stepper.trace.failing_step is not None  # the goal check fails on the program's (empty) plan
            await pilot.press("escape")
            assert app.screen is screen
            # "continue with this task": a new run from c1-v00 with the task among its debug tasks
            await pilot.press("c")
            await wait_for(pilot, lambda: _forks(domain), what="the continued run")
            fork = _forks(domain)[0]
            await wait_for(
                pilot, lambda: json.loads((fork / "run.json").read_text())["status"] == "finished",
                timeout=120, what="the continued run to finish",
            )
        summary = json.loads((fork / "summary.json").read_text())
        assert summary["debug_total"] == 7 and summary["debug_solved"] == 7
        assert summary["selected_program"].endswith("c1-v01.py")
        checks = json.loads((fork / "results" / "program-c1-v00.json").read_text())
        assert checks[-1]["task"] == "counterexample-c1-v00" and not checks[-1]["solved"]
        new_steps = [r.step for r in server.requests[asked_before:]]
        # nothing before the program was asked again: debugging went on from it, on the counterexample
        assert new_steps == ["code.reflect", "code.revise"]
