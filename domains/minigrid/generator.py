"""MiniGrid task generator (multi-room layouts with locked doors, in the manner of bonetblai/mini-grid).

`rooms` square rooms of `size` x `size` cells stand in a row, separated by one-cell walls; each wall has one
door cell at a random row. Cells are named p<k>, numbered row by row over the whole layout (wall cells are
not objects). Every door is locked with `locked_percent` percent probability; a locked door gets a random
one of `shapes` shapes, and a key of that shape is put on a random cell of a random room before the door.
`extra_keys` further keys of random shapes lie on random cells. The robot starts on a random cell of the
first room with an empty hand; the goal is (at-robot p) for a random cell of the last room (not the start).
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "rooms": (2, "number of rooms in the row (>= 1)"),
    "size": (3, "side length of a room in cells (>= 1; >= 2 when rooms = 1)"),
    "locked_percent": (50, "chance in percent that a door is locked (0..100)"),
    "shapes": (2, "number of key/lock shapes (>= 1)"),
    "extra_keys": (1, "number of keys beyond one per locked door (>= 0)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (71, {"rooms": 1, "size": 2, "locked_percent": 0, "shapes": 1, "extra_keys": 1}),
    (72, {"rooms": 2, "size": 1, "locked_percent": 100, "shapes": 1, "extra_keys": 0}),
    (73, {"rooms": 2, "size": 2, "locked_percent": 0, "shapes": 1, "extra_keys": 1}),
    (74, {"rooms": 2, "size": 2, "locked_percent": 100, "shapes": 2, "extra_keys": 1}),
    (75, {"rooms": 3, "size": 2, "locked_percent": 50, "shapes": 2, "extra_keys": 0}),
    (76, {"rooms": 2, "size": 3, "locked_percent": 100, "shapes": 2, "extra_keys": 1}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 2 rooms of 3 x 3 cells up to 7 rooms of 7 x 7 cells (349 cells)."""
    return {
        "rooms": ramp(2, 7, i, power=1.0),
        "size": ramp(3, 7, i, power=1.0),
        "locked_percent": 50 + 25 * (i % 3),
        "shapes": ramp(2, 5, i, power=1.0),
        "extra_keys": ramp(1, 6, i, power=1.0),
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(8000, _eval_sizes)


def generate(seed: int, rooms: int = 2, size: int = 3, locked_percent: int = 50, shapes: int = 2,
             extra_keys: int = 1) -> str:
    if rooms < 1 or size < 1:
        raise ValueError("rooms and size must be >= 1")
    if rooms == 1 and size < 2:
        raise ValueError("a single room needs size >= 2 (start and goal differ)")
    if not 0 <= locked_percent <= 100:
        raise ValueError("locked_percent must be between 0 and 100")
    if shapes < 1 or extra_keys < 0:
        raise ValueError("shapes must be >= 1 and extra_keys >= 0")
    rng = random.Random(seed)
    width = rooms * size + rooms - 1
    door_rows = [rng.randrange(size) for _ in range(rooms - 1)]

    def room_of(col: int) -> int | None:  # None for a wall column
        return None if col % (size + 1) == size else col // (size + 1)

    grid: dict[tuple[int, int], str] = {}
    for row in range(size):
        for col in range(width):
            room = room_of(col)
            if room is not None or door_rows[col // (size + 1)] == row:
                grid[row, col] = f"p{len(grid)}"
    room_cells = [[grid[r, c] for r in range(size) for c in range(width) if room_of(c) == k] for k in range(rooms)]
    doors = [grid[door_rows[k], (k + 1) * (size + 1) - 1] for k in range(rooms - 1)]
    shape_names = [f"shape{k}" for k in range(shapes)]

    locks: dict[str, str] = {}  # door cell -> its lock's shape
    key_at: list[tuple[str, str]] = []  # (shape, cell) of every key
    for k, door in enumerate(doors):
        if rng.randrange(100) < locked_percent:
            locks[door] = rng.choice(shape_names)
            key_at.append((locks[door], rng.choice(room_cells[rng.randrange(k + 1)])))
    for _ in range(extra_keys):
        key_at.append((rng.choice(shape_names), rng.choice(rng.choice(room_cells))))
    robot = rng.choice(room_cells[0])
    target = rng.choice([cell for cell in room_cells[-1] if cell != robot])
    key_names = [f"key{k}" for k in range(len(key_at))]

    places = list(grid.values())
    init = [f"(place {p})" for p in places] + [f"(shape {s})" for s in shape_names]
    init += [f"(key {k})" for k in key_names]
    init += [f"(open {p})" for p in places if p not in locks]
    for door, shape in locks.items():
        init += [f"(locked {door})", f"(lock-shape {door} {shape})"]
    for (row, col), name in grid.items():
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            if (row + dr, col + dc) in grid:
                init.append(f"(conn {name} {grid[row + dr, col + dc]})")
    for name, (shape, cell) in zip(key_names, key_at):
        init += [f"(key-shape {name} {shape})", f"(at {name} {cell})"]
    init += [f"(at-robot {robot})", "(arm-empty)"]

    return problem_text(
        "minigrid", f"minigrid-r{rooms}-n{size}-s{seed}", seed,
        {"rooms": rooms, "size": size, "locked_percent": locked_percent, "shapes": shapes,
         "extra_keys": extra_keys},
        objects=wrap_names(places) + wrap_names(shape_names) + wrap_names(key_names),
        init=init, goal=f"(at-robot {target})",
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
