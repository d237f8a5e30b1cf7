"""Load domain and problem files: `pddl` package for parsing, our own checks for everything it lets through."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from pddl.logic.base import And, Not
from pddl.logic.predicates import EqualTo
from pddl.logic.predicates import Predicate as PddlPredicate
from pddl.parser import GRAMMAR_FILE, PARSERS_DIRECTORY
from pddl.parser.domain import DomainTransformer
from pddl.parser.problem import ProblemTransformer

from genplan.engine.pddl import adl
from genplan.engine.pddl.errors import PddlError, UnsupportedPddlError
from genplan.engine.pddl.fastproblem import parse_problem_fast
from genplan.engine.pddl.lenient import problem_uses, repair_domain_tree, repair_problem_tree
from genplan.engine.pddl.model import OBJECT, Action, Condition, Domain, Fact, Literal, Parameter, Predicate, Problem, Repair
from genplan.engine.pddl.normalize import is_cost_effect, is_cost_init, normalize_domain, normalize_problem, refuse
from genplan.engine.pddl.sexpr import Atom, SList, read_sexpr, render, render_keeping_lines


def read_text(path: str | Path) -> str:
    p = Path(path)
    if not p.exists():
        raise PddlError(path, "no such file")
    if p.is_dir():
        raise PddlError(path, "is a directory, expected a PDDL file")
    try:
        return p.read_text(encoding="utf-8-sig")  # -sig: a byte-order mark (Windows editors) is not PDDL
    except UnicodeDecodeError:
        raise PddlError(path, "is not a UTF-8 text file") from None
    except OSError as exc:
        raise PddlError(path, f"cannot be read ({exc.strerror})") from None


@cache
def _grammar(start: str) -> Lark:
    """The `pddl` package's grammar, compiled once per process (compiling costs ~0.1 s per parser object).

    A compiled LALR parser without a transformer holds no state between parses; the package's transformers
    do (and a failed one is unusable), so `_package_parse` makes a fresh transformer for every file.
    """
    return Lark(GRAMMAR_FILE.read_text(), parser="lalr", import_paths=[PARSERS_DIRECTORY], start=start)


def _package_parse(start: str, transformer_cls: type, text: str) -> Any:
    """What ``DomainParser()(text)`` / ``ProblemParser()(text)`` do, without recompiling the grammar."""
    tree = _grammar(start).parse(text)
    try:
        return transformer_cls().transform(tree)
    except VisitError as exc:  # the transformer's own error, as the inline parser would have raised it
        raise exc.orig_exc from None


def _run_package_parser(parser: Callable[[str], Any], text: str, path: str | Path | None) -> Any:
    """Call the `pddl` parser and undo its side effects on the process.

    pddl 0.5.1 sets ``sys.tracebacklimit = 0`` when a parse fails (hiding every later traceback in the
    process), so we restore it; and we use a fresh parser object per call because a failed one is unusable.
    """
    had_limit = hasattr(sys, "tracebacklimit")
    saved_limit = getattr(sys, "tracebacklimit", None)
    try:
        return parser(text)
    except (UnsupportedPddlError, PddlError):
        raise
    except UnexpectedInput as exc:  # a syntax error; `text` keeps the file's lines, so its line is the file's
        line = exc.line if isinstance(exc.line, int) and exc.line > 0 else None
        raise PddlError(path, f"the PDDL parser rejected the file: {_describe_syntax_error(exc)}", line) from None
    except Exception as exc:  # the package raises pddl and plain Python errors
        message = " ".join(str(exc).split()) or type(exc).__name__
        raise PddlError(path, f"the PDDL parser rejected the file: {message[:300]}") from None
    finally:
        if had_limit:
            sys.tracebacklimit = saved_limit
        elif hasattr(sys, "tracebacklimit"):
            del sys.tracebacklimit


_TERMINAL_TEXT = {"LPAR": "(", "RPAR": ")"}


def _describe_syntax_error(exc: UnexpectedInput) -> str:
    """Lark's message without its line/column (we report the line) and with readable token names."""
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return "unexpected end of file"
        expected = sorted(_TERMINAL_TEXT.get(t, t.lower()) for t in (exc.accepts or exc.expected))
        hint = f" (expected {' or '.join(repr(e) for e in expected)})" if 0 < len(expected) <= 3 else ""
        return f"unexpected '{exc.token}'{hint}"
    if isinstance(exc, UnexpectedCharacters):
        return f"unexpected character '{exc.char}'"
    if isinstance(exc, UnexpectedEOF):
        return "unexpected end of file"
    return type(exc).__name__


