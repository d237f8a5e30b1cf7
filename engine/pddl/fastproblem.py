"""The fast path for problem files.

The `pddl` package's parser (lark) needs about 0.7 s for a 500 KB problem; generator-written tasks are plain
lists of atoms, which our own s-expression reader handles in a fraction of that. A file that is plain and
correct in every respect (sections, names, arities, types) is read here; anything else returns None and goes
through the full loader, so every error message and every unusual construct is still the full loader's.
`tests/test_pddl_fast_problems.py` checks that both paths agree on every shipped and benchmark task.
"""

from __future__ import annotations

from pathlib import Path

import re

from .model import OBJECT, Domain, Fact, Problem

# A node is a lower-cased symbol (str) or a list of nodes: no line numbers are kept on this path, because
# a file with anything to report goes to the full loader, which reports it with its line.
Node = str | list
_COMMENT = re.compile(r";[^\n]*")
_TOKEN = re.compile(r"[()]|[^\s()]+")


def parse_problem_fast(text: str, domain: Domain, path: str | Path | None = None) -> Problem | None:
    """A plain, correct STRIPS problem read with a minimal reader, or None for anything unusual or wrong
    (which the full loader then handles or reports with file and line)."""
    tree = _read(text)
    if tree is None or len(tree) < 2 or tree[0] != "define":
        return None
    header = tree[1]
    if not (isinstance(header, list) and len(header) == 2 and header[0] == "problem" and isinstance(header[1], str)):
        return None
    sections: dict[str, list] = {}
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
    init: list[Fact] = []
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


def _read(text: str) -> list | None:
    """The one top-level list of the file, or None (unbalanced, empty, trailing text)."""
    stack: list[list] = []
    root: list | None = None
    for token in _TOKEN.findall(_COMMENT.sub("", text).lower()):
        if token == "(":
            node: list = []
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


def _typed_list(items: list) -> list[tuple[str, str]] | None:
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


def _goal(section: list, check: _FactCheck) -> tuple[list[Fact], list[Fact]] | None:
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
