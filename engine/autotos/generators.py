"""genplan's own AutoToS instances and unit-test data, so the approach runs with no external data.

24 Game: random puzzles (numbers 1..13), solvability decided by exhaustive search; unit tests are the
paper's goal/non-goal states and the complete successor sets of the unit-test puzzles (computed by the
reference successor function). BlocksWorld: random towers and goals; PrOntoQA: chains of classes with a
property and a distractor (answer True exactly when the queried fact is derivable); Sokoban: small walled
rooms whose optimal cost is found by BFS. Unit tests come from the reference successor functions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from genplan.engine.autotos.domains import (
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
    from genplan.engine.autotos.domains import _blocks_key

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
        full = _random_blocks_state(rng, blocks)
        cases.append({"state": inst.init, "extra": [{"clear": [], "on-table": [], "on": inst.init["on"]}], "expected": True})
        cases.append({"state": full, "extra": [goal], "expected": _blocks_goal(goal, full)})
    completeness = []
    for inst in units:
        completeness.append({"state": inst.init, "extra": [], "successors": blocks_children(inst.init)})
        held = blocks_children(inst.init)[0]
        completeness.append({"state": held, "extra": [], "successors": blocks_children(held)})
    return SearchDomain("blocksworld", False, cases, units, completeness, evals,
                        reached_goal=lambda i, s: _blocks_goal(i.goal_extra[0], s), validate=_validate_blocks,
                        context=lambda extra: {"goal": extra[0]} if extra else {})


# ------------------------------------------------------------------------------------------ PrOntoQA
_CLASSES = ["wumpus", "yumpus", "zumpus", "dumpus", "numpus", "tumpus", "vumpus", "impus", "jompus", "rompus",
            "gorpus", "shumpus", "lempus", "sterpus", "grimpus", "lorpus", "brimpus", "timpus", "kumpus", "sumpus"]
_PROPERTIES = ["bright", "dull", "red", "blue", "small", "large", "hot", "cold", "sour", "sweet", "wooden",
               "metallic", "shy", "happy", "liquid", "opaque", "transparent", "floral", "fruity", "kind"]


def _prontoqa_example(rng: random.Random, depth: int) -> tuple[list[str], list[list[str]], str, bool]:
    """A chain of classes c0 -> c1 -> ... with a property at some class and distractor rules; the query
    asks for the property or its negation (answer True exactly when that fact is derivable)."""
    classes = rng.sample(_CLASSES, depth + 2)
    chain = classes[: depth + 1]
    rules = [[a, b] for a, b in itertools.pairwise(chain)]
    prop = rng.choice(_PROPERTIES)
    holder = rng.choice(chain[1:])
    negated = rng.random() < 0.5
    fact = ("not-" if negated else "") + prop
    rules.append([holder, fact])
    other = ("" if negated else "not-") + prop
    rules.append([classes[-1], other])  # a distractor class with the opposite property
    for _ in range(2):
        rules.append([rng.choice(chain), rng.choice(_PROPERTIES[:10]) + "-ish"])
    rng.shuffle(rules)
    ask_true = rng.random() < 0.5
    target = fact if ask_true else other
    return [chain[0]], rules, target, ask_true


def generate_prontoqa(seed: int = 0, unit_tests: int = 3, evaluation: int = 50) -> SearchDomain:
    from genplan.engine.autotos.domains import _validate_prontoqa

    rng = random.Random(seed)

    def instance(k: int) -> Instance:
        init, rules, target, answer = _prontoqa_example(rng, rng.randint(2, 5))
        pairs = [tuple(r) for r in rules]
        return Instance(f"prontoqa-{k}", init, extra=[pairs], goal_extra=[target],
                        info={"target": target, "answer": answer})

    units = [instance(k) for k in range(unit_tests)]
    evals = [instance(unit_tests + k) for k in range(evaluation)]
    cases: list[dict[str, Any]] = []
    completeness: list[dict[str, Any]] = []
    for unit in units:
        target = unit.info["target"]
        cases.append({"state": unit.init + [target], "extra": [target], "expected": True})
        cases.append({"state": unit.init, "extra": [target], "expected": False})
        state = set(unit.init)
        successors = [sorted(state | {b}) for a, b in unit.extra[0] if a in state and b not in state]
        completeness.append({"state": sorted(state), "extra": [[list(r) for r in unit.extra[0]]],
                             "successors": successors})
    return SearchDomain("prontoqa", False, cases, units, completeness, evals,
                        reached_goal=lambda i, s: i.info["target"] in s, validate=_validate_prontoqa,
                        context=lambda extra: {"rules": extra[0]} if extra else {})


# ------------------------------------------------------------------------------------------- Sokoban
def _sokoban_room(rng: random.Random, width: int, height: int, stones: int) -> tuple[dict[str, Any], list[list[int]]]:
    """A walled rectangle with a few inner walls, goals and stones away from the border (grid[x][y])."""
    grid = [[1 if x in (0, width - 1) or y in (0, height - 1) else 0 for y in range(height)] for x in range(width)]
    inner = [(x, y) for x in range(2, width - 2) for y in range(2, height - 2)]
    rng.shuffle(inner)
    for x, y in inner[:1]:
        grid[x][y] = 1
    free = [(x, y) for x in range(1, width - 1) for y in range(1, height - 1) if grid[x][y] == 0]
    rng.shuffle(free)
    goals = free[:stones]
    for x, y in goals:
        grid[x][y] = 2
    stone_cells = [p for p in free[stones:] if p in inner][:stones]
    others = [p for p in free[stones:] if p not in stone_cells]
    player = others[0]
    state = {"at-player": list(player), "at-stone": [list(p) for p in stone_cells]}
    return state, grid


def _sokoban_optimal(state: dict[str, Any], grid: list[list[int]], limit: int = 200000) -> int | None:
    from genplan.engine.autotos.domains import _sokoban_key, sokoban_children, sokoban_solved

    frontier = [state]
    seen = {_sokoban_key(state)}
    depth = 0
    while frontier and len(seen) < limit:
        if any(sokoban_solved(s, grid) for s in frontier):
            return depth
        nxt = []
        for s in frontier:
            for child in sokoban_children(s, grid):
                key = _sokoban_key(child)
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        frontier = nxt
        depth += 1
    return None


def generate_sokoban(seed: int = 0, unit_tests: int = 2, evaluation: int = 5, size: int = 6, stones: int = 1) -> SearchDomain:
    from genplan.engine.autotos.domains import _validate_sokoban, sokoban_children, sokoban_solved

    rng = random.Random(seed)
    made: list[Instance] = []
    while len(made) < unit_tests + evaluation:
        state, grid = _sokoban_room(rng, size, size, stones)
        if len(state["at-stone"]) < stones:
            continue
        optimal = _sokoban_optimal(state, grid)
        if optimal is None or optimal == 0:
            continue
        made.append(Instance(f"sokoban-{len(made)}", state, extra=[grid], goal_extra=[grid], info={"optimal": optimal}))
    units, evals = made[:unit_tests], made[unit_tests:]
    cases: list[dict[str, Any]] = []
    completeness: list[dict[str, Any]] = []
    for unit in units:
        grid = unit.extra[0]
        goals = [[x, y] for x in range(len(grid)) for y in range(len(grid[x])) if grid[x][y] == 2]
        solved = {"at-player": unit.init["at-player"], "at-stone": goals}
        if solved["at-player"] not in goals:
            cases.append({"state": solved, "extra": [grid], "expected": True})
        cases.append({"state": unit.init, "extra": [grid], "expected": sokoban_solved(unit.init, grid)})
        completeness.append({"state": unit.init, "extra": [grid], "successors": sokoban_children(unit.init, grid)})
    return SearchDomain("sokoban", False, cases, units, completeness, evals,
                        reached_goal=lambda i, s: sokoban_solved(s, i.extra[0]), validate=_validate_sokoban,
                        context=lambda extra: {"grid": extra[0]} if extra else {})


GENERATORS = {
    "24game": generate_24game,
    "blocksworld": generate_blocksworld,
    "prontoqa": generate_prontoqa,
    "sokoban": generate_sokoban,
}
