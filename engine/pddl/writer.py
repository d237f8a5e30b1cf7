"""Write our model back as clean PDDL: for external tools (Fast Downward) and for costumed variants."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from itertools import product

from genplan.engine.pddl.model import (
    OBJECT,
    Action,
    Condition,
    ConditionalEffect,
    Domain,
    Implication,
    Junction,
    Literal,
    Negation,
    Parameter,
    Predicate,
    Problem,
    Quantified,
    condition_literals,
    parameter_text,
    parameters_text,
)


def _typed_list(pairs: list[tuple[str, str]], typed: bool) -> str:
    """``a - t b - object``: every name gets its type in a typed file, because a bare name would be
    swallowed by the next ``- type`` group; untyped files have bare names only."""
    if not typed:
        return " ".join(name for name, _ in pairs)
    return " ".join(f"{name} - {typ}" for name, typ in pairs)


def _parameters(parameters: tuple[Parameter, ...], typed: bool) -> str:
    """A parameter list. In a typed file a parameter of type ``object`` is written ``?x - object``: left
    bare, PDDL's grouping would give it the type of the next ``- type`` (``?o ?x - room`` makes ``?o`` a
    room), which made Fast Downward see domains with such parameters (the IPC gripper) as unsolvable."""
    if not typed:
        return " ".join(p.name for p in parameters)
    return " ".join(f"{p.name} - {OBJECT}" if p.types == (OBJECT,) else parameter_text(p) for p in parameters)


def _conjunction(literals: list[str]) -> str:
    if not literals:
        return "(and)"
    return "(and " + " ".join(literals) + ")"


def domain_to_pddl(domain: Domain) -> str:
    domain = single_types(domain)
    reqs = [":strips"]
    if domain.typed:
        reqs.append(":typing")
    lits = [lit for a in domain.actions.values() for lit in a.preconditions]
    if any(not lit.positive for lit in lits):
        reqs.append(":negative-preconditions")
    if any(lit.predicate == "=" for lit in lits):
        reqs.append(":equality")
    reqs += _adl_requirements(domain, reqs)
    out = [f"(define (domain {domain.name})", f"  (:requirements {' '.join(reqs)})"]
    if domain.typed:
        types = [(t, p or OBJECT) for t, p in domain.type_parents.items() if t != OBJECT]
        # a type with more than one parent is listed once per parent (VAL and Fast Downward read that)
        types += [(t, p) for t, more in domain.more_parents.items() for p in more]
        out.append(f"  (:types {_typed_list(types, True)})")
    if domain.constants:
        out.append(f"  (:constants {_typed_list(domain.constants, domain.typed)})")
    out.append("  (:predicates")
    for pred in domain.predicates.values():
        out.append("    (" + " ".join([pred.name, _parameters(pred.parameters, domain.typed)]).strip() + ")")
    out.append("  )")
    if domain.action_costs:
        functions = [f"({' '.join([f.name, *(parameter_text(p) for p in f.parameters)])}) - number"
                     for f in domain.functions.values() if f.name != "total-cost"]
        out.append(f"  (:functions (total-cost) - number {' '.join(functions)})".rstrip())
    for action in domain.actions.values():
        params = _parameters(action.parameters, domain.typed)
        effects = [lit.pddl() for lit in action.add_effects]
        effects += [Literal(lit.predicate, lit.args, False).pddl() for lit in action.del_effects]
        out += [
            f"  (:action {action.name}",
            f"    :parameters ({params})",
            f"    :precondition {_conjunction([lit.pddl() for lit in action.preconditions] + [c.pddl() for c in action.conditions])}",
            f"    :effect {_conjunction(effects + _adl_effects(action, domain.action_costs))})",
        ]
    out.append(")")
    return "\n".join(out) + "\n"


def single_types(domain: Domain) -> Domain:
    """The domain without ``(either ...)`` types, which Fast Downward cannot read. An either of sibling types
    becomes a new type between them and their parent (``(either robot human)`` -> ``either-human-robot``, the
    parent of both), so the same objects fit. An either of types with different parents is compiled away
    (:func:`_compile_either`): the parameter takes the closest common supertype and a precondition that says it
    is an object of one of the types; a quantifier over it becomes one quantifier per type. Problems are
    unchanged."""
    eithers: set[tuple[str, ...]] = set()

    def note(parameters: tuple[Parameter, ...]) -> None:
        eithers.update(p.types for p in parameters if len(p.types) > 1)

    def note_condition(c: Condition) -> None:
        for variables in _quantified_variables(c):
            note(variables)

    for pred in (*domain.predicates.values(), *domain.functions.values()):
        note(pred.parameters)
    for action in domain.actions.values():
        note(action.parameters)
        for c in action.conditions:
            note_condition(c)
        for e in action.conditional_effects:
            note(e.variables)
            if e.condition is not None:
                note_condition(e.condition)
    if not eithers:
        return domain
    parents = dict(domain.type_parents)
    replacement: dict[tuple[str, ...], tuple[str, ...]] = {}
    compiled: dict[tuple[str, ...], tuple[str, ...]] = {}  # an either of non-siblings -> its (maximal) members
    for types in sorted(eithers):
        members = sorted({t for t in types if not any(o != t and domain.is_subtype(t, (o,)) for o in types)})
        if len(members) == 1:
            replacement[types] = (members[0],)
            continue
        name = "either-" + "-".join(members)
        if name in parents:
            replacement[types] = (name,)
            continue
        shared = {parents.get(t) for t in members}
        if len(shared) != 1 or any(str(parents.get(t) or "").startswith("either-") for t in members):
            compiled[types] = tuple(members)
            continue
        parents[name] = shared.pop() or OBJECT
        for t in members:
            parents[t] = name
        replacement[types] = (name,)
    if compiled:
        domain = _compile_either(dataclasses.replace(domain, type_parents=parents), compiled)

    def retype(parameters: tuple[Parameter, ...]) -> tuple[Parameter, ...]:
        return tuple(Parameter(p.name, replacement.get(p.types, p.types)) for p in parameters)

    def retype_condition(c: Condition) -> Condition:
        if isinstance(c, Quantified):
            return Quantified(c.kind, retype(c.variables), retype_condition(c.body))
        if isinstance(c, Junction):
            return Junction(c.kind, tuple(retype_condition(p) for p in c.parts))
        if isinstance(c, Negation):
            return Negation(retype_condition(c.part))
        if isinstance(c, Implication):
            return Implication(retype_condition(c.antecedent), retype_condition(c.consequent))
        return c

    actions = {
        name: dataclasses.replace(
            action,
            parameters=retype(action.parameters),
            conditions=tuple(retype_condition(c) for c in action.conditions),
            conditional_effects=tuple(
                dataclasses.replace(e, variables=retype(e.variables),
                                    condition=retype_condition(e.condition) if e.condition is not None else None)
                for e in action.conditional_effects
            ),
        )
        for name, action in domain.actions.items()
    }
    return dataclasses.replace(
        domain,
        type_parents=parents,
        predicates={n: Predicate(n, retype(p.parameters)) for n, p in domain.predicates.items()},
        functions={n: Predicate(n, retype(p.parameters)) for n, p in domain.functions.items()},
        actions=actions,
    )


def _common_supertype(domain: Domain, types: tuple[str, ...]) -> str:
    """The closest type all of ``types`` are subtypes of (``object`` at the latest)."""
    for candidate in domain.ancestors(types[0]):
        if all(domain.is_subtype(t, (candidate,)) for t in types):
            return candidate
    return OBJECT


def _per_type(variables: tuple[Parameter, ...], compiled: dict[tuple[str, ...], tuple[str, ...]]) -> list[tuple[Parameter, ...]]:
    """Every way of giving each variable with a compiled either one of its types."""
    choices = [[Parameter(v.name, (m,)) for m in compiled[v.types]] if v.types in compiled else [v] for v in variables]
    return [tuple(combination) for combination in product(*choices)]


def _split_quantifiers(c: Condition, compiled: dict[tuple[str, ...], tuple[str, ...]]) -> Condition:
    """``forall``/``exists`` over an either variable as the conjunction/disjunction of one quantifier per type."""
    if isinstance(c, Quantified):
        body = _split_quantifiers(c.body, compiled)
        cases = [Quantified(c.kind, variables, body) for variables in _per_type(c.variables, compiled)]
        return cases[0] if len(cases) == 1 else Junction("and" if c.kind == "forall" else "or", tuple(cases))
    if isinstance(c, Junction):
        return Junction(c.kind, tuple(_split_quantifiers(p, compiled) for p in c.parts))
    if isinstance(c, Negation):
        return Negation(_split_quantifiers(c.part, compiled))
    if isinstance(c, Implication):
        return Implication(_split_quantifiers(c.antecedent, compiled), _split_quantifiers(c.consequent, compiled))
    return c


def _quantified_variables(c: Condition) -> Iterator[tuple[Parameter, ...]]:
    """The variables of every ``forall``/``exists`` inside ``c``."""
    if isinstance(c, Quantified):
        yield c.variables
        yield from _quantified_variables(c.body)
    elif isinstance(c, Junction):
        for part in c.parts:
            yield from _quantified_variables(part)
    elif isinstance(c, Negation):
        yield from _quantified_variables(c.part)
    elif isinstance(c, Implication):
        yield from _quantified_variables(c.antecedent)
        yield from _quantified_variables(c.consequent)


def single_types_goal(domain: Domain, problem: Problem) -> Problem:
    """The problem without ``(either ...)`` in its compound goal (Fast Downward cannot read it): a quantifier
    over an either variable becomes one quantifier per type (a conjunction for ``forall``, a disjunction for
    ``exists``), which means the same because the types of a PDDL domain form a tree."""
    eithers: set[tuple[str, ...]] = set()

    for c in problem.goal_conditions:
        for variables in _quantified_variables(c):
            eithers.update(v.types for v in variables if len(v.types) > 1)
    if not eithers:
        return problem
    compiled = {types: tuple(sorted({t for t in types if not any(o != t and domain.is_subtype(t, (o,)) for o in types)}))
                for types in eithers}
    return dataclasses.replace(problem, goal_conditions=[_split_quantifiers(c, compiled) for c in problem.goal_conditions])


def _compile_either(domain: Domain, compiled: dict[tuple[str, ...], tuple[str, ...]]) -> Domain:
    """Eithers of types that are not siblings, written without ``either`` and with the same meaning.

    Types of a PDDL domain form a tree, so two types neither of which is a subtype of the other have no common
    object: ``?x - (either a b)`` is the closest common supertype of ``a`` and ``b`` plus the precondition
    ``(or (exists (?x-as-a - a) (= ?x ?x-as-a)) (exists (?x-as-b - b) (= ?x ?x-as-b)))`` (Fast Downward's
    translator turns the disjunction into one operator per type and the ``exists`` into a parameter of it, no
    axioms; the plan names the action's own parameters only). ``forall``/``exists`` over such a variable become
    a conjunction/disjunction of one quantifier per type, a ``forall`` effect one effect per type; predicate and
    function arguments take the common supertype (Fast Downward does not check them)."""

    def widen(parameters: tuple[Parameter, ...]) -> tuple[Parameter, ...]:
        return tuple(Parameter(p.name, (_common_supertype(domain, compiled[p.types]),)) if p.types in compiled else p
                     for p in parameters)

    def per_type(variables: tuple[Parameter, ...]) -> list[tuple[Parameter, ...]]:
        return _per_type(variables, compiled)

    def condition(c: Condition) -> Condition:
        return _split_quantifiers(c, compiled)

    def is_one_of(parameter: Parameter) -> Condition:
        cases = []
        for member in compiled[parameter.types]:
            witness = f"{parameter.name}-as-{member}"
            cases.append(Quantified("exists", (Parameter(witness, (member,)),), Literal("=", (parameter.name, witness))))
        return Junction("or", tuple(cases))

    actions = {}
    for name, action in domain.actions.items():
        effects = [
            dataclasses.replace(e, variables=variables,
                                condition=condition(e.condition) if e.condition is not None else None)
            for e in action.conditional_effects for variables in per_type(e.variables)
        ]
        actions[name] = dataclasses.replace(
            action,
            parameters=widen(action.parameters),
            conditions=(*(is_one_of(p) for p in action.parameters if p.types in compiled),
                        *(condition(c) for c in action.conditions)),
            conditional_effects=tuple(effects),
        )
    return dataclasses.replace(
        domain,
        predicates={n: Predicate(n, widen(p.parameters)) for n, p in domain.predicates.items()},
        functions={n: Predicate(n, widen(p.parameters)) for n, p in domain.functions.items()},
        actions=actions,
    )


def _adl_requirements(domain: Domain, have: list[str]) -> list[str]:
    """The flags of the ADL constructs the domain uses (Fast Downward and VAL read them)."""
    conditions: list[Condition] = [c for a in domain.actions.values() for c in a.conditions]
    conditions += [e.condition for a in domain.actions.values() for e in a.conditional_effects if e.condition]
    kinds: set[str] = set()

    def visit(c: Condition) -> None:
        if isinstance(c, Literal):
            return
        if isinstance(c, Junction):
            kinds.add(c.kind)
            for p in c.parts:
                visit(p)
        elif isinstance(c, Negation):
            kinds.add("not")
            visit(c.part)
        elif isinstance(c, Quantified):
            kinds.add(c.kind)
            visit(c.body)
        else:
            kinds.add("imply")
            visit(c.antecedent)
            visit(c.consequent)

    for c in conditions:
        visit(c)
    out: list[str] = []
    if kinds & {"or", "imply", "not"}:
        out.append(":disjunctive-preconditions")
    if "forall" in kinds or any(e.variables for a in domain.actions.values() for e in a.conditional_effects):
        out.append(":universal-preconditions")
    if "exists" in kinds:
        out.append(":existential-preconditions")
    if any(a.conditional_effects for a in domain.actions.values()):
        out.append(":conditional-effects")
    literals = [lit for c in conditions for lit in condition_literals(c)]
    if ":negative-preconditions" not in have and any(not lit.positive for lit in literals):
        out.append(":negative-preconditions")
    if ":equality" not in have and any(lit.predicate == "=" for lit in literals):
        out.append(":equality")
    if domain.action_costs:
        out.append(":action-costs")
    return out


def _effect_text(effect: ConditionalEffect) -> str:
    body = [lit.pddl() for lit in effect.add] + [Literal(lit.predicate, lit.args, False).pddl() for lit in effect.delete]
    text = _conjunction(body)
    if effect.condition is not None:
        text = f"(when {effect.condition.pddl()} {text})"
    if effect.variables:
        text = f"(forall ({parameters_text(effect.variables)}) {text})"
    return text


def _adl_effects(action: Action, costs: bool) -> list[str]:
    """An action's conditional and quantified effects, and its cost where the domain has action costs."""
    out = [_effect_text(e) for e in action.conditional_effects]
    if costs and action.cost is not None:
        out.append(action.cost.pddl())
    return out


def problem_to_pddl(problem: Problem, typed: bool | None = None) -> str:
    """`typed`: whether the domain is typed (default: whether any object has a type other than object)."""
    if typed is None:
        typed = any(t != OBJECT for _, t in problem.objects)
    goal = problem.goal_text()
    values = {("total-cost",): 0.0, **problem.function_values} if problem.metric else problem.function_values
    out = [
        f"(define (problem {problem.name})",
        f"  (:domain {problem.domain_name})",
        f"  (:objects {_typed_list(problem.objects, typed)})",
        "  (:init",
        *("    (" + " ".join(f) + ")" for f in problem.init),
        *(f"    (= ({' '.join(key)}) {_number(value)})" for key, value in values.items()),
        "  )",
        f"  (:goal {_conjunction(goal)})",
        *(["  (:metric minimize (total-cost))"] if problem.metric else []),
        ")",
    ]
    return "\n".join(out) + "\n"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
