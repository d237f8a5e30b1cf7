"""What a model is told about a plan that failed validation, in two styles.

``stein``: Table 13 of Stein et al. (4.1-4.6: unknown object, unknown action, wrong number of arguments,
unsatisfied precondition, unsatisfied static precondition, goal not reached), steps counted from 0.
``silver``: Silver et al.'s semantic messages (VAL's "time", counted from 1, with the facts to set).
The validator (``engine/pddl/validate.py``) returns only the structured result these are made from.

ADL constructs extend the stein style in the same voice: a failing compound precondition or goal condition is
named with the reason it fails ("the condition (forall (?p - portable) (not (in ?p))) is false: for ?p =
dict, it is not the case that (not (in dict))"), and a conditional effect that would have provided a missing
fact is named with its step and why it did not fire.
"""

from __future__ import annotations

from genplan.engine.feedback import FeedbackStyle
from genplan.engine.pddl.model import Domain
from genplan.engine.pddl.validate import (
    GOAL_NOT_REACHED,
    MALFORMED,
    PRECONDITION,
    STATIC_PRECONDITION,
    TYPE_MISMATCH,
    UNKNOWN_ACTION,
    UNKNOWN_OBJECT,
    WRONG_ARITY,
    ValidationResult,
)

VALID = "The plan is valid."


def plan_feedback(result: ValidationResult, domain: Domain, style: FeedbackStyle = FeedbackStyle.STEIN) -> str:
    """The message for ``result`` ("The plan is valid." for a valid plan)."""
    if result.valid:
        return VALID
    if result.kind == GOAL_NOT_REACHED:
        return _goal(result, style)
    if result.kind in (PRECONDITION, STATIC_PRECONDITION):
        return _precondition(result, style)
    return _syntax(result, domain, style)


def no_plan(reason: str) -> str:
    """A model asked to plan by following a strategy gave an answer with no plan in it."""
    return f"No plan could be found in the answer: {reason}"


def _not_executable(action: str, step: int, because: str) -> str:
    return f"The action {action} at step {step} is not executable because {because}"


def _because(result: ValidationResult) -> str:
    """Why the action could not even be looked up (the stein style's reason)."""
    if result.kind == MALFORMED:
        return f"{result.reason or 'it is not an action'}."
    if result.kind == UNKNOWN_ACTION:
        return f"{result.operator} does not match any possible actions."
    if result.kind == WRONG_ARITY:
        return f"{result.operator} requires exactly {result.arity} objects as arguments but {result.given} were given."
    if result.kind == UNKNOWN_OBJECT:
        return f"{result.object} is not an available object in this task."
    if result.kind == TYPE_MISMATCH:
        return (f"{result.object} is of type {result.object_type} but the parameter {result.parameter} of "
                f"{result.operator} needs an object of type {' or '.join(result.parameter_types)}.")
    return f"{result.reason or result.kind}."


def _syntax(result: ValidationResult, domain: Domain, style: FeedbackStyle) -> str:
    action, step = result.action or "", result.step or 0
    if style == FeedbackStyle.SILVER:
        operators = " ".join(a.lifted() for a in domain.actions.values())
        return f"The action {action} is invalid at step {step}. NOTE: the valid operators are: {operators}."
    return _not_executable(action, step, _because(result))


def _precondition(result: ValidationResult, style: FeedbackStyle) -> str:
    static, fluent, step = result.unsatisfied_static, result.unsatisfied, result.step or 0
    if style == FeedbackStyle.SILVER:
        advice = [f"(Set {lit} to true)" for lit in (*static, *fluent) if not lit.startswith("(not ")]
        advice += [f"(Set {lit[5:-1]} to false)" for lit in (*static, *fluent) if lit.startswith("(not ")]
        advice += [f"(Make {condition} true)" for condition, _ in result.unsatisfied_conditions]
        shown = result.action_pddl or result.action
        return f"NOTE: {shown} has an unsatisfied precondition at time {step + 1}\n" + "\n".join(advice)
    parts = []
    if static:
        parts.append("In this task instance – " + _not_the_case(static))
    if fluent:
        parts.append("At that specific step – " + _not_the_case(fluent))
    if result.unsatisfied_conditions:
        parts.append(("At that specific step – " if not fluent else "and ") + _false_conditions(result.unsatisfied_conditions))
    reason = "the preconditions of the action are not satisfied: " + " ".join(parts)
    return _not_executable(result.action or "", step, reason) + _missed(result)


def _goal(result: ValidationResult, style: FeedbackStyle) -> str:
    missing, violated = result.goal_missing, result.goal_violated
    if style == FeedbackStyle.SILVER:
        advice = [f"(Set {f} to true)" for f in missing] + [f"(Set {f} to false)" for f in violated]
        advice += [f"(Make {condition} true)" for condition, _ in result.goal_unsatisfied]
        return "The plan did not achieve the goal.\n" + "\n".join(advice)
    text = "The generated plan does not reach the goal:"
    if violated:
        text += " The following needs to be false but is true after executing all actions: " + ", ".join(violated)
    if missing:
        text += " The following needs to be true but is false after executing all actions: " + ", ".join(missing)
    if result.goal_unsatisfied:
        text += " After executing all actions " + _false_conditions(result.goal_unsatisfied)
    return text + _missed(result)


def _false_conditions(conditions: list[tuple[str, str]]) -> str:
    """ADL: ``the condition C is false: WHY`` for each failing compound condition."""
    return ", and ".join(f"the condition {condition} is false: {why}" for condition, why in conditions)


def _missed(result: ValidationResult) -> str:
    """ADL: the conditional effects that would have provided a missing fact, and why they did not fire."""
    if not result.missed_effects:
        return ""
    return ". Note: " + "; ".join(result.missed_effects) + "."


def _not_the_case(literals: list[str]) -> str:
    return ", and ".join(f"it is not the case that {lit}" for lit in literals)
