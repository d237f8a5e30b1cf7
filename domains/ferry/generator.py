"""Ferry task generator: n locations, m cars at random locations, the ferry empty at a random location,
and a random goal location for every car (it may be the car's start, but never for all cars, so the goal
never holds initially).
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, keep_one_goal_open, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "locations": (3, "number of locations (>= 2)"),
    "cars": (2, "number of cars (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"locations": 2, "cars": 1}),
    (2, {"locations": 2, "cars": 2}),
    (3, {"locations": 3, "cars": 3}),
    (4, {"locations": 3, "cars": 4}),
    (5, {"locations": 4, "cars": 5}),
    (6, {"locations": 5, "cars": 6}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 3 locations / 3 cars to 50 locations / 100 cars."""
    return {"locations": ramp(3, 50, i), "cars": ramp(3, 100, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, locations: int = 3, cars: int = 2) -> str:
    if locations < 2:
        raise ValueError("ferry needs at least 2 locations")
    if cars < 1:
        raise ValueError("ferry needs at least 1 car")
    rng = random.Random(seed)
    locs = [f"l{i}" for i in range(locations)]
    car_names = [f"c{i}" for i in range(cars)]
    start = {car: rng.choice(locs) for car in car_names}
    ferry_at = rng.choice(locs)
    goal = {car: rng.choice(locs) for car in car_names}
    keep_one_goal_open(rng, start, goal, locs)

    init = [f"(location {loc})" for loc in locs] + [f"(car {c})" for c in car_names]
    init += [f"(not-eq {a} {b})" for a in locs for b in locs if a != b]
    init += ["(empty-ferry)", f"(at-ferry {ferry_at})"]
    init += [f"(at {c} {start[c]})" for c in car_names]
    goals = [f"(at {c} {goal[c]})" for c in car_names]
    return problem_text(
        "ferry", f"ferry-l{locations}-c{cars}-s{seed}", seed, {"locations": locations, "cars": cars},
        objects=[*wrap_names(locs), *wrap_names(car_names)], init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
