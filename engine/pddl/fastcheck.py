"""Is a plan valid? Answered by Python functions compiled from the domain's actions (most plans are valid).

For every action we generate the source of one small function ``op(args)`` that checks the argument types,
the static and equality preconditions (against the task's static facts, which never change), the fluent
preconditions, and then applies the effects (deletes, then adds). The state is kept per predicate, one set
per fluent predicate: a unary fact is its bare argument, a nullary fact the member ``0``, longer ones the
tuple of their arguments, so most checks hash a name instead of building a tuple. A plan step costs one
dictionary lookup and one call. The source is generated from names only through ``repr``, so no PDDL text
can become code; it is compiled once per domain and bound to each task's facts.

Anything unusual (a malformed, unknown or inapplicable step, a missed goal) answers False; the validator
then runs its step-by-step validation, which explains the failure. Both give the same verdicts
(tests/test_validate_fast.py compares them on the benchmark plans and on mutated plans).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

from .model import Action, Domain, Fact, Task
from .plans import PlanStep, parse_action

Op = Callable[[tuple[str, ...]], bool]


def fact_key(arguments: Sequence[str]) -> Hashable:
    """How a fact with these arguments is stored in its predicate's set (see the module docstring)."""
    if not arguments:
        return 0
    return arguments[0] if len(arguments) == 1 else tuple(arguments)


class CompiledDomain:
    """The generated functions of a domain's actions; :meth:`bind` makes a checker for one task."""

    def __init__(self, domain: Domain, statics: frozenset[str]) -> None:
        self.domain = domain
        self.statics = statics
        self.actions = list(domain.actions.values())
        # the fluent predicates, each with its set F<i> (predicates used in actions but never declared too)
        used = [lit.predicate for a in self.actions for lit in (*a.preconditions, *a.add_effects, *a.del_effects)]
        self.fluents: dict[str, int] = {}
        for name in [*domain.predicates, *used]:
            if name not in statics and name != "=" and name not in self.fluents:
                self.fluents[name] = len(self.fluents)
        sources = [self._action_source(i, action) for i, action in enumerate(self.actions)]
        parameters = ["S"] + [f"T{i}_{k}" for i, a in enumerate(self.actions) for k in range(a.arity)]
        parameters += [f"OK{i}" for i in range(len(self.actions))]
        parameters += [f"F{i}" for i in range(len(self.fluents))]
        body = "\n".join("    " + line for source in sources for line in source.splitlines())
        returns = ", ".join(f"op_{i}" for i in range(len(self.actions)))
        trailing_comma = "," if len(self.actions) == 1 else ""
        factory = f"def factory({', '.join(parameters)}):\n{body or '    pass'}\n    return ({returns}{trailing_comma})\n"
        namespace: dict[str, Any] = {}
        exec(compile(factory, f"<genplan ops of {domain.name}>", "exec"), {"__builtins__": {}}, namespace)  # noqa: S102 - generated from repr'd names only
        self._factory: Callable[..., tuple[Op, ...]] = namespace["factory"]

    def _action_source(self, index: int, action: Action) -> str:
        """``def op_<index>(args)`` for one action. ``T<i>_<k>`` are the objects parameter k allows, ``S`` the
        static facts, ``OK<i>`` the argument tuples whose types and static preconditions already passed (they
        never change within a task, so each distinct step is checked against them once), ``F<j>`` the state
        of fluent predicate j."""
        names = {p.name: f"a{k}" for k, p in enumerate(action.parameters)}

        def term(arg: str) -> str:
            return names.get(arg, repr(arg))

        def full_fact(predicate: str, arguments: tuple[str, ...]) -> str:
            parts = [repr(predicate), *(term(a) for a in arguments)]
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

        def key(arguments: tuple[str, ...]) -> str:
            if not arguments:
                return "0"
            if len(arguments) == 1:
                return term(arguments[0])
            return "(" + ", ".join(term(a) for a in arguments) + ")"

        def state(predicate: str) -> str:
            return f"F{self.fluents[predicate]}"

        unpack = f"    ({', '.join(names.values())}{',' if len(names) == 1 else ''}) = args" if names else "    () = args"
        lines = [f"def op_{index}(args):", unpack, f"    if args not in OK{index}:"]
        once = [f"        if a{k} not in T{index}_{k}: return False" for k in range(len(action.parameters))]
        fluent: list[str] = []
        for lit in action.preconditions:
            if lit.predicate == "=":
                left, right = (term(a) for a in lit.args)
                once.append(f"        if {left} {'!=' if lit.positive else '=='} {right}: return False")
            elif lit.predicate in self.statics:
                test = "not in" if lit.positive else "in"
                once.append(f"        if {full_fact(lit.predicate, lit.args)} {test} S: return False")
            else:
                test = "not in" if lit.positive else "in"
                fluent.append(f"    if {key(lit.args)} {test} {state(lit.predicate)}: return False")
        lines += [*once, f"        OK{index}.add(args)", *fluent]
        lines += [f"    {state(lit.predicate)}.discard({key(lit.args)})" for lit in action.del_effects]
        lines += [f"    {state(lit.predicate)}.add({key(lit.args)})" for lit in action.add_effects]
        lines.append("    return True")
        return "\n".join(lines)

    def bind(self, task: Task) -> FastCheck:
        return FastCheck(self, task)


