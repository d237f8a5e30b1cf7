"""Transport task generator (one city, in the manner of the IPC 2008 generator, without costs).

`locations` locations city-loc-<k> at distinct random points of a 1000 x 1000 square; roads (both directions)
are the edges of a minimum spanning tree of the points, so the network is connected, plus every pair closer
than a radius that gives about three neighbours on average. `trucks` trucks at random locations,
each with a random capacity between min(2, capacity) and `capacity`, counted by capacity-0 .. capacity-<capacity>.
`packages` packages at random locations, each with a random different goal location. Standard library only.
"""

from __future__ import annotations

import argparse
import math
import random

PARAMETERS: dict[str, tuple[int, str]] = {
    "locations": (5, "number of locations (>= 2)"),
    "trucks": (2, "number of trucks (>= 1)"),
    "packages": (3, "number of packages (>= 1)"),
    "capacity": (2, "largest truck capacity (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (61, {"locations": 2, "trucks": 1, "packages": 1, "capacity": 1}),
    (62, {"locations": 3, "trucks": 1, "packages": 2, "capacity": 2}),
    (63, {"locations": 4, "trucks": 1, "packages": 2, "capacity": 1}),
    (64, {"locations": 4, "trucks": 2, "packages": 3, "capacity": 2}),
    (65, {"locations": 5, "trucks": 2, "packages": 3, "capacity": 2}),
    (66, {"locations": 6, "trucks": 2, "packages": 4, "capacity": 3}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 5 locations / 1 truck / 3 packages up to 60 locations / 10 trucks / 120 packages."""
    grow = (i / 31) ** 1.3
    return {
        "locations": 5 + round(55 * grow),
        "trucks": 1 + round(9 * grow),
        "packages": 3 + round(117 * grow),
        "capacity": 2 + i % 3,
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = [(7000 + i, _eval_sizes(i)) for i in range(32)]

SIDE = 1000


def _roads(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Undirected edges (i < j): a minimum spanning tree (Prim) plus all pairs closer than the radius."""
    n = len(points)
    dist = [[math.dist(points[i], points[j]) for j in range(n)] for i in range(n)]
    edges: dict[tuple[int, int], bool] = {}
    in_tree = [False] * n
    best = [math.inf] * n
    parent = [-1] * n
    best[0] = 0.0
    for _ in range(n):
        k = min((j for j in range(n) if not in_tree[j]), key=lambda j: best[j])
        in_tree[k] = True
        if parent[k] >= 0:
            edges[(min(k, parent[k]), max(k, parent[k]))] = True
        for j in range(n):
            if not in_tree[j] and dist[k][j] < best[j]:
                best[j], parent[j] = dist[k][j], k
    radius = math.sqrt(3 * SIDE * SIDE / (math.pi * n))
    for i in range(n):
        for j in range(i + 1, n):
            if dist[i][j] <= radius:
                edges[(i, j)] = True
    return sorted(edges)


def _object_lines(names: list[str], type_name: str, per_line: int = 8) -> list[str]:
    return [" ".join(names[k:k + per_line]) + f" - {type_name}" for k in range(0, len(names), per_line)]


def _section(lines: list[str], indent: str = "    ") -> str:
    return "\n".join(indent + line for line in lines)


def generate(seed: int, locations: int = 5, trucks: int = 2, packages: int = 3, capacity: int = 2) -> str:
    if locations < 2:
        raise ValueError("transport needs at least 2 locations")
    for label, value in (("trucks", trucks), ("packages", packages), ("capacity", capacity)):
        if value < 1:
            raise ValueError(f"{label} must be >= 1")
    rng = random.Random(seed)
    points: list[tuple[int, int]] = []
    while len(points) < locations:  # distinct points keep the radius rule meaningful
        point = (rng.randrange(SIDE), rng.randrange(SIDE))
        if point not in points:
            points.append(point)
    locs = [f"city-loc-{k}" for k in range(locations)]
    truck_names = [f"truck-{k}" for k in range(trucks)]
    package_names = [f"package-{k}" for k in range(packages)]
    sizes = [f"capacity-{k}" for k in range(capacity + 1)]

    init: list[str] = []
    for a, b in _roads(points):
        init += [f"(road {locs[a]} {locs[b]})", f"(road {locs[b]} {locs[a]})"]
    init += [f"(capacity-predecessor {sizes[k]} {sizes[k + 1]})" for k in range(capacity)]
    for truck in truck_names:
        init.append(f"(at {truck} {rng.choice(locs)})")
        init.append(f"(capacity {truck} {sizes[rng.randint(min(2, capacity), capacity)]})")
    goal: list[str] = []
    for package in package_names:
        start, target = rng.sample(locs, 2)
        init.append(f"(at {package} {start})")
        goal.append(f"(at {package} {target})")

    objects = (_object_lines(locs, "location") + _object_lines(truck_names, "vehicle")
               + _object_lines(package_names, "package") + _object_lines(sizes, "capacity-number"))
    options = f"--locations {locations} --trucks {trucks} --packages {packages} --capacity {capacity}"
    return (
        f";; generated by domains/transport/generator.py --seed {seed} {options}\n"
        f"(define (problem transport-{locations}-{trucks}-{packages}-s{seed})\n"
        "  (:domain transport)\n"
        "  (:objects\n"
        f"{_section(objects)})\n"
        "  (:init\n"
        f"{_section(init)})\n"
        "  (:goal (and\n"
        f"{_section(goal)})))\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    for name, (default, help_text) in PARAMETERS.items():
        parser.add_argument(f"--{name}", type=int, default=default, help=help_text)
    args = parser.parse_args()
    print(generate(args.seed, **{name: getattr(args, name) for name in PARAMETERS}), end="")


if __name__ == "__main__":
    main()
