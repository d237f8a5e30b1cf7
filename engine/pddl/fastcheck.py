"""Is a plan valid? Answered by a Python function compiled from the domain's actions (most plans are valid).

For a domain we generate the source of one function ``check(steps)``: a loop over the plan with one branch
per action, which checks the step's argument types, static and equality preconditions (against the task's
static facts, which never change: an action with several such tests passes each distinct step once; an
untyped parameter's type test is left out where a static fact implies it), the fluent preconditions, and then
applies the
effects (deletes, then adds). The state is kept per predicate, one set per predicate: a unary fact is its
bare argument, a nullary fact the member ``0``, longer ones the tuple of their arguments, so most checks
hash a name instead of building a tuple. Everything is inlined: a plan step costs no call. The source is
generated from names only through ``repr``, so no PDDL text can become code; it is compiled once per domain
and bound to each task's facts.

Anything unusual (a malformed, unknown or inapplicable step, a missed goal) answers False; the validator
then runs its step-by-step validation, which explains the failure. Both give the same verdicts
(tests/test_validate_fast.py compares them on the benchmark plans and on mutated plans).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from itertools import chain
from typing import Any, cast

from genplan.engine.pddl.model import Action, Domain, Fact, Task
from genplan.engine.pddl.plans import PlanStep, parse_action

Check = Callable[[Sequence[PlanStep]], bool]
# an action's type and static tests are remembered per argument tuple (OK<i>) from this many tests on
CACHE_FROM = 4


def fact_key(arguments: Sequence[str]) -> Hashable:
    """How a fact with these arguments is stored in its predicate's set (see the module docstring)."""
    if not arguments:
        return 0
    return arguments[0] if len(arguments) == 1 else tuple(arguments)


def _all_declared(keys: set[Hashable], arity: int, declared: set[str]) -> bool:
    """Do these keys of one predicate's facts name declared objects only? Set operations in C for the arity
    the domain declares (the facts of every loaded problem have it; one pass over 300,000 facts); key by key
    otherwise (``arity`` -1: unknown)."""
    if arity == 0:
        return True
    if arity == 1:
        return keys <= declared
    if arity > 1:  # (a key of another shape never equals a step's argument tuple: harmless if it passes)
        try:
            return set(chain.from_iterable(keys)) <= declared  # type: ignore[arg-type]
        except TypeError:  # a nullary key among them
            return False
    return all(a in declared for k in keys for a in (k if isinstance(k, tuple) else () if k == 0 else (k,)))


