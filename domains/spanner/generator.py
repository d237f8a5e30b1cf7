"""Spanner task generator: one man (bob) at the shed, a one-way path shed -> location1 -> ... ->
locationL -> gate, S useable spanners at random locations on the path (never at the shed or the gate),
N loose nuts at the gate (N <= S, so every task is solvable), and the goal that every nut is tightened.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "spanners": (3, "number of spanners (>= nuts)"),
    "nuts": (2, "number of nuts (>= 1)"),
    "locations": (3, "number of locations between the shed and the gate (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"spanners": 1, "nuts": 1, "locations": 1}),
    (2, {"spanners": 2, "nuts": 1, "locations": 2}),
    (3, {"spanners": 2, "nuts": 2, "locations": 2}),
    (4, {"spanners": 3, "nuts": 2, "locations": 3}),
    (5, {"spanners": 4, "nuts": 3, "locations": 3}),
    (6, {"spanners": 4, "nuts": 4, "locations": 4}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 3 spanners / 2 nuts / 3 locations to 120 spanners / 100 nuts / 100 locations."""
    return {"spanners": ramp(3, 120, i), "nuts": ramp(2, 100, i), "locations": ramp(3, 100, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, spanners: int = 3, nuts: int = 2, locations: int = 3) -> str:
    if nuts < 1 or locations < 1:
        raise ValueError("spanner needs at least 1 nut and 1 location")
    if spanners < nuts:
        raise ValueError("spanner needs at least as many spanners as nuts (otherwise unsolvable)")
    rng = random.Random(seed)
    path = [f"location{i}" for i in range(1, locations + 1)]
    spanner_names = [f"spanner{i}" for i in range(1, spanners + 1)]
    nut_names = [f"nut{i}" for i in range(1, nuts + 1)]
    spanner_at = {s: rng.choice(path) for s in spanner_names}

    route = ["shed", *path, "gate"]
    init = ["(at bob shed)"]
    for s in spanner_names:
        init += [f"(at {s} {spanner_at[s]})", f"(useable {s})"]
    for n in nut_names:
        init += [f"(at {n} gate)", f"(loose {n})"]
    init += [f"(link {route[i]} {route[i + 1]})" for i in range(len(route) - 1)]
    goals = [f"(tightened {n})" for n in nut_names]
    objects = ["bob - man", *wrap_names(spanner_names, "spanner"), *wrap_names(nut_names, "nut")]
    objects += wrap_names(route, "location")
    return problem_text(
        "spanner", f"spanner-s{spanners}-n{nuts}-l{locations}-s{seed}", seed,
        {"spanners": spanners, "nuts": nuts, "locations": locations}, objects=objects, init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
