"""Fast Downward's optimal search falls back to one that supports the translated task.

The IPC Beluga domain of Stein et al.'s additional set is STRIPS, but one of its actions deletes an atom it does
not require; Fast Downward's translator makes that a conditional effect, and LM-cut refuses it (exit code 34):
`genplan plan --optimal` answered "Fast Downward failed (exit 34)" on every task. Since then a refused search is
followed by A* + max(h^max, merge-and-shrink) (admissible with conditional effects), then blind A*. The test
puts that delete back into genplan's own Beluga domain (which dropped it, domains/beluga/README.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.engine.pddl import load_domain, load_problem, parse_domain_text
from genplan.engine.planner import (
    OPTIMAL_SEARCH,
    OPTIMAL_SEARCH_ADL,
    OPTIMAL_SEARCH_CONDITIONAL,
    SATISFICING_SEARCH,
    _searches,
    builtin_search,
    fast_downward_driver,
    solve,
)

BELUGA = Path(__file__).resolve().parents[1] / "domains" / "beluga"
ADL = Path(__file__).resolve().parents[1] / "tests" / "data" / "adl"


def _ipc_beluga_domain_text() -> str:
    text = (BELUGA / "domain.pddl").read_text(encoding="utf-8")
    kept = "(not (no-rack-succ ?p)) (not (unused ?r))"
    assert text.count(kept) == 1  # in put-on-rack-beluga
    return text.replace(kept, kept + " (not (ready-to-unload ?p))")


def test_the_searches_tried_in_turn() -> None:
    beluga = load_domain(BELUGA / "domain.pddl")
    task = load_problem(BELUGA / "debug" / "task-01.pddl", beluga)
    assert [s[1][-1] for s in _searches(beluga, task, True, "lmcut-max-ms")] == [
        OPTIMAL_SEARCH, OPTIMAL_SEARCH_CONDITIONAL, OPTIMAL_SEARCH_ADL]
    assert [s[1][-1] for s in _searches(beluga, task, False, "lmcut-max-ms")] == [SATISFICING_SEARCH]
    briefcase = load_domain(ADL / "briefcase-domain.pddl")  # conditional effects, a forall goal: blind only
    assert [s[1][-1] for s in _searches(briefcase, load_problem(ADL / "briefcase-problem.pddl", briefcase), True,
                                         "lmcut-max-ms")] == [OPTIMAL_SEARCH_ADL]
    lamps = load_domain(ADL / "lamps-domain.pddl")  # conditional effects with plain conditions
    assert [s[1][-1] for s in _searches(lamps, load_problem(ADL / "lamps-problem.pddl", lamps), True,
                                         "lmcut-max-ms")] == [OPTIMAL_SEARCH_CONDITIONAL, OPTIMAL_SEARCH_ADL]


@pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (up-fast-downward) is not installed")
def test_lmcut_refusing_the_translators_conditional_effects_is_not_the_answer() -> None:
    domain = parse_domain_text(_ipc_beluga_domain_text(), "beluga-domain.pddl")
    assert domain.is_strips
    task = load_problem(BELUGA / "debug" / "task-01.pddl", domain)
    result = solve(domain, task, optimal=True, timeout=60, planner="fast-downward")
    assert result.solved, result.summary()
    assert "merge-and-shrink) (conditional effects)" in result.planner
    assert "LM-cut" in result.planner and "does not support the translated task" in result.planner
    optimal = builtin_search(domain, task, optimal=True, timeout=60)
    assert optimal.solved and len(result.plan or []) == len(optimal.plan or [])
