"""Fast Downward's optimal search falls back to one that supports the translated task.

The IPC Beluga domain of Stein et al.'s additional set is STRIPS, but one of its actions deletes an atom it does
not require; Fast Downward's translator makes that a conditional effect, and LM-cut refuses it (exit code 34):
`genplan plan --optimal` answered "Fast Downward failed (exit 34)" on every task. Since then a refused search is
followed by A* + max(h^max, merge-and-shrink) (admissible with conditional effects), then blind A*. The test
puts that delete back into genplan's own Beluga domain (which dropped it, domains/beluga/README.md).
"""

from __future__ import annotations

import json
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


def test_without_fallback_the_reference_search_is_the_only_one() -> None:
    """--faithful's no-fallback (issue 38, point 1): A* + LM-cut on every task, whatever it holds, and nothing else."""
    from genplan.engine.planner import LAZY_SATISFICING_OPTIONS, LMCUT_SEARCH

    beluga = load_domain(BELUGA / "domain.pddl")
    task = load_problem(BELUGA / "debug" / "task-01.pddl", beluga)
    assert [s[1][-1] for s in _searches(beluga, task, True, "lmcut", fallback=False)] == [LMCUT_SEARCH]
    lamps = load_domain(ADL / "lamps-domain.pddl")  # conditional effects: the reference still runs LM-cut
    lamps_task = load_problem(ADL / "lamps-problem.pddl", lamps)
    assert [s[1][-1] for s in _searches(lamps, lamps_task, True, "lmcut", fallback=False)] == [LMCUT_SEARCH]
    assert [s[1] for s in _searches(lamps, lamps_task, False, "lmcut", "lazy-preferred", fallback=False)] == [
        LAZY_SATISFICING_OPTIONS]


@pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (up-fast-downward) is not installed")
def test_a_task_lmcut_refuses_is_not_solved_without_fallback(tmp_path, capsys) -> None:
    from genplan.cli.main import main as genplan_main

    domain = parse_domain_text(_ipc_beluga_domain_text(), "beluga-domain.pddl")
    task = load_problem(BELUGA / "debug" / "task-01.pddl", domain)
    result = solve(domain, task, optimal=True, timeout=60, planner="fast-downward", lm_search="lmcut", fallback=False)
    assert not result.solved and result.status == "error"
    assert "not solved" in result.message and "no other search is tried" in result.message
    # `genplan plan --faithful` runs the same: the paper's A* + LM-cut, a refusal not solved
    domain_file = tmp_path / "domain.pddl"
    domain_file.write_text(_ipc_beluga_domain_text(), encoding="utf-8")
    code = genplan_main(["plan", str(domain_file), str(BELUGA / "debug" / "task-01.pddl"), "--faithful", "--json",
                         "--timeout", "60"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["status"] == "error" and out["planner"].startswith("fast-downward (A* + LM-cut")
