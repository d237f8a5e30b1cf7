"""Reproducible program inputs: set iteration order depends on the server's hash seed, nothing else."""

from __future__ import annotations

import sys

import pytest

from genplan.engine.sandbox import Limits, Program, Sandbox

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

OBJECTS = [f"obj{i}" for i in range(200)]
TASK = (OBJECTS, [("p", o) for o in OBJECTS], [("q", o) for o in OBJECTS[:50]])
ECHO = Program.from_source(
    "import random\n"
    "def generate_solution(objects, init, goal):\n"
    "    return list(objects)[:20] + [repr(next(iter(init))), repr(next(iter(goal))), str(random.random())]\n"
)


def observe(hash_seeds: list[int]) -> dict[int, list[str]]:
    with Sandbox(Limits(time_limit=10)) as box:
        box.start(hash_seeds)
        return {seed: box.run(ECHO, TASK, hash_seed=seed).plan for seed in hash_seeds}


def test_same_seed_gives_the_same_inputs_in_a_fresh_sandbox() -> None:
    first = observe([0, 1, 2, 3])
    second = observe([3, 2, 1, 0])
    assert first == second
    assert all(plan is not None for plan in first.values())


def test_different_seeds_give_different_set_orders() -> None:
    plans = observe([0, 1, 2, 3])
    orders = {tuple(plan[:20]) for plan in plans.values()}
    assert len(orders) == 4
    randoms = {plan[-1] for plan in plans.values()}
    assert len(randoms) == 4  # the random module is seeded per ordering too


def test_repeated_runs_in_one_server_are_identical() -> None:
    with Sandbox(Limits(time_limit=10)) as box:
        runs = [box.run(ECHO, TASK, hash_seed=5).plan for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
