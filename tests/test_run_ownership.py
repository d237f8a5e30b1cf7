"""One process at a time works on a run directory, and a run whose process died is not 'running' forever."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.cli_process import genplan, isolated_env
from support.ferry_model import FERRY, FerryModel
from support.scripted_server import ScriptedServer

from genplan.engine.runs.lock import RunBusy, RunLock, owner, owner_alive
from genplan.engine.runs.store import RunStore


def test_the_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    with RunLock(tmp_path):
        with pytest.raises(RunBusy, match=rf"already running \(pid {os.getpid()}\)"):
            RunLock(tmp_path).acquire()
    with RunLock(tmp_path):  # released: taken again
        pass


def test_the_owner_is_recognised_and_a_dead_one_is_not() -> None:
    assert owner_alive(owner()) is True
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert owner_alive({"pid": int(dead.stdout), "pid_started": 1.0}) is False
    assert owner_alive({"pid": os.getpid(), "pid_started": 1.0}) is False  # same pid, another process
    assert owner_alive({}) is None  # written by an older genplan: unknown


def test_a_second_resume_is_refused_and_a_killed_run_is_interrupted_then_resumes(tmp_path: Path) -> None:
    with ScriptedServer(fixed_delay_s=1.5) as server:  # slow enough that the first run is still going
        server.respond_with(FerryModel())
        out = tmp_path / "runs"
        first = subprocess.Popen(
            [sys.executable, "-m", "genplan.cli.main", "run", str(FERRY), "--model", server.model,
             "--base-url", server.base_url, "--out", str(out), "--no-cache", "--quiet"],
            env=isolated_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while len(list(out.glob("*/responses/*.json"))) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        run_dir = next(out.iterdir())
        asked = len(server.requests)

        second = genplan("run", "--resume", str(run_dir), "--no-cache", "--quiet", home=tmp_path)
        assert second.returncode == 2
        assert second.stderr.strip().splitlines() == [f"genplan: {run_dir}: already running (pid {first.pid}); "
                                                      "wait for it or stop it first"]
        assert RunStore.open(run_dir).meta()["status"] == "running"  # its owner lives
        time.sleep(0.5)
        assert len(server.requests) >= asked  # the first went on; the second sent nothing of its own
        seqs = [json.loads(line)["seq"] for line in (run_dir / "events.jsonl").read_text().splitlines()]
        assert seqs == sorted(set(seqs))  # no event number twice

        first.send_signal(signal.SIGKILL)
        first.wait()
        assert [r.status for r in RunStore.list_runs_in(out)] == ["interrupted"]
        assert json.loads((run_dir / "run.json").read_text())["status"] == "interrupted"

        done = genplan("run", "--resume", str(run_dir), "--json", "--no-cache", home=tmp_path)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["debug_solved"] == 6
        assert json.loads((run_dir / "run.json").read_text())["status"] == "finished"
