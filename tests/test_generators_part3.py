"""Generator-specific guarantees of beluga, goldminer, minigrid and rovers.

The directory contract is checked for every domain in tests/test_domains_library.py, and the reference
policies (tests/support/<name>_policy.py) are validated on every committed task in
tests/test_generators_part2.py. Here: what each generator promises about the tasks it writes.
"""

from __future__ import annotations

import re

import pytest
from test_generators_part2 import (
    STRATEGIES,
    committed_tasks,
    domain_dir,
    facts,
    generator,
    is_connected,
    objects_of,
    pddl_domain,
    quick_parse,
    read_task,
)

from genplan.engine.pddl import Problem, load_problem
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import solve


def _numbers(cell: str) -> tuple[int, int]:
    row, col = map(int, re.findall(r"\d+", cell))
    return row, col


# ----------------------------------------------------------------------------------------- goldminer
def check_mine(problem: Problem) -> None:
    cells = objects_of(problem, "loc")
    cols = 1 + max(_numbers(c)[1] for c in cells)
    connected = set(facts(problem, "connected"))
    for a, b in connected:
        (ra, ca), (rb, cb) = _numbers(a), _numbers(b)
        assert abs(ra - rb) + abs(ca - cb) == 1 and (b, a) in connected
    clear = {c for (c,) in facts(problem, "clear")}
    soft = {c for (c,) in facts(problem, "soft-rock-at")}
    hard = {c for (c,) in facts(problem, "hard-rock-at")}
    ((gold,),) = facts(problem, "gold-at")
    assert _numbers(gold)[1] == cols - 1 and gold in soft and gold not in clear | hard
    for cell in cells:
        assert len([s for s in (clear, soft, hard) if cell in s]) == 1, f"{cell} is not exactly one of clear/soft/hard"
        if _numbers(cell)[1] == 0 and cell != gold:
            assert cell in clear
    for pred in ("robot-at", "laser-at", "bomb-at"):
        ((cell,),) = facts(problem, pred)
        assert _numbers(cell)[1] == 0 and cell != gold, pred
    assert ("arm-empty",) in problem.init and problem.goal_pos == [("holds-gold",)]


def test_goldminer_tasks_keep_the_generator_layout() -> None:
    for path in committed_tasks("goldminer"):
        check_mine(read_task(path))
    for seed, (rows, cols) in enumerate([(2, 1), (1, 2), (5, 1), (4, 6)]):
        problem = quick_parse(generator("goldminer").generate(seed, rows=rows, cols=cols, hard_percent=100))
        check_mine(problem)
        assert len(objects_of(problem, "loc")) == rows * cols


# ------------------------------------------------------------------------------------------ minigrid
def check_minigrid(problem: Problem) -> None:
    names = [obj for obj, _ in problem.objects]
    places = [p for (p,) in facts(problem, "place")]
    keys = [k for (k,) in facts(problem, "key")]
    shapes = [s for (s,) in facts(problem, "shape")]
    assert sorted(names) == sorted(places + keys + shapes)
    conn = set(facts(problem, "conn"))
    assert all((b, a) in conn for a, b in conn)
    assert is_connected(places, sorted(conn))
    locked = {p for (p,) in facts(problem, "locked")}
    opened = {p for (p,) in facts(problem, "open")}
    assert locked | opened == set(places) and not locked & opened
    assert sorted(p for p, _s in facts(problem, "lock-shape")) == sorted(locked)
    assert sorted(k for k, _s in facts(problem, "key-shape")) == sorted(keys)
    assert all(cell not in locked for _k, cell in facts(problem, "at"))
    ((start,),) = facts(problem, "at-robot")
    ((_pred, target),) = problem.goal_pos
    assert start != target and start in opened


def test_minigrid_tasks_are_consistent() -> None:
    for path in committed_tasks("minigrid"):
        check_minigrid(read_task(path))


def test_minigrid_every_locked_door_has_its_key_before_it() -> None:
    for seed in range(6):
        problem = quick_parse(generator("minigrid").generate(seed, rooms=4, size=2, locked_percent=100, shapes=3,
                                                             extra_keys=0))
        check_minigrid(problem)
        locks = dict(facts(problem, "lock-shape"))
        assert len(locks) == 3
        conn = facts(problem, "conn")
        ((start,),) = facts(problem, "at-robot")
        distance = _distances(start, conn, blocked=set())
        doors = sorted(locks, key=lambda cell: distance[cell])  # the rooms form a row: doors left to right
        key_at = dict(facts(problem, "at"))
        for k, (key, shape) in enumerate(facts(problem, "key-shape")):  # one key per door, in door order
            assert shape == locks[doors[k]]
            assert key_at[key] in _distances(start, conn, blocked=set(doors[k:])), f"{key} lies behind its door"


