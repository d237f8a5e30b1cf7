"""Beluga task generator (own code, after the Beluga challenge instances of Eisenhut et al. 2024).

`parts` parts part1 ... with random sizes 3..6 arrive on one Beluga flight in a random order. `lines`
production lines (plA, plB, ...) ask for the parts in random orders (every part belongs to one line). There
are `racks` racks of capacity `capacity`, all empty, `beluga_trucks` Beluga trucks t1 ... and `fab_trucks`
factory trucks after them, all empty. Numbers n<k> are declared for every fill level that the part sizes can
make up to the capacity. The goal: every part is processed.

Restriction (it keeps every task solvable by a simple strategy): a flight order is kept only if the strategy
"deliver the part the factory needs as soon as it is at a rack's factory end; otherwise unload the next part
onto the rack whose Beluga-end part is needed latest before it (or an empty rack), if it fits" delivers all
parts, where the factory asks for parts line by line in turn (plA's first, plB's first, ..., plA's second,
...). Other orders are drawn again (at most 500 times; then the sizes are rejected as too tight).
"""

from __future__ import annotations

import itertools
import random
import string

from genplan.engine.generator_kit import chunk_names, eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "parts": (4, "number of parts on the flight (>= 1)"),
    "racks": (2, "number of racks (>= 1)"),
    "capacity": (15, "rack capacity in size units (>= 6)"),
    "lines": (1, "number of production lines (1 .. min(parts, 26))"),
    "beluga_trucks": (1, "number of Beluga trucks (>= 1)"),
    "fab_trucks": (1, "number of factory trucks (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (91, {"parts": 1, "racks": 1, "capacity": 15, "lines": 1, "beluga_trucks": 1, "fab_trucks": 1}),
    (92, {"parts": 2, "racks": 1, "capacity": 15, "lines": 1, "beluga_trucks": 1, "fab_trucks": 1}),
    (93, {"parts": 2, "racks": 2, "capacity": 15, "lines": 1, "beluga_trucks": 1, "fab_trucks": 1}),
    (94, {"parts": 3, "racks": 2, "capacity": 12, "lines": 1, "beluga_trucks": 1, "fab_trucks": 1}),
    (95, {"parts": 3, "racks": 2, "capacity": 15, "lines": 2, "beluga_trucks": 1, "fab_trucks": 1}),
    (96, {"parts": 4, "racks": 2, "capacity": 10, "lines": 1, "beluga_trucks": 1, "fab_trucks": 1}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 4 parts / 2 racks up to 60 parts / 16 racks / 4 production lines."""
    return {
        "parts": ramp(4, 60, i, power=1.2),
        "racks": ramp(2, 16, i, power=1.2),
        "capacity": 15 + 5 * (i % 3),
        "lines": ramp(1, 4, i, power=1.0),
        "beluga_trucks": 1 + i % 2,
        "fab_trucks": 1 + (i // 2) % 2,
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(9500, _eval_sizes)
MIN_SIZE, MAX_SIZE = 3, 6
TRIES = 500


def request_order(line_orders: list[list[int]]) -> list[int]:
    """The order in which the factory asks for the parts: the lines' parts taken in turn."""
    order: list[int] = []
    for position in range(max(len(line) for line in line_orders)):
        order += [line[position] for line in line_orders if position < len(line)]
    return order


def strategy_succeeds(flight: list[int], request: list[int], sizes: list[int], racks: int, capacity: int) -> bool:
    """Simulate the generator's strategy (see the module docstring) on part indices."""
    rank = {part: k for k, part in enumerate(request)}
    stored: list[list[int]] = [[] for _ in range(racks)]  # each rack from its factory end to its Beluga end
    waiting = list(flight)
    done = 0
    while done < len(request):
        wanted = request[done]
        rack = next((r for r in range(racks) if stored[r] and stored[r][0] == wanted), None)
        if rack is not None:
            stored[rack].pop(0)
            done += 1
            continue
        if not waiting:
            return False
        part = waiting.pop(0)
        choices = [r for r in range(racks) if sum(sizes[p] for p in stored[r]) + sizes[part] <= capacity
                   and (not stored[r] or rank[stored[r][-1]] < rank[part])]
        if not choices:
            return False
        stored[max(choices, key=lambda r: (rank[stored[r][-1]] if stored[r] else -1, -r))].append(part)
    return True


def generate(seed: int, parts: int = 4, racks: int = 2, capacity: int = 15, lines: int = 1,
             beluga_trucks: int = 1, fab_trucks: int = 1) -> str:
    if parts < 1 or racks < 1 or beluga_trucks < 1 or fab_trucks < 1:
        raise ValueError("parts, racks, beluga_trucks and fab_trucks must be >= 1")
    if capacity < MAX_SIZE:
        raise ValueError(f"capacity must be >= {MAX_SIZE} (the largest part size)")
    if not 1 <= lines <= min(parts, 26):
        raise ValueError(f"lines must be between 1 and min(parts, 26) = {min(parts, 26)}")
    rng = random.Random(seed)
    sizes = [rng.randint(MIN_SIZE, MAX_SIZE) for _ in range(parts)]
    owner = [k % lines for k in range(parts)]
    rng.shuffle(owner)
    line_orders = [[p for p in range(parts) if owner[p] == line] for line in range(lines)]
    for order in line_orders:
        rng.shuffle(order)
    request = request_order(line_orders)
    for _ in range(TRIES):
        flight = rng.sample(range(parts), parts)
        if strategy_succeeds(flight, request, sizes, racks, capacity):
            break
    else:
        raise ValueError(f"no flight order within {TRIES} draws suits {racks} racks of capacity {capacity}")

    levels = {0}  # every fill level the sizes can make up, up to the capacity
    for total in range(1, capacity + 1):
        if any(total - s in levels for s in set(sizes)):
            levels.add(total)
    part_names = [f"part{k + 1}" for k in range(parts)]
    rack_names = [f"rack{k + 1}" for k in range(racks)]
    line_names = [f"pl{string.ascii_uppercase[k]}" for k in range(lines)]
    trucks = [f"t{k + 1}" for k in range(beluga_trucks + fab_trucks)]

    def num(value: int) -> str:
        return f"n{value:02d}"

    init = [f"(empty {t})" for t in trucks]
    init += [f"(fit-n-sum {num(a)} {num(s)} {num(a + s)})"
             for a in sorted(levels) for s in sorted(set(sizes)) if a + s in levels]
    init += [f"(on-rack noner {part_names[p]})" for p in flight]
    init.append(f"(ready-to-unload {part_names[flight[0]]})")
    init += [f"(next-to-unload {part_names[a]} {part_names[b]})" for a, b in itertools.pairwise(flight)]
    init.append(f"(next-to-unload {part_names[flight[-1]]} nonep)")
    for p, name in enumerate(part_names):
        init += [f"(no-rack-succ {name})", f"(no-rack-pre {name})", f"(size {name} {num(sizes[p])})"]
    for rack in rack_names:
        init += [f"(level {rack} n00)", f"(unused {rack})"]
    init.append("(needed-next nonep)")
    for line, order in zip(line_names, line_orders):
        init.append(f"(p-line-next {line} {part_names[order[0]]})")
        chain = [part_names[p] for p in order] + ["nonep"]
        init += [f"(p-line-succ {a} {b})" for a, b in itertools.pairwise(chain)]
    init.append("(p-line-succ nonep nonep)")

    objects = chunk_names(trucks[:beluga_trucks], 8, "beluga-truck") + chunk_names(trucks[beluga_trucks:], 8, "fab-truck")
    objects += chunk_names(rack_names, 8, "rack") + chunk_names(part_names, 8, "part")
    objects += chunk_names(line_names, 8, "production-line")
    objects += chunk_names([num(v) for v in sorted(levels) if v], 12, "num")
    return problem_text(
        "beluga", f"beluga-p{parts}-r{racks}-s{seed}", seed,
        {"parts": parts, "racks": racks, "capacity": capacity, "lines": lines, "beluga_trucks": beluga_trucks,
         "fab_trucks": fab_trucks},
        objects=objects, init=init, goal=[f"(processed {name})" for name in part_names],
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
