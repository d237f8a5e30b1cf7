"""Shrinking beyond single removals (issue 53): where no single removal keeps the failure, goal subsets, pairs
of objects, chains of linked objects and smaller tasks made afresh by the generator are tried; and the search a
person starts has one budget, in the CLI and in the app's k.

The shrinking cases are unit level: ``shrink_problem`` with a failure test written in Python (the program is not
run), so each case states exactly which property of the task the "bug" needs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from genplan.engine.counterexample import person_budget
from genplan.engine.counterexample.invariants import Invariants
from genplan.engine.counterexample.search import (
    Failure,
    Regenerator,
    _chains,
    _larger_changes,
    domain_invariants,
    generated_sizes,
    shrink_problem,
)
from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import Problem, load_domain, parse_problem_text
from genplan.engine.planner import fast_downward_driver

DOMAINS = Path(__file__).resolve().parents[1] / "domains"
BUG = Failure("exception", "exception", "KeyError", 0, None, "", "exception KeyError line 3")
NO_INVARIANTS = Invariants([])


def ferry_task(cars: dict[str, str], locations: list[str], ferry: str, goals: list[tuple[str, str]]) -> Problem:
    domain = load_domain(DOMAINS / "ferry" / "domain.pddl")
    init = [f"(location {place})" for place in locations] + [f"(car {c})" for c in cars]
    init += [f"(not-eq {a} {b})" for a in locations for b in locations if a != b]
    init += ["(empty-ferry)", f"(at-ferry {ferry})", *(f"(at {c} {place})" for c, place in cars.items())]
    goal = " ".join(f"(at {c} {place})" for c, place in goals)
    return parse_problem_text(f"(define (problem t) (:domain ferry) (:objects {' '.join([*locations, *cars])})"
                              f" (:init {' '.join(init)}) (:goal (and {goal})))", domain)


def count(problem: Problem, unary: str) -> int:
    return sum(1 for fact in problem.init if fact[0] == unary)


def ferry_placed(problem: Problem) -> bool | None:
    """The fake planner: every car and the ferry have a place (a removal may leave a car nowhere)."""
    placed = {f[1] for f in problem.init if f[0] in ("at", "on")}
    cars = {f[1] for f in problem.init if f[0] == "car"}
    return cars <= placed and count(problem, "at-ferry") == 1


def fails_when(condition: Any) -> Any:
    def fails(problem: Problem) -> Failure | None:
        return BUG if condition(problem) else None
    return fails


def test_a_pair_shrinks_where_single_removals_are_stuck() -> None:
    # the bug needs as many cars as locations (two or more): without one car or one location it is gone, without
    # a car and a location together it stays
    task = ferry_task({"c0": "l0", "c1": "l1", "c2": "l2"}, ["l0", "l1", "l2"], "l2",
                      [("c0", "l1"), ("c1", "l2"), ("c2", "l1")])
    fails = fails_when(lambda p: count(p, "car") == count(p, "location") >= 2)
    shrunk = shrink_problem(task, BUG, fails, ferry_placed, float("inf"), invariants=NO_INVARIANTS)
    assert len(shrunk.problem.objects) == 4 and shrunk.minimal
    assert [s["stage"] for s in shrunk.stages()] == ["single removals", "pairs"]
    assert shrunk.stages()[-1] == {"stage": "pairs", "from": 6, "to": 4, "steps": 1}
    assert shrunk.steps[-1] == "removed objects l0 c0"
    assert shrunk.stages_text().startswith("single removals 6→6 objects, pairs 6→4")
    assert shrunk.to_dict()["stages"] == shrunk.stages()


def visitall_path(cells: list[str], links: list[tuple[str, str]], robot: str, goals: list[str]) -> Problem:
    domain = load_domain(DOMAINS / "visitall" / "domain.pddl")
    init = [f"(connected {a} {b}) (connected {b} {a})" for a, b in links]
    init += [f"(at-robot {robot}) (visited {robot})"]
    goal = " ".join(f"(visited {g})" for g in goals)
    return parse_problem_text(f"(define (problem t) (:domain visitall) (:objects {' '.join(cells)} - place)"
                              f" (:init {' '.join(init)}) (:goal (and {goal})))", domain)


def path_of_multiple_of_three(problem: Problem) -> bool:
    """The "bug": a corridor (cells in one connected piece, the robot on it) of 3, 6, 9 ... cells."""
    cells = [name for name, _ in problem.objects]
    links = {(f[1], f[2]) for f in problem.init if f[0] == "connected"}
    if not cells or len(cells) % 3 or not any(f[0] == "at-robot" for f in problem.init):
        return False
    reached, todo = {cells[0]}, [cells[0]]
    while todo:
        here = todo.pop()
        for a, b in links:
            if a == here and b not in reached:
                reached.add(b)
                todo.append(b)
    return reached == set(cells)


def test_a_chain_shrinks_where_single_removals_and_pairs_are_stuck() -> None:
    # a corridor c0-c1-c2-c3-c4-c5, declared out of order so that the halves the single stage cuts are not
    # connected: only a chain of three linked cells keeps a corridor of a multiple of three
    order = ["c0", "c3", "c1", "c4", "c2", "c5"]
    task = visitall_path(order, [("c0", "c1"), ("c1", "c2"), ("c2", "c3"), ("c3", "c4"), ("c4", "c5")], "c0",
                         ["c1", "c2"])
    shrunk = shrink_problem(task, BUG, fails_when(path_of_multiple_of_three), lambda p: True, float("inf"),
                            static=frozenset({"connected"}), invariants=NO_INVARIANTS)
    assert sorted(name for name, _ in shrunk.problem.objects) == ["c0", "c1", "c2"]
    assert [s["stage"] for s in shrunk.stages()] == ["single removals", "chains"]
    assert shrunk.stages()[-1]["from"] == 6 and shrunk.stages()[-1]["to"] == 3
    assert shrunk.steps[-1].startswith("removed the chain ")


def test_chains_follow_the_facts_that_link_objects_not_the_definitions() -> None:
    task = ferry_task({"c0": "l0", "c1": "l0", "c2": "l1"}, ["l0", "l1", "l2"], "l2", [("c0", "l1")])
    domain = load_domain(DOMAINS / "ferry" / "domain.pddl")
    chains = _chains(task, domain.static_predicates)
    # not-eq relates every two locations: it links nothing, so no chain joins l0 and l1 through it
    assert ["l0", "c0", "c1"] in chains
    assert all(not {"l0", "l1"} <= set(chain) for chain in chains)
    assert all(len(chain) >= 3 for chain in chains)


def test_a_goal_subset_shrinks_where_single_goal_removals_are_stuck() -> None:
    task = ferry_task({"c0": "l0", "c1": "l0", "c2": "l0"}, ["l0", "l1"], "l0",
                      [("c0", "l1"), ("c1", "l1"), ("c2", "l1")])
    # the "bug" shows with one goal or three, never with two: removing one goal loses it, keeping one does not
    fails = fails_when(lambda p: len(p.goal_pos) in (1, 3) and count(p, "car") == 3)
    shrunk = shrink_problem(task, BUG, fails, ferry_placed, float("inf"), invariants=NO_INVARIANTS)
    assert len(shrunk.problem.goal_pos) == 1
    assert "goal subsets" in [s["stage"] for s in shrunk.stages()]
    assert "kept only the goal (at c0 l1)" in shrunk.steps
    goals = [c for stage, _d, c in _larger_changes(task) if stage == "goal subsets"]
    assert len(goals) == 3 + 3  # each goal alone, each two goals removed


def test_the_generator_makes_a_smaller_task_where_removals_are_stuck() -> None:
    # three cars a location, and every car somewhere: no removal of up to six linked objects keeps it
    # (the locations hold 4, 4 and 1 cars); the generator's two locations and six cars do
    cars = {f"c{k}": "l0" for k in range(4)} | {f"c{k}": "l1" for k in range(4, 8)} | {"c8": "l2"}
    task = ferry_task(cars, ["l0", "l1", "l2"], "l2", [("c0", "l1")])
    directory = DomainDir.open(DOMAINS / "ferry")
    domain = load_domain(directory.domain_file)
    fails = fails_when(lambda p: count(p, "car") == 3 * count(p, "location") and count(p, "location") >= 2)
    without = shrink_problem(task, BUG, fails, ferry_placed, float("inf"), static=domain.static_predicates,
                             invariants=NO_INVARIANTS)
    assert len(without.problem.objects) == 12 and without.larger_tried
    regenerate = Regenerator(directory, domain, 0, NO_INVARIANTS, {"locations": 3, "cars": 9})
    shrunk = shrink_problem(task, BUG, fails, ferry_placed, float("inf"), static=domain.static_predicates,
                            invariants=NO_INVARIANTS, regenerate=regenerate)
    assert len(shrunk.problem.objects) == 8 and count(shrunk.problem, "location") == 2
    assert {"stage": "generator", "from": 12, "to": 8, "steps": 1} in shrunk.stages()
    assert any(step.startswith("generated afresh with seed 169") for step in shrunk.steps)
    assert "generator 12→8" in shrunk.stages_text()


@pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward's translator is not installed")
def test_a_move_shrinks_where_the_mending_and_the_removal_with_dependents_cannot() -> None:
    # three cars and two locations: every location holds something (the ferry, two cars, one car), a car at a
    # removed location cannot be mended (on the ferry: it is empty), and with it the car goes too
    task = ferry_task({"c0": "l1", "c1": "l1", "c2": "l2"}, ["l0", "l1", "l2"], "l0",
                      [("c0", "l0"), ("c1", "l0"), ("c2", "l0")])
    directory = DomainDir.open(DOMAINS / "ferry")
    domain = load_domain(directory.domain_file)
    invariants = domain_invariants(directory, domain)
    fails = fails_when(lambda p: count(p, "car") == 3 and count(p, "location") == 2)
    shrunk = shrink_problem(task, BUG, fails, ferry_placed, float("inf"), static=domain.static_predicates,
                            invariants=invariants, parents=dict(domain.type_parents))
    assert len(shrunk.problem.objects) == 5 and shrunk.minimal
    assert {"stage": "moves", "from": 6, "to": 5, "steps": 1} in shrunk.stages()
    assert "removed object l1, moving c0 c1 to l0" in shrunk.steps or any(
        step.startswith("removed object l2, moving c2 to ") for step in shrunk.steps)
    assert not invariants.violations(shrunk.problem)


def test_the_sizes_of_a_generated_source_bound_the_generator_stage() -> None:
    assert generated_sizes("generated with seed 70013, locations=2 cars=2") == {"locations": 2, "cars": 2}
    assert generated_sizes("probe car-goal-on-ferry.pddl") is None


# --------------------------------------------------------------------------- one budget, CLI and app


def cli_budget(*flags: str) -> Any:
    from genplan.cli.cmd_counterexample import budget_of, register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return budget_of(parser.parse_args(["counterexample", "p.py", "domains/ferry", *flags]))


def test_the_cli_without_flags_searches_with_the_shared_budget() -> None:
    assert cli_budget() == person_budget()
    assert cli_budget("--seconds", "7", "--timeout", "2") == person_budget(seconds=7, time_limit=2)
    assert person_budget().describe() == ("up to 5 s per program run, 120 s in all: 60 s to search, 60 s to "
                                          "shrink, at most 200 tasks")


def test_the_apps_k_searches_with_the_clis_budget_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import genplan.engine.api.versions as versions
    from genplan.tui.controllers.counterexample import CounterexampleController

    seen: dict[str, Any] = {}

    def spy(*args: Any, **kwargs: Any) -> tuple[dict[str, Any], str]:
        seen.update(kwargs)
        return {"found": False, "task": None, "tasks_tried": 0}, ""

    monkeypatch.setattr(versions, "counterexample_for", spy)
    notes: list[str] = []
    threads: list[Any] = []

    class Host:
        def notify(self, text: str, severity: str = "information") -> None:
            notes.append(text)

        def in_thread(self, work: Any, group: str) -> None:
            threads.append(work)

        def from_thread(self, work: Any) -> None:
            pass

    class Version:
        kind, snapshot, run_id, name = "program", None, "run-1", "c1-v00"
        path = Path("/runs/run-1/programs/c1-v00.py")

        def read(self) -> str:
            return "def generate_solution(objects, init, goal):\n    return []\n"

    class Versions:
        def selected_version(self) -> Version:
            return Version()

    class Ctx:
        runs_dir, domain_dir = Path("/runs"), DOMAINS / "ferry"

    controller = CounterexampleController(Ctx(), Host(), Versions(), None, None)  # type: ignore[arg-type]
    controller.counterexample_selected()
    assert len(threads) == 1
    threads[0]()
    assert seen["budget"] == cli_budget()
    assert person_budget().describe() in notes[-1] and "genplan counterexample" in notes[-1]
