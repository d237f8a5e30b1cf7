"""Every domain of the library: the planner solves each debug task, and the plan validates."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.engine.domainlib import list_domains
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import solve

DOMAINS = Path(__file__).resolve().parents[1] / "domains"
CASES = [(d, task) for d in list_domains(DOMAINS) for task in d.debug_tasks()]


@pytest.mark.parametrize("domain_dir,task", CASES, ids=[f"{d.name}-{t.stem}" for d, t in CASES])
def test_planner_solves_debug_task(domain_dir, task) -> None:
    domain = load_domain(domain_dir.domain_file)
    problem = load_problem(task, domain)
    result = solve(domain, problem, optimal=False, timeout=30)
    assert result.solved, result.summary()
    assert validate_plan(domain, problem, result.plan or []).valid
