"""The fast path for problem files.

The `pddl` package's parser (lark) needs about 0.7 s for a 500 KB problem; generator-written tasks are plain
lists of atoms, which our own s-expression reader handles in a fraction of that. A file that is plain and
correct in every respect (sections, names, arities, types) is read here; anything else returns None and goes
through the full loader, so every error message and every unusual construct is still the full loader's.
`tests/test_pddl_fast_problems.py` checks that both paths agree on every shipped and benchmark task.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import PddlError
from .model import OBJECT, Domain, Fact, Problem
from .sexpr import Atom, SList, read_sexpr


def parse_problem_fast(text: str, domain: Domain, path: str | Path | None = None) -> Problem | None:
    """A plain, correct STRIPS problem read with our own s-expression reader, or None for anything
    unusual or wrong (which the full loader then handles or reports with file and line)."""
    return _quick_problem(text, domain, path)


def _quick_problem(text: str, domain: Domain, path: str | Path | None) -> Problem | None:
    try:
        tree = read_sexpr(text, path)
    except PddlError:
        return None
    if tree.head() != "define" or len(tree.items) < 2:
        return None
    header = tree.items[1]
    if not (isinstance(header, SList) and header.head() == "problem" and len(header.items) == 2):
        return None
    if not isinstance(header.items[1], Atom):
        return None
    sections: dict[str, SList] = {}
    for node in tree.items[2:]:
        head = node.head() if isinstance(node, SList) else None
        if head not in (":domain", ":objects", ":init", ":goal") or head in sections:
            return None
        sections[head] = node  # type: ignore[assignment]
    domain_node = sections.get(":domain")
    if domain_node is None or ":goal" not in sections or len(domain_node.items) != 2:
        return None
    if not isinstance(domain_node.items[1], Atom):
        return None
    objects = _quick_typed_list(sections[":objects"].items[1:] if ":objects" in sections else [])
    if objects is None:
        return None
    types = dict(domain.constants)
    for name, typ in objects:
        if typ not in domain.type_parents or name in types:
            return None
        types[name] = typ
    init: list[Fact] = []
    seen: set[Fact] = set()
    for node in sections[":init"].items[1:] if ":init" in sections else []:
        fact = _quick_fact(node, domain, types)
        if fact is None:
            return None
        if fact not in seen:
            seen.add(fact)
            init.append(fact)
    goal = _quick_goal(sections[":goal"], domain, types)
    if goal is None:
        return None
    domain_name = domain_node.items[1].text
    warnings = []
    if domain_name != domain.name:
        warnings.append(f"the problem names domain '{domain_name}' but the domain file is '{domain.name}'")
    return Problem(
        name=header.items[1].text,
        domain_name=domain_name,
        path=str(path) if path else None,
        objects=objects,
        init=init,
        goal_pos=goal[0],
        goal_neg=goal[1],
        source=text,
        warnings=warnings,
    )


def _quick_typed_list(items: list) -> list[tuple[str, str]] | None:
    result: list[tuple[str, str]] = []
    pending: list[str] = []
    index = 0
    while index < len(items):
        item = items[index]
        if not isinstance(item, Atom):
            return None
        if item.text == "-":
            if index + 1 >= len(items) or not isinstance(items[index + 1], Atom) or not pending:
                return None
            result += [(name, items[index + 1].text) for name in pending]
            pending = []
            index += 2
            continue
        pending.append(item.text)
        index += 1
    return result + [(name, OBJECT) for name in pending]


def _quick_fact(node: Any, domain: Domain, types: dict[str, str]) -> Fact | None:
    if not isinstance(node, SList) or not node.items or not all(isinstance(i, Atom) for i in node.items):
        return None
    fact = tuple(i.text for i in node.items)
    pred = domain.predicates.get(fact[0])
    if pred is None or pred.arity != len(fact) - 1:
        return None
    for arg, param in zip(fact[1:], pred.parameters):
        if arg not in types or not domain.is_subtype(types[arg], param.types):
            return None
    return fact


def _quick_goal(section: SList, domain: Domain, types: dict[str, str]) -> tuple[list[Fact], list[Fact]] | None:
    if len(section.items) != 2 or not isinstance(section.items[1], SList):
        return None
    formula = section.items[1]
    parts = formula.items[1:] if formula.head() == "and" else [formula]
    positive: list[Fact] = []
    negative: list[Fact] = []
    for part in parts:
        if isinstance(part, SList) and part.head() == "not":
            if len(part.items) != 2:
                return None
            fact = _quick_fact(part.items[1], domain, types)
            target = negative
        else:
            fact = _quick_fact(part, domain, types)
            target = positive
        if fact is None:
            return None
        target.append(fact)
    return positive, negative
