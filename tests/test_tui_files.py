"""Capability 8: files stay live — outside edits of the run's programs/strategies and of the domain files
are picked up (watchdog), shown as new versions, and programs are rerun on the debug tasks."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, recorded_ferry, wait_for  # noqa: F401

from genplan.tui.screens.rerun import RerunScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.panels import VersionsPanel


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> tuple[Path, Path]:
    return recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("files"))


async def test_outside_edits_become_versions_and_programs_are_rerun(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    app = make_app(domain, config_for(isolated, None), watch_files=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.versions.watcher is not None and app.query_one(VersionsPanel).versions,
                       what="watching")
        await pilot.pause(0.3)
        program = run / "programs" / "c1-v00.py"
        original = program.read_text()
        program.write_text(CORRECT_PROGRAM)  # what an editor outside the TUI does
        key = f"{run.name}/program/c1-v00+1"
        await wait_for(pilot, lambda: key in [v.key for v in app.query_one(VersionsPanel).versions],
                       what="the edited program as a new version")
        assert app.ctx.version_index.get(key).read() == CORRECT_PROGRAM
        assert app.ctx.version_index.get(f"{run.name}/program/c1-v00").read() == original  # the old one stays
        await wait_for(pilot, lambda: isinstance(app.screen, RerunScreen), what="the automatic rerun")
        screen = app.screen
        assert screen.title_text.endswith("c1-v00+1")
        await wait_for(pilot, lambda: screen.finished, timeout=60, what="the rerun")
        assert [check.solved for check, _ in screen.checks] == [True] * 6
        await pilot.press("escape")

        # a new strategy file written by someone else appears as a version too
        (run / "strategies" / "v09.md").write_text("SYNTHETIC strategy written by hand")
        await wait_for(pilot, lambda: f"{run.name}/strategy/v09" in [v.key for v in app.query_one(VersionsPanel).versions],
                       what="the new strategy")

        # the domain file: the panel shows the new text
        domain_file = domain / "domain.pddl"
        domain_file.write_text(domain_file.read_text() + "\n; SYNTHETIC comment added outside\n")
        await wait_for(pilot, lambda: "SYNTHETIC comment added outside" in app.query_one("#domain-code", CodeArea).text,
                       what="the domain to reload")
        program.write_text(original)


async def test_a_late_overview_during_shutdown_touches_no_widget(recorded, isolated: Path) -> None:  # noqa: F811
    """The race CI once hit: a worker's OverviewLoaded is handled while Textual unmounts the panels (the screen
    stack still set, the VersionsTree already gone). Reproduced by handling it inside the app's own close."""
    from genplan.engine.versions import run_overview
    from genplan.tui import messages as msg
    from genplan.tui.widgets.versions_tree import VersionsTree

    domain, run = recorded
    app = make_app(domain, config_for(isolated, None))
    late = msg.OverviewLoaded(run_overview(run))
    errors: list[BaseException] = []
    close_all = app._close_all  # Textual's unmounting step, entered once is_running is False

    async def close_with_a_late_message() -> None:
        await app.main.query_one(VersionsTree).remove()  # part of the tree is gone, the screen stack is not
        assert app.screen_stack
        try:
            app.versions.on_overview_loaded(late)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        await close_all()

    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        app._close_all = close_with_a_late_message  # type: ignore[method-assign]
    assert errors == []
