"""Exact feedback messages of the validator, for every error kind, in both styles.

"stein": Table 13 of the strategy-refinement paper (4.1-4.6), steps counted from 0.
"silver": Silver et al.'s messages (syntax errors list the valid operators; VAL's plan repair advice for
semantic errors, with VAL's time counted from 1).
The domain is written here: typed with a subtype, negative preconditions, equality, a static predicate
used negatively (`locked`, no action changes it), and a negative goal.
"""

from __future__ import annotations

import pytest

from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.pddl import parse_domain_text, parse_problem_text
from genplan.engine.pddl.validate import (
    GOAL_NOT_REACHED,
    MALFORMED,
    PRECONDITION,
    STATIC_PRECONDITION,
    TABLE13_ID,
    TYPE_MISMATCH,
    UNKNOWN_ACTION,
    UNKNOWN_OBJECT,
    WRONG_ARITY,
    PlanValidator,
    StepEffect,
    validate_plan,
)

DOMAIN = """\
(define (domain lab)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types room item robot - object
          droid - robot)
  (:predicates (at ?r - robot ?x - room)
               (door ?x - room ?y - room)
               (locked ?x - room)
               (item-at ?i - item ?x - room)
               (holding ?r - robot ?i - item)
               (hand-free ?r - robot))
  (:action move
    :parameters (?r - robot ?from - room ?to - room)
    :precondition (and (at ?r ?from) (door ?from ?to) (not (locked ?to)) (not (= ?from ?to)))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))
  (:action pick
    :parameters (?r - robot ?i - item ?x - room)
    :precondition (and (at ?r ?x) (item-at ?i ?x) (hand-free ?r))
    :effect (and (holding ?r ?i) (not (item-at ?i ?x)) (not (hand-free ?r))))
  (:action drop
    :parameters (?r - robot ?i - item ?x - room)
    :precondition (and (at ?r ?x) (holding ?r ?i))
    :effect (and (item-at ?i ?x) (hand-free ?r) (not (holding ?r ?i)))))
"""

PROBLEM = """\
(define (problem lab-1)
  (:domain lab)
  (:objects r1 - droid
            a b c d - room
            box - item)
  (:init (at r1 a) (hand-free r1) (item-at box a)
         (door a b) (door b a) (door b c) (door c b) (door a d) (door a a)
         (locked d))
  (:goal (and (item-at box c) (not (holding r1 box)))))
"""

VALID_PLAN = ["(pick r1 box a)", "(move r1 a b)", "(move r1 b c)", "(drop r1 box c)"]
OPERATORS = "(move ?r ?from ?to) (pick ?r ?i ?x) (drop ?r ?i ?x)"


@pytest.fixture(scope="module")
def validators() -> dict[str, PlanValidator]:
    domain = parse_domain_text(DOMAIN, "lab.pddl")
    problem = parse_problem_text(PROBLEM, domain, "lab-1.pddl")
    return {style: PlanValidator(domain, problem) for style in ("stein", "silver")}


def check(validators: dict[str, PlanValidator], plan: list[str], kind: str, step: int, stein: str, silver: str):
    results = {style: v.validate(plan) for style, v in validators.items()}
    for style, expected in (("stein", stein), ("silver", silver)):
        result = results[style]
        assert not result.valid
        assert (result.kind, result.step) == (kind, step)
        assert plan_feedback(result, validators[style].domain, style) == expected, style
    return results["stein"]


def test_the_domain_is_as_intended(validators: dict[str, PlanValidator]) -> None:
    domain = validators["stein"].domain
    assert domain.static_predicates == frozenset({"door", "locked"})
    for validator in validators.values():
        result = validator.validate(VALID_PLAN)
        assert result.valid and result.kind is None and plan_feedback(result, domain) == "The plan is valid."
        assert result.steps_executed == 4


def test_unknown_object_4_1(validators: dict[str, PlanValidator]) -> None:
    result = check(
        validators,
        ["(pick r1 box a)", "(move r1 a zz)"],
        UNKNOWN_OBJECT,
        1,
        "The action (move r1 a zz) at step 1 is not executable because zz is not an available object in this task.",
        f"The action (move r1 a zz) is invalid at step 1. NOTE: the valid operators are: {OPERATORS}.",
    )
    assert result.object == "zz" and result.table13_id == "4.1"


def test_unknown_action_4_2(validators: dict[str, PlanValidator]) -> None:
    result = check(
        validators,
        ["(fly r1 a b)"],
        UNKNOWN_ACTION,
        0,
        "The action (fly r1 a b) at step 0 is not executable because fly does not match any possible actions.",
        f"The action (fly r1 a b) is invalid at step 0. NOTE: the valid operators are: {OPERATORS}.",
    )
    assert result.table13_id == "4.2"


