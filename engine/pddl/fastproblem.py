"""The fast path for problem files.

The `pddl` package's parser (lark) needs about 0.7 s for a 500 KB problem; generator-written tasks are plain
lists of atoms, which a minimal reader handles in a small fraction of that. A file that is plain and correct in
every respect (sections, names, arities, types) is read here; anything else returns None and goes through the
full loader, so every error message (with its file and line) and every unusual construct is still the full
loader's. `tests/test_pddl_fast_problems.py` checks that both paths agree on every shipped and benchmark task.

One pass over the text: the whole file is split into tokens at once (parentheses and names, as the full
loader's own tokenizer does), and the bulk of a generated task, the atoms of ``:init`` (and of a conjunctive
goal), is read a run of atoms of one predicate at a time without a Python step per atom: an atom of a
predicate of arity k is k + 3 tokens, so a run of them is a stride of k + 3 through the token list, its
columns are slices of that list and its facts one ``zip`` of the columns. Every atom of a run is checked (an
opening parenthesis, the predicate, a closing parenthesis k + 1 tokens on), and every argument column against
the objects its parameter allows, a set operation in C.
"""

from __future__ import annotations

import gc
import re
from itertools import chain, islice, takewhile
from pathlib import Path
from typing import Any

from genplan.engine.pddl.model import OBJECT, Domain, Fact, Problem

# A node is a lower-cased symbol (str) or a list of nodes: no line numbers are kept on this path, because
# a file with anything to report goes to the full loader, which reports it with its line.
Node = str | list[Any]
# a comment ends where the full loader's line ends (str.splitlines' boundaries), not only at '\n'
_COMMENT = re.compile(";[^\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]*")
_SECTIONS = (":domain", ":objects", ":init", ":goal")


def parse_problem_fast(text: str, domain: Domain, path: str | Path | None = None) -> Problem | None:
    """A plain, correct STRIPS problem read with a minimal reader, or None for anything unusual or wrong
    (which the full loader then handles or reports with file and line)."""
    clean = (_COMMENT.sub("", text) if ";" in text else text).lower()
    tokens = clean.replace("(", " ( ").replace(")", " ) ").split()
    # the reader makes hundreds of thousands of tuples and no cycles: the cyclic collector would only walk them
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Reader(tokens, domain).problem(text, path)
    except (IndexError, _Unusual):  # a file that ends early, or anything the full loader should look at
        return None
    finally:
        if collecting:
            gc.enable()


class _Unusual(Exception):
    """Not a plain, correct problem: the full loader takes it."""


