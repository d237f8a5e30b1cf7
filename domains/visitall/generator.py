"""Visit-all task generator.

A `width` x `height` grid of cells loc-x<i>-y<j>. About hole_percent of the cells are removed, one at a time
and only when the rest stays connected. The robot starts at a random remaining cell, which is visited. The
goal asks for goal_percent of the remaining cells (at least one) to be visited: all of them at 100, otherwise
a random subset.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "width": (4, "grid columns (>= 1)"),
    "height": (4, "grid rows (>= 1; width * height >= 2)"),
    "goal_percent": (100, "percent of the cells the goal asks to visit (1..100)"),
    "hole_percent": (0, "percent of the grid positions removed as holes (0..50)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (41, {"width": 2, "height": 2, "goal_percent": 100, "hole_percent": 0}),
    (42, {"width": 3, "height": 2, "goal_percent": 100, "hole_percent": 0}),
    (43, {"width": 3, "height": 3, "goal_percent": 100, "hole_percent": 0}),
    (44, {"width": 4, "height": 3, "goal_percent": 70, "hole_percent": 10}),
    (45, {"width": 4, "height": 4, "goal_percent": 100, "hole_percent": 10}),
    (46, {"width": 5, "height": 4, "goal_percent": 60, "hole_percent": 0}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 4x4 up to 20x20 (400 places); every third task has holes, every fourth a partial goal."""
    side = ramp(4, 20, i, power=1.2)
    return {
        "width": side,
        "height": side - i % 2,
        "goal_percent": 100 if i % 4 else 70,
        "hole_percent": 10 if i % 3 == 2 else 0,
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(5000, _eval_sizes)

Cell = tuple[int, int]


def _name(cell: Cell) -> str:
    return f"loc-x{cell[0]}-y{cell[1]}"


def _neighbours(cell: Cell, present: dict[Cell, bool]) -> list[Cell]:
    x, y = cell
    return [n for n in ((x - 1, y), (x, y - 1), (x, y + 1), (x + 1, y)) if n in present]


def _connected(present: dict[Cell, bool]) -> bool:
    cells = list(present)
    seen = {cells[0]: True}
    frontier = [cells[0]]
    while frontier:
        for other in _neighbours(frontier.pop(), present):
            if other not in seen:
                seen[other] = True
                frontier.append(other)
    return len(seen) == len(cells)


def generate(seed: int, width: int = 4, height: int = 4, goal_percent: int = 100, hole_percent: int = 0) -> str:
    if width < 1 or height < 1 or width * height < 2:
        raise ValueError("visitall needs a grid of at least 2 cells")
    if not 1 <= goal_percent <= 100:
        raise ValueError("goal_percent must be between 1 and 100")
    if not 0 <= hole_percent <= 50:
        raise ValueError("hole_percent must be between 0 and 50")
    rng = random.Random(seed)
    present: dict[Cell, bool] = {(x, y): True for x in range(width) for y in range(height)}
    holes_wanted = width * height * hole_percent // 100
    candidates = list(present)
    rng.shuffle(candidates)
    for cell in candidates:
        if holes_wanted == 0 or len(present) <= 2:
            break
        del present[cell]
        if _connected(present):
            holes_wanted -= 1
        else:
            present[cell] = True
    cells = sorted(present)
    start = rng.choice(cells)
    if goal_percent == 100:
        goal_cells = cells
    else:
        count = max(1, round(len(cells) * goal_percent / 100))
        goal_cells = sorted(rng.sample(cells, count))

    init = [f"(at-robot {_name(start)})", f"(visited {_name(start)})"]
    init += [f"(connected {_name(cell)} {_name(other)})" for cell in cells for other in _neighbours(cell, present)]
    goal = [f"(visited {_name(cell)})" for cell in goal_cells]
    object_lines = []
    for x in range(width):
        column = [_name(cell) for cell in cells if cell[0] == x]
        if column:
            object_lines.append(" ".join(column) + " - place")
    return problem_text(
        "visitall", f"visitall-{width}x{height}-s{seed}", seed,
        {"width": width, "height": height, "goal_percent": goal_percent, "hole_percent": hole_percent},
        objects=object_lines, init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