def _expect_define(tree: SList, kind: str, path: str | Path | None) -> str:
    if tree.head() != "define":
        raise PddlError(path, f"expected '(define ({kind} NAME) ...)'", tree.line)
    if len(tree.items) < 2 or not isinstance(tree.items[1], SList) or tree.items[1].head() != kind:
        other = "problem" if kind == "domain" else "domain"
        if len(tree.items) > 1 and isinstance(tree.items[1], SList) and tree.items[1].head() == other:
            raise PddlError(path, f"this is a {other} file, expected a {kind} file", tree.line)
        raise PddlError(path, f"expected '({kind} NAME)' right after 'define'", tree.line)
    header = tree.items[1]
    if len(header.items) != 2 or not isinstance(header.items[1], Atom):
        raise PddlError(path, f"expected '({kind} NAME)'", header.line)
    return header.items[1].text


_REPEATABLE = frozenset({":action", ":derived"})
# Type names Fast Downward's translator refuses to see declared (``number`` is its type of numeric functions);
# VAL refuses them as well. genplan reads them with a warning; the planner renames them (engine/planner.py).
FAST_DOWNWARD_RESERVED_TYPES = ("number",)
_ACTION_FIELDS = (":parameters", ":precondition", ":effect")
# PDDL 1.0 (the 1998 competition) forms later PDDL dropped; VAL and Fast Downward refuse them as well
_PDDL1_ACTION_FIELDS = {
    ":vars": "':vars' is PDDL 1.0 (1998), which later PDDL dropped: move its variables into ':parameters' "
             "(VAL and Fast Downward refuse ':vars' too)",
}
_PDDL1_PROBLEM_SECTIONS = {
    ":length": "'(:length ...)' is PDDL 1.0 (1998), a hint for planners that later PDDL dropped: delete it "
               "(VAL and Fast Downward refuse it too)",
    ":situation": "'(:situation ...)' is PDDL 1.0 (1998), which later PDDL dropped: write its facts in "
                  "'(:init ...)' (VAL and Fast Downward refuse it too)",
}


def _refuse_unknown_action_fields(tree: SList, path: str | Path | None) -> None:
    """A field an action cannot have, at its own line with what to write instead (the package's parser
    would only say "unexpected character ':'")."""
    for node in tree.sublists():
        if node.head() != ":action":
            continue
        for item in node.items[2:]:
            if not (isinstance(item, Atom) and item.text.startswith(":")) or item.text in _ACTION_FIELDS:
                continue
            if item.text in _PDDL1_ACTION_FIELDS:
                raise PddlError(path, _PDDL1_ACTION_FIELDS[item.text], item.line)
            raise PddlError(path, f"an action has no field '{item.text}' (only {', '.join(_ACTION_FIELDS)})", item.line)


def _refuse_pddl1_sections(tree: SList, path: str | Path | None) -> None:
    for node in tree.sublists():
        message = _PDDL1_PROBLEM_SECTIONS.get(node.head() or "")
        if message is not None:
            raise PddlError(path, message, node.line)


def _refuse_repeated_sections(tree: SList, path: str | Path | None) -> None:
    """A second ``(:predicates ...)`` (or any other non-action section) would be ignored by a reader that takes
    the first: say so at its line instead of failing later on a name it declares."""
    seen: set[str] = set()
    for item in tree.items[2:]:
        name = item.head() if isinstance(item, SList) else None
        if name is None or not name.startswith(":") or name in _REPEATABLE:
            continue
        if name in seen:
            raise PddlError(path, f"a second {name} section; write all its entries in the first one", item.line)
        seen.add(name)


def _section(tree: SList, name: str) -> SList | None:
    for item in tree.items:
        if isinstance(item, SList) and item.head() == name:
            return item
    return None


def _typed_names(items: list[Any], path: str | Path | None) -> list[tuple[str, str, int]]:
    """Parse ``a b - t c - u d`` into (name, type, line); untyped names are objects."""
    result: list[tuple[str, str, int]] = []
    pending: list[Atom] = []
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Atom) and item.text == "-":
            if i + 1 >= len(items):
                raise PddlError(path, "a '-' must be followed by a type name", item.line)
            typ = items[i + 1]
            type_name = typ.text if isinstance(typ, Atom) else render(typ)
            for atom in pending:
                result.append((atom.text, type_name, atom.line))
            pending = []
            i += 2
            continue
        if isinstance(item, SList):
            raise PddlError(path, f"unexpected list '{render(item)}' in a list of names", item.line)
        pending.append(item)
        i += 1
    result.extend((atom.text, OBJECT, atom.line) for atom in pending)
    return result


def _either(type_name: str) -> tuple[str, ...]:
    if type_name.startswith("(either"):
        return tuple(type_name[1:-1].split()[1:])
    return (type_name,)


def _find_line(node: SList, head: str, default: int, args: tuple[str, ...] | None = None) -> int:
    """Line of the first list inside node that starts with `head` (and has exactly `args`, when given)."""
    for item in node.items:
        if isinstance(item, SList):
            if item.head() == head and (
                args is None or tuple(a.text if isinstance(a, Atom) else None for a in item.items[1:]) == args
            ):
                return item.line
            found = _find_line(item, head, -1, args)
            if found >= 0:
                return found
    return default


