"""The model genplan works with: domains, actions, problems and facts (typed STRIPS plus the ADL subset).

Names are lower-case. Lists keep the order of the source file, because prompts show tasks in that order.
A fact is a tuple ``(predicate, arg1, ...)`` of strings — the same shape the generated programs receive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Any

from genplan.engine.pddl.budget import CHUNK, Budget

Fact = tuple[str, ...]
OBJECT = "object"


@dataclass(frozen=True)
class Literal:
    """An atom over parameters/constants, possibly negated. ``predicate == '='`` is equality."""

    predicate: str
    args: tuple[str, ...]
    positive: bool = True

    def ground(self, binding: dict[str, str]) -> Fact:
        return (self.predicate, *(binding.get(a, a) for a in self.args))

    def pddl(self) -> str:
        atom = "(" + " ".join((self.predicate, *self.args)) + ")"
        return atom if self.positive else f"(not {atom})"


@dataclass(frozen=True)
class Parameter:
    name: str  # with the leading '?'
    types: tuple[str, ...]  # more than one for (either ...)


# ---------------------------------------------------------------- ADL conditions and effects
# A condition is a Literal or one of these. STRIPS actions keep conjunctions of literals in their literal
# fields only; the compound parts of an ADL precondition or goal are kept here, in the file's form.


@dataclass(frozen=True)
class Junction:
    """``(and ...)`` / ``(or ...)`` of conditions."""

    kind: str  # "and" | "or"
    parts: tuple[Condition, ...]

    def pddl(self) -> str:
        return "(" + " ".join([self.kind, *(condition_text(p) for p in self.parts)]) + ")"


@dataclass(frozen=True)
class Negation:
    """``(not C)`` of a compound condition (a negated atom is a negative Literal)."""

    part: Condition

    def pddl(self) -> str:
        return f"(not {condition_text(self.part)})"


@dataclass(frozen=True)
class Implication:
    antecedent: Condition
    consequent: Condition

    def pddl(self) -> str:
        return f"(imply {condition_text(self.antecedent)} {condition_text(self.consequent)})"


@dataclass(frozen=True)
class Quantified:
    """``(forall (?x - t) C)`` / ``(exists (?x - t) C)``."""

    kind: str  # "forall" | "exists"
    variables: tuple[Parameter, ...]
    body: Condition

    def pddl(self) -> str:
        return f"({self.kind} ({parameters_text(self.variables)}) {condition_text(self.body)})"


Condition = Literal | Junction | Negation | Implication | Quantified


def condition_text(condition: Condition) -> str:
    return condition.pddl()


def ground_condition(condition: Condition, binding: dict[str, str]) -> Condition:
    """The condition with the bound variables replaced by objects (quantified variables stay)."""
    if isinstance(condition, Literal):
        return Literal(condition.predicate, tuple(binding.get(a, a) for a in condition.args), condition.positive)
    if isinstance(condition, Junction):
        return Junction(condition.kind, tuple(ground_condition(p, binding) for p in condition.parts))
    if isinstance(condition, Negation):
        return Negation(ground_condition(condition.part, binding))
    if isinstance(condition, Implication):
        return Implication(ground_condition(condition.antecedent, binding), ground_condition(condition.consequent, binding))
    inner = {k: v for k, v in binding.items() if k not in {p.name for p in condition.variables}}
    return Quantified(condition.kind, condition.variables, ground_condition(condition.body, inner))


def map_condition(
    condition: Condition, literal: Callable[[Literal], Literal], parameter: Callable[[Parameter], Parameter]
) -> Condition:
    """The condition with every atom and every quantified variable replaced (renaming, retyping)."""
    if isinstance(condition, Literal):
        return literal(condition)
    if isinstance(condition, Junction):
        return Junction(condition.kind, tuple(map_condition(p, literal, parameter) for p in condition.parts))
    if isinstance(condition, Negation):
        return Negation(map_condition(condition.part, literal, parameter))
    if isinstance(condition, Implication):
        return Implication(map_condition(condition.antecedent, literal, parameter),
                           map_condition(condition.consequent, literal, parameter))
    return Quantified(condition.kind, tuple(parameter(v) for v in condition.variables),
                      map_condition(condition.body, literal, parameter))


def condition_literals(condition: Condition) -> list[Literal]:
    """Every atom of a condition (for checks of predicates and arguments)."""
    if isinstance(condition, Literal):
        return [condition]
    if isinstance(condition, Junction):
        return [lit for p in condition.parts for lit in condition_literals(p)]
    if isinstance(condition, Negation):
        return condition_literals(condition.part)
    if isinstance(condition, Implication):
        return condition_literals(condition.antecedent) + condition_literals(condition.consequent)
    return condition_literals(condition.body)


@dataclass(frozen=True)
class ConditionalEffect:
    """One ``forall``/``when`` effect of an action, flattened: for every binding of ``variables`` (none for a
    plain ``when``) where ``condition`` holds (always, when None) the literals are added and deleted."""

    variables: tuple[Parameter, ...]
    condition: Condition | None
    add: tuple[Literal, ...]
    delete: tuple[Literal, ...]
    text: str = field(compare=False)  # as PDDL (as the file wrote it), for messages
    number: int = 0  # 1, 2, ...: its position among the action's conditional effects

    def literals(self) -> list[Literal]:
        return [*self.add, *self.delete, *(condition_literals(self.condition) if self.condition else [])]

    def pddl(self) -> str:
        """``(when C (and E ...))`` (its ``forall`` left out: messages name the variables' values)."""
        changes = [lit.pddl() for lit in self.add] + [Literal(lit.predicate, lit.args, False).pddl() for lit in self.delete]
        body = changes[0] if len(changes) == 1 else "(and " + " ".join(changes) + ")"
        return f"(when {condition_text(self.condition)} {body})" if self.condition is not None else body


@dataclass(frozen=True)
class Cost:
    """``(increase (total-cost) N)`` or ``(increase (total-cost) (f ?x ...))``: a number or a function term."""

    value: float | None = None
    function: str | None = None
    args: tuple[str, ...] = ()

    def pddl(self) -> str:
        if self.function is None:
            return f"(increase (total-cost) {_number(self.value or 0)})"
        return "(increase (total-cost) (" + " ".join([self.function, *self.args]) + "))"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


@dataclass(frozen=True)
class Predicate:
    name: str
    parameters: tuple[Parameter, ...]

    @property
    def arity(self) -> int:
        return len(self.parameters)

    def pddl(self) -> str:
        return "(" + " ".join([self.name, *(parameter_text(p) for p in self.parameters)]) + ")"


@dataclass(frozen=True)
class Action:
    name: str
    parameters: tuple[Parameter, ...]
    preconditions: tuple[Literal, ...]
    add_effects: tuple[Literal, ...]
    del_effects: tuple[Literal, ...]
    # the ADL subset: compound conjuncts of the precondition (beyond the literals above), conditional and
    # quantified effects, and the action's cost (None: no cost effect, which counts 1 without :action-costs)
    conditions: tuple[Condition, ...] = ()
    conditional_effects: tuple[ConditionalEffect, ...] = ()
    cost: Cost | None = None

    @property
    def is_strips(self) -> bool:
        return not self.conditions and not self.conditional_effects

    @property
    def arity(self) -> int:
        return len(self.parameters)

    def lifted(self) -> str:
        """``(sail ?from ?to)``: the lifted form shown to models as a valid action."""
        return "(" + " ".join([self.name, *(p.name for p in self.parameters)]) + ")"

    def lifted_typed(self) -> str:
        return "(" + " ".join([self.name, *(parameter_text(p) for p in self.parameters)]) + ")"


def parameters_text(parameters: tuple[Parameter, ...]) -> str:
    """A typed list that reads back as written: an ``object`` parameter is written bare only where no typed one
    follows it (``?o ?q - place`` would make ``?o`` a place too)."""
    words: list[str] = []
    for i, parameter in enumerate(parameters):
        typed_later = any(p.types != (OBJECT,) for p in parameters[i + 1:])
        words.append(f"{parameter.name} - {OBJECT}" if parameter.types == (OBJECT,) and typed_later
                     else parameter_text(parameter))
    return " ".join(words)


def parameter_text(parameter: Parameter) -> str:
    if parameter.types == (OBJECT,):
        return parameter.name
    if len(parameter.types) == 1:
        return f"{parameter.name} - {parameter.types[0]}"
    return f"{parameter.name} - (either {' '.join(parameter.types)})"


@dataclass(frozen=True)
class Repair:
    """One change lenient mode made. ``str()`` is a one-line message naming file and line."""

    kind: str  # one of engine.pddl.lenient's constants, e.g. SPLIT_DISJUNCTION
    message: str  # what was wrong and what was done, in words a model can act on
    path: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = self.path or "<text>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "path": self.path, "line": self.line}


@dataclass
class Domain:
    name: str
    path: str | None
    requirements: tuple[str, ...]
    type_parents: dict[str, str | None]  # every declared type -> its parent (None for object)
    constants: list[tuple[str, str]]
    predicates: dict[str, Predicate]  # file order
    actions: dict[str, Action]  # file order
    source: str = ""  # the original file text, shown in prompts
    warnings: list[str] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)  # lenient mode only: what was changed, and why
    action_origins: dict[str, str] = field(default_factory=dict)  # lenient: split action -> name written
    functions: dict[str, Predicate] = field(default_factory=dict)  # :action-costs: the cost functions
    action_costs: bool = False  # the domain declares :action-costs (or uses total-cost): plans have a cost
    # a type the file lists under more than one parent (IPC storage: ``area - object`` and ``area - surface``):
    # its parents besides the one in ``type_parents``; VAL and Fast Downward make it a subtype of each
    more_parents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the actions compiled for fast plan checking, made once per domain by engine.pddl.fastcheck.compiled_actions
    compiled: object = field(default=None, init=False, repr=False, compare=False)

    @property
    def is_strips(self) -> bool:
        """Only literal preconditions and effects: the fast paths of validation and search apply."""
        return all(a.is_strips for a in self.actions.values())

    def original_action(self, name: str) -> str:
        """The action name the file used: lenient mode splits an action with an 'or' into several."""
        return self.action_origins.get(name, name)

    @property
    def typed(self) -> bool:
        return any(t != OBJECT for t in self.type_parents)

    @cached_property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action ever changes: failures on them are facts of the task, not of the plan."""
        changed = {lit.predicate for a in self.actions.values() for lit in (*a.add_effects, *a.del_effects)}
        changed |= {lit.predicate for a in self.actions.values() for e in a.conditional_effects for lit in (*e.add, *e.delete)}
        return frozenset(set(self.predicates) - changed)

    def parents(self, type_name: str) -> tuple[str, ...]:
        """The type's direct supertypes (more than one where the file lists it under several)."""
        first = self.type_parents.get(type_name)
        return (*(() if first is None else (first,)), *self.more_parents.get(type_name, ()))

    def ancestors(self, type_name: str) -> tuple[str, ...]:
        """The type itself and all its supertypes, nearest first, ending in ``object``."""
        chain = [type_name]
        seen = {type_name}
        i = 0
        while i < len(chain):
            for parent in self.parents(chain[i]):
                if parent not in seen:
                    chain.append(parent)
                    seen.add(parent)
            i += 1
        if OBJECT in seen:
            chain.remove(OBJECT)
        chain.append(OBJECT)
        return tuple(chain)

    def is_subtype(self, type_name: str, allowed: tuple[str, ...]) -> bool:
        return any(t in allowed for t in self.ancestors(type_name))


