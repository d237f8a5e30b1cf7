"""Cost-function values stay out of the Python encoding programs receive (docs/pddl.md, "Python encoding").

A program's plan is judged by validity alone and no action's applicability depends on a cost, so ``init`` stays
what the code prompts promise: a set of facts, each a tuple of strings. The cost is still known to genplan:
``genplan validate`` reports it.
"""

from __future__ import annotations

from pathlib import Path

from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.encoding import encode_task
from genplan.engine.pddl.validate import validate_plan

ADL = Path(__file__).resolve().parent / "data" / "adl"


def test_cost_values_are_not_part_of_init_but_the_plan_cost_is_reported() -> None:
    domain = load_domain(ADL / "roads-domain.pddl")
    problem = load_problem(ADL / "roads-problem.pddl", domain)
    assert problem.function_values and problem.metric
    encoded = encode_task(problem, typed=True, domain=domain)
    assert encoded.init == problem.init
    assert all(isinstance(fact, tuple) and all(isinstance(part, str) for part in fact) for fact in encoded.init)
    assert not any(fact[0] in domain.functions or fact[0] in ("=", "total-cost") for fact in encoded.init)
    plan = [line for line in (ADL / "roads-plan.txt").read_text().splitlines() if line.startswith("(")]
    verdict = validate_plan(domain, problem, plan)
    assert verdict.valid and verdict.cost == 5  # four roads of length 1, the toll 1 (the direct road is 10)