# ---------------------------------------------------------------- domain


def load_domain(path: str | Path, *, lenient: bool = False) -> Domain:
    return parse_domain_text(read_text(path), path, lenient=lenient)


def parse_domain_text(text: str, path: str | Path | None = None, *, lenient: bool = False) -> Domain:
    """A checked domain. ``lenient``: repair the slips of model-written PDDL (see `lenient.py`); the repairs
    are in ``domain.repairs``, split actions' original names in ``domain.action_origins``."""
    return _parse_domain_tree(text, read_sexpr(text, path), path, lenient)


def _parse_domain_tree(
    text: str,
    tree: SList,
    path: str | Path | None,
    lenient: bool,
    problem_uses: tuple[dict[str, int], dict[str, tuple[int, int]]] | None = None,
    problem_path: str | Path | None = None,
) -> Domain:
    name = _expect_define(tree, "domain", path)
    _refuse_unknown_action_fields(tree, path)
    own_parent_warnings = _drop_own_parents(tree, path)
    repaired = None
    if lenient:
        extra_types, extra_predicates = problem_uses or ({}, {})
        repaired = repair_domain_tree(tree, path, extra_types, extra_predicates, problem_path)
    _refuse_repeated_sections(tree, path)
    normalized, warnings = normalize_domain(tree, path)
    # Our checks that know lines run before the package, which reports e.g. undeclared types without one.
    type_parents, more_parents, type_warnings = _domain_types(tree, path)
    constants = [(n, t) for n, t, _ in _typed_names((_section(tree, ":constants") or SList()).items[1:], path)]
    predicates = _domain_predicates(tree, path, type_parents)
    _check_declared_names(normalized, type_parents, path)  # normalized: without action costs
    parsed = _run_package_parser(
        lambda t: _package_parse("domain", DomainTransformer, t), render_keeping_lines(normalized), path
    )
    actions = _domain_actions(tree, parsed, path)
    functions = _domain_functions(tree, path, type_parents)
    declared_requirements = {r.text for r in (_section(tree, ":requirements") or SList()).items[1:] if isinstance(r, Atom)}
    domain = Domain(
        name=name,
        path=str(path) if path else None,
        requirements=tuple(sorted(str(r) for r in parsed.requirements)),
        type_parents=type_parents,
        constants=constants,
        predicates=predicates,
        actions=actions,
        source=text,
        warnings=[*own_parent_warnings, *warnings, *type_warnings],
        repairs=repaired.repairs if repaired else [],
        action_origins=repaired.action_origins if repaired else {},
        functions=functions,
        action_costs=":action-costs" in declared_requirements or any(a.cost is not None for a in actions.values()),
        more_parents=more_parents,
    )
    _check_domain(domain, tree, path)
    return domain


def _domain_functions(tree: SList, path: str | Path | None, types: dict[str, str | None]) -> dict[str, Predicate]:
    """The cost functions of ``(:functions ...)`` (the normalizer refused any other numeric use)."""
    section = _section(tree, ":functions")
    result: dict[str, Predicate] = {}
    for node in (section.items[1:] if section else []):
        if not isinstance(node, SList) or not node.items or not isinstance(node.items[0], Atom):
            continue
        params = []
        for pname, ptype, line in _typed_names(node.items[1:], path):
            for t in _either(ptype):
                if t not in types:
                    raise PddlError(path, f"undeclared type '{t}' in function '{node.items[0].text}'", line)
            params.append(Parameter(pname, _either(ptype)))
        result[node.items[0].text] = Predicate(node.items[0].text, tuple(params))
    return result


def _drop_own_parents(tree: SList, path: str | Path | None) -> list[str]:
    """A type listed as its own parent (``(:types receptacle fridgeReceptacle - receptacle)``, a slip models make) is
    harmless: Fast Downward's translator and VAL read it as a subtype of what it is listed under otherwise, or of
    object. The ``:types`` section is rewritten so (each entry as ``name - parent``), and a warning says so. A
    genuine cycle (``a - b b - a``) is not touched here: it stays an error (``_domain_types``)."""
    section = _section(tree, ":types")
    if section is None:
        return []
    entries = _typed_names(section.items[1:], path)
    own = [(t, line) for t, parent, line in entries if parent == t and t != OBJECT]
    if not own:
        return []
    elsewhere = {t for t, parent, _ in entries if parent != t}
    warnings = []
    for type_name, line in own:
        read_as = "of the parent it is listed under elsewhere" if type_name in elsewhere else "of object"
        warnings.append(f"line {line}: type '{type_name}' is listed as its own parent; read as a subtype {read_as}, "
                        "as Fast Downward and VAL do")
    items: list[Any] = [section.items[0]]
    for type_name, parent, line in entries:
        if parent == type_name and type_name != OBJECT:
            if type_name in elsewhere:
                continue
            parent = OBJECT
        parent_node = read_sexpr(parent, path) if parent.startswith("(") else Atom(parent, line)
        items += [Atom(type_name, line), Atom("-", line), parent_node]
    section.items[:] = items
    return warnings


