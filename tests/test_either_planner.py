"""``(either ...)`` of types that are not siblings on the way to Fast Downward (engine/pddl/writer.py).

Fast Downward's translator cannot read ``either``. Siblings become a new type; other eithers are compiled away:
the parameter takes the closest common supertype plus a precondition that it is one of the types, and a
quantifier becomes one quantifier per type (in actions and in the goal). The garage tasks below are built so
that a loose translation (the common supertype alone) would be caught: a drone is a vehicle but not one of
``(either truck crane)``, and using it would give a shorter plan (which genplan's validator refuses) or make
the forall goal unreachable.
"""

from __future__ import annotations

import pytest

from genplan.engine.pddl import parse_domain_text, parse_problem_text
from genplan.engine.planner import FAULT, SOLVED, UNSOLVABLE, builtin_search, fast_downward_driver, fast_downward_input, solve

DOMAIN = """
(define (domain garage)
  (:requirements :strips :typing :universal-preconditions :conditional-effects)
  (:types vehicle machine place - object truck drone - vehicle crane press - machine)
  (:predicates (at ?x - (either vehicle crane) ?p - place) (serviced ?x) (workshop ?p - place)
               (road ?a ?b - place) (certified))
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (at ?t ?b) (not (at ?t ?a))))
  (:action service
    :parameters (?x - (either truck crane) ?p - place)
    :precondition (and (at ?x ?p) (workshop ?p))
    :effect (serviced ?x))
  (:action certify
    :parameters (?x - (either truck crane))
    :precondition (serviced ?x)
    :effect (certified))
  (:action sweep
    :parameters (?p - place)
    :precondition (workshop ?p)
    :effect (forall (?x - (either truck crane)) (when (at ?x ?p) (serviced ?x)))))
"""


def problem(goal: str, drone_serviced: bool) -> str:
    return f"""
(define (problem garage-1) (:domain garage)
  (:objects t1 - truck c1 - crane d1 - drone p1 - press home shop - place)
  (:init (at t1 home) (at c1 shop) (at d1 shop) (workshop shop) (road home shop) (road shop home)
         {"(serviced d1)" if drone_serviced else ""})
  (:goal {goal}))
"""


CASES = {
    # a drone is serviced already: certifying it would be one step, but it is no truck or crane
    "certify": (problem("(certified)", True), SOLVED, 2),
    # every truck and crane serviced (not the drone): drive the truck to the shop, sweep
    "forall-goal": (problem("(forall (?v - (either truck crane)) (serviced ?v))", False), SOLVED, 2),
    "exists-goal": (problem("(exists (?v - (either truck crane)) (and (serviced ?v) (at ?v home)))", False), SOLVED, 3),
    # nothing services a drone
    "unsolvable": (problem("(serviced d1)", False), UNSOLVABLE, None),
}


def test_eithers_of_non_siblings_are_written_without_either() -> None:
    domain = parse_domain_text(DOMAIN, "garage.pddl")
    task = parse_problem_text(CASES["forall-goal"][0], domain, "p.pddl")
    domain_text, problem_text = fast_downward_input(domain, task)
    assert "either" not in domain_text and "either" not in problem_text
    written = parse_domain_text(domain_text, "written.pddl")
    service = written.actions["service"]
    assert service.parameters[0].types == ("object",)  # truck and crane meet at object only
    assert service.conditions[0].pddl() == ("(or (exists (?x-as-crane - crane) (= ?x ?x-as-crane)) "
                                           "(exists (?x-as-truck - truck) (= ?x ?x-as-truck)))")
    assert [e.variables[0].types for e in written.actions["sweep"].conditional_effects] == [("crane",), ("truck",)]
    goal = parse_problem_text(problem_text, written, "written-problem.pddl").goal_conditions
    assert [c.pddl() for c in goal] == ["(forall (?v - crane) (serviced ?v))", "(forall (?v - truck) (serviced ?v))"]


@pytest.mark.parametrize("case", list(CASES))
def test_the_builtin_search_reads_either_as_written(case: str) -> None:
    text, status, length = CASES[case]
    domain = parse_domain_text(DOMAIN, "garage.pddl")
    result = builtin_search(domain, parse_problem_text(text, domain, "p.pddl"), optimal=True, timeout=30)
    assert result.status == status and (length is None or len(result.plan or []) == length), result.summary()


@pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (up-fast-downward) is not installed")
@pytest.mark.parametrize("case", list(CASES))
def test_genplan_plan_answers_like_the_builtin_search(case: str) -> None:
    text, status, length = CASES[case]
    domain = parse_domain_text(DOMAIN, "garage.pddl")
    task = parse_problem_text(text, domain, "p.pddl")
    result = solve(domain, task, optimal=True, timeout=60, planner="fast-downward")
    assert result.status != FAULT, result.message
    assert result.status == status, result.summary()
    assert result.planner.startswith("fast-downward")
    assert result.rewrites  # the translation changed the task's text: said so, and "unsolvable" gets confirmed
    if status == SOLVED:
        assert len(result.plan or []) == length
    else:
        assert "confirmed by the built-in search" in result.message
