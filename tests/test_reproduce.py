"""`genplan reproduce` on the 7 shared domains against the scripted server: finishes, resumes after kill -9
without repeating a request, writes the tables (and the published comparison)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.scripted_server import RecordedRequest, Reply, ScriptedServer

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
BENCHMARKS = SHARED / "benchmarks"
PROGRAM = """Here is the program.

```python
def get_plan(objects, init, goal):
    return []

def generate_solution(objects, init, goal):
    return []
```
"""


def answer(request: RecordedRequest) -> Reply:
    if request.step and request.step.startswith(("baseline.code", "baseline.fix", "code.")):
        return Reply.answer(PROGRAM)
    return Reply.answer("1. Look at the goal.\n2. Reach it one object at a time.")


@pytest.fixture
def benchmarks() -> Path:
    if not BENCHMARKS.is_dir():
        pytest.skip(f"../shared/benchmarks not beside the checkout ({BENCHMARKS})")
    return BENCHMARKS


def reproduce(server: ScriptedServer, out: Path, home: Path, *extra: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENPLAN_", "OPENAI_"))}
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"))
    args = [sys.executable, "-m", "genplan.cli.main", "reproduce", str(BENCHMARKS), "--model", server.model,
            "--base-url", server.base_url, "--presets", "Sil", "--seeds", "1", "--out", str(out),
            "--eval-limit", "2", "--eval-timeout", "2", "--max-concurrent-runs", "2", "--planner-limits", "0",
            "--no-cache", *extra]
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)


@pytest.mark.exclusive  # killed with SIGKILL after a count of answers reached on the wall clock
def test_reproduce_finishes_resumes_after_kill_and_writes_tables(benchmarks: Path, tmp_path: Path) -> None:
    published = tmp_path / "published.csv"
    published.write_text("domain,preset,mean,best\nferry,Sil,80,100\nmiconic,Sil,1,\n")
    out = tmp_path / "grid"
    with ScriptedServer(fixed_delay_s=0.2) as server:
        server.respond_with(answer)
        first = reproduce(server, out, tmp_path)
        deadline = time.monotonic() + 120
        while len(list(out.glob("runs/**/responses/*.json"))) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.communicate()
        answered = len(list(out.glob("runs/**/responses/*.json")))
        sent_before = len(server.requests)
        assert 10 <= answered < 7 * 7  # killed in the middle of the grid
        second = reproduce(server, out, tmp_path, "--published", str(published))
        stdout, stderr = second.communicate(timeout=400)
        assert second.returncode == 0, stderr[-2000:]
        sent = len(server.requests)
    total = len(list(out.glob("runs/**/responses/*.json")))
    # only the requests without an answer on disk (in flight at the kill) went out again
    assert sent - sent_before == total - answered
    batch = json.loads((out / "batch.json").read_text())
    assert len(batch["entries"]) == 7 and all(e["run_status"] == "finished" for e in batch["entries"])
    assert len({e["domain"] for e in batch["entries"]}) == len([p for p in benchmarks.iterdir() if p.is_dir()]) == 7
    report = out / "report"
    for name in ("coverage.csv", "errors.csv", "budget.csv", "planner.csv", "published.csv", "report.md"):
        assert (report / name).is_file(), name
    rows = (report / "published.csv").read_text().splitlines()
    assert rows[0].startswith("domain,preset,model") and any(r.startswith("ferry,Sil,") and ",80" in r for r in rows)
    for entry in batch["entries"]:
        evaluation = json.loads((out / entry["run_dir"] / "evaluation.json").read_text())
        assert evaluation["time_limit"] == 2 and evaluation["orderings"] == 4 and evaluation["tasks"] == 2
    assert "coverage" in stdout.lower()


def test_bad_data_dir_is_one_line_exit_2(tmp_path: Path) -> None:
    from genplan.cli.main import main

    assert main(["reproduce", str(tmp_path), "--model", "m"]) == 2
    assert main(["reproduce", str(tmp_path / "missing"), "--model", "m"]) == 2
