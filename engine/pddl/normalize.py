"""Rewrite a PDDL tree into the form the `pddl` package accepts, and refuse what genplan does not support.

Real benchmark files are sloppy (types without ``:typing``, ``not`` without ``:negative-preconditions``,
``forall`` without ``:universal-preconditions``, actions without ``:precondition``). VAL and Fast Downward
accept them, so we do too: the rewrite adds the requirement flags the package insists on. Action costs are
kept in the model (read by the loader from the original tree); only the package's copy goes without them.
"""

from __future__ import annotations

from pathlib import Path

from genplan.engine.pddl.errors import UnsupportedPddlError
from genplan.engine.pddl.lenient import undeclared_parent_types
from genplan.engine.pddl.sexpr import Atom, Node, SList

# construct -> what to tell the user
_UNSUPPORTED_CONSTRUCTS = {
    "increase": "numeric effects ('increase')",
    "decrease": "numeric effects ('decrease')",
    "assign": "numeric effects ('assign')",
    "scale-up": "numeric effects ('scale-up')",
    "scale-down": "numeric effects ('scale-down')",
    ":durative-action": "durative actions",
    ":derived": "derived predicates",
    ":functions": "numeric fluents (':functions')",
    ":metric": "plan metrics (':metric')",
    ":constraints": "constraints",
    "preference": "preferences ('preference')",
    ">": "numeric comparisons ('>')",
    "<": "numeric comparisons ('<')",
    ">=": "numeric comparisons ('>=')",
    "<=": "numeric comparisons ('<=')",
}
_UNSUPPORTED_REQUIREMENTS = {
    ":durative-actions": "durative actions",
    ":numeric-fluents": "numeric fluents",
    ":fluents": "numeric fluents",
    ":derived-predicates": "derived predicates",
    ":timed-initial-literals": "timed initial literals",
    ":preferences": "preferences",
    ":constraints": "constraints",
    ":object-fluents": "object fluents",
}
_WHAT_TO_DO = (
    "genplan supports STRIPS with :typing, :negative-preconditions and :equality, and the ADL subset "
    "(when, forall, exists, or, imply, either, :action-costs); "
    "compile the construct away (or pick another version of the domain) and try again"
)


def refuse(path: str | Path | None, construct: str, line: int) -> UnsupportedPddlError:
    return UnsupportedPddlError(path, f"unsupported PDDL construct: {construct}. {_WHAT_TO_DO}", line)


def conditional_cost(inside: str, action: str) -> str:
    """The refused construct: an action cost inside ``when`` or ``forall`` (costs depending on the state)."""
    where = f" of action '{action}'" if action else ""
    return (f"an action cost inside '{inside}'{where} (genplan reads '(increase (total-cost) ...)' only as an "
            "unconditional effect of an action)")


def is_total_cost(node: Node) -> bool:
    return isinstance(node, SList) and node.head() == "total-cost"


def is_cost_effect(node: Node) -> bool:
    """``(increase (total-cost) ...)``: the only numeric effect we accept (and drop)."""
    return (
        isinstance(node, SList)
        and node.head() == "increase"
        and len(node.items) == 3
        and is_total_cost(node.items[1])
    )


def is_cost_init(node: Node) -> bool:
    """``(= (total-cost) 0)`` or a cost function's value ``(= (road-length a b) 7)`` in :init."""
    return (
        isinstance(node, SList)
        and node.head() == "="
        and len(node.items) == 3
        and isinstance(node.items[1], SList)
        and all(isinstance(i, Atom) for i in node.items[1].items)
        and isinstance(node.items[2], Atom)
        and _is_number(node.items[2].text)
    )


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_cost_metric(node: SList) -> bool:
    """``(:metric minimize (total-cost))``: the only metric we accept (and drop)."""
    return len(node.items) == 3 and is_total_cost(node.items[2])


def _is_timed_literal(node: Node) -> bool:
    """``(at 10 (road a b))`` in :init."""
    return (
        isinstance(node, SList)
        and node.head() == "at"
        and len(node.items) == 3
        and isinstance(node.items[1], Atom)
        and node.items[1].text.replace(".", "", 1).isdigit()
        and isinstance(node.items[2], SList)
    )


