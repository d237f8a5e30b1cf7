"""SVG snapshots of a few screens at fixed terminal sizes (our own small check; no plugin).

The screens are chosen to hold nothing that changes between runs (no clocks, timestamps or temporary
paths). On a mismatch the new rendering is written beside the snapshot as ``*.actual.svg``.
Update the snapshots with ``GENPLAN_UPDATE_SNAPSHOTS=1 pytest tests/test_tui_snapshots.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui.screens.compare import CompareScreen
from genplan.tui.screens.plan_stepper import PlanStepperScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.panels import VersionsPanel

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE = os.environ.get("GENPLAN_UPDATE_SNAPSHOTS") == "1"


async def settle(pilot, app) -> None:
    """Wait until nothing is pending, and drop toasts (they time out on their own clock)."""
    from genplan.tui.widgets.markdown_view import MarkdownView

    await pilot.pause(0.2)
    for _ in range(100):  # background rendering (Markdown, highlighting) has arrived
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        if not any(view.pending for view in app.screen.query(MarkdownView)) and not app.workers._workers:
            break
    app.clear_messages()
    await pilot.pause(0.2)


def check_snapshot(app, name: str) -> None:
    svg = app.export_screenshot(title="genplan")
    expected_file = SNAPSHOTS / f"{name}.svg"
    actual_file = SNAPSHOTS / f"{name}.actual.svg"
    if UPDATE or not expected_file.exists():
        if not UPDATE:
            pytest.fail(f"no snapshot {expected_file.name}; create it with GENPLAN_UPDATE_SNAPSHOTS=1")
        expected_file.write_text(svg, encoding="utf-8")
        actual_file.unlink(missing_ok=True)
        return
    if svg != expected_file.read_text(encoding="utf-8"):
        actual_file.write_text(svg, encoding="utf-8")
        pytest.fail(f"{name}: the screen differs from {expected_file.name}; see {actual_file.name} "
                    "(update with GENPLAN_UPDATE_SNAPSHOTS=1 if the change is intended)")
    actual_file.unlink(missing_ok=True)


def fixed_run(domain: Path) -> Path:
    """A run directory with two program versions, written directly (no clock involved)."""
    run = domain / ".genplan" / "runs" / "run-a"
    (run / "programs").mkdir(parents=True)
    (run / "strategies").mkdir()
    (run / "run.json").write_text(json.dumps({"run_id": "run-a", "status": "finished", "created": "2026-01-01T00:00:00",
                                              "config": {"preset": "F5-3"}, "model": {"model": "m"}}))
    (run / "events.jsonl").write_text("")
    (run / "programs" / "c1-v00.py").write_text(BUGGY_PROGRAM.strip() + "\n")
    (run / "programs" / "c1-v01.py").write_text(CORRECT_PROGRAM.strip() + "\n")
    return run


async def test_snapshot_domain_panel_80x24(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.query_one("#domain-code", CodeArea).text, what="the domain")
        app.query_one("#tabs").focus()
        await settle(pilot, app)
        check_snapshot(app, "domain_80x24")


async def test_snapshot_task_python_encoding(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("2", "down")
        await wait_for(pilot, lambda: "ferry-l2-c2" in app.query_one("#task-pddl", CodeArea).text, what="task-01")
        app.query_one("#task-tabs").active = "task-python-tab"
        await settle(pilot, app)
        check_snapshot(app, "task_python_100x30")


async def test_snapshot_compare_two_programs(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    fixed_run(domain)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("5")
        await wait_for(pilot, lambda: len(app.query_one(VersionsPanel).versions) == 2, what="the versions")
        assert app.query_one(VersionsPanel).select("run-a/program/c1-v01")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="compare")
        await settle(pilot, app)
        check_snapshot(app, "compare_100x30")


async def test_snapshot_plan_stepper_failing_step(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        app.plans.open_plan_stepper(domain / "debug" / "task-01.pddl",
                              ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)", "(board c1 l1)", "(sail l1 l0)"],
                              "a plan for task-01")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the stepper")
        await settle(pilot, app)
        check_snapshot(app, "plan_stepper_100x30")
