"""A new approach plugs into the TUI without touching its code: the toy approach of tests/test_approaches.py
(ask once, check, stop; that file runs it through the CLI and a batch) started from the app with Pilot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from test_approaches import toy, toy_server  # noqa: F401 (toy: the fixture registering the toy approach)
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.engine.approaches import Approach

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")


async def test_the_toy_runs_in_the_tui(toy: Approach, scripted_server: ScriptedServer,  # noqa: F811
                                       isolated: Path) -> None:  # noqa: F811
    toy_server(scripted_server)
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="Toy")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.runner.session is not None or app.runner.state.status == "done", what="the run")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the run to finish")
        await wait_for(pilot, lambda: not app.runner.events and app.runner.state.status == "done", what="the last events")
        requests = [e for e in app.runner.state.entries if e.kind == "request"]
        assert [e.step for e in requests] == ["code.generate"]
        assert ("program", "c1-v00") in app.runner.state.results
        assert all(r.valid for r in app.runner.state.results[("program", "c1-v00")].values())
    assert scripted_server.steps() == ["code.generate"]
