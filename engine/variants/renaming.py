"""Renamings of a domain and its tasks: the bijection of names, applying it, and the numbered one.

Everything else in this package builds on this module, so the package's error class lives here too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from genplan.engine.errors import GenplanError
from genplan.engine.pddl.model import OBJECT, Action, Condition, Domain, Fact, Literal, Parameter, Predicate, Problem, map_condition
from genplan.engine.pddl.plans import parse_action
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl

PDDL_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
# Words PDDL readers treat specially: never acceptable as new names.
RESERVED = frozenset(
    {"and", "not", "or", "either", "object", "define", "domain", "problem", "forall", "exists", "imply", "when"}
)
ANONYMOUS_DOMAIN = "domain1"
TOTAL_COST = "total-cost"


class VariantError(GenplanError):
    """A mapping or variant that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def valid_name(name: str) -> bool:
    """Whether ``name`` may be a new name: a PDDL name that no PDDL reader treats specially."""
    return bool(PDDL_NAME.match(name)) and name not in RESERVED


@dataclass(frozen=True)
class Renaming:
    """A bijection of names per kind. Names absent from a table are not part of this renaming."""

    domain_names: dict[str, str] = field(default_factory=dict)
    problem_names: dict[str, str] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)
    predicates: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    variables: dict[str, str] = field(default_factory=dict)  # without the leading '?'
    functions: dict[str, str] = field(default_factory=dict)  # cost functions (total-cost stays)
    objects: dict[str, str] = field(default_factory=dict)  # the domain's constants and the task's objects
    _images: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def tables(self) -> dict[str, dict[str, str]]:
        return {
            "domain_names": self.domain_names,
            "problem_names": self.problem_names,
            "actions": self.actions,
            "predicates": self.predicates,
            "types": self.types,
            "variables": self.variables,
            "functions": self.functions,
            "objects": self.objects,
        }

    def inverse(self) -> Renaming:
        inverted: dict[str, Any] = {}
        for kind, table in self.tables().items():
            back = {new: old for old, new in table.items()}
            if len(back) != len(table):
                raise ValueError(f"the {kind} renaming is not injective, it has no inverse")
            inverted[kind] = back
        return Renaming(**inverted)

    # Names without an entry stay as they are unless they are a *new* name of this renaming: then they get
    # a quote appended, so that a name unknown on one side is still unknown on the other.
    def _apply(self, kind: str, name: str) -> str:
        table: dict[str, str] = getattr(self, kind)
        if name in table:
            return table[name]
        images = self._images.get(kind)
        if images is None:
            images = self._images[kind] = frozenset(table.values())
        while name in images:
            name += "'"
        return name

    def action(self, name: str) -> str:
        return self._apply("actions", name)

    def predicate(self, name: str) -> str:
        return self._apply("predicates", name)

    def type(self, name: str) -> str:
        return name if name == OBJECT else self._apply("types", name)

    def function(self, name: str) -> str:
        return name if name == TOTAL_COST else self._apply("functions", name)

    def object(self, name: str) -> str:
        return self._apply("objects", name)

    def variable(self, name: str) -> str:
        return "?" + self._apply("variables", name.lstrip("?"))

    def term(self, term: str) -> str:
        """A parameter (``?x``) or a constant."""
        return self.variable(term) if term.startswith("?") else self.object(term)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def problem_name_for(new_domain: str, old_problem: str) -> str:
    """Problem names often spell out the original domain and sizes; the variant shows neither."""
    return f"{new_domain}-{_digest(old_problem)}"


# ------------------------------------------------------------------------------------------- applying it
def rename_fact(fact: Fact, r: Renaming) -> Fact:
    if fact[0] == "=":
        return ("=", *(r.object(a) for a in fact[1:]))
    return (r.predicate(fact[0]), *(r.object(a) for a in fact[1:]))


def fact_text(fact: Fact) -> str:
    return "(" + " ".join(fact) + ")"


