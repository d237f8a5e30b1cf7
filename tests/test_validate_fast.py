"""The compiled fast check (engine/pddl/fastcheck.py) gives the verdict of the step-by-step validation.

`PlanValidator.validate` trusts the fast check for valid plans and explains everything else step by step;
these tests compare the two verdicts directly on the benchmark plans of ../shared (reference and mutated)
and on hand-made corner cases, and check that names from PDDL never become code.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from test_conformance_shared import (
    BENCHMARKS,
    DEBUG_INSTANCES,
    DOMAINS,
    MUTATIONS,
    PLAN_SETS,
    mutate,
)

from genplan.engine.pddl import (
    Literal,
    load_domain,
    load_problem,
    parse_domain_text,
    parse_problem_text,
)
from genplan.engine.pddl.fastcheck import compiled_actions
from genplan.engine.pddl.plans import load_plan, parse_action
from genplan.engine.pddl.validate import PlanValidator


def both(validator: PlanValidator, plan: list[str], require_parentheses: bool = True) -> tuple[bool, bool]:
    detailed = validator._validate_in_detail(plan, require_parentheses, trace=False)
    return validator._fast.valid(plan), detailed.valid


@pytest.mark.parametrize("domain_name", DOMAINS)
def test_fast_and_detailed_verdicts_agree_on_benchmark_plans(domain_name: str) -> None:
    if not BENCHMARKS.is_dir():
        pytest.skip(f"../shared not found beside the checkout: {BENCHMARKS}")
    directory = BENCHMARKS / domain_name
    domain = load_domain(directory / "domain.pddl")
    seen = {True: 0, False: 0}
    for instance in DEBUG_INSTANCES:
        problem = load_problem(directory / "problems_pddl" / f"instance-{instance}.pddl", domain)
        validator = PlanValidator(domain, problem)
        for plan_set in PLAN_SETS:
            reference = [s.pddl() for s in load_plan(directory / plan_set / f"instance-{instance}_plan.txt")]
            rng = random.Random(f"fast/{domain_name}/{plan_set}/{instance}")
            plans = [reference] + [mutate(reference, kind, rng, domain, problem) for kind in MUTATIONS * 2]
            plans.append(reference[:-1])  # the goal is missed
            for plan in plans:
                fast, detailed = both(validator, plan)
                assert fast == detailed, plan
                assert validator.validate(plan).valid == detailed
                seen[detailed] += 1
    assert seen[True] >= 12 and seen[False] >= 100, seen


DOMAIN = """\
(define (domain odd)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types room box)
  (:constants hall - room)
  (:predicates (at ?b - box ?r - room) (door ?a ?b - room) (p-q ?b - box) (locked))
  (:action move
    :parameters (?b - box ?from ?to - room)
    :precondition (and (at ?b ?from) (door ?from ?to) (not (= ?from ?to)) (not (locked)))
    :effect (and (not (at ?b ?from)) (at ?b ?to) (p-q ?b)))
  (:action stay
    :parameters (?b - box)
    :precondition (at ?b hall)
    :effect (and (not (at ?b hall)) (at ?b hall))))
"""
PROBLEM = """\
(define (problem odd-1)
  (:domain odd)
  (:objects kitchen - room b1 - box)
  (:init (at b1 hall) (door hall kitchen) (door kitchen hall))
  (:goal (and (at b1 kitchen) (p-q b1) (not (locked)))))
