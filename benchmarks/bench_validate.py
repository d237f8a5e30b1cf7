"""Benchmark: validate every reference plan of ../shared/benchmarks in one process.

Each domain is parsed once, each problem once (its plans_pddl and plans_gbfs plans share it), and one
`PlanValidator` per problem validates its plans. Prints plans per second, milliseconds per plan and per
1,000 plan steps, end to end and for the validation alone, and the ratio to the C++ VAL, which takes about
19 ms per plan when called once per plan (goal: well under a third of that per plan in batch).
Times are CPU seconds of this process (steady on a busy machine); the wall-clock total is printed too.
Figures only, nothing is asserted.

    .venv/bin/python benchmarks/bench_validate.py [--shared PATH] [--domains ferry,heavy]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.plans import load_plan
from genplan.engine.pddl.validate import PlanValidator

VAL_MS_PER_PLAN = 19.0
GOAL_RATIO = 1 / 3
PLAN_SETS = ("plans_pddl", "plans_gbfs")


@dataclass
class Totals:
    plans: int = 0
    steps: int = 0
    problems: int = 0
    problem_bytes: int = 0
    invalid: int = 0
    domain_s: float = 0.0
    problem_s: float = 0.0
    plan_read_s: float = 0.0
    validate_s: float = 0.0

    @property
    def total_s(self) -> float:
        return self.domain_s + self.problem_s + self.plan_read_s + self.validate_s

    def add(self, other: "Totals") -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def bench_domain(directory: Path) -> Totals:
    t = Totals()
    start = time.process_time()
    domain = load_domain(directory / "domain.pddl")
    t.domain_s = time.process_time() - start
    validators: dict[str, PlanValidator] = {}
    for plan_set in PLAN_SETS:
        for plan_file in sorted((directory / plan_set).glob("*_plan.txt")):
            instance = plan_file.name.removesuffix("_plan.txt")
            if instance not in validators:
                problem_file = directory / "problems_pddl" / f"{instance}.pddl"
                start = time.process_time()
                validators[instance] = PlanValidator(domain, load_problem(problem_file, domain), "stein")
                t.problem_s += time.process_time() - start
                t.problems += 1
                t.problem_bytes += problem_file.stat().st_size
            start = time.process_time()
            steps = load_plan(plan_file)
            t.plan_read_s += time.process_time() - start
            start = time.process_time()
            result = validators[instance].validate(steps)
            t.validate_s += time.process_time() - start
            t.plans += 1
            t.steps += len(steps)
            t.invalid += not result.valid
    return t


def per(seconds: float, count: int, unit: int = 1) -> float:
    return 1000.0 * seconds / count * unit if count else float("nan")


def main(argv: list[str] | None = None) -> int:
    default_shared = Path(__file__).resolve().parents[1].parent / "shared"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=default_shared, help=f"default: {default_shared}")
    parser.add_argument("--domains", help="comma-separated domain names (default: all)")
    args = parser.parse_args(argv)
    root = args.shared / "benchmarks"
    if not root.is_dir():
        print(f"bench_validate: {root} not found; nothing to measure", file=sys.stderr)
        return 2
    names = args.domains.split(",") if args.domains else sorted(p.name for p in root.iterdir() if (p / "domain.pddl").exists())

    print(f"{'domain':10} {'plans':>6} {'steps':>7} {'problems':>8} {'MB':>6} {'domain s':>9} {'problems s':>10} "
          f"{'plans s':>8} {'validate s':>10} {'ms/plan':>8} {'invalid':>7}")
    total = Totals()
    wall_start = time.perf_counter()
    for name in names:
        t = bench_domain(root / name)
        total.add(t)
        print(f"{name:10} {t.plans:6d} {t.steps:7d} {t.problems:8d} {t.problem_bytes / 1e6:6.2f} {t.domain_s:9.3f} "
              f"{t.problem_s:10.3f} {t.plan_read_s:8.3f} {t.validate_s:10.3f} {per(t.total_s, t.plans):8.2f} {t.invalid:7d}")

    wall = time.perf_counter() - wall_start
    end_to_end = per(total.total_s, total.plans)
    print()
    print(f"plans: {total.plans}, steps: {total.steps}, problems: {total.problems} "
          f"({total.problem_bytes / 1e6:.1f} MB), invalid: {total.invalid}")
    print(f"end to end (parse domains, problems, plans; validate): {total.total_s:.2f} s CPU ({wall:.2f} s wall)")
    print(f"  plans per second:         {total.plans / total.total_s:10.1f}")
    print(f"  ms per plan:              {end_to_end:10.2f}   ratio to VAL's {VAL_MS_PER_PLAN:g} ms: "
          f"{end_to_end / VAL_MS_PER_PLAN:.3f} (goal < {GOAL_RATIO:.3f})")
    print(f"  ms per 1,000 plan steps:  {per(total.total_s, total.steps, 1000):10.2f}")
    print(f"  share of the time spent parsing problems: {total.problem_s / total.total_s:.0%}")
    print(f"validation alone (plans already read, problems loaded): {total.validate_s:.3f} s")
    print(f"  plans per second:         {total.plans / total.validate_s:10.1f}")
    print(f"  ms per plan:              {per(total.validate_s, total.plans):10.3f}   ratio to VAL's "
          f"{VAL_MS_PER_PLAN:g} ms: {per(total.validate_s, total.plans) / VAL_MS_PER_PLAN:.4f}")
    print(f"  ms per 1,000 plan steps:  {per(total.validate_s, total.steps, 1000):10.2f}")
    print(f"read plan files + validate: {per(total.plan_read_s + total.validate_s, total.plans):.3f} ms per plan "
          f"(ratio {per(total.plan_read_s + total.validate_s, total.plans) / VAL_MS_PER_PLAN:.4f})")
    return 0 if total.invalid == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
