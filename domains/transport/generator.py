"""Transport task generator (one city, in the manner of the IPC 2008 generator, without costs).

`locations` locations city-loc-<k> at distinct random points of a 1000 x 1000 square; roads (both directions)
are the edges of a minimum spanning tree of the points, so the network is connected, plus every pair closer
than a radius that gives about three neighbours on average. `trucks` trucks at random locations,
each with a random capacity between min(2, capacity) and `capacity`, counted by capacity-0 .. capacity-<capacity>.
`packages` packages at random locations, each with a random different goal location.
"""

from __future__ import annotations

import math
import random

from genplan.engine.generator_kit import chunk_names, eval_specs, problem_text, ramp, run_cli

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
    return {
        "locations": ramp(5, 60, i, power=1.3),
        "trucks": ramp(1, 10, i, power=1.3),
        "packages": ramp(3, 120, i, power=1.3),
        "capacity": 2 + i % 3,
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(7000, _eval_sizes)

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

    objects = chunk_names(locs, 8, "location") + chunk_names(truck_names, 8, "vehicle")
    objects += chunk_names(package_names, 8, "package") + chunk_names(sizes, 8, "capacity-number")
    return problem_text(
        "transport", f"transport-{locations}-{trucks}-{packages}-s{seed}", seed,
        {"locations": locations, "trucks": trucks, "packages": packages, "capacity": capacity},
        objects=objects, init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
