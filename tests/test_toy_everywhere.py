"""One module registers an approach, and every front-end operation works on it with no edit elsewhere.

The toy approach of tests/test_approaches.py (ask once for a program, check it on the debug tasks, stop) is
registered by that file alone. Here it goes through the API the front ends use: a run, a run in step mode, a
stopped run resumed, its replay from the event log, a fork from an edited program, the report of a run and
``genplan report`` on a batch of it. (That file runs it through ``genplan run`` and a batch; test_approach_plugin
starts it from the TUI.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, FERRY
from support.scripted_server import ScriptedServer
from test_approaches import toy, toy_experiment, toy_server  # noqa: F401 (toy: the fixture registering the toy approach)

from genplan.cli.main import main
from genplan.engine import api
from genplan.engine.api.runs import run_events
from genplan.engine.api.settings import ModelSettings
from genplan.engine.approaches import Approach
from genplan.engine.batch import load_experiment, run_batch
from genplan.engine.events import ArtifactCreated, RunFinished, RunStarted
from genplan.engine.llm.types import ChatRequest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")


def settings_for(server: ScriptedServer) -> ModelSettings:
    return ModelSettings(model=server.model, base_url=server.base_url, temperature=0)


def start_toy(server: ScriptedServer, runs: Path, watch: api.Watch | None = None) -> api.RunOutcome:
    return api.start(api.StartRequest("Toy", str(FERRY), runs), settings_for(server), watch, no_cache=True)


def program_of(run_dir: Path) -> str:
    (program,) = sorted((run_dir / "programs").glob("*.py"))
    return program.relative_to(run_dir).as_posix()


def test_the_toy_runs_and_reports_through_the_api(toy: Approach, scripted_server: ScriptedServer,  # noqa: F811
                                                  tmp_path: Path) -> None:
    toy_server(scripted_server)
    outcome = start_toy(scripted_server, tmp_path / "runs")
    report = api.report(outcome).to_json()
    assert report["status"] == "finished" and api.message(outcome) == ""
    assert report["debug_solved"] == report["debug_total"] == 6
    assert scripted_server.steps() == ["code.generate"]


def test_the_toy_replays_from_its_event_log(toy: Approach, scripted_server: ScriptedServer,  # noqa: F811
                                            tmp_path: Path) -> None:
    toy_server(scripted_server)
    published: list[object] = []
    outcome = start_toy(scripted_server, tmp_path / "runs", api.Watch(subscriber=published.append))
    replayed = run_events(outcome.run_dir)
    # the log holds what was published live (but the live-only text deltas), in the same order
    assert [type(e) for e in replayed] == [type(e) for e in published if type(e).__name__ != "TextDelta"]
    assert isinstance(replayed[0], RunStarted) and isinstance(replayed[-1], RunFinished)
    assert [e.file for e in replayed if isinstance(e, ArtifactCreated)] == [program_of(outcome.run_dir)]


class Stepper:
    """Step mode: a person sees each request before it goes out and answers it themselves."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def before_request(self, request_id: int, request: ChatRequest) -> api.Decision:
        self.seen.append(request_id)
        return api.Decision("answer", answer=f"Mine.\n\n```python\n{CORRECT_PROGRAM.strip()}\n```\n")


def test_the_toy_runs_in_step_mode(toy: Approach, scripted_server: ScriptedServer, tmp_path: Path) -> None:  # noqa: F811
    toy_server(scripted_server)
    stepper = Stepper()
    outcome = start_toy(scripted_server, tmp_path / "runs", api.Watch(controller=stepper))
    assert outcome.status == "finished" and len(stepper.seen) == 1
    assert scripted_server.requests == []  # the person answered: nothing reached the model
    assert api.report(outcome).to_json()["debug_solved"] == 6


def test_a_stopped_toy_run_resumes(toy: Approach, scripted_server: ScriptedServer, tmp_path: Path) -> None:  # noqa: F811
    toy_server(scripted_server)
    stopped = start_toy(scripted_server, tmp_path / "runs", api.Watch(stop_requested=lambda: True))
    assert stopped.status == "stopped" and scripted_server.requests == []
    resumed = api.resume(stopped.run_dir, settings_for(scripted_server), no_cache=True)
    assert resumed.run_dir == stopped.run_dir and resumed.status == "finished"
    assert scripted_server.steps() == ["code.generate"]
    assert api.report(resumed).to_json()["debug_solved"] == 6


def test_the_toy_forks_from_an_edited_program(toy: Approach, scripted_server: ScriptedServer,  # noqa: F811
                                              tmp_path: Path) -> None:
    toy_server(scripted_server)
    first = start_toy(scripted_server, tmp_path / "runs")
    edited = "# edited by a person\n" + CORRECT_PROGRAM
    fork = api.fork(first.run_dir, program_of(first.run_dir), "program", edited)
    carried = api.resume(fork, settings_for(scripted_server), no_cache=True)
    assert carried.status == "finished" and carried.run_dir == fork != first.run_dir
    assert (fork / program_of(fork)).read_text(encoding="utf-8").startswith("# edited by a person")
    assert len(scripted_server.requests) == 1  # the fork took the edit as the model's answer: no new call


def test_genplan_report_reads_a_batch_of_the_toy(toy: Approach, tmp_path: Path,  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedServer() as server:
        toy_server(server)
        assert run_batch(load_experiment(toy_experiment(tmp_path, server)), tmp_path / "batch", no_cache=True).complete
    capsys.readouterr()
    assert main(["report", str(tmp_path / "batch"), "--print", "json", "--no-files"]) == 0
    tables = json.loads(capsys.readouterr().out)
    assert "Toy" in json.dumps(tables)  # the toy's preset has its rows, as every preset does
