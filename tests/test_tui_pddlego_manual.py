"""A PDDLego+ trial with manual answers: no model is configured, so the person answers each of the trial's
calls on the "You are the model" screen (the observation rendered as Markdown), the solver and the game take
the typed files as they would take a model's, and the trial reaches the game's goal. The typed answers are the
hand-written files of test_pddlego_loop.py (real CoinCollector, 5 rooms, seed 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.engine.pddlego.environment import java_available
from genplan.tui.screens.step import RequestScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.markdown_view import MarkdownView

pytestmark = pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")


def request_screen(app) -> RequestScreen | None:
    return app.screen if isinstance(app.screen, RequestScreen) else None


async def test_a_pddlego_trial_answered_by_hand_reaches_the_goal(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None), preset="pddlego-detailed", game={"seed": 1, "locations": 5})
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        assert "no model: you answer" in app.runner.source_label()
        await pilot.press("r")
        answered = []
        for typed in (TO_PANTRY, TO_BACKYARD):
            await wait_for(pilot, lambda: request_screen(app) is not None and request_screen(app) not in answered
                           and request_screen(app).query("#request-view"), timeout=60, what="the trial's next call")
            screen = request_screen(app)
            assert screen.manual and screen.request.step == "pddlego.pddl"
            view = screen.query_one("#request-view", MarkdownView)
            await wait_for(pilot, lambda view=view: "You are the model" in view.rendered_text(),
                           what="the rendered prompt")
            assert "pddlego.pddl" in view.rendered_text()
            screen.query_one("#answer-text", CodeArea).load_text(typed)
            await pilot.press("ctrl+s")
            answered.append(screen)
        await wait_for(pilot, lambda: app.runner.session is None, timeout=120, what="the trial to end")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "done", what="the last events shown")
        assert any("trial succeeded" in n.message for n in app.messages)
        requests = [e for e in state.entries if e.kind == "request"]
        assert len(requests) == 2
        assert [e.status for e in state.entries if e.kind == "check"] == ["pass", "pass"]
        commands = [e.title for e in state.entries if e.kind == "command"]
        assert commands[:2] == ["open door to south", "move south"] and commands[-1] == "move west"
        info = json.loads((app.runner.run_dir / "run.json").read_text())
        assert (info["approach"], info["status"]) == ("pddlego", "finished")
