"""Validation is bounded by the time limit: a program that returns millions of valid steps is reported as
too large to check at once, instead of keeping the evaluation busy for minutes past its timeout."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from genplan.engine.domainlib import DomainDir
from genplan.engine.evaluation import Evaluator, load_tasks, plan_length_cap
from genplan.engine.pddl import load_domain
from genplan.engine.sandbox import Limits, Program

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")
FERRY = Path(__file__).resolve().parents[1] / "domains" / "ferry"

# Sails back and forth forever: every step is valid, so only a cap stops the validator.
SAIL_FOREVER = (
    "def generate_solution(objects, init, goal):\n"
    "    here = next(f[1] for f in init if f[0] == 'at-ferry')\n"
    "    there = next(o for o in objects if o != here and o.startswith('l'))\n"
    "    return ['(sail %s %s)' % ((here, there) if k % 2 == 0 else (there, here)) for k in range({n})]\n"
)


def test_plan_length_cap_follows_the_time_limit() -> None:
    assert plan_length_cap(Limits(time_limit=1)) == 10_000
    assert plan_length_cap(Limits(time_limit=45)) == 225_000


def test_a_plan_of_millions_of_valid_steps_is_not_validated() -> None:
    domain_dir = DomainDir.open(FERRY)
    domain = load_domain(domain_dir.domain_file)
    tasks = load_tasks(domain, domain_dir.debug_tasks()[:1], domain_dir.typed_objects, root=domain_dir.path)
    limits = Limits(time_limit=10)
    with Evaluator(domain, tasks, limits=limits) as evaluator:
        started = time.monotonic()
        long = evaluator.run_one(Program.from_source(SAIL_FOREVER.format(n=300_000)), tasks[0])
        elapsed = time.monotonic() - started
        assert long.kind == "result-too-large" and long.category == "wrong type"
        assert "300000 actions" in long.message and long.outcome.plan is None
        assert elapsed < limits.time_limit + 10
        # Under the cap the plan is validated as usual (valid steps, goal not reached).
        short = evaluator.run_one(Program.from_source(SAIL_FOREVER.format(n=1000)), tasks[0])
        assert short.kind == "goal-not-reached"
