"""Write our model back as clean PDDL: for external tools (Fast Downward) and for costumed variants."""

from __future__ import annotations

from .model import OBJECT, Domain, Literal, Problem, parameter_text


def _typed_list(pairs: list[tuple[str, str]]) -> str:
    return " ".join(name if typ == OBJECT else f"{name} - {typ}" for name, typ in pairs)


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
        out.append(f"  (:types {_typed_list(types)})")
    if domain.constants:
        out.append(f"  (:constants {_typed_list(domain.constants)})")
    out.append("  (:predicates")
    for pred in domain.predicates.values():
        out.append(f"    {pred.pddl()}")
    out.append("  )")
    for action in domain.actions.values():
        params = " ".join(parameter_text(p) for p in action.parameters)
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


def problem_to_pddl(problem: Problem) -> str:
    goal = ["(" + " ".join(f) + ")" for f in problem.goal_pos]
    goal += ["(not (" + " ".join(f) + "))" for f in problem.goal_neg]
    out = [
        f"(define (problem {problem.name})",
        f"  (:domain {problem.domain_name})",
        f"  (:objects {_typed_list(problem.objects)})",
        "  (:init",
        *("    (" + " ".join(f) + ")" for f in problem.init),
        "  )",
        f"  (:goal {_conjunction(goal)})",
        ")",
    ]
    return "\n".join(out) + "\n"
