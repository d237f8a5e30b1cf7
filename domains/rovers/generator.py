"""Rovers task generator (in the manner of the IPC 2002 generator).

`waypoints` waypoints linked by a random connected, symmetric visibility graph (a random spanning tree plus
`extra_links` further random pairs). One lander, `general`, at a random waypoint.
`rovers` rovers, each at a random waypoint with its own store, equipped for soil, rock and imaging analysis
at random (every kind the goal needs is present on some rover); each rover can traverse a random spanning
tree of the visibility graph plus some further visible links, so it reaches every waypoint. `cameras`
cameras on random imaging rovers, each supporting 1..3 of the modes colour, high_res and low_res and
calibrating on a random objective. `objectives` objectives, each visible from 1..3 random waypoints. Soil
and rock samples lie at random waypoints; the goal asks for `soil_goals` soil analyses and `rock_goals` rock
analyses (of waypoints with such a sample) and `image_goals` images (objective, supported mode) to be
communicated.
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import chunk_names, eval_specs, problem_text, ramp, run_cli

PARAMETERS: dict[str, tuple[int, str]] = {
    "rovers": (1, "number of rovers (>= 1)"),
    "waypoints": (4, "number of waypoints (>= 2)"),
    "extra_links": (2, "number of visibility links beyond a random spanning tree (>= 0)"),
    "objectives": (2, "number of objectives (>= 1)"),
    "cameras": (1, "number of cameras (>= 1 when image_goals > 0)"),
    "soil_goals": (1, "number of soil analyses in the goal (0 .. waypoints)"),
    "rock_goals": (1, "number of rock analyses in the goal (0 .. waypoints)"),
    "image_goals": (1, "number of images in the goal (0 .. objectives * 3)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (81, {"rovers": 1, "waypoints": 2, "extra_links": 1, "objectives": 1, "cameras": 1, "soil_goals": 1,
          "rock_goals": 0, "image_goals": 0}),
    (82, {"rovers": 1, "waypoints": 3, "extra_links": 1, "objectives": 1, "cameras": 1, "soil_goals": 0,
          "rock_goals": 1, "image_goals": 0}),
    (83, {"rovers": 1, "waypoints": 3, "extra_links": 1, "objectives": 1, "cameras": 1, "soil_goals": 0,
          "rock_goals": 0, "image_goals": 1}),
    (84, {"rovers": 1, "waypoints": 3, "extra_links": 1, "objectives": 2, "cameras": 1, "soil_goals": 1,
          "rock_goals": 1, "image_goals": 0}),
    (85, {"rovers": 2, "waypoints": 4, "extra_links": 1, "objectives": 2, "cameras": 1, "soil_goals": 1,
          "rock_goals": 0, "image_goals": 1}),
    (86, {"rovers": 2, "waypoints": 4, "extra_links": 1, "objectives": 2, "cameras": 2, "soil_goals": 1,
          "rock_goals": 1, "image_goals": 1}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Task i of 32: from 1 rover / 4 waypoints / 3 goals up to 10 rovers / 60 waypoints / 75 goals."""
    waypoints = ramp(4, 60, i, power=1.3)
    objectives = ramp(2, 20, i, power=1.3)
    return {
        "rovers": ramp(1, 10, i, power=1.3),
        "waypoints": waypoints,
        "extra_links": waypoints,
        "objectives": objectives,
        "cameras": ramp(1, 12, i, power=1.3),
        "soil_goals": ramp(1, waypoints // 2, i, power=1.0),
        "rock_goals": ramp(1, waypoints // 2, i, power=1.0),
        "image_goals": ramp(1, objectives * 3 // 2, i, power=1.0),
    }


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(9000, _eval_sizes)

MODES = ("colour", "high_res", "low_res")
KINDS = ("soil", "rock", "imaging")


def _spanning_tree(rng: random.Random, count: int, links: list[tuple[int, int]] | None) -> set[tuple[int, int]]:
    """Undirected edges (a, b), a < b, of a random spanning tree of nodes 0..count-1: over all pairs when
    `links` is None (each node in random order joins a random earlier one), else over `links` (randomized
    Prim: repeatedly a random link from the tree to a new node)."""
    if links is None:
        order = rng.sample(range(count), count)
        pairs = ((order[k], order[rng.randrange(k)]) for k in range(1, count))
        return {(min(a, b), max(a, b)) for a, b in pairs}
    neighbours: dict[int, list[int]] = {node: [] for node in range(count)}
    for a, b in links:
        neighbours[a].append(b)
        neighbours[b].append(a)
    start = rng.randrange(count)
    inside = {start}
    frontier = [(start, other) for other in neighbours[start]]
    edges: set[tuple[int, int]] = set()
    while len(inside) < count:
        index = rng.randrange(len(frontier))
        frontier[index], frontier[-1] = frontier[-1], frontier[index]
        a, b = frontier.pop()
        if b in inside:
            continue
        inside.add(b)
        edges.add((min(a, b), max(a, b)))
        frontier += [(b, other) for other in neighbours[b] if other not in inside]
    return edges


def generate(seed: int, rovers: int = 1, waypoints: int = 4, extra_links: int = 2, objectives: int = 2,
             cameras: int = 1, soil_goals: int = 1, rock_goals: int = 1, image_goals: int = 1) -> str:
    if rovers < 1 or objectives < 1:
        raise ValueError("rovers and objectives must be >= 1")
    if waypoints < 2:
        raise ValueError("waypoints must be >= 2")
    if extra_links < 0:
        raise ValueError("extra_links must be >= 0")
    if not (0 <= soil_goals <= waypoints and 0 <= rock_goals <= waypoints):
        raise ValueError(f"soil_goals and rock_goals must be between 0 and waypoints = {waypoints}")
    if not 0 <= image_goals <= objectives * len(MODES):
        raise ValueError(f"image_goals must be between 0 and objectives * 3 = {objectives * len(MODES)}")
    if image_goals > 0 and cameras < 1:
        raise ValueError("image goals need cameras >= 1")
    if cameras < 0 or soil_goals + rock_goals + image_goals == 0:
        raise ValueError("cameras must be >= 0 and the goal needs at least one analysis or image")
    rng = random.Random(seed)
    nodes = list(range(waypoints))
    visible = _spanning_tree(rng, waypoints, None)
    others = [(a, b) for a in nodes for b in nodes if a < b and (a, b) not in visible]
    visible |= set(rng.sample(others, min(extra_links, len(others))))
    lander_at = rng.choice(nodes)

    needed = [kind for kind, count in zip(KINDS, (soil_goals, rock_goals, image_goals)) if count]
    equipped = [{kind for kind in KINDS if rng.randrange(2)} for _ in range(rovers)]
    for kind in needed:  # every needed kind on some rover
        if not any(kind in kinds for kinds in equipped):
            equipped[rng.randrange(rovers)].add(kind)
    if cameras and not any("imaging" in kinds for kinds in equipped):
        equipped[rng.randrange(rovers)].add("imaging")
    imagers = [r for r in range(rovers) if "imaging" in equipped[r]]
    traverse = [_spanning_tree(rng, waypoints, sorted(visible)) for _ in range(rovers)]
    for edges in traverse:
        edges |= {edge for edge in sorted(visible) if rng.randrange(100) < 50}
    rover_at = [rng.choice(nodes) for _ in range(rovers)]

    camera_on = [rng.choice(imagers) for _ in range(cameras)]
    camera_modes = [sorted(rng.sample(range(len(MODES)), rng.randint(1, len(MODES)))) for _ in range(cameras)]
    camera_target = [rng.randrange(objectives) for _ in range(cameras)]
    seen_from = [sorted(rng.sample(nodes, min(waypoints, rng.randint(1, 3)))) for _ in range(objectives)]

    soil_at = sorted(rng.sample(nodes, max(soil_goals, rng.randint(0, waypoints))))
    rock_at = sorted(rng.sample(nodes, max(rock_goals, rng.randint(0, waypoints))))
    soil_wanted = rng.sample(soil_at, soil_goals)
    rock_wanted = rng.sample(rock_at, rock_goals)
    supported = sorted({m for modes in camera_modes for m in modes})
    pairs = [(o, m) for o in range(objectives) for m in supported]
    if image_goals > len(pairs):
        raise ValueError(f"the cameras support only {len(pairs)} (objective, mode) pairs, fewer than image_goals")
    images_wanted = rng.sample(pairs, image_goals)

    wp = [f"waypoint{k}" for k in nodes]
    rv = [f"rover{k}" for k in range(rovers)]
    st = [f"rover{k}store" for k in range(rovers)]
    cams = [f"camera{k}" for k in range(cameras)]
    objs = [f"objective{k}" for k in range(objectives)]
    init = [f"(visible {wp[a]} {wp[b]})" for a, b in sorted(visible)]
    init += [f"(visible {wp[b]} {wp[a]})" for a, b in sorted(visible)]
    init += [f"(at_soil_sample {wp[w]})" for w in soil_at] + [f"(at_rock_sample {wp[w]})" for w in rock_at]
    init += [f"(at_lander general {wp[lander_at]})", "(channel_free general)"]
    for r in range(rovers):
        init += [f"(at {rv[r]} {wp[rover_at[r]]})", f"(available {rv[r]})",
                 f"(store_of {st[r]} {rv[r]})", f"(empty {st[r]})"]
        init += [f"(equipped_for_{'imaging' if k == 'imaging' else k + '_analysis'} {rv[r]})"
                 for k in KINDS if k in equipped[r]]
        for a, b in sorted(traverse[r]):
            init += [f"(can_traverse {rv[r]} {wp[a]} {wp[b]})", f"(can_traverse {rv[r]} {wp[b]} {wp[a]})"]
    for c in range(cameras):
        init += [f"(on_board {cams[c]} {rv[camera_on[c]]})", f"(calibration_target {cams[c]} {objs[camera_target[c]]})"]
        init += [f"(supports {cams[c]} {MODES[m]})" for m in camera_modes[c]]
    for o in range(objectives):
        init += [f"(visible_from {objs[o]} {wp[w]})" for w in seen_from[o]]
    goal = [f"(communicated_soil_data {wp[w]})" for w in soil_wanted]
    goal += [f"(communicated_rock_data {wp[w]})" for w in rock_wanted]
    goal += [f"(communicated_image_data {objs[o]} {MODES[m]})" for o, m in images_wanted]

    objects = ["general - lander", f"{' '.join(MODES)} - mode"] + chunk_names(rv, 8, "rover")
    objects += chunk_names(st, 8, "store") + chunk_names(wp, 8, "waypoint")
    objects += chunk_names(cams, 8, "camera") + chunk_names(objs, 8, "objective")
    return problem_text(
        "rovers", f"rovers-{rovers}-{waypoints}-{len(goal)}-s{seed}", seed,
        {"rovers": rovers, "waypoints": waypoints, "extra_links": extra_links, "objectives": objectives,
         "cameras": cameras, "soil_goals": soil_goals, "rock_goals": rock_goals, "image_goals": image_goals},
        objects=objects, init=init, goal=goal,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
