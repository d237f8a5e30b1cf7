"""Is a plan valid? Answered by Python functions compiled from the domain's actions (most plans are valid).

For every action we generate the source of one small function ``op(state, a0, a1, ...)`` that checks the
argument types, the static and equality preconditions (against the task's static facts, which never
change), the fluent preconditions, and then applies the effects to ``state`` (deletes, then adds). A plan
step costs one dictionary lookup and one call. The source is generated from names only through ``repr``,
so no PDDL text can become code; it is compiled once per domain and bound to each task's facts.

Anything unusual (a malformed, unknown or inapplicable step, a missed goal) answers False; the validator
then runs its step-by-step validation, which explains the failure. Both give the same verdicts
(tests/test_validate_fast.py compares them on the benchmark plans and on mutated plans).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from .model import Action, Domain, Fact, Task
from .plans import PlanStep, parse_action

Op = Callable[..., bool]


def _action_source(index: int, action: Action, statics: frozenset[str]) -> str:
    """``def op_<index>(state, args)`` for one action. ``T<i>_<k>`` are the objects parameter k allows, ``S``
    the static facts, ``OK<i>`` the argument tuples whose types and static preconditions already passed
    (they never change within a task, so each distinct step is checked against them once)."""
    names = {p.name: f"a{k}" for k, p in enumerate(action.parameters)}

    def term(arg: str) -> str:
        return names.get(arg, repr(arg))

    def fact(predicate: str, arguments: tuple[str, ...]) -> str:
        parts = [repr(predicate), *(term(a) for a in arguments)]
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    unpack = f"    ({', '.join(names.values())}{',' if len(names) == 1 else ''}) = args" if names else "    () = args"
    lines = [f"def op_{index}(state, args):", unpack, f"    if args not in OK{index}:"]
    once = [f"        if a{k} not in T{index}_{k}: return False" for k in range(len(action.parameters))]
    fluent: list[str] = []
    for lit in action.preconditions:
        if lit.predicate == "=":
            left, right = (term(a) for a in lit.args)
            once.append(f"        if {left} {'!=' if lit.positive else '=='} {right}: return False")
        elif lit.predicate in statics:
            once.append(f"        if {fact(lit.predicate, lit.args)} {'not in' if lit.positive else 'in'} S: return False")
        else:
            fluent.append(f"    if {fact(lit.predicate, lit.args)} {'not in' if lit.positive else 'in'} state: return False")
    lines += [*once, f"        OK{index}.add(args)", *fluent]
    lines += [f"    state.discard({fact(lit.predicate, lit.args)})" for lit in action.del_effects]
    lines += [f"    state.add({fact(lit.predicate, lit.args)})" for lit in action.add_effects]
    lines.append("    return True")
    return "\n".join(lines)


class CompiledDomain:
    """The generated functions of a domain's actions; :meth:`bind` makes a checker for one task."""

    def __init__(self, domain: Domain, statics: frozenset[str]) -> None:
        self.domain = domain
        self.statics = statics
        self.actions = list(domain.actions.values())
        sources = [_action_source(i, action, statics) for i, action in enumerate(self.actions)]
        parameters = ["S"] + [f"T{i}_{k}" for i, a in enumerate(self.actions) for k in range(a.arity)]
        parameters += [f"OK{i}" for i in range(len(self.actions))]
        body = "\n".join("    " + line for source in sources for line in source.splitlines())
        returns = ", ".join(f"op_{i}" for i in range(len(self.actions)))
        factory = f"def factory({', '.join(parameters)}):\n{body or '    pass'}\n    return ({returns}{',' if len(self.actions) == 1 else ''})\n"
        namespace: dict[str, Any] = {}
        exec(compile(factory, f"<genplan ops of {domain.name}>", "exec"), {"__builtins__": {}}, namespace)  # noqa: S102 - generated from repr'd names only
        self._factory: Callable[..., tuple[Op, ...]] = namespace["factory"]

    def bind(self, task: Task) -> FastCheck:
        return FastCheck(self, task)


class FastCheck:
    """The verdict (valid or not) of plans for one task."""

    def __init__(self, compiled: CompiledDomain, task: Task) -> None:
        domain, statics = compiled.domain, compiled.statics
        init = task.problem.init
        static_facts = frozenset(f for f in init if f[0] in statics)
        self.fluent_init = frozenset(f for f in init if f[0] not in statics)
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
        functions = compiled._factory(static_facts, *sets, *(set() for _ in compiled.actions))
        self.ops: dict[str, Op] = {action.name: function for action, function in zip(compiled.actions, functions)}
        goal_pos, goal_neg = task.problem.goal_pos, task.problem.goal_neg
        self.goal_pos = frozenset(f for f in goal_pos if f[0] not in statics)
        self.goal_neg = frozenset(f for f in goal_neg if f[0] not in statics)
        self.static_goal_holds = all(f in static_facts for f in goal_pos if f[0] in statics) and not any(
            f in static_facts for f in goal_neg if f[0] in statics
        )
        self._parsed: dict[str, PlanStep] = {}

    def valid(self, plan: Sequence[str] | Sequence[PlanStep]) -> bool:
        if not self.static_goal_holds:
            return False
        # strings are parsed (once per distinct string); a list mixing both is left to the detailed path
        steps = cast("Sequence[PlanStep]", plan) if not plan or isinstance(plan[0], PlanStep) else self._parse(plan)
        get = self.ops.get
        state: set[Fact] = set(self.fluent_init)
        try:
            for step in steps:
                # an unknown action (None) is a TypeError, a wrong number of arguments a ValueError
                if step.problem is not None or not get(step.name)(state, step.args):  # type: ignore[arg-type, misc]
                    return False
        except (TypeError, ValueError, AttributeError):
            return False
        return self.goal_pos <= state and self.goal_neg.isdisjoint(state)

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