class FastCheck:
    """The verdict (valid or not) of plans for one task."""

    def __init__(self, compiled: CompiledDomain, task: Task) -> None:
        domain, statics = compiled.domain, compiled.statics
        init = task.problem.init
        static_facts = frozenset(f for f in init if f[0] in statics)
        object_types = task.object_types
        by_type: dict[str, list[str]] = {}
        for name, type_name in object_types.items():
            by_type.setdefault(type_name, []).append(name)
        allowed: dict[tuple[str, ...], frozenset[str]] = {("object",): frozenset(object_types)}
        sets: list[frozenset[str]] = []
        for action in compiled.actions:
            for param in action.parameters:
                if param.types not in allowed:
                    allowed[param.types] = frozenset(
                        name
                        for type_name, names in by_type.items()
                        if domain.is_subtype(type_name, param.types)
                        for name in names
                    )
                sets.append(allowed[param.types])
        # the state, one set per fluent predicate (also those only the task mentions), and its initial content
        self._state: dict[str, set[Hashable]] = {name: set() for name in compiled.fluents}
        initial: dict[str, set[Hashable]] = {}
        for f in init:
            if f[0] not in statics:
                initial.setdefault(f[0], set()).add(fact_key(f[1:]))
                self._state.setdefault(f[0], set())
        self._initial = [(self._state[name], frozenset(keys)) for name, keys in initial.items()]
        self._goals = self._grouped(task.problem.goal_pos, statics)
        self._goals_negated = self._grouped(task.problem.goal_neg, statics)
        functions = compiled._factory(
            static_facts, *sets, *(set() for _ in compiled.actions), *(self._state[name] for name in compiled.fluents)
        )
        self.ops: dict[str, Op] = {action.name: function for action, function in zip(compiled.actions, functions)}
        goal_pos, goal_neg = task.problem.goal_pos, task.problem.goal_neg
        self.static_goal_holds = all(f in static_facts for f in goal_pos if f[0] in statics) and not any(
            f in static_facts for f in goal_neg if f[0] in statics
        )
        self._parsed: dict[str, PlanStep] = {}
        self._lock = threading.Lock()  # the state sets are shared by the ops: one plan at a time

    def _grouped(self, facts: Sequence[Fact] | frozenset[Fact],
                 statics: frozenset[str]) -> list[tuple[set[Hashable], frozenset[Hashable]]]:
        """Goal facts as (the state set of their predicate, their keys)."""
        grouped: dict[str, set[Hashable]] = {}
        for f in facts:
            if f[0] not in statics:
                grouped.setdefault(f[0], set()).add(fact_key(f[1:]))
                self._state.setdefault(f[0], set())
        return [(self._state[name], frozenset(keys)) for name, keys in grouped.items()]

    def valid(self, plan: Sequence[str] | Sequence[PlanStep]) -> bool:
        if not self.static_goal_holds:
            return False
        # strings are parsed (once per distinct string); a list mixing both is left to the detailed path
        steps = cast("Sequence[PlanStep]", plan) if not plan or isinstance(plan[0], PlanStep) else self._parse(plan)
        get = self.ops.get
        with self._lock:
            for current in self._state.values():
                current.clear()
            for current, keys in self._initial:
                current.update(keys)
            try:
                for step in steps:
                    # an unknown action (None) is a TypeError, a wrong number of arguments a ValueError
                    if step.problem is not None or not get(step.name)(step.args):  # type: ignore[arg-type, misc]
                        return False
            except (TypeError, ValueError, AttributeError):
                return False
            return all(keys <= current for current, keys in self._goals) and all(
                current.isdisjoint(keys) for current, keys in self._goals_negated
            )

    def _parse(self, plan: Sequence[Any]) -> list[PlanStep]:
        parsed = self._parsed
        steps = []
        for text in plan:
            if not isinstance(text, str):
                steps.append(text)
                continue
            step = parsed.get(text)
            if step is None:
                step = parsed[text] = parse_action(text)
            steps.append(step)
        return steps
