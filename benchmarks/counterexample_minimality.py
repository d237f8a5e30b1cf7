"""How small are the shrunk counterexamples? Against the smallest failing task an exhaustive search finds.

Two sets of wrong programs, each written by hand for this measure (test fixtures, not model output):

- ``heldout`` (the default; issue 53): benchmarks/cex_heldout_programs.py, eleven programs on four domains the
  shrinker was not developed on (briefcase, grippers, delivery, logistics), each a correct plan with one
  deliberate bug;
- ``development`` (issue 37): tests/support/cex_programs.py and a breadth-first planner below with one bug each,
  on seven domains; the shrinker's larger steps were developed on these.

For each, `genplan counterexample`'s search (without the probes, so that it finds the injected bug, not a corner
case the probes hold) finds a failing task and shrinks it within the budget. Then the smallest failing task is
searched exhaustively, bounded: (1) every size of the domain's generator up to the found task's
sizes (for a task derived from the debug tasks: the debug tasks' largest sizes; each parameter at every value
up to ``FULL_RANGE``), smallest first, ``--seeds`` seeds each (seeds the shrinker never uses), every task run,
smallest first, until one fails the same way (the same signature as the shrinker keeps) and is solvable;
(2) every subset of the found task's objects, smallest first (mended like the shrinker's removals; with all
goals or one), when it has at most ``--subset-objects`` objects. The smallest failing task known for the
program and its failure (those two, and any task shrunk for the same program with the same failure, from either
task set) is the figure the shrunk task is compared with: the goal of issue 53 is every shrunk task within one
object of it.

Run: nice -n 10 .venv/bin/python benchmarks/counterexample_minimality.py [--set heldout|development]
     [--tasks auto|debug|both] [--seconds 30] [--only NAME] [--markdown]
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from cex_heldout_programs import PROGRAMS as HELDOUT  # noqa: E402
from support.cex_programs import (  # noqa: E402
    PAIRS_CARS_WITH_LOCATIONS,
    SKIPS_THIRD_LEVEL,
    TALL_TOWER_BLOCKS,
)

from genplan.engine.counterexample import SearchBudget, find_counterexample  # noqa: E402
from genplan.engine.counterexample.search import (  # noqa: E402
    FULL_RANGE,
    Failure,
    _fewest_first,
    _goal_open,
    _removed_objects,
    _Runner,
    _Solvability,
    debug_bounds,
    domain_invariants,
    generated_sizes,
)
from genplan.engine.domainlib import DomainDir, DomainDirError  # noqa: E402
from genplan.engine.pddl import Domain, PddlError, Problem, load_domain, parse_problem_text  # noqa: E402
from genplan.engine.sandbox import Limits, Program, Sandbox  # noqa: E402

# A breadth-first planner over the ground actions (right on the small tasks the search starts with) into
# which each case puts one bug, triggered by a property of the task.
_BFS = '''
from collections import deque

def generate_solution(objects, init, goal):
    if "EARLY" in globals() and EARLY(objects, init, goal) is not None:
        return EARLY(objects, init, goal)
    typed = [o if isinstance(o, tuple) else (o, "object") for o in objects]
    def is_a(kind, wanted):
        while kind is not None:
            if kind == wanted or wanted == "object":
                return True
            kind = PARENTS.get(kind)
        return False
    start = frozenset(init)
    wanted = [g for g in goal if g[0] != "not"]
    ground = []
    for action in ACTIONS:
        choices = [[n for n, k in typed if is_a(k, t)] for t in action["types"]]
        for values in __import__("itertools").product(*choices):
            b = dict(zip(action["params"], values))
            sub = lambda args: tuple(b.get(a, a) for a in args)
            ground.append((
                "(" + " ".join([action["name"], *values]) + ")",
                [((p, *sub(a)), pos) for p, a, pos in action["pre"]],
                [(p, *sub(a)) for p, a in action["add"]],
                [(p, *sub(a)) for p, a in action["del"]],
            ))
    seen, queue = {start: None}, deque([start])
    while queue:
        state = queue.popleft()
        if all(g in state for g in wanted):
            plan = []
            while seen[state] is not None:
                state, step = seen[state]
                plan.append(step)
            return BUG(plan[::-1], objects, init, goal)
        for name, pre, add, delete in ground:
            if all((f in state) == pos for f, pos in pre):
                after = (state - set(delete)) | set(add)
                if after not in seen:
                    seen[after] = (state, name)
                    queue.append(after)
    return []
'''

BUGS = {
    # gripper: three balls or more to carry, the last drop is forgotten
    "gripper-last-drop": ("gripper", '''
def BUG(plan, objects, init, goal):
    if len([g for g in goal if g[0] == "at"]) >= 3:
        return plan[:-1]
    return plan
'''),
    # gripper: a ball that starts in the robot's room with another ball raises KeyError
    "gripper-crowded-room": ("gripper", '''
def BUG(plan, objects, init, goal):
    robby = next(f[1] for f in init if f[0] == "at-robby")
    here = [f[1] for f in init if f[0] == "at" and f[2] == robby]
    if len(here) >= 2:
        return {}[here[0]]
    return plan
'''),
    # miconic: two passengers from the same floor: the program boards only one before it leaves
    "miconic-shared-origin": ("miconic", '''
def BUG(plan, objects, init, goal):
    origins = [f[2] for f in init if f[0] == "origin"]
    if len(origins) != len(set(origins)):
        return plan[:-1]
    return plan
'''),
    # spanner: more spanners than nuts: an index past the end
    "spanner-spare-spanner": ("spanner", '''
def BUG(plan, objects, init, goal):
    nuts = [f[1] for f in init if f[0] == "loose"]
    spanners = [f[1] for f in init if f[0] == "useable"]
    if len(spanners) > len(nuts):
        return [nuts[len(spanners)]]
    return plan
'''),
    # visitall: a grid with a cell of three neighbours or more: an empty plan, before any search (a search of a
    # large grid would time out: another failure)
    "visitall-junction": ("visitall", '''
def EARLY(objects, init, goal):
    degree = {}
    for f in init:
        if f[0] == "connected":
            degree[f[1]] = degree.get(f[1], 0) + 1
    return [] if max(degree.values(), default=0) >= 3 else None

def BUG(plan, objects, init, goal):
    return plan
'''),
    # ferry: a car waiting where the ferry is, and another car: the first step sails to where it already is
    "ferry-car-at-ferry": ("ferry", '''
def BUG(plan, objects, init, goal):
    ferry = next(f[1] for f in init if f[0] == "at-ferry")
    waiting = [f[1] for f in init if f[0] == "at" and f[2] == ferry]
    cars = [f[1] for f in init if f[0] == "car"]
    if waiting and len(cars) >= 2:
        return [f"(sail {ferry} {ferry})"] + plan
    return plan
'''),
    # heavy: four items or more: a KeyError
    "heavy-four-items": ("heavy", '''
def BUG(plan, objects, init, goal):
    if len([f for f in init if f[0] == "unpacked"]) >= 4:
        return {}["fourth"]
    return plan
'''),
}


def bfs_program(domain: Domain, bug: str) -> str:
    actions = [{
        "name": a.name,
        "params": [p.name for p in a.parameters],
        "types": [p.types[0] if p.types else "object" for p in a.parameters],
        "pre": [[lit.predicate, list(lit.args), lit.positive] for lit in a.preconditions],
        "add": [[lit.predicate, list(lit.args)] for lit in a.add_effects],
        "del": [[lit.predicate, list(lit.args)] for lit in a.del_effects],
    } for a in domain.actions.values()]
    return f"ACTIONS = {actions!r}\nPARENTS = {dict(domain.type_parents)!r}\n" + bug + _BFS


def cases(which: str) -> list[tuple[str, str, str, str]]:
    """(name, domain, program, task set) of a set. Development: the ferry program fails on no generated task (four locations and four
    cars are a size the generator does not make), so it is searched on tasks derived from the debug tasks."""
    if which == "heldout":
        return [(name, domain, source, "auto") for name, (domain, source) in HELDOUT.items()]
    found = [("blocksworld-tall-tower", "blocksworld", TALL_TOWER_BLOCKS, "auto"),
             ("blocksworld-third-level", "blocksworld", SKIPS_THIRD_LEVEL, "auto"),
             ("ferry-four-and-four", "ferry", PAIRS_CARS_WITH_LOCATIONS, "debug")]
    for name, (domain_name, bug) in BUGS.items():
        domain = load_domain(ROOT / "domains" / domain_name / "domain.pddl")
        found.append((name, domain_name, bfs_program(domain, bug), "auto"))
    return found


def smallest_failing(problem: Problem, failure, runner: _Runner, solvable: _Solvability, invariants) -> int | None:  # type: ignore[no-untyped-def]
    names = [name for name, _ in problem.objects]
    for size in range(1, len(names) + 1):
        for kept in itertools.combinations(names, size):
            removed = [n for n in names if n not in kept]
            change = _removed_objects(problem, removed, invariants) if removed else ("", problem)
            if change is None:
                continue
            task = change[1]
            goals = [task, *(replace(task, goal_pos=[g], goal_neg=[]) for g in task.goal_pos)]
            for candidate in goals:
                if invariants.violations(candidate) or not _goal_open(candidate):
                    continue
                found = runner.failure(candidate)
                if found is not None and failure.same_as(found) and solvable(candidate) is True:
                    return size
    return None


EXHAUSTIVE_SEED = 500_000  # far from the search's (70 000 ..) and the shrinker's generator stage (169 000 ..)
MAX_SIZES = 400  # size vectors of the exhaustive search at most


def smallest_generated(directory: DomainDir, domain: Domain, bounds: dict[str, int], failure: Failure,
                       runner: _Runner, solvable: _Solvability, invariants, seeds: int,  # type: ignore[no-untyped-def]
                       max_runs: int) -> tuple[int | None, int, int]:
    """The fewest objects of a generated task (sizes up to ``bounds``, ``seeds`` seeds each) that fails the same
    way and is solvable, or None; and the tasks made and run."""
    names = sorted(bounds)
    values = [list(range(bounds[n] + 1)) if bounds[n] <= FULL_RANGE else sorted({0, 1, 2, 3, bounds[n] // 2, bounds[n]})
              for n in names]
    made = []
    for vector in _fewest_first(values, MAX_SIZES):
        sizes = dict(zip(names, vector))
        for k in range(seeds):
            try:
                problem = parse_problem_text(directory.generate(EXHAUSTIVE_SEED + k, **sizes), domain)
            except (DomainDirError, PddlError):
                break
            if not invariants.violations(problem) and _goal_open(problem):
                made.append((len(problem.objects), len(problem.init) + len(problem.goal_pos), k, problem))
    made.sort(key=lambda item: item[:3])
    runs = 0
    for objects, _facts, _k, problem in made:
        if runs >= max_runs:
            break
        runs += 1
        found = runner.failure(problem)
        if found is not None and failure.same_as(found) and solvable(problem) is True:
            return objects, len(made), runs
    return None, len(made), runs


def measure(name: str, domain_name: str, source: str, tasks: str, budget: SearchBudget,
            args: argparse.Namespace) -> dict | None:  # type: ignore[type-arg]
    """One search and shrinking, and the exhaustive searches from what it found."""
    directory = DomainDir.open(ROOT / "domains" / domain_name)
    domain = load_domain(directory.domain_file)
    program = Program.from_source(source)
    report = find_counterexample(program, directory, budget=budget, probes=False, tasks=tasks)
    if not report.found or report.shrunk is None or report.original is None or report.failure is None:
        print(f"{name:28} {tasks:5} no counterexample within {args.seconds:g} s", flush=True)
        return None
    limits = Limits(time_limit=5)
    invariants = domain_invariants(directory, domain, [report.original])
    solvable = _Solvability(domain, 10)
    generated = subsets = None
    with Sandbox(limits) as box:
        runner = _Runner(program, domain, directory.typed_objects, box, limits, budget.orderings)
        if directory.has_generator:
            bounds = generated_sizes(report.source) or debug_bounds(directory)
            generated, _made, _runs = smallest_generated(directory, domain, bounds, report.failure, runner,
                                                          solvable, invariants, args.seeds, args.max_runs)
        if len(report.original.objects) <= args.subset_objects:
            subsets = smallest_failing(report.original, report.failure, runner, solvable, invariants)
    state = "" if report.shrunk.minimal else " (budget spent)"
    return {"name": name, "tasks": tasks, "found": len(report.original.objects),
            "shrunk": len(report.shrunk.problem.objects), "generated": generated, "subsets": subsets,
            "seconds": report.shrunk.seconds, "stages": report.shrunk.stages_text() + state,
            "signature": report.failure.signature}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("heldout", "development"), default="heldout")
    parser.add_argument("--seconds", type=float, default=30.0, help="the search's budget, and the shrinking's")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per size of the exhaustive search")
    parser.add_argument("--max-runs", type=int, default=600, help="tasks the exhaustive search runs at most")
    parser.add_argument("--subset-objects", type=int, default=10,
                        help="subsets of the found task are tried when it has at most this many objects")
    parser.add_argument("--tasks", choices=("auto", "debug", "both"), default="both",
                        help="the search's task set for the held-out cases: auto (generated tasks of growing size, "
                        "so the first failure is small already), debug (tasks derived from the debug tasks: "
                        "larger, so the shrinking has more to do) or both (default); with both, a smaller failing "
                        "task one search found with the same failure counts for the other too")
    parser.add_argument("--only", help="the cases whose name contains this")
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    args = parser.parse_args()
    budget = SearchBudget(seconds=args.seconds, max_tasks=200, time_limit=5, shrink_seconds=args.seconds)
    modes = ["auto", "debug"] if args.tasks == "both" else [args.tasks]
    rows = []
    print(f"{'case':28} {'tasks':5} {'found':>5} {'shrunk':>6} {'gen':>4} {'sub':>4}  shrink-s  stages")
    for name, domain_name, source, tasks in cases(args.set):
        if args.only and args.only not in name:
            continue
        for mode in modes if args.set == "heldout" else [tasks]:
            row = measure(name, domain_name, source, mode, budget, args)
            if row is None:
                continue
            rows.append(row)
            print(f"{name:28} {mode:5} {row['found']:>5} {row['shrunk']:>6} {row['generated'] or '-':>4} "
                  f"{row['subsets'] or '-':>4}  {row['seconds']:8.1f}  {row['stages']}", flush=True)
    # the smallest failing task known for a program and failure: the exhaustive searches, and any shrunk task
    least: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row["name"], row["signature"])
        for n in (row["generated"], row["subsets"], row["shrunk"]):
            if n is not None:
                least[key] = min(least.get(key, n), n)
    within = measured = 0
    print()
    for row in rows:
        if row["generated"] is None and row["subsets"] is None:
            row["least"] = None  # neither exhaustive search says anything: no figure
            continue
        row["least"] = least[(row["name"], row["signature"])]
        measured += 1
        within += row["shrunk"] - row["least"] <= 1
        if row["shrunk"] - row["least"] > 1:
            print(f"NOT within one object: {row['name']} ({row['tasks']}): {row['shrunk']} vs {row['least']}")
    print(f"within one object of the smallest failing task: {within} of {measured}")
    if args.markdown:
        print("\n| case | tasks | failure | found | shrunk | smallest failing (generated / subsets) | shrinking s | stages |")
        print("|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(f"| {row['name']} | {row['tasks']} | `{row['signature']}` | {row['found']} | {row['shrunk']} | "
                  f"{row['least'] if row['least'] is not None else '?'} ({row['generated'] or '-'} / "
                  f"{row['subsets'] or '-'}) | {row['seconds']:.1f} | {row['stages']} |")


if __name__ == "__main__":
    main()
