"""Lenient reading of model-written PDDL: repair what a planner could not use, and say what was repaired.

Strict reading (the default) refuses a file with one clear line. Models that write PDDL (PDDLego+) make a
few slips so often that refusing them wastes a round trip; in lenient mode we repair exactly these, on the
s-expression tree before the strict loader sees it, and report each repair as a :class:`Repair` that can be
shown to the model:

- an ``or`` (or ``imply``, or a negated ``and``) in a precondition: the precondition is put in disjunctive
  normal form and the action is split into one action per case (``move`` -> ``move-or1``, ``move-or2``);
  ``Domain.action_origins`` maps the new names back to the one the model wrote;
- a ``:types``, ``:constants`` or ``:predicates`` section written twice: the second merged into the first;
- a type that is used but not declared: declared as a subtype of ``object``;
- a predicate that is used but not declared: declared with the arity of its first use, untyped arguments;
- a constant used in an action but not declared: declared, typed after the predicate argument it fills;
- (problems) an object used in ``:init``/``:goal`` but not declared: declared, typed the same way.

Everything else is checked exactly as in strict mode.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from genplan.engine.pddl.errors import PddlError
from genplan.engine.pddl.model import OBJECT
from genplan.engine.pddl.model import Repair as Repair  # what lenient mode records; defined with the model it is kept in
from genplan.engine.pddl.sexpr import Atom, Node, SList, render

SPLIT_DISJUNCTION = "split-disjunction"
DECLARED_TYPE = "declared-type"
DECLARED_PREDICATE = "declared-predicate"
DECLARED_CONSTANT = "declared-constant"
DECLARED_OBJECT = "declared-object"
DROPPED_DUPLICATE = "dropped-duplicate"
BROKE_TYPE_CYCLE = "broke-type-cycle"
MERGED_SECTION = "merged-section"

MAX_SPLIT = 32  # cases one action may be split into; more means the precondition is not what was meant

_CONNECTIVES = frozenset({"and", "or", "not", "imply"})
_NOT_PREDICATES = _CONNECTIVES | {"=", "exists", "forall", "when", "increase", "decrease", "assign",
                                  "scale-up", "scale-down"}
# heads whose arguments are terms or function applications (action costs), never atoms
_NUMERIC = frozenset({"=", "increase", "decrease", "assign", "scale-up", "scale-down"})


@dataclass
class DomainRepairs:
    """The repaired domain tree, what was repaired, and the split actions' original names."""

    tree: SList
    repairs: list[Repair]
    action_origins: dict[str, str]


# ------------------------------------------------------------------ tree helpers


def _section(tree: SList, name: str) -> SList | None:
    for item in tree.items:
        if isinstance(item, SList) and item.head() == name:
            return item
    return None


def _after_key(node: SList, key: str) -> int | None:
    """Index of the item that follows the keyword ``key`` in an action."""
    for i, item in enumerate(node.items[:-1]):
        if isinstance(item, Atom) and item.text == key:
            return i + 1
    return None


def _typed_entries(items: list[Node]) -> Iterator[tuple[Atom, list[str]]]:
    """(name atom, its types) of a typed list; untyped names are objects. Lists are skipped (strict reports)."""
    pending: list[Atom] = []
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Atom) and item.text == "-" and i + 1 < len(items):
            type_node = items[i + 1]
            if isinstance(type_node, Atom):
                types = [type_node.text]
            else:
                types = [t.text for t in type_node.items[1:] if isinstance(t, Atom)]  # (either a b)
            for atom in pending:
                yield atom, types
            pending = []
            i += 2
            continue
        if isinstance(item, Atom):
            pending.append(item)
        i += 1
    for atom in pending:
        yield atom, [OBJECT]


def _type_uses(items: list[Node]) -> Iterator[tuple[str, int]]:
    """Every type name after a '-' in a typed list, with its line."""
    for i, item in enumerate(items[:-1]):
        if isinstance(item, Atom) and item.text == "-":
            type_node = items[i + 1]
            if isinstance(type_node, Atom):
                yield type_node.text, type_node.line
            else:
                for t in type_node.items[1:]:
                    if isinstance(t, Atom):
                        yield t.text, t.line


