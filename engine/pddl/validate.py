"""Plan validation: deterministic, sequential semantics (delete, then add; every condition of a step's
conditional effects is evaluated in the state before the step); stops at the first failing step and reports
exactly one error kind (the kinds of Table 13 of Stein et al.) with its structured details. Steps are
numbered from 0. The text a model is shown is made from the result in ``engine/feedback/plans.py``.

ADL: a compound precondition or goal condition that fails is reported with the reason it fails (the
``forall`` binding that breaks it, the ``or`` none of whose cases holds, ...); a fact that a missing
precondition or goal needed and that a conditional effect would have added, had its condition held, is
explained by that effect (which ``when`` of which step, for which binding, and why it did not fire).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from genplan.engine.pddl.fastcheck import FastCheck, compiled_actions
from genplan.engine.pddl.model import (
    Action,
    Condition,
    ConditionalEffect,
    Domain,
    Fact,
    Implication,
    Junction,
    Literal,
    Negation,
    Problem,
    Task,
    ground_condition,
)
from genplan.engine.pddl.plans import PlanStep, parse_action

MALFORMED = "malformed"
UNKNOWN_OBJECT = "unknown-object"  # Table 13, 4.1
UNKNOWN_ACTION = "unknown-action"  # 4.2
WRONG_ARITY = "wrong-arity"  # 4.3
TYPE_MISMATCH = "type-mismatch"
PRECONDITION = "unsatisfied-precondition"  # 4.4
STATIC_PRECONDITION = "unsatisfied-static-precondition"  # 4.5
GOAL_NOT_REACHED = "goal-not-reached"  # 4.6
UNDEFINED_COST = "undefined-cost"  # :action-costs: a step whose cost function has no value in the problem

TABLE13_ID = {
    UNKNOWN_OBJECT: "4.1",
    UNKNOWN_ACTION: "4.2",
    WRONG_ARITY: "4.3",
    PRECONDITION: "4.4",
    STATIC_PRECONDITION: "4.5",
    GOAL_NOT_REACHED: "4.6",
}
SYNTAX_KINDS = frozenset({MALFORMED, UNKNOWN_OBJECT, UNKNOWN_ACTION, WRONG_ARITY, TYPE_MISMATCH})


def fact_text(fact: Fact) -> str:
    return "(" + " ".join(fact) + ")"


@dataclass
class StepEffect:
    """What one executed step changed: for the plan stepper."""

    step: int
    action: str
    added: list[str]
    deleted: list[str]
    fired: list[str] = field(default_factory=list)  # the conditional effects that fired, ground


@dataclass
class ValidationResult:
    valid: bool
    kind: str | None = None
    step: int | None = None
    action: str | None = None  # the failing step as the plan wrote it
    action_pddl: str | None = None  # ... and in normal PDDL form (an action that could be parsed)
    reason: str | None = None  # why a step is no action at all (malformed)
    operator: str | None = None  # the step's action name (unknown action, wrong arity, type mismatch)
    arity: int | None = None  # wrong arity: what the action takes ...
    given: int | None = None  # ... and how many arguments the step gave
    object: str | None = None  # the offending argument (unknown object / type mismatch)
    object_type: str | None = None  # type mismatch: the object's type, the parameter and the types it takes
    parameter: str | None = None
    parameter_types: list[str] = field(default_factory=list)
    unsatisfied: list[str] = field(default_factory=list)  # fluent preconditions, as PDDL literals
    unsatisfied_static: list[str] = field(default_factory=list)
    goal_missing: list[str] = field(default_factory=list)  # must be true, is false
    goal_violated: list[str] = field(default_factory=list)  # must be false, is true
    # ADL: compound preconditions / goal conditions that fail, each (condition, why it fails), ground
    unsatisfied_conditions: list[tuple[str, str]] = field(default_factory=list)
    goal_unsatisfied: list[tuple[str, str]] = field(default_factory=list)
    # conditional effects that would have added a missing fact but did not fire: one sentence each
    missed_effects: list[str] = field(default_factory=list)
    cost: float | None = None  # a valid plan's cost, where the domain has action costs
    steps_executed: int = 0
    trace: list[StepEffect] | None = None

    @property
    def table13_id(self) -> str | None:
        return TABLE13_ID.get(self.kind or "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Failure(Exception):
    def __init__(self, result: ValidationResult) -> None:
        self.result = result


class PlanValidator:
    """Validates plans for one task; build once and reuse for many plans of the same task."""

    def __init__(self, domain: Domain, problem: Problem) -> None:
        self.task = Task(domain, problem)
        self.domain = domain
        self.statics = domain.static_predicates | {"="}
        # built with the validator: the task's part of the fast check (its static facts, allowed objects); the
        # fast check knows STRIPS only, ADL plans go step by step
        self._fast: FastCheck | None = compiled_actions(domain).bind(self.task) if domain.is_strips and not (
            problem.goal_conditions) else None

    # ------------------------------------------------------------------ checks
    def _resolve(self, step: PlanStep, index: int, require_parentheses: bool) -> tuple[Action, dict[str, str]]:
        shown = step.raw.strip()
        if step.name is None or (step.problem is not None and (require_parentheses or step.parenthesized)):
            raise _Failure(self._fail(MALFORMED, index, shown, reason=step.problem or "it is not an action"))
        action = self.domain.actions.get(step.name)
        if action is None:
            raise _Failure(self._fail(UNKNOWN_ACTION, index, shown, operator=step.name))
        if len(step.args) != action.arity:
            raise _Failure(self._fail(WRONG_ARITY, index, shown, operator=step.name, arity=action.arity,
                                      given=len(step.args)))
        types = self.task.object_types
        for arg in step.args:
            if arg not in types:
                raise _Failure(self._fail(UNKNOWN_OBJECT, index, shown, operator=step.name, object=arg))
        for arg, param in zip(step.args, action.parameters):
            if not self.domain.is_subtype(types[arg], param.types):
                raise _Failure(self._fail(TYPE_MISMATCH, index, shown, operator=action.name, object=arg,
                                          object_type=types[arg], parameter=param.name,
                                          parameter_types=list(param.types)))
        return action, {p.name: a for p, a in zip(action.parameters, step.args)}

    @staticmethod
    def _fail(kind: str, step: int, action: str, **details: Any) -> ValidationResult:
        return ValidationResult(valid=False, kind=kind, step=step, action=action, steps_executed=step, **details)

    def _holds(self, lit: Literal, binding: dict[str, str], state: set[Fact]) -> bool:
        if lit.predicate == "=":
            left, right = (binding.get(a, a) for a in lit.args)
            return (left == right) == lit.positive
        return (lit.ground(binding) in state) == lit.positive

    def validate(
        self, plan: list[str] | list[PlanStep], require_parentheses: bool = True, trace: bool = False
    ) -> ValidationResult:
        if not trace and self._fast is not None and self._fast.valid(plan) and self._costs_defined(plan):
            result = ValidationResult(valid=True, steps_executed=len(plan))
            if self.task.uses_costs:
                result.cost = self.plan_cost(plan)
            return result
        # an invalid plan (or a trace, or ADL): step by step, with the messages and details of the first failure
        return self._validate_in_detail(plan, require_parentheses, trace)

    def _costs_defined(self, plan: list[str] | list[PlanStep]) -> bool:
        """Every step of an executable plan has a defined cost (always, where plans count steps)."""
        if not self.task.uses_costs:
            return True
        for step in plan:
            parsed = step if isinstance(step, PlanStep) else parse_action(step)
            action = self.domain.actions[parsed.name or ""]
            if self.task.undefined_cost(action, {p.name: a for p, a in zip(action.parameters, parsed.args)}):
                return False
        return True

    def plan_cost(self, plan: list[str] | list[PlanStep]) -> float:
        """The cost of an executable plan (its length where the domain has no action costs)."""
        total = 0.0
        for step in plan:
            parsed = step if isinstance(step, PlanStep) else parse_action(step)
            action = self.domain.actions[parsed.name or ""]
            total += self.task.action_cost(action, {p.name: a for p, a in zip(action.parameters, parsed.args)})
        return total

    # ------------------------------------------------------------------ ADL
    def _explain(self, cond: Condition, binding: dict[str, str], state: set[Fact]) -> str:
        """Why a condition that does not hold fails, in a few words (ground)."""
        task = self.task
        if isinstance(cond, Literal):
            if not cond.positive and cond.predicate != "=":
                return f"{_ground_text(Literal(cond.predicate, cond.args), binding)} is true"
            return f"it is not the case that {_ground_text(cond, binding)}"
        if isinstance(cond, Junction):
            if cond.kind == "and":
                part = next(p for p in cond.parts if not task.holds(p, binding, state))
                return self._explain(part, binding, state)
            shown = ", ".join(_condition_shown(p, binding) for p in cond.parts)
            return f"none of {shown} holds"
        if isinstance(cond, Negation):
            return f"{_condition_shown(cond.part, binding)} holds"
        if isinstance(cond, Implication):
            because = self._explain(cond.consequent, binding, state)
            return f"{_condition_shown(cond.antecedent, binding)} holds but {because}"
        if cond.kind == "forall":
            for extra in task.bindings(cond.variables):
                inner = {**binding, **extra}
                if not task.holds(cond.body, inner, state):
                    values = ", ".join(f"{v.name} = {extra[v.name]}" for v in cond.variables)
                    return f"for {values}, {self._explain(cond.body, inner, state)}"
            return "it does not hold"  # pragma: no cover - only called on a failing condition
        names = " ".join(v.name for v in cond.variables)
        return f"no object for {names} makes {_condition_shown(cond.body, binding)} true"

    def _fire(self, effect: ConditionalEffect, binding: dict[str, str], state: set[Fact],
              added: set[Fact], deleted: set[Fact], fired: list[str], missed: dict[Fact, str],
              step: int, shown: str) -> None:
        """Apply one conditional effect's bindings whose condition holds; remember those that did not fire."""
        for extra, inner, fires in self.task.effect_bindings(effect, binding, state):
            if fires:
                for lit in effect.add:
                    added.add(lit.ground(inner))
                for lit in effect.delete:
                    deleted.add(lit.ground(inner))
                fired.append(_effect_shown(effect, inner, extra))
            else:
                assert effect.condition is not None
                why = self._explain(effect.condition, inner, state)
                values = ", ".join(f"{v.name} = {extra[v.name]}" for v in effect.variables)
                for lit in effect.add:
                    missed[lit.ground(inner)] = (
                        f"the conditional effect {_ground_text_effect(effect, binding)} of {shown} at step {step} did "
                        f"not fire{' for ' + values if values else ''} because {why}"
                    )

    def _validate_in_detail(
        self, plan: list[str] | list[PlanStep], require_parentheses: bool, trace: bool
    ) -> ValidationResult:
        steps = [s if isinstance(s, PlanStep) else parse_action(s) for s in plan]
        state: set[Fact] = set(self.task.init_state)
        effects: list[StepEffect] | None = [] if trace else None
        missed: dict[Fact, str] = {}  # a fact a conditional effect would have added had it fired -> why not
        cost = 0.0
        try:
            for index, step in enumerate(steps):
                action, binding = self._resolve(step, index, require_parentheses)
                static: list[str] = []
                fluent: list[str] = []
                for lit in action.preconditions:
                    if not self._holds(lit, binding, state):
                        shown = _ground_text(lit, binding)
                        (static if lit.predicate in self.statics else fluent).append(shown)
                compound = [
                    (_condition_shown(c, binding), self._explain(c, binding, state))
                    for c in action.conditions
                    if not self.task.holds(c, binding, state)
                ]
                if static or fluent or compound:
                    kind = STATIC_PRECONDITION if static and not compound else PRECONDITION
                    needed = [lit.ground(binding) for lit in action.preconditions if lit.positive]
                    result = self._fail(kind, index, step.raw.strip(), action_pddl=step.pddl(),
                                        unsatisfied=fluent, unsatisfied_static=static,
                                        unsatisfied_conditions=compound,
                                        missed_effects=_missed_for(needed, state, missed, compound))
                    result.trace = effects
                    return result
                undefined = self.task.undefined_cost(action, binding)
                if undefined is not None:
                    result = self._fail(UNDEFINED_COST, index, step.raw.strip(), action_pddl=step.pddl(),
                                        reason=f"its cost {undefined} has no value in this task")
                    result.trace = effects
                    return result
                deleted = {lit.ground(binding) for lit in action.del_effects}
                added = {lit.ground(binding) for lit in action.add_effects}
                fired: list[str] = []
                for effect in action.conditional_effects:
                    self._fire(effect, binding, state, added, deleted, fired, missed, index, step.pddl())
                if effects is not None:
                    effects.append(
                        StepEffect(
                            index,
                            step.pddl(),
                            sorted(fact_text(f) for f in added - state),
                            sorted(fact_text(f) for f in (deleted - added) & state),
                            fired,
                        )
                    )
                state -= deleted
                state |= added
                for fact in added:
                    missed.pop(fact, None)
                cost += self.task.action_cost(action, binding)
        except _Failure as failure:
            failure.result.trace = effects
            return failure.result
        missing = [fact_text(f) for f in self.task.problem.goal_pos if f not in state]
        violated = [fact_text(f) for f in self.task.problem.goal_neg if f in state]
        unsatisfied = [
            (_condition_shown(c, {}), self._explain(c, {}, state))
            for c in self.task.problem.goal_conditions
            if not self.task.holds(c, {}, state)
        ]
        if missing or violated or unsatisfied:
            result = ValidationResult(
                valid=False,
                kind=GOAL_NOT_REACHED,
                step=len(steps),
                goal_missing=missing,
                goal_violated=violated,
                goal_unsatisfied=unsatisfied,
                missed_effects=_missed_for(
                    [f for f in self.task.problem.goal_pos if f not in state], state, missed, unsatisfied
                ),
                steps_executed=len(steps),
            )
            result.trace = effects
            return result
        return ValidationResult(valid=True, steps_executed=len(steps), trace=effects,
                                cost=cost if self.task.uses_costs else None)


