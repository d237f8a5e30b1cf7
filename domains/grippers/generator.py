"""Grippers task generator: N robots with two grippers each (left and right), R rooms, B balls; robots
and balls start in random rooms, all grippers are free, and every ball gets a random goal room (it may be
the ball's start room, but never for all balls, so the goal never holds initially).
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, keep_one_goal_open, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "robots": (2, "number of robots (>= 1), each with a left and a right gripper"),
    "rooms": (3, "number of rooms (>= 2)"),
    "balls": (4, "number of balls (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"robots": 1, "rooms": 2, "balls": 2}),
    (2, {"robots": 2, "rooms": 2, "balls": 2}),
    (3, {"robots": 1, "rooms": 3, "balls": 3}),
    (4, {"robots": 2, "rooms": 3, "balls": 3}),
    (5, {"robots": 2, "rooms": 3, "balls": 4}),
    (6, {"robots": 3, "rooms": 4, "balls": 4}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 1 robot / 2 rooms / 3 balls to 5 robots / 20 rooms / 100 balls (grounding
    grows with robots x balls x rooms x grippers, so larger tasks would mostly measure a planner's grounding)."""
    return {"robots": ramp(1, 5, i), "rooms": ramp(2, 20, i), "balls": ramp(3, 100, i)}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, robots: int = 2, rooms: int = 3, balls: int = 4) -> str:
    if robots < 1 or balls < 1:
        raise ValueError("grippers needs at least 1 robot and 1 ball")
    if rooms < 2:
        raise ValueError("grippers needs at least 2 rooms")
    rng = random.Random(seed)
    robot_names = [f"robot{i}" for i in range(robots)]
    room_names = [f"room{i}" for i in range(rooms)]
    ball_names = [f"ball{i}" for i in range(balls)]
    grippers_of = {r: [f"lgripper{i}", f"rgripper{i}"] for i, r in enumerate(robot_names)}
    gripper_names = [g for r in robot_names for g in grippers_of[r]]
    robot_at = {r: rng.choice(room_names) for r in robot_names}
    start = {b: rng.choice(room_names) for b in ball_names}
    goal = {b: rng.choice(room_names) for b in ball_names}
    keep_one_goal_open(rng, start, goal, room_names)

    init = [f"(at-robby {r} {robot_at[r]})" for r in robot_names]
    init += [f"(free {r} {g})" for r in robot_names for g in grippers_of[r]]
    init += [f"(at {b} {start[b]})" for b in ball_names]
    goals = [f"(at {b} {goal[b]})" for b in ball_names]
    objects = [*wrap_names(robot_names, "robot"), *wrap_names(gripper_names, "gripper")]
    objects += [*wrap_names(room_names, "room"), *wrap_names(ball_names, "ball")]
    return problem_text(
        "grippers", f"grippers-n{robots}-r{rooms}-b{balls}-s{seed}", seed,
        {"robots": robots, "rooms": rooms, "balls": balls}, objects=objects, init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