def test_wrong_arity_4_3(validators: dict[str, PlanValidator]) -> None:
    result = check(
        validators,
        ["(pick r1 box a)", "(move r1 b)"],
        WRONG_ARITY,
        1,
        "The action (move r1 b) at step 1 is not executable because move requires exactly 3 objects as "
        "arguments but 2 were given.",
        f"The action (move r1 b) is invalid at step 1. NOTE: the valid operators are: {OPERATORS}.",
    )
    assert result.table13_id == "4.3"


def test_fluent_precondition_4_4(validators: dict[str, PlanValidator]) -> None:
    """`(hand-free r1)` is false after the first pick: a fluent, so 'At that specific step'."""
    result = check(
        validators,
        ["(pick r1 box a)", "(drop r1 box a)", "(pick r1 box a)", "(pick r1 box a)"],
        PRECONDITION,
        3,
        "The action (pick r1 box a) at step 3 is not executable because the preconditions of the action are "
        "not satisfied: At that specific step – it is not the case that (item-at box a), and it is not the "
        "case that (hand-free r1)",
        "NOTE: (pick r1 box a) has an unsatisfied precondition at time 4\n"
        "(Set (item-at box a) to true)\n(Set (hand-free r1) to true)",
    )
    assert result.table13_id == "4.4"
    assert result.unsatisfied == ["(item-at box a)", "(hand-free r1)"] and result.unsatisfied_static == []
    assert result.steps_executed == 3


def test_static_precondition_4_5(validators: dict[str, PlanValidator]) -> None:
    """No door from a to c, and no action ever adds one: a fact of the task."""
    result = check(
        validators,
        ["(move r1 a c)"],
        STATIC_PRECONDITION,
        0,
        "The action (move r1 a c) at step 0 is not executable because the preconditions of the action are "
        "not satisfied: In this task instance – it is not the case that (door a c)",
        "NOTE: (move r1 a c) has an unsatisfied precondition at time 1\n(Set (door a c) to true)",
    )
    assert result.table13_id == "4.5"
    assert result.unsatisfied_static == ["(door a c)"] and result.unsatisfied == []


def test_static_and_fluent_failures_together(validators: dict[str, PlanValidator]) -> None:
    """Static failures first ('In this task instance'), then fluent ones; the kind is the static one."""
    check(
        validators,
        ["(move r1 b d)"],
        STATIC_PRECONDITION,
        0,
        "The action (move r1 b d) at step 0 is not executable because the preconditions of the action are "
        "not satisfied: In this task instance – it is not the case that (door b d), and it is not the case "
        "that (not (locked d)) At that specific step – it is not the case that (at r1 b)",
        "NOTE: (move r1 b d) has an unsatisfied precondition at time 1\n"
        "(Set (door b d) to true)\n(Set (at r1 b) to true)\n(Set (locked d) to false)",
    )


def test_negative_static_precondition(validators: dict[str, PlanValidator]) -> None:
    result = check(
        validators,
        ["(move r1 a d)"],
        STATIC_PRECONDITION,
        0,
        "The action (move r1 a d) at step 0 is not executable because the preconditions of the action are "
        "not satisfied: In this task instance – it is not the case that (not (locked d))",
        "NOTE: (move r1 a d) has an unsatisfied precondition at time 1\n(Set (locked d) to false)",
    )
    assert result.unsatisfied_static == ["(not (locked d))"]


def test_equality_precondition_is_static(validators: dict[str, PlanValidator]) -> None:
    """`(door a a)` holds, so only `(not (= a a))` fails; equality never changes."""
    check(
        validators,
        ["(move r1 a a)"],
        STATIC_PRECONDITION,
        0,
        "The action (move r1 a a) at step 0 is not executable because the preconditions of the action are "
        "not satisfied: In this task instance – it is not the case that (not (= a a))",
        "NOTE: (move r1 a a) has an unsatisfied precondition at time 1\n(Set (= a a) to false)",
    )


def test_goal_not_reached_4_6_with_a_negative_goal(validators: dict[str, PlanValidator]) -> None:
    result = check(
        validators,
        ["(pick r1 box a)", "(move r1 a b)", "(move r1 b c)"],
        GOAL_NOT_REACHED,
        3,
        "The generated plan does not reach the goal: The following needs to be false but is true after "
        "executing all actions: (holding r1 box) The following needs to be true but is false after executing "
        "all actions: (item-at box c)",
        "The plan did not achieve the goal.\n(Set (item-at box c) to true)\n(Set (holding r1 box) to false)",
    )
    assert result.table13_id == "4.6"
    assert (result.goal_missing, result.goal_violated) == (["(item-at box c)"], ["(holding r1 box)"])


