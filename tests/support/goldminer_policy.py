"""A hand-written reference policy for domains/goldminer (a solvability proof for every generated task).

Fetch the laser, shoot a path to a cell next to the gold (never at the gold: the laser would destroy it),
leave the laser there, fetch a bomb along the cleared cells, blow the soft rock off the gold and take it.
"""

from __future__ import annotations

import itertools
from collections import deque

from genplan.engine.pddl import Problem


def _path(start: str, goal: str, neighbours: dict[str, list[str]], allowed: set[str]) -> list[str]:
    """Cells from start to goal (both included) through allowed cells, breadth first."""
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for other in neighbours.get(here, []):
            if other not in parent and other in allowed:
                parent[other] = here
                queue.append(other)
    if goal not in parent:
        raise ValueError(f"no path from {start} to {goal}")
    path = [goal]
    while (before := parent[path[-1]]) is not None:
        path.append(before)
    return path[::-1]


def plan_goldminer(problem: Problem) -> list[str]:
    facts = problem.init
    neighbours: dict[str, list[str]] = {}
    for fact in facts:
        if fact[0] == "connected":
            neighbours.setdefault(fact[1], []).append(fact[2])
    cells = {name for name, _type in problem.objects}
    clear = {fact[1] for fact in facts if fact[0] == "clear"}
    (robot,) = [fact[1] for fact in facts if fact[0] == "robot-at"]
    (laser,) = [fact[1] for fact in facts if fact[0] == "laser-at"]
    bomb = next(fact[1] for fact in facts if fact[0] == "bomb-at")
    (gold,) = [fact[1] for fact in facts if fact[0] == "gold-at"]
    plan: list[str] = []

    def walk(path: list[str], shoot: bool) -> str:
        for here, there in itertools.pairwise(path):
            if there not in clear:
                if not shoot:
                    raise ValueError(f"{there} is blocked")
                plan.append(f"(fire-laser {here} {there})")
                clear.add(there)
            plan.append(f"(move {here} {there})")
        return path[-1]

    robot = walk(_path(robot, laser, neighbours, cells - {gold}), shoot=False)
    plan.append(f"(pickup-laser {robot})")
    beside = min(neighbours[gold], key=lambda c: len(_path(robot, c, neighbours, cells - {gold})))
    robot = walk(_path(robot, beside, neighbours, cells - {gold}), shoot=True)
    plan.append(f"(putdown-laser {robot})")
    robot = walk(_path(robot, bomb, neighbours, clear), shoot=False)
    plan.append(f"(pickup-bomb {robot})")
    robot = walk(_path(robot, beside, neighbours, clear), shoot=False)
    plan += [f"(detonate-bomb {robot} {gold})", f"(move {robot} {gold})", f"(pick-gold {gold})"]
    return plan
