"""genplan's own AutoToS instances and unit-test data, so the approach runs with no external data.

24 Game: random puzzles (numbers 1..13), solvability decided by exhaustive search; unit tests are the
paper's goal/non-goal states and the complete successor sets of the unit-test puzzles (computed by the
reference successor function). BlocksWorld: random towers and goals; unit tests from reference successors.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from .domains import (
    Instance,
    SearchDomain,
    _blocks_goal,
    _is_24,
    _validate_24,
    _validate_blocks,
    blocks_children,
    game24_children,
)


def _dedup(states: list[list[float]]) -> list[list[float]]:
    seen: set[str] = set()
    out = []
    for state in states:
        key = repr(sorted(state))
        if key not in seen:
            seen.add(key)
            out.append(sorted(state))
    return out


def solvable_24(numbers: Sequence[float]) -> bool:
    frontier: list[list[float]] = [sorted(numbers)]
    while frontier:
        state = frontier.pop()
        if _is_24(state):
            return True
        if len(state) > 1:
            frontier.extend(game24_children(state))
    return False


def generate_24game(seed: int = 0, unit_tests: int = 5, evaluation: int = 50) -> SearchDomain:
    rng = random.Random(seed)
    puzzles: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    while len(puzzles) < unit_tests + evaluation:
        numbers = sorted(rng.randint(1, 13) for _ in range(4))
        if tuple(numbers) in seen or not solvable_24(numbers):
            continue
        seen.add(tuple(numbers))
        puzzles.append(numbers)
    cases = [{"state": [24], "extra": [], "expected": True}]
    cases += [{"state": s, "extra": [], "expected": False} for s in ([], [3], [24, 1], [1, 6, 4], [1, 1, 4, 6])]
    units = [Instance(" ".join(map(str, p)), p) for p in puzzles[:unit_tests]]
    completeness = [{"state": p, "extra": [], "successors": _dedup(game24_children(p))} for p in puzzles[:unit_tests]]
    evals = [Instance(" ".join(map(str, p)), p, info={"solvable": True}) for p in puzzles[unit_tests:]]
    return SearchDomain("24game", False, cases, units, completeness, evals,
                        reached_goal=lambda _i, s: _is_24(s), validate=_validate_24)


def _random_blocks_state(rng: random.Random, blocks: list[str]) -> dict[str, Any]:
    order = blocks[:]
    rng.shuffle(order)
    towers: list[list[str]] = []
    for block in order:
        if towers and rng.random() < 0.6:
            rng.choice(towers).append(block)
        else:
            towers.append([block])
    state: dict[str, Any] = {"clear": [], "on-table": [], "arm-empty": True, "holding": None, "on": []}
    for tower in towers:
        state["on-table"].append(tower[0])
        state["clear"].append(tower[-1])
        state["on"].extend([upper, lower] for lower, upper in itertools.pairwise(tower))
    return state


def _bfs_length(init: dict[str, Any], goal: dict[str, Any]) -> int:
    from .domains import _blocks_key

    frontier = [init]
    seen = {_blocks_key(init)}
    depth = 0
    while frontier:
        if any(_blocks_goal(goal, s) for s in frontier):
            return depth
        nxt = []
        for state in frontier:
            for child in blocks_children(state):
                key = _blocks_key(child)
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        frontier = nxt
        depth += 1
    raise ValueError("unsolvable blocks task")


def generate_blocksworld(seed: int = 0, unit_tests: int = 3, evaluation: int = 20, size: int = 4) -> SearchDomain:
    rng = random.Random(seed)
    blocks = [chr(ord("a") + i) for i in range(size)]

    def task() -> Instance:
        init = _random_blocks_state(rng, blocks)
        target = _random_blocks_state(rng, blocks)
        goal = {"clear": [], "on-table": [], "on": target["on"]}
        return Instance("blocks", init, goal_extra=[goal], info={"optimal": _bfs_length(init, goal)})

    units = [task() for _ in range(unit_tests)]
    evals = [task() for _ in range(evaluation)]
    for k, inst in enumerate(units + evals):
        inst.name = f"blocks-{k}"
    cases = []
    for inst in units:
        goal = inst.goal_extra[0]
        reached = {"clear": [], "on-table": [], "arm-empty": True, "holding": None, "on": goal["on"]}
        full = _random_blocks_state(rng, blocks)
        cases.append({"state": inst.init, "extra": [{"clear": [], "on-table": [], "on": inst.init["on"]}], "expected": True})
        cases.append({"state": full, "extra": [goal], "expected": _blocks_goal(goal, full)})
        del reached
    completeness = []
    for inst in units:
        completeness.append({"state": inst.init, "extra": [], "successors": blocks_children(inst.init)})
        held = blocks_children(inst.init)[0]
        completeness.append({"state": held, "extra": [], "successors": blocks_children(held)})
    return SearchDomain("blocksworld", False, cases, units, completeness, evals,
                        reached_goal=lambda i, s: _blocks_goal(i.goal_extra[0], s), validate=_validate_blocks,
                        context=lambda extra: {"goal": extra[0]} if extra else {})