def _domain_types(tree: SList, path: str | Path | None) -> tuple[dict[str, str | None], dict[str, tuple[str, ...]], list[str]]:
    """Every declared type's parent, the further parents of a type listed more than once (IPC storage lists
    ``area`` under ``object`` and again under ``surface``: VAL and Fast Downward make it a subtype of every
    parent it is listed under), and a warning per such type."""
    parents: dict[str, str | None] = {OBJECT: None}
    section = _section(tree, ":types")
    if section is None:
        return parents, {}, []
    entries = _typed_names(section.items[1:], path)
    listed: dict[str, list[str]] = {}
    first_line: dict[str, int] = {}
    for type_name, parent, line in entries:
        if parent.startswith("("):
            raise PddlError(path, f"type '{type_name}' has the parent '{parent}': a type's parent is one type name", line)
        if type_name == OBJECT:
            continue
        named = listed.setdefault(type_name, [])
        first_line.setdefault(type_name, line)
        if parent not in named:
            named.append(parent)
    warnings = [f"line {first_line[t]}: type '{t}' is a name Fast Downward reserves (for numbers; VAL refuses it "
                "too): genplan reads it, and renames it in the files it gives Fast Downward"
                for t in FAST_DOWNWARD_RESERVED_TYPES if t in listed]
    more: dict[str, tuple[str, ...]] = {}
    for type_name, named in listed.items():
        proper = [p for p in named if p != OBJECT]  # every type is an object anyway
        parents[type_name] = proper[0] if proper else OBJECT
        if len(proper) > 1:
            more[type_name] = tuple(proper[1:])
        if len(named) > 1:
            read_as = " and of ".join(f"'{p}'" for p in proper)
            warnings.append(
                f"line {first_line[type_name]}: type '{type_name}' is listed under more than one parent "
                f"({', '.join(repr(p) for p in named)}); read as a subtype of {read_as}, as VAL and Fast Downward do"
            )
    for _, parent, _ in entries:
        # named only as a parent: a subtype of object, as VAL and Fast Downward read it (normalize says so)
        parents.setdefault(parent, OBJECT)
    for type_name, _, line in entries:
        if type_name != OBJECT and type_name in _strict_ancestors(type_name, parents, more):
            raise PddlError(path, f"type '{type_name}' is its own supertype (a cycle in :types)", line)
    return parents, more, warnings


def _strict_ancestors(type_name: str, parents: dict[str, str | None], more: dict[str, tuple[str, ...]]) -> set[str]:
    found: set[str] = set()
    todo = [type_name]
    while todo:
        current = todo.pop()
        first = parents.get(current)
        for parent in (*(() if first is None else (first,)), *more.get(current, ())):
            if parent not in found:
                found.add(parent)
                todo.append(parent)
    return found


def _check_declared_names(tree: SList, types: dict[str, str | None], path: str | Path | None) -> None:
    """Types of constants and parameters, and constants in actions, must be declared (checked on the tree,
    where the line is known; the package would reject them without one)."""
    section = _section(tree, ":constants")
    constants = set()
    for const, type_name, line in _typed_names(section.items[1:] if section else [], path):
        constants.add(const)
        for t in _either(type_name):
            if t not in types:
                raise PddlError(path, f"undeclared type '{t}' of the constant '{const}'", line)
    for node in tree.items:
        if not (isinstance(node, SList) and node.head() == ":action" and len(node.items) > 1):
            continue
        name = render(node.items[1])
        params = _after_key(node, ":parameters")
        seen = set()
        for pname, type_name, line in _typed_names(params.items if params else [], path):
            if pname in seen:
                raise PddlError(path, f"parameter {pname} of action '{name}' is declared twice", line)
            seen.add(pname)
            for t in _either(type_name):
                if t not in types:
                    raise PddlError(path, f"undeclared type '{t}' of parameter {pname} of action '{name}'", line)
        for key in (":precondition", ":effect"):
            formula = _after_key(node, key)
            for literal in _literal_nodes(formula) if formula is not None else ():
                for arg in literal.items[1:]:
                    if isinstance(arg, Atom) and not arg.text.startswith("?") and arg.text not in constants:
                        raise PddlError(path, f"unknown constant '{arg.text}' in action '{name}'", arg.line)


def _literal_nodes(node: SList) -> Iterator[SList]:
    """The atoms of a condition or effect (quantified variable lists and cost effects left out)."""
    head = node.head()
    if head in ("and", "not", "or", "imply", "when"):
        for item in node.sublists():
            yield from _literal_nodes(item)
    elif head in ("forall", "exists"):
        for item in node.sublists()[1:]:
            yield from _literal_nodes(item)
    elif head not in ("increase",):
        yield node


