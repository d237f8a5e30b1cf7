"""Gold miner task generator (in the manner of the IPC 2008 learning-track generator).

A grid of `rows` x `cols` cells named f<row>-<col>f, neighbours connected both ways. The first column is
clear; the robot, the laser and the bomb supply each lie on a random cell of it. The gold lies on a random
cell of the last column, under soft rock. Every other cell is clear, soft rock or hard rock: hard rock with
`hard_percent` percent probability, else soft rock with `soft_percent` percent, else clear. The goal is
(holds-gold). With one column, the gold's row is kept free of the robot, the laser and the bombs.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "rows": (3, "number of grid rows (>= 1; >= 2 when cols = 1)"),
    "cols": (3, "number of grid columns (>= 1)"),
    "hard_percent": (40, "chance in percent that a cell outside the first column is hard rock (0..100)"),
    "soft_percent": (50, "chance in percent that a cell that is not hard rock is soft rock (0..100)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (61, {"rows": 2, "cols": 1, "hard_percent": 40, "soft_percent": 50}),
    (62, {"rows": 1, "cols": 3, "hard_percent": 40, "soft_percent": 50}),
    (63, {"rows": 2, "cols": 2, "hard_percent": 40, "soft_percent": 50}),
    (64, {"rows": 2, "cols": 3, "hard_percent": 40, "soft_percent": 50}),
    (65, {"rows": 3, "cols": 2, "hard_percent": 50, "soft_percent": 50}),
    (66, {"rows": 3, "cols": 3, "hard_percent": 40, "soft_percent": 50}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from a 3 x 3 mine up to a 12 x 16 mine (192 cells)."""
    return {
        "rows": ramp(3, 12, i, power=1.2),
        "cols": ramp(3, 16, i, power=1.2),
        "hard_percent": 30 + 10 * (i % 4),
        "soft_percent": 50,
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(7000, _eval_sizes)


def cell(row: int, col: int) -> str:
    return f"f{row}-{col}f"


def generate(seed: int, rows: int = 3, cols: int = 3, hard_percent: int = 40, soft_percent: int = 50) -> str:
    if rows < 1 or cols < 1:
        raise ValueError("rows and cols must be >= 1")
    if rows * cols < 2:
        raise ValueError("the mine needs at least 2 cells")
    for label, value in (("hard_percent", hard_percent), ("soft_percent", soft_percent)):
        if not 0 <= value <= 100:
            raise ValueError(f"{label} must be between 0 and 100")
    rng = random.Random(seed)
    gold_row = rng.randrange(rows)
    free_rows = [r for r in range(rows) if cols > 1 or r != gold_row]  # first-column rows without the gold
    robot, laser, bomb = (rng.choice(free_rows) for _ in range(3))
    gold = cell(gold_row, cols - 1)

    init = ["(arm-empty)"]
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    init.append(f"(connected {cell(r, c)} {cell(r + dr, c + dc)})")
    for r in range(rows):
        for c in range(cols):
            here = cell(r, c)
            if here == gold:
                init += [f"(gold-at {here})", f"(soft-rock-at {here})"]
            elif c == 0:
                init.append(f"(clear {here})")
            elif rng.randrange(100) < hard_percent:
                init.append(f"(hard-rock-at {here})")
            elif rng.randrange(100) < soft_percent:
                init.append(f"(soft-rock-at {here})")
            else:
                init.append(f"(clear {here})")
    init += [f"(robot-at {cell(robot, 0)})", f"(laser-at {cell(laser, 0)})", f"(bomb-at {cell(bomb, 0)})"]

    names = [cell(r, c) for r in range(rows) for c in range(cols)]
    return problem_text(
        "goldminer", f"goldminer-r{rows}-c{cols}-s{seed}", seed,
        {"rows": rows, "cols": cols, "hard_percent": hard_percent, "soft_percent": soft_percent},
        objects=wrap_names(names, "loc"), init=init, goal="(holds-gold)",
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
