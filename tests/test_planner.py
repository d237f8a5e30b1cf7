"""Classical planners: Fast Downward (separate process) and the built-in search.

Small tasks are written here. With ../shared present, Fast Downward's optimal search must match the
reference optimal plan lengths (plans_pddl) of the 42 debug tasks (instance-0..5 of the 7 domains); that
test runs ~40 planner processes and is marked with its own timeout (the file stays under ~2 minutes).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from genplan.engine.pddl import load_domain, load_problem, parse_domain_text, parse_problem_text
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import LIMIT, SOLVED, UNSOLVABLE, builtin_search, fast_downward_driver, solve

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
BENCHMARKS = SHARED / "benchmarks"
DOMAINS = ["delivery", "ferry", "gripper", "heavy", "hiking", "miconic", "spanner"]

needs_fd = pytest.mark.skipif(
    fast_downward_driver() is None, reason="Fast Downward not found (install up-fast-downward or set GENPLAN_FAST_DOWNWARD)"
)

GRIPPER = """\
(define (domain grip)
  (:requirements :strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room) (at-robby ?room) (free ?gripper))
    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))
  (:action drop :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper) (at-robby ?room))
    :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))
"""

COURIER = """\
(define (domain courier)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types place vehicle parcel - object truck - vehicle)
  (:predicates (at ?v - vehicle ?p - place) (parcel-at ?x - parcel ?p - place)
               (in ?x - parcel ?v - vehicle) (road ?from - place ?to - place) (closed ?p - place))
  (:action drive
    :parameters (?v - vehicle ?from - place ?to - place)
    :precondition (and (at ?v ?from) (road ?from ?to) (not (closed ?to)) (not (= ?from ?to)))
    :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action load
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (at ?v ?p) (parcel-at ?x ?p))
    :effect (and (not (parcel-at ?x ?p)) (in ?x ?v)))
  (:action unload
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (at ?v ?p) (in ?x ?v))
    :effect (and (not (in ?x ?v)) (parcel-at ?x ?p))))
