"""Recycling task generator: a random connected map of n locations (a random spanning tree plus about one
extra connection per three locations, every connection in both directions), b bins at random locations
(bin k accepts material k for the first k's, the others a random material, and about one bin in five a
second material too), m items of random materials, most lying at random locations and about three in ten in a
random bin (right or wrong), the robot at a random location with empty hands, and the quantified goal: every
item in a bin accepting its material; about half of the tasks also fix the robot's final location.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import INDENT, eval_specs, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "locations": (3, "number of locations (>= 1)"),
    "items": (2, "number of items (>= 1)"),
    "materials": (2, "number of materials (>= 1)"),
    "bins": (2, "number of bins (>= materials)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"locations": 2, "items": 1, "materials": 1, "bins": 1}),
    (2, {"locations": 3, "items": 2, "materials": 2, "bins": 2}),
    (3, {"locations": 3, "items": 3, "materials": 2, "bins": 2}),
    (4, {"locations": 4, "items": 3, "materials": 2, "bins": 3}),
    (5, {"locations": 4, "items": 4, "materials": 3, "bins": 3}),
    (6, {"locations": 5, "items": 4, "materials": 3, "bins": 4}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 4 locations / 3 items / 2 materials / 2 bins to 60 / 80 / 6 / 15."""
    return {"locations": ramp(4, 60, i), "items": ramp(3, 80, i), "materials": ramp(2, 6, i), "bins": ramp(2, 15, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)

GOAL_LINES = [
    "(forall (?i - item)",
    "  (exists (?b - bin ?m - material)",
    "    (and (in ?i ?b) (made-of ?i ?m) (accepts ?b ?m))))",
]


def _connections(rng: random.Random, locs: list[str]) -> list[tuple[str, str]]:
    """A random spanning tree plus about len/3 extra edges; each edge once, as (a, b) with a before b."""
    edges: set[tuple[int, int]] = set()
    for k in range(1, len(locs)):
        other = rng.randrange(k)
        edges.add((other, k))
    for _ in range(len(locs) // 3):
        a, b = rng.randrange(len(locs)), rng.randrange(len(locs))
        if a != b:
            edges.add((min(a, b), max(a, b)))
    return [(locs[a], locs[b]) for a, b in sorted(edges)]


def generate(seed: int, locations: int = 3, items: int = 2, materials: int = 2, bins: int = 2) -> str:
    if locations < 1:
        raise ValueError("recycling needs at least 1 location")
    if items < 1:
        raise ValueError("recycling needs at least 1 item")
    if materials < 1:
        raise ValueError("recycling needs at least 1 material")
    if bins < materials:
        raise ValueError("recycling needs at least as many bins as materials (every material needs a bin)")
    rng = random.Random(seed)
    locs = [f"l{i}" for i in range(locations)]
    mats = [f"m{i}" for i in range(materials)]
    bin_names = [f"b{i}" for i in range(bins)]
    item_names = [f"i{i}" for i in range(items)]
    edges = _connections(rng, locs)
    bin_at = {b: rng.choice(locs) for b in bin_names}
    accepts: dict[str, list[str]] = {}
    for k, b in enumerate(bin_names):
        first = mats[k] if k < materials else rng.choice(mats)
        accepts[b] = [first]
        if materials > 1 and rng.random() < 0.2:
            accepts[b].append(rng.choice([m for m in mats if m != first]))
    made_of = {i: rng.choice(mats) for i in item_names}
    place: dict[str, tuple[str, str]] = {}  # item -> ("at", location) or ("in", bin)
    for i in item_names:
        place[i] = ("in", rng.choice(bin_names)) if rng.random() < 0.3 else ("at", rng.choice(locs))
    if all(kind == "in" and made_of[i] in accepts[where] for i, (kind, where) in place.items()):
        place[item_names[-1]] = ("at", rng.choice(locs))  # the goal must not hold at the start
    robot = rng.choice(locs)
    robot_goal = rng.choice(locs) if rng.random() < 0.5 else None

    init = [f"(robot-at {robot})"]
    init += [fact for a, b in edges for fact in (f"(connected {a} {b})", f"(connected {b} {a})")]
    init += [f"(bin-at {b} {bin_at[b]})" for b in bin_names]
    init += [f"(accepts {b} {m})" for b in bin_names for m in accepts[b]]
    init += [f"(made-of {i} {made_of[i]})" for i in item_names]
    init += [f"({kind} {i} {where})" for i, (kind, where) in place.items()]
    goal_lines = GOAL_LINES + ([f"(robot-at {robot_goal})"] if robot_goal is not None else [])
    goal = "(and\n" + "\n".join(INDENT + line for line in goal_lines) + ")"
    return problem_text(
        "recycling", f"recycling-l{locations}-i{items}-m{materials}-b{bins}-s{seed}", seed,
        {"locations": locations, "items": items, "materials": materials, "bins": bins},
        objects=[*wrap_names(locs, "location"), *wrap_names(item_names, "item"), *wrap_names(bin_names, "bin"),
                 *wrap_names(mats, "material")],
        init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
