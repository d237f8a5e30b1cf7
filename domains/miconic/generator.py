"""Miconic task generator: F floors f0 (lowest) ... f(F-1) (highest) with (above fi fj) for every i < j,
P passengers each with a random origin floor and a different random destination floor, the lift at a
random floor, and the goal that every passenger is served.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "floors": (4, "number of floors (>= 2)"),
    "passengers": (2, "number of passengers (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"floors": 2, "passengers": 1}),
    (2, {"floors": 3, "passengers": 1}),
    (3, {"floors": 3, "passengers": 2}),
    (4, {"floors": 4, "passengers": 2}),
    (5, {"floors": 5, "passengers": 3}),
    (6, {"floors": 6, "passengers": 3}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 3 floors / 2 passengers to 80 floors / 150 passengers."""
    return {"floors": ramp(3, 80, i), "passengers": ramp(2, 150, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, floors: int = 4, passengers: int = 2) -> str:
    if floors < 2:
        raise ValueError("miconic needs at least 2 floors")
    if passengers < 1:
        raise ValueError("miconic needs at least 1 passenger")
    rng = random.Random(seed)
    floor_names = [f"f{i}" for i in range(floors)]
    people = [f"p{i}" for i in range(passengers)]
    origin: dict[str, str] = {}
    destin: dict[str, str] = {}
    for p in people:
        origin[p], destin[p] = rng.sample(floor_names, 2)
    lift = rng.choice(floor_names)

    init = [f"(above {floor_names[i]} {floor_names[j]})" for i in range(floors) for j in range(i + 1, floors)]
    for p in people:
        init += [f"(origin {p} {origin[p]})", f"(destin {p} {destin[p]})"]
    init.append(f"(lift-at {lift})")
    goals = [f"(served {p})" for p in people]
    return problem_text(
        "miconic", f"miconic-f{floors}-p{passengers}-s{seed}", seed, {"floors": floors, "passengers": passengers},
        objects=[*wrap_names(floor_names, "floor"), *wrap_names(people, "passenger")], init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
