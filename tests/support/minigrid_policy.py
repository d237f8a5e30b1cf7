"""A hand-written reference policy for domains/minigrid (a solvability proof for every generated task).

Repeat: if the goal cell is reachable over open cells, walk there. Otherwise take a locked cell next to the
reachable area for which a key of the lock's shape is carried or lies on a reachable cell, fetch that key
(swapping it for the carried one if needed), walk next to the lock and unlock it.
"""

from __future__ import annotations

import itertools
from collections import deque

from genplan.engine.pddl import Problem


def _reachable(start: str, neighbours: dict[str, list[str]], open_cells: set[str]) -> dict[str, str | None]:
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for other in neighbours.get(here, []):
            if other not in parent and other in open_cells:
                parent[other] = here
                queue.append(other)
    return parent


def _path_to(cell: str, parent: dict[str, str | None]) -> list[str]:
    path = [cell]
    while (before := parent[path[-1]]) is not None:
        path.append(before)
    return path[::-1]


def plan_minigrid(problem: Problem) -> list[str]:
    facts = problem.init
    neighbours: dict[str, list[str]] = {}
    for fact in facts:
        if fact[0] == "conn":
            neighbours.setdefault(fact[1], []).append(fact[2])
    open_cells = {fact[1] for fact in facts if fact[0] == "open"}
    locks = {fact[1]: fact[2] for fact in facts if fact[0] == "lock-shape"}
    locked = {fact[1] for fact in facts if fact[0] == "locked"}
    key_shape = {fact[1]: fact[2] for fact in facts if fact[0] == "key-shape"}
    key_at = {fact[1]: fact[2] for fact in facts if fact[0] == "at"}
    held = next((fact[1] for fact in facts if fact[0] == "holding"), None)
    (robot,) = [fact[1] for fact in facts if fact[0] == "at-robot"]
    ((_pred, target),) = problem.goal_pos
    plan: list[str] = []

    def walk(cell: str) -> str:
        path = _path_to(cell, _reachable(robot, neighbours, open_cells))
        plan.extend(f"(move {a} {b})" for a, b in itertools.pairwise(path))
        return cell

    while True:
        reach = _reachable(robot, neighbours, open_cells)
        if target in reach:
            walk(target)
            return plan
        progress = False
        for lock in sorted(locked, key=lambda c: int(c[1:]) if c[1:].isdigit() else 0):
            beside = [cell for cell in neighbours.get(lock, []) if cell in reach]
            shape = locks.get(lock)
            if not beside or shape is None:
                continue
            if held is None or key_shape[held] != shape:
                keys = [k for k, cell in key_at.items() if key_shape[k] == shape and cell in reach]
                if not keys:
                    continue
                robot = walk(key_at[keys[0]])
                if held is None:
                    plan.append(f"(pickup {robot} {keys[0]})")
                else:
                    plan.append(f"(pickup-and-loose {robot} {keys[0]} {held})")
                    key_at[held] = robot
                del key_at[keys[0]]
                held = keys[0]
            robot = walk(beside[0])
            plan.append(f"(unlock {robot} {lock} {held} {shape})")
            locked.discard(lock)
            open_cells.add(lock)
            progress = True
            break
        if not progress:
            raise ValueError("no reachable lock can be opened")
