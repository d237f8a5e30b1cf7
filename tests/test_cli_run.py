"""`genplan run` as a user runs it: a subprocess against the scripted server, JSON summary, resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from support.cli_process import genplan
from support.ferry_model import CLEAN_RUN_CALLS, FERRY, FerryModel
from support.scripted_server import ScriptedServer


def test_run_json_summary_and_resume(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel())
    args = ["run", str(FERRY), "--model", scripted_server.model, "--base-url", scripted_server.base_url]
    done = genplan(*args, "--out", str(tmp_path / "runs"), "--json", "--eval", home=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    for key in ("run_dir", "selected_program", "debug_solved", "debug_total", "strategy_versions",
                "programs_generated", "llm_calls", "cache_hits", "tokens_in", "tokens_out", "wall_seconds"):
        assert key in summary
    assert summary["debug_solved"] == summary["debug_total"] == 6
    assert summary["eval_coverage"] == 1.0  # the synthetic program is a correct ferry policy
    assert summary["llm_calls"] == len(scripted_server.requests)
    assert Path(summary["selected_program"]).exists()
    assert "== strategy-validation" in done.stderr  # the progress display
    assert done.stderr.count("sandbox layers: ") == 1 and "seccomp" in done.stderr  # once per run
    # the key never lands in the run directory
    assert "api_key" not in (Path(summary["run_dir"]) / "run.json").read_text().replace("api_key_env", "")
    # resuming a finished run says so, sends nothing and changes nothing (tests/test_resume_guard.py)
    before = len(scripted_server.requests)
    record = (Path(summary["run_dir"]) / "summary.json").read_bytes()
    again = genplan("run", "--resume", summary["run_dir"], "--json", home=tmp_path)
    assert again.returncode == 2 and "finished; nothing to resume" in again.stderr, again.stderr
    assert len(scripted_server.requests) == before
    assert (Path(summary["run_dir"]) / "summary.json").read_bytes() == record


def test_run_bad_input_is_one_line(tmp_path: Path) -> None:
    bad = genplan("run", str(tmp_path / "missing"), home=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    preset = genplan("run", str(FERRY), "--preset", "F9-9", home=tmp_path)
    assert preset.returncode == 2 and "unknown preset 'F9-9'" in preset.stderr
    nomodel = genplan("run", str(FERRY), home=tmp_path)
    assert nomodel.returncode == 2 and "no model configured" in nomodel.stderr


def test_authentication_error_stops_the_run_at_once(tmp_path: Path) -> None:
    with ScriptedServer(api_key="the-right-key") as server:
        server.respond_with(FerryModel())
        env_key = "GENPLAN_TEST_KEY"
        os.environ[env_key] = "a-wrong-key"
        try:
            done = genplan(
                "run", str(FERRY), "--model", server.model, "--base-url", server.base_url,
                "--api-key-env", env_key, "--out", str(tmp_path / "runs"), home=tmp_path,
            )
        finally:
            del os.environ[env_key]
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert len(server.requests) == 1  # not retried
        assert env_key in done.stderr.splitlines()[-1]


def test_kill_9_then_resume_repeats_no_request(tmp_path: Path) -> None:
    import signal
    import time

    with ScriptedServer(fixed_delay_s=0.3) as server:
        model = FerryModel()
        server.respond_with(model)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GENPLAN_", "OPENAI_"))}
        env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"))
        out = tmp_path / "runs"
        proc = subprocess.Popen(
            [sys.executable, "-m", "genplan.cli.main", "run", str(FERRY), "--model", server.model,
             "--base-url", server.base_url, "--out", str(out), "--no-cache", "--quiet"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while len(list(out.glob("*/responses/*.json"))) < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        run_dir = next(out.iterdir())
        answered = {p.name for p in (run_dir / "responses").glob("*.json")}
        assert 8 <= len(answered) < CLEAN_RUN_CALLS
        server.wait_until_quiet()  # what the killed process had sent is not counted as the resume's
        server.clear()
        model.seen.clear()
        done = genplan("run", "--resume", str(run_dir), "--json", "--no-cache", home=tmp_path)
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["debug_solved"] == 6
        # every answer on disk was reused, and only the missing ones were asked (a clean run asks CLEAN_RUN_CALLS)
        assert summary["resumed_responses"] == len(answered)
        assert len(server.requests) == CLEAN_RUN_CALLS - len(answered), (server.steps(), sorted(answered))
