"""Hiking task generator.

A `rows` x `cols` grid of cells r<i>_c<j>, every cell adjacent to its four neighbours. The hiker starts at a
random cell; the target is a random cell at Manhattan distance >= (rows+cols)//2 from it (or one of the
farthest cells if none is that far). The trail is a loop-erased random walk from start to target that steps
towards the target half of the time, so it is a simple path of adjacent cells. Every cell off the trail is
water with probability water_percent; every non-water cell except the start (trail cells included) is a hill
with probability hill_percent. The goal is to be at the target.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "rows": (6, "grid rows (>= 1; rows * cols >= 2)"),
    "cols": (6, "grid columns (>= 1)"),
    "water_percent": (30, "chance in percent that a cell off the trail is water (0..100)"),
    "hill_percent": (10, "chance in percent that a non-water cell other than the start is a hill (0..100)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (31, {"rows": 3, "cols": 4, "water_percent": 30, "hill_percent": 10}),
    (32, {"rows": 4, "cols": 5, "water_percent": 30, "hill_percent": 10}),
    (33, {"rows": 5, "cols": 6, "water_percent": 40, "hill_percent": 15}),
    (34, {"rows": 6, "cols": 6, "water_percent": 30, "hill_percent": 10}),
    (35, {"rows": 7, "cols": 8, "water_percent": 35, "hill_percent": 15}),
    (36, {"rows": 9, "cols": 10, "water_percent": 40, "hill_percent": 10}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from a 5x5 grid up to 20x21 (420 cells); water and hill density vary."""
    rows = ramp(5, 20, i, power=1.2)
    cols = rows + i % 3
    return {"rows": rows, "cols": cols, "water_percent": 25 + 5 * (i % 4), "hill_percent": 5 + 5 * (i % 3)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(4000, _eval_sizes)

Cell = tuple[int, int]


def _name(cell: Cell) -> str:
    return f"r{cell[0]}_c{cell[1]}"


def _neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = cell
    candidates = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
    return [(a, b) for a, b in candidates if 0 <= a < rows and 0 <= b < cols]


def _distance(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def make_trail(rng: random.Random, start: Cell, target: Cell, rows: int, cols: int) -> list[Cell]:
    """A simple path of adjacent cells from start to target (loop-erased, target-biased random walk)."""
    path = [start]
    position = {start: 0}
    while path[-1] != target:
        here = path[-1]
        options = _neighbours(here, rows, cols)
        closer = [n for n in options if _distance(n, target) < _distance(here, target)]
        step = rng.choice(closer) if rng.random() < 0.5 else rng.choice(options)
        if step in position:  # erase the loop just closed
            for cell in path[position[step] + 1:]:
                del position[cell]
            del path[position[step] + 1:]
        else:
            position[step] = len(path)
            path.append(step)
    return path


def generate(seed: int, rows: int = 6, cols: int = 6, water_percent: int = 30, hill_percent: int = 10) -> str:
    if rows < 1 or cols < 1 or rows * cols < 2:
        raise ValueError("hiking needs a grid of at least 2 cells")
    for label, value in (("water_percent", water_percent), ("hill_percent", hill_percent)):
        if not 0 <= value <= 100:
            raise ValueError(f"{label} must be between 0 and 100")
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    start = rng.choice(cells)
    min_distance = min((rows + cols) // 2, max(_distance(cell, start) for cell in cells))
    target = rng.choice([cell for cell in cells if cell != start and _distance(cell, start) >= min_distance])
    trail = make_trail(rng, start, target, rows, cols)
    on_trail = {cell: True for cell in trail}

    water = [cell for cell in cells if cell not in on_trail and rng.random() * 100 < water_percent]
    is_water = {cell: True for cell in water}
    hills = [cell for cell in cells
             if cell != start and cell not in is_water and rng.random() * 100 < hill_percent]

    init = [f"(at {_name(start)})"]
    init += [f"(adjacent {_name(cell)} {_name(other)})"
             for cell in cells for other in _neighbours(cell, rows, cols)]
    init += [f"(isWater {_name(cell)})" for cell in water]
    init += [f"(isHill {_name(cell)})" for cell in hills]
    init += [f"(onTrail {_name(a)} {_name(b)})" for a, b in zip(trail, trail[1:])]
    object_lines = [" ".join(_name((r, c)) for c in range(cols)) + " - loc" for r in range(rows)]
    return problem_text(
        "hiking", f"hiking-{rows}x{cols}-s{seed}", seed,
        {"rows": rows, "cols": cols, "water_percent": water_percent, "hill_percent": hill_percent},
        objects=object_lines, init=init, goal=f"(at {_name(target)})",
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