def _distances(start: str, conn: list[tuple[str, ...]], blocked: set[str]) -> dict[str, int]:
    neighbours: dict[str, list[str]] = {}
    for a, b in conn:
        neighbours.setdefault(a, []).append(b)
    distance = {start: 0}
    frontier = [start]
    while frontier:
        here = frontier.pop(0)
        for other in neighbours.get(here, []):
            if other not in distance and other not in blocked:
                distance[other] = distance[here] + 1
                frontier.append(other)
    return distance


def test_minigrid_single_room_without_doors() -> None:
    problem = quick_parse(generator("minigrid").generate(3, rooms=1, size=3, extra_keys=0))
    check_minigrid(problem)
    assert len(facts(problem, "place")) == 9 and not facts(problem, "locked") and not facts(problem, "key")


# -------------------------------------------------------------------------------------------- rovers
def check_rovers(problem: Problem) -> None:
    waypoints = objects_of(problem, "waypoint")
    visible = set(facts(problem, "visible"))
    assert all((b, a) in visible for a, b in visible)
    assert is_connected(waypoints, sorted(visible))
    for rover in objects_of(problem, "rover"):
        links = [(a, b) for r, a, b in facts(problem, "can_traverse") if r == rover]
        assert set(links) <= visible and is_connected(waypoints, links), f"{rover} cannot reach every waypoint"
    soil = {w for (w,) in facts(problem, "at_soil_sample")}
    rock = {w for (w,) in facts(problem, "at_rock_sample")}
    imagers = {r for (r,) in facts(problem, "equipped_for_imaging")}
    on_board = dict(facts(problem, "on_board"))
    assert set(on_board.values()) <= imagers
    supported = {m for c, m in facts(problem, "supports")}
    assert {o for o, _w in facts(problem, "visible_from")} == set(objects_of(problem, "objective"))
    for goal in problem.goal_pos:
        if goal[0] == "communicated_soil_data":
            assert goal[1] in soil and facts(problem, "equipped_for_soil_analysis")
        elif goal[0] == "communicated_rock_data":
            assert goal[1] in rock and facts(problem, "equipped_for_rock_analysis")
        else:
            assert goal[0] == "communicated_image_data" and goal[2] in supported


def test_rovers_tasks_are_consistent() -> None:
    for name, specs in (("debug", generator("rovers").DEBUG_SPECS), ("eval", generator("rovers").EVAL_SPECS)):
        for index, (_seed, sizes) in enumerate(specs):
            problem = read_task(domain_dir("rovers").task_file(name, index))
            check_rovers(problem)
            kinds = [goal[0] for goal in problem.goal_pos]
            assert kinds.count("communicated_soil_data") == sizes["soil_goals"]
            assert kinds.count("communicated_rock_data") == sizes["rock_goals"]
            assert kinds.count("communicated_image_data") == sizes["image_goals"]


def test_rovers_visibility_is_a_tree_plus_the_requested_links() -> None:
    """extra_links is a count, so the graph stays sparse however many waypoints there are."""
    for waypoints, extra in ((2, 5), (50, 0), (50, 20)):
        problem = quick_parse(generator("rovers").generate(2, rovers=2, waypoints=waypoints, extra_links=extra))
        check_rovers(problem)
        pairs = waypoints * (waypoints - 1) // 2
        assert len(facts(problem, "visible")) == 2 * min(pairs, waypoints - 1 + extra)


