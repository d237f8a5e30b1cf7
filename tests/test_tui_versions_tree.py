"""The Versions tree (run → phase → candidate → version, with pass counts, a filter to the open run) and the
results matrix (versions × debug tasks, one outcome per cell; enter opens the plan or the feedback), on
runs made by the real pipeline against the scripted server. Also their SVG snapshots at 80x24 and 120x40."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, CRASHING_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_tui_snapshots import check_snapshot, settle
from test_tui_support import (  # noqa: F401
    config_for,
    ferry_copy,
    isolated,
    make_app,
    ready,
    record_run,
    recorded_ferry,
    wait_for,
)

from genplan.engine.versions import check_category, run_overview, version_place
from genplan.tui.artifacts import VersionIndex
from genplan.tui.outcomes import LOOKS, PASS_LOOK
from genplan.tui.screens.feedback import FeedbackScreen
from genplan.tui.screens.plan_stepper import PlanStepperScreen
from genplan.tui.widgets.panels import RunsTable, VersionsPanel
from genplan.tui.widgets.results_matrix import MatrixTable, ResultsPanel


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> Path:
    """run-a: strategy v01 (5/6) → v02, program c1-v00 (2/6) → c1-v01 (6/6). run-b: a crashing program, then a
    correct one. Renamed to fixed ids so that the snapshots hold nothing that changes between runs."""
    domain, first = recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("tree"))
    with ScriptedServer() as server:
        second = record_run(domain, server, FerryModel(programs=[CRASHING_PROGRAM, CORRECT_PROGRAM]))
    shutil.move(first, first.parent / "run-a")
    shutil.move(second, second.parent / "run-b")
    return domain


def copy_of(domain: Path, root: Path) -> Path:
    target = root / "ferry"
    shutil.copytree(domain, target)
    return target


def test_engine_places_and_categories() -> None:
    assert version_place("reflection", "strategy-v01-task-00").phase == "strategy"
    code = version_place("reflection", "code-c2-v03")
    assert (code.phase, code.candidate, code.number, code.after) == ("code", "c2", 3, 1)
    assert version_place("program", "c1-v01+2").after == 2
    assert check_category(None, True) == "pass"
    assert check_category("goal-not-reached", False) == "goal not satisfied"
    assert check_category("unsatisfied-precondition", False) == "invalid action"
    assert check_category("exception", False) == "exception" and check_category("timeout", False) == "timeout"
    assert check_category("no-plan", False) == "no plan"
    # one glyph per outcome, and no failure looks like a pass
    glyphs = [look.glyph for look in LOOKS.values()]
    assert len(set(glyphs)) == len(glyphs) and glyphs.count(PASS_LOOK.glyph) == 1


async def test_tree_groups_counts_and_filter(runs: Path, isolated: Path) -> None:  # noqa: F811
    domain = copy_of(runs, isolated)
    overview = run_overview(domain / ".genplan" / "runs" / "run-a")
    assert [(r.what, r.label, r.solved) for r in overview.results] == [
        ("strategy", "v01", 5), ("strategy", "v02", 6),
        ("strategy", "v02-final", 2),  # the final check of the chosen strategy on the 2 prompt tasks
        ("program", "c1-v00", 2), ("program", "c1-v01", 6)]
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("5")
        panel = app.query_one(VersionsPanel)
        await wait_for(pilot, lambda: panel.versions, what="the tree")
        tree = panel.versions_tree
        runs_shown = [str(node.label).split()[0] for node in tree.root.children]
        assert runs_shown == ["run-b", "run-a"]  # newest first
        run_a = tree.root.children[1]
        assert not run_a.is_expanded and not run_a.children  # filled when first opened
        run_a.expand()
        await pilot.pause()
        assert [str(c.label) for c in run_a.children] == ["strategy", "code"]
        strategy, code = run_a.children
        labels = [str(c.label) for c in strategy.children]
        assert labels[0].startswith("v01  5/6") and labels[1].startswith("reflection strategy-v01-task-00")
        assert labels[2].startswith("v02  6/6")
        candidate = code.children[0]
        assert str(candidate.label) == "candidate c1"
        programs = [str(c.label) for c in candidate.children]
        assert programs[0] == "c1-v00  2/6" and programs[1] == "reflection code-c1-v00"
        assert programs[2] == "c1-v01  6/6 ★ selected"
        # open run-a: the filter keeps only it
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one("#runs-table").row_count == 2, what="the runs")
        app.runner.open_run(domain / ".genplan" / "runs" / "run-a")
        await pilot.press("5", "f")
        assert panel.only_current and [str(n.label).split()[0] for n in tree.root.children] == ["run-a"]
        assert {v.run_id for v in panel.versions} == {"run-a"}
        assert "only run run-a" in str(app.query_one("#versions-filter").render())
        await pilot.press("f")
        assert len(tree.root.children) == 2


async def test_the_runs_view_lists_the_runs_before_their_versions_are_read(
        runs: Path, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    domain = copy_of(runs, isolated)
    read = threading.Event()
    scan = VersionIndex.scan
    monkeypatch.setattr(VersionIndex, "scan", lambda index: read.wait(20) and scan(index))
    app = make_app(domain, config_for(isolated, None))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.query_one(RunsTable)
            await wait_for(pilot, lambda: table.row_count == 2, what="the runs listed")
            panel = app.query_one(VersionsPanel)
            assert not panel.versions  # their versions are still being read
            read.set()
            await wait_for(pilot, lambda: panel.versions, what="the versions")
            assert app.ctx.runs and len(panel.model.overviews) == 2
    finally:
        read.set()


async def test_matrix_cells_open_plan_or_feedback(runs: Path, isolated: Path) -> None:  # noqa: F811
    domain = copy_of(runs, isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        app.runner.open_run(domain / ".genplan" / "runs" / "run-a")
        await pilot.press("6")
        matrix = app.query_one(ResultsPanel)
        await wait_for(pilot, lambda: matrix.overview is not None and matrix.overview.run_id == "run-a",
                       what="the matrix of run-a")
        table = app.query_one(MatrixTable)
        assert app.focused is table
        assert [r.label for r in matrix.rows] == ["v01", "v02", "v02-final", "c1-v00", "c1-v01"]
        assert [str(c.label) for c in table.columns.values()][2:] == [f"task-0{i}" for i in range(6)]
        # program c1-v00 on task-02 failed with an invalid action: its cell says so, not ✓
        cell = str(table.get_cell_at((3, 4)))
        assert cell == "✗ action"
        assert str(table.get_cell_at((4, 4))) == "✓ pass"
        matrix.select("program", "c1-v00", "task-02")
        await pilot.pause()
        assert "invalid action" in matrix.query_one("#matrix-detail").text
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the plan stepper")
        assert "c1-v00 on task-02" in app.screen.title_text and app.screen.trace.failing_step is not None
        await pilot.press("escape")
        # run-b's first program crashed: no plan, so enter shows the feedback (the traceback message)
        app.versions.show_matrix("run-b")
        await wait_for(pilot, lambda: matrix.overview.run_id == "run-b", what="the matrix of run-b")
        matrix.select("program", "c1-v00", "task-00")
        await pilot.pause()
        assert str(table.get_cell_at(table.cursor_coordinate)) == "⚡ exc"
        table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen), what="the feedback")
        assert "exception" in app.screen.title_text and app.screen.text
        await pilot.press("escape")
        assert len(app.screen_stack) == 1


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_snapshot_versions_tree(runs: Path, isolated: Path, size: tuple[int, int]) -> None:  # noqa: F811
    domain = copy_of(runs, isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=size) as pilot:
        await ready(pilot, app)
        await pilot.press("5")
        panel = app.query_one(VersionsPanel)
        await wait_for(pilot, lambda: panel.versions, what="the tree")
        panel.versions_tree.root.children[1].expand()
        assert panel.select("run-a/program/c1-v00")
        await settle(pilot, app)
        check_snapshot(app, f"versions_tree_{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_snapshot_results_matrix(runs: Path, isolated: Path, size: tuple[int, int]) -> None:  # noqa: F811
    domain = copy_of(runs, isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=size) as pilot:
        await ready(pilot, app)
        await pilot.press("6")
        matrix = app.query_one(ResultsPanel)
        app.versions.show_matrix("run-a")
        await wait_for(pilot, lambda: matrix.overview is not None and matrix.overview.run_id == "run-a",
                       what="the matrix")
        matrix.select("program", "c1-v00", "task-02")
        await settle(pilot, app)
        check_snapshot(app, f"results_matrix_{size[0]}x{size[1]}")
