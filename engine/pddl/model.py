"""The typed STRIPS model genplan works with: domains, actions, problems and facts.

Names are lower-case. Lists keep the order of the source file, because prompts show tasks in that order.
A fact is a tuple ``(predicate, arg1, ...)`` of strings — the same shape the generated programs receive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .fastcheck import CompiledDomain
    from .lenient import Repair

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

    @property
    def arity(self) -> int:
        return len(self.parameters)

    def lifted(self) -> str:
        """``(sail ?from ?to)``: the lifted form shown to models as a valid action."""
        return "(" + " ".join([self.name, *(p.name for p in self.parameters)]) + ")"

    def lifted_typed(self) -> str:
        return "(" + " ".join([self.name, *(parameter_text(p) for p in self.parameters)]) + ")"


def parameter_text(parameter: Parameter) -> str:
    if parameter.types == (OBJECT,):
        return parameter.name
    if len(parameter.types) == 1:
        return f"{parameter.name} - {parameter.types[0]}"
    return f"{parameter.name} - (either {' '.join(parameter.types)})"


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
        return frozenset(set(self.predicates) - changed)

    @cached_property
    def compiled_actions(self) -> CompiledDomain:
        """The actions as generated Python functions, for fast plan checking (compiled once per domain)."""
        from .fastcheck import CompiledDomain

        return CompiledDomain(self, self.static_predicates)

    def ancestors(self, type_name: str) -> tuple[str, ...]:
        """The type itself and all its supertypes, ending in ``object``."""
        chain = [type_name]
        seen = {type_name}
        parent = self.type_parents.get(type_name)
        while parent is not None and parent not in seen:
            chain.append(parent)
            seen.add(parent)
            parent = self.type_parents.get(parent)
        if OBJECT not in seen:
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


@dataclass
class Task:
    """A problem bound to its domain, with the lookups validation and search need."""

    domain: Domain
    problem: Problem

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

    def objects_of(self, allowed: tuple[str, ...]) -> list[str]:
        return [o for o, t in self.object_types.items() if self.domain.is_subtype(t, allowed)]

    def goal_reached(self, state: frozenset[Fact] | set[Fact]) -> bool:
        return all(f in state for f in self.problem.goal_pos) and not any(
            f in state for f in self.problem.goal_neg
        )