def _domain_predicates(
    tree: SList, path: str | Path | None, types: dict[str, str | None]
) -> dict[str, Predicate]:
    section = _section(tree, ":predicates")
    result: dict[str, Predicate] = {}
    if section is None:
        return result
    for node in section.items[1:]:
        if not isinstance(node, SList) or not node.items or not isinstance(node.items[0], Atom):
            raise PddlError(path, "expected a predicate like '(name ?x - type ...)' in :predicates", section.line)
        params = []
        for pname, ptype, line in _typed_names(node.items[1:], path):
            for t in _either(ptype):
                if t not in types:
                    raise PddlError(path, f"undeclared type '{t}' in predicate '{node.items[0].text}'", line)
            params.append(Parameter(pname, _either(ptype)))
        if node.items[0].text in result:  # the package would silently keep the last declaration
            raise PddlError(path, f"predicate '{node.items[0].text}' is declared twice", node.line)
        result[node.items[0].text] = Predicate(node.items[0].text, tuple(params))
    return result


def _literal_list(formula: Any, path: str | Path | None, line: int, where: str) -> list[Literal]:
    """Flatten a conjunction of (negated) atoms from the `pddl` package into our literals."""
    if formula is None:
        return []
    if isinstance(formula, And):
        out: list[Literal] = []
        for operand in formula.operands:
            out += _literal_list(operand, path, line, where)
        return out
    if isinstance(formula, Not):
        inner = _literal_list(formula.argument, path, line, where)
        if len(inner) != 1 or not inner[0].positive:
            raise refuse(path, f"negation of a compound formula in {where}", line)
        return [Literal(inner[0].predicate, inner[0].args, positive=False)]
    if isinstance(formula, EqualTo):
        return [Literal("=", (_term(formula.left), _term(formula.right)))]
    if isinstance(formula, PddlPredicate):
        return [Literal(formula.name.lower(), tuple(_term(t) for t in formula.terms))]
    raise refuse(path, f"'{type(formula).__name__}' in {where}", line)


def _term(term: Any) -> str:
    name = str(term.name).lower()
    return f"?{name}" if type(term).__name__ == "Variable" else name


def _domain_actions(tree: SList, parsed: Any, path: str | Path | None) -> dict[str, Action]:
    by_name = {a.name.lower(): a for a in parsed.actions}
    result: dict[str, Action] = {}
    for node in tree.items:
        if not (isinstance(node, SList) and node.head() == ":action"):
            continue
        if len(node.items) < 2 or not isinstance(node.items[1], Atom):
            raise PddlError(path, "an action needs a name: '(:action NAME ...)'", node.line)
        name = node.items[1].text
        if name in result:
            raise PddlError(path, f"action '{name}' is defined twice", node.line)
        pa = by_name[name]
        params_node = _after_key(node, ":parameters")
        params = tuple(
            Parameter(f"?{n.lstrip('?')}", _either(t))
            for n, t, _ in _typed_names(params_node.items if params_node else [], path)
        )
        pre_node, eff_node = _after_key(node, ":precondition"), _after_key(node, ":effect")
        if adl.is_compound(pre_node) or adl.is_compound(eff_node) or _has_cost(eff_node):
            result[name] = _adl_action(name, params, pre_node, eff_node, path, node.line)
            continue
        pre = _literal_list(pa.precondition, path, node.line, f"the precondition of '{name}'")
        eff = _literal_list(pa.effect, path, node.line, f"the effect of '{name}'")
        pre_order = _order_by_source(_after_key(node, ":precondition"))
        eff_order = _order_by_source(_after_key(node, ":effect"))
        pre.sort(key=lambda lit: pre_order.get(lit.pddl(), 1 << 30))
        eff.sort(key=lambda lit: eff_order.get(lit.pddl(), 1 << 30))
        if any(lit.predicate == "=" for lit in eff):
            raise PddlError(path, f"action '{name}' has an equality in its effect", node.line)
        result[name] = Action(
            name=name,
            parameters=params,
            preconditions=tuple(pre),
            add_effects=tuple(lit for lit in eff if lit.positive),
            del_effects=tuple(Literal(lit.predicate, lit.args) for lit in eff if not lit.positive),
        )
    return result


def _has_cost(node: SList | None) -> bool:
    return node is not None and (is_cost_effect(node) or any(_has_cost(item) for item in node.sublists()))


def _adl_action(
    name: str,
    params: tuple[Parameter, ...],
    pre_node: SList | None,
    eff_node: SList | None,
    path: str | Path | None,
    line: int,
) -> Action:
    """An action with compound conditions, conditional/quantified effects or a cost, read from the tree."""
    literals, compound = adl.conjuncts(pre_node, path)
    effects = adl.Effects(eff_node, path, name)
    if any(lit.predicate == "=" for lit in (*effects.add, *effects.delete)):
        raise PddlError(path, f"action '{name}' has an equality in its effect", line)
    return Action(
        name=name,
        parameters=params,
        preconditions=tuple(literals),
        add_effects=tuple(effects.add),
        del_effects=tuple(effects.delete),
        conditions=tuple(compound),
        conditional_effects=effects.numbered(),
        cost=effects.cost,
    )