"""


@pytest.fixture
def odd() -> PlanValidator:
    domain = parse_domain_text(DOMAIN)
    return PlanValidator(domain, parse_problem_text(PROBLEM, domain))


@pytest.mark.parametrize(
    ("plan", "valid"),
    [
        (["(move b1 hall kitchen)"], True),
        (["(stay b1)", "(MOVE B1 Hall Kitchen)"], True),  # delete-then-add keeps (at b1 hall)
        (["(move b1 hall hall)"], False),  # equality
        (["(move b1 kitchen hall)"], False),  # fluent precondition
        (["(move hall b1 kitchen)"], False),  # types
        (["(move b1 hall)"], False),  # arity
        (["(move b1 hall kitchen extra)"], False),
        (["(fly b1 hall kitchen)"], False),  # unknown action
        (["(move b9 hall kitchen)"], False),  # unknown object
        (["move b1 hall kitchen"], False),  # no parentheses
        (["(move b1 hall kitchen)", "(move b1 kitchen hall)"], False),  # goal missed
        ([], False),
    ],
)
def test_corner_cases(odd: PlanValidator, plan: list[str], valid: bool) -> None:
    assert both(odd, plan) == (valid, valid)
    assert both(odd, [parse_action(s) for s in plan]) == (valid, valid)  # PlanSteps as well as strings


def test_without_required_parentheses_the_detailed_path_decides(odd: PlanValidator) -> None:
    assert odd.validate(["move b1 hall kitchen"], require_parentheses=False).valid
    assert not odd.validate(["move b1 hall kitchen"]).valid


def test_pddl_names_never_become_code(odd: PlanValidator, tmp_path: Path) -> None:
    """The parser admits no quotes in names, but domains are also built in code (variants): a predicate
    named like Python code stays a string in the generated functions."""
    evil = "p'), __import__('pathlib').Path(" + repr(str(tmp_path / "pwned")) + ").touch(), ('"
    domain = odd.domain

    def rename(lit: Literal) -> Literal:
        return replace(lit, predicate=evil) if lit.predicate == "p-q" else lit

    actions = {
        name: replace(a, preconditions=tuple(map(rename, a.preconditions)), add_effects=tuple(map(rename, a.add_effects)))
        for name, a in domain.actions.items()
    }
    predicates = {(evil if n == "p-q" else n): replace(p, name=evil if n == "p-q" else n) for n, p in domain.predicates.items()}
    bad_domain = replace(domain, actions=actions, predicates=predicates)
    problem = odd.task.problem
    bad_problem = replace(problem, goal_pos=[(evil, *f[1:]) if f[0] == "p-q" else f for f in problem.goal_pos])
    validator = PlanValidator(bad_domain, bad_problem)
    assert both(validator, ["(move b1 hall kitchen)"]) == (True, True)
    assert not (tmp_path / "pwned").exists()


def test_the_generated_functions_are_compiled_once_per_domain(tmp_path: Path) -> None:
    domain = parse_domain_text(DOMAIN)
    first = compiled_actions(domain)
    problem = parse_problem_text(PROBLEM, domain)
    PlanValidator(domain, problem)
    PlanValidator(domain, problem)
    assert compiled_actions(domain) is first


UNTYPED = """\
(define (domain shuttle)
  (:predicates (place ?p) (link ?a ?b) (here ?p))
  (:action go
    :parameters (?from ?to)
    :precondition (and (link ?from ?to) (place ?to) (here ?from))
    :effect (and (not (here ?from)) (here ?to))))
"""


def test_untyped_parameters_named_by_a_static_fact_skip_their_type_test_and_still_refuse_strangers() -> None:
    """A static fact names declared objects, so the type test of an untyped parameter it names is left out of
    the generated check; a static fact about an undeclared object (a problem built in code, not loaded) is
    left out of the check's facts, so a step with that object is still refused, as the detailed path does."""
    domain = parse_domain_text(UNTYPED)
    source = compiled_actions(domain)._check_source()
    assert "T0_0" not in source and "T0_1" not in source  # both parameters are in (link ?from ?to)
    assert "if args not in P0" in source  # (link ?from ?to) is the step's own argument tuple
    assert "OK0" not in source  # two tests: not worth remembering which steps passed them
    assert "if args not in OK0:" in compiled_actions(parse_domain_text(DOMAIN))._check_source()  # move has five
    problem = parse_problem_text(
        "(define (problem s1) (:domain shuttle) (:objects a b)"
        " (:init (place a) (place b) (link a b) (here a)) (:goal (here b)))", domain)
    assert both(PlanValidator(domain, problem), ["(go a b)"]) == (True, True)
    stranger = replace(problem, init=[*problem.init, ("link", "a", "ghost"), ("place", "ghost")],
                       goal_pos=[("here", "ghost")])
    validator = PlanValidator(domain, stranger)
    assert both(validator, ["(go a ghost)"]) == (False, False)
    assert validator.validate(["(go a ghost)"]).kind == "unknown-object"
