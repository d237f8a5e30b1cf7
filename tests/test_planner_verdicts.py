"""Planner verdicts genplan can trust: the translation for Fast Downward keeps every type, plans are checked
by genplan's validator before use, and a verdict of "unsolvable" after a rewrite is confirmed or withheld."""

from __future__ import annotations

from pathlib import Path

from genplan.engine.pddl import load_domain, parse_domain_text, parse_problem_text
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl

QUIRKS = Path(__file__).resolve().parent / "data" / "quirks"


def test_the_writer_keeps_parameters_of_type_object_in_a_typed_domain() -> None:
    # `(at ?o ?x - room)` would make ?o a room: the IPC gripper's balls (declared `object`) could then be
    # neither picked nor dropped, and Fast Downward called every task unsolvable.
    domain = load_domain(QUIRKS / "object-in-types-domain.pddl")
    text = domain_to_pddl(domain)
    assert "(at ?o - object ?x - room)" in text
    again = parse_domain_text(text)
    for name, action in domain.actions.items():
        assert again.actions[name].parameters == action.parameters
    for name, predicate in domain.predicates.items():
        assert again.predicates[name].parameters == predicate.parameters


def test_the_writer_leaves_untyped_domains_bare() -> None:
    text = "(define (domain d) (:predicates (p ?x) (q)) (:action a :parameters (?x) :precondition (p ?x) :effect (q)))"
    domain = parse_domain_text(text)
    written = domain_to_pddl(domain)
    assert "(p ?x)" in written and "(q)" in written and "- object" not in written
    problem = parse_problem_text("(define (problem t) (:domain d) (:objects a) (:init (p a)) (:goal (q)))", domain)
    assert "(:objects a)" in problem_to_pddl(problem, domain.typed)