def compiled_actions(domain: Domain) -> CompiledDomain:
    """The domain's actions as generated Python functions, for fast plan checking: compiled once per domain
    (kept on the domain) and bound to each task with :meth:`CompiledDomain.bind`."""
    if not isinstance(domain.compiled, CompiledDomain):
        domain.compiled = CompiledDomain(domain, domain.static_predicates)
    return domain.compiled


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
        # the static predicates the actions test, each with its set P<i> of keys (as the fluents' sets)
        self.static_tests: dict[str, int] = {}
        for action in self.actions:
            for lit in action.preconditions:
                if lit.predicate in statics and lit.predicate not in self.static_tests:
                    self.static_tests[lit.predicate] = len(self.static_tests)
        parameters = [f"P{i}" for i in range(len(self.static_tests))]
        parameters += [f"T{i}_{k}" for i, a in enumerate(self.actions) for k in range(a.arity)]
        parameters += [f"OK{i}" for i in range(len(self.actions))]
        parameters += [f"F{i}" for i in range(len(self.fluents))]
        factory = f"def factory({', '.join(parameters)}):\n{self._check_source()}\n    return check\n"
        namespace: dict[str, Any] = {}
        exec(compile(factory, f"<genplan plan check of {domain.name}>", "exec"), {"__builtins__": {}}, namespace)  # noqa: S102 - generated from repr'd names only
        self._factory: Callable[..., Check] = namespace["factory"]

    def _check_source(self) -> str:
        """``def check(steps)``: one loop over the plan, each action's test and effects inlined in a branch on
        the step's name (a call per step would cost as much as the test itself)."""
        lines = [
            "def check(steps):",
            "    for step in steps:",
            "        if step.problem is not None: return False",
            "        name = step.name",
            "        args = step.args",
        ]
        for index, action in enumerate(self.actions):
            lines.append(f"        {'if' if index == 0 else 'elif'} name == {action.name!r}:")
            lines += ["            " + line for line in self._action_lines(index, action)]
        lines += [f"        {'else:' if self.actions else 'if True:'}", "            return False", "    return True"]
        return "\n".join("    " + line for line in lines)

    def _action_lines(self, index: int, action: Action) -> list[str]:
        """One action's test and effects on ``args``. ``T<i>_<k>`` are the objects parameter k allows, ``P<j>``
        the keys of static predicate j's facts, ``OK<i>`` the argument tuples whose types and static
        preconditions already passed (they never change within a task, so each distinct step is checked
        against them once), ``F<j>`` the state of fluent predicate j."""
        names = {p.name: f"a{k}" for k, p in enumerate(action.parameters)}

        def term(arg: str) -> str:
            return names.get(arg, repr(arg))

        in_order = tuple(p.name for p in action.parameters)

        def key(arguments: tuple[str, ...]) -> str:
            if not arguments:
                return "0"
            if len(arguments) == 1:
                return term(arguments[0])
            if arguments == in_order:  # the step's own argument tuple is the key: no tuple to build
                return "args"
            return "(" + ", ".join(term(a) for a in arguments) + ")"

        def state(predicate: str) -> str:
            return f"F{self.fluents[predicate]}"

        # a wrong number of arguments fails the unpacking (ValueError), which the caller answers with False
        unpack = f"({', '.join(names.values())}{',' if len(names) == 1 else ''}) = args" if names else "() = args"
        # an untyped parameter (type object) named by a positive static precondition needs no type test: the
        # static facts bound to the check name declared objects only (FastCheck leaves out any other), so that
        # test implies this one
        in_static_facts = {a for lit in action.preconditions if lit.positive and lit.predicate in self.statics
                           and lit.predicate != "=" for a in lit.args}
        once = [f"    if a{k} not in T{index}_{k}: return False" for k, p in enumerate(action.parameters)
                if not (p.types == ("object",) and p.name in in_static_facts)]
        fluent: list[str] = []
        for lit in action.preconditions:
            test = "not in" if lit.positive else "in"
            if lit.predicate == "=":
                left, right = (term(a) for a in lit.args)
                once.append(f"    if {left} {'!=' if lit.positive else '=='} {right}: return False")
            elif lit.predicate in self.statics:
                once.append(f"    if {key(lit.args)} {test} P{self.static_tests[lit.predicate]}: return False")
            else:
                fluent.append(f"if {key(lit.args)} {test} {state(lit.predicate)}: return False")
        if len(once) >= CACHE_FROM:
            lines = [unpack, f"if args not in OK{index}:", *once, f"    OK{index}.add(args)", *fluent]
        else:  # a miss and an add of OK<i> would cost about as much as these few tests
            lines = [unpack, *(test[4:] for test in once), *fluent]
        lines += [f"{state(lit.predicate)}.discard({key(lit.args)})" for lit in action.del_effects]
        lines += [f"{state(lit.predicate)}.add({key(lit.args)})" for lit in action.add_effects]
        return lines

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
        static_keys: dict[str, set[Hashable]] = {name: set() for name in compiled.static_tests}
        for f in static_facts:
            if f[0] in static_keys:
                static_keys[f[0]].add(fact_key(f[1:]))
        # only facts of declared objects: the check leaves out type tests these imply (see _action_lines)
        declared = set(object_types)
        for name, keys in static_keys.items():
            predicate = domain.predicates.get(name)
            if not _all_declared(keys, predicate.arity if predicate else -1, declared):
                static_keys[name] = {k for k in keys if _all_declared({k}, -1, declared)}
        self._check = compiled._factory(
            *(frozenset(static_keys[name]) for name in compiled.static_tests), *sets,
            *(set() for _ in compiled.actions), *(self._state[name] for name in compiled.fluents),
        )
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
        with self._lock:
            for current in self._state.values():
                current.clear()
            for current, keys in self._initial:
                current.update(keys)
            try:
                if not self._check(steps):
                    return False
            except (TypeError, ValueError, AttributeError):  # a wrong number of arguments, an odd step
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
