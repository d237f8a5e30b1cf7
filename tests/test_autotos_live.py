"""`genplan autotos` and `genplan run DOMAIN_DIR --preset AutoToS`: AutoToS with a model, through the approach
registry's entry. The model is the real ``openai`` client talking to a scripted OpenAI-compatible server on
127.0.0.1; its answers are a published AutoToS run's (../shared/autotos/clean_logs) or hand-written ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry
from test_autotos_pddl import FERRY, FERRY_BOARD_KEEPS_EMPTY, GOAL

# the ferry successor function, holding 200 MiB from its first call on (bytes(n) takes untouched zero pages: no time to fill)
FERRY_HUNGRY = FERRY.replace(
    "    out = []\n", "    out = []\n    succ.ballast = getattr(succ, 'ballast', None) or bytes(200 << 20)\n", 1)

from genplan.cli.main import main
from genplan.engine.autotos.logfile import parse_log
from genplan.engine.events import ChecksPassed, Event, FeedbackRound, RunFailed, TextDelta, UnknownEvent, read_log

ROOT = Path(__file__).resolve().parents[1]
AUTOTOS = ROOT.parent / "shared" / "autotos"
LOGS = AUTOTOS / "clean_logs"
# exception, soundness and five completeness rounds before both functions pass: 10 calls
LOG_24GAME = LOGS / "24game" / "gpt4-mini-val_logs" / "script_log_20240802_235031.txt"


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user config or response cache of the machine takes part."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path


def _model(server: ScriptedServer) -> list[str]:
    return ["--model", server.model, "--base-url", server.base_url, "--no-cache"]


def _events(run_dir: Path) -> list[Event]:
    """The run's typed events (every line one of engine/events.py's classes, none unknown)."""
    events = list(read_log((run_dir / "events.jsonl").read_text().splitlines()))
    assert not any(isinstance(e, UnknownEvent) for e in events)
    return events


def test_a_live_run_given_a_logged_runs_answers_takes_the_logs_calls(
        scripted_server: ScriptedServer, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not LOG_24GAME.is_file():
        pytest.skip(f"the AutoToS release is absent ({LOG_24GAME} not found beside the checkout)")
    log = parse_log(LOG_24GAME)
    assert log.partial_soundness and log.calls == 10
    scripted_server.enqueue(*[exchange.response for exchange in log.exchanges])
    code = main(["autotos", "24game", "--data", str(AUTOTOS), "--preset", "AutoToS+PST", *_model(scripted_server),
                 "--eval-limit", "30", "--runs", str(isolated / "runs"), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    result = json.loads(captured.out)
    # genplan's own unit tests asked for the same functions, as often, as the original run's did
    assert result["calls"] == log.calls == len(scripted_server.requests)
    assert scripted_server.steps() == [f"autotos.{exchange.target}" for exchange in log.exchanges]
    assert scripted_server.pending() == 0
    assert result["categories"] == {"succ exception": 2, "succ soundness": 1, "succ completeness": 5}
    assert (result["success"], result["failure"]) == (30, 0)
    # one conversation: every request carries the whole history (system prompt, then prompt / answer pairs)
    assert [len(r.messages) for r in scripted_server.requests] == [2 + 2 * k for k in range(log.calls)]
    assert scripted_server.requests[1].messages[2]["content"] == log.exchanges[0].response
    # the progress lines tell what happens, one per step
    assert "call 10: asking for succ" in captured.err and "completeness tests passed" in captured.err
    assert "evaluation: 30/30 instances searched, 30 solved" in captured.err
    run_dir = Path(result["run_dir"])
    info = json.loads((run_dir / "run.json").read_text())
    assert (info["approach"], info["preset"], info["live"], info["error"]) == ("autotos", "AutoToS+PST", True, None)
    assert info["config"]["partial_soundness"] is True and info["model"]["model"] == scripted_server.model
    assert info["source"] == {"data": str(AUTOTOS)}
    assert "api_key" not in info["model"]
    assert sorted(p.name for p in (run_dir / "versions").glob("*.py")) == [
        "goal-1.py", *(f"succ-{k}.py" for k in range(1, 10))]
    assert sum(isinstance(e, FeedbackRound) for e in _events(run_dir)) == 8


def test_genplan_run_with_an_autotos_preset_runs_the_pddl_family_end_to_end(
        scripted_server: ScriptedServer, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scripted_server.on_step("autotos.succ", [FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    ferry = small_ferry()  # its unit-test searches take seconds (tests/support/small_ferry.py)
    code = main(["run", str(ferry), "--preset", "autotos", *_model(scripted_server),
                 "--out", str(isolated / "runs")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]
    assert "succ(state, objects)" in scripted_server.requests[0].messages[-1]["content"]
    assert "calls: 2 (2 by the model)" in captured.out and "outcome: unit tests passed; no evaluation" in captured.out
    assert "0 evaluation instances" in captured.err  # without --eval no eval task is planned for
    (run_dir,) = (isolated / "runs").iterdir()
    assert run_dir.name.startswith("autotos-pddl-ferry-")
    info = json.loads((run_dir / "run.json").read_text())
    assert (info["preset"], info["source"]) == ("AutoToS", {"domain_dir": str(ferry.resolve())})
    assert info["result"]["rounds"] == [] and info["config"]["partial_soundness"] is False
    passed = [e.check for e in _events(run_dir) if isinstance(e, ChecksPassed)]
    assert passed == ["goal", "soundness", "completeness"]
    assert not (ferry / ".genplan" / "runs" / run_dir.name).exists()


def _one_line(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The one line on stderr (and what went to stdout)."""
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("genplan: "), captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0], captured.out


