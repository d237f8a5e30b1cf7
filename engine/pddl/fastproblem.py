"""The fast path for problem files.

The `pddl` package's parser (lark) needs about 0.7 s for a 500 KB problem; generator-written tasks are plain
lists of atoms, which our own s-expression reader handles in a fraction of that. A file that is plain and
correct in every respect (sections, names, arities, types) is read here; anything else returns None and goes
through the full loader, so every error message and every unusual construct is still the full loader's.
`tests/test_pddl_fast_problems.py` checks that both paths agree on every shipped and benchmark task.
"""

from __future__ import annotations

import re
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

from genplan.engine.pddl.model import OBJECT, Domain, Fact, Problem

# A node is a lower-cased symbol (str) or a list of nodes: no line numbers are kept on this path, because
# a file with anything to report goes to the full loader, which reports it with its line.
Node = str | list[Any]
_COMMENT = re.compile(r";[^\n]*")
_TOKEN = re.compile(r"[()]|[^\s()]+")
# The :init section of a generated task is a long run of flat atoms; regular expressions find and split it
# in C, and whole columns of arguments are checked at once (a Python loop per token was 2/3 of the time).
_INIT_START = re.compile(r"\(\s*:init(?=[\s()])")
_FLAT_RUN = re.compile(r"(?:\s*\([^()]*\))*")
_CLOSE = re.compile(r"\s*\)")
_FLAT = re.compile(r"\(([^()]*)\)")


def parse_problem_fast(text: str, domain: Domain, path: str | Path | None = None) -> Problem | None:
    """A plain, correct STRIPS problem read with a minimal reader, or None for anything unusual or wrong
    (which the full loader then handles or reports with file and line)."""
    clean = (_COMMENT.sub("", text) if ";" in text else text).lower()
    init_atoms: list[str] | None = None
    start = _INIT_START.search(clean)
    if start is not None:
        run = _FLAT_RUN.match(clean, start.end())
        if run is not None and _CLOSE.match(clean, run.end()):
            init_atoms = _FLAT.findall(clean, start.end(), run.end())
            clean = clean[: start.end()] + clean[run.end() :]
    tree = _read(clean)
    if tree is None or len(tree) < 2 or tree[0] != "define":
        return None
    header = tree[1]
    if not (isinstance(header, list) and len(header) == 2 and header[0] == "problem" and isinstance(header[1], str)):
        return None
    sections: dict[str, list[Any]] = {}
    for node in tree[2:]:
        head = node[0] if isinstance(node, list) and node else None
        if head not in (":domain", ":objects", ":init", ":goal") or head in sections:
            return None
        sections[head] = node
    domain_node = sections.get(":domain")
    if domain_node is None or ":goal" not in sections or len(domain_node) != 2 or not isinstance(domain_node[1], str):
        return None
    objects = _typed_list(sections.get(":objects", [None])[1:])
    if objects is None:
        return None
    types = dict(domain.constants)
    for name, typ in objects:
        if typ not in domain.type_parents or name in types:
            return None
        types[name] = typ
    check = _FactCheck(domain, types)
    if init_atoms is not None:
        bulk = _bulk_facts(init_atoms, check)
        if bulk is None:
            return None
        init = bulk
    else:
        init = []
        seen: set[Fact] = set()
        for node in sections.get(":init", [None])[1:]:
            fact = check(node)
            if fact is None:
                return None
            if fact not in seen:
                seen.add(fact)
                init.append(fact)
    goal = _goal(sections[":goal"], check)
    if goal is None:
        return None
    domain_name = domain_node[1]
    warnings = []
    if domain_name != domain.name:
        warnings.append(f"the problem names domain '{domain_name}' but the domain file is '{domain.name}'")
    return Problem(
        name=header[1],
        domain_name=domain_name,
        path=str(path) if path else None,
        objects=objects,
        init=init,
        goal_pos=goal[0],
        goal_neg=goal[1],
        source=text,
        warnings=warnings,
    )


