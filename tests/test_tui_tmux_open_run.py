"""A researcher at 80x24 in a real terminal (tmux) whose screens must name the right run, model and results all
along: a finished run of another model replayed, then a new run started with r, then a fork made in another
terminal (genplan run, edit and fork there) while the app is open, opened from the Runs panel. Every screen is read
with capture-pane."""

from __future__ import annotations

import re
from pathlib import Path

from support.cli_process import genplan
from support.ferry_model import CORRECT_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import recorded_ferry
from test_tui_tmux import keys, screen, terminal, wait_until  # noqa: F401
from test_tui_tmux_stories import start, totals_line

from genplan.engine.runs.store import RunStore


def results_line() -> str:
    return next((line for line in screen().split("\n") if line.startswith(" debug results")), "")


def test_every_screen_names_the_open_run_its_model_and_its_results(terminal: None, tmp_path: Path,  # noqa: F811
                                                                    buggy_then_fixed_ferry: Path) -> None:
    domain, recorded = recorded_ferry(buggy_then_fixed_ferry, tmp_path)
    recorded_model = RunStore(recorded).meta()["model"]["model"]
    with ScriptedServer() as server:
        server.respond_with(FerryModel())
        server.fixed_delay_s = 1.0  # the new run is still going on while its first screens are read
        config = tmp_path / "config.toml"
        config.write_text(f'[llm]\nmodel = "session-model"\nbase_url = "{server.base_url}"\n')
        start(domain, config, tmp_path, "--replay", recorded.name, "--speed", "64")
        # 1) the replay of a run another model made: its own model, never the session's
        wait_until(lambda: "replay" in totals_line() and recorded.name in totals_line(), "the replay")
        assert recorded_model in totals_line() and "session-model" not in totals_line(), totals_line()
        keys("4")
        wait_until(lambda: "6/6 passed" in results_line(), "the replayed run's results", timeout=120)
        # 2) r: a new run of the session's model; nothing of the replayed run's results or notes stays
        keys("r")
        wait_until(lambda: "running" in totals_line() and recorded.name not in totals_line(), "the new run")
        assert "session-model" in totals_line(), totals_line()
        assert "6/6 passed" not in results_line(), screen()
        keys("C-b")  # stop it
        wait_until(lambda: "stopped" in totals_line(), "the new run to stop", timeout=90)
        # 3) another terminal runs the domain with another model, edits its first program and forks from the edit
        server.fixed_delay_s = 0.0
        other = tmp_path / "other-terminal"
        model = ("--model", "fork-model", "--base-url", server.base_url)
        made = genplan("run", str(domain), *model, "--json", home=other, env={"OPENAI_API_KEY": "x"})
        assert made.returncode == 0, made.stderr
        source = Path(re.search(r'"run_dir": "([^"]+)"', made.stdout).group(1))  # type: ignore[union-attr]
        program = tmp_path / "fixed.py"
        program.write_text(CORRECT_PROGRAM)
        edited = genplan("edit", str(source), "programs/c1-v00.py", str(program), home=other)
        assert edited.returncode == 0, edited.stderr
        done = genplan("fork", str(source), "--from", edited.stdout.strip(), *model, "--json", home=other,
                       env={"OPENAI_API_KEY": "x"})
        assert done.returncode == 0, done.stderr
        fork = Path(re.search(r'"run_dir": "([^"]+)"', done.stdout).group(1))  # type: ignore[union-attr]
        # 4) the app, open all along, lists it finished; opened, every screen is the fork's
        keys("3")
        wait_until(lambda: fork.name in screen(), "the fork in the Runs panel", timeout=60)
        wait_until(lambda: "finished" in next((line for line in screen().split("\n") if fork.name in line), ""),
                   "the fork listed finished", timeout=60)
        keys("Home")  # the newest run first: the fork
        keys("Enter")
        wait_until(lambda: fork.name in totals_line() and "done" in totals_line(), "the fork open", timeout=60)
        assert "fork-model" in totals_line() and "session-model" not in totals_line(), totals_line()
        keys("4")
        wait_until(lambda: "passed" in results_line(), "the fork's results")
        assert "c1-v" in results_line(), results_line()
        keys("6")
        wait_until(lambda: "c1-v00" in screen() or "c1-v01" in screen(), "the fork's matrix")
        keys("q")