def undeclared_parent_types(items: list[Node]) -> list[Atom]:
    """The parents in a ``:types`` list that the list does not declare itself (``vehicle`` in
    ``truck - vehicle``), once each, in order. Strict reading declares them as subtypes of object, as VAL and
    Fast Downward do; lenient reading declares every undeclared type (`_declare_types`)."""
    declared = {OBJECT} | {atom.text for atom, _ in _typed_entries(items)}
    found: list[Atom] = []
    for name, line in _type_uses(items):
        if name not in declared:
            declared.add(name)
            found.append(Atom(name, line))
    return found


def _literals(node: Node) -> Iterator[SList]:
    """Every atom (predicate application) inside a formula, also under quantifiers and conditions."""
    if not isinstance(node, SList) or not node.items:
        return
    head = node.head()
    if head in _NUMERIC:
        return  # (= (total-cost) 0), (increase (total-cost) (length ?a ?b)): function terms, not atoms
    if head in ("exists", "forall"):
        for item in node.items[2:]:
            yield from _literals(item)
    elif head in _NOT_PREDICATES:
        for item in node.items[1:]:
            yield from _literals(item)
    elif head is not None:
        yield node


def _actions(tree: SList) -> list[SList]:
    return [n for n in tree.items if isinstance(n, SList) and n.head() == ":action" and len(n.items) > 1]


def _ensure_section(tree: SList, name: str, before: tuple[str, ...]) -> SList:
    """The section ``name``, created (empty) before the first of the sections ``before`` if missing."""
    found = _section(tree, name)
    if found is not None:
        return found
    new = SList([Atom(name, tree.line)], tree.line)
    at = next(
        (i for i, item in enumerate(tree.items) if isinstance(item, SList) and item.head() in before),
        len(tree.items),
    )
    tree.items.insert(at, new)
    return new


# ------------------------------------------------------------------ disjunctions


def _dnf(node: Node, negated: bool = False) -> list[list[Node]]:
    """The formula as a list of conjunctions of literals (each literal an atom or a negated atom)."""
    head = node.head() if isinstance(node, SList) else None
    assert isinstance(node, SList) or head is None
    if head == "not" and isinstance(node, SList) and len(node.items) == 2:
        return _dnf(node.items[1], not negated)
    if head in ("and", "or") and isinstance(node, SList):
        conjunctive = (head == "and") != negated
        parts = [_dnf(item, negated) for item in node.items[1:]]
        if not conjunctive:
            return [clause for part in parts for clause in part]
        clauses: list[list[Node]] = [[]]
        for part in parts:
            clauses = [c + p for c in clauses for p in part]
            if len(clauses) > MAX_SPLIT:
                return clauses
        return clauses
    if head == "imply" and isinstance(node, SList) and len(node.items) == 3:
        # (imply a b) == (or (not a) b)
        line = node.line
        rewritten = SList([Atom("or", line), SList([Atom("not", line), node.items[1]], line), node.items[2]], line)
        return _dnf(rewritten, negated)
    if negated:
        line = node.line
        return [[SList([Atom("not", line), node], line)]]
    return [[node]]


def _is_disjunctive(node: Node, negated: bool = False) -> bool:
    if not isinstance(node, SList):
        return False
    head = node.head()
    if head == "or" or head == "imply":
        return True
    if head == "and":
        return negated and len(node.items) > 2 or any(_is_disjunctive(i, negated) for i in node.items[1:])
    if head == "not" and len(node.items) == 2:
        return _is_disjunctive(node.items[1], not negated)
    return False


def _first_disjunction(node: Node, negated: bool = False) -> tuple[SList, str] | None:
    """The first node that makes a formula disjunctive, and how to name it in a message."""
    if not isinstance(node, SList):
        return None
    head = node.head()
    if head in ("or", "imply"):
        return node, f"'{head}'"
    if head == "and" and negated and len(node.items) > 2:
        return node, "a negated 'and'"
    if head == "not" and len(node.items) == 2:
        return _first_disjunction(node.items[1], not negated)
    if head == "and":
        for item in node.items[1:]:
            found = _first_disjunction(item, negated)
            if found:
                return found
    return None


