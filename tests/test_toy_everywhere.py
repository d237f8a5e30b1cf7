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
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, FERRY
from support.scripted_server import Reply, ScriptedServer
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

    def __init__(self, answer: str = f"Mine.\n\n```python\n{CORRECT_PROGRAM.strip()}\n```\n") -> None:
        self.seen: list[int] = []
        self.answer = answer

    def before_request(self, request_id: int, request: ChatRequest) -> api.Decision:
        self.seen.append(request_id)
        return api.Decision("answer", answer=self.answer)


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


def kinds(run_dir: Path) -> list[tuple[int, str]]:
    return [(event.seq, type(event).__name__) for event in run_events(run_dir)]


def test_a_resumed_run_logs_every_event_after_each_stop(toy: Approach, scripted_server: ScriptedServer,  # noqa: F811
                                                         tmp_path: Path) -> None:
    """The log of a run stopped twice and then carried to its end: the uninterrupted run's events, each stop's
    RunFinished where it came and each resume's RunResumed after it, numbered 1, 2, 3, ... (the first event after
    a stop was once dropped: it took the number the stop's RunFinished has in the log)."""
    toy_server(scripted_server)
    whole = [kind for _, kind in kinds(start_toy(scripted_server, tmp_path / "whole").run_dir)]
    stopped = start_toy(scripted_server, tmp_path / "runs", api.Watch(stop_requested=lambda: True))
    again = api.resume(stopped.run_dir, settings_for(scripted_server), api.Watch(stop_requested=lambda: True),
                       no_cache=True)
    assert again.status == "stopped"
    api.resume(stopped.run_dir, settings_for(scripted_server), no_cache=True)
    logged = kinds(stopped.run_dir)
    assert [seq for seq, _ in logged] == list(range(1, len(logged) + 1))
    assert [kind for _, kind in logged] == whole[:1] + ["RunFinished", "RunResumed", "RunFinished", "RunResumed"] + whole[1:]
    assert whole[1] == "RequestSent"


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


# ------------------------------------------------------ an approach with a loop of its own, registered by one module
# tests/support/guess_approach.py writes no programs and evaluates itself; nothing else names it. It goes through
# `genplan run` (start, resume), step mode, its replay, a fork from its edited plan, a batch, `genplan report` and
# the run overview: the same calls as every approach.
@pytest.fixture
def guess() -> Iterator[Approach]:
    from support.guess_approach import register_guess, unregister_guess

    yield register_guess()
    unregister_guess()


def ferry_plan() -> str:
    """A correct plan of ferry's first debug task (genplan's own search), as the model's answer."""
    from genplan.engine.api.domains import DomainDir
    from genplan.engine.api.pddl import load_domain, load_problem, solve

    directory = DomainDir.open(FERRY)
    domain = load_domain(directory.domain_file)
    result = solve(domain, load_problem(directory.debug_tasks()[0], domain), optimal=False, planner="builtin")
    assert result.plan, result
    return "Here is my plan:\n" + "\n".join(result.plan) + "\n"


def guess_server(server: ScriptedServer, answer: str) -> None:
    server.respond_with(lambda request: Reply.answer(answer))


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_an_approach_of_its_own_runs_resumes_and_evaluates_itself_through_genplan_run(
        guess: Approach, scripted_server: ScriptedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    guess_server(scripted_server, ferry_plan())
    model = ["--model", scripted_server.model, "--base-url", scripted_server.base_url, "--no-cache", "--quiet"]
    code, out, _ = cli(capsys, "run", str(FERRY), "--preset", "Guess", "--out", str(tmp_path / "runs"), "--eval",
                    "--json", *model)
    assert code == 0
    report = json.loads(out)
    run_dir = Path(report["run_dir"])
    assert run_dir.name.startswith("guess-") and report["status"] == "finished"
    assert report["self_evaluation"] == {"solved": 1, "tasks": 1}  # --eval reached its own evaluation
    assert json.loads((run_dir / "summary.json").read_text())["self_evaluation"] == {"solved": 1, "tasks": 1}
    assert api.overview(run_dir).outcome == "1/1 solved"  # listings read it as they read AutoToS's
    assert scripted_server.steps() == ["guess.plan"]

    # stopped before its call, then `genplan run --resume` carries it on through the same path
    stopped = api.start(api.StartRequest("Guess", str(FERRY), tmp_path / "more"), settings_for(scripted_server),
                        api.Watch(stop_requested=lambda: True), no_cache=True)
    assert stopped.status == "stopped" and len(scripted_server.requests) == 1
    code, out, err = cli(capsys, "run", "--resume", str(stopped.run_dir), "--json", "--memory", "4", *model)
    assert code == 0 and json.loads(out)["status"] == "finished" and len(scripted_server.requests) == 2
    assert "--memory: not used by guess" in err  # an option the run has no use for is named on a resume too
    # options it has no use for are named, not silently dropped
    code, _, err = cli(capsys, "run", str(FERRY), "--preset", "Guess", "--seed", "2", "--memory", "4", "--out",
                       str(tmp_path / "x"), *model)
    assert code == 0 and "--seed, --memory: not used by guess (preset Guess)" in err


def test_an_approach_of_its_own_steps_replays_and_forks(guess: Approach, scripted_server: ScriptedServer,
                                                         tmp_path: Path) -> None:
    guess_server(scripted_server, "I have no idea.\n")
    stepper = Stepper(ferry_plan())
    published: list[object] = []
    first = api.start(api.StartRequest("Guess", str(FERRY), tmp_path / "runs"), settings_for(scripted_server),
                      api.Watch(controller=stepper, subscriber=published.append), no_cache=True)
    assert stepper.seen == [1] and scripted_server.requests == []  # the person answered in step mode
    assert api.report(first).details["self_evaluation"] == {"solved": 1, "tasks": 1}
    replayed = run_events(first.run_dir)  # the log holds what was published but the live-only events
    live_only = ("TextDelta", "RequestPaused", "RequestRetry")
    assert [type(e) for e in replayed] == [type(e) for e in published if type(e).__name__ not in live_only]
    assert [e.file for e in replayed if isinstance(e, ArtifactCreated)] == ["plans/guess.txt"]

    # a person's edit of the plan: the fork takes it as the model's answer and checks it again (a broken plan)
    fork = api.fork(first.run_dir, "plans/guess.txt", "plan", "(nonsense)\n")
    carried = api.resume(fork, settings_for(scripted_server), no_cache=True)
    assert carried.status == "finished" and scripted_server.requests == []
    assert api.report(carried).details["self_evaluation"] == {"solved": 0, "tasks": 1}


def test_a_batch_runs_an_approach_of_its_own_and_reports_its_own_evaluation(
        guess: Approach, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from genplan.engine.batch import grid

    with ScriptedServer() as server:
        guess_server(server, ferry_plan())
        experiment = load_experiment(toy_experiment(tmp_path, server, preset="Guess"))
        (entry,) = grid(experiment)
        assert entry.approach == "guess" and entry.parameters == {"preset": "Guess", "evaluate": True}
        result = run_batch(experiment, tmp_path / "batch", no_cache=True)
    assert result.complete and result.ran == 1 and result.evaluated == 0  # no evaluation job: it evaluated itself
    (state,) = result.states
    assert state.evaluated and state.coverage == 1.0
    code, out, _ = cli(capsys, "report", str(tmp_path / "batch"), "--print", "json", "--no-files")
    assert code == 0 and "Guess" in out
