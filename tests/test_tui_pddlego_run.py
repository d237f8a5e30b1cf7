"""Starting a PDDLego+ trial from the TUI: with a PDDLego+ preset `r` plays the CoinCollector game given by
--game-seed/--game-rooms into the domain's runs (the domain directory only says where the run goes); the timeline
fills live with time steps, the solver checks and the game's commands; ctrl+b stops the trial before its next
model call. Real openai client against the scripted server, real CoinCollector (the game of
test_pddlego_loop.py: 5 rooms, seed 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import Reply, ScriptedServer
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY, WRONG_TO_BACKYARD
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401
from textual.coordinate import Coordinate

from genplan.engine.pddlego.environment import java_available
from genplan.engine.runs.store import RunStore
from genplan.tui.config import RunPrefs, check_preset, preset_choices
from genplan.tui.main import main as tui_main
from genplan.tui.screens.plan_stepper import PlanStepperScreen
from genplan.tui.widgets.panels import RunsPanel, RunsTable, VersionsPanel
from genplan.tui.widgets.stream_view import StreamView

pytestmark = pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")

GAME = {"seed": 1, "locations": 5}


def _notes(app) -> list[str]:
    return [n.message for n in app.messages]


def test_the_trial_presets_are_offered_and_the_game_options_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert {"pddlego-detailed", "pddlego-simple", "plangen"} <= set(preset_choices())
    assert check_preset("PDDLego-Simple") == "pddlego-simple"
    assert not RunPrefs(preset="plangen").limits_apply
    assert tui_main(["domains/ferry", "--game-rooms", "12"]) == 2
    assert "--game-rooms: CoinCollector has 1 to 11 rooms" in capsys.readouterr().err


async def test_a_pddlego_trial_started_with_r_plays_the_game_live(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    # the second answer comes slowly: the first step's commands are on the screen while the trial still runs
    scripted_server.on_step("pddlego.pddl", [TO_PANTRY, Reply.slow(TO_BACKYARD, 1.5)])
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="pddlego-detailed", game=GAME)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.runner.state is not None and any(e.kind == "command" for e in app.runner.state.entries),
                       timeout=60, what="the first step's commands, live")
        assert app.runner.session is not None and app.runner.live
        run_dir = app.runner.run_dir
        assert run_dir is not None and run_dir.parent == RunStore.runs_dir(domain).resolve()
        await wait_for(pilot, lambda: app.runner.session is None, timeout=120, what="the trial to end")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "done", what="the last events shown")
        assert "Run finished after 2 calls: trial succeeded after 2 steps." in _notes(app)
        assert scripted_server.steps() == ["pddlego.pddl", "pddlego.pddl"]
        assert [e.detail for e in state.entries if e.kind == "phase" and e.title == "time-step"] == ["step 0", "step 1"]
        commands = [e.title for e in state.entries if e.kind == "command"]
        assert commands[:2] == ["open door to south", "move south"] and commands[-1] == "move west"
        assert [e.status for e in state.entries if e.kind == "check"] == ["pass", "pass"]
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["approach"], info["config"]["preset"], info["status"]) == ("pddlego", "pddlego-detailed", "finished")
        assert (info["environment"]["seed"], info["environment"]["num_locations"]) == (1, 5)
        # a command row in full: the game's whole answer, then the observation history
        (south,) = [e for e in state.entries if e.kind == "command" and e.title == "move south"]
        app.main.show_entry_content(south)
        stream = app.query_one(StreamView)
        await wait_for(pilot, lambda: "## Step 1" in stream.text, what="the command's answer and the transcript")
        assert stream.text.startswith("**› move south**") and "Through an open plain door, to the North" in stream.text
        assert "> open door to west" in stream.text  # the whole history, later steps included
        # the plan of a solver call, stepped through on that call's own files
        call = next(e for e in state.entries if e.kind == "check" and e.detail == "solver" and "s01-a0-r0" in e.title)
        app.plans.open_trial_plan(call)
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the plan stepper")
        trace = app.screen.trace
        assert [step.action for step in trace.steps] == ["(move pantry kitchen north)", "(open-door kitchen backyard west)",
                                                          "(move kitchen backyard west)"]
        assert trace.result.valid and "(at pantry)" in trace.initial_state and trace.goal == ["(at backyard)"]
        await pilot.press("escape")
        # the trial in 3 Runs and its files in 5 Versions
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run_dir.name, what="the trial in 3 Runs")
        await wait_for(pilot, lambda: str(app.query_one(RunsTable).get_cell_at(Coordinate(0, 1))) ==
                       "finished · success", what="the trial's outcome")
        await pilot.press("5")
        await wait_for(pilot, lambda: sorted(v.name for v in app.ctx.version_index.of_run(run_dir.name)) ==
                       ["s00-a0-r0-domain", "s00-a0-r0-problem", "s01-a0-r0-domain", "s01-a0-r0-problem"],
                       what="the PDDL files in 5 Versions")
        assert app.query_one(VersionsPanel).select(f"{run_dir.name}/pddl/s01-a0-r0-problem")


async def test_ctrl_b_stops_a_pddlego_trial_that_waits_on_the_model(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    # the second answer (slow) walks into a closed door: the simulation error would need a third call
    scripted_server.on_step("pddlego.pddl", [TO_PANTRY, Reply.slow(WRONG_TO_BACKYARD, 2.0), TO_BACKYARD])
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="pddlego-detailed", game=GAME)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: len(scripted_server.requests) == 2, timeout=60, what="the second call")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the trial to stop")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "stopped", what="the stop shown")
        # the person's stop is the run's status; the trial has no end of its own to report
        assert any(n.startswith("Run stopped by a person after 2 calls: no result: the trial was stopped before its end")
                   for n in _notes(app)), _notes(app)
        assert scripted_server.steps() == ["pddlego.pddl", "pddlego.pddl"]  # no third call
        assert state.entries[-1].title == "run stopped"
        info = json.loads((app.runner.run_dir / "run.json").read_text())
        assert (info["status"], info["outcome"]) == ("stopped", "failure")


async def test_a_pddlego_trial_is_stepped_send_answer_and_watch(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    """Step mode (t) holds each of the trial's requests: the first is sent as it is, the second answered by the
    person (the server never sees it), and the trial plays on with that answer to the game's goal."""
    from genplan.tui.screens.step import RequestScreen
    from genplan.tui.widgets.code_area import CodeArea

    def held():
        return app.screen if isinstance(app.screen, RequestScreen) else None

    scripted_server.on_step("pddlego.pddl", [TO_PANTRY])
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="pddlego-detailed", game=GAME, step=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: held() is not None, timeout=60, what="the first held request")
        assert held().request.step == "pddlego.pddl" and scripted_server.requests == []
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(scripted_server.requests) == 1, what="the first request to go out")
        await wait_for(pilot, lambda: held() is not None, timeout=60, what="the second held request")
        await pilot.press("a")  # the answer box under the prompt
        await wait_for(pilot, lambda: held() is not None and held().answering, what="the answer box")
        held().query_one("#answer-text", CodeArea).load_text(TO_BACKYARD)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=90, what="the trial to end")
        assert len(scripted_server.requests) == 1
        run_dir = app.runner.run_dir
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["status"], info["outcome"]) == ("finished", "success")
        typed = json.loads((run_dir / "responses" / "0002-pddlego.pddl.json").read_text())
        assert typed["human"] is True and typed["response"]["text"] == TO_BACKYARD