def _unique_name(base: str, index: int, taken: set[str]) -> str:
    name = f"{base}-or{index}"
    while name in taken:
        name += "x"
    taken.add(name)
    return name


def _split_disjunctions(tree: SList, path: str | None, repairs: list[Repair], origins: dict[str, str]) -> None:
    taken = {a.items[1].text for a in _actions(tree) if isinstance(a.items[1], Atom)}
    new_items: list[Node] = []
    for item in tree.items:
        pre_at = _after_key(item, ":precondition") if isinstance(item, SList) and item.head() == ":action" else None
        if pre_at is None or not isinstance(item, SList) or not _is_disjunctive(item.items[pre_at]):
            new_items.append(item)
            continue
        name = render(item.items[1])
        clauses = _dnf(item.items[pre_at])
        if len(clauses) > MAX_SPLIT:
            raise PddlError(
                path,
                f"the precondition of action '{name}' has more than {MAX_SPLIT} cases when its 'or's are "
                "multiplied out; write it as separate actions",
                item.line,
            )
        names = [_unique_name(name, i, taken) for i in range(1, len(clauses) + 1)]
        found = _first_disjunction(item.items[pre_at])
        culprit, construct = found if found else (item.items[pre_at], "'or'")
        for new_name, clause in zip(names, clauses):
            copy = list(item.items)
            copy[1] = Atom(new_name, item.items[1].line)
            copy[pre_at] = SList([Atom("and", item.line), *clause], item.items[pre_at].line)
            new_items.append(SList(copy, item.line))
            origins[new_name] = name
        repairs.append(
            Repair(
                SPLIT_DISJUNCTION,
                f"the precondition of action '{name}' is a disjunction ({construct}), which the planner "
                f"cannot use; the action was split into {len(names)} actions, one per case: {', '.join(names)}",
                path,
                culprit.line,
            )
        )
    tree.items[:] = new_items


# ------------------------------------------------------------------ declarations


def _declare_types(
    tree: SList, path: str | None, extra: dict[str, int], repairs: list[Repair], problem_path: str | None
) -> None:
    types_node = _section(tree, ":types")
    declared = {OBJECT}
    if types_node is not None:
        declared |= {atom.text for atom, _ in _typed_entries(types_node.items[1:])}
    uses: list[tuple[str, int, str]] = []  # type, line, where it is used
    if types_node is not None:
        uses += [(t, line, "as a parent type") for t, line in _type_uses(types_node.items[1:])]
    constants = _section(tree, ":constants")
    if constants is not None:
        uses += [(t, line, "by a constant") for t, line in _type_uses(constants.items[1:])]
    predicates = _section(tree, ":predicates")
    for pred in predicates.sublists() if predicates is not None else []:
        uses += [(t, line, f"in predicate '{pred.head()}'") for t, line in _type_uses(pred.items[1:])]
    for action in _actions(tree):
        at = _after_key(action, ":parameters")
        params = action.items[at] if at is not None else None
        if isinstance(params, SList):
            uses += [(t, line, f"in action '{render(action.items[1])}'") for t, line in _type_uses(params.items)]
    uses += [(t, line, "in the problem") for t, line in extra.items()]
    added: list[str] = []
    for type_name, line, where in uses:
        if type_name in declared:
            continue
        declared.add(type_name)
        added.append(type_name)
        repairs.append(
            Repair(DECLARED_TYPE, f"type '{type_name}' is used {where} but not declared in :types; "
                   "it was declared as a subtype of object", problem_path if where == "in the problem" else path, line)
        )
    if added:
        section = _ensure_section(tree, ":types", (":constants", ":predicates", ":functions", ":action"))
        # untyped names at the end of the list are subtypes of object
        section.items += [Atom(t, section.line) for t in added]


