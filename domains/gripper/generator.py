"""Gripper task generator: R rooms, B balls at random rooms, one robot with G free grippers in a random
room, and a random goal room for every ball (it may be the ball's start room, but never for all balls, so
the goal never holds initially).
"""

from __future__ import annotations

import random

from genplan.engine.generator_kit import eval_specs, keep_one_goal_open, problem_text, ramp, run_cli, wrap_names

PARAMETERS: dict[str, tuple[int, str]] = {
    "rooms": (2, "number of rooms (>= 2)"),
    "balls": (4, "number of balls (>= 1)"),
    "grippers": (2, "number of grippers of the robot (>= 1)"),
}

DEBUG_SPECS: list[tuple[int, dict[str, int]]] = [
    (1, {"rooms": 2, "balls": 1, "grippers": 2}),
    (2, {"rooms": 2, "balls": 3, "grippers": 2}),
    (3, {"rooms": 3, "balls": 3, "grippers": 1}),
    (4, {"rooms": 3, "balls": 4, "grippers": 2}),
    (5, {"rooms": 4, "balls": 4, "grippers": 3}),
    (6, {"rooms": 4, "balls": 5, "grippers": 2}),
]


def _eval_sizes(i: int) -> dict[str, int]:
    """Eval task i of 32: from 2 rooms / 4 balls to 30 rooms / 150 balls; the number of grippers cycles 1..4."""
    return {"rooms": ramp(2, 30, i), "balls": ramp(4, 150, i), "grippers": 1 + i % 4}


EVAL_SPECS: list[tuple[int, dict[str, int]]] = eval_specs(1000, _eval_sizes)


def generate(seed: int, rooms: int = 2, balls: int = 4, grippers: int = 2) -> str:
    if rooms < 2:
        raise ValueError("gripper needs at least 2 rooms")
    if balls < 1 or grippers < 1:
        raise ValueError("gripper needs at least 1 ball and 1 gripper")
    rng = random.Random(seed)
    room_names = [f"room{i}" for i in range(rooms)]
    ball_names = [f"ball{i}" for i in range(balls)]
    gripper_names = [f"gripper{i}" for i in range(grippers)]
    robby = rng.choice(room_names)
    start = {b: rng.choice(room_names) for b in ball_names}
    goal = {b: rng.choice(room_names) for b in ball_names}
    keep_one_goal_open(rng, start, goal, room_names)

    init = [f"(room {r})" for r in room_names]
    init += [f"(ball {b})" for b in ball_names]
    init += [f"(gripper {g})" for g in gripper_names]
    init += [f"(at-robby {robby})"]
    init += [f"(free {g})" for g in gripper_names]
    init += [f"(at {b} {start[b]})" for b in ball_names]
    goals = [f"(at {b} {goal[b]})" for b in ball_names]
    return problem_text(
        "gripper", f"gripper-r{rooms}-b{balls}-g{grippers}-s{seed}", seed,
        {"rooms": rooms, "balls": balls, "grippers": grippers},
        objects=[*wrap_names(room_names), *wrap_names(ball_names), *wrap_names(gripper_names)],
        init=init, goal=goals,
    )


if __name__ == "__main__":
    run_cli(PARAMETERS, generate, __doc__)
