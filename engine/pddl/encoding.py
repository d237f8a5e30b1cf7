"""The Python encoding of a task, as generated programs receive it, and its renderings for prompts.

``objects`` is a set of names (untyped domains, or when a domain's ``typed_objects`` setting is off) or of
``(name, type)`` tuples; ``init`` and ``goal`` are sets of fact tuples such as ``('at', 'c0', 'l1')``.
We keep them as ordered lists here so that prompts show a stable, chosen order; the sandbox turns them
into sets. Negative goal literals (rare; none in the paper's domains) are encoded as ``('not', fact)``.

ADL goals (docs/pddl.md): a compound goal condition is one nested tuple in ``goal``, named by its PDDL keyword:
``('forall', (('?p', 'portable'),), ('not', ('in', '?p')))``, ``('exists', ((var, type), ...), C)``,
``('or', C1, C2, ...)``, ``('and', ...)``, ``('imply', C1, C2)``, ``('not', C)``; a variable with an
``either`` type has the tuple of its types. Its atoms are fact tuples whose arguments may be ``?variables``.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from genplan.engine.pddl.model import Condition, Domain, Implication, Junction, Literal, Negation, Problem, Quantified

ObjectItem = str | tuple[str, str]


@dataclass(frozen=True)
class PythonTask:
    objects: list[ObjectItem]
    init: list[tuple[str, ...]]
    goal: list[Any]

    def as_sets(self) -> tuple[set[Any], set[Any], set[Any]]:
        return set(self.objects), set(self.init), set(self.goal)

    def to_dict(self) -> dict[str, list[Any]]:
        return {"objects": list(self.objects), "init": list(self.init), "goal": list(self.goal)}


def encode_task(problem: Problem, typed: bool, domain: Domain | None = None) -> PythonTask:
    """File order; the domain's constants come first when a domain is given (programs need them too)."""
    pairs = list(domain.constants) if domain is not None else []
    pairs += problem.objects
    objects: list[ObjectItem] = [(n, t) for n, t in pairs] if typed else [n for n, _ in pairs]
    goal: list[Any] = list(problem.goal_pos) + [("not", f) for f in problem.goal_neg]
    goal += [condition_tuple(c) for c in problem.goal_conditions]
    return PythonTask(objects=objects, init=list(problem.init), goal=goal)


def condition_tuple(condition: Condition) -> tuple[Any, ...]:
    """An ADL condition as the nested tuple programs receive (module docstring)."""
    if isinstance(condition, Literal):
        atom = (condition.predicate, *condition.args)
        return atom if condition.positive else ("not", atom)
    if isinstance(condition, Junction):
        return (condition.kind, *(condition_tuple(p) for p in condition.parts))
    if isinstance(condition, Negation):
        return ("not", condition_tuple(condition.part))
    if isinstance(condition, Implication):
        return ("imply", condition_tuple(condition.antecedent), condition_tuple(condition.consequent))
    assert isinstance(condition, Quantified)
    variables = tuple((v.name, v.types[0] if len(v.types) == 1 else v.types) for v in condition.variables)
    return (condition.kind, variables, condition_tuple(condition.body))


def shuffled_task(task: PythonTask, seed: int) -> PythonTask:
    """The same task with objects, init and goal in a seeded random order (reproducible)."""
    rng = random.Random(seed)
    objects, init, goal = list(task.objects), list(task.init), list(task.goal)
    rng.shuffle(objects)
    rng.shuffle(init)
    rng.shuffle(goal)
    return PythonTask(objects, init, goal)


def _distinct_orders(items: list[Any], n: int, rng: random.Random) -> list[list[Any]]:
    """Up to ``n`` distinct shuffles of ``items`` in at most 3n draws, padded to ``n`` by drawing among those
    found (agents/validator_feedback_gen.py, get_randomized_inputs, of the reference code)."""
    found: list[list[Any]] = []
    for _ in range(3 * n):
        order = list(items)
        rng.shuffle(order)
        if order not in found:
            found.append(order)
        if len(found) == n:
            break
    if len(found) < n:
        missing = n - len(found)
        extra = rng.sample(found, k=missing) if missing <= len(found) else rng.choices(found, k=missing)
        rng.shuffle(extra)
        found.extend(extra)
    return found


def reference_orderings(task: PythonTask, n: int, seed: int | str) -> list[PythonTask]:
    """The ``n`` input orderings the reference code builds for a task (objects, init and goal shuffled
    independently, each kept in its order as an ordered set), seeded here so that they are reproducible."""
    rng = random.Random(seed)
    objects = _distinct_orders(list(task.objects), n, rng)
    init = _distinct_orders(list(task.init), n, rng)
    goal = _distinct_orders(list(task.goal), n, rng)
    return [PythonTask(objects[i], init[i], goal[i]) for i in range(n)]


def _render_items(items: list[Any]) -> str:
    return "{" + ", ".join(repr(i) for i in items) + "}" if items else "set()"


def render_task(task: PythonTask) -> str:
    """``objects = {...}`` / ``init = {...}`` / ``goal = {...}`` in the task's order."""
    return "\n".join(
        [
            f"objects = {_render_items(task.objects)}",
            f"init = {_render_items(task.init)}",
            f"goal = {_render_items(task.goal)}",
        ]
    )


def _abbreviate(items: list[Any], key: Callable[[Any], Any], limit: int) -> list[Any]:
    """Keep at most `limit` items per group (type or predicate), marking each cut with an Ellipsis."""
    groups: OrderedDict[Any, list[Any]] = OrderedDict()
    for item in items:
        groups.setdefault(key(item), []).append(item)
    out: list[Any] = []
    for members in groups.values():
        out += members[:limit]
        if len(members) > limit:
            out.append(Ellipsis)
    return out


def _object_group(item: ObjectItem) -> str:
    return item[1] if isinstance(item, tuple) else ""


def render_task_abbreviated(task: PythonTask, limit: int = 10) -> str:
    """Silver et al.'s abbreviation: at most `limit` objects per type and init facts per predicate, then ``...``."""

    def show(items: list[Any]) -> str:
        return "{" + ", ".join("..." if i is Ellipsis else repr(i) for i in items) + "}" if items else "set()"

    objects = _abbreviate(task.objects, _object_group, limit)
    init = _abbreviate(task.init, lambda f: f[0], limit)
    return "\n".join([f"objects = {show(objects)}", f"init = {show(init)}", f"goal = {show(list(task.goal))}"])


def render_problem_abbreviated(problem: Problem, limit: int = 10) -> str:
    """The PDDL problem with at most `limit` objects per type and init atoms per predicate (Silver et al.)."""
    lines = [f"(define (problem {problem.name})", f"  (:domain {problem.domain_name})", "  (:objects"]
    by_type: OrderedDict[str, list[str]] = OrderedDict()
    for name, typ in problem.objects:
        by_type.setdefault(typ, []).append(name)
    for typ, names in by_type.items():
        shown = names[:limit] + (["..."] if len(names) > limit else [])
        suffix = "" if typ == "object" else f" - {typ}"
        lines.append("    " + " ".join(shown) + suffix)
    lines.append("  )")
    lines.append("  (:init")
    for fact in _abbreviate(problem.init, lambda f: f[0], limit):
        lines.append("    ..." if fact is Ellipsis else "    (" + " ".join(fact) + ")")
    lines.append("  )")
    goal = ["(" + " ".join(f) + ")" for f in problem.goal_pos]
    goal += ["(not (" + " ".join(f) + "))" for f in problem.goal_neg]
    lines.append("  (:goal (and " + " ".join(goal) + "))")
    lines.append(")")
    return "\n".join(lines)
