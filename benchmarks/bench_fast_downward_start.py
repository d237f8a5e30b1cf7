"""Benchmark: Fast Downward's components started by genplan against the same run through the driver script.

For every debug task of the library's domains (domains/*/debug), genplan's optimal planner (`solve`, Fast
Downward) runs twice in a row: once as genplan runs it (translator and search started directly,
engine/fast_downward.py) and once through the wheel's own driver script, as genplan runs a driver of another
layout (for the second run this script tells genplan the components are not there). The pairs alternate
which goes first. Prints the CPU seconds of the planner processes (steady on a busy machine) and the
wall-clock seconds of both, their totals and the ratio; checks that both found plans of the same length.

    .venv/bin/python benchmarks/bench_fast_downward_start.py [--rounds 2] [--domains ferry gripper]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from genplan.engine import fast_downward
from genplan.engine.domainlib import list_domains
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.planner import solve

ROOT = Path(__file__).resolve().parents[1]
BESIDE = fast_downward.Components.beside
NOT_BESIDE = classmethod(lambda cls, driver: None)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(domain, problem, through_driver: bool) -> tuple[float, float, int | None]:
    fast_downward.Components.beside = NOT_BESIDE if through_driver else BESIDE  # type: ignore[method-assign]
    cpu, wall = children_cpu(), time.monotonic()
    result = solve(domain, problem, optimal=True, timeout=60, planner="fast-downward")
    return children_cpu() - cpu, time.monotonic() - wall, len(result.plan) if result.plan is not None else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--domains", nargs="*", help="names under domains/ (default: all)")
    args = parser.parse_args()
    if fast_downward.fast_downward_driver() is None:
        sys.exit("Fast Downward is not installed (pip install up-fast-downward)")
    totals = {"components": [0.0, 0.0], "driver": [0.0, 0.0]}
    pairs = 0
    print(f"{'task':44} {'cpu direct':>10} {'cpu driver':>10} {'wall direct':>11} {'wall driver':>11}")
    for domain_dir in list_domains(ROOT / "domains"):
        if args.domains and domain_dir.name not in args.domains:
            continue
        domain = load_domain(domain_dir.domain_file)
        for task in domain_dir.debug_tasks():
            problem = load_problem(task, domain)
            for round_ in range(args.rounds):
                order = [("components", False), ("driver", True)]
                if (pairs + round_) % 2:
                    order.reverse()
                seen = {}
                for name, driver in order:
                    seen[name] = timed(domain, problem, driver)
                    totals[name][0] += seen[name][0]
                    totals[name][1] += seen[name][1]
                if seen["components"][2] != seen["driver"][2]:
                    print(f"  plan lengths differ on {task}: {seen['components'][2]} vs {seen['driver'][2]}")
                pairs += 1
                print(f"{domain_dir.name + '/' + task.stem:44} {seen['components'][0]:10.3f} {seen['driver'][0]:10.3f}"
                      f" {seen['components'][1]:11.3f} {seen['driver'][1]:11.3f}")
    (cpu_c, wall_c), (cpu_d, wall_d) = totals["components"], totals["driver"]
    print(f"\n{pairs} pairs. CPU: {cpu_c:.1f} s direct, {cpu_d:.1f} s through the driver "
          f"({(cpu_d - cpu_c) / pairs * 1000:.0f} ms less per plan; direct/driver {cpu_c / cpu_d:.2f}x). "
          f"Wall: {wall_c:.1f} s against {wall_d:.1f} s ({wall_c / wall_d:.2f}x).")


if __name__ == "__main__":
    main()
