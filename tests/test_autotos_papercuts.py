"""AutoToS papercuts of issue 28: a run on a domain directory without an evaluation limit asks its first
question before planning any eval task (so a stop acts at once); the manual provider ("you are the model")
drives an AutoToS run in the TUI; the runs list shows how many solutions of an import only the release's
validation accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry, small_ferry_copy
from test_autotos_pddl import FERRY, GOAL
from test_tui_support import config_for, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.engine.autotos import pddl_family
from genplan.engine.events import RequestSent, ResponseReceived
from genplan.engine.llm import ModelSettings


def test_a_run_without_an_eval_limit_asks_before_planning_its_eval_tasks_and_stops_at_once(
        scripted_server: ScriptedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from genplan.engine import api

    planned: list[str] = []
    optimal_plan = pddl_family.PddlTasks.optimal_plan

    def counted(self, problem):  # the real planner, counted
        planned.append(problem.name)
        return optimal_plan(self, problem)

    monkeypatch.setattr(pddl_family.PddlTasks, "optimal_plan", counted)
    scripted_server.on_step("autotos.succ", [FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    seen: dict[str, object] = {}

    def watch(event) -> None:
        if isinstance(event, RequestSent) and "first_request" not in seen:
            seen["first_request"] = len(planned)
        if isinstance(event, ResponseReceived):
            seen["answered"] = True

    domain = small_ferry()
    debug = len(list((domain / "debug").glob("*.pddl")))
    evals = len(list((domain / "eval").glob("*.pddl")))
    assert evals > 10
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url)
    watching = api.Watch(subscriber=watch, stop_requested=lambda: bool(seen.get("answered")))
    summary = api.report(api.start(api.StartRequest("AutoToS", str(domain), tmp_path / "runs"), settings, watching,
                                   no_cache=True)).to_json()
    # the first call went out after the debug tasks' optimal plans only; the stop after it acted at once
    assert seen["first_request"] == debug
    assert summary["status"] == "stopped" and summary["calls"] == 1
    assert len(planned) == debug and scripted_server.steps() == ["autotos.succ"]


async def test_the_manual_provider_answers_an_autotos_run_in_the_tui(isolated: Path) -> None:  # noqa: F811
    """No model configured: the person is asked for the successor function and the goal test (the TUI's answer
    screen), and the run goes on with the answers through its unit tests."""
    from genplan.tui.screens.step import RequestScreen
    from genplan.tui.widgets.code_area import CodeArea

    def asked():
        """The answer screen, once mounted (its answer box has the focus): keys pressed earlier would dismiss it
        before it has set itself up."""
        screen = app.screen
        if not isinstance(screen, RequestScreen) or not screen.query("#answer-text"):
            return None
        return screen if app.focused is screen.query_one("#answer-text", CodeArea) else None

    domain = small_ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None), preset="AutoToS", eval_limit=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: asked() is not None, timeout=60, what="the question for succ")
        screen = asked()
        assert screen.manual and screen.request.step == "autotos.succ"
        assert "succ(state, objects)" in screen.request.messages[-1].content
        screen.query_one("#answer-text", CodeArea).load_text(FERRY)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: asked() is not None and asked() is not screen, timeout=60,
                       what="the question for the goal test")
        screen = asked()
        assert screen.manual and screen.request.step == "autotos.goal"
        screen.query_one("#answer-text", CodeArea).load_text(GOAL)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=120, what="the run to end")
        run_dir = app.runner.run_dir
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["status"], info["result"]["calls"]) == ("finished", 2)
        assert info["result"]["evaluation"]["solved"] == 2
        assert (run_dir / "versions" / "succ-1.answer.txt").read_text() == FERRY
        assert json.loads((run_dir / "responses" / "0002-autotos.goal.json").read_text())["response"]["text"] == GOAL


def test_the_release_only_solutions_of_an_import_are_shown_where_the_run_ends(tmp_path: Path) -> None:
    """An import that validates as the release did says how many of its solutions only that validation accepts:
    in the run's last event, which the TUI's timeline shows as the "run finished" row."""
    from genplan.engine.autotos.loop import Evaluation, Outcome
    from genplan.engine.autotos.session import outcome_text
    from genplan.engine.events import RunFinished
    from genplan.tui.run_state import RunState

    outcome = Outcome(calls=2, evaluation=Evaluation(solved=369, failed=133, release_only=12))
    text = outcome_text(outcome)
    assert text == "unit tests passed after 2 calls; 369/502 solved (12 of them by the release's validation only)"
    assert "release" not in outcome_text(Outcome(calls=2, evaluation=Evaluation(solved=3, failed=0)))
    state = RunState(tmp_path)
    state.apply(RunFinished(status="finished", outcome="passed", message=text, calls=2, seq=1, time=0.0))
    assert state.entries[-1].title == "run finished"
    assert "12 of them by the release's validation only" in state.entries[-1].detail


SHARED_LOG = (Path(__file__).resolve().parents[2] / "shared" / "autotos" / "clean_logs" / "24game" / "gpt4-val_logs"
              / "script_log_20240803_104248.txt")


@pytest.mark.skipif(not SHARED_LOG.is_file(), reason="needs ../shared/autotos (the AutoToS release's logs)")
def test_an_import_whose_search_runs_out_of_the_sandboxs_memory_says_so_and_names_memory(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    # 64 MiB, the least the sandbox allows: the goal test's search (genplan's, not the model's code) runs out
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-m", "genplan.cli.main", "import", "autotos", str(SHARED_LOG),
                           "--memory", "0.0625", "--eval-limit", "5", "--runs", str(tmp_path / "runs")],
                          capture_output=True, text=True, timeout=300, env=env)
    message = ("the sandboxed search ran out of memory (its limit: 0.0625 GiB); give it more: --memory GIB (genplan "
               "autotos, genplan import autotos, genplan run, genplan-tui; a run that ended here goes on with more: genplan "
               "run --resume RUN --memory GIB, or c on it in genplan-tui --memory GIB), memory_mb in a batch experiment's "
               "[evaluation]")
    assert done.returncode == 2 and f"genplan: {message}" in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    run_json = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    assert run_json["status"] == "failed" and run_json["error"] == f"SandboxOutOfMemory: {message}"


def test_a_run_out_of_memory_goes_on_with_resume_and_more_memory(tmp_path: Path) -> None:
    """genplan run --preset AutoToS --memory 0.0625: genplan's own search runs out of the sandbox's 64 MiB and the
    run fails, saying how to give it more; genplan run --resume RUN --memory 2 goes on with it (the answers on disk
    are not asked again) and run.json records the new limit. A pipeline run is told --memory is of no use to it."""
    from support.cli_process import genplan
    from support.held_lock import lock_held_elsewhere
    from support.scripted_server import ScriptedServer
    from support.small_ferry import small_ferry_copy
    from test_autotos_pddl import FERRY, FERRY_BOARD_KEEPS_EMPTY, GOAL

    domain = small_ferry_copy(tmp_path)
    with ScriptedServer() as server:
        server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
        server.on_step("autotos.goal", [GOAL])
        model = ["--model", server.model, "--base-url", server.base_url]
        first = genplan("run", str(domain), "--preset", "AutoToS", "--memory", "0.0625", "--out", str(tmp_path / "runs"),
                        *model, "--quiet", home=tmp_path)
        assert first.returncode == 2 and "ran out of memory (its limit: 0.0625 GiB)" in first.stderr, first.stderr
        assert "a run that ended here goes on with more: genplan run --resume RUN --memory GIB" in first.stderr
        (run_dir,) = (tmp_path / "runs").iterdir()
        assert json.loads((run_dir / "run.json").read_text())["status"] == "failed"
        asked = server.steps()
        # while another process runs it, a resume is refused and changes nothing of its record
        with lock_held_elsewhere(run_dir):
            refused = genplan("run", "--resume", str(run_dir), "--memory", "2", *model, "--quiet", home=tmp_path)
        assert refused.returncode == 2 and "already running" in refused.stderr, refused.stderr
        assert json.loads((run_dir / "run.json").read_text())["parameters"]["memory_gib"] == 0.0625

        resumed = genplan("run", "--resume", str(run_dir), "--memory", "2", *model, "--json", "--quiet", home=tmp_path)
        assert resumed.returncode == 0, resumed.stderr
        assert "not used" not in resumed.stderr
        assert json.loads(resumed.stdout)["status"] == "finished"
        assert server.steps() == [*asked, "autotos.succ"]  # only what came after the answers on disk
        info = json.loads((run_dir / "run.json").read_text())
        assert info["parameters"]["memory_gib"] == 2.0 and info["result"]["resumed"] == len(asked)

        too_little = genplan("run", "--resume", str(run_dir), "--memory", "0.01", home=tmp_path)
        assert too_little.returncode == 2 and "--memory must be at least 0.0625 GiB" in too_little.stderr
