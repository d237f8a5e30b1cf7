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
from itertools import chain, groupby
from operator import itemgetter
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


_ARGUMENTS = itemgetter(slice(1, None))


def _keys(facts: list[Fact]) -> set[Hashable]:
    """What ``fact_key`` gives each of these facts of one predicate: mapped in C for facts of one length (the
    arity the loader checked; a generated task has hundreds of thousands), fact by fact otherwise."""
    lengths = set(map(len, facts))
    if lengths == {2}:
        return set(map(itemgetter(1), facts))
    if 1 not in lengths and 2 not in lengths:
        return set(map(_ARGUMENTS, facts))
    return {fact_key(f[1:]) for f in facts}


def _union(parts: list[set[Hashable]]) -> set[Hashable]:
    """The keys of a predicate's runs of facts (mostly one run: no copy); the check only reads them."""
    return parts[0] if len(parts) == 1 else set().union(*parts)


def _static_keys(facts: list[Fact], declared: set[str]) -> set[Hashable]:
    """The keys (``fact_key``) of a static predicate's facts whose arguments are all declared objects: checked
    column by column in the facts' order and mapped in C for facts of one length (a large task has hundreds of
    thousands, as heavy's 20,000 'heavier' pairs a task); fact by fact otherwise."""
    lengths = set(map(len, facts))
    size = lengths.pop() if len(lengths) == 1 else 0
    if size >= 2 and all(declared.issuperset(map(itemgetter(i), facts)) for i in range(1, size)):
        return set(map(itemgetter(1), facts)) if size == 2 else set(map(_ARGUMENTS, facts))
    return {fact_key(f[1:]) for f in facts if all(a in declared for a in f[1:])}


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
        problem = task.problem
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
        # the state, one set per fluent predicate (also those only the task mentions), and its initial content;
        # the init is read a run of facts of one predicate at a time (generated tasks list them so; a problem
        # has hundreds of thousands of facts and a few runs, so no Python step per fact)
        self._state: dict[str, set[Hashable]] = {name: set() for name in compiled.fluents}
        initial: dict[str, list[set[Hashable]]] = {}
        static_keys: dict[str, list[set[Hashable]]] = {name: [] for name in compiled.static_tests}
        goal_statics = {f[0] for f in chain(problem.goal_pos, problem.goal_neg) if f[0] in statics}
        static_goal_facts: dict[str, set[Fact]] = {name: set() for name in goal_statics}
        declared = set(object_types)
        for name, run in groupby(problem.init, itemgetter(0)):
            facts = list(run)
            if name not in statics:
                initial.setdefault(name, []).append(_keys(facts))
                self._state.setdefault(name, set())
                continue
            if name in static_keys:
                # only facts of declared objects: the check leaves out type tests these imply (_action_lines)
                static_keys[name].append(_static_keys(facts, declared))
            if name in static_goal_facts:
                static_goal_facts[name].update(facts)
        self._initial = [(self._state[name], _union(parts)) for name, parts in initial.items()]
        self._goals = self._grouped(problem.goal_pos, statics)
        self._goals_negated = self._grouped(problem.goal_neg, statics)
        self._check = compiled._factory(
            *(_union(static_keys[name]) for name in compiled.static_tests), *sets,
            *(set() for _ in compiled.actions), *(self._state[name] for name in compiled.fluents),
        )
        self.static_goal_holds = all(f in static_goal_facts[f[0]] for f in problem.goal_pos if f[0] in statics) and not any(
            f in static_goal_facts[f[0]] for f in problem.goal_neg if f[0] in statics
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