def is_cost_functions(node: SList) -> bool:
    """``(:functions (total-cost) (road-length ?a ?b - place) - number)``: numbers only, used (the loader
    checks) only as action costs."""
    items = node.items[1:]
    for i, item in enumerate(items):
        if isinstance(item, Atom) and item.text == "-":
            nxt = items[i + 1] if i + 1 < len(items) else None
            if not (isinstance(nxt, Atom) and nxt.text == "number"):
                return False
    return node.head() == ":functions" and all(
        isinstance(i, SList) or (isinstance(i, Atom) and i.text in ("-", "number")) for i in items
    )


def strip_object_type(items: list[Node]) -> list[Node]:
    """Drop ``- object`` from a typed list: untyped means object, and pddl 0.5.1 refuses the explicit form.

    Untyped names can only stand at the end of a list (before a ``- type`` they would join its group), so
    the names of ``- object`` groups move there: ``a - object b - t`` becomes ``b - t a``. Only the `pddl`
    package sees this rewrite, and it uses no positions from these lists (parameters are read by name).
    """
    typed: list[Node] = []
    untyped: list[Node] = []
    pending: list[Node] = []
    i = 0
    while i < len(items):
        item = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        if isinstance(item, Atom) and item.text == "-" and nxt is not None:
            if isinstance(nxt, Atom) and nxt.text == "object":
                untyped += pending
            else:
                typed += [*pending, item, nxt]
            pending = []
            i += 2
            continue
        pending.append(item)
        i += 1
    return typed + untyped + pending


