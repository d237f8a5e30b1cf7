"""The ADL subset: conditions and effects read from the file's tree, checked against the domain.

The `pddl` package parses these constructs (the loader still runs it on every file, as the syntax and
requirement check), but it keeps quantified variables and conjunctions as sets, which loses the file's order
and every line number; messages name conditions in the order the file wrote them, so the model is built
here from our own tree of the file (``sexpr``), which keeps both.

Supported: ``and``, ``or``, ``not`` (of any condition), ``imply``, ``forall`` and ``exists`` in
preconditions and goals; ``when`` and ``forall`` (also nested: ``forall`` around ``when``) in effects;
``(increase (total-cost) N)`` or ``(increase (total-cost) (f ?x ...))`` as an action's cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from genplan.engine.pddl.errors import PddlError
from genplan.engine.pddl.model import (
    OBJECT,
    Condition,
    ConditionalEffect,
    Cost,
    Implication,
    Junction,
    Literal,
    Negation,
    Parameter,
    Quantified,
)
from genplan.engine.pddl.normalize import conditional_cost, is_cost_effect, refuse
from genplan.engine.pddl.sexpr import Atom, Node, SList, render

COMPOUND_HEADS = frozenset({"or", "imply", "forall", "exists", "when"})


def _either(type_name: str) -> tuple[str, ...]:
    if type_name.startswith("(either"):
        return tuple(type_name[1:-1].split()[1:])
    return (type_name,)


def typed_variables(node: Node, path: str | Path | None) -> tuple[Parameter, ...]:
    """``(?x - t ?y - (either a b) ?z)`` as parameters (untyped: object)."""
    if not isinstance(node, SList):
        raise PddlError(path, "expected a list of variables like '(?x - type)'", node.line)
    out: list[Parameter] = []
    pending: list[str] = []
    items = node.items
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Atom) and item.text == "-" and i + 1 < len(items):
            typ = items[i + 1]
            types = _either(typ.text if isinstance(typ, Atom) else render(typ))
            out += [Parameter(name, types) for name in pending]
            pending = []
            i += 2
            continue
        if not isinstance(item, Atom) or not item.text.startswith("?"):
            raise PddlError(path, f"expected a variable like '?x' but found '{render(item)}'", item.line)
        pending.append(item.text)
        i += 1
    out += [Parameter(name, (OBJECT,)) for name in pending]
    return tuple(out)


def is_compound(node: SList | None) -> bool:
    """Does a precondition, goal or effect use anything beyond a conjunction of (negated) atoms?"""
    if node is None:
        return False
    head = node.head()
    if head in COMPOUND_HEADS:
        return True
    if head == "not":
        inner = node.sublists()
        return bool(inner) and inner[0].head() in ("and", "not", *COMPOUND_HEADS)
    if head == "and":
        return any(is_compound(item) for item in node.sublists())
    return False


def condition(node: Node, path: str | Path | None) -> Condition:
    """One condition of the file's tree (a goal description)."""
    if not isinstance(node, SList) or not node.items or not isinstance(node.items[0], Atom):
        raise PddlError(path, f"expected a condition but found '{render(node)}'", node.line)
    head = node.items[0].text
    rest = node.items[1:]
    if head in ("and", "or"):
        return Junction(head, tuple(condition(item, path) for item in rest))
    if head == "not":
        if len(rest) != 1:
            raise PddlError(path, "'not' takes exactly one condition", node.line)
        inner = condition(rest[0], path)
        if isinstance(inner, Literal):
            return Literal(inner.predicate, inner.args, not inner.positive)
        return Negation(inner)
    if head == "imply":
        if len(rest) != 2:
            raise PddlError(path, "'imply' takes exactly two conditions", node.line)
        return Implication(condition(rest[0], path), condition(rest[1], path))
    if head in ("forall", "exists"):
        if len(rest) != 2:
            raise PddlError(path, f"'{head}' takes a list of variables and one condition", node.line)
        return Quantified(head, typed_variables(rest[0], path), condition(rest[1], path))
    if head in ("when",):
        raise PddlError(path, "'when' belongs in an effect, not in a condition", node.line)
    args = []
    for item in rest:
        if not isinstance(item, Atom):
            raise refuse(path, f"a function term in a condition ('{render(item)}')", item.line)
        args.append(item.text)
    return Literal(head, tuple(args))


def conjuncts(node: SList | None, path: str | Path | None) -> tuple[list[Literal], list[Condition]]:
    """A precondition or goal as its literal conjuncts and its compound ones (in file order)."""
    if node is None or not node.items:
        return [], []
    literals: list[Literal] = []
    compound: list[Condition] = []

    def visit(c: Condition) -> None:
        if isinstance(c, Junction) and c.kind == "and":
            for part in c.parts:
                visit(part)
        elif isinstance(c, Literal):
            if c not in literals:
                literals.append(c)
        else:
            compound.append(c)

    visit(condition(node, path))
    return literals, compound


