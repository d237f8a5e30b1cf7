"""Starting an AutoToS run from the TUI: with the preset AutoToS (or AutoToS+PST) `r` runs AutoToS on the domain
directory into the domain's runs; the timeline fills as the run goes (each call, each unit-test round, the checks
that passed, the evaluation); ctrl+b stops it before its next model call; afterwards the Runs view, the Versions
panel and the timeline show it as an imported run. Real openai client against the scripted server."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from support.scripted_server import Reply, ScriptedServer
from support.small_ferry import small_ferry_copy
from test_autotos_pddl import FERRY, FERRY_BOARD_KEEPS_EMPTY, GOAL
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401
from textual.coordinate import Coordinate

from genplan.engine.runs.store import RunStore
from genplan.tui import run_state
from genplan.tui.config import RunPrefs, prefs_from_table, preset_choices
from genplan.tui.replay import load_events
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.settings import SettingsScreen
from genplan.tui.widgets.panels import RunsPanel, RunsTable, RunTimeline, VersionsPanel
from genplan.tui.widgets.stream_view import StreamView


def _replayed(run_dir: Path) -> run_state.RunState:
    state = run_state.RunState(run_dir)
    for event in load_events(run_dir):
        state.apply(event)
    return state


def _notes(app) -> list[str]:
    return [n.message for n in app.messages]


async def test_an_autotos_run_started_with_r_fills_the_timeline_live_and_is_shown_like_an_imported_one(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    # a buggy first succ (boarding keeps the ferry empty): one soundness round, then the fixed succ (slow, so the
    # round is on the screen while the run still waits for it)
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, Reply.slow(FERRY, 1.5)])
    scripted_server.on_step("autotos.goal", [GOAL])
    domain = small_ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="AutoToS", eval_limit=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        assert app.ctx.prefs.preset == "AutoToS"
        await pilot.press("r")
        # live: the round is in the timeline while the run is still going (waiting for succ-2)
        await wait_for(pilot, lambda: app.runner.state is not None and any(e.kind == "round" for e in app.runner.state.entries),
                       timeout=60, what="the feedback round, live")
        assert app.runner.session is not None and app.runner.live
        run_dir = app.runner.run_dir
        assert run_dir is not None and run_dir.parent == RunStore.runs_dir(domain).resolve()
        assert app.runner.state.run_dir == run_dir  # the run directory was announced before its events
        # ... to the end
        await wait_for(pilot, lambda: app.runner.session is None, timeout=120, what="the run to end")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and app.query_one(RunTimeline).row_count == len(state.entries),
                       what="the last events shown")
        assert state.status == "done" and state.entries[-1].title == "run finished"
        assert any(n.startswith("Run finished after 3 calls: unit tests passed; 2/2 evaluation tasks solved") for n in _notes(app))
        assert scripted_server.steps() == ["autotos.succ", "autotos.goal", "autotos.succ"]
        stream = app.query_one(StreamView)  # the answer of the last call, streamed in
        assert stream.request_id == "3" and "def succ(state, objects)" in stream.text
        (round_entry,) = [e for e in state.entries if e.kind == "round"]
        assert round_entry.status == "fail" and round_entry.title == "round 1: soundness failed"
        assert [e.title for e in state.entries if e.kind == "passed"][-3:] == [
            "goal tests passed", "soundness tests passed", "completeness tests passed"]
        (evaluation,) = [e for e in state.entries if e.kind == "evaluation"]
        assert evaluation.detail == "2/2 instances searched, 2 solved"
        # the same timeline as the run's recorded events give (an imported or reopened run)
        replayed = _replayed(run_dir)
        assert [(e.kind, e.title, e.status) for e in state.entries] == \
            [(e.kind, e.title, e.status) for e in replayed.entries]
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["approach"], info["preset"], info["status"]) == ("autotos", "AutoToS", "finished")
        assert info["source"] == {"domain_dir": str(domain.resolve())} and info["model"]["model"] == scripted_server.model
        # the Runs view and the Versions panel
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run_dir.name, what="the run in 3 Runs")
        await wait_for(pilot, lambda: str(app.query_one(RunsTable).get_cell_at(Coordinate(0, 1))) == "finished · 2/2 solved",
                       what="the run's status and result")
        await pilot.press("5")
        panel = app.query_one(VersionsPanel)
        await wait_for(pilot, lambda: sorted(v.name for v in app.ctx.version_index.of_run(run_dir.name)) ==
                       ["goal-1", "succ-1", "succ-2"], what="succ-N and goal-N in 5 Versions")
        assert panel.select(f"{run_dir.name}/function/succ-2")
        # e on the first (unsound) successor function, corrected, ctrl+r: a new run takes the text as the answer of
        # call 1 and asks only what follows (the goal test); the run itself keeps no edit
        right = (run_dir / "versions/succ-2.py").read_text()
        assert panel.select(f"{run_dir.name}/function/succ-1")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor on succ-1")
        assert "ctrl+r continues the run from this file in a new run" in str(app.screen.query_one("#editor-hint").render())
        app.screen.editor.load_text(right)
        scripted_server.clear()
        scripted_server.on_step("autotos.goal", [GOAL])
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.runner.run_dir not in (None, run_dir) and app.runner.session is None,
                       timeout=120, what="the continued run to end")
        fork_dir = app.runner.run_dir
        assert scripted_server.steps() == ["autotos.goal"]
        assert (fork_dir / "versions/succ-1.py").read_text().strip() == right.strip()
        forked = json.loads((fork_dir / "run.json").read_text())
        assert (forked["forked_from"], forked["edited_version"], forked["status"]) == (
            str(run_dir), "versions/succ-1.py", "finished")
        assert sorted(p.name for p in (run_dir / "versions").glob("*.py")) == ["goal-1.py", "succ-1.py", "succ-2.py"]


async def test_ctrl_b_stops_an_autotos_run_that_waits_on_the_model(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    scripted_server.on_step("autotos.succ", [Reply.slow(FERRY, 2.0)])
    scripted_server.on_step("autotos.goal", [GOAL])
    domain = small_ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="AutoToS+PST", eval_limit=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: len(scripted_server.requests) == 1 and app.runner.state is not None
                       and any(e.kind == "request" and e.status == "running" for e in app.runner.state.entries),
                       timeout=60, what="the first call, waiting on the model")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the run to stop")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "stopped", what="the stop shown")
        assert state.entries[-1].title == "run stopped"
        assert scripted_server.steps() == ["autotos.succ"]  # the answer came; the goal test was never asked for
        assert "Run stopped by a person after 1 call: no result: the run was stopped before its end." in _notes(app)
        # no row for the request that was not sent
        assert [e.title for e in state.entries if e.kind == "request"] == ["autotos.succ"]
        assert state.entries[-1].detail.startswith("stopped by the person after 1 call")
        assert not any("Traceback" in n or "Error" in n for n in _notes(app))
        run_dir = app.runner.run_dir
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["preset"], info["status"], info["error"]) == ("AutoToS+PST", "stopped", None)
        assert info["config"]["partial_soundness"] is True


async def test_an_autotos_run_is_stepped_send_edit_answer_and_stop(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    """Step mode (t) holds each AutoToS request as it holds a pipeline's: send it, edit its prompt, answer it
    instead of the model, stop the run; afterwards the stopped run is resumed and asks only what is missing."""
    from genplan.tui.screens.editor import EditorScreen
    from genplan.tui.screens.step import RequestScreen
    from genplan.tui.widgets.code_area import CodeArea

    def held():
        return app.screen if isinstance(app.screen, RequestScreen) else None

    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    domain = small_ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="AutoToS", eval_limit=0, step=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        # 1) the first request waits for a decision; nothing is sent before it
        await wait_for(pilot, lambda: held() is not None, timeout=60, what="the held succ request")
        assert held().request.step == "autotos.succ" and scripted_server.requests == []
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(scripted_server.requests) == 1, what="succ to go out")
        # 2) the goal test's request: its prompt edited, then sent
        await wait_for(pilot, lambda: held() is not None and held().request.step == "autotos.goal",
                       what="the held goal request")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the prompt editor")
        app.screen.editor.load_text("SYNTHETIC EDITED PROMPT: write is_goal(state, goal)")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: held() is not None and held().edited, what="the edit")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(scripted_server.requests) == 2, what="the edited request")
        assert scripted_server.requests[1].messages[-1]["content"] == "SYNTHETIC EDITED PROMPT: write is_goal(state, goal)"
        # 3) the soundness feedback for succ: answered by the person (the correct function), the server never sees it
        await wait_for(pilot, lambda: held() is not None and held().request.step == "autotos.succ", timeout=60,
                       what="the feedback request")
        assert "succ" in held().request.messages[-1].content
        await pilot.press("a")  # the answer box under the prompt
        await wait_for(pilot, lambda: held() is not None and held().answering, what="the answer box")
        held().query_one("#answer-text", CodeArea).load_text(FERRY)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=90, what="the run to finish")
        assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]
        run_dir = app.runner.run_dir
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["status"], info["result"]["calls"]) == ("finished", 3)
        assert [r["category"] for r in info["result"]["rounds"]] == ["succ soundness"]
        typed = json.loads((run_dir / "responses" / "0003-autotos.succ.json").read_text())
        assert typed["human"] is True and "def succ" in typed["response"]["text"]
        assert (run_dir / "versions" / "succ-2.py").read_text().count("def succ") == 1


async def test_ctrl_b_in_step_mode_stops_an_autotos_run_and_c_resumes_it_asking_only_what_is_missing(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    from genplan.tui.screens.step import RequestScreen

    def held():
        return app.screen if isinstance(app.screen, RequestScreen) else None

    scripted_server.on_step("autotos.succ", [FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    domain = small_ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="AutoToS", eval_limit=0, step=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: held() is not None, timeout=60, what="the held succ request")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: held() is not None and held().request.step == "autotos.goal",
                       what="the held goal request")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the run to stop")
        assert scripted_server.steps() == ["autotos.succ"]
        run_dir = app.runner.run_dir
        assert json.loads((run_dir / "run.json").read_text())["status"] == "stopped"
        # c in the Runs panel goes on with it (in watch mode): succ's answer is on disk, only the goal test is asked
        await pilot.press("t")
        assert not app.runner.stepping.is_set()
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run_dir.name, what="the run in 3 Runs")
        await pilot.press("c")
        await wait_for(pilot, lambda: app.runner.session is None and app.runner.state is not None
                       and app.runner.state.status == "done", timeout=90, what="the resumed run to finish")
        assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["status"], info["result"]["calls"], info["result"]["resumed"]) == ("finished", 2, 1)
        assert len(list(run_dir.parent.iterdir())) == 1  # the same run, not a new one


async def test_the_settings_offer_the_autotos_presets_without_the_pipeline_limits(
        isolated: Path) -> None:  # noqa: F811
    assert preset_choices()[-6:] == ["AutoToS", "AutoToS+PST", "pddlego-detailed", "pddlego-simple",
                                     "pddlego-fixed-domain", "plangen"]
    prefs = prefs_from_table({"preset": "autotos+pst"}, "config.toml")
    assert prefs.preset == "AutoToS+PST" and not prefs.limits_apply
    domain = ferry_copy(isolated)
    config = config_for(isolated, None)
    app = make_app(domain, config)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        app.ctx.prefs = RunPrefs(preset="AutoToS")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings")
        limit = app.screen.query_one("#set-code_rounds")
        assert limit.disabled and "not used by AutoToS" in limit.placeholder
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), what="the settings saved")
        assert app.ctx.prefs.preset == "AutoToS" and 'preset = "AutoToS"' in config.read_text()


async def test_a_run_out_of_memory_goes_on_with_more_memory_given_at_launch(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    """genplan-tui --memory GIB: an AutoToS run started with 64 MiB ends as out of memory (the message says how
    to give it more); the app launched with 2 GiB goes on with it with c, its answers on disk not asked again."""
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    domain = small_ferry_copy(isolated)
    config = config_for(isolated, scripted_server)
    app = make_app(domain, config, preset="AutoToS", eval_limit=0, memory_gib=0.0625)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.runner.run_dir is not None and app.runner.session is None
                       and app.runner.state is not None and app.runner.state.status == "failed",
                       timeout=90, what="the run to fail")
        run_dir = app.runner.run_dir
        # said in the person's words (no exception's class name), with the TUI's way on
        assert any(n.startswith("The run failed: the sandboxed search ran out of memory (its limit: 0.0625 GiB)")
                   and "c on it in genplan-tui --memory GIB" in n for n in _notes(app)), _notes(app)
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "failed" and info["parameters"]["memory_gib"] == 0.0625
    asked = scripted_server.steps()
    assert asked == ["autotos.succ", "autotos.goal"]

    app = make_app(domain, config, preset="AutoToS", eval_limit=0, memory_gib=2.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run_dir.name, what="the run in 3 Runs")
        await pilot.press("c")
        await wait_for(pilot, lambda: app.runner.session is None and app.runner.state is not None
                       and app.runner.state.status == "done", timeout=90, what="the resumed run to finish")
    assert scripted_server.steps() == [*asked, "autotos.succ"]  # the two answers on disk were not asked again
    info = json.loads((run_dir / "run.json").read_text())
    assert (info["status"], info["result"]["calls"], info["result"]["resumed"]) == ("finished", 3, 2)
    assert info["parameters"]["memory_gib"] == 2.0  # what a later resume goes on with


async def test_continuing_a_function_while_another_run_goes_on_asks_and_keeps_the_text(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    """ctrl+r on an edited AutoToS function while another run is going on: a question, not a lost text. escape
    (keep the run going) gives the editor back with the text; enter stops that run and continues from it."""
    from genplan.tui.screens.pick import PickScreen
    from genplan.tui.screens.step import RequestScreen

    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL, GOAL, GOAL])
    domain = small_ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="AutoToS", eval_limit=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")  # the first run: succ-1 unsound, succ-2 right
        await wait_for(pilot, lambda: app.runner.session is None and app.runner.state is not None
                       and app.runner.state.status == "done", timeout=90, what="the first run")
        first = app.runner.run_dir
        right = (first / "versions/succ-2.py").read_text()
        await pilot.press("t")  # step mode: the second run holds its first request for the person
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), timeout=60, what="the held request")
        await pilot.press("escape")  # put off: the run waits for the person
        await wait_for(pilot, lambda: app.runner.waits_for_person(), what="the second run, waiting")
        await pilot.press("5")
        panel = app.query_one(VersionsPanel)
        await wait_for(pilot, lambda: panel.select(f"{first.name}/function/succ-1"), what="succ-1 of the first run")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        app.screen.editor.load_text(right)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the question")
        assert "is going on" in app.screen.title_text and "succ-1.py" in app.screen.title_text
        # the whole question on the screen, wrapped inside the dialog (its end ran off the dialog's edge)
        await pilot.pause()
        shown = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", app.export_screenshot())).split())
        assert "from your succ-1.py?" in shown and first.name in shown
        await pilot.press("escape")  # keep the run going: back to the editor, the text as it was
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor again")
        assert app.screen.editor.text == right
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the question again")
        await pilot.press("enter")  # stop that run and continue
        # still in step mode: the continued run holds its first request (the goal test); w sends it and watches
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), timeout=60, what="the fork's request")
        await pilot.press("w")
        await wait_for(pilot, lambda: app.runner.session is None and app.runner.run_dir not in (None, first)
                       and app.runner.state is not None and app.runner.state.status == "done"
                       and "forked_from" in json.loads((app.runner.run_dir / "run.json").read_text()),
                       timeout=120, what="the continued run to end")
        fork = app.runner.run_dir
        assert (fork / "versions/succ-1.py").read_text().strip() == right.strip()
    runs = sorted(p for p in first.parent.iterdir() if p != first and p != fork)
    assert len(runs) == 1 and json.loads((runs[0] / "run.json").read_text())["status"] == "stopped"
