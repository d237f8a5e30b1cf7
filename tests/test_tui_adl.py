"""The plan stepper on an ADL task (tests/data/adl/briefcase): the conditional effects a step fired, and the
goal's forall condition with whether it holds."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_tui_support import config_for, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui.screens.plan_stepper import PlanStepperScreen

ADL = Path(__file__).resolve().parent / "data" / "adl"


def briefcase_dir(root: Path) -> Path:
    domain = root / "briefcase"
    for sub in ("debug", "eval"):
        (domain / sub).mkdir(parents=True)
        shutil.copy(ADL / "briefcase-problem.pddl", domain / sub / "task-00.pddl")
    shutil.copy(ADL / "briefcase-domain.pddl", domain / "domain.pddl")
    return domain


async def test_plan_stepper_shows_fired_conditional_effects_and_goal_conditions(isolated: Path) -> None:  # noqa: F811
    domain = briefcase_dir(isolated)
    app = make_app(domain, config_for(isolated, None))
    plan = ["(put-in dict home)", "(move home office)", "(take-out dict)", "(move office home)"]
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        app.plans.open_plan_stepper(domain / "debug" / "task-00.pddl", plan, "a plan")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen) and app.screen.query("#plan-effects"),
                       what="the stepper")
        await pilot.pause()
        screen = app.screen
        screen.show_row(2)  # (move home office)
        shown = str(screen.query_one("#plan-effects").render())
        assert "Conditional effects that fired:" in shown
        assert "when (in dict) (?p = dict): (at dict office) (not (at dict home))" in shown
        screen.show_row(len(plan) + 1)  # the goal check
        shown = str(screen.query_one("#plan-effects").render())
        assert "✓ (forall (?p - portable) (not (in ?p)))" in shown and "✗ (at paper office)" in shown
