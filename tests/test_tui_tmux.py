"""The real `genplan-tui` (the installed script, in a real terminal: tmux at 80x24) through the strategy-correction
story: a run whose first strategy was wrong is opened, that strategy is corrected by hand in the editor, and the
run continues from the edit to a run that solves every debug task. Keys go in with `send-keys`, and what the
screen shows is read back with `capture-pane`; the model is the scripted server in this process."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, record_run

from genplan.tui.replay import load_events
from genplan.tui.run_state import RunState

# Not `exclusive`: each worker has its own tmux server (SOCKET), every step waits for the screen (wait_until,
# replace_text's retries) rather than for a fixed time, and tests/test_tui_tmux_stories.py, driven the same way,
# ran beside the other tests in every whole-suite run since the suite went parallel.
SCRIPT = Path(sys.executable).parent / "genplan-tui"
SOCKET = f"genplan-test-{os.getpid()}"
SESSION = "story"


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise AssertionError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def screen() -> str:
    return tmux("capture-pane", "-p", "-t", SESSION)


def keys(*names: str, literal: bool = False) -> None:
    tmux("send-keys", "-t", SESSION, *(["-l"] if literal else []), *names)
    time.sleep(0.15)  # one key press at a time reaches the app as such


def wait_until(condition: Callable[[], object], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen()}")
        time.sleep(0.2)


def replace_text(text: str, old: str, new: str, tries: int = 3) -> None:
    """Select all (f7) in the editor and type ``text`` over it, until the screen shows ``new`` and no longer
    ``old``: on a loaded machine the typing may reach the editor before the selection does."""
    for _ in range(tries):
        keys("F7")
        time.sleep(0.3)
        keys(text, literal=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            shown = screen()
            if new in shown and old not in shown:
                return
            time.sleep(0.2)
    raise AssertionError(f"the editor did not take the new text; the screen:\n{screen()}")


@pytest.fixture
def terminal():
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the test drives genplan-tui in a real terminal through tmux")
    if not SCRIPT.is_file():
        pytest.skip(f"the genplan-tui script is not installed beside the interpreter ({SCRIPT})")
    yield
    subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True, timeout=30)


def test_correct_a_wrong_strategy_by_hand_at_80x24(terminal: None, tmp_path: Path) -> None:
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        first = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        plan_results = json.loads((first / "results" / "strategy-v01.json").read_text())
        assert [r["solved"] for r in plan_results].count(False) == 1  # the first strategy was wrong on one task
        asked_before = len(server.requests)
        state = RunState(first)
        for event in load_events(first):
            state.apply(event)
        row = next(i for i, e in enumerate(state.entries) if e.key == "art:strategy:v01")
        config = config_for(tmp_path, server)
        environment = {"XDG_CONFIG_HOME": str(tmp_path / "xdg-config"), "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
                       "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        command = " ".join([
            "env", *(f"{k}={shlex.quote(v)}" for k, v in environment.items()),
            shlex.quote(str(SCRIPT)), shlex.quote(str(domain)), "--config-file", shlex.quote(str(config)),
            "--run", first.name, "--no-cache",
        ])
        tmux("new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24", command)
        wait_until(lambda: "run finished" in screen() and "4 Run" in screen(), "the run to open")
        assert f"run {first.name}" in screen()
        keys("Home")
        for _ in range(row):
            keys("Down")
        keys("e")  # the wrong strategy in the editor
        wait_until(lambda: "Edit " in screen() and "strategy v01" in screen(), "the editor")
        wait_until(lambda: "(version 1)" in screen(), "the strategy as the model wrote it")
        # select all, then type the corrected strategy over it
        replace_text("1. for every car not at its goal: sail to it, board, sail, debark (version 7)", "(version 1)",
                     "(version 7)")
        keys("C-r")  # continue from here: prose is not parse-checked, so the run continues at once

        runs = domain / ".genplan" / "runs"

        def fork() -> Path | None:
            found = [p for p in runs.iterdir() if "forked_from" in json.loads((p / "run.json").read_text())]
            return found[0] if found else None

        wait_until(fork, "the continued run", timeout=60)
        forked = fork()
        assert forked is not None
        wait_until(lambda: json.loads((forked / "run.json").read_text())["status"] == "finished", "the run to finish",
                   timeout=120)
        wait_until(lambda: "run finished" in screen() and "6/6 passed" in screen(), "the finished run on screen")
        shown = screen()
        print(shown)  # the final screen, for the test log
        assert f"run {forked.name}" in shown and "fork of" in shown
        assert "debug results: program" in shown and "6/6 passed" in shown
        summary = json.loads((forked / "summary.json").read_text())
        assert summary["debug_solved"] == summary["debug_total"] == 6
        assert (forked / "strategies" / "v03.md").read_text().strip().endswith("(version 7)")  # its source calls it v03
        new_steps = [r.step for r in server.requests[asked_before:]]
        assert new_steps[:6] == ["strategy.plan"] * 6  # straight to validation of the corrected strategy
        assert "strategy.revise" not in new_steps  # it needed no more debugging
        keys("q")