def rename_literal_text(text: str, r: Renaming) -> str:
    """``(at c0 l1)`` or ``(not (at c0 l1))`` as the validator reports them."""
    inner = text.strip()
    negated = inner.startswith("(not ")
    if negated:
        inner = inner[5:-1].strip()
    renamed = fact_text(rename_fact(tuple(inner[1:-1].split()), r))
    return f"(not {renamed})" if negated else renamed


def _rename_literal(lit: Literal, r: Renaming) -> Literal:
    predicate = "=" if lit.predicate == "=" else r.predicate(lit.predicate)
    return Literal(predicate, tuple(r.term(a) for a in lit.args), lit.positive)


def _rename_parameter(p: Parameter, r: Renaming) -> Parameter:
    return Parameter(r.variable(p.name), tuple(r.type(t) for t in p.types))


def _rename_condition(c: Condition, r: Renaming) -> Condition:
    """An ADL condition renamed (atoms, quantified variables and their types)."""
    return map_condition(c, lambda lit: _rename_literal(lit, r), lambda p: _rename_parameter(p, r))


def rename_domain(domain: Domain, r: Renaming) -> Domain:
    predicates = {}
    for pred in domain.predicates.values():
        new = r.predicate(pred.name)
        predicates[new] = Predicate(new, tuple(_rename_parameter(p, r) for p in pred.parameters))
    actions = {}
    for action in domain.actions.values():
        new = r.action(action.name)
        actions[new] = Action(
            name=new,
            parameters=tuple(_rename_parameter(p, r) for p in action.parameters),
            preconditions=tuple(_rename_literal(lit, r) for lit in action.preconditions),
            add_effects=tuple(_rename_literal(lit, r) for lit in action.add_effects),
            del_effects=tuple(_rename_literal(lit, r) for lit in action.del_effects),
            conditions=tuple(_rename_condition(c, r) for c in action.conditions),
            conditional_effects=tuple(
                replace(
                    e,
                    variables=tuple(_rename_parameter(v, r) for v in e.variables),
                    condition=_rename_condition(e.condition, r) if e.condition is not None else None,
                    add=tuple(_rename_literal(lit, r) for lit in e.add),
                    delete=tuple(_rename_literal(lit, r) for lit in e.delete),
                )
                for e in action.conditional_effects
            ),
            cost=(replace(action.cost, args=tuple(r.term(a) for a in action.cost.args),
                          function=None if action.cost.function is None else r.function(action.cost.function))
                  if action.cost is not None else None),
        )
    renamed = Domain(
        name=r.domain_names.get(domain.name, domain.name),
        path=None,
        requirements=domain.requirements,
        type_parents={r.type(t): (None if p is None else r.type(p)) for t, p in domain.type_parents.items()},
        constants=[(r.object(c), r.type(t)) for c, t in domain.constants],
        predicates=predicates,
        actions=actions,
        functions={r.function(name): Predicate(r.function(name), tuple(_rename_parameter(p, r) for p in f.parameters))
                   for name, f in domain.functions.items()},
        action_costs=domain.action_costs,
        more_parents={r.type(t): tuple(r.type(p) for p in more) for t, more in domain.more_parents.items()},
    )
    renamed.source = domain_text(renamed)
    return renamed


def domain_text(domain: Domain) -> str:
    """The domain as PDDL via the writer, with the types whose parent is ``object`` listed last.

    The writer leaves out ``- object``, so such a type written before a group like ``a b - c`` would
    join that group and become a subtype of ``c``; listed last it stays a direct subtype of object.
    """
    ordered = sorted(domain.type_parents.items(), key=lambda item: item[1] in (None, OBJECT))
    return domain_to_pddl(replace(domain, type_parents=dict(ordered)))