def _after_key(node: SList, key: str) -> SList | None:
    for i, item in enumerate(node.items[:-1]):
        if isinstance(item, Atom) and item.text == key and isinstance(node.items[i + 1], SList):
            return node.items[i + 1]  # type: ignore[return-value]
    return None


def _order_by_source(node: SList | None) -> dict[str, int]:
    """Rendered literal -> position in the file, so that messages list preconditions in file order."""
    order: dict[str, int] = {}
    if node is None:
        return order

    def visit(n: SList) -> None:
        head = n.head()
        if head in ("and",):
            for item in n.sublists():
                visit(item)
            return
        if head == "not" and n.sublists():
            inner = n.sublists()[0]
            order.setdefault(f"(not {render(inner)})", len(order))
            return
        order.setdefault(render(n), len(order))

    visit(node)
    return order


def _check_domain(domain: Domain, tree: SList, path: str | Path | None) -> None:
    constants = {c for c, _ in domain.constants}
    for _, type_name in domain.constants:
        for t in _either(type_name):
            if t not in domain.type_parents:
                raise PddlError(path, f"undeclared type '{t}' of a constant", _find_line(tree, ":constants", tree.line))
    action_nodes = {
        n.items[1].text: n
        for n in tree.items
        if isinstance(n, SList) and n.head() == ":action" and isinstance(n.items[1], Atom)
    }
    for action in domain.actions.values():
        node = action_nodes[action.name]
        params = {p.name for p in action.parameters}
        for p in action.parameters:
            for t in p.types:
                if t not in domain.type_parents:
                    raise PddlError(path, f"undeclared type '{t}' of parameter {p.name} of action '{action.name}'", node.line)
        _check_literals(domain, action, node, params, constants, path, [*action.preconditions, *action.add_effects, *action.del_effects])
        where = f"action '{action.name}'"
        for cond in action.conditions:
            adl.check_condition(cond, params, lambda lit, scope, a=action, n=node: _check_literals(
                domain, a, n, scope, constants, path, [lit]), domain.type_parents, path, node.line, where)
        for effect in action.conditional_effects:
            scope = params | {v.name for v in effect.variables}
            for v in effect.variables:
                for t in v.types:
                    if t not in domain.type_parents:
                        raise PddlError(path, f"undeclared type '{t}' of the variable {v.name} in {where}", node.line)
            _check_literals(domain, action, node, scope, constants, path, [*effect.add, *effect.delete])
            if effect.condition is not None:
                adl.check_condition(effect.condition, scope, lambda lit, sc, a=action, n=node: _check_literals(
                    domain, a, n, sc, constants, path, [lit]), domain.type_parents, path, node.line, where)
        if action.cost is not None and action.cost.function is not None:
            function = domain.functions.get(action.cost.function)
            if function is None:
                raise PddlError(path, f"unknown function '{action.cost.function}' in the cost of action '{action.name}'",
                                _find_line(node, action.cost.function, node.line))
            if function.arity != len(action.cost.args):
                raise PddlError(path, f"function '{function.name}' takes {function.arity} argument(s) but "
                                      f"{len(action.cost.args)} are given in action '{action.name}'", node.line)
            for arg in action.cost.args:
                if (arg not in params) if arg.startswith("?") else (arg not in constants):
                    raise PddlError(path, f"unknown term '{arg}' in the cost of action '{action.name}'", node.line)


def _check_literals(
    domain: Domain,
    action: Action,
    node: SList,
    params: set[str],
    constants: set[str],
    path: str | Path | None,
    literals: list[Literal],
) -> None:
    for lit in literals:
        # the line of this very literal; of the predicate's first use if the literal was rewritten
        line = _find_line(node, lit.predicate, -1, lit.args)
        line = line if line >= 0 else _find_line(node, lit.predicate, node.line)
        if lit.predicate != "=":
            pred = domain.predicates.get(lit.predicate)
            if pred is None:
                raise PddlError(path, f"unknown predicate '{lit.predicate}' in action '{action.name}'", line)
            if pred.arity != len(lit.args):
                raise PddlError(
                    path,
                    f"predicate '{lit.predicate}' takes {pred.arity} argument(s) but {len(lit.args)} are given "
                    f"in action '{action.name}'",
                    line,
                )
        for arg in lit.args:
            if arg.startswith("?") and arg not in params:
                raise PddlError(path, f"variable {arg} is not a parameter of action '{action.name}'", line)
            if not arg.startswith("?") and arg not in constants:
                raise PddlError(path, f"unknown constant '{arg}' in action '{action.name}'", line)


# ---------------------------------------------------------------- problem


