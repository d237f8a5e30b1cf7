"""Plan validation: deterministic, sequential STRIPS semantics (delete, then add); stops at the first failing
step and reports exactly one error kind (the kinds of Table 13 of Stein et al.) with its structured details.
Steps are numbered from 0. The text a model is shown is made from the result in ``engine/feedback/plans.py``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .fastcheck import FastCheck
from .model import Action, Domain, Fact, Literal, Problem, Task
from .plans import PlanStep, parse_action

MALFORMED = "malformed"
UNKNOWN_OBJECT = "unknown-object"  # Table 13, 4.1
UNKNOWN_ACTION = "unknown-action"  # 4.2
WRONG_ARITY = "wrong-arity"  # 4.3
TYPE_MISMATCH = "type-mismatch"
PRECONDITION = "unsatisfied-precondition"  # 4.4
STATIC_PRECONDITION = "unsatisfied-static-precondition"  # 4.5
GOAL_NOT_REACHED = "goal-not-reached"  # 4.6

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
        # built with the validator: the task's part of the fast check (its static facts, allowed objects)
        self._fast: FastCheck = domain.compiled_actions.bind(self.task)

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
        if not trace and self._fast.valid(plan):
            return ValidationResult(valid=True, steps_executed=len(plan))
        # an invalid plan (or a trace): step by step, with the messages and details of the first failure
        return self._validate_in_detail(plan, require_parentheses, trace)

    def _validate_in_detail(
        self, plan: list[str] | list[PlanStep], require_parentheses: bool, trace: bool
    ) -> ValidationResult:
        steps = [s if isinstance(s, PlanStep) else parse_action(s) for s in plan]
        state: set[Fact] = set(self.task.init_state)
        effects: list[StepEffect] | None = [] if trace else None
        try:
            for index, step in enumerate(steps):
                action, binding = self._resolve(step, index, require_parentheses)
                static: list[str] = []
                fluent: list[str] = []
                for lit in action.preconditions:
                    if not self._holds(lit, binding, state):
                        shown = _ground_text(lit, binding)
                        (static if lit.predicate in self.statics else fluent).append(shown)
                if static or fluent:
                    kind = STATIC_PRECONDITION if static else PRECONDITION
                    result = self._fail(kind, index, step.raw.strip(), action_pddl=step.pddl(),
                                        unsatisfied=fluent, unsatisfied_static=static)
                    result.trace = effects
                    return result
                deleted = {lit.ground(binding) for lit in action.del_effects}
                added = {lit.ground(binding) for lit in action.add_effects}
                if effects is not None:
                    effects.append(
                        StepEffect(
                            index,
                            step.pddl(),
                            sorted(fact_text(f) for f in added - state),
                            sorted(fact_text(f) for f in (deleted - added) & state),
                        )
                    )
                state -= deleted
                state |= added
        except _Failure as failure:
            failure.result.trace = effects
            return failure.result
        missing = [fact_text(f) for f in self.task.problem.goal_pos if f not in state]
        violated = [fact_text(f) for f in self.task.problem.goal_neg if f in state]
        if missing or violated:
            result = ValidationResult(
                valid=False,
                kind=GOAL_NOT_REACHED,
                step=len(steps),
                goal_missing=missing,
                goal_violated=violated,
                steps_executed=len(steps),
            )
            result.trace = effects
            return result
        return ValidationResult(valid=True, steps_executed=len(steps), trace=effects)


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
