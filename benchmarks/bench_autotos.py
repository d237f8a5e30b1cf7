"""AutoToS search speed: the sandboxed search against the same functions and harness in-process.

    .venv/bin/python benchmarks/bench_autotos.py [--instances N] [--rounds R] [--chunk C]
    .venv/bin/python benchmarks/bench_autotos.py --log ../shared/autotos/clean_logs/sokoban/gpt4-val_logs/\
        script_log_20240802_123531.txt [--eval-limit N]

Both sides run the same harness code on the same requests (BFS over genplan-generated 24 Game puzzles, 1 s
per-call limit) with two correct successor functions: one that builds its successors as new lists, and one
that deep-copies the state for every successor, as many model answers do (copy.deepcopy is where the
sandbox's audit hook used to cost most: id() raises an audit event for every object it visits).

Two figures per round, sandboxed / in-process (the issue asks for at least 1.0):
- CPU: expanded nodes per CPU second spent in the harness (measured inside the sandboxed child, and around
  the harness call in-process), which a loaded machine hardly disturbs;
- wall: expanded nodes per second of the whole evaluation as a user waits for it (noisy under load).
Rounds alternate in-process and sandboxed; medians are reported.

With ``--log``, the workload is a published AutoToS log replayed as ``genplan import autotos`` does (its
answers, genplan's checks, the release's evaluation set; ``--eval-limit`` instances), once per side and
round, with the expansions of both sides printed beside the log's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from genplan.engine.autotos.executor import HARNESS_SOURCE, InProcessExecutor, SandboxExecutor
from genplan.engine.autotos.generators import generate_24game
from genplan.engine.autotos.loop import AutoToS, Settings
from genplan.engine.sandbox.program import Program

SUCC_LISTS = '''def successors(state):
    out = []
    n = len(state)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = state[i], state[j]
            rest = [state[k] for k in range(n) if k != i and k != j]
            values = [a + b, a - b, b - a, a * b]
            if b != 0:
                values.append(a / b)
            if a != 0:
                values.append(b / a)
            for v in values:
                out.append(rest + [v])
    return out
'''
SUCC_DEEPCOPY = '''import copy

def successors(state):
    out = []
    for i in range(len(state)):
        for j in range(len(state)):
            if i >= j:
                continue
            a, b = state[i], state[j]
            results = [a + b, a - b, b - a, a * b]
            if b != 0:
                results.append(a / b)
            if a != 0:
                results.append(b / a)
            for value in results:
                new_state = copy.deepcopy(state)
                del new_state[j]
                new_state[i] = value
                out.append(new_state)
    return out
'''
GOAL = "def is_goal(state):\n    return len(state) == 1 and abs(state[0] - 24) < 1e-6\n"
WORKLOADS = {"new lists": SUCC_LISTS, "deepcopy": SUCC_DEEPCOPY}

# Appended to the harness's source in the sandboxed child: the CPU time of each request, measured there.
CPU_PROBE = '''

_measured_generate_solution = generate_solution


def generate_solution(objects, init, goal):
    started = time.process_time()
    (text,) = _measured_generate_solution(objects, init, goal)
    answer = json.loads(text)
    answer["bench_cpu_seconds"] = time.process_time() - started
    return [json.dumps(answer)]
'''


class TimedInProcess(InProcessExecutor):
    cpu = 0.0

    def run(self, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        started = time.process_time()
        answer = super().run(request, time_limit)
        self.cpu += time.process_time() - started
        return answer


class TimedSandbox(SandboxExecutor):
    cpu = 0.0

    def __init__(self) -> None:
        super().__init__()
        self._program = Program.from_source(HARNESS_SOURCE + CPU_PROBE, functions=("generate_solution",))

    def run(self, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        answer = super().run(request, time_limit)
        self.cpu += float(answer.pop("bench_cpu_seconds", 0.0))
        return answer


def measure(executor: TimedInProcess | TimedSandbox, domain: Any, chunk: int, succ: str) -> tuple[float, float, int]:
    """(nodes per wall second, nodes per harness CPU second, nodes) of one evaluation."""
    loop = AutoToS(domain, lambda _t, _p: "", executor, Settings(eval_chunk=chunk))
    loop.functions = {"succ": type("F", (), {"source": succ, "name": "successors"})(),
                      "goal": type("F", (), {"source": GOAL, "name": "is_goal"})()}
    executor.cpu = 0.0
    started = time.perf_counter()
    result = loop.evaluate()
    seconds = time.perf_counter() - started
    assert result.failed == 0, result.reasons
    return result.expanded / seconds, result.expanded / max(executor.cpu, 1e-9), result.expanded


def replay(executor: TimedInProcess | TimedSandbox, log_path: Path, eval_limit: int | None) -> tuple[float, float, int]:
    """(nodes per wall second, nodes per harness CPU second, nodes) of one import of ``log_path``."""
    from genplan.engine.api.imports import open_autotos
    from genplan.engine.autotos.session import import_log, log_settings

    source = open_autotos(log_path)
    settings = log_settings(source.log, partial_soundness=source.partial_soundness, eval_limit=eval_limit)
    executor.cpu = 0.0
    with tempfile.TemporaryDirectory() as runs:
        started = time.perf_counter()
        summary = import_log(source.log, source.domain, executor, Path(runs), settings)
        seconds = time.perf_counter() - started
    nodes = int(summary["expanded"] or 0)
    print(f"  {type(executor).__name__}: {nodes} expanded, {summary['generated']} generated "
          f"(the log: {summary['log_expanded']}, {summary['log_generated']}), {seconds:.1f} s wall, "
          f"{executor.cpu:.1f} s harness CPU", flush=True)
    return nodes / seconds, nodes / max(executor.cpu, 1e-9), nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=64)
    parser.add_argument("--log", type=Path, help="a published AutoToS log to replay instead of the 24 Game workloads")
    parser.add_argument("--eval-limit", type=int, default=None, help="with --log: evaluate only the first N instances")
    args = parser.parse_args()
    domain = generate_24game(seed=7, unit_tests=1, evaluation=args.instances)
    inproc, sandboxed = TimedInProcess(), TimedSandbox()
    names = [args.log.name] if args.log else list(WORKLOADS)
    ratios: dict[str, dict[str, list[float]]] = {name: {"cpu": [], "wall": []} for name in names}
    try:
        measure(sandboxed, domain, args.chunk, SUCC_LISTS)  # start the fork server outside the measurement
        for round_ in range(args.rounds):
            for name in names:
                if args.log:
                    wall_a, cpu_a, nodes = replay(inproc, args.log, args.eval_limit)
                    wall_b, cpu_b, _ = replay(sandboxed, args.log, args.eval_limit)
                else:
                    wall_a, cpu_a, nodes = measure(inproc, domain, args.chunk, WORKLOADS[name])
                    wall_b, cpu_b, _ = measure(sandboxed, domain, args.chunk, WORKLOADS[name])
                ratios[name]["cpu"].append(cpu_b / cpu_a)
                ratios[name]["wall"].append(wall_b / wall_a)
                print(f"round {round_ + 1}, {name}: in-process {cpu_a:,.0f} nodes/CPU s ({wall_a:,.0f}/s wall), "
                      f"sandboxed {cpu_b:,.0f} nodes/CPU s ({wall_b:,.0f}/s wall), ratio CPU {cpu_b / cpu_a:.2f}, "
                      f"wall {wall_b / wall_a:.2f} ({nodes} nodes)", flush=True)
    finally:
        sandboxed.close()
    for name, figures in ratios.items():
        print(f"{name}: median ratio sandboxed/in-process: CPU {statistics.median(figures['cpu']):.2f}, "
              f"wall {statistics.median(figures['wall']):.2f} (target >= 1.0)")
    print(json.dumps({name: {kind: round(statistics.median(v), 3) for kind, v in figures.items()}
                      for name, figures in ratios.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