def _break_type_cycles(tree: SList, path: str | None, repairs: list[Repair]) -> None:
    """A type that is (through its parents) its own supertype gets object as its parent."""
    section = _section(tree, ":types")
    if section is None:
        return
    entries = [(atom, types) for atom, types in _typed_entries(section.items[1:]) if atom.text != OBJECT]
    parents = {atom.text: types[0] for atom, types in entries}
    changed = False
    for atom, _ in entries:
        seen = {atom.text}
        parent = parents.get(atom.text)
        while parent is not None and parent != OBJECT and parent not in seen:
            seen.add(parent)
            parent = parents.get(parent)
        if parent == atom.text:
            repairs.append(
                Repair(BROKE_TYPE_CYCLE, f"type '{atom.text}' is declared as a subtype of itself (directly or "
                       f"through its parents); its parent was set to object", path, atom.line)
            )
            parents[atom.text] = OBJECT
            changed = True
    if changed:
        items: list[Node] = [section.items[0]]
        for atom, _ in entries:
            items += [atom, Atom("-", atom.line), Atom(parents[atom.text], atom.line)]
        section.items[:] = items


_MERGEABLE_SECTIONS = (":types", ":constants", ":predicates")


def _merge_repeated_sections(tree: SList, path: str | None, repairs: list[Repair]) -> None:
    """A declaration list written in two parts (models add predicates in a second block) becomes one."""
    first: dict[str, SList] = {}
    kept: list[Node] = []
    for item in tree.items:
        name = item.head() if isinstance(item, SList) else None
        if isinstance(item, SList) and name in _MERGEABLE_SECTIONS:
            if name in first:
                first[name].items.extend(item.items[1:])
                repairs.append(Repair(MERGED_SECTION, f"the domain has a second {name} section; its entries were "
                                      f"added to the first one", path, item.line))
                continue
            first[name] = item
        kept.append(item)
    tree.items[:] = kept


def _drop_duplicate_predicates(tree: SList, path: str | None, repairs: list[Repair]) -> None:
    section = _section(tree, ":predicates")
    if section is None:
        return
    seen: set[str] = set()
    kept: list[Node] = [section.items[0]]
    for item in section.items[1:]:
        name = item.head() if isinstance(item, SList) else None
        if name is not None and name in seen:
            repairs.append(
                Repair(DROPPED_DUPLICATE, f"predicate '{name}' is declared twice; the second declaration "
                       f"{render(item)} was dropped", path, item.line)
            )
            continue
        if name is not None:
            seen.add(name)
        kept.append(item)
    section.items[:] = kept


def _parameter_types(action: SList) -> dict[str, list[str]]:
    at = _after_key(action, ":parameters")
    params = action.items[at] if at is not None else None
    if not isinstance(params, SList):
        return {}
    return {atom.text: types for atom, types in _typed_entries(params.items)}


def _declare_predicates(
    tree: SList, path: str | None, extra: dict[str, tuple[int, int]], repairs: list[Repair], problem_path: str | None
) -> None:
    section = _section(tree, ":predicates")
    declared = {p.head() for p in section.sublists()} if section is not None else set()
    new: list[SList] = []
    uses: list[tuple[str, int, int, str]] = []
    for action in _actions(tree):
        for key in (":precondition", ":effect"):
            at = _after_key(action, key)
            if at is None:
                continue
            for literal in _literals(action.items[at]):
                name = literal.head()
                assert name is not None
                uses.append((name, len(literal.items) - 1, literal.line, f"action '{render(action.items[1])}'"))
    uses += [(name, arity, line, "the problem") for name, (arity, line) in extra.items()]
    for name, arity, line, where in uses:
        if name in declared:
            continue
        declared.add(name)
        new.append(SList([Atom(name, line), *(Atom(f"?x{i}", line) for i in range(1, arity + 1))], line))
        repairs.append(
            Repair(DECLARED_PREDICATE, f"predicate '{name}' is used in {where} but not declared in :predicates; "
                   f"it was declared with {arity} argument(s) of any type",
                   problem_path if where == "the problem" else path, line)
        )
    if new:
        section = _ensure_section(tree, ":predicates", (":functions", ":action"))
        section.items += new