def _missed_for(needed: list[Fact], state: set[Fact], missed: dict[Fact, str],
                compound: list[tuple[str, str]]) -> list[str]:
    """The conditional effects that would have added a missing fact: for the facts ``needed`` that are false,
    and for every fact a failing compound condition's reason names."""
    out: list[str] = []
    for fact in needed:
        if fact not in state and fact in missed and missed[fact] not in out:
            out.append(missed[fact])
    for _, why in compound:
        for fact, sentence in missed.items():
            if f"it is not the case that {fact_text(fact)}" in why and sentence not in out:
                out.append(sentence)
    return out


def _condition_shown(cond: Condition, binding: dict[str, str]) -> str:
    return ground_condition(cond, binding).pddl()


def _ground_text_effect(effect: ConditionalEffect, binding: dict[str, str]) -> str:
    """The effect with the action's parameters replaced by the step's objects (its own variables stay)."""
    inner = {k: v for k, v in binding.items() if k not in {p.name for p in effect.variables}}

    def ground(lit: Literal) -> Literal:
        return Literal(lit.predicate, tuple(inner.get(a, a) for a in lit.args), lit.positive)

    condition = ground_condition(effect.condition, inner) if effect.condition is not None else None
    grounded = replace(effect, condition=condition, add=tuple(map(ground, effect.add)),
                       delete=tuple(map(ground, effect.delete)))
    return grounded.pddl()


def _effect_shown(effect: ConditionalEffect, binding: dict[str, str], extra: dict[str, str]) -> str:
    values = ", ".join(f"{v.name} = {extra[v.name]}" for v in effect.variables)
    shown = f"when {_condition_shown(effect.condition, binding)}" if effect.condition is not None else "forall"
    changes = [_ground_text(lit, binding) for lit in effect.add]
    changes += [_ground_text(Literal(lit.predicate, lit.args, False), binding) for lit in effect.delete]
    return f"{shown}{' (' + values + ')' if values else ''}: {' '.join(changes)}"


def _ground_text(lit: Literal, binding: dict[str, str]) -> str:
    return Literal(lit.predicate, tuple(binding.get(a, a) for a in lit.args), lit.positive).pddl()


def validate_plan(
    domain: Domain,
    problem: Problem,
    plan: list[str] | list[PlanStep],
    require_parentheses: bool = True,
    trace: bool = False,
) -> ValidationResult:
    """Validate one plan; for many plans of one task, build a `PlanValidator` once."""
    return PlanValidator(domain, problem).validate(plan, require_parentheses, trace)
