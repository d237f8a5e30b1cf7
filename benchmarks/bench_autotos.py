"""AutoToS search speed: the sandboxed search against the same functions and harness in-process.

    .venv/bin/python benchmarks/bench_autotos.py [--instances N] [--rounds R]

Both sides run the same harness code on the same request (BFS over genplan-generated 24 Game puzzles
with a correct successor function and goal test, 1 s per-call limit); the figure is expanded nodes per
second, sandboxed / in-process (the issue asks for at least 0.8). Alternating rounds, median reported.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from genplan.engine.autotos.executor import InProcessExecutor, SandboxExecutor
from genplan.engine.autotos.generators import generate_24game
from genplan.engine.autotos.loop import AutoToS, Settings

SUCC = '''def successors(state):
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
GOAL = "def is_goal(state):\n    return len(state) == 1 and abs(state[0] - 24) < 1e-6\n"


def measure(executor, domain, chunk: int) -> tuple[float, int]:
    loop = AutoToS(domain, lambda _t, _p: "", executor, Settings(eval_chunk=chunk))
    loop.functions = {"succ": type("F", (), {"source": SUCC, "name": "successors"})(),
                      "goal": type("F", (), {"source": GOAL, "name": "is_goal"})()}
    started = time.perf_counter()
    result = loop.evaluate()
    seconds = time.perf_counter() - started
    assert result.failed == 0, result.reasons
    return result.expanded / seconds, result.expanded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=64)
    args = parser.parse_args()
    domain = generate_24game(seed=7, unit_tests=1, evaluation=args.instances)
    inproc, sandboxed = InProcessExecutor(), SandboxExecutor()
    try:
        measure(sandboxed, domain, args.chunk)  # start the fork server outside the measurement
        ratios = []
        for round_ in range(args.rounds):
            a, nodes = measure(inproc, domain, args.chunk)
            b, _ = measure(sandboxed, domain, args.chunk)
            ratios.append(b / a)
            print(f"round {round_ + 1}: in-process {a:,.0f} nodes/s, sandboxed {b:,.0f} nodes/s, "
                  f"ratio {b / a:.2f} ({nodes} nodes)", flush=True)
    finally:
        sandboxed.close()
    print(f"median ratio sandboxed/in-process: {statistics.median(ratios):.2f} (target >= 0.8)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