"""


def gripper_problem(balls: int, goal_room: str = "rb") -> str:
    names = " ".join(f"b{i}" for i in range(balls))
    init = " ".join(f"(ball b{i}) (at b{i} ra)" for i in range(balls))
    goal = " ".join(f"(at b{i} {goal_room})" for i in range(balls))
    return (
        f"(define (problem grip-{balls}) (:domain grip) (:objects ra rb left right {names})"
        f" (:init (room ra) (room rb) (gripper left) (gripper right) (free left) (free right) (at-robby ra) {init})"
        f" (:goal (and {goal})))"
    )


def courier_problem(roads: str, goal: str = "(and (parcel-at p1 c) (parcel-at p2 a))") -> str:
    return (
        "(define (problem courier-1) (:domain courier)"
        " (:objects t1 - truck a b c d - place p1 p2 - parcel)"
        f" (:init (at t1 a) (parcel-at p1 a) (parcel-at p2 c) (closed d) {roads})"
        f" (:goal {goal}))"
    )


ROADS = "(road a b) (road b a) (road b c) (road c b) (road a d) (road d c)"


def small_tasks():
    grip = parse_domain_text(GRIPPER, "grip.pddl")
    courier = parse_domain_text(COURIER, "courier.pddl")
    return {
        "gripper-1": (grip, parse_problem_text(gripper_problem(1), grip)),
        "gripper-3": (grip, parse_problem_text(gripper_problem(3), grip)),
        "gripper-4": (grip, parse_problem_text(gripper_problem(4), grip)),
        "courier": (courier, parse_problem_text(courier_problem(ROADS), courier)),
        "already-solved": (grip, parse_problem_text(gripper_problem(2, goal_room="ra"), grip)),
    }


# Optimal plan lengths, worked out by hand: gripper n balls = 2 per ball + 2 moves per trip of two (minus
# the last trip back); courier: load p1, drive a-b-c, unload p1, load p2, drive c-b-a, unload p2
# (the road a-d-c is shorter but d is closed).
OPTIMAL_LENGTHS = {"gripper-1": 3, "gripper-3": 9, "gripper-4": 11, "courier": 8, "already-solved": 0}


@pytest.mark.parametrize("name", list(OPTIMAL_LENGTHS))
def test_builtin_bfs_is_optimal(name: str) -> None:
    domain, problem = small_tasks()[name]
    result = builtin_search(domain, problem, optimal=True, timeout=30)
    assert result.status == SOLVED and result.planner.startswith("builtin")
    assert len(result.plan) == OPTIMAL_LENGTHS[name]
    assert validate_plan(domain, problem, result.plan).valid


@pytest.mark.parametrize("name", ["gripper-3", "courier"])
def test_builtin_greedy_finds_a_valid_plan(name: str) -> None:
    domain, problem = small_tasks()[name]
    result = builtin_search(domain, problem, optimal=False, timeout=30)
    assert result.status == SOLVED and "greedy" in result.planner
    assert len(result.plan) >= OPTIMAL_LENGTHS[name]
    assert validate_plan(domain, problem, result.plan).valid


@needs_fd
@pytest.mark.parametrize("name", list(OPTIMAL_LENGTHS))
def test_fast_downward_optimal_matches_builtin_bfs(name: str) -> None:
    domain, problem = small_tasks()[name]
    fd = solve(domain, problem, optimal=True, timeout=60, planner="fast-downward")
    bfs = solve(domain, problem, optimal=True, timeout=60, planner="builtin")
    assert fd.status == bfs.status == SOLVED, fd.message
    assert fd.planner.startswith("fast-downward") and "LM-cut" in fd.planner
    assert len(fd.plan) == len(bfs.plan) == OPTIMAL_LENGTHS[name]
    assert validate_plan(domain, problem, fd.plan).valid


@needs_fd
def test_fast_downward_satisficing() -> None:
    domain, problem = small_tasks()["gripper-4"]
    result = solve(domain, problem, optimal=False, timeout=60, planner="fast-downward")
    assert result.status == SOLVED and "GBFS" in result.planner
    assert len(result.plan) >= OPTIMAL_LENGTHS["gripper-4"]
    assert validate_plan(domain, problem, result.plan).valid


@pytest.mark.parametrize(
    "case",
    [
        # the goal place c cannot be reached at all (found before search, by reachability)
        "unreachable",
        # every fact of the goal is reachable, just not together: only a search can tell
        "conflicting-goals",
    ],
)
@pytest.mark.parametrize("planner", ["builtin", "fast-downward"])
def test_unsolvable_task(case: str, planner: str) -> None:
    if planner == "fast-downward" and fast_downward_driver() is None:
        pytest.skip("Fast Downward not found (install up-fast-downward or set GENPLAN_FAST_DOWNWARD)")
    courier = parse_domain_text(COURIER, "courier.pddl")
    if case == "unreachable":
        problem = parse_problem_text(courier_problem("(road a b) (road b a) (road c b)"), courier)
    else:
        problem = parse_problem_text(courier_problem(ROADS, "(and (parcel-at p1 c) (in p1 t1))"), courier)
    for optimal in (True, False):
        result = solve(courier, problem, optimal=optimal, timeout=60, planner=planner)
        assert result.status == UNSOLVABLE, result.message
        assert result.plan is None and result.planner.startswith(planner.split("-")[0])


def test_builtin_time_limit() -> None:
    grip = parse_domain_text(GRIPPER, "grip.pddl")
    result = builtin_search(grip, parse_problem_text(gripper_problem(40), grip), optimal=True, timeout=0.2)
    assert result.status == LIMIT and result.plan is None
    assert "limit" in result.message and result.seconds < 5


@needs_fd
def test_fast_downward_time_limit() -> None:
    """Optimal gripper with 40 balls is far beyond A*+LM-cut in a couple of seconds; also with a 1 s limit,
    which the driver alone would turn into a 0 s limit for its translator (an error, not a limit)."""
    grip = parse_domain_text(GRIPPER, "grip.pddl")
    result = solve(grip, parse_problem_text(gripper_problem(40), grip), optimal=True, timeout=1, planner="fast-downward")
    assert result.status == LIMIT, result.message
    assert result.plan is None and "limit" in result.message


@needs_fd
def test_fast_downward_handles_a_tiny_limit_on_an_easy_task() -> None:
    domain, problem = small_tasks()["courier"]
    result = solve(domain, problem, optimal=True, timeout=0.5, planner="fast-downward")
    assert result.status == SOLVED and len(result.plan) == OPTIMAL_LENGTHS["courier"]


def test_explicit_fast_downward_without_a_driver(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GENPLAN_FAST_DOWNWARD", str(tmp_path / "not-there.py"))
    domain, problem = small_tasks()["gripper-1"]
    assert fast_downward_driver() is None
    result = solve(domain, problem, planner="fast-downward")
    assert result.status == "error" and "not installed" in result.message
    assert solve(domain, problem, planner="auto").planner.startswith("builtin")


# ------------------------------------------------------------------ the CLI


def run_plan_cli(tmp_path: Path, problem_text: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "domain.pddl").write_text(COURIER)
    (tmp_path / "problem.pddl").write_text(problem_text)
    return subprocess.run(
        [sys.executable, "-m", "genplan.cli.main", "plan", *options, "domain.pddl", "problem.pddl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_plan_found_exit_0(tmp_path: Path) -> None:
    result = run_plan_cli(tmp_path, courier_problem(ROADS), "--planner", "builtin")
    assert result.returncode == 0, result.stderr
    steps = result.stdout.splitlines()
    assert len(steps) == OPTIMAL_LENGTHS["courier"] and all(s.startswith("(") for s in steps)
    assert result.stderr.strip() == result.stderr.strip().splitlines()[0]
    assert "builtin breadth-first search (optimal)" in result.stderr and "plan of length 8" in result.stderr


def test_cli_no_plan_exit_1(tmp_path: Path) -> None:
    result = run_plan_cli(tmp_path, courier_problem("(road a b)"), "--planner", "builtin", "--satisficing")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "builtin greedy best-first search" in result.stderr and "unsolvable" in result.stderr


@needs_fd
def test_cli_fast_downward_json(tmp_path: Path) -> None:
    result = run_plan_cli(tmp_path, courier_problem(ROADS), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == SOLVED and data["planner"].startswith("fast-downward")
    assert len(data["plan"]) == OPTIMAL_LENGTHS["courier"]


# ------------------------------------------------------------------ the 42 debug tasks of ../shared


def reference_length(domain: str, instance: int) -> int:
    text = (BENCHMARKS / domain / "plans_pddl" / f"instance-{instance}_plan.txt").read_text()
    return sum(1 for line in text.splitlines() if line.strip().startswith("("))


DEBUG_TASKS = [(d, i) for d in DOMAINS for i in range(6)]
# A* + LM-cut alone needs minutes on spanner instance-2 (the delete relaxation lets one spanner tighten every
# nut, so it cannot see dead ends); the optimal search maxes it with merge-and-shrink (engine/planner.py).


@needs_fd
@pytest.mark.timeout(240)
@pytest.mark.parametrize("domain,instance", DEBUG_TASKS)
def test_fast_downward_solves_debug_task_optimally(domain: str, instance: int) -> None:
    if not BENCHMARKS.is_dir():
        pytest.skip(f"../shared not found beside the checkout: {SHARED} (the 42 debug tasks live there)")
    dom = load_domain(BENCHMARKS / domain / "domain.pddl")
    problem = load_problem(BENCHMARKS / domain / "problems_pddl" / f"instance-{instance}.pddl", dom)
    # The issue asks for < 5 s per task (see benchmarks/bench_planner.py); the test allows 10 s for slower machines.
    result = solve(dom, problem, optimal=True, timeout=10, planner="fast-downward")
    assert result.status == SOLVED, result.message
    assert len(result.plan) == reference_length(domain, instance)
    assert validate_plan(dom, problem, result.plan).valid


@needs_fd
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_the_default_optimal_search_builds_its_merge_and_shrink_heuristic_on_a_large_task() -> None:
    """heavy instance-9 (372 variables, 17,391 ground actions): merge-and-shrink's label reduction over all
    transition systems at once did not return within a minute (its main-loop limit is checked only between
    merges), so the default search hit the limit where A* + LM-cut alone solves it in about 12 s; reducing labels
    of the two systems being merged builds the heuristic in about 2 s and the search solves it."""
    if not BENCHMARKS.is_dir():
        pytest.skip(f"../shared not found beside the checkout: {SHARED} (heavy's tasks live there)")
    dom = load_domain(BENCHMARKS / "heavy" / "domain.pddl")
    problem = load_problem(BENCHMARKS / "heavy" / "problems_pddl" / "instance-9.pddl", dom)
    result = solve(dom, problem, optimal=True, timeout=120, planner="fast-downward")
    assert result.status == SOLVED, result.message
    assert "max(LM-cut, merge-and-shrink)" in result.planner
    assert len(result.plan) == reference_length("heavy", 9) == 186
    assert validate_plan(dom, problem, result.plan).valid
