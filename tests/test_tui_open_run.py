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


async def test_a_run_that_finishes_in_another_terminal_is_shown_finished_in_the_runs_panel(
        two_runs, tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    """A run going on in another process (genplan fork in another terminal), then finished there: the Runs panel
    says so within a few seconds, as the Versions panel does (it stayed "running")."""
    import json
    import shutil

    from genplan.tui.widgets.panels import RunsTable

    domain, older, _ = two_runs
    domain = Path(shutil.copytree(domain, tmp_path / "ferry"))
    run = domain / older.relative_to(two_runs[0])
    meta_file, summary = run / "run.json", run / "summary.json"
    finished_meta, finished_summary = meta_file.read_text(), summary.read_text()
    meta = json.loads(finished_meta)
    # going on in a process that is alive: this one, as run.json records its owner (the recorded run's owner was the
    # worker that recorded it, which may be another one)
    from genplan.engine.runs.lock import owner

    meta.update(status="running", **owner())
    meta_file.write_text(json.dumps(meta))
    summary.unlink()
    app = make_app(domain, config_for(isolated, None), watch_files=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        table = app.query_one(RunsTable)

        def status() -> str:
            return str(table.get_cell(run.name, "status")) if run.name in table.rows else ""

        await wait_for(pilot, lambda: status().startswith("running"), what="the run listed as running")
        summary.write_text(finished_summary)  # the other process finishes it
        meta_file.write_text(finished_meta)
        await wait_for(pilot, lambda: status().startswith("finished"), timeout=30, what="the run shown finished")


def test_short_run_ids_keep_what_tells_runs_apart() -> None:
    from genplan.tui.run_labels import short_run_id
    from genplan.tui.widgets.panels import fork_text
    from genplan.tui.widgets.versions_tree import run_label

    assert short_run_id("20261207-021311-2226") == "021311-2226"
    assert short_run_id("autotos-pddl-briefcase-20261202-071530") == "autotos-pddl-briefcase 071530"
    assert short_run_id("autotos-pddl-briefcase-20261202-071530-1") == "autotos-pddl-briefcase 071530-1"
    assert short_run_id("a-batch-key") == "a-batch-key"

    class Fork:
        forked_from = "20261206-231501-ab12"
        edited_version = "strategies/v03.md"
        status, debug_total, debug_solved, outcome = "finished", 6, 6, None

    assert fork_text(Fork(), short=True).plain == "⑂ 231501-ab12 v03.md"  # every fork read "⑂ 20261206" at 80 columns
    label = run_label("autotos-pddl-briefcase-20261202-071530", Fork(), current=False).plain
    assert label.startswith("autotos-pddl-briefcase 071530 ") and "⑂ 231501-ab12 v03.md" in label