async def test_an_edited_problem_file_continues_the_trial_in_a_new_run(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    from genplan.tui.screens.editor import EditorScreen
    from genplan.tui.widgets.code_area import CodeArea

    scripted_server.on_step("pddlego.pddl", [TO_PANTRY, WRONG_TO_BACKYARD, TO_BACKYARD])
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="pddlego-detailed", game=GAME)
    right = json.loads(TO_BACKYARD)["pf"]
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.runner.session is None and app.runner.run_dir is not None and not app.runner.events,
                       timeout=120, what="the first trial (3 calls, one simulation error)")
        source = app.runner.run_dir
        assert len(scripted_server.requests) == 3
        await pilot.press("5")
        key = f"{source.name}/pddl/s01-a0-r0-problem"
        await wait_for(pilot, lambda: key in [v.key for v in app.query_one(VersionsPanel).versions], what="the file")
        assert app.query_one(VersionsPanel).select(key)
        await pilot.pause()
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        editor = app.screen
        assert not editor.can_save and editor.can_continue and "ctrl+r continues the trial" in editor.hint
        await pilot.press("ctrl+s")  # nothing to save a PDDL file into: the key does nothing
        await pilot.pause()
        assert app.screen is editor
        editor.query_one(CodeArea).load_text(right)  # the person corrects the wrong belief about the door
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.runner.run_dir not in (None, source), timeout=60, what="the new run")
        await wait_for(pilot, lambda: app.runner.session is None and not app.runner.events, timeout=120, what="the trial to end")
        assert len(scripted_server.requests) == 3  # the kept call replayed, the edited one was the person's
        # the fork's calls apart: the one kept from its source and the one the person answered
        assert "Run finished after 2 calls (1 kept from before, 1 by a person): trial succeeded after 2 steps." \
            in _notes(app)
        forked = app.runner.run_dir
        info = json.loads((forked / "run.json").read_text())
        assert (info["forked_from"], info["edited_version"], info["status"]) == (
            str(source), "pddl/s01-a0-r0-problem.pddl", "finished")
        assert (forked / "pddl" / "s01-a0-r0-problem.pddl").read_text() == right
