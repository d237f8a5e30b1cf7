"""The built-in search's successor generator (`engine.planner.Successors`) against every grounding tried.

`Successors` finds an action's bindings by joining its positive preconditions with the state: in an order it
picks per state (a precondition whose terms are all known first, as one look in the state; else the one with
the fewest facts), with caches per task. Here each state's successors must be exactly those found by trying
every typed grounding of every action, for the states of a random walk through small tasks of the library's
domains, the planner quirks and (when present) `../shared/benchmarks`. A join that lost a binding, or kept one
it should not, shows here as a missing or extra step.
"""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest

from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.model import Fact, Task
from genplan.engine.planner import Successors, _conditional

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT.parent / "shared" / "benchmarks"
TRIED = 150_000  # groundings the reference tries per task, over the states of its walk
STATES = 30  # at most, per task


def every_grounding(task: Task, state: frozenset[Fact]) -> list[tuple[str, frozenset[Fact]]]:
    found = []
    for action in task.domain.actions.values():
        for args in product(*(task.objects_of(p.types) for p in action.parameters)):
            binding = {p.name: a for p, a in zip(action.parameters, args)}
            if not all(Successors._holds(lit, binding, state) for lit in action.preconditions):
                continue
            if action.conditions and not all(task.holds(c, binding, state) for c in action.conditions):
                continue
            if action.cost is not None and task.undefined_cost(action, binding) is not None:
                continue
            deleted = {lit.ground(binding) for lit in action.del_effects}
            added = {lit.ground(binding) for lit in action.add_effects}
            if action.conditional_effects:
                _conditional(task, action, binding, state, added, deleted)
            found.append(("(" + " ".join([action.name, *args]) + ")", frozenset((state - deleted) | added)))
    return found


def groundings(task: Task) -> int:
    total = 0
    for action in task.domain.actions.values():
        count = 1
        for parameter in action.parameters:
            count *= len(task.objects_of(parameter.types))
        total += count
    return total


def tasks() -> list[tuple[str, Path, Path]]:
    found = []
    for directory in sorted(p for p in (ROOT / "domains").iterdir() if (p / "domain.pddl").is_file()):
        for problem in sorted((directory / "debug").glob("*.pddl"))[:2]:
            found.append((f"{directory.name}/{problem.stem}", directory / "domain.pddl", problem))
    for folder in (ROOT / "tests" / "data" / "quirks", ROOT / "tests" / "data" / "quirks" / "planner"):
        for domain in sorted(folder.glob("*-domain.pddl")):
            name = domain.name.removesuffix("-domain.pddl")
            found.append((f"quirks/{name}", domain, folder / f"{name}-problem.pddl"))
    if BENCHMARKS.is_dir():
        for directory in sorted(p for p in BENCHMARKS.iterdir() if (p / "domain.pddl").is_file()):
            found.append((f"shared/{directory.name}", directory / "domain.pddl",
                          directory / "problems_pddl" / "instance-0.pddl"))
    return found


TASKS = tasks()


@pytest.mark.parametrize(("label", "domain_file", "problem_file"), TASKS, ids=[t[0] for t in TASKS])
def test_the_join_finds_exactly_the_applicable_groundings(label: str, domain_file: Path, problem_file: Path) -> None:
    domain = load_domain(domain_file)
    task = Task(domain, load_problem(problem_file, domain))
    successors = Successors(task)
    walk = random.Random(label)
    state = task.init_state
    for _ in range(max(2, min(STATES, TRIED // groundings(task)))):  # the larger tasks: fewer states
        found = list(successors.applicable(state))
        assert sorted(found) == sorted(every_grounding(task, state)), f"{label}: in state {sorted(state)}"
        assert len(found) == len(set(found)), f"{label}: a step found twice"
        if not found:
            break
        state = walk.choice(found)[1]