def load_problem(path: str | Path, domain: Domain, *, lenient: bool = False) -> Problem:
    """Plain generator-written tasks take the fast path; everything else the full loader."""
    text = read_text(path)
    fast = parse_problem_fast(text, domain, path) if not domain.action_costs else None
    return fast or parse_problem_text(text, domain, path, lenient=lenient)


def parse_problem_text(
    text: str, domain: Domain, path: str | Path | None = None, *, lenient: bool = False
) -> Problem:
    """A checked problem of ``domain``. ``lenient``: objects that the init or goal uses but :objects does not
    declare are declared (``problem.repairs``). Types and predicates a problem needs can only be added to the
    domain: read both with :func:`parse_task_text` for that."""
    tree = read_sexpr(text, path)
    name = _expect_define(tree, "problem", path)
    _refuse_pddl1_sections(tree, path)
    repairs: list[Repair] = []
    if lenient:
        arg_types = {
            (pred.name, i): param.types for pred in domain.predicates.values() for i, param in enumerate(pred.parameters)
        }
        repairs = repair_problem_tree(tree, path, {c for c, _ in domain.constants}, arg_types)
    _refuse_repeated_sections(tree, path)
    normalized, warnings = normalize_problem(tree, path)
    domain_node = _section(tree, ":domain")
    if domain_node is None or len(domain_node.items) != 2:
        raise PddlError(path, "missing '(:domain NAME)'", tree.line)
    domain_name = domain_node.items[1].text  # type: ignore[union-attr]
    if domain_name != domain.name:
        warnings.append(f"the problem names domain '{domain_name}' but the domain file is '{domain.name}'")
    goal_node = _section(tree, ":goal")
    if goal_node is None:
        raise PddlError(path, "missing '(:goal ...)'", tree.line)
    objects_node = _section(tree, ":objects")
    objects = _typed_names(objects_node.items[1:] if objects_node else [], path)
    seen_objects: set[str] = set()
    for obj, _, line in objects:  # before the package, which reports duplicates without a line
        if obj in seen_objects:
            raise PddlError(path, f"object '{obj}' is declared twice", line)
        seen_objects.add(obj)
    # an object that repeats a constant of the domain with the same type is that constant (VAL reads it so):
    # kept once, or the objects programs receive and the file Fast Downward reads (which refuses duplicate
    # objects) would list it twice
    constant_types = dict(domain.constants)
    repeated = [obj for obj, typ, _ in objects if constant_types.get(obj) == typ]
    if repeated:
        warnings.append(f"the objects {', '.join(repeated)} repeat constants of the domain: each is read once")
        objects = [entry for entry in objects if entry[0] not in repeated]
    for i, item in enumerate(normalized.items):
        # the package's problem reader knows no ADL goals (quantified variables): ours reads and checks them
        if isinstance(item, SList) and item.head() == ":goal" and adl.is_compound(item.sublists()[0] if item.sublists() else None):
            normalized.items[i] = SList([item.items[0], SList([Atom("and", item.line)], item.line)], item.line)
    parsed = _run_package_parser(
        lambda t: _package_parse("problem", ProblemTransformer, t), render_keeping_lines(normalized), path
    )
    init_node = _section(tree, ":init")
    init = _init_in_file_order(parsed, init_node)
    goal_body = goal_node.items[1] if len(goal_node.items) > 1 and isinstance(goal_node.items[1], SList) else None
    goal_conditions: list[Condition] = []
    if adl.is_compound(goal_body):
        goal, goal_conditions = adl.conjuncts(goal_body, path)
    else:
        goal = _literal_list(parsed.goal, path, goal_node.line, "the goal")
    problem = Problem(
        name=name,
        domain_name=domain_name,
        path=str(path) if path else None,
        objects=[(n, t) for n, t, _ in objects],
        init=init,
        goal_pos=[lit.ground({}) for lit in goal if lit.positive],
        goal_neg=[lit.ground({}) for lit in goal if not lit.positive],
        source=text,
        warnings=warnings,
        repairs=repairs,
        goal_conditions=goal_conditions,
        # costs only where the domain has them (a metric over a cost-free domain counts steps, as before)
        function_values=_function_values(init_node, domain, path) if domain.action_costs else {},
        metric=_section(tree, ":metric") is not None and domain.action_costs,
        repeated_constants=repeated,
    )
    _check_problem(problem, domain, objects, init_node, goal_node, path)
    return problem


def _function_values(init_node: SList | None, domain: Domain, path: str | Path | None) -> dict[Fact, float]:
    """``(= (road-length a b) 7)`` in :init: the values of the domain's cost functions."""
    values: dict[Fact, float] = {}
    for node in (init_node.items[1:] if init_node else []):
        if isinstance(node, SList) and is_cost_init(node):
            term = node.items[1]
            assert isinstance(term, SList)
            key = tuple(i.text for i in term.items if isinstance(i, Atom))
            if key[0] != "total-cost" and key[0] not in domain.functions:
                raise refuse(path, f"numeric fluents (the undeclared function '{key[0]}' in :init)", node.line)
            value = node.items[2]
            assert isinstance(value, Atom)
            values[key] = float(value.text)
    return values


