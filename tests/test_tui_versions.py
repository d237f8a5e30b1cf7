"""Capabilities 4-7 on recorded runs: editing a version inline, rerunning programs on the debug and eval
tasks, comparing versions (also across runs) and stepping through their history, the plan stepper."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import (  # noqa: F401 - fixtures
    config_for,
    ferry_copy,
    isolated,
    make_app,
    ready,
    record_run,
    recorded_ferry,
    wait_for,
)

from genplan.tui.external_editor import edit_text
from genplan.tui.screens.compare import CompareScreen
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.plan_stepper import PlanStepperScreen
from genplan.tui.screens.rerun import RerunScreen
from genplan.tui.widgets.diff_view import DiffView
from genplan.tui.widgets.panels import VersionsPanel


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> tuple[Path, Path, Path]:
    """Run A: strategy v01 -> v02, program c1-v00 (buggy) -> c1-v01 (fixed). Run B: correct at once."""
    domain, first = recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("versions"))
    with ScriptedServer() as server:
        second = record_run(domain, server, FerryModel(programs=[CORRECT_PROGRAM.replace("plan = []", "plan = list()")]))
    return domain, first, second


async def select_version(pilot, app, key: str) -> None:
    await pilot.press("5")
    await wait_for(pilot, lambda: app.query_one(VersionsPanel).versions, what="the versions")
    panel = app.query_one(VersionsPanel)
    assert panel.select(key)
    await pilot.pause()
    assert app.versions.selected_version().key == key


async def test_compare_across_runs_and_step_through_history(two_runs, isolated: Path) -> None:  # noqa: F811
    domain, first, second = two_runs
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await select_version(pilot, app, f"{first.name}/program/c1-v00")
        await pilot.press("m")
        assert app.query_one(VersionsPanel).marked == f"{first.name}/program/c1-v00"
        await select_version(pilot, app, f"{second.name}/program/c1-v00")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare screen")
        view = app.screen.query_one(DiffView)
        tags = [row.tag for row in view.rows]
        # the buggy program lacks the "sail to the car" lines; the other writes `plan = list()`
        assert "insert" in tags and "replace" in tags
        changed = next(r for r in view.rows if r.tag == "replace")
        assert "plan = []" in changed.left and "plan = list()" in changed.right and changed.right_changes
        assert "changed" in str(app.screen.query_one("#compare-stats").render())
        assert first.name in str(app.screen.query_one("#compare-left").render())
        await pilot.press("n")  # jumps to a change
        await pilot.press("escape")

        await select_version(pilot, app, f"{first.name}/strategy/v02")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the history screen")
        screen = app.screen
        assert [v.name for v in screen.versions] == ["v01", "v02"] and (screen.left, screen.right) == (0, 1)
        assert "version 2 of 2" in str(screen.query_one("#compare-stats").render())
        await pilot.press("[")  # already at the oldest pair: nothing to step to
        assert (screen.left, screen.right) == (0, 1)


async def test_rerun_program_on_debug_tasks_then_plan_stepper_then_eval(two_runs, isolated: Path) -> None:  # noqa: F811
    domain, first, _second = two_runs
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await select_version(pilot, app, f"{first.name}/program/c1-v00")
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, RerunScreen), what="the rerun screen")
        screen = app.screen
        await wait_for(pilot, lambda: screen.finished, timeout=60, what="the rerun to finish")
        rows = [check for check, _path in screen.checks]
        assert [r.task for r in rows] == [f"task-0{i}" for i in range(6)]
        failed = [r for r in rows if not r.solved]
        assert failed and all("not executable" in r.message for r in failed)
        assert "solved" in str(screen.query_one("#rerun-title").render())
        # the plan stepper on a failing task: the failing step and its unsatisfied precondition
        table = screen.query_one("#rerun-table")
        table.move_cursor(row=rows.index(failed[0]))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the plan stepper")
        stepper = app.screen
        failing = stepper.trace.failing_step
        assert failing is not None and stepper.trace.steps[failing].unsatisfied
        shown = str(stepper.query_one("#plan-effects").render())
        assert "unsatisfied preconditions" in shown and stepper.trace.steps[failing].unsatisfied[0] in shown
        await pilot.press("g")  # the first step: the facts it adds and removes
        await pilot.press("down")
        first_step = str(stepper.query_one("#plan-effects").render())
        assert "Added:" in first_step and "Removed:" in first_step
        await pilot.press("escape")
        # the same program on the eval tasks, under several orderings
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, RerunScreen) and app.screen is not screen,
                       what="the eval rerun")
        eval_screen = app.screen
        await wait_for(pilot, lambda: len(eval_screen.checks) >= 1, timeout=60, what="a first eval result")
        assert eval_screen.task_set == "eval" and eval_screen.checks[0][1].parent.name == "eval"
        await pilot.press("escape")  # leaving cancels the rest


async def test_plan_stepper_from_the_tasks_panel_with_a_recorded_plan(two_runs, isolated: Path) -> None:  # noqa: F811
    domain, _first, _second = two_runs
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("2")
        await pilot.press("p")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "PickScreen", what="the plan choice")
        options = app.screen.query_one("#pick-options")
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("strategy-v01" in label and "fails" in label for label in labels)
        assert labels[-1].startswith("Type or paste")
        index = next(i for i, label in enumerate(labels) if "strategy-v01" in label and "fails" in label)
        options.highlighted = index
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the plan stepper")
        trace = app.screen.trace
        # the strategy's first plan for task-00 lacks its first action: the second one cannot run
        assert not trace.result.valid and trace.failing_step == 1
        assert "fails at step 1" in str(app.screen.query_one("#plan-summary").render())


async def test_edit_a_program_saves_a_new_version_and_reruns_it(two_runs, isolated: Path) -> None:  # noqa: F811
    domain, first, _second = two_runs
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await select_version(pilot, app, f"{first.name}/program/c1-v00")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        editor = app.screen.editor
        assert editor.syntax == "python" and "def generate_solution" in editor.text
        assert any(name == "keyword" for spans in editor._highlights.values() for *_r, name in spans)
        editor.load_text(CORRECT_PROGRAM)
        await pilot.press("ctrl+s")
        new_file = first / "programs" / "c1-v02.py"
        await wait_for(pilot, new_file.exists, what="the new version file")
        assert new_file.read_text() == CORRECT_PROGRAM
        assert f"{first.name}/program/c1-v02" in [v.key for v in app.query_one(VersionsPanel).versions]
        # an edited program is rerun on the debug tasks straight away
        await wait_for(pilot, lambda: isinstance(app.screen, RerunScreen), what="the rerun")
        screen = app.screen
        await wait_for(pilot, lambda: screen.finished, timeout=60, what="the rerun to finish")
        assert all(check.solved for check, _ in screen.checks) and len(screen.checks) == 6
        new_file.unlink()


def test_external_editor_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "fake-editor.sh"
    script.write_text("#!/bin/sh\necho '# appended by the editor' >> \"$1\"\n")
    script.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    assert edit_text("x = 1\n", ".py") == "x = 1\n# appended by the editor\n"
    monkeypatch.setenv("EDITOR", "false")
    assert edit_text("x", ".py") is None
