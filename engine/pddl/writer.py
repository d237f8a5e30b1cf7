"""Write our model back as clean PDDL: for external tools (Fast Downward) and for costumed variants."""

from __future__ import annotations

from .model import OBJECT, Domain, Literal, Parameter, Problem, parameter_text


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
    reqs = [":strips"]
    if domain.typed:
        reqs.append(":typing")
    lits = [lit for a in domain.actions.values() for lit in a.preconditions]
    if any(not lit.positive for lit in lits):
        reqs.append(":negative-preconditions")
    if any(lit.predicate == "=" for lit in lits):
        reqs.append(":equality")
    out = [f"(define (domain {domain.name})", f"  (:requirements {' '.join(reqs)})"]
    if domain.typed:
        types = [(t, p or OBJECT) for t, p in domain.type_parents.items() if t != OBJECT]
        out.append(f"  (:types {_typed_list(types, True)})")
    if domain.constants:
        out.append(f"  (:constants {_typed_list(domain.constants, domain.typed)})")
    out.append("  (:predicates")
    for pred in domain.predicates.values():
        out.append("    (" + " ".join([pred.name, _parameters(pred.parameters, domain.typed)]).strip() + ")")
    out.append("  )")
    for action in domain.actions.values():
        params = _parameters(action.parameters, domain.typed)
        effects = [lit.pddl() for lit in action.add_effects]
        effects += [Literal(lit.predicate, lit.args, False).pddl() for lit in action.del_effects]
        out += [
            f"  (:action {action.name}",
            f"    :parameters ({params})",
            f"    :precondition {_conjunction([lit.pddl() for lit in action.preconditions])}",
            f"    :effect {_conjunction(effects)})",
        ]
    out.append(")")
    return "\n".join(out) + "\n"


def problem_to_pddl(problem: Problem, typed: bool | None = None) -> str:
    """`typed`: whether the domain is typed (default: whether any object has a type other than object)."""
    if typed is None:
        typed = any(t != OBJECT for _, t in problem.objects)
    goal = ["(" + " ".join(f) + ")" for f in problem.goal_pos]
    goal += ["(not (" + " ".join(f) + "))" for f in problem.goal_neg]
    out = [
        f"(define (problem {problem.name})",
        f"  (:domain {problem.domain_name})",
        f"  (:objects {_typed_list(problem.objects, typed)})",
        "  (:init",
        *("    (" + " ".join(f) + ")" for f in problem.init),
        "  )",
        f"  (:goal {_conjunction(goal)})",
        ")",
    ]
    return "\n".join(out) + "\n"
