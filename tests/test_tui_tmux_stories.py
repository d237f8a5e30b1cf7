"""Two people at 80x24 in a real terminal (tmux), on gripper — a domain the TUI's tests were not written
around — against a scripted model: a researcher who steps through a run, puts a request off and comes back to
it, and a teacher who replays a run in classroom mode. Each story reads the screen with ``capture-pane`` and fails
when what the person acts on is cut: a task's name, the run's state, the waiting hint, the replay's keys."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from support.ferry_model import BUGGY_PROGRAM, FerryModel, optimal_plans
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, record_run
from test_tui_tmux import SCRIPT, keys, screen, terminal, tmux, wait_until  # noqa: F401

from genplan.engine.runs.store import RunStore

GRIPPER = Path(__file__).resolve().parents[1] / "domains" / "gripper"
TASKS = [f"task-{n:02d}" for n in range(6)]


def gripper_copy(root: Path) -> Path:
    target = root / "gripper"
    shutil.copytree(GRIPPER, target, ignore=shutil.ignore_patterns(".genplan"))
    return target


def gripper_model() -> FerryModel:
    """Plans for gripper's own debug tasks (optimal, from the planner), the first one wrong once; a program that
    fails (the story is about reading the screen, not about solving gripper)."""
    return FerryModel(programs=[BUGGY_PROGRAM], plans=optimal_plans(GRIPPER), strategy_plan_mistakes=1)


def start(domain: Path, config: Path, tmp_path: Path, *extra: str) -> None:
    environment = {"XDG_CONFIG_HOME": str(tmp_path / "xdg-config"), "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
                   "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    command = " ".join(["env", *(f"{k}={v}" for k, v in environment.items()), str(SCRIPT), str(domain),
                        "--config-file", str(config), *extra])
    tmux("new-session", "-d", "-s", "story", "-x", "80", "-y", "24", command)


def totals_line() -> str:
    """The totals bar: the line above the footer (and above the message line, while one shows)."""
    lines = screen().rstrip("\n").split("\n")
    return next((line for line in reversed(lines) if line.startswith(("  watch ", "  step ", "  replay "))), "")


def footer() -> str:
    return screen().rstrip("\n").split("\n")[-1]


def test_a_researcher_steps_through_a_run_puts_a_request_off_and_comes_back(terminal: None,  # noqa: F811
                                                                             tmp_path: Path) -> None:
    domain = gripper_copy(tmp_path)
    with ScriptedServer() as server:
        server.respond_with(gripper_model())
        config = config_for(tmp_path, server)
        start(domain, config, tmp_path, "--no-cache", "--preset", "F5-3")
        wait_until(lambda: "1 Domain" in screen() and "(define (domain" in screen(), "the domain")
        keys("t")  # step mode: the run pauses before every request
        wait_until(lambda: " step " in totals_line(), "step mode")
        keys("r")
        wait_until(lambda: "paused before sending (step mode)" in screen(), "the first request")
        keys("Escape")  # not now: the run waits, and says so
        wait_until(lambda: "waiting for you (a)" in totals_line(), "the waiting hint in the totals")
        shown = totals_line()
        runs = RunStore.runs_dir(domain)
        (run,) = [p for p in runs.iterdir() if p.is_dir()]
        assert run.name in shown and "F5-3" in shown and server.model in shown, shown  # all of it, uncut
        # the footer's keys are drawn after the message line appears (on a loaded machine a moment later)
        wait_until(lambda: " a Answer " in footer(), "the answer key in the footer")
        assert footer().index(" a Answer ") < footer().index(" ? Help ")
        keys("a")  # back to the request
        wait_until(lambda: "paused before sending (step mode)" in screen(), "the request again")
        keys("w")  # send it and watch the rest
        wait_until(lambda: "run finished" in screen(), "the run to finish", timeout=180)
        keys("Home")
        time.sleep(0.5)
        # the timeline at 80 columns: every plan check of the strategy names its task and version
        found: set[str] = set()
        for _ in range(60):
            for line in screen().split("\n"):
                # whole ("✗ check strategy v01 task-00") or in short ("✗ task-00 v01"): never cut
                match = re.search(r"[✓✗◎⚡⧖≠∅‼] (?:check strategy (v\d\d) (task-\d\d)|(task-\d\d) (v\d\d))\b", line)
                if match:
                    found.add(match.group(2) or match.group(3))
            if found >= set(TASKS):
                break
            keys("PageDown")
        assert found >= set(TASKS), screen()
        keys("End")
        wait_until(lambda: " done " in totals_line() or " done·" in totals_line() or "done" in totals_line(),
                   "the state in the totals")
        shown = totals_line()
        print(screen())  # the final screen, for the test log
        assert "done" in shown and run.name in shown and "F5-3" in shown and server.model in shown, shown
        keys("q")


def test_a_teacher_replays_a_run_in_classroom_mode(terminal: None, tmp_path: Path) -> None:  # noqa: F811
    domain = gripper_copy(tmp_path)
    with ScriptedServer() as server:
        run = record_run(domain, server, gripper_model(), initial_programs=1)
        config = config_for(tmp_path, None)
    start(domain, config, tmp_path, "--replay", run.name, "--classroom", "--speed", "16")
    wait_until(lambda: "Next: NL description" in screen(), "the first stage's note")
    keys_shown = footer()
    for key, word in (("space", "Play"), (".", "Step"), (",", "Back"), ("n", "Next answer"), ("+", "Fast"),
                      ("-", "Slow")):  # paused at the stage: space plays on
        assert f" {key} {word} " in keys_shown, keys_shown  # the replay's keys, before anything else
    assert "replay (paused)" in totals_line() and run.name in totals_line()
    # on through the stages, up to the strategy's checks
    deadline = time.monotonic() + 120
    while "Next: Code candidates" not in screen() and time.monotonic() < deadline:
        if "replay (paused)" in totals_line():  # stopped at a stage (its note may wrap anywhere)
            keys("space")
        time.sleep(0.3)
    assert "Next: Code candidates" in screen(), screen()
    shown = screen()
    print(shown)
    checks = re.findall(r"[✓✗◎⚡⧖≠∅‼] (task-\d\d) (v\d\d)\b", shown)
    assert checks, shown  # the strategy's plan checks, each with its task and version on the screen
    assert not re.search(r"check strategy…", shown)
    # a step back: the note says what happened, in plain words
    keys(",")
    wait_until(lambda: "Event " in screen(), "the position note")
    note = next(line for line in screen().split("\n") if "Event " in line)
    assert not re.search(r"\b[a-z]+\.[a-z]+\b", note.split(":", 1)[1]), note  # no "step.started"
    keys("q")