# -------------------------------------------------------------------------------------------- beluga
def check_beluga(problem: Problem, capacity: int) -> None:
    parts = objects_of(problem, "part")
    after = dict(facts(problem, "next-to-unload"))
    ((part,),) = facts(problem, "ready-to-unload")
    flight = []
    while part != "nonep":
        flight.append(part)
        part = after[part]
    assert sorted(flight) == sorted(parts), "the flight does not carry every part once"
    succ = dict(facts(problem, "p-line-succ"))
    on_lines = []
    for _line, first in facts(problem, "p-line-next"):
        part = first
        while part != "nonep":
            on_lines.append(part)
            part = succ[part]
    assert sorted(on_lines) == sorted(parts), "the lines do not ask for every part once"
    for a, b, c in facts(problem, "fit-n-sum"):
        assert int(a[1:]) + int(b[1:]) == int(c[1:]) <= capacity
    sizes = [int(n[1:]) for _p, n in facts(problem, "size")]
    assert all(3 <= s <= 6 for s in sizes) and len(sizes) == len(parts)
    assert sorted(r for r, n in facts(problem, "level") if n == "n00") == sorted(objects_of(problem, "rack"))
    assert ("needed-next", "nonep") in problem.init
    assert sorted(problem.goal_pos) == sorted(("processed", p) for p in parts)


def test_beluga_tasks_are_consistent() -> None:
    for name, specs in (("debug", generator("beluga").DEBUG_SPECS), ("eval", generator("beluga").EVAL_SPECS)):
        for index, (_seed, sizes) in enumerate(specs):
            problem = read_task(domain_dir("beluga").task_file(name, index))
            check_beluga(problem, sizes["capacity"])
            assert len(objects_of(problem, "part")) == sizes["parts"]
            assert len(objects_of(problem, "production-line")) == sizes["lines"]


def test_beluga_strategy_check_rejects_a_stuck_order() -> None:
    gen = generator("beluga")
    # one rack, the flight in reverse request order: the strategy gets stuck
    assert not gen.strategy_succeeds([1, 0], [0, 1], [3, 3], racks=1, capacity=15)
    assert gen.strategy_succeeds([1, 0], [0, 1], [3, 3], racks=2, capacity=15)
    # parts 1 and 2 must share a rack so that part 0 finds an empty one: only with room for both
    assert not gen.strategy_succeeds([1, 2, 0], [0, 1, 2], [6, 6, 6], racks=2, capacity=11)
    assert gen.strategy_succeeds([1, 2, 0], [0, 1, 2], [6, 6, 6], racks=2, capacity=12)
    assert gen.request_order([[2, 0], [1], [3, 4]]) == [2, 1, 3, 0, 4]


@pytest.mark.parametrize("lines", [1, 2, 3])
def test_beluga_lines_split_the_parts(lines: int) -> None:
    problem = quick_parse(generator("beluga").generate(4, parts=7, racks=4, lines=lines))
    check_beluga(problem, 15)
    assert len(facts(problem, "p-line-next")) == lines


# ------------------------------------------------------------------------- optimal plans of the debug tasks
NEW_DOMAINS = ("beluga", "goldminer", "minigrid", "rovers")
DEBUG_CASES = [(name, index) for name in NEW_DOMAINS for index in range(6)]


@pytest.mark.parametrize(("name", "index"), DEBUG_CASES, ids=[f"{n}-{i}" for n, i in DEBUG_CASES])
def test_debug_task_has_an_optimal_plan_no_longer_than_the_policy(name: str, index: int) -> None:
    """The optimal planner solves each debug task (the pipeline shows optimal plans as examples), and its
    plan is valid and never longer than the reference policy's, which is valid too."""
    domain = pddl_domain(name)
    problem = load_problem(domain_dir(name).task_file("debug", index), domain)
    result = solve(domain, problem, optimal=True, timeout=60)
    assert result.solved and result.plan is not None, result.summary()
    assert validate_plan(domain, problem, result.plan).valid
    policy_plan = STRATEGIES[name](problem)
    assert validate_plan(domain, problem, policy_plan).valid
    assert len(result.plan) <= len(policy_plan)


@pytest.mark.parametrize("name", NEW_DOMAINS)
def test_some_probe_is_beyond_the_reference_policy(name: str) -> None:
    """The probes test what the generator never makes: the policy, written for generated tasks, fails on at
    least one of them (with an exception or an invalid plan), while the planner solves all (test_probes.py)."""
    domain = pddl_domain(name)
    failures = []
    for path in domain_dir(name).probe_tasks():
        problem = load_problem(path, domain)
        try:
            valid = validate_plan(domain, problem, STRATEGIES[name](problem)).valid
        except (ValueError, KeyError, StopIteration):
            valid = False
        if not valid:
            failures.append(path.name)
    assert failures, f"{name}: the reference policy solves every probe"
