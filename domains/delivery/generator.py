"""Delivery (trapnewspapers) task generator.

A neighbourhood of `locations` locations, one of them (chosen at random) the home base where the carrier
starts and all papers lie unpacked. `wanting` other locations want a paper; they and the home base are safe,
all remaining locations are traps. There are `wanting + spare_papers` papers. The goal: every location that
wants a paper is satisfied.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import chunk_names, eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "locations": (6, "number of locations, home base included (>= 2)"),
    "wanting": (3, "number of locations that want a paper (1 .. locations-1)"),
    "spare_papers": (0, "papers beyond one per wanting location (>= 0)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (11, {"locations": 3, "wanting": 1, "spare_papers": 0}),
    (12, {"locations": 4, "wanting": 2, "spare_papers": 0}),
    (13, {"locations": 5, "wanting": 2, "spare_papers": 1}),
    (14, {"locations": 6, "wanting": 3, "spare_papers": 0}),
    (15, {"locations": 7, "wanting": 3, "spare_papers": 1}),
    (16, {"locations": 8, "wanting": 4, "spare_papers": 1}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 8 locations up to 200, 50-80% of the non-home locations wanting a paper."""
    locations = ramp(8, 200, i)
    wanting = max(2, (locations - 1) * (5 + i % 4) // 10)
    return {"locations": locations, "wanting": wanting, "spare_papers": i % 3}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(2000, _eval_sizes)


def generate(seed: int, locations: int = 6, wanting: int = 3, spare_papers: int = 0) -> str:
    if locations < 2:
        raise ValueError("delivery needs at least 2 locations")
    if not 1 <= wanting <= locations - 1:
        raise ValueError(f"wanting must be between 1 and locations-1 = {locations - 1}")
    if spare_papers < 0:
        raise ValueError("spare_papers must be >= 0")
    rng = random.Random(seed)
    locs = [f"loc-{i}" for i in range(locations)]
    papers = [f"paper-{i}" for i in range(wanting + spare_papers)]
    home = rng.choice(locs)
    others = [loc for loc in locs if loc != home]
    wants = sorted(rng.sample(others, wanting), key=locs.index)

    init = [f"(at {home})", f"(isHomeBase {home})", f"(safe {home})"]
    init += [f"(safe {loc})" for loc in wants]
    init += [f"(wantsPaper {loc})" for loc in wants]
    init += [f"(unpacked {paper})" for paper in papers]
    goal = [f"(satisfied {loc})" for loc in wants]
    return problem_text(
        "delivery", f"delivery-{locations}-{wanting}-{spare_papers}-s{seed}", seed,
        {"locations": locations, "wanting": wanting, "spare_papers": spare_papers},
        objects=chunk_names(locs, 10, "loc") + chunk_names(papers, 10, "paper"), init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
