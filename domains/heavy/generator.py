"""Heavy-pack task generator.

`items` items with distinct random names o<k> (k drawn from 1 .. max(1000, 10 * items)) and a random weight
order; the init lists (heavier a b) for every pair with a heavier than b (the full strict total order),
every item unpacked and the box empty; the goal packs every item.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import chunk_names, eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "items": (6, "number of items (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (21, {"items": 3}),
    (22, {"items": 4}),
    (23, {"items": 5}),
    (24, {"items": 6}),
    (25, {"items": 7}),
    (26, {"items": 8}),
]

def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 8 to 120 items. The full order has items*(items-1)/2 facts: 120 items (7140 facts)
    make a file of about 180 KB."""
    return {"items": ramp(8, 120, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(3000, _eval_sizes)


def generate(seed: int, items: int = 6) -> str:
    if items < 1:
        raise ValueError("heavy needs at least 1 item")
    rng = random.Random(seed)
    numbers = sorted(rng.sample(range(1, max(1000, 10 * items) + 1), items))
    names = [f"o{k}" for k in numbers]
    by_weight = names[:]
    rng.shuffle(by_weight)  # heaviest first; unrelated to the name order

    init = ["(box-empty)"] + [f"(unpacked {name})" for name in names]
    init += [f"(heavier {by_weight[a]} {by_weight[b]})"
             for a in range(items) for b in range(a + 1, items)]
    goal = [f"(packed {name})" for name in names]
    return problem_text(
        "heavy", f"heavy-{items}-s{seed}", seed, {"items": items},
        objects=chunk_names(names, 12), init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