def _argument_types(tree: SList) -> dict[tuple[str, int], str]:
    """(predicate, argument position) -> its declared type, where it is a single type."""
    table: dict[tuple[str, int], str] = {}
    section = _section(tree, ":predicates")
    for pred in section.sublists() if section is not None else []:
        for position, (_, types) in enumerate(_typed_entries(pred.items[1:])):
            if len(types) == 1 and pred.head() is not None:
                table[(pred.head() or "", position)] = types[0]
    return table


def _declare_constants(tree: SList, path: str | None, repairs: list[Repair]) -> None:
    section = _section(tree, ":constants")
    declared = {atom.text for atom, _ in _typed_entries(section.items[1:])} if section is not None else set()
    arg_types = _argument_types(tree)
    added: list[tuple[str, str, int]] = []
    for action in _actions(tree):
        for key in (":precondition", ":effect"):
            at = _after_key(action, key)
            for literal in _literals(action.items[at]) if at is not None else ():
                for position, arg in enumerate(literal.items[1:]):
                    if not isinstance(arg, Atom) or arg.text.startswith("?") or arg.text in declared:
                        continue
                    declared.add(arg.text)
                    type_name = arg_types.get((literal.head() or "", position), OBJECT)
                    added.append((arg.text, type_name, arg.line))
                    repairs.append(
                        Repair(DECLARED_CONSTANT, f"'{arg.text}' in action '{render(action.items[1])}' is neither a "
                               f"parameter nor a declared constant; it was declared as a constant of type "
                               f"{type_name}", path, arg.line)
                    )
    if added:
        section = _ensure_section(tree, ":constants", (":predicates", ":functions", ":action"))
        # rewritten as "name - type" pairs so that the new entries cannot join an untyped group
        pairs = [(atom.text, types, atom.line) for atom, types in _typed_entries(section.items[1:])]
        items: list[Node] = [section.items[0]]
        for name, types, line in [*pairs, *((n, [t], line) for n, t, line in added)]:
            type_node: Node = Atom(types[0], line) if len(types) == 1 else SList(
                [Atom("either", line), *(Atom(t, line) for t in types)], line
            )
            items += [Atom(name, line), Atom("-", line), type_node]
        section.items[:] = items


def repair_domain_tree(
    tree: SList,
    path: str | Path | None,
    extra_types: dict[str, int] | None = None,
    extra_predicates: dict[str, tuple[int, int]] | None = None,
    problem_path: str | Path | None = None,
) -> DomainRepairs:
    """Repair a domain tree in place; ``extra_*`` are types (-> line) and predicates (-> arity, line) that a
    problem (at ``problem_path``) uses, so that a domain and problem written together are repaired together."""
    where = str(path) if path is not None else None
    repairs: list[Repair] = []
    origins: dict[str, str] = {}
    from_problem = str(problem_path) if problem_path is not None else None
    # declarations first, so that messages name the actions as written
    _merge_repeated_sections(tree, where, repairs)
    _break_type_cycles(tree, where, repairs)
    _drop_duplicate_predicates(tree, where, repairs)
    _declare_types(tree, where, extra_types or {}, repairs, from_problem)
    _declare_predicates(tree, where, extra_predicates or {}, repairs, from_problem)
    _declare_constants(tree, where, repairs)
    _split_disjunctions(tree, where, repairs, origins)
    return DomainRepairs(tree, repairs, origins)


# ------------------------------------------------------------------ problems


def problem_uses(tree: SList) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """Object types (-> line) and predicates (-> arity, line) a problem tree uses."""
    types: dict[str, int] = {}
    objects = _section(tree, ":objects")
    for type_name, line in _type_uses(objects.items[1:]) if objects is not None else ():
        types.setdefault(type_name, line)
    predicates: dict[str, tuple[int, int]] = {}
    for name in (":init", ":goal"):
        section = _section(tree, name)
        for item in section.items[1:] if section is not None else ():
            for literal in _literals(item):
                predicates.setdefault(literal.head() or "", (len(literal.items) - 1, literal.line))
    return types, predicates


@dataclass(frozen=True)
class _Use:
    """One use of an object in ``:init``/``:goal``: the literal, its line, and the parameter types it asks for."""

    literal: SList
    line: int
    wanted: tuple[str, ...]