def test_a_bad_domain_name_is_one_line_and_exit_2(
        scripted_server: ScriptedServer, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["autotos", "24gmae", *_model(scripted_server), "--runs", str(isolated / "runs")])
    assert code == 2
    line, _ = _one_line(capsys)
    assert "24gmae: neither an AutoToS domain (24game, blocksworld, prontoqa, crossword, sokoban)" in line
    assert scripted_server.requests == [] and not (isolated / "runs").exists()


@pytest.mark.parametrize("argv,expected", [
    (["autotos", "24game", "--data", "/nonexistent/autotos"], "--data /nonexistent/autotos: no such directory"),
    (["autotos", "crossword"], "no instance generator for crossword; give --data DIR"),
    (["autotos", "24game", "--search-timeout", "0"], "--search-timeout must be a positive number of seconds"),
    (["autotos", "24game", "--generate", "0"], "--generate must be at least 1; got 0"),
    (["autotos", "24game", "--memory", "0.01"], "--memory must be at least 0.0625 GiB (64 MiB); got 0.01"),
    (["autotos", "docs"], "docs"),  # a directory, but no domain directory
    (["run", "domains/ferry", "--preset", "plangen"], "preset plangen belongs to plangen, which has its own command: "
                                                      "genplan pddlego --preset plangen"),
])
def test_user_errors_are_one_line_and_exit_2(scripted_server: ScriptedServer, isolated: Path,
                                             capsys: pytest.CaptureFixture[str], argv: list[str], expected: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    runs = ["--runs" if argv[0] == "autotos" else "--out", str(isolated / "runs")]
    assert main([*argv, *_model(scripted_server), *runs, "--quiet"]) == 2
    assert expected in _one_line(capsys)[0]
    assert scripted_server.requests == []


def test_an_endpoint_that_refuses_ends_the_run_in_one_line(
        scripted_server: ScriptedServer, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scripted_server.enqueue("```python\ndef successor_states(state):\n    return []\n```")  # then nothing: HTTP 400
    code = main(["autotos", "24game", *_model(scripted_server), "--runs", str(isolated / "runs"), "--json", "--quiet"])
    assert code == 2
    line, out = _one_line(capsys)
    assert line.startswith("genplan: the model could not be used:") and "HTTP 400" in line
    assert json.loads(out)["calls"] == 1  # the summary of what was done still goes to stdout
    (run_dir,) = (isolated / "runs").iterdir()
    info = json.loads((run_dir / "run.json").read_text())
    assert info["result"]["calls"] == 1 and "HTTP 400" in info["error"]
    last = _events(run_dir)[-1]
    assert isinstance(last, RunFailed) and "HTTP 400" in (last.error or "") and info["status"] == "failed"


@pytest.mark.parametrize("memory,calls", [("2", 2), ("0.25", 3)])
def test_memory_sets_the_sandboxed_tests_address_space(
        scripted_server: ScriptedServer, isolated: Path, capsys: pytest.CaptureFixture[str],
        memory: str, calls: int) -> None:
    scripted_server.on_step("autotos.succ", [FERRY_HUNGRY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    code = main(["autotos", str(small_ferry()), "--memory", memory, "--no-eval", *_model(scripted_server),
                 "--runs", str(isolated / "runs"), "--json", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert json.loads(captured.out)["calls"] == calls, scripted_server.requests[-1].messages[-1]["content"][:600]
    if calls == 3:  # in a quarter GiB the 200 MiB do not fit beside Python: the model hears of the MemoryError
        assert "MemoryError" in scripted_server.requests[2].messages[-1]["content"]


def _run(server: ScriptedServer, target: Path, runs: Path, eval_limit: int = 2, **hooks) -> dict:
    """An AutoToS run as a front end that shows it live starts it (hooks: the api.Watch's); its report."""
    from genplan.engine import api
    from genplan.engine.llm import ModelSettings

    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    request = api.StartRequest("AutoToS", str(target), runs, parameters={"evaluate": True, "eval_limit": eval_limit})
    return api.report(api.start(request, settings, api.Watch(**hooks), no_cache=True)).to_json()


def test_a_front_end_gets_the_run_directory_first_then_every_event_live(
        scripted_server: ScriptedServer, isolated: Path) -> None:
    """The TUI's hooks: the new run directory before the first event, then each event as the log gets it."""
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    seen: list[object] = []

    def subscriber(event: Event) -> None:
        if not event.LIVE_ONLY:
            logged = _events(run_dirs[0])  # the log has it already when a subscriber gets it
            assert logged and logged[-1].seq == event.seq
        seen.append(event)

    run_dirs: list[Path] = []
    summary = _run(scripted_server, small_ferry(), isolated / "runs",
                   subscriber=subscriber, run_created=lambda d: run_dirs.append(d) or seen.append(d),
                   stop_requested=lambda: False)
    assert summary["status"] == "finished" and (summary["success"], summary["failure"]) == (2, 0)
    assert seen[0] == run_dirs[0] == Path(summary["run_dir"])
    assert [e.seq for e in seen[1:] if not e.LIVE_ONLY] == [e.seq for e in _events(run_dirs[0])]
    # the answers stream in (live only: the log keeps the answer files instead)
    streamed = "".join(e.text for e in seen[1:] if isinstance(e, TextDelta) and e.request_id == 3)
    assert streamed == FERRY
    assert sum(isinstance(e, FeedbackRound) for e in seen) == 1


def test_a_stop_request_ends_the_run_before_the_next_model_call(
        scripted_server: ScriptedServer, isolated: Path) -> None:
    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    summary = _run(scripted_server, small_ferry(), isolated / "runs",
                   stop_requested=lambda: len(scripted_server.requests) >= 2)
    assert summary["status"] == "stopped" and summary["error"] is None and summary["calls"] == 2
    assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]  # the feedback round's call never went out
    run_dir = Path(summary["run_dir"])
    info = json.loads((run_dir / "run.json").read_text())
    assert info["status"] == "stopped" and info["result"]["halted"] is True
    last = _events(run_dir)[-1]
    assert last.type == "run.finished" and last.data["status"] == "stopped"
    assert not any(isinstance(e, RunFailed) for e in _events(run_dir))


def test_a_stop_request_during_the_evaluation_ends_the_run_between_chunks(
        scripted_server: ScriptedServer, isolated: Path) -> None:
    """A front end's stop acts during the evaluation too: between chunks of LIVE_EVAL_CHUNK searches."""
    from genplan.engine.autotos.live import LIVE_EVAL_CHUNK
    from genplan.engine.events import EvaluationProgress

    scripted_server.on_step("autotos.succ", [FERRY])
    scripted_server.on_step("autotos.goal", [GOAL])
    progress: list[EvaluationProgress] = []

    def subscriber(event: Event) -> None:
        if isinstance(event, EvaluationProgress):
            progress.append(event)

    summary = _run(scripted_server, small_ferry(), isolated / "runs", eval_limit=6,
                   subscriber=subscriber, stop_requested=lambda: bool(progress))
    assert summary["status"] == "stopped" and summary["calls"] == 2 and summary["success"] is None
    assert [(e.done, e.total) for e in progress] == [(LIVE_EVAL_CHUNK, 6)]  # one chunk searched, then the stop
    last = _events(Path(summary["run_dir"]))[-1]
    assert last.data["status"] == "stopped"
    assert last.data["message"] == f"stopped by the person after 2 calls (stopped during the evaluation, " \
                                   f"{LIVE_EVAL_CHUNK} of 6 instances searched)"
