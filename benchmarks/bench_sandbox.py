"""Sandbox benchmarks: per-run overhead against a fresh Python process per run, and evaluation throughput.

    .venv/bin/python benchmarks/bench_sandbox.py [--runs 200] [--skip-throughput]

1. Overhead: the same trivial program run N times (a) in the sandbox (fork server, every containment
   layer on) and (b) the naive way, one fresh `python` process per run that reads the program and the task
   from stdin, executes it and prints the result as JSON (no containment at all). Runs of (a) and (b) are
   interleaved so that both see the same machine load. Goal: (b) / (a) >= 10.
2. Throughput: a correct ferry program on every eval task of domains/ferry under 4 orderings, as
   `genplan eval` does it (tasks in parallel over the cores).

Prints figures and ratios; asserts nothing (timings depend on the machine and its load).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from genplan.engine.domainlib import DomainDir
from genplan.engine.evaluation import Evaluator, load_tasks
from genplan.engine.pddl import load_domain
from genplan.engine.sandbox import Limits, Program, Sandbox

try:
    import psutil
except ImportError:  # pragma: no cover - psutil is a dependency of genplan
    psutil = None

ROOT = Path(__file__).resolve().parents[1]

TRIVIAL = "def generate_solution(objects, init, goal):\n    return ['(sail l0 l1)']\n"
TASK = (["l0", "l1", "c0"], [("at-ferry", "l0"), ("at", "c0", "l0")], [("at", "c0", "l1")])

# The naive harness: one fresh interpreter per run, no isolation whatsoever.
FRESH_HARNESS = """
import json, sys
request = json.load(sys.stdin)
namespace = {"__name__": "program"}
exec(compile(request["source"], "<program>", "exec"), namespace)
to_tuple = lambda x: tuple(to_tuple(i) for i in x) if isinstance(x, list) else x
args = [set(map(to_tuple, request[k])) for k in ("objects", "init", "goal")]
print(json.dumps({"plan": namespace["generate_solution"](*args)}))
"""

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.ferry_model import CORRECT_PROGRAM as FERRY_SOLVER  # noqa: E402 - a correct ferry policy


def fresh_run(flags: list[str]) -> float:
    payload = json.dumps({"source": TRIVIAL, "objects": TASK[0], "init": TASK[1], "goal": TASK[2]})
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *flags, "-c", FRESH_HARNESS], input=payload, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if json.loads(done.stdout)["plan"] != ["(sail l0 l1)"]:
        raise RuntimeError("the fresh-process baseline failed")
    return elapsed


def sandbox_run(box: Sandbox, program: Program) -> float:
    started = time.perf_counter()
    outcome = box.run(program, TASK)
    elapsed = time.perf_counter() - started
    if outcome.plan != ["(sail l0 l1)"]:
        raise RuntimeError(f"the sandbox run failed: {outcome.kind} {outcome.detail}")
    return elapsed


def describe(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    return (
        f"median {statistics.median(ms):7.2f} ms  mean {statistics.fmean(ms):7.2f} ms  "
        f"p10 {ms[len(ms) // 10]:6.2f}  p90 {ms[9 * len(ms) // 10]:6.2f}"
    )


def _sandbox_cpu(box: Sandbox) -> float:
    """CPU seconds used so far by this process and the sandbox's servers with their reaped children."""
    own = os.times()
    total = own.user + own.system
    if psutil is None:
        return total
    for pid in box.process_ids():
        try:
            launcher = psutil.Process(pid)
            for proc in [launcher, *launcher.children(recursive=True)]:
                times = proc.cpu_times()
                total += times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            pass
    return total


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_overhead(runs: int, isolation: str) -> dict[str, float]:
    program = Program.from_source(TRIVIAL)
    with Sandbox(Limits(time_limit=10), isolation=isolation) as box:
        started = time.perf_counter()
        box.start([0])
        startup = time.perf_counter() - started
        print(f"  {box.layers_line()}")
        namespaced = box.describe()["servers"][0]["namespaced"]
        for _ in range(10):  # warm-up
            sandbox_run(box, program)
        ours, fresh, fresh_isolated = [], [], []
        for _ in range(runs):
            ours.append(sandbox_run(box, program))
            fresh.append(fresh_run([]))
            if len(fresh_isolated) < runs // 4:
                fresh_isolated.append(fresh_run(["-I", "-S"]))
        # CPU time per run (less sensitive to the machine's load than wall-clock time), measured apart.
        cpu_before = _sandbox_cpu(box)
        for _ in range(runs):
            sandbox_run(box, program)
        cpu_ours = (_sandbox_cpu(box) - cpu_before) / runs
    children_before = _children_cpu()
    own_before = sum(os.times()[:2])
    for _ in range(max(runs // 4, 1)):
        fresh_run([])
    cpu_fresh = (_children_cpu() - children_before + sum(os.times()[:2]) - own_before) / max(runs // 4, 1)
    label = f"sandbox ({'namespaces' if namespaced else 'plain'})"
    print(f"  server start-up (once): {startup * 1000:.0f} ms")
    print(f"  {label:<28} {describe(ours)}")
    print(f"  {'fresh python per run':<28} {describe(fresh)}")
    print(f"  {'fresh python -I -S per run':<28} {describe(fresh_isolated)}")
    ratio = statistics.median(fresh) / statistics.median(ours)
    ratio_isolated = statistics.median(fresh_isolated) / statistics.median(ours)
    print(f"  => wall-clock overhead ratio fresh/sandbox (medians): {ratio:.1f}x  (against python -I -S: {ratio_isolated:.1f}x)")
    print(
        f"  => CPU time per run (all processes involved): sandbox {cpu_ours * 1000:.2f} ms, fresh python "
        f"{cpu_fresh * 1000:.2f} ms: {cpu_fresh / cpu_ours:.1f}x"
    )
    return {"ratio": ratio, "ratio_isolated": ratio_isolated, "cpu_ratio": cpu_fresh / cpu_ours}


def bench_throughput(orderings: int, jobs: int) -> None:
    domain_dir = DomainDir.open(ROOT / "domains" / "ferry")
    started = time.perf_counter()
    domain = load_domain(domain_dir.domain_file)
    tasks = load_tasks(domain, domain_dir.eval_tasks(), domain_dir.typed_objects, root=domain_dir.path)
    loading = time.perf_counter() - started
    program = Program.from_source(FERRY_SOLVER)
    with Evaluator(domain, tasks, limits=Limits()) as evaluator:
        evaluator.sandbox.start(range(orderings))
        started = time.perf_counter()
        results = evaluator.evaluate(program, orderings=orderings, jobs=jobs)
        elapsed = time.perf_counter() - started
    runs = sum(len(r.orderings) for r in results)
    solved = sum(r.solved for r in results)
    actions = sum((r.plan_length or 0) * len(r.orderings) for r in results)
    print(f"  {len(tasks)} eval tasks x {orderings} orderings, {jobs} jobs: {solved}/{len(tasks)} solved")
    print(f"  evaluation {elapsed:.2f} s = {runs / elapsed:.1f} runs/s "
          f"({1000 * elapsed / runs:.1f} ms per run incl. validation of {actions} actions)")
    print(f"  (loading and encoding the task files, not part of the above: {loading:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--orderings", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--isolation", choices=["auto", "namespaces", "plain", "both"], default="both")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, Python {sys.version.split()[0]}")
    modes = ["namespaces", "plain"] if args.isolation == "both" else [args.isolation]
    for mode in modes:
        print(f"\n1. per-run overhead, trivial program, {args.runs} runs each, isolation={mode}")
        try:
            bench_overhead(args.runs, mode)
        except Exception as exc:  # noqa: BLE001 - e.g. namespaces not available on this machine
            print(f"  skipped: {exc}")
    if not args.skip_throughput:
        print("\n2. throughput: correct ferry program on domains/ferry/eval")
        bench_throughput(args.orderings, args.jobs)


if __name__ == "__main__":
    main()
