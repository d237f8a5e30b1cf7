"""Every panel shows the run that is open: the Results matrix of the run opened with --run (not the newest run of
the domain), and a run started after another was open shows nothing of the one before (its debug results count,
its replay's note)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, isolated, make_app, ready, record_run, recorded_ferry, wait_for  # noqa: F401

from genplan.tui.widgets.results_matrix import ResultsPanel


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> tuple[Path, Path, Path]:
    """(domain, the older run, a newer run of another model's answers)."""
    domain, older = recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("open-run"))
    with ScriptedServer() as server:
        newer = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
    assert newer.name > older.name
    return domain, older, newer


async def test_the_results_matrix_is_the_open_runs(two_runs, isolated: Path) -> None:  # noqa: F811
    domain, older, newer = two_runs
    app = make_app(domain, config_for(isolated, None), run=older.name)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: {older.name, newer.name} <= set(app.ctx.overviews), what="both runs' results")
        await pilot.press("6")
        panel = app.query_one(ResultsPanel)
        await wait_for(pilot, lambda: panel.overview is not None, what="the matrix")
        await pilot.pause(0.5)  # an overview read later does not take the matrix away
        assert panel.overview.run_id == older.name


async def test_a_run_started_after_another_was_open_shows_nothing_of_it(two_runs, isolated: Path) -> None:  # noqa: F811
    domain, older, _ = two_runs
    with ScriptedServer() as server:
        server.respond_with(FerryModel())
        server.fixed_delay_s = 3.0  # nothing of the new run is checked while the view is read
        app = make_app(domain, config_for(isolated, server), replay=older.name, speed=1000.0)
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            title = app.query_one("#results-title")
            await wait_for(pilot, lambda: app.replay.replayer is not None and app.replay.replayer.finished
                           and "6/6 passed" in str(title.render()), timeout=60, what="the replayed run's results")
            await pilot.press("r")
            await wait_for(pilot, lambda: app.runner.session is not None, what="the new run")
            await pilot.pause(0.3)
            assert str(title.render()) == "debug results"  # not the replayed run's "6/6 passed"
            assert not app.query_one("#replay-note").display
            assert app.runner.state is not None and not app.runner.state.results
            await pilot.press("ctrl+b")
            await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the run to stop")