class _Reader:
    def __init__(self, tokens: list[str], domain: Domain) -> None:
        self.tokens = tokens
        self.domain = domain
        # the init's atoms as runs: (predicate, its columns: the predicate, then each argument), and the goal's
        # where it is a conjunction of atoms
        self.init_runs: list[tuple[str, list[list[str]]]] = []
        self.goal_runs: list[tuple[str, list[list[str]]]] | None = None

    def problem(self, text: str, path: str | Path | None) -> Problem:
        t = self.tokens
        if t[0] != "(" or t[1] != "define" or t[2] != "(" or t[3] != "problem" or t[5] != ")" or t[4] in ("(", ")"):
            raise _Unusual
        name = t[4]
        pos = 6
        sections: dict[str, list[Any]] = {}
        while t[pos] == "(":
            head = t[pos + 1]
            # each section once, in the order the full loader's grammar asks for (it reports any other order)
            if head not in _SECTIONS or any(_SECTIONS.index(seen) >= _SECTIONS.index(head) for seen in sections):
                raise _Unusual
            if head == ":init":
                sections[head] = []  # read as runs of atoms, below
                pos = self._atom_runs(pos + 2, self.init_runs)
                if t[pos] != ")":
                    raise _Unusual
                pos += 1
            elif head == ":goal" and t[pos + 2] == "(" and t[pos + 3] == "and":
                runs: list[tuple[str, list[list[str]]]] = []
                end = self._atom_runs(pos + 4, runs)
                if t[end] == ")" and t[end + 1] == ")":
                    sections[head], self.goal_runs, pos = [], runs, end + 2
                else:  # negated atoms, or anything else: as a tree
                    sections[head], pos = _read_node(t, pos)
            else:
                sections[head], pos = _read_node(t, pos)
        if t[pos] != ")" or pos + 1 != len(t):
            raise _Unusual
        domain = self.domain
        domain_node = sections.get(":domain")
        if domain_node is None or ":goal" not in sections or len(domain_node) != 2 or not isinstance(domain_node[1], str):
            raise _Unusual
        objects = _typed_list(sections.get(":objects", [None])[1:])
        types = dict(domain.constants)
        for obj, typ in objects:
            if typ not in domain.type_parents or obj in types:
                raise _Unusual
            types[obj] = typ
        check = _FactCheck(domain, types)
        init = list(self._facts(self.init_runs, check))
        if len(set(init)) != len(init):
            init = list(dict.fromkeys(init))
        goal_neg: list[Fact] = []
        if self.goal_runs is not None:
            goal_pos = list(self._facts(self.goal_runs, check))
        else:
            goal_pos, goal_neg = _goal(sections[":goal"], check)
        domain_name = domain_node[1]
        warnings = []
        if domain_name != domain.name:
            warnings.append(f"the problem names domain '{domain_name}' but the domain file is '{domain.name}'")
        return Problem(
            name=name,
            domain_name=domain_name,
            path=str(path) if path else None,
            objects=objects,
            init=init,
            goal_pos=goal_pos,
            goal_neg=goal_neg,
            source=text,
            warnings=warnings,
        )

    def _atom_runs(self, pos: int, runs: list[tuple[str, list[list[str]]]]) -> int:
        """Read flat atoms of declared predicates from ``pos`` on into ``runs``, up to the first token that starts
        none (returned)."""
        t = self.tokens
        predicates = self.domain.predicates
        while t[pos] == "(":
            predicate = t[pos + 1]
            declared = predicates.get(predicate)
            if declared is None:
                return pos
            stride = declared.arity + 3
            # the atoms of this predicate that follow each other: their heads stand ``stride`` tokens apart
            count = len(list(takewhile(predicate.__eq__, islice(t, pos + 1, None, stride))))
            end = pos + count * stride
            # each of them opens, and closes exactly arity arguments on (flat, right arity: nothing in between
            # can be a parenthesis, which no object is named, see _facts)
            if t[pos:end:stride].count("(") != count or t[pos + stride - 1 : end : stride].count(")") != count:
                raise _Unusual
            # one string for the predicate of every fact of the run (cheaper to hash and to compare than each copy)
            runs.append((predicate, [[predicate] * count, *(t[pos + 2 + j : end : stride] for j in range(stride - 3))]))
            pos = end
        return pos

    def _facts(self, runs: list[tuple[str, list[list[str]]]], check: _FactCheck) -> Any:
        """The runs' facts in file order, once each argument column is known to hold objects of its type."""
        predicates = self.domain.predicates
        for predicate, columns in runs:
            for column, parameter in zip(columns[1:], predicates[predicate].parameters):
                if not check.allowed(parameter.types).issuperset(column):
                    raise _Unusual
        return chain.from_iterable(zip(*columns) for _, columns in runs)


def _read_node(tokens: list[str], pos: int) -> tuple[list[Any], int]:
    """The list that opens at ``pos`` (nested lists of symbols) and the position after it."""
    stack: list[list[Any]] = []
    while True:
        token = tokens[pos]
        pos += 1
        if token == "(":
            node: list[Any] = []
            if stack:
                stack[-1].append(node)
            stack.append(node)
        elif token == ")":
            done = stack.pop()
            if not stack:
                return done, pos
        else:
            stack[-1].append(token)


def _typed_list(items: list[Any]) -> list[tuple[str, str]]:
    result: list[tuple[str, str]] = []
    pending: list[str] = []
    index = 0
    while index < len(items):
        item = items[index]
        if not isinstance(item, str):
            raise _Unusual
        if item == "-":
            if index + 1 >= len(items) or not isinstance(items[index + 1], str) or not pending:
                raise _Unusual
            result += [(name, items[index + 1]) for name in pending]
            pending = []
            index += 2
            continue
        pending.append(item)
        index += 1
    return result + [(name, OBJECT) for name in pending]


class _FactCheck:
    """A ground atom with a known predicate, the right arity and well-typed arguments, else _Unusual."""

    def __init__(self, domain: Domain, types: dict[str, str]) -> None:
        self.domain = domain
        self.types = types
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

    def __call__(self, node: Node) -> Fact:
        if not isinstance(node, list) or not node or not all(isinstance(i, str) for i in node):
            raise _Unusual
        pred = self.domain.predicates.get(node[0])
        if pred is None or pred.arity != len(node) - 1:
            raise _Unusual
        for arg, param in zip(node[1:], pred.parameters):
            if arg not in self.allowed(param.types):
                raise _Unusual
        return tuple(node)


def _goal(section: list[Any], check: _FactCheck) -> tuple[list[Fact], list[Fact]]:
    if len(section) != 2 or not isinstance(section[1], list) or not section[1]:
        raise _Unusual
    formula = section[1]
    parts = formula[1:] if formula[0] == "and" else [formula]
    positive: list[Fact] = []
    negative: list[Fact] = []
    for part in parts:
        if isinstance(part, list) and part and part[0] == "not":
            if len(part) != 2:
                raise _Unusual
            negative.append(check(part[1]))
        else:
            positive.append(check(part))
    return positive, negative
