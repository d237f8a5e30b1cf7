"""Make the old run directories of tests/data/runs/*-6a70564/ -- RUN WITH THE CODE OF COMMIT 6a70564.

These fixtures are run directories written by genplan as it was at commit 6a70564 (before the one ``Run``
context and the front-end API, engine/api.py), so that tests/test_old_runs.py can check that today's code still
opens, replays and resumes them. Every model answer in them comes from the scripted OpenAI-compatible server of
tests/support/scripted_server.py with synthetic answers written for the tests (FerryModel, the ferry successor /
goal functions of tests/test_autotos_pddl.py, the PDDL files of tests/test_pddlego_loop.py): none of it is model
output.

    git worktree add --detach ../wt-old6a70564 6a70564      # a checkout of that commit, with its own venv
    cd ../wt-old6a70564 && .venv/bin/python ../<this checkout>/tests/data/runs/make_old_runs.py OUT_DIR

It imports tests/support and the tests' answers from the checkout it is run in (the current directory) and
writes, under OUT_DIR:

- ``stein-6a70564/``: Stein's pipeline (preset F5-3) on domains/ferry, stopped by a step-mode controller after
  three answers (request ids 1, 3, 5; status "stopped"), made in-process as the TUI of that commit made runs;
- ``autotos-6a70564/``: ``genplan run domains/ferry --preset AutoToS`` (no evaluation), killed with SIGKILL
  while waiting for its 2nd answer (status "running", its process gone);
- ``pddlego-6a70564/``: ``genplan pddlego`` (CoinCollector, seed 1, 5 rooms), killed with SIGKILL while
  waiting for its 2nd answer (needs Java);
- ``import-6a70564/``: ``genplan import autotos`` of a synthetic PrOntoQA log written here (our own successor
  function and goal test, in the release's log format), evaluated on its first 2 instances (run.json's list of
  all instance names cut to those 2); it needs the AutoToS release's data folder (``../shared/autotos``) to run,
  none of which ends up in the run directory (a real log's import would hold that log's model answers, which
  must not be copied into the project);

each with the response cache off, the machine's paths and times as they were (tests copy them to tmp_path).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path.cwd()  # the checkout of commit 6a70564
sys.path.insert(0, str(ROOT / "tests"))

from support.ferry_model import FerryModel  # noqa: E402
from support.scripted_server import Reply, ScriptedServer  # noqa: E402
from test_autotos_pddl import FERRY_BOARD_KEEPS_EMPTY, GOAL  # noqa: E402
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY  # noqa: E402

SLOW_S = 600.0  # the answer a killed process waits for (it never arrives there)


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENPLAN_", "OPENAI_"))}
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"))
    return env


def _wait_for(condition, seconds: float = 300.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the run")
        time.sleep(0.05)


def _kill_while_waiting(argv: list[str], server: ScriptedServer, runs: Path, answered: int, home: Path) -> Path:
    """`genplan ARGV` killed with SIGKILL once ``answered`` answers are on disk and the next request is at the
    server (which answers it slowly); the run directory."""
    proc = subprocess.Popen([sys.executable, "-m", "genplan.cli.main", *argv], env=_env(home),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        _wait_for(lambda: len(list(runs.glob("*/responses/*.json"))) >= answered and len(server.requests) > answered)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    (run_dir,) = [p for p in runs.iterdir() if (p / "run.json").exists()]
    return run_dir


def make_stein(out: Path, work: Path) -> None:
    from genplan.engine.approaches import get_approach  # noqa: F401  (registers the approaches)
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.llm import ModelSettings, OpenAIProvider
    from genplan.engine.pipeline.config import load_preset
    from genplan.engine.pipeline.gateway import Decision
    from genplan.engine.runs import make_pipeline, start_run

    class StopBeforeFourth:
        """Step mode that sends the requests up to id 5 and stops the run at the next one."""

        def before_request(self, request_id, request):  # type: ignore[no-untyped-def]
            return Decision.send() if request_id <= 5 else Decision.stop()

    with ScriptedServer() as server:
        server.respond_with(FerryModel())
        settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005)
        domain_dir = DomainDir.open(ROOT / "domains" / "ferry")
        config = load_preset("F5-3")
        store = start_run(work / "stein", domain_dir, config, settings.to_dict(), source="make_old_runs",
                          run_id="stein-6a70564")
        result = make_pipeline(store, domain_dir, config, OpenAIProvider(settings),
                               controller=StopBeforeFourth()).run()
        print(f"stein: {result.status}, {len(server.requests)} requests", file=sys.stderr)
    shutil.copytree(store.path, out / "stein-6a70564")


def make_autotos(out: Path, work: Path) -> None:
    answers = {2: FERRY_BOARD_KEEPS_EMPTY, 4: GOAL}

    def model(request):  # type: ignore[no-untyped-def]
        size = len(request.messages)
        return Reply.slow(answers[size], SLOW_S) if size == 4 else Reply.answer(answers[size])

    runs = work / "autotos"
    with ScriptedServer() as server:
        server.respond_with(model)
        run_dir = _kill_while_waiting(
            ["run", str(ROOT / "domains" / "ferry"), "--preset", "AutoToS", "--model", server.model,
             "--base-url", server.base_url, "--no-cache", "--out", str(runs)], server, runs, 1, work)
    print(f"autotos: {run_dir.name} killed", file=sys.stderr)
    shutil.copytree(run_dir, out / "autotos-6a70564")


def make_pddlego(out: Path, work: Path) -> None:
    from genplan.engine.pddlego.environment import java_available

    if not java_available():
        print("pddlego: no Java runtime; not made", file=sys.stderr)
        return

    def model(request):  # type: ignore[no-untyped-def]
        return Reply.answer(TO_PANTRY) if len(server.requests) == 1 else Reply.slow(TO_BACKYARD, SLOW_S)

    trials = work / "pddlego"
    with ScriptedServer() as server:
        server.respond_with(model)
        run_dir = _kill_while_waiting(
            ["pddlego", "--preset", "pddlego-detailed", "--locations", "5", "--seeds", "1", "--model", server.model,
             "--base-url", server.base_url, "--no-cache", "--out", str(trials)], server, trials / "runs", 1, work)
    print(f"pddlego: {run_dir.name} killed", file=sys.stderr)
    shutil.copytree(run_dir, out / "pddlego-6a70564")


# A log in the AutoToS release's format (engine/autotos/logfile.py), written for these fixtures: the prompts are
# placeholders (the import asks genplan's own), the answers our own PrOntoQA successor function and goal test.
SYNTHETIC_LOG = """AutoToS prompt:
(a placeholder for the successor-function prompt; synthetic log for genplan's tests)

Model response:
```python
def successor(state, rules):
    successors = []
    for premise, conclusion in rules:
        if premise in state and conclusion not in state:
            successors.append(set(state) | {conclusion})
    return successors
```

AutoToS prompt:
(a placeholder for the goal-test prompt)

Model response:
```python
def is_goal_state(state, target_fact):
    return target_fact in state
```

System message:
Goal Soundness Test Passed
Soundness test

System message:
Successor States Soundness Test Passed
Completeness test
Successor Completeness Test Passed
Success: 2, failure: 0
"""


def make_import(out: Path, work: Path) -> None:
    data = ROOT.parent / "shared" / "autotos"
    if not (data / "prontoqa").is_dir():
        print(f"import: no AutoToS data folder at {data}; not made", file=sys.stderr)
        return
    log = work / "clean_logs" / "prontoqa" / "synthetic-val_logs" / "synthetic_log.txt"
    log.parent.mkdir(parents=True)
    log.write_text(SYNTHETIC_LOG, encoding="utf-8")
    runs = work / "imports"
    done = subprocess.run([sys.executable, "-m", "genplan.cli.main", "import", "autotos", str(log), "--data", str(data),
                           "--runs", str(runs), "--eval-limit", "2", "--quiet"], env=_env(work),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"import: {done.stderr[-2000:]}")
    (run_dir,) = [p for p in runs.iterdir() if (p / "run.json").exists()]
    print(f"import: {run_dir.name}", file=sys.stderr)
    target = out / "import-6a70564"
    shutil.copytree(run_dir, target)
    # the one change to what 6a70564 wrote: run.json's list of all 4000 PrOntoQA instance names (80 KB) is cut to
    # the two evaluated ones
    meta = json.loads((target / "run.json").read_text(encoding="utf-8"))
    meta["eval_instances"] = meta["eval_instances"][:2]
    (target / "run.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    kinds = sys.argv[2:] or ["stein", "autotos", "pddlego", "import"]
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            globals()[f"make_{kind}"](out, Path(tmp))


if __name__ == "__main__":
    main()