def _uses_by_object(tree: SList, argument_types: dict[tuple[str, int], tuple[str, ...]]) -> dict[str, list[_Use]]:
    """Object -> its uses in ``:init``/``:goal``, in file order (the first key is the first object used)."""
    uses: dict[str, list[_Use]] = {}
    for name in (":init", ":goal"):
        section = _section(tree, name)
        for item in section.items[1:] if section is not None else ():
            for literal in _literals(item):
                for position, arg in enumerate(literal.items[1:]):
                    if isinstance(arg, Atom) and not arg.text.startswith("?"):
                        wanted = argument_types.get((literal.head() or "", position), (OBJECT,))
                        uses.setdefault(arg.text, []).append(_Use(literal, arg.line, wanted))
    return uses


def _keep_one_declaration(name: str, declarations: list[tuple[str, int]], uses: list[_Use]) -> tuple[str, str]:
    """The one type an object declared more than once keeps, and the message saying so.

    Declared twice with one type, nothing is lost. With different types (a model that listed a room among the
    directions, then among the locations) the type its uses in ``:init``/``:goal`` ask for most is kept — the
    one a planner that gives the object every declared type (Fast Downward) can use it with; on a tie, the
    first declared."""
    types = list(dict.fromkeys(t for t, _ in declarations))
    if len(types) == 1:
        return types[0], f"object '{name}' is declared twice; the second declaration was dropped"
    fits = {t: sum(1 for use in uses if t in use.wanted or use.wanted == (OBJECT,)) for t in types}
    kept = max(types, key=lambda t: fits[t])  # max keeps the first of equals
    return kept, (f"object '{name}' is declared with the types {', '.join(types)}; it keeps {kept}, the type "
                  f"its uses in :init and :goal ask for")


def repair_problem_tree(
    tree: SList,
    path: str | Path | None,
    known_objects: set[str],
    argument_types: dict[tuple[str, int], tuple[str, ...]],
) -> list[Repair]:
    """Declare objects that ``:init``/``:goal`` use but ``:objects`` does not (in place).

    ``known_objects``: the domain's constants; ``argument_types``: (predicate, position) -> parameter types.
    """
    where = str(path) if path is not None else None
    objects = _section(tree, ":objects")
    repairs: list[Repair] = []
    pairs: list[tuple[str, str, int]] = []  # the declared objects, each once
    names: set[str] = set()
    again: dict[str, list[tuple[str, int]]] = {}  # object -> the types and lines of its later declarations
    for atom, types in _typed_entries(objects.items[1:]) if objects is not None else ():
        if atom.text in names:
            again.setdefault(atom.text, []).append((types[0], atom.line))
            continue
        names.add(atom.text)
        pairs.append((atom.text, types[0], atom.line))
    uses = _uses_by_object(tree, argument_types)
    for index, (name, first_type, line) in enumerate(pairs):
        if name in again:
            kept, message = _keep_one_declaration(name, [(first_type, line), *again[name]], uses.get(name, []))
            pairs[index] = (name, kept, line)
            repairs.append(Repair(DROPPED_DUPLICATE, message, where, again[name][0][1]))
    declared = set(known_objects) | names
    added: list[tuple[str, str, int]] = []
    for obj, used in uses.items():
        if obj in declared:
            continue
        # the first specific type any use asks for (an argument of a predicate the model left untyped says nothing)
        type_name = next((u.wanted[0] for u in used if len(u.wanted) == 1 and u.wanted[0] != OBJECT), OBJECT)
        first = used[0]
        added.append((obj, type_name, first.line))
        repairs.append(
            Repair(DECLARED_OBJECT, f"object '{obj}' is used in {render(first.literal)} but not declared "
                   f"in :objects; it was declared with type {type_name}", where, first.line)
        )
    if repairs:
        section = _ensure_section(tree, ":objects", (":init", ":goal"))
        items: list[Node] = [section.items[0]]
        for name, type_name, line in [*pairs, *added]:
            items += [Atom(name, line), Atom("-", line), Atom(type_name, line)]
        section.items[:] = items
    return repairs
