"""Benchmark: solve the 42 debug tasks of ../shared (instance-0..5 of the 7 domains) optimally.

Prints the time per task (the whole Fast Downward run: translation and search), as wall-clock seconds
and as CPU seconds of the planner processes (steadier on a busy machine), whether the plan length equals
the reference optimal length (plans_pddl), the maximum and the total, and the ratio of each time to the
goal of 5 s per task. Figures only, nothing is asserted.

By default it runs the planner as genplan does (`genplan.engine.planner.solve`, optimal). `--search`
runs Fast Downward with another search configuration on the same translated files, to compare
configurations, e.g. plain A* + LM-cut (which needs minutes on spanner instance-2):

    .venv/bin/python benchmarks/bench_planner.py [--timeout 30] [--domains spanner] [--search "astar(...)"]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.plans import parse_plan_text
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl
from genplan.engine.planner import fast_downward_driver, solve

GOAL_SECONDS = 5.0
DOMAINS = ["delivery", "ferry", "gripper", "heavy", "hiking", "miconic", "spanner"]

# A*+LM-cut cannot see that spanner's nuts each need their own spanner (delete relaxation); merge-and-shrink
# with exact bisimulation can. The max of both stays admissible; M&S construction is capped by its own limits.
PROPOSED_SEARCH = "astar(lmcut())"  # the plain LM-cut search, for comparison with the default


def reference_length(plan_file: Path) -> int:
    return sum(1 for line in plan_file.read_text().splitlines() if line.strip().startswith("("))


def run_custom(driver: Path, domain, problem, search: str, timeout: float) -> tuple[str, list[str] | None]:
    """Fast Downward with a given --search string, on the files genplan itself would hand it."""
    with tempfile.TemporaryDirectory(prefix="genplan-bench-") as tmp:
        work = Path(tmp)
        (work / "domain.pddl").write_text(domain_to_pddl(domain))
        (work / "problem.pddl").write_text(problem_to_pddl(problem))
        command = [sys.executable, str(driver), "--overall-time-limit", f"{max(2, int(timeout))}s",
                   "--plan-file", "plan.txt", "domain.pddl", "problem.pddl", "--search", search]
        proc = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=timeout + 30)
        if proc.returncode == 0 and (work / "plan.txt").exists():
            return "solved", [s.pddl() for s in parse_plan_text((work / "plan.txt").read_text())]
        return f"exit {proc.returncode}", None


def children_cpu_seconds() -> float:
    """CPU time of all finished child processes (and theirs): the planner's translator and search."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    default_shared = Path(__file__).resolve().parents[1].parent / "shared"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=default_shared, help=f"default: {default_shared}")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per task (default 30)")
    parser.add_argument("--domains", help="comma-separated domain names (default: all 7)")
    parser.add_argument("--instances", default="0,1,2,3,4,5", help="instance numbers (default 0..5)")
    parser.add_argument("--search", help="a Fast Downward --search string instead of genplan's optimal search")
    parser.add_argument("--proposed", action="store_true", help="use plain A* + LM-cut instead of the default optimal search")
    args = parser.parse_args(argv)
    root = args.shared / "benchmarks"
    if not root.is_dir():
        print(f"bench_planner: {root} not found; nothing to measure", file=sys.stderr)
        return 2
    search = PROPOSED_SEARCH if args.proposed else args.search
    driver = fast_downward_driver()
    if search and driver is None:
        print("bench_planner: --search needs Fast Downward (up-fast-downward)", file=sys.stderr)
        return 2
    print(f"planner: {'Fast Downward --search ' + search if search else 'genplan optimal (solve)'}")
    print(f"{'task':14} {'status':10} {'wall s':>8} {'cpu s':>7} {'length':>6} {'ref':>4} {'optimal':>7} {'wall / 5 s':>10}")
    times: list[float] = []
    cpu_times: list[float] = []
    wrong = 0
    for name in (args.domains.split(",") if args.domains else DOMAINS):
        domain = load_domain(root / name / "domain.pddl")
        for instance in (int(i) for i in args.instances.split(",")):
            problem = load_problem(root / name / "problems_pddl" / f"instance-{instance}.pddl", domain)
            ref = reference_length(root / name / "plans_pddl" / f"instance-{instance}_plan.txt")
            start, cpu_start = time.perf_counter(), children_cpu_seconds()
            if search:
                status, plan = run_custom(driver, domain, problem, search, args.timeout)
            else:
                result = solve(domain, problem, optimal=True, timeout=args.timeout)
                status, plan = result.status, result.plan
            seconds, cpu = time.perf_counter() - start, children_cpu_seconds() - cpu_start
            times.append(seconds)
            cpu_times.append(cpu)
            ok = plan is not None and len(plan) == ref and validate_plan(domain, problem, plan).valid
            wrong += not ok
            length = len(plan) if plan is not None else "-"
            print(f"{name + '-' + str(instance):14} {status:10} {seconds:8.2f} {cpu:7.2f} {length:>6} {ref:4d} "
                  f"{'yes' if ok else 'NO':>7} {seconds / GOAL_SECONDS:10.2f}", flush=True)
    print()
    print(f"tasks: {len(times)}, not solved optimally: {wrong}")
    for label, values in (("wall", times), ("cpu", cpu_times)):
        print(f"{label:4}: total {sum(values):.1f} s, mean {sum(values) / len(values):.2f} s, max {max(values):.2f} s "
              f"(ratio to the 5 s goal: {max(values) / GOAL_SECONDS:.2f}), over 5 s: {sum(t > GOAL_SECONDS for t in values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
