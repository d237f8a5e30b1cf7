"""The real `genplan-tui` at 80x24 (tmux) through a strategy correction that needs two tries: a first correction
was saved earlier (`genplan edit`, as a researcher scripts it), the person opens the run, edits that edit and
continues from it in step mode; the run waits for them, and then finishes on the second correction. Keys go in
with `send-keys`, the screen is read with `capture-pane`; the test fails when the run's state, the waiting
hint or a task's name is cut off the screen."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, record_run
from test_tui_tmux import SCRIPT, SESSION, keys, replace_text, screen, terminal, tmux, wait_until  # noqa: F401

from genplan.engine.api import edit

FIRST = "1. for every car not at its goal: sail to it, board, sail to its goal, debark (version 2)\n"
SECOND = "1. for every car not at its goal: sail there, board, sail on, debark (version 7)\n"



def _fork(runs: Path) -> Path | None:
    # a run directory being made has no run.json for a moment (a fork copies its source's files first)
    found = [p for p in runs.iterdir()
             if (p / "run.json").is_file() and "forked_from" in json.loads((p / "run.json").read_text())]
    return found[0] if found else None


def test_an_edit_of_an_edit_continued_at_80x24(terminal: None, tmp_path: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        first = edit(source, "strategies/v01.md", FIRST, origin="cli")  # the earlier correction: v03
        assert first is not None and first.file == "strategies/v03.md"
        debug_tasks = sorted(p.stem for p in (domain / "debug").glob("*.pddl"))
        asked_before = len(server.requests)
        config = config_for(tmp_path, server)
        environment = {"XDG_CONFIG_HOME": str(tmp_path / "xdg-config"), "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
                       "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        command = " ".join([
            "env", *(f"{k}={shlex.quote(v)}" for k, v in environment.items()),
            shlex.quote(str(SCRIPT)), shlex.quote(str(domain)), "--config-file", shlex.quote(str(config)),
            "--run", source.name, "--no-cache", "--step",
        ])
        tmux("new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24", command)
        wait_until(lambda: "run finished" in screen() and "4 Run" in screen(), "the run to open")
        # the earlier correction is the timeline's newest row, with its ✎ mark
        keys("End")
        wait_until(lambda: re.search(r"✎ (edited )?strategy v01 → v03", screen()), "the edit's row in the timeline")
        keys("e")  # edit the edit (v03)
        wait_until(lambda: "Edit " in screen() and "strategy v03" in screen(), "the editor on v03")
        wait_until(lambda: "(version 2)" in screen(), "the first correction's text")
        replace_text(SECOND.strip(), "(version 2)", "(version 7)")
        keys("C-r")  # saved as v04 (an edit of v03) and continued from, in step mode

        runs = domain / ".genplan" / "runs"
        wait_until(lambda: _fork(runs), "the continued run", timeout=60)
        forked = _fork(runs)
        assert forked is not None
        wait_until(lambda: "strategy.plan" in screen(), "the first held request")
        keys("Escape")  # later: the run waits for the person
        wait_until(lambda: "waiting for you (a)" in screen(), "the waiting hint in the bar")
        # the timeline follows within a tick (its rows are drawn at most every 0.25 s), scrolled to the held row
        wait_until(lambda: re.search(r"strategy\.plan task-\d\d v04 +paused", screen()),
                   "the held request's row, naming its task, in view", timeout=15)
        waiting = screen()
        print(waiting)
        assert f"run {forked.name}" in waiting  # which run waits
        assert re.search(r"✎ (edited )?strategy v03 → v04", waiting), "the edit's row in the fork's timeline"
        keys("a")
        wait_until(lambda: "strategy.plan" in screen(), "the request again")
        keys("w")  # watch: send this and every later request
        wait_until(lambda: json.loads((forked / "run.json").read_text())["status"] == "finished", "the run to finish",
                   timeout=120)
        wait_until(lambda: "run finished" in screen(), "the finished run on screen")
        finished = screen()
        print(finished)
        assert f"run {forked.name}" in finished and "run finished" in finished
        # the timeline's check rows name their task
        checks = re.findall(r"check program c1-v\d\d (task-\d\d) +pass", finished)
        assert checks and set(checks) <= set(debug_tasks), f"no check row names its task:\n{finished}"
        keys("q")
    assert (forked / "strategies/v04.md").read_text().strip() == SECOND.strip()
    assert (source / "strategies/v04.md").read_text().strip() == SECOND.strip()
    new = server.requests[asked_before:]
    plans = [r for r in new if r.step == "strategy.plan"]
    assert plans and all("(version 7)" in r.messages[-1]["content"] for r in plans)
    assert "strategy.generate" not in [r.step for r in new]
