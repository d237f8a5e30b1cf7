"""What genplan changed on the way from a user's PDDL files to the files an external planner reads.

Fast Downward gets the task as genplan understood it, written back by :mod:`.writer`, not the user's files.
Whatever that path changes is listed here as one line each, so that a planner's verdict can be judged:
a plan is checked by genplan's validator anyway, but "unsolvable" cannot be checked that way, and after a
rewrite it has to be confirmed (``engine/planner.py``). Three sources:

- the source text: ``object`` declared among ``:types`` (left out: it is PDDL's root type);
- reading: warnings (action costs removed, ...) and the repairs of lenient mode (split disjunctions,
  declared names, ...);
- writing: the written files are read back with genplan's own parser and compared with the task they were
  written from; any difference (a type, a parameter, a precondition, an effect, an object, a fact) is a
  translation that does not say what the user's files say.
"""

from __future__ import annotations

from genplan.engine.pddl.errors import PddlError
from genplan.engine.pddl.loader import parse_domain_text, parse_problem_text
from genplan.engine.pddl.model import OBJECT, Action, Domain, Problem
from genplan.engine.pddl.sexpr import Atom, read_sexpr


def translation_rewrites(domain: Domain, problem: Problem, domain_text: str, problem_text: str) -> list[str]:
    """One line per change between the task genplan read and the written files ``domain_text`` /
    ``problem_text`` a planner is given; empty when the planner sees the user's task unchanged."""
    notes: list[str] = []
    if _declares_object(domain.source):
        notes.append("'object' declared among :types (left out of the written domain: it is PDDL's root type)")
    notes += [f"domain: {w}" for w in domain.warnings]
    notes += [f"problem: {w}" for w in problem.warnings]
    notes += [f"lenient repair: {r.message}" for r in (*domain.repairs, *problem.repairs)]
    notes += read_back_differences(domain, problem, domain_text, problem_text)
    return notes


def _declares_object(source: str) -> bool:
    """Whether ``:types`` names ``object`` as a type of its own (``(:types room object)``), not as a parent
    (``room - object``)."""
    if not source:
        return False
    try:
        tree = read_sexpr(source)
    except PddlError:
        return False
    for section in tree.sublists():
        if section.head() != ":types":
            continue
        previous = ""
        for item in section.items[1:]:
            text = item.text if isinstance(item, Atom) else ""
            if text == OBJECT and previous != "-":
                return True
            previous = text
    return False


def read_back_differences(domain: Domain, problem: Problem, domain_text: str, problem_text: str) -> list[str]:
    """The written files read back with genplan's parser, against the task they were written from."""
    try:
        written = parse_domain_text(domain_text, "written domain")
        written_problem = parse_problem_text(problem_text, written, "written problem")
    except PddlError as err:
        return [f"the written files do not read back: {err}"]
    notes: list[str] = []

    def differ(what: str, ours: object, theirs: object) -> None:
        if ours != theirs:
            notes.append(f"the written {what} differs (read {_short(ours)}, written {_short(theirs)})")

    differ("type hierarchy", _hierarchy(domain), _hierarchy(written))
    differ("constants", dict(domain.constants), dict(written.constants))
    for name in sorted(set(domain.predicates) | set(written.predicates)):
        ours_p, theirs_p = domain.predicates.get(name), written.predicates.get(name)
        differ(
            f"predicate {name}",
            None if ours_p is None else tuple(frozenset(p.types) for p in ours_p.parameters),
            None if theirs_p is None else tuple(frozenset(p.types) for p in theirs_p.parameters),
        )
    for name in sorted(set(domain.actions) | set(written.actions)):
        ours_a, theirs_a = domain.actions.get(name), written.actions.get(name)
        if ours_a is None or theirs_a is None:
            differ(f"action {name}", ours_a is not None, theirs_a is not None)
            continue
        for part, ours_v, theirs_v in _action_parts(ours_a, theirs_a):
            differ(f"{part} of action {name}", ours_v, theirs_v)
    differ("objects", dict(problem.objects), dict(written_problem.objects))
    differ("initial state", frozenset(problem.init), frozenset(written_problem.init))
    differ("goal", (frozenset(problem.goal_pos), frozenset(problem.goal_neg)),
           (frozenset(written_problem.goal_pos), frozenset(written_problem.goal_neg)))
    differ("compound goal", problem.goal_conditions, written_problem.goal_conditions)
    differ("cost values", problem.function_values, written_problem.function_values)
    return notes


def _hierarchy(domain: Domain) -> dict[str, tuple[str, ...]]:
    return {t: domain.ancestors(t) for t in domain.type_parents if t != OBJECT}


def _parameters(action: Action) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((p.name, frozenset(p.types)) for p in action.parameters)


def _action_parts(ours: Action, theirs: Action) -> list[tuple[str, object, object]]:
    return [
        ("parameters", _parameters(ours), _parameters(theirs)),
        ("precondition", frozenset(ours.preconditions), frozenset(theirs.preconditions)),
        ("add effects", frozenset(ours.add_effects), frozenset(theirs.add_effects)),
        ("delete effects", frozenset(ours.del_effects), frozenset(theirs.del_effects)),
        ("compound preconditions", ours.conditions, theirs.conditions),
        ("conditional effects", ours.conditional_effects, theirs.conditional_effects),
        ("cost", ours.cost, theirs.cost),
    ]


def _short(value: object, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