class Effects:
    """An action's effect, read from the tree: plain literals, conditional/quantified effects and the cost."""

    def __init__(self, node: SList | None, path: str | Path | None, action: str) -> None:
        self.path = path
        self.action = action
        self.add: list[Literal] = []
        self.delete: list[Literal] = []
        self.conditional: list[ConditionalEffect] = []
        self.cost: Cost | None = None
        if node is not None and node.items:
            self._visit(node, (), None)

    def _literal(self, node: SList) -> tuple[Literal, bool]:
        c = condition(node, self.path)
        if not isinstance(c, Literal) or c.predicate == "=":
            raise PddlError(self.path, f"expected an atom or a negated atom in the effect of '{self.action}' but found "
                                       f"'{render(node)}'", node.line)
        return Literal(c.predicate, c.args), c.positive

    def _visit(self, node: Node, variables: tuple[Parameter, ...], when: Condition | None) -> None:
        if not isinstance(node, SList) or not node.items:
            raise PddlError(self.path, f"unexpected '{render(node)}' in the effect of '{self.action}'", node.line)
        head = node.head()
        if head == "and":
            for item in node.items[1:]:
                self._visit(item, variables, when)
            return
        if is_cost_effect(node):
            if variables or when is not None:
                raise refuse(self.path, conditional_cost("when" if when is not None else "forall", self.action), node.line)
            self.cost = _cost(node.items[2], self.path)
            return
        if head == "forall":
            if len(node.items) != 3:
                raise PddlError(self.path, "'forall' takes a list of variables and one effect", node.line)
            if when is not None:
                raise refuse(self.path, f"'forall' inside 'when' in the effect of '{self.action}'", node.line)
            inner = typed_variables(node.items[1], self.path)
            start = len(self.conditional)
            plain = _Collector(self, variables + inner, None, node)
            plain.visit(node.items[2])
            plain.finish(at=start)
            return
        if head == "when":
            if len(node.items) != 3:
                raise PddlError(self.path, "'when' takes a condition and an effect", node.line)
            if when is not None:
                raise refuse(self.path, f"'when' inside 'when' in the effect of '{self.action}'", node.line)
            collector = _Collector(self, variables, condition(node.items[1], self.path), node)
            collector.visit(node.items[2])
            collector.finish()
            return
        literal, positive = self._literal(node)
        if variables or when is not None:  # only through _Collector
            raise AssertionError("literal under forall/when visited directly")
        (self.add if positive else self.delete).append(literal)

    def add_conditional(self, variables: tuple[Parameter, ...], cond: Condition | None, add: list[Literal],
                        delete: list[Literal], text: str, at: int | None = None) -> None:
        effect = ConditionalEffect(variables, cond, tuple(add), tuple(delete), text, 0)
        if at is None:
            self.conditional.append(effect)
        else:
            self.conditional.insert(at, effect)

    def numbered(self) -> tuple[ConditionalEffect, ...]:
        return tuple(
            ConditionalEffect(e.variables, e.condition, e.add, e.delete, e.text, i + 1)
            for i, e in enumerate(self.conditional)
        )


class _Collector:
    """The literals of one ``forall``/``when`` body; a ``when`` inside a ``forall`` becomes its own effect."""

    def __init__(self, effects: Effects, variables: tuple[Parameter, ...], when: Condition | None, node: SList) -> None:
        self.effects = effects
        self.variables = variables
        self.when = when
        self.node = node
        self.add: list[Literal] = []
        self.delete: list[Literal] = []

    def visit(self, node: Node) -> None:
        if isinstance(node, SList) and node.head() == "and":
            for item in node.items[1:]:
                self.visit(item)
            return
        if isinstance(node, SList) and node.head() in ("forall", "when") or (isinstance(node, SList) and is_cost_effect(node)):
            if self.when is not None:
                raise refuse(self.effects.path, f"'{node.head()}' inside 'when' in the effect of '{self.effects.action}'",
                             node.line)
            self.effects._visit(node, self.variables, None)
            return
        if not isinstance(node, SList):
            raise PddlError(self.effects.path, f"unexpected '{render(node)}' in the effect of '{self.effects.action}'",
                            node.line)
        literal, positive = self.effects._literal(node)
        (self.add if positive else self.delete).append(literal)

    def finish(self, at: int | None = None) -> None:
        if self.add or self.delete:
            self.effects.add_conditional(self.variables, self.when, self.add, self.delete, render(self.node), at)


def _cost(node: Node, path: str | Path | None) -> Cost:
    if isinstance(node, Atom):
        try:
            value = float(node.text)
        except ValueError:
            raise PddlError(path, f"an action cost must be a number or a function term, not '{node.text}'", node.line) from None
        if value < 0:
            raise PddlError(path, f"an action cost must not be negative ({node.text})", node.line)
        return Cost(value=value)
    if not node.items or not all(isinstance(i, Atom) for i in node.items):
        raise refuse(path, f"a numeric expression as an action cost ('{render(node)}')", node.line)
    head, *args = (i.text for i in node.items if isinstance(i, Atom))
    return Cost(function=head, args=tuple(args))


def check_condition(
    cond: Condition,
    scope: set[str],
    check_literal: Any,
    types: dict[str, str | None],
    path: str | Path | None,
    line: int,
    where: str,
) -> None:
    """Variables must be bound (by the action or a quantifier), quantified variables' types declared, and every
    atom is handed to ``check_literal(literal, scope)`` for predicate, arity and constants."""
    if isinstance(cond, Literal):
        check_literal(cond, scope)
        return
    if isinstance(cond, Junction):
        for part in cond.parts:
            check_condition(part, scope, check_literal, types, path, line, where)
        return
    if isinstance(cond, Negation):
        check_condition(cond.part, scope, check_literal, types, path, line, where)
        return
    if isinstance(cond, Implication):
        check_condition(cond.antecedent, scope, check_literal, types, path, line, where)
        check_condition(cond.consequent, scope, check_literal, types, path, line, where)
        return
    for v in cond.variables:
        for t in v.types:
            if t not in types:
                raise PddlError(path, f"undeclared type '{t}' of the variable {v.name} in {where}", line)
    check_condition(cond.body, scope | {v.name for v in cond.variables}, check_literal, types, path, line, where)
