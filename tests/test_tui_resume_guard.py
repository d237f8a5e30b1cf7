"""``c`` in the TUI's Runs panel (issue #51): a finished run, or a run of another domain than the one the app shows,
is not resumed: a notice says why, and every file of the run stays as it was (byte for byte). The engine's side
is tests/test_resume_guard.py; the run here is the session's recorded ferry run (conftest.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.ferry_model import FERRY
from test_resume_guard import snapshot
from test_tui_support import config_for, make_app, ready, recorded_ferry, wait_for

from genplan.tui.widgets.panels import RunsPanel


def notices(app) -> list[str]:
    return app.said


def listening(app):
    """The app, with every notice it shows kept in ``app.said``."""
    app.said = []
    shown = app.notify

    def notify(message, **options):
        app.said.append(str(message))
        return shown(message, **options)

    app.notify = notify
    return app


async def press_c_on(app, pilot, run_dir: Path) -> None:
    await ready(pilot, app)
    await pilot.press("3")
    await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run_dir.name, what="the run in 3 Runs")
    await pilot.press("c")
    await wait_for(pilot, lambda: any("nothing was changed" in n for n in notices(app)), what="the notice")
    await pilot.pause()
    assert app.runner.session is None  # refused before a session began: no run said to have failed
    assert not any(n.startswith("The run failed") for n in notices(app))


@pytest.mark.parametrize("other_domain", [False, True], ids=["its-own-domain", "another-domain"])
async def test_c_on_a_finished_run_or_one_of_another_domain_changes_nothing(
        buggy_then_fixed_ferry: Path, tmp_path: Path, other_domain: bool) -> None:
    domain, run_dir = recorded_ferry(buggy_then_fixed_ferry, tmp_path)
    assert json.loads((run_dir / "run.json").read_text())["status"] == "finished"
    if other_domain:  # the run copied among a gripper domain's runs, and left stopped there
        gripper = tmp_path / "gripper"
        shutil.copytree(FERRY.parent / "gripper", gripper, ignore=shutil.ignore_patterns(".genplan"))
        moved = gripper / ".genplan" / "runs" / run_dir.name
        shutil.copytree(run_dir, moved)
        meta = json.loads((moved / "run.json").read_text())
        (moved / "run.json").write_text(json.dumps({**meta, "status": "stopped"}))
        domain, run_dir = gripper, moved
    before = snapshot(run_dir)
    app = listening(make_app(domain, config_for(tmp_path, None)))
    async with app.run_test(size=(120, 40)) as pilot:
        await press_c_on(app, pilot, run_dir)
        said = " ".join(notices(app))
        if other_domain:
            assert "another domain" in said and "ferry" in said and "gripper" in said
        else:
            assert "finished; nothing to resume" in said
    assert snapshot(run_dir) == before
