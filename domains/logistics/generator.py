"""Logistics task generator: C cities with S places each (the first one of every city is its airport,
the others are plain locations), one truck per city at a random place of its city, A airplanes at random
airports, P packages at random places, and a random goal place for every package (it may be the
package's start, but never for all packages, so the goal never holds initially).
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, keep_one_goal_open, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "cities": (2, "number of cities (>= 1), each with one truck and one airport"),
    "size": (2, "places per city (>= 1), the first one an airport"),
    "packages": (3, "number of packages (>= 1)"),
    "airplanes": (1, "number of airplanes (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"cities": 1, "size": 2, "packages": 1, "airplanes": 1}),
    (2, {"cities": 2, "size": 1, "packages": 2, "airplanes": 1}),
    (3, {"cities": 2, "size": 2, "packages": 1, "airplanes": 1}),
    (4, {"cities": 2, "size": 2, "packages": 2, "airplanes": 1}),
    (5, {"cities": 2, "size": 3, "packages": 2, "airplanes": 2}),
    (6, {"cities": 3, "size": 2, "packages": 2, "airplanes": 1}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 2 cities x 2 places / 2 packages to 12 cities x 5 places / 60 packages / 5
    airplanes."""
    return {
        "cities": ramp(2, 12, i),
        "size": ramp(2, 5, i, power=1),
        "packages": ramp(2, 60, i),
        "airplanes": ramp(1, 5, i),
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, cities: int = 2, size: int = 2, packages: int = 3, airplanes: int = 1) -> str:
    if cities < 1 or size < 1 or packages < 1 or airplanes < 1:
        raise ValueError("logistics needs at least 1 city, 1 place per city, 1 package and 1 airplane")
    if cities * size < 2:
        raise ValueError("logistics needs at least 2 places in total")
    rng = random.Random(seed)
    city_names = [f"city{c}" for c in range(cities)]
    places_of = {
        city: [f"airport{c}"] + [f"loc{c}-{k}" for k in range(1, size)] for c, city in enumerate(city_names)
    }
    airports = [places_of[city][0] for city in city_names]
    locations = [p for city in city_names for p in places_of[city][1:]]
    all_places = [p for city in city_names for p in places_of[city]]
    trucks = [f"truck{c}" for c in range(cities)]
    planes = [f"plane{a}" for a in range(airplanes)]
    package_names = [f"pkg{p}" for p in range(packages)]

    truck_at = {t: rng.choice(places_of[city]) for t, city in zip(trucks, city_names)}
    plane_at = {a: rng.choice(airports) for a in planes}
    start = {p: rng.choice(all_places) for p in package_names}
    goal = {p: rng.choice(all_places) for p in package_names}
    keep_one_goal_open(rng, start, goal, all_places)

    init = [f"(in-city {place} {city})" for city in city_names for place in places_of[city]]
    init += [f"(at {t} {truck_at[t]})" for t in trucks]
    init += [f"(at {a} {plane_at[a]})" for a in planes]
    init += [f"(at {p} {start[p]})" for p in package_names]
    goals = [f"(at {p} {goal[p]})" for p in package_names]
    objects = [*wrap_names(city_names, "city"), *wrap_names(airports, "airport")]
    objects += wrap_names(locations, "location")  # none when every city is just its airport
    objects += [*wrap_names(trucks, "truck"), *wrap_names(planes, "airplane"), *wrap_names(package_names, "package")]
    return problem_text(
        "logistics", f"logistics-c{cities}-s{size}-p{packages}-a{airplanes}-s{seed}", seed,
        {"cities": cities, "size": size, "packages": packages, "airplanes": airplanes},
        objects=objects, init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
