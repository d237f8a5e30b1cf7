"""Benchmark: validate every reference plan of ../shared/benchmarks, genplan and VAL side by side.

genplan: one process; each domain is parsed once, each problem once (its plans_pddl and plans_gbfs plans share
it), and one `PlanValidator` per problem validates its plans. Times are CPU seconds of this process.

VAL (`../shared/tools/val/validate`, the C++ validator built for this machine) in the same run on the same
plans, in its own batch mode: one process per problem with all of that problem's plans (it reads the domain
and the problem once, then validates each plan). Times are the CPU seconds of those processes
(RUSAGE_CHILDREN), start-up included, as a user pays them. VAL cannot time its parser and its validation
apart: each problem is also run with an empty plan (start-up and parsing only) and with every plan given
``--val-copies`` times (default 5); "VAL validation alone" is the difference divided by the copies, which
keeps the noise of process start-up out of it. genplan's "validation alone" is the time of
`PlanValidator.validate` (plans read; the per-task preparation happens when the validator is built, with
the problem).

Ratios are genplan / VAL (goals: <= 1/10 end to end, <= 1/20 for validation alone). VAL's verdicts are checked
to agree with genplan's. Without the VAL binary only genplan's figures are printed (and the reason).

    .venv/bin/python benchmarks/bench_validate.py [--shared PATH] [--domains ferry,heavy] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.plans import load_plan
from genplan.engine.pddl.validate import PlanValidator

GOAL_END_TO_END = 1 / 10  # issue 54 (it was 1/3)
GOAL_VALIDATION = 1 / 20
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
    val_total_s: float = 0.0  # VAL: every problem with its plans
    val_parse_s: float = 0.0  # VAL: every problem with an empty plan
    val_copies_s: float = 0.0  # VAL: every problem with each plan given `copies` times
    val_copies: int = 0
    val_disagreements: list[str] = field(default_factory=list)

    @property
    def total_s(self) -> float:
        return self.domain_s + self.problem_s + self.plan_read_s + self.validate_s

    @property
    def val_validation_s(self) -> float:
        return max(self.val_copies_s - self.val_parse_s, 0.0) / max(self.val_copies, 1)

    def add(self, other: Totals) -> None:
        for name in self.__dataclass_fields__:
            if name != "val_copies":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.val_copies = other.val_copies


def plans_by_problem(directory: Path) -> dict[str, list[Path]]:
    grouped: dict[str, list[Path]] = {}
    for plan_set in PLAN_SETS:
        for plan_file in sorted((directory / plan_set).glob("*_plan.txt")):
            grouped.setdefault(plan_file.name.removesuffix("_plan.txt"), []).append(plan_file)
    return grouped


def bench_genplan(directory: Path, grouped: dict[str, list[Path]], t: Totals) -> dict[Path, bool]:
    verdicts: dict[Path, bool] = {}
    start = time.process_time()
    domain = load_domain(directory / "domain.pddl")
    t.domain_s += time.process_time() - start
    for instance, plan_files in grouped.items():
        problem_file = directory / "problems_pddl" / f"{instance}.pddl"
        start = time.process_time()
        validator = PlanValidator(domain, load_problem(problem_file, domain))
        t.problem_s += time.process_time() - start
        t.problems += 1
        t.problem_bytes += problem_file.stat().st_size
        for plan_file in plan_files:
            start = time.process_time()
            steps = load_plan(plan_file)
            t.plan_read_s += time.process_time() - start
            start = time.process_time()
            result = validator.validate(steps)
            t.validate_s += time.process_time() - start
            t.plans += 1
            t.steps += len(steps)
            t.invalid += not result.valid
            verdicts[plan_file] = result.valid
    return verdicts


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_val(val: Path, args: list[Path]) -> str:
    done = subprocess.run([str(val), *map(str, args)], capture_output=True, text=True, timeout=600, check=False)
    return done.stdout + done.stderr


def bench_val(val: Path, directory: Path, grouped: dict[str, list[Path]], empty_plan: Path, t: Totals,
              verdicts: dict[Path, bool], copies: int) -> None:
    t.val_copies = copies
    domain_file = directory / "domain.pddl"
    for instance, plan_files in grouped.items():
        problem_file = directory / "problems_pddl" / f"{instance}.pddl"
        before = children_cpu()
        output = run_val(val, [domain_file, problem_file, *plan_files])
        t.val_total_s += children_cpu() - before
        before = children_cpu()
        run_val(val, [domain_file, problem_file, empty_plan])
        t.val_parse_s += children_cpu() - before
        before = children_cpu()
        run_val(val, [domain_file, problem_file, *plan_files * copies])
        t.val_copies_s += children_cpu() - before
        # VAL lists the plans it rejected after "Failed plans:"; every other plan it accepted
        failed = output.split("Failed plans:", 1)[1] if "Failed plans:" in output else ""
        for plan_file in plan_files:
            theirs = str(plan_file) not in failed and "Bad plan" not in output
            if theirs != verdicts[plan_file]:
                t.val_disagreements.append(f"{plan_file}: genplan valid={verdicts[plan_file]}, VAL valid={theirs}")


def per(seconds: float, count: int, unit: int = 1) -> float:
    return 1000.0 * seconds / count * unit if count else float("nan")


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.3f}" if theirs > 0 else "n/a"


def main(argv: list[str] | None = None) -> int:
    default_shared = Path(__file__).resolve().parents[1].parent / "shared"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=default_shared, help=f"default: {default_shared}")
    parser.add_argument("--domains", help="comma-separated domain names (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="repeat each measurement N times, keep the fastest")
    parser.add_argument("--val-copies", type=int, default=5, help="copies of each plan for VAL's validation time")
    args = parser.parse_args(argv)
    root = args.shared / "benchmarks"
    if not root.is_dir():
        print(f"bench_validate: {root} not found; nothing to measure", file=sys.stderr)
        return 2
    val = args.shared / "tools" / "val" / "validate"
    if not val.exists():
        print(f"bench_validate: VAL not found at {val}: genplan's figures only, no ratios", file=sys.stderr)
    names = args.domains.split(",") if args.domains else sorted(p.name for p in root.iterdir() if (p / "domain.pddl").exists())

    print(f"{'domain':10} {'plans':>6} {'steps':>7} {'problems':>8} {'MB':>6} | {'genplan s':>9} {'parse %':>7} "
          f"{'valid. s':>8} | {'VAL s':>7} {'VAL val. s':>10} | {'ratio':>6} {'ratio val.':>10}")
    total = Totals()
    wall_start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        empty_plan = Path(tmp) / "empty_plan.txt"
        empty_plan.write_text("")
        for name in names:
            directory = root / name
            grouped = plans_by_problem(directory)
            best: Totals | None = None
            for _ in range(max(args.repeat, 1)):
                t = Totals()
                verdicts = bench_genplan(directory, grouped, t)
                if val.exists():
                    bench_val(val, directory, grouped, empty_plan, t, verdicts, max(args.val_copies, 1))
                if best is None or t.total_s + t.val_total_s < best.total_s + best.val_total_s:
                    best = t
            assert best is not None
            total.add(best)
            t = best
            parse_share = (t.domain_s + t.problem_s + t.plan_read_s) / t.total_s if t.total_s else 0.0
            print(f"{name:10} {t.plans:6d} {t.steps:7d} {t.problems:8d} {t.problem_bytes / 1e6:6.2f} | "
                  f"{t.total_s:9.3f} {parse_share:7.0%} {t.validate_s:8.3f} | {t.val_total_s:7.3f} "
                  f"{t.val_validation_s:10.3f} | {ratio(t.total_s, t.val_total_s):>6} "
                  f"{ratio(t.validate_s, t.val_validation_s):>10}")

    wall = time.perf_counter() - wall_start
    print()
    print(f"plans: {total.plans}, steps: {total.steps}, problems: {total.problems} "
          f"({total.problem_bytes / 1e6:.1f} MB), invalid: {total.invalid}; wall clock of the whole run {wall:.1f} s")
    print(f"{'':34} {'genplan':>10} {'VAL':>10} {'ratio':>8} {'goal':>7}")
    print(f"{'end to end, CPU s':34} {total.total_s:10.3f} {total.val_total_s:10.3f} "
          f"{ratio(total.total_s, total.val_total_s):>8} {GOAL_END_TO_END:7.3f}")
    print(f"{'  ms per plan':34} {per(total.total_s, total.plans):10.3f} {per(total.val_total_s, total.plans):10.3f}")
    print(f"{'validation alone, CPU s':34} {total.validate_s:10.3f} {total.val_validation_s:10.3f} "
          f"{ratio(total.validate_s, total.val_validation_s):>8} {GOAL_VALIDATION:7.3f}")
    print(f"{'  ms per 1,000 plan steps':34} {per(total.validate_s, total.steps, 1000):10.3f} "
          f"{per(total.val_validation_s, total.steps, 1000):10.3f}")
    print(f"genplan's time: domains {total.domain_s:.3f} s, problems {total.problem_s:.3f} s, "
          f"plan files {total.plan_read_s:.3f} s, validation {total.validate_s:.3f} s "
          f"(problems {total.problem_s / total.total_s:.0%})")
    if total.val_disagreements:
        print(f"VAL disagrees on {len(total.val_disagreements)} plan(s):", *total.val_disagreements[:5], sep="\n  ")
    return 0 if total.invalid == 0 and not total.val_disagreements else 1


if __name__ == "__main__":
    sys.exit(main())
