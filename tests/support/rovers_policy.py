"""A hand-written reference policy for domains/rovers (a solvability proof for every generated task).

Goal by goal: the first rover equipped for the job drives (shortest path over the links it can traverse)
to the sample's waypoint, empties its store if needed and takes the sample; or calibrates a camera that
supports the mode and takes the image. Then it drives to the nearest waypoint from which the lander is
visible and sends the data.
"""

from __future__ import annotations

import itertools
from collections import deque

from genplan.engine.pddl import Problem


def plan_rovers(problem: Problem) -> list[str]:
    facts = problem.init

    def rel(name: str) -> list[tuple[str, ...]]:
        return [fact[1:] for fact in facts if fact[0] == name]

    visible = set(rel("visible"))
    links: dict[str, dict[str, list[str]]] = {}
    for rover, a, b in rel("can_traverse"):
        if (a, b) in visible:
            links.setdefault(rover, {}).setdefault(a, []).append(b)
    at = {rover: w for rover, w in rel("at")}
    ((lander, lander_at),) = rel("at_lander")
    store = {rover: s for s, rover in rel("store_of")}
    full = {s for (s,) in rel("full")}
    equipped = {kind: [r for (r,) in rel(f"equipped_for_{kind}")] for kind in ("soil_analysis", "rock_analysis", "imaging")}
    on_board = rel("on_board")
    supports = set(rel("supports"))
    target = {fact[1]: fact[2] for fact in facts if fact[0] == "calibration_target"}
    seen_from: dict[str, set[str]] = {}
    for objective, w in rel("visible_from"):
        seen_from.setdefault(objective, set()).add(w)
    senders = {x for x, y in visible if y == lander_at}
    plan: list[str] = []

    def drive(rover: str, wanted: set[str]) -> str:
        """Drive to the nearest waypoint of `wanted`; return it."""
        parent: dict[str, str | None] = {at[rover]: None}
        queue = deque([at[rover]])
        while queue:
            here = queue.popleft()
            if here in wanted:
                path = [here]
                while (before := parent[path[-1]]) is not None:
                    path.append(before)
                path.reverse()
                plan.extend(f"(navigate {rover} {a} {b})" for a, b in itertools.pairwise(path))
                at[rover] = here
                return here
            for other in links.get(rover, {}).get(here, []):
                if other not in parent:
                    parent[other] = here
                    queue.append(other)
        raise ValueError(f"{rover} cannot reach any of {sorted(wanted)}")

    for goal in problem.goal_pos:
        if goal[0] in ("communicated_soil_data", "communicated_rock_data"):
            kind = goal[0].split("_")[1]
            waypoint = goal[1]
            rover = equipped[f"{kind}_analysis"][0]
            drive(rover, {waypoint})
            if store[rover] in full:
                plan.append(f"(drop {rover} {store[rover]})")
            plan.append(f"(sample_{kind} {rover} {store[rover]} {waypoint})")
            full.add(store[rover])
            here = drive(rover, senders)
            plan.append(f"(communicate_{kind}_data {rover} {lander} {waypoint} {here} {lander_at})")
        elif goal[0] == "communicated_image_data":
            objective, mode = goal[1:]
            camera, rover = next((c, r) for c, r in on_board if (c, mode) in supports and r in equipped["imaging"])
            here = drive(rover, seen_from[target[camera]])
            plan.append(f"(calibrate {rover} {camera} {target[camera]} {here})")
            here = drive(rover, seen_from[objective])
            plan.append(f"(take_image {rover} {here} {objective} {camera} {mode})")
            here = drive(rover, senders)
            plan.append(f"(communicate_image_data {rover} {lander} {objective} {mode} {here} {lander_at})")
    return plan
