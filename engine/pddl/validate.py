"""Plan validation with the feedback messages of the strategy-refinement paper (Table 13) and of Silver et al.

Deterministic, sequential STRIPS semantics (delete, then add), stops at the first failing step, and
reports exactly one error kind. Steps are numbered from 0 as in the paper's feedback; Silver's semantic
messages use VAL's "time", which counts from 1.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any
from typing import Literal as TypingLiteral

from .fastcheck import FastCheck
from .model import Action, Domain, Fact, Literal, Problem, Task
from .plans import PlanStep, parse_action

Style = TypingLiteral["stein", "silver"]

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
    action: str | None = None
    message: str = ""
    object: str | None = None  # the offending argument (unknown object / type mismatch)
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

    def __init__(self, domain: Domain, problem: Problem, style: Style = "stein") -> None:
        self.task = Task(domain, problem)
        self.domain = domain
        self.style = style
        self.statics = domain.static_predicates | {"="}
        # built with the validator: the task's part of the fast check (its static facts, allowed objects)
        self._fast: FastCheck = domain.compiled_actions.bind(self.task)

    # ------------------------------------------------------------------ messages
    def _not_executable(self, action: str, step: int, because: str) -> str:
        return f"The action {action} at step {step} is not executable because {because}"

    def _syntax_message(self, action: str, step: int, because: str) -> str:
        if self.style == "silver":
            operators = " ".join(a.lifted() for a in self.domain.actions.values())
            return f"The action {action} is invalid at step {step}. NOTE: the valid operators are: {operators}."
        return self._not_executable(action, step, because)

    def _precondition_message(self, step: PlanStep, index: int, static: list[str], fluent: list[str]) -> str:
        if self.style == "silver":
            advice = [f"(Set {lit} to true)" for lit in (*static, *fluent) if not lit.startswith("(not ")]
            advice += [f"(Set {lit[5:-1]} to false)" for lit in (*static, *fluent) if lit.startswith("(not ")]
            return f"NOTE: {step.pddl()} has an unsatisfied precondition at time {index + 1}\n" + "\n".join(advice)
        parts = []
        if static:
            parts.append("In this task instance – " + _not_the_case(static))
        if fluent:
            parts.append("At that specific step – " + _not_the_case(fluent))
        reason = "the preconditions of the action are not satisfied: " + " ".join(parts)
        return self._not_executable(step.raw.strip(), index, reason)

    def _goal_message(self, missing: list[str], violated: list[str]) -> str:
        if self.style == "silver":
            advice = [f"(Set {f} to true)" for f in missing] + [f"(Set {f} to false)" for f in violated]
            return "The plan did not achieve the goal.\n" + "\n".join(advice)
        text = "The generated plan does not reach the goal:"
        if violated:
            text += " The following needs to be false but is true after executing all actions: " + ", ".join(violated)
        if missing:
            text += " The following needs to be true but is false after executing all actions: " + ", ".join(missing)
        return text

    # ------------------------------------------------------------------ checks
    def _resolve(self, step: PlanStep, index: int, require_parentheses: bool) -> tuple[Action, dict[str, str]]:
        shown = step.raw.strip()
        if step.name is None or (step.problem is not None and (require_parentheses or step.parenthesized)):
            because = (step.problem or "it is not an action") + "."
            raise _Failure(self._fail(MALFORMED, index, shown, self._syntax_message(shown, index, because)))
        action = self.domain.actions.get(step.name)
        if action is None:
            msg = self._syntax_message(shown, index, f"{step.name} does not match any possible actions.")
            raise _Failure(self._fail(UNKNOWN_ACTION, index, shown, msg))
        if len(step.args) != action.arity:
            because = (
                f"{step.name} requires exactly {action.arity} objects as arguments "
                f"but {len(step.args)} were given."
            )
            raise _Failure(self._fail(WRONG_ARITY, index, shown, self._syntax_message(shown, index, because)))
        types = self.task.object_types
        for arg in step.args:
            if arg not in types:
                because = f"{arg} is not an available object in this task."
                result = self._fail(UNKNOWN_OBJECT, index, shown, self._syntax_message(shown, index, because))
                result.object = arg
                raise _Failure(result)
        for arg, param in zip(step.args, action.parameters):
            if not self.domain.is_subtype(types[arg], param.types):
                because = (
                    f"{arg} is of type {types[arg]} but the parameter {param.name} of {action.name} "
                    f"needs an object of type {' or '.join(param.types)}."
                )
                result = self._fail(TYPE_MISMATCH, index, shown, self._syntax_message(shown, index, because))
                result.object = arg
                raise _Failure(result)
        return action, {p.name: a for p, a in zip(action.parameters, step.args)}

    def _fail(self, kind: str, step: int, action: str, message: str) -> ValidationResult:
        return ValidationResult(valid=False, kind=kind, step=step, action=action, message=message, steps_executed=step)

    def _holds(self, lit: Literal, binding: dict[str, str], state: set[Fact]) -> bool:
        if lit.predicate == "=":
            left, right = (binding.get(a, a) for a in lit.args)
            return (left == right) == lit.positive
        return (lit.ground(binding) in state) == lit.positive

    def validate(
        self, plan: list[str] | list[PlanStep], require_parentheses: bool = True, trace: bool = False
    ) -> ValidationResult:
        if not trace and self._fast.valid(plan):
            return ValidationResult(valid=True, message="The plan is valid.", steps_executed=len(plan))
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
                    result = self._fail(kind, index, step.raw.strip(), self._precondition_message(step, index, static, fluent))
                    result.unsatisfied, result.unsatisfied_static = fluent, static
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
                message=self._goal_message(missing, violated),
                goal_missing=missing,
                goal_violated=violated,
                steps_executed=len(steps),
            )
            result.trace = effects
            return result
        return ValidationResult(valid=True, message="The plan is valid.", steps_executed=len(steps), trace=effects)


def _ground_text(lit: Literal, binding: dict[str, str]) -> str:
    return Literal(lit.predicate, tuple(binding.get(a, a) for a in lit.args), lit.positive).pddl()


def _not_the_case(literals: list[str]) -> str:
    return ", and ".join(f"it is not the case that {lit}" for lit in literals)


def validate_plan(
    domain: Domain,
    problem: Problem,
    plan: list[str] | list[PlanStep],
    style: Style = "stein",
    require_parentheses: bool = True,
    trace: bool = False,
) -> ValidationResult:
    """Validate one plan; for many plans of one task, build a `PlanValidator` once."""
    return PlanValidator(domain, problem, style).validate(plan, require_parentheses, trace)
