"""Fast Downward's input for the ADL subset reads back as the task genplan read: quantified variables of
type ``object`` beside typed ones (the ADL twin of the grippers bug), and the read-back check that would
have caught it."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.engine.pddl import load_domain, load_problem, model, writer
from genplan.engine.pddl.translation import translation_rewrites
from genplan.engine.planner import FAULT, SOLVED, fast_downward_driver, fast_downward_input, solve

DOMAIN = """(define (domain marking)
 (:requirements :typing :adl)
 (:types box place)
 (:predicates (at ?o - object ?p - place) (marked ?o - object) (done))
 (:action mark-all
  :parameters (?p - place)
  :precondition (forall (?o - object ?q - place) (imply (at ?o ?q) (not (marked ?o))))
  :effect (and (done) (forall (?o - object ?q - place) (when (at ?o ?q) (marked ?o))))))
"""
PROBLEM = """(define (problem marking-1) (:domain marking)
 (:objects b1 b2 - box p1 - place)
 (:init (at b1 p1) (at b2 p1))
 (:goal (and (done) (exists (?o - object) (marked ?o)) (marked b1) (marked b2))))
"""


@pytest.fixture
def task(tmp_path: Path) -> tuple[model.Domain, model.Problem]:
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    (tmp_path / "problem.pddl").write_text(PROBLEM)
    domain = load_domain(tmp_path / "domain.pddl")
    return domain, load_problem(tmp_path / "problem.pddl", domain)


def test_object_typed_quantified_variables_are_read_and_written_back_unchanged(task):
    domain, problem = task
    domain_text, problem_text = fast_downward_input(domain, problem)
    assert "(forall (?o - object ?q - place)" in domain_text
    assert translation_rewrites(domain, problem, domain_text, problem_text) == []


@pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (up-fast-downward) is not installed")
def test_fast_downward_solves_the_task_with_object_typed_quantifiers(task):
    domain, problem = task
    result = solve(domain, problem, optimal=True, timeout=30)
    assert result.status == SOLVED and result.plan == ["(mark-all p1)"]


@pytest.mark.skipif(fast_downward_driver() is None, reason="Fast Downward (up-fast-downward) is not installed")
def test_a_writer_that_retypes_quantified_variables_is_caught_as_a_translation_fault(task, monkeypatch):
    domain, problem = task

    def bare(parameters: tuple[model.Parameter, ...]) -> str:  # the old writer: "?o ?q - place"
        return " ".join(model.parameter_text(p) for p in parameters)

    monkeypatch.setattr(model, "parameters_text", bare)
    monkeypatch.setattr(writer, "parameters_text", bare)
    notes = translation_rewrites(domain, problem, *fast_downward_input(domain, problem))
    assert any("compound preconditions of action mark-all" in n for n in notes)
    assert any("conditional effects of action mark-all" in n for n in notes)
    result = solve(domain, problem, optimal=True, timeout=30)
    assert result.status == FAULT and result.plan is None
    assert "planner/translation fault" in result.message
