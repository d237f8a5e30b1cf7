"""Generator-specific guarantees of delivery, heavy, hiking, visitall, satellite and transport (beluga,
goldminer, minigrid and rovers: tests/test_generators_part3.py).

tests/test_domains_library.py checks the directory contract for every domain. Here we check what each
generator promises about its tasks (hiking: the trail is a simple path that never touches water; heavy:
heavier is a strict total order; ...) and that every committed task is solvable: a small hand-written
strategy per domain produces a plan that the project's validator accepts.

Parsing all eval tasks with the full PDDL loader takes tens of seconds, so the committed tasks are read
with `quick_parse` (enough for the flat files our generators write); it is checked against the real
loader on the debug tasks.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import deque
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from support.beluga_policy import plan_beluga
from support.goldminer_policy import plan_goldminer
from support.minigrid_policy import plan_minigrid
from support.rovers_policy import plan_rovers

from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import Domain, Problem, load_domain, load_problem
from genplan.engine.pddl.validate import PlanValidator

DOMAINS_ROOT = Path(__file__).resolve().parents[1] / "domains"
PART2 = ("delivery", "heavy", "hiking", "visitall", "satellite", "transport",
         "beluga", "goldminer", "minigrid", "rovers")
Fact = tuple[str, ...]


# ------------------------------------------------------------------------------------------------ helpers
@cache
def domain_dir(name: str) -> DomainDir:
    return DomainDir.open(DOMAINS_ROOT / name)


@cache
def generator(name: str) -> ModuleType:
    return domain_dir(name).load_generator()


@cache
def pddl_domain(name: str) -> Domain:
    return load_domain(DOMAINS_ROOT / name / "domain.pddl")


def committed_tasks(name: str) -> list[Path]:
    directory = domain_dir(name)
    return [*directory.debug_tasks(), *directory.eval_tasks()]


def _section(text: str, keyword: str) -> str:
    start = text.index(f"({keyword}")
    depth = 0
    for index in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[start + len(keyword) + 1:index]
    raise ValueError(f"unbalanced {keyword} section")


def quick_parse(text: str, name: str = "task") -> Problem:
    """Objects, init and goal of a generator-written problem (flat atoms only, no comments inside)."""
    text = "\n".join(line.split(";", 1)[0] for line in text.lower().splitlines())
    tokens = _section(text, ":objects").split()
    objects: list[tuple[str, str]] = []
    pending: list[str] = []
    index = 0
    while index < len(tokens):
        if tokens[index] == "-":
            objects += [(obj, tokens[index + 1]) for obj in pending]
            pending = []
            index += 2
        else:
            pending.append(tokens[index])
            index += 1
    objects += [(obj, "object") for obj in pending]

    def atoms(section: str) -> list[Fact]:
        return [tuple(atom.split()) for atom in re.findall(r"\(([^()]+)\)", section)]

    goal = [fact for fact in atoms(_section(text, ":goal")) if fact != ("and",)]
    return Problem(name, "", None, objects, atoms(_section(text, ":init")), goal, [])


def read_task(path: Path) -> Problem:
    return quick_parse(path.read_text(encoding="utf-8"), str(path))


def facts(problem: Problem, predicate: str) -> list[Fact]:
    return [fact[1:] for fact in problem.init if fact[0] == predicate]


def objects_of(problem: Problem, type_name: str) -> list[str]:
    return [obj for obj, typ in problem.objects if typ == type_name]


def is_connected(nodes: list[str], edges: list[Fact]) -> bool:
    neighbours: dict[str, list[str]] = {node: [] for node in nodes}
    for a, b in edges:
        neighbours[a].append(b)
    seen = {nodes[0]}
    frontier = [nodes[0]]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return len(seen) == len(nodes)


def shortest_path(start: str, target: str, edges: list[Fact]) -> list[str]:
    neighbours: dict[str, list[str]] = {}
    for a, b in edges:
        neighbours.setdefault(a, []).append(b)
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for other in neighbours.get(here, []):
            if other not in parent:
                parent[other] = here
                queue.append(other)
    path = [target]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])  # type: ignore[arg-type]
    return path[::-1]


# ------------------------------------------------------------------------------- reference strategies
def plan_delivery(problem: Problem) -> list[str]:
    ((home,),) = facts(problem, "ishomebase")
    wanting = [loc for (loc,) in facts(problem, "wantspaper")]
    papers = [paper for (paper,) in facts(problem, "unpacked")][: len(wanting)]
    plan = [f"(pick-up {paper} {home})" for paper in papers]
    here = home
    for loc, paper in zip(wanting, papers):
        plan += [f"(move {here} {loc})", f"(deliver {paper} {loc})"]
        here = loc
    return plan


def plan_heavy(problem: Problem) -> list[str]:
    lighter_count: dict[str, int] = {obj: 0 for obj, _ in problem.objects}
    for heavy, _light in facts(problem, "heavier"):
        lighter_count[heavy] += 1
    order = sorted(lighter_count, key=lambda obj: -lighter_count[obj])
    return [f"(pack-first {order[0]})"] + [f"(stack {a} {b})" for a, b in zip(order, order[1:])]


def plan_hiking(problem: Problem) -> list[str]:
    (here,) = facts(problem, "at")[0]
    hills = {loc for (loc,) in facts(problem, "ishill")}
    following = dict(facts(problem, "ontrail"))
    plan = []
    while here in following:
        nxt = following[here]
        plan.append(f"({'climb' if nxt in hills else 'walk'} {here} {nxt})")
        here = nxt
    return plan


def plan_visitall(problem: Problem) -> list[str]:
    """A depth-first tour over all places (walking back along the tree when stuck)."""
    (start,) = facts(problem, "at-robot")[0]
    neighbours: dict[str, list[str]] = {}
    for a, b in facts(problem, "connected"):
        neighbours.setdefault(a, []).append(b)
    plan: list[str] = []
    visited = {start}
    stack = [start]
    while stack:
        here = stack[-1]
        fresh = [n for n in neighbours.get(here, []) if n not in visited]
        if fresh:
            visited.add(fresh[0])
            stack.append(fresh[0])
            plan.append(f"(move {here} {fresh[0]})")
        else:
            stack.pop()
            if stack:
                plan.append(f"(move {here} {stack[-1]})")
    return plan


def plan_satellite(problem: Problem) -> list[str]:
    on_board = {inst: sat for inst, sat in facts(problem, "on_board")}
    supports = facts(problem, "supports")
    target = dict(facts(problem, "calibration_target"))
    pointing = dict(facts(problem, "pointing"))
    powered: dict[str, str] = {}  # satellite -> its switched-on (and calibrated) instrument
    plan: list[str] = []

    def turn(sat: str, direction: str) -> None:
        if pointing[sat] != direction:
            plan.append(f"(turn_to {sat} {direction} {pointing[sat]})")
            pointing[sat] = direction

    for fact in problem.goal_pos:
        if fact[0] != "have_image":
            continue
        direction, mode = fact[1:]
        inst = next(i for i, m in supports if m == mode)
        sat = on_board[inst]
        if powered.get(sat) != inst:
            if sat in powered:
                plan.append(f"(switch_off {powered[sat]} {sat})")
            plan.append(f"(switch_on {inst} {sat})")
            turn(sat, target[inst])
            plan.append(f"(calibrate {sat} {inst} {target[inst]})")
            powered[sat] = inst
        turn(sat, direction)
        plan.append(f"(take_image {sat} {direction} {inst} {mode})")
    for fact in problem.goal_pos:
        if fact[0] == "pointing":
            turn(fact[1], fact[2])
    return plan


def plan_transport(problem: Problem) -> list[str]:
    """The first truck carries the packages one by one."""
    truck = objects_of(problem, "vehicle")[0]
    at = dict(facts(problem, "at"))
    roads = facts(problem, "road")
    (size,) = next(rest for t, *rest in facts(problem, "capacity") if t == truck)
    smaller = {bigger: less for less, bigger in facts(problem, "capacity-predecessor")}
    plan: list[str] = []
    here = at[truck]

    def drive(to: str) -> str:
        path = shortest_path(here, to, roads)
        plan.extend(f"(drive {truck} {a} {b})" for a, b in zip(path, path[1:]))
        return to

    for _pred, package, goal in problem.goal_pos:
        here = drive(at[package])
        plan.append(f"(pick-up {truck} {here} {package} {smaller[size]} {size})")
        here = drive(goal)
        plan.append(f"(drop {truck} {here} {package} {smaller[size]} {size})")
    return plan


STRATEGIES = {
    "delivery": plan_delivery,
    "heavy": plan_heavy,
    "hiking": plan_hiking,
    "visitall": plan_visitall,
    "satellite": plan_satellite,
    "transport": plan_transport,
    # reference policies of the four domains added last (tests/support/<name>_policy.py)
    "beluga": plan_beluga,
    "goldminer": plan_goldminer,
    "minigrid": plan_minigrid,
    "rovers": plan_rovers,
}


# ------------------------------------------------------------------------------------- common checks
@pytest.mark.parametrize("name", PART2)
def test_quick_parse_agrees_with_the_loader(name: str) -> None:
    for path in domain_dir(name).debug_tasks():
        real = load_problem(path, pddl_domain(name))
        quick = read_task(path)
        assert sorted(quick.objects) == sorted(real.objects), path
        assert sorted(quick.init) == sorted(real.init), path
        assert sorted(quick.goal_pos) == sorted(real.goal_pos) and not real.goal_neg, path


@pytest.mark.parametrize("name", PART2)
def test_every_committed_task_is_solved_by_a_simple_strategy(name: str) -> None:
    for path in committed_tasks(name):
        problem = read_task(path)
        plan = STRATEGIES[name](problem)
        result = PlanValidator(pddl_domain(name), problem).validate(plan)
        assert result.valid, f"{path}: {result}"


@pytest.mark.parametrize("name", PART2)
def test_cli_prints_what_generate_returns(name: str) -> None:
    seed, sizes = generator(name).DEBUG_SPECS[-1]
    options = [part for key, value in sizes.items() for part in (f"--{key}", str(value))]
    printed = subprocess.run(
        [sys.executable, str(DOMAINS_ROOT / name / "generator.py"), "--seed", str(seed), *options],
        capture_output=True, text=True, check=True,
    ).stdout
    assert printed == generator(name).generate(seed, **sizes)


@pytest.mark.parametrize(
    ("name", "sizes"),
    [
        ("delivery", {"locations": 1}),
        ("delivery", {"locations": 4, "wanting": 4}),
        ("delivery", {"spare_papers": -1}),
        ("heavy", {"items": 0}),
        ("hiking", {"rows": 1, "cols": 1}),
        ("hiking", {"water_percent": 101}),
        ("visitall", {"width": 1, "height": 1}),
        ("visitall", {"goal_percent": 0}),
        ("visitall", {"hole_percent": 60}),
        ("satellite", {"targets": 2, "modes": 1, "observations": 3}),
        ("satellite", {"satellites": 1, "pointing_goals": 2}),
        ("transport", {"locations": 1}),
        ("transport", {"capacity": 0}),
        ("beluga", {"parts": 0}),
        ("beluga", {"capacity": 5}),
        ("beluga", {"parts": 3, "lines": 4}),
        ("beluga", {"parts": 12, "racks": 1, "capacity": 6}),
        ("goldminer", {"rows": 1, "cols": 1}),
        ("goldminer", {"hard_percent": 101}),
        ("minigrid", {"rooms": 1, "size": 1}),
        ("minigrid", {"shapes": 0}),
        ("rovers", {"waypoints": 1}),
        ("rovers", {"waypoints": 3, "soil_goals": 4}),
        ("rovers", {"objectives": 1, "image_goals": 4}),
        ("rovers", {"cameras": 0, "image_goals": 1}),
    ],
)
def test_impossible_sizes_are_rejected(name: str, sizes: dict[str, int]) -> None:
    complete = domain_dir(name).check_sizes(sizes)
    with pytest.raises(ValueError):
        generator(name).generate(1, **complete)


# ----------------------------------------------------------------------------------------- delivery
def check_delivery(problem: Problem) -> None:
    homes = [loc for (loc,) in facts(problem, "ishomebase")]
    wanting = [loc for (loc,) in facts(problem, "wantspaper")]
    assert len(homes) == 1 and homes[0] not in wanting
    assert facts(problem, "at") == [(homes[0],)]
    assert sorted(loc for (loc,) in facts(problem, "safe")) == sorted(homes + wanting)
    assert len(facts(problem, "unpacked")) == len(objects_of(problem, "paper")) >= len(wanting) >= 1
    assert sorted(problem.goal_pos) == sorted(("satisfied", loc) for loc in wanting)


def test_delivery_tasks_have_one_home_base_and_enough_papers() -> None:
    for path in committed_tasks("delivery"):
        check_delivery(read_task(path))
    problem = quick_parse(generator("delivery").generate(5, locations=9, wanting=8, spare_papers=2))
    check_delivery(problem)
    assert len(objects_of(problem, "paper")) == 10
    assert len(objects_of(problem, "loc")) - len(facts(problem, "safe")) == 0  # every location wants or is home


# -------------------------------------------------------------------------------------------- heavy
def check_strict_total_order(problem: Problem) -> None:
    items = [obj for obj, _ in problem.objects]
    heavier = set(facts(problem, "heavier"))
    for a in items:
        assert (a, a) not in heavier
        for b in items:
            if a != b:
                assert ((a, b) in heavier) != ((b, a) in heavier), f"{a}, {b} not ordered exactly once"
    for a, b in heavier:
        for c in items:
            if (b, c) in heavier:
                assert (a, c) in heavier, f"not transitive: {a} > {b} > {c}"
    assert sorted(problem.init) == sorted([("box-empty",), *(("unpacked", i) for i in items),
                                           *(("heavier", a, b) for a, b in heavier)])
    assert sorted(problem.goal_pos) == sorted(("packed", item) for item in items)


def test_heavy_heavier_is_a_strict_total_order() -> None:
    for path in domain_dir("heavy").debug_tasks() + domain_dir("heavy").eval_tasks()[:12]:
        check_strict_total_order(read_task(path))
    for seed in range(5):
        problem = quick_parse(generator("heavy").generate(seed, items=seed + 1))
        check_strict_total_order(problem)
        assert len({obj for obj, _ in problem.objects}) == seed + 1


def test_heavy_names_do_not_reveal_the_weights() -> None:
    """The weight order is a shuffle, not the order of the numbers in the names."""
    orders = []
    for seed in range(4):
        problem = quick_parse(generator("heavy").generate(seed, items=6))
        heaviest = max(problem.objects, key=lambda o: sum(1 for a, _b in facts(problem, "heavier") if a == o[0]))
        numbers = sorted(int(obj[1:]) for obj, _ in problem.objects)
        orders.append(numbers.index(int(heaviest[0][1:])))
    assert len(set(orders)) > 1


# ------------------------------------------------------------------------------------------- hiking
def check_trail(problem: Problem) -> None:
    (start,) = facts(problem, "at")[0]
    ((goal_pred, target),) = problem.goal_pos
    assert goal_pred == "at"
    adjacent = set(facts(problem, "adjacent"))
    assert all((b, a) in adjacent for a, b in adjacent)
    water = {loc for (loc,) in facts(problem, "iswater")}
    hills = {loc for (loc,) in facts(problem, "ishill")}
    assert start not in hills and not water & hills
    steps = facts(problem, "ontrail")
    trail = [start] + [b for _a, b in steps]
    assert [a for a, _b in steps] == trail[:-1], "trail facts are not one chain from the start"
    assert trail[-1] == target
    assert len(set(trail)) == len(trail), "trail visits a cell twice"
    assert all(step in adjacent for step in steps)
    assert not water & set(trail), "trail touches water"


def test_hiking_trail_is_a_simple_dry_path_from_start_to_target() -> None:
    for path in committed_tasks("hiking"):
        check_trail(read_task(path))
    for seed, (rows, cols) in enumerate([(1, 2), (2, 1), (1, 7), (3, 3), (12, 5)]):
        check_trail(quick_parse(generator("hiking").generate(seed, rows=rows, cols=cols, water_percent=100)))


def test_hiking_adjacency_is_the_four_neighbourhood() -> None:
    problem = quick_parse(generator("hiking").generate(3, rows=4, cols=5))
    assert len(problem.objects) == 20
    assert len(facts(problem, "adjacent")) == 2 * (4 * 4 + 3 * 5)
    for a, b in facts(problem, "adjacent"):
        (ra, ca), (rb, cb) = (map(int, re.findall(r"\d+", cell)) for cell in (a, b))
        assert abs(ra - rb) + abs(ca - cb) == 1


def test_hiking_full_water_leaves_only_the_trail_dry() -> None:
    problem = quick_parse(generator("hiking").generate(8, rows=6, cols=6, water_percent=100, hill_percent=0))
    dry = len(problem.objects) - len(facts(problem, "iswater"))
    assert dry == len(facts(problem, "ontrail")) + 1
    assert facts(problem, "ishill") == []


# ----------------------------------------------------------------------------------------- visitall
def check_grid(problem: Problem) -> None:
    places = objects_of(problem, "place")
    connected = facts(problem, "connected")
    assert all((b, a) in set(connected) for a, b in connected)
    for a, b in connected:
        (xa, ya), (xb, yb) = (map(int, re.findall(r"\d+", cell)) for cell in (a, b))
        assert abs(xa - xb) + abs(ya - yb) == 1
    assert is_connected(places, connected)
    (start,) = facts(problem, "at-robot")[0]
    assert ("visited", start) in problem.init
    assert {place for _p, place in problem.goal_pos} <= set(places)


def test_visitall_grids_are_connected_and_goals_are_places() -> None:
    for path in committed_tasks("visitall"):
        check_grid(read_task(path))


def test_visitall_holes_and_partial_goals() -> None:
    full = quick_parse(generator("visitall").generate(2, width=6, height=5))
    assert len(full.objects) == 30 and len(full.goal_pos) == 30
    holes = quick_parse(generator("visitall").generate(2, width=6, height=5, hole_percent=20, goal_percent=50))
    check_grid(holes)
    assert len(holes.objects) == 30 - 6
    assert len(holes.goal_pos) == 12


# ---------------------------------------------------------------------------------------- satellite
def check_satellite(problem: Problem, stations: int) -> None:
    instruments = objects_of(problem, "instrument")
    satellites = objects_of(problem, "satellite")
    station_dirs = objects_of(problem, "direction")[:stations]
    assert sorted(i for i, _s in facts(problem, "on_board")) == sorted(instruments)
    assert sorted(i for i, _d in facts(problem, "calibration_target")) == sorted(instruments)
    assert all(d in station_dirs for _i, d in facts(problem, "calibration_target"))
    assert sorted(s for s, _d in facts(problem, "pointing")) == sorted(satellites)
    assert sorted(s for (s,) in facts(problem, "power_avail")) == sorted(satellites)
    supported = {m for _i, m in facts(problem, "supports")}
    assert supported == set(objects_of(problem, "mode"))
    images = [fact[1:] for fact in problem.goal_pos if fact[0] == "have_image"]
    assert len(images) == len(set(images))
    assert all(d not in station_dirs for d, _m in images)


def test_satellite_tasks_are_consistent() -> None:
    for name, specs in (("debug", generator("satellite").DEBUG_SPECS), ("eval", generator("satellite").EVAL_SPECS)):
        for index, (_seed, sizes) in enumerate(specs):
            problem = read_task(domain_dir("satellite").task_file(name, index))
            check_satellite(problem, sizes["stations"])
            assert len([f for f in problem.goal_pos if f[0] == "have_image"]) == sizes["observations"]
            assert len([f for f in problem.goal_pos if f[0] == "pointing"]) == sizes["pointing_goals"]
            per_satellite = [s for _i, s in facts(problem, "on_board")]
            assert all(1 <= per_satellite.count(s) <= sizes["instruments"] for s in set(per_satellite))


# ---------------------------------------------------------------------------------------- transport
def check_transport(problem: Problem, capacity: int) -> None:
    locations = objects_of(problem, "location")
    roads = facts(problem, "road")
    assert all((b, a) in set(roads) for a, b in roads)
    assert is_connected(locations, roads)
    sizes = objects_of(problem, "capacity-number")
    assert sizes == [f"capacity-{k}" for k in range(capacity + 1)]
    assert facts(problem, "capacity-predecessor") == list(zip(sizes, sizes[1:]))
    trucks = objects_of(problem, "vehicle")
    truck_capacity = dict(facts(problem, "capacity"))
    assert sorted(truck_capacity) == sorted(trucks)
    assert all(min(2, capacity) <= int(truck_capacity[t].split("-")[1]) <= capacity for t in trucks)
    at = dict(facts(problem, "at"))
    assert all(at[package] != goal for _p, package, goal in problem.goal_pos)
    assert sorted(p for _pred, p, _g in problem.goal_pos) == sorted(objects_of(problem, "package"))


def test_transport_roads_connect_everything_and_capacities_chain() -> None:
    for name, specs in (("debug", generator("transport").DEBUG_SPECS), ("eval", generator("transport").EVAL_SPECS)):
        for index, (_seed, sizes) in enumerate(specs):
            check_transport(read_task(domain_dir("transport").task_file(name, index)), sizes["capacity"])