def parse_task_text(
    domain_text: str,
    problem_text: str,
    domain_path: str | Path | None = None,
    problem_path: str | Path | None = None,
    *,
    lenient: bool = False,
) -> tuple[Domain, Problem]:
    """A domain and a problem written together (as a model writes them). In lenient mode, types and predicates
    that only the problem uses are declared in the domain too; all repairs are in ``.repairs`` of each."""
    tree = read_sexpr(domain_text, domain_path)
    uses = problem_uses(read_sexpr(problem_text, problem_path)) if lenient else None
    domain = _parse_domain_tree(domain_text, tree, domain_path, lenient, uses, problem_path)
    return domain, parse_problem_text(problem_text, domain, problem_path, lenient=lenient)


def _init_in_file_order(parsed: Any, init_node: SList | None) -> list[Fact]:
    facts = set()
    for atom in parsed.init:
        if isinstance(atom, PddlPredicate):
            facts.add((atom.name.lower(), *(str(t.name).lower() for t in atom.terms)))
    ordered: list[Fact] = []
    seen: set[Fact] = set()
    for node in (init_node.items[1:] if init_node else []):
        if isinstance(node, SList):
            fact = tuple(i.text for i in node.items if isinstance(i, Atom))
            if fact in facts and fact not in seen:
                seen.add(fact)
                ordered.append(fact)
    return ordered


def _check_problem(
    problem: Problem,
    domain: Domain,
    objects: list[tuple[str, str, int]],
    init_node: SList | None,
    goal_node: SList,
    path: str | Path | None,
) -> None:
    types: dict[str, str] = {c: t for c, t in domain.constants}
    for obj, typ, line in objects:
        if typ not in domain.type_parents:
            raise PddlError(path, f"object '{obj}' has the undeclared type '{typ}'", line)
        if obj in types and obj not in dict(domain.constants):
            raise PddlError(path, f"object '{obj}' is declared twice", line)
        types[obj] = typ
    lines: dict[tuple[str, ...], int | None] = {}
    for node in (init_node.items[1:] if init_node else []):
        if isinstance(node, SList):
            lines.setdefault(tuple(i.text for i in node.items if isinstance(i, Atom)), node.line)
    for section, facts in (("init", problem.init), ("goal", [*problem.goal_pos, *problem.goal_neg])):
        for fact in facts:
            fact_line = lines.get(fact) if section == "init" else _find_line(goal_node, fact[0], goal_node.line, fact[1:])
            _check_fact(fact, domain, types, path, fact_line, section)

    def check_goal_literal(lit: Literal, scope: set[str]) -> None:
        line = _find_line(goal_node, lit.predicate, goal_node.line)
        for arg in lit.args:
            if arg.startswith("?") and arg not in scope:
                raise PddlError(path, f"variable {arg} in the goal is not bound by a 'forall' or 'exists'", line)
            if not arg.startswith("?") and arg not in types:
                raise PddlError(path, f"undeclared object '{arg}' in {lit.pddl()} in the goal", line)
        if lit.predicate == "=":
            return
        pred = domain.predicates.get(lit.predicate)
        if pred is None:
            raise PddlError(path, f"unknown predicate '{lit.predicate}' in {lit.pddl()} in the goal", line)
        if pred.arity != len(lit.args):
            raise PddlError(path, f"predicate '{lit.predicate}' takes {pred.arity} argument(s) but {lit.pddl()} in "
                                  f"the goal has {len(lit.args)}", line)

    for cond in problem.goal_conditions:
        adl.check_condition(cond, set(), check_goal_literal, domain.type_parents, path, goal_node.line, "the goal")


def _check_fact(
    fact: Fact, domain: Domain, types: dict[str, str], path: str | Path | None, line: int | None, section: str
) -> None:
    shown = "(" + " ".join(fact) + ")"
    pred = domain.predicates.get(fact[0])
    if fact[0] == "=":
        return
    if pred is None:
        raise PddlError(path, f"unknown predicate '{fact[0]}' in {shown} in the {section}", line)
    if pred.arity != len(fact) - 1:
        raise PddlError(
            path, f"predicate '{fact[0]}' takes {pred.arity} argument(s) but {shown} in the {section} has {len(fact) - 1}", line
        )
    for arg, param in zip(fact[1:], pred.parameters):
        if arg not in types:
            raise PddlError(path, f"undeclared object '{arg}' in {shown} in the {section}", line)
        if not domain.is_subtype(types[arg], param.types):
            raise PddlError(
                path,
                f"object '{arg}' has type '{types[arg]}' but '{fact[0]}' expects {' or '.join(param.types)} "
                f"in {shown} in the {section}",
                line,
            )