def _read(text: str) -> list[Any] | None:
    """The one top-level list of the (lower-cased, comment-free) text, or None (unbalanced, empty, trailing)."""
    stack: list[list[Any]] = []
    root: list[Any] | None = None
    for token in _TOKEN.findall(text):
        if token == "(":
            node: list[Any] = []
            if stack:
                stack[-1].append(node)
            elif root is not None:
                return None
            else:
                root = node
            stack.append(node)
        elif token == ")":
            if not stack:
                return None
            stack.pop()
        elif stack:
            stack[-1].append(token)
        else:
            return None
    return root if root is not None and not stack else None


def _typed_list(items: list[Any]) -> list[tuple[str, str]] | None:
    result: list[tuple[str, str]] = []
    pending: list[str] = []
    index = 0
    while index < len(items):
        item = items[index]
        if not isinstance(item, str):
            return None
        if item == "-":
            if index + 1 >= len(items) or not isinstance(items[index + 1], str) or not pending:
                return None
            result += [(name, items[index + 1]) for name in pending]
            pending = []
            index += 2
            continue
        pending.append(item)
        index += 1
    return result + [(name, OBJECT) for name in pending]


class _FactCheck:
    """A ground atom with a known predicate, the right arity and well-typed arguments, else None."""

    def __init__(self, domain: Domain, types: dict[str, str]) -> None:
        self.domain = domain
        self.types = types
        self._subtype: dict[tuple[str, tuple[str, ...]], bool] = {}  # thousands of facts, few type pairs
        self._allowed: dict[tuple[str, ...], frozenset[str]] = {}

    def allowed(self, param_types: tuple[str, ...]) -> frozenset[str]:
        """The objects (and constants) a parameter of these types accepts."""
        found = self._allowed.get(param_types)
        if found is None:
            if param_types == (OBJECT,):
                found = frozenset(self.types)
            else:
                by_type: dict[str, list[str]] = {}
                for name, typ in self.types.items():
                    by_type.setdefault(typ, []).append(name)
                found = frozenset(
                    name for typ, names in by_type.items() if self.domain.is_subtype(typ, param_types) for name in names
                )
            self._allowed[param_types] = found
        return found

    def __call__(self, node: Node) -> Fact | None:
        if not isinstance(node, list) or not node or not all(isinstance(i, str) for i in node):
            return None
        pred = self.domain.predicates.get(node[0])
        if pred is None or pred.arity != len(node) - 1:
            return None
        for arg, param in zip(node[1:], pred.parameters):
            typ = self.types.get(arg)
            if typ is None:
                return None
            key = (typ, param.types)
            ok = self._subtype.get(key)
            if ok is None:
                ok = self._subtype[key] = self.domain.is_subtype(typ, param.types)
            if not ok:
                return None
        return tuple(node)


def _bulk_facts(atoms: list[str], check: _FactCheck) -> list[Fact] | None:
    """The init atoms as facts in file order without duplicates, or None if any is wrong: checked per run of
    atoms of one predicate and per argument position, a whole column against the objects it allows."""
    facts: list[Fact] = list(dict.fromkeys(map(tuple, map(str.split, atoms))))
    if not all(facts):
        return None
    predicates = check.domain.predicates
    for name, run in groupby(facts, itemgetter(0)):
        group = list(run)
        pred = predicates.get(name)
        if pred is None or set(map(len, group)) != {len(pred.parameters) + 1}:
            return None
        for position, param in enumerate(pred.parameters, start=1):
            if not check.allowed(param.types).issuperset(map(itemgetter(position), group)):
                return None
    return facts


def _goal(section: list[Any], check: _FactCheck) -> tuple[list[Fact], list[Fact]] | None:
    if len(section) != 2 or not isinstance(section[1], list) or not section[1]:
        return None
    formula = section[1]
    parts = formula[1:] if formula[0] == "and" else [formula]
    positive: list[Fact] = []
    negative: list[Fact] = []
    for part in parts:
        if isinstance(part, list) and part and part[0] == "not":
            if len(part) != 2:
                return None
            fact, target = check(part[1]), negative
        else:
            fact, target = check(part), positive
        if fact is None:
            return None
        target.append(fact)
    return positive, negative
