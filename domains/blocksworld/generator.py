"""Blocksworld task generator: N blocks, an initial and a goal arrangement each drawn uniformly at random
among all arrangements of N blocks into towers (the hand is empty); the goal lists the (on ?x ?y) facts of
the goal arrangement. An arrangement without any (on ...) fact, or one equal to the start, is never used
as goal.
"""

from __future__ import annotations

import math
import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "blocks": (4, "number of blocks (>= 2)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"blocks": 2}),
    (2, {"blocks": 3}),
    (3, {"blocks": 3}),
    (4, {"blocks": 4}),
    (5, {"blocks": 5}),
    (6, {"blocks": 6}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 4 to 100 blocks."""
    return {"blocks": ramp(4, 100, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def random_towers(rng: random.Random, names: list[str]) -> list[list[str]]:
    """A uniformly random arrangement of the blocks into towers (bottom first).

    With n blocks there are L(n, k) = C(n-1, k-1) * n! / k! arrangements into k towers (Lah numbers).
    Draw k with that weight, then a random order of the blocks cut at k-1 random places: every
    arrangement with k towers comes from exactly k! (order, cuts) pairs, so each is equally likely.
    """
    n = len(names)
    weights = [math.comb(n - 1, k - 1) * math.factorial(n) // math.factorial(k) for k in range(1, n + 1)]
    pick = rng.randrange(sum(weights))
    towers = 1
    while pick >= weights[towers - 1]:
        pick -= weights[towers - 1]
        towers += 1
    order = list(names)
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(1, n), towers - 1))
    bounds = [0, *cuts, n]
    return [order[bounds[i] : bounds[i + 1]] for i in range(towers)]


def _on_facts(towers: list[list[str]]) -> list[tuple[str, str]]:
    return [(tower[i + 1], tower[i]) for tower in towers for i in range(len(tower) - 1)]


def generate(seed: int, blocks: int = 4) -> str:
    if blocks < 2:
        raise ValueError("blocksworld needs at least 2 blocks")
    rng = random.Random(seed)
    names = [f"b{i}" for i in range(blocks)]
    start = random_towers(rng, names)
    start_on = set(_on_facts(start))
    while True:
        goal_on = _on_facts(random_towers(rng, names))
        if goal_on and not set(goal_on) <= start_on:
            break
    goal_on.sort(key=lambda pair: names.index(pair[0]))

    init = ["(handempty)"]
    init += [f"(ontable {tower[0]})" for tower in start]
    init += [f"(on {upper} {lower})" for upper, lower in _on_facts(start)]
    init += [f"(clear {tower[-1]})" for tower in start]
    goals = [f"(on {upper} {lower})" for upper, lower in goal_on]
    return problem_text(
        "blocksworld", f"blocksworld-b{blocks}-s{seed}", seed, {"blocks": blocks},
        objects=wrap_names(names, "block"), init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
