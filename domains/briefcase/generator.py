"""Briefcase task generator: n locations, m portable objects at random locations (about one in four
starts inside the briefcase), the briefcase at a random location, a random goal location for every object
(never all of them already met) and, in about half of the tasks, a goal location for the briefcase.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, keep_one_goal_open, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "locations": (3, "number of locations (>= 2)"),
    "objects": (2, "number of portable objects (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"locations": 2, "objects": 1}),
    (2, {"locations": 2, "objects": 2}),
    (3, {"locations": 3, "objects": 2}),
    (4, {"locations": 3, "objects": 3}),
    (5, {"locations": 4, "objects": 3}),
    (6, {"locations": 4, "objects": 4}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 3 locations / 3 objects to 40 locations / 80 objects."""
    return {"locations": ramp(3, 40, i), "objects": ramp(3, 80, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, locations: int = 3, objects: int = 2) -> str:
    if locations < 2:
        raise ValueError("briefcase needs at least 2 locations")
    if objects < 1:
        raise ValueError("briefcase needs at least 1 object")
    rng = random.Random(seed)
    locs = [f"l{i}" for i in range(locations)]
    names = [f"o{i}" for i in range(objects)]
    case_at = rng.choice(locs)
    inside = [name for name in names if rng.random() < 0.25]
    start = {name: case_at if name in inside else rng.choice(locs) for name in names}
    goal = {name: rng.choice(locs) for name in names}
    keep_one_goal_open(rng, start, goal, locs)
    case_goal = rng.choice(locs) if rng.random() < 0.5 else None

    init = [f"(is-at {case_at})"]
    init += [f"(at {name} {start[name]})" for name in names]
    init += [f"(in {name})" for name in inside]
    goals = [f"(at {name} {goal[name]})" for name in names]
    if case_goal is not None:
        goals.append(f"(is-at {case_goal})")
    return problem_text(
        "briefcase", f"briefcase-l{locations}-o{objects}-s{seed}", seed, {"locations": locations, "objects": objects},
        objects=[*wrap_names(locs, "location"), *wrap_names(names, "portable")], init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