class Normalizer:
    """Walks one file's tree once: checks support, collects what the rewrite needs, returns the new tree."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = path
        self.warnings: list[str] = []
        self.uses_not = False
        self.uses_equality = False
        self.had_costs = False
        self.used: set[str] = set()  # ADL constructs the file uses (for the package's requirement flags)
        self.cost_functions: set[str] = set()  # functions used as action costs: (increase (total-cost) (f ...))
        self.action = ""  # the action being checked (for messages)

    def check_unsupported(self, node: Node, inside: str | None = None) -> None:
        """``inside``: the innermost ``when``/``forall`` around ``node`` (action costs are refused there)."""
        if isinstance(node, Atom):
            return
        head = node.head()
        if head == ":action" and len(node.items) > 1 and isinstance(node.items[1], Atom):
            self.action = node.items[1].text
        if head in _UNSUPPORTED_CONSTRUCTS:
            cost_part = is_cost_effect(node) or (head == ":functions" and is_cost_functions(node))
            if is_cost_effect(node) and inside is not None:
                raise refuse(self.path, conditional_cost(inside, self.action), node.line)
            if cost_part or (head == ":metric" and _is_cost_metric(node)):
                self.had_costs = True
            elif head == ":metric":
                raise refuse(self.path, "plan metrics other than '(total-cost)' (':metric')", node.line)
            else:
                raise refuse(self.path, _UNSUPPORTED_CONSTRUCTS[head], node.line)
        if head == ":requirements":
            for req in node.items[1:]:
                if isinstance(req, Atom) and req.text in _UNSUPPORTED_REQUIREMENTS:
                    raise refuse(self.path, _UNSUPPORTED_REQUIREMENTS[req.text], req.line)
        if head == "not":
            self.uses_not = True
        if head in ("when", "forall", "exists", "or", "imply"):
            self.used.add(head)
        if head == "either":
            self.used.add(head)
        if head == "=" and not is_cost_init(node):
            if any(isinstance(item, SList) for item in node.items[1:]):
                raise refuse(self.path, "numeric fluents (a function term in '=')", node.line)
            self.uses_equality = True
        if head == ":init":
            for fact in node.items[1:]:
                if _is_timed_literal(fact):
                    raise refuse(self.path, "timed initial literals ('(at TIME ...)' in :init)", fact.line)
                if is_cost_init(fact):
                    self.had_costs = True
            items = [f for f in node.items[1:] if not is_cost_init(f)]
            for item in items:
                self.check_unsupported(item)
            return
        if head == ":functions" and is_cost_functions(node):
            declared = {i.head() for i in node.items[1:] if isinstance(i, SList)}
            if declared <= self.cost_functions | {"total-cost"}:
                return
            raise refuse(self.path, _UNSUPPORTED_CONSTRUCTS[":functions"], node.line)
        for item in node.items:
            self.check_unsupported(item, head if head in ("when", "forall") else inside)

    def requirements(self, declared: list[str], typed: bool) -> list[str]:
        keep = [r for r in declared if r not in (":action-costs",)]
        if ":action-costs" in declared:
            self.had_costs = True
        implied: dict[str, bool] = {
            ":strips": True,
            ":typing": typed,
            ":negative-preconditions": self.uses_not,
            ":equality": self.uses_equality,
            ":disjunctive-preconditions": bool(self.used & {"or", "imply"}),
            ":universal-preconditions": "forall" in self.used,
            ":existential-preconditions": "exists" in self.used,
            ":conditional-effects": "when" in self.used,
        }
        # :adl and friends imply what we need but the package checks the individual flags.
        for flag, needed in implied.items():
            if needed and flag not in keep:
                keep.append(flag)
        # Flags for features we refuse when used are harmless when unused; the package does not know all.
        return [r for r in keep if r in implied]

    def finish_warnings(self) -> None:
        """Nothing to warn about any more: action costs are kept (plans report their cost)."""


def drop_cost_parts(node: SList) -> SList:
    """A copy without total-cost effects, cost functions, metric and cost initialisation (for the package;
    the loader reads the costs from the original tree)."""
    items: list[Node] = []
    for item in node.items:
        if isinstance(item, SList):
            if is_cost_effect(item) or is_cost_init(item) or item.head() == ":metric":
                continue
            if item.head() == ":functions" and is_cost_functions(item):
                continue
            item = drop_cost_parts(item)
        items.append(item)
    return SList(items, node.line)


def _cost_function_uses(node: Node) -> set[str]:
    if not isinstance(node, SList):
        return set()
    if is_cost_effect(node) and isinstance(node.items[2], SList) and node.items[2].head():
        return {node.items[2].head() or ""}
    return set().union(*(_cost_function_uses(item) for item in node.items))


def normalize_domain(tree: SList, path: str | Path | None) -> tuple[SList, list[str]]:
    norm = Normalizer(path)
    norm.cost_functions = _cost_function_uses(tree)
    norm.check_unsupported(tree)
    tree = drop_cost_parts(tree)
    sections: list[Node] = []
    declared: list[str] = []
    typed = False
    for item in tree.items:
        if isinstance(item, SList) and item.head() == ":requirements":
            declared = [r.text for r in item.items[1:] if isinstance(r, Atom)]
            continue
        if isinstance(item, SList) and item.head() == ":types":
            typed = True
        sections.append(item)
    typed = typed or _has_typed_list(tree)
    new_items: list[Node] = []
    for item in sections:
        if isinstance(item, SList):
            item = _normalize_section(item)
            if item.head() == ":types":
                item = _declare_parent_types(item, norm.warnings)
        new_items.append(item)
    reqs = norm.requirements(declared, typed)
    norm.finish_warnings()
    # The package's grammar wants the sections in the order of the PDDL BNF; VAL and Fast Downward take any
    # order (types after the predicates that use them, say). A stable sort keeps the actions' order.
    head, sections_only = new_items[:2], new_items[2:]
    sections_only.sort(key=_section_rank)
    # requirements go right after (domain NAME)
    req_node = SList([Atom(":requirements", tree.line), *(Atom(r, tree.line) for r in reqs)], tree.line)
    return SList([*head, req_node, *sections_only], tree.line), norm.warnings


_SECTION_ORDER = {":types": 0, ":constants": 1, ":predicates": 2, ":functions": 3}


def _section_rank(node: Node) -> int:
    head = node.head() if isinstance(node, SList) else None
    return _SECTION_ORDER.get(head or "", len(_SECTION_ORDER))


def normalize_problem(tree: SList, path: str | Path | None) -> tuple[SList, list[str]]:
    norm = Normalizer(path)
    norm.check_unsupported(tree)
    tree = drop_cost_parts(tree)
    items: list[Node] = []
    for item in tree.items:
        if isinstance(item, SList) and item.head() == ":requirements":
            continue  # the domain's requirements are what counts
        if isinstance(item, SList) and item.head() == ":objects":
            item = SList([item.items[0], *strip_object_type(item.items[1:])], item.line)
        if isinstance(item, SList) and item.head() == ":goal":
            item = _quantifiers_without_object(item)
        items.append(item)
    norm.finish_warnings()
    return SList(items, tree.line), norm.warnings


def _has_typed_list(node: Node) -> bool:
    if isinstance(node, Atom):
        return False
    if any(isinstance(i, Atom) and i.text == "-" for i in node.items) and node.head() != "-":
        return True
    return any(_has_typed_list(i) for i in node.items if isinstance(i, SList))


def _without_object(items: list[Node]) -> list[Node]:
    """``(:types room object robot)``: declaring the root type is legal (VAL and Fast Downward accept it) but
    pddl 0.5.1 refuses ``object`` as a name; the root exists anyway, so the declaration is dropped."""
    out: list[Node] = []
    for i, item in enumerate(items):
        declared_here = isinstance(item, Atom) and item.text == "object"
        after_dash = i > 0 and isinstance(items[i - 1], Atom) and items[i - 1].text == "-"  # type: ignore[union-attr]
        if declared_here and not after_dash:
            continue
        out.append(item)
    return out


def _each_type_once(items: list[Node]) -> list[Node]:
    """``(:types area - object ... area - surface)`` (IPC storage): a type listed under a second parent is legal
    for VAL and Fast Downward but pddl 0.5.1 refuses the repeated name, so the package sees each type once (the
    loader keeps every parent: ``Domain.more_parents``, and warns)."""
    out: list[Node] = []
    seen: set[str] = set()
    group: list[Node] = []
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Atom) and item.text == "-" and i + 1 < len(items):
            if group:
                out += [*group, item, items[i + 1]]
            group = []
            i += 2
            continue
        if not (isinstance(item, Atom) and item.text in seen):
            group.append(item)
            if isinstance(item, Atom):
                seen.add(item.text)
        i += 1
    return out + group


def _declare_parent_types(section: SList, warnings: list[str]) -> SList:
    """``(:types truck - vehicle)`` with ``vehicle`` declared nowhere: VAL and Fast Downward take such a parent
    as a subtype of object; pddl 0.5.1 refuses it, so the declaration is added, and said (often a typo)."""
    added = undeclared_parent_types(section.items[1:])
    for parent in added:
        warnings.append(f"line {parent.line}: type '{parent.text}' is used as a parent type but not declared; "
                        "read as a subtype of object, as VAL and Fast Downward do")
    # untyped names at the end of a typed list are subtypes of object
    return SList([*section.items, *added], section.line) if added else section


def _normalize_section(section: SList) -> SList:
    head = section.head()
    if head in (":predicates",):
        preds = [
            SList([p.items[0], *strip_object_type(p.items[1:])], p.line) if isinstance(p, SList) else p
            for p in section.items[1:]
        ]
        return SList([section.items[0], *preds], section.line)
    if head == ":constants":
        return SList([section.items[0], *strip_object_type(section.items[1:])], section.line)
    if head == ":types":
        items = _each_type_once(_without_object(strip_object_type(section.items[1:])))
        return SList([section.items[0], *items], section.line)
    if head == ":action":
        return _normalize_action(section)
    return section


def _quantifiers_without_object(node: SList) -> SList:
    """``(forall (?o - object ?p - place) ...)``: the variable lists of forall/exists go through
    :func:`strip_object_type` too (pddl 0.5.1 refuses ``- object`` there as everywhere)."""
    items = [_quantifiers_without_object(i) if isinstance(i, SList) else i for i in node.items]
    if node.head() in ("forall", "exists") and len(items) > 1 and isinstance(items[1], SList):
        items[1] = SList(strip_object_type(items[1].items), items[1].line)
    return SList(items, node.line)


def _normalize_action(action: SList) -> SList:
    items = list(action.items)
    keys = [i.text for i in items if isinstance(i, Atom)]
    out: list[Node] = []
    for i, item in enumerate(items):
        previous = items[i - 1] if i else None
        if isinstance(item, SList) and isinstance(previous, Atom):
            if previous.text == ":parameters":
                item = SList(strip_object_type(item.items), item.line)
            elif previous.text in (":precondition", ":effect") and not item.items:
                # "()" is legal PDDL for "nothing" but crashes pddl 0.5.1
                item = SList([Atom("and", item.line)], item.line)
            elif previous.text in (":precondition", ":effect"):
                item = _quantifiers_without_object(item)
        out.append(item)
    # pddl 0.5.1 raises a TypeError on actions without a precondition or effect
    if ":parameters" not in keys:
        out[2:2] = [Atom(":parameters", action.line), SList([], action.line)]
    if ":precondition" not in keys:
        # the package's grammar wants :precondition before :effect
        at = next((i for i, item in enumerate(out) if isinstance(item, Atom) and item.text == ":effect"), len(out))
        out[at:at] = [Atom(":precondition", action.line), SList([Atom("and", action.line)], action.line)]
    if ":effect" not in keys:
        out += [Atom(":effect", action.line), SList([Atom("and", action.line)], action.line)]
    return SList(out, action.line)
