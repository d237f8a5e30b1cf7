"""An AutoToS run and a PDDLego+ trial killed with SIGKILL mid-run and resumed (`genplan run --resume RUN`): every
answer on disk is taken from there, the scripted server's log shows that no request whose answer was kept is sent
again. The runs are real subprocesses of `genplan`, the model the real ``openai`` client against the scripted
server on 127.0.0.1."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.cli_process import genplan, isolated_env
from support.scripted_server import Reply, ScriptedServer
from support.small_ferry import small_ferry
from test_autotos_pddl import FERRY, FERRY_BOARD_KEEPS_EMPTY, GOAL
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY

from genplan.engine.events import RequestSent, ResponseReceived, read_log
from genplan.engine.pddlego.environment import java_available

# AutoToS on the ferry domain (the PDDL family): a successor function with a wrong next state (soundness fails),
# the same again, then a right one: four calls, each with the whole history
AUTOTOS_ANSWERS = {2: FERRY_BOARD_KEEPS_EMPTY, 4: GOAL, 6: FERRY_BOARD_KEEPS_EMPTY, 8: FERRY}
SLOW_S = 120.0  # the answer the killed process waits for (it never arrives there)


def _wait_for(condition, seconds: float = 180.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the run")
        time.sleep(0.05)


def _kill_while_waiting(argv: list[str], server: ScriptedServer, runs: Path, answered: int, home: Path) -> Path:
    """Start `genplan ARGV`, wait until ``answered`` answers are on disk and the next request reached the server
    (it gets a slow answer), kill -9 the process; the run directory."""
    proc = subprocess.Popen([sys.executable, "-m", "genplan.cli.main", *argv], env=isolated_env(home),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        _wait_for(lambda: len(list(runs.glob("*/responses/*.json"))) >= answered
                  and len(server.requests) > answered)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    (run_dir,) = [p for p in runs.iterdir() if (p / "run.json").exists()]
    assert len(list((run_dir / "responses").glob("*.json"))) == answered
    return run_dir


def test_an_autotos_run_killed_with_sigkill_resumes_without_asking_again(tmp_path: Path) -> None:
    killed = {"yes": False}

    def model(request) -> Reply:
        size = len(request.messages)
        if size == 6 and not killed["yes"]:
            return Reply.slow(AUTOTOS_ANSWERS[size], SLOW_S)  # the killed process waits for this one
        return Reply.answer(AUTOTOS_ANSWERS[size])

    with ScriptedServer() as server:
        server.respond_with(model)
        runs = tmp_path / "runs"
        run_dir = _kill_while_waiting(
            ["run", str(small_ferry()), "--preset", "AutoToS", "--model", server.model,
             "--base-url", server.base_url, "--no-cache", "--out", str(runs)], server, runs, 2, tmp_path)
        assert [len(r.messages) for r in server.requests] == [2, 4, 6]
        assert sorted(p.name for p in (run_dir / "requests").iterdir()) == [
            "0001-autotos.succ.json", "0002-autotos.goal.json", "0003-autotos.succ.json"]
        killed["yes"] = True
        server.clear()
        done = genplan("run", "--resume", str(run_dir), "--no-cache", "--json", home=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        # only the unanswered request and the one after it were sent: the two answers on disk were not asked again
        assert [len(r.messages) for r in server.requests] == [6, 8]
        assert server.steps() == ["autotos.succ", "autotos.succ"]
        summary = json.loads(done.stdout)
        assert summary["calls"] == 4 and summary["run_dir"] == str(run_dir)
        info = json.loads((run_dir / "run.json").read_text())
        assert info["status"] == "finished" and info["result"]["resumed"] == 2
        assert [r["category"] for r in info["result"]["rounds"]] == ["succ soundness", "succ soundness"]
        assert sorted(p.name for p in (run_dir / "versions").glob("*.py")) == [
            "goal-1.py", "succ-1.py", "succ-2.py", "succ-3.py"]
        # the log reads as one run: each request and answer once, in order
        events = list(read_log((run_dir / "events.jsonl").read_text().splitlines()))
        assert [e.request_id for e in events if isinstance(e, RequestSent)] == [1, 2, 3, 4]
        assert [e.file for e in events if isinstance(e, ResponseReceived)] == [
            "responses/0001-autotos.succ.md", "responses/0002-autotos.goal.md", "responses/0003-autotos.succ.md",
            "responses/0004-autotos.succ.md"]
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        # a finished run is not run again
        again = genplan("run", "--resume", str(run_dir), "--no-cache", home=tmp_path)
        assert again.returncode == 2 and "finished; nothing to resume" in again.stderr


@pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")
def test_a_pddlego_trial_killed_with_sigkill_resumes_without_asking_again(tmp_path: Path) -> None:
    killed = {"yes": False}
    answers = [TO_PANTRY, TO_BACKYARD]

    def model(request) -> Reply:
        index = len(server.requests) - 1 if not killed["yes"] else 1
        if index == 1 and not killed["yes"]:
            return Reply.slow(answers[1], SLOW_S)
        return Reply.answer(answers[index])

    with ScriptedServer() as server:
        server.respond_with(model)
        out = tmp_path / "trials"
        runs = out / "runs"
        run_dir = _kill_while_waiting(
            ["pddlego", "--preset", "pddlego-detailed", "--locations", "5", "--seeds", "1", "--model", server.model,
             "--base-url", server.base_url, "--no-cache", "--out", str(out)], server, runs, 1, tmp_path)
        first = [r.messages[-1]["content"] for r in server.requests]
        assert len(first) == 2
        killed["yes"] = True
        server.clear()
        done = genplan("run", "--resume", str(run_dir), "--base-url", server.base_url, "--no-cache", "--json",
                       home=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        # the first answer came from disk; only the request the killed process waited for was sent again
        assert [r.messages[-1]["content"] for r in server.requests] == first[1:]
        summary = json.loads(done.stdout)
        assert (summary["status"], summary["outcome"], summary["calls"]) == ("finished", "success", 2)
        trial = json.loads((run_dir / "trial.json").read_text())
        assert trial["resumed_responses"] == 1
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["status"], info["outcome"]) == ("finished", "success")
        events = list(read_log((run_dir / "events.jsonl").read_text().splitlines()))
        assert [e.request_id for e in events if isinstance(e, RequestSent)] == [1, 2]
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