def rename_problem(problem: Problem, r: Renaming) -> Problem:
    renamed = Problem(
        name=r.problem_names.get(problem.name, problem.name),
        domain_name=r.domain_names.get(problem.domain_name, problem.domain_name),
        path=None,
        objects=[(r.object(o), r.type(t)) for o, t in problem.objects],
        init=[rename_fact(f, r) for f in problem.init],
        goal_pos=[rename_fact(f, r) for f in problem.goal_pos],
        goal_neg=[rename_fact(f, r) for f in problem.goal_neg],
        goal_conditions=[_rename_condition(c, r) for c in problem.goal_conditions],
        function_values={(r.function(f[0]), *(r.object(a) for a in f[1:])): v for f, v in problem.function_values.items()},
        metric=problem.metric,
    )
    renamed.source = problem_to_pddl(renamed)
    return renamed


def rename_plan(steps: Iterable[str], r: Renaming) -> list[str]:
    """Rename plan steps; a step that is not an action at all stays as written (it is malformed either way)."""
    out = []
    for raw in steps:
        step = parse_action(raw)
        if step.name is None:
            out.append(raw)
            continue
        body = " ".join([r.action(step.name), *(r.object(a) for a in step.args)])
        out.append(f"({body})" if step.parenthesized else body)
    return out


# ------------------------------------------------------------------------------------------- anonymizing
def variable_names(domain: Domain, problem: Problem | None = None) -> list[str]:
    """Every variable name (without '?'), each once: the parameters of predicates and actions first (the order
    the numbering of STRIPS domains has always had), then those of cost functions, the variables the actions'
    ``forall``/``exists``/``when`` quantify over, and (with a problem) those of its compound goal."""
    names: dict[str, None] = {}

    def note(parameter: Parameter) -> Parameter:
        names.setdefault(parameter.name.lstrip("?"))
        return parameter

    def quantified(condition: Condition | None) -> None:
        if condition is not None:
            map_condition(condition, lambda lit: lit, note)

    for params in [p.parameters for p in domain.predicates.values()] + [a.parameters for a in domain.actions.values()]:
        for param in params:
            note(param)
    for function in domain.functions.values():
        for param in function.parameters:
            note(param)
    for action in domain.actions.values():
        for condition in action.conditions:
            quantified(condition)
        for effect in action.conditional_effects:
            for variable in effect.variables:
                note(variable)
            quantified(effect.condition)
    for condition in problem.goal_conditions if problem is not None else []:
        quantified(condition)
    return list(names)


def anonymize_renaming(domain: Domain, problem: Problem | None = None, name: str = ANONYMOUS_DOMAIN) -> Renaming:
    """``action1``, ``predicate1``, ``type1``, ``var1``, ``object1`` … numbered in file order.

    Objects are numbered per task: the domain's constants first, then the task's objects in the order of
    its ``:objects`` section. Per-task numbering needs no table, so tasks of any size (and the output of
    the wrapped generator) can be anonymized; the same original name may get different numbers in
    different tasks, which carries no information anyway.
    """
    variables: dict[str, str] = {}
    for variable in variable_names(domain, problem):
        variables.setdefault(variable, f"var{len(variables) + 1}")
    names = [c for c, _ in domain.constants] + ([o for o, _ in problem.objects] if problem else [])
    return Renaming(
        domain_names={domain.name: name},
        problem_names={problem.name: problem_name_for(name, problem.name)} if problem else {},
        actions={a: f"action{i}" for i, a in enumerate(domain.actions, start=1)},
        predicates={p: f"predicate{i}" for i, p in enumerate(domain.predicates, start=1)},
        types={t: f"type{i}" for i, t in enumerate((t for t in domain.type_parents if t != OBJECT), start=1)},
        variables=variables,
        functions={f: f"function{i}" for i, f in enumerate((f for f in domain.functions if f != TOTAL_COST), start=1)},
        objects={o: f"object{i}" for i, o in enumerate(dict.fromkeys(names), start=1)},
    )


# A renaming per task (None: the domain alone), as costumes and anonymization both make them.
RenamingFor = Callable[[Problem | None], Renaming]