@dataclass
class Problem:
    name: str
    domain_name: str
    path: str | None
    objects: list[tuple[str, str]]  # (name, type), file order, without the domain's constants
    init: list[Fact]  # file order, no duplicates
    goal_pos: list[Fact]
    goal_neg: list[Fact]
    source: str = ""
    warnings: list[str] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)  # lenient mode only
    goal_conditions: list[Condition] = field(default_factory=list)  # ADL: compound goal conjuncts
    function_values: dict[Fact, float] = field(default_factory=dict)  # :action-costs: (= (f a b) 3) in :init
    metric: bool = False  # (:metric minimize (total-cost))
    # objects the file declares that repeat a domain constant of the same type: read once, as that constant,
    # so not in ``objects``; a reader that asks what the problem file declares needs them too (PDDLego+ solver)
    repeated_constants: list[str] = field(default_factory=list)

    def goal_text(self) -> list[str]:
        """Every goal conjunct as PDDL, in order: literals, then compound conditions."""
        out = ["(" + " ".join(f) + ")" for f in self.goal_pos]
        out += ["(not (" + " ".join(f) + "))" for f in self.goal_neg]
        return out + [condition_text(c) for c in self.goal_conditions]


@dataclass
class Task:
    """A problem bound to its domain, with the lookups validation and search need."""

    domain: Domain
    problem: Problem
    # a search's limits: every binding a quantifier enumerates counts against them (budget.py)
    budget: Budget | None = field(default=None, compare=False, repr=False)

    @cached_property
    def object_types(self) -> dict[str, str]:
        table = {name: typ for name, typ in self.domain.constants}
        table.update({name: typ for name, typ in self.problem.objects})
        return table

    @cached_property
    def init_state(self) -> frozenset[Fact]:
        return frozenset(self.problem.init)

    @cached_property
    def static_facts(self) -> frozenset[Fact]:
        statics = self.domain.static_predicates
        return frozenset(f for f in self.problem.init if f[0] in statics)

    @cached_property
    def _objects_by_types(self) -> dict[tuple[str, ...], list[str]]:
        """Quantifiers' objects, per tuple of types (filled as they are asked for)."""
        return {}

    def objects_of(self, allowed: tuple[str, ...]) -> list[str]:
        return [o for o, t in self.object_types.items() if self.domain.is_subtype(t, allowed)]

    def goal_reached(self, state: frozenset[Fact] | set[Fact]) -> bool:
        return (
            all(f in state for f in self.problem.goal_pos)
            and not any(f in state for f in self.problem.goal_neg)
            and all(self.holds(c, {}, state) for c in self.problem.goal_conditions)
        )

    def holds(self, condition: Condition, binding: dict[str, str], state: frozenset[Fact] | set[Fact]) -> bool:
        """Does the condition hold in the state under the binding (quantifiers range over typed objects)?"""
        if isinstance(condition, Literal):
            if condition.predicate == "=":
                left, right = (binding.get(a, a) for a in condition.args)
                return (left == right) == condition.positive
            return (condition.ground(binding) in state) == condition.positive
        if isinstance(condition, Junction):
            if condition.kind == "and":
                return all(self.holds(p, binding, state) for p in condition.parts)
            return any(self.holds(p, binding, state) for p in condition.parts)
        if isinstance(condition, Negation):
            return not self.holds(condition.part, binding, state)
        if isinstance(condition, Implication):
            return not self.holds(condition.antecedent, binding, state) or self.holds(condition.consequent, binding, state)
        test = all if condition.kind == "forall" else any
        return test(self.holds(condition.body, {**binding, **extra}, state) for extra in self.bindings(condition.variables))

    def effect_bindings(
        self, effect: ConditionalEffect, binding: dict[str, str], state: frozenset[Fact] | set[Fact]
    ) -> Iterator[tuple[dict[str, str], dict[str, str], bool]]:
        """For a step with ``binding``: each binding of the effect's own variables (``extra``), the step's binding
        with it (``inner``), and whether the effect fires there (its condition read in ``state``, before the step)."""
        for extra in self.bindings(effect.variables):
            inner = {**binding, **extra}
            yield extra, inner, effect.condition is None or self.holds(effect.condition, inner, state)

    def bindings(self, variables: tuple[Parameter, ...]) -> Iterator[dict[str, str]]:
        """Every assignment of objects of the right types to the variables."""
        cache = self._objects_by_types
        for v in variables:
            if v.types not in cache:
                cache[v.types] = self.objects_of(v.types)
        budget = self.budget
        count = 0
        for values in product(*(cache[v.types] for v in variables)):
            count += 1
            if count == CHUNK and budget is not None:  # counted in chunks: a call per binding costs too much
                budget.tick(count)
                count = 0
            yield {v.name: value for v, value in zip(variables, values)}
        if budget is not None:
            budget.tick(count)

    @property
    def uses_costs(self) -> bool:
        """Plans have a cost other than their length: the domain has action costs and the problem asks to
        minimize total-cost (without the metric, Fast Downward and VAL count steps, and so does genplan)."""
        return self.domain.action_costs and self.problem.metric

    def action_cost(self, action: Action, binding: dict[str, str]) -> float:
        """The cost of one step (1 where plans count steps; 0 for an action without a cost effect in a task with
        action costs, as PDDL says)."""
        if not self.uses_costs:
            return 1.0
        cost = action.cost
        if cost is None:
            return 0.0
        if cost.function is None:
            return cost.value or 0.0
        key = (cost.function, *(binding.get(a, a) for a in cost.args))
        return self.problem.function_values.get(key, 0.0)

    def undefined_cost(self, action: Action, binding: dict[str, str]) -> str | None:
        """The cost term of a step whose value the problem does not give, as ``(len s t)``; None where the cost
        is defined (or plans count steps). Such a step is not executable: VAL refuses a plan with it, and Fast
        Downward grounds no operator for it (the function value acts as a precondition)."""
        cost = action.cost
        if cost is None or cost.function is None or not self.uses_costs:
            return None
        key = (cost.function, *(binding.get(a, a) for a in cost.args))
        return None if key in self.problem.function_values else "(" + " ".join(key) + ")"