def test_goal_not_reached_only_positive_part(validators: dict[str, PlanValidator]) -> None:
    check(
        validators,
        [],
        GOAL_NOT_REACHED,
        0,
        "The generated plan does not reach the goal: The following needs to be true but is false after "
        "executing all actions: (item-at box c)",
        "The plan did not achieve the goal.\n(Set (item-at box c) to true)",
    )


def test_type_mismatch(validators: dict[str, PlanValidator]) -> None:
    """Not in Table 13: an object of the wrong type is reported like the other syntax errors."""
    result = check(
        validators,
        ["(pick r1 a box)"],
        TYPE_MISMATCH,
        0,
        "The action (pick r1 a box) at step 0 is not executable because a is of type room but the parameter "
        "?i of pick needs an object of type item.",
        f"The action (pick r1 a box) is invalid at step 0. NOTE: the valid operators are: {OPERATORS}.",
    )
    assert result.object == "a" and result.table13_id is None


def test_subtype_objects_are_accepted(validators: dict[str, PlanValidator]) -> None:
    """r1 is a droid, a subtype of robot: `?r - robot` takes it."""
    assert validators["stein"].task.object_types["r1"] == "droid"
    assert validators["stein"].validate(["(move r1 a b)"]).kind == GOAL_NOT_REACHED


def test_malformed_action(validators: dict[str, PlanValidator]) -> None:
    result = check(
        validators,
        ["(pick r1 box a)", "move r1 a b"],
        MALFORMED,
        1,
        "The action move r1 a b at step 1 is not executable because the action is not enclosed in parentheses.",
        f"The action move r1 a b is invalid at step 1. NOTE: the valid operators are: {OPERATORS}.",
    )
    assert result.table13_id is None


def test_missing_parentheses_allowed_when_asked(validators: dict[str, PlanValidator]) -> None:
    assert validators["stein"].validate(["pick r1 box a", "move r1 a b"], require_parentheses=False).kind == GOAL_NOT_REACHED


def test_actions_are_case_insensitive_but_shown_as_written(validators: dict[str, PlanValidator]) -> None:
    assert validators["stein"].validate([s.upper() for s in VALID_PLAN]).valid
    result = validators["stein"].validate(["(MOVE R1 A C)"])
    assert plan_feedback(result, validators["stein"].domain).startswith("The action (MOVE R1 A C) at step 0 is not executable")
    assert result.unsatisfied_static == ["(door a c)"]


def test_first_failure_only(validators: dict[str, PlanValidator]) -> None:
    """Steps after the first failing one are not looked at, even when they are worse."""
    result = validators["stein"].validate(["(move r1 a c)", "(fly)", "(move r1 q)"])
    assert (result.kind, result.step) == (STATIC_PRECONDITION, 0)


def test_trace_lists_added_and_deleted_facts(validators: dict[str, PlanValidator]) -> None:
    result = validators["stein"].validate(VALID_PLAN, trace=True)
    assert result.valid
    assert result.trace == [
        StepEffect(0, "(pick r1 box a)", ["(holding r1 box)"], ["(hand-free r1)", "(item-at box a)"]),
        StepEffect(1, "(move r1 a b)", ["(at r1 b)"], ["(at r1 a)"]),
        StepEffect(2, "(move r1 b c)", ["(at r1 c)"], ["(at r1 b)"]),
        StepEffect(3, "(drop r1 box c)", ["(hand-free r1)", "(item-at box c)"], ["(holding r1 box)"]),
    ]


def test_trace_stops_at_the_failing_step(validators: dict[str, PlanValidator]) -> None:
    result = validators["stein"].validate(["(move r1 a b)", "(move r1 a b)"], trace=True)
    assert (result.kind, result.step) == (PRECONDITION, 1)
    assert result.trace == [StepEffect(0, "(move r1 a b)", ["(at r1 b)"], ["(at r1 a)"])]
    assert validators["stein"].validate(VALID_PLAN).trace is None


def test_delete_then_add_semantics() -> None:
    """An action that deletes and adds the same fact keeps it (PDDL: deletes first, then adds)."""
    domain = parse_domain_text(
        "(define (domain t) (:predicates (p ?x) (q))"
        " (:action touch :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) (p ?x) (q))))"
    )
    problem = parse_problem_text("(define (problem t1) (:domain t) (:objects o) (:init (p o)) (:goal (and (p o) (q))))", domain)
    result = validate_plan(domain, problem, ["(touch o)", "(touch o)"], trace=True)
    assert result.valid
    assert result.trace is not None and result.trace[0].deleted == [] and result.trace[0].added == ["(q)"]


def test_table13_ids() -> None:
    assert TABLE13_ID == {
        UNKNOWN_OBJECT: "4.1",
        UNKNOWN_ACTION: "4.2",
        WRONG_ARITY: "4.3",
        PRECONDITION: "4.4",
        STATIC_PRECONDITION: "4.5",
        GOAL_NOT_REACHED: "4.6",
    }
