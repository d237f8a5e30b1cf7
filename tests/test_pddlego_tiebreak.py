"""Replays break ties between equally short plans as the logged trial did, but only with a plan that genplan
has checked against the same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_pddlego_import import log_file, needs_java, needs_logs

from genplan.engine.pddlego.importer import import_trial
from genplan.engine.pddlego.solver import coin_command
from genplan.engine.pddlego.tiebreak import realize

# test data (not model output): a room with doors to the north and to the west, both leading to the goal side
DOMAIN = """(define (domain house)
  (:requirements :strips :typing)
  (:types room direction)
  (:predicates (at ?r - room) (door ?a - room ?b - room ?d - direction) (open ?a - room ?b - room) (goal-reached))
  (:action open-door :parameters (?a - room ?b - room ?d - direction)
    :precondition (and (at ?a) (door ?a ?b ?d)) :effect (open ?a ?b))
  (:action move :parameters (?a - room ?b - room ?d - direction)
    :precondition (and (at ?a) (door ?a ?b ?d) (open ?a ?b)) :effect (and (not (at ?a)) (at ?b))))"""
PROBLEM = """(define (problem walk) (:domain house)
  (:objects kitchen hall garden - room north west - direction)
  (:init (at kitchen) (door kitchen hall north) (door kitchen garden west))
  (:goal (or (at hall) (at garden))))"""
PROBLEM_HALL_OR_GARDEN = PROBLEM.replace("(or (at hall) (at garden))", "(at hall)").replace(
    "(door kitchen garden west)", "(door kitchen garden west) (door garden hall north)")


def test_a_logged_plan_is_realized_only_when_it_is_a_valid_plan_no_longer_than_ours() -> None:
    logged = ["open door to north", "move north"]
    plan = realize(DOMAIN, PROBLEM_HALL_OR_GARDEN, logged, coin_command, max_length=2)
    assert plan == ["(open-door kitchen hall north)", "(move kitchen hall north)"]
    assert realize(DOMAIN, PROBLEM_HALL_OR_GARDEN, logged, coin_command, max_length=1) is None  # longer than ours
    assert realize(DOMAIN, PROBLEM_HALL_OR_GARDEN, ["move north"], coin_command, max_length=2) is None  # door closed
    assert realize(DOMAIN, PROBLEM_HALL_OR_GARDEN, ["open door to west", "move west"], coin_command,
                   max_length=2) is None  # valid steps, but the goal is not reached
    assert realize(DOMAIN, "(define (problem broken", logged, coin_command, max_length=2) is None


@needs_logs
@needs_java
@pytest.mark.parametrize("condition, suffix", [
    ("CC_PDDLego+_4o", "_PDDL_detailed_3_3.txt"),  # a tie at call 1
    ("CC_PDDLego+_deepseek", "_PDDL_detailed_5_22.txt"),  # a tie between the alternatives of an (or ...) goal
])
def test_a_trial_that_differed_by_a_tie_now_replays_as_logged(condition: str, suffix: str, tmp_path: Path) -> None:
    path = log_file(condition, suffix)
    own = import_trial(path, tmp_path / "own", ties="genplan")
    assert (own.outcome, own.calls) != (own.log_outcome, own.log_calls)
    assert not (own.run_dir / "tie_breaks.json").exists()
    logged = import_trial(path, tmp_path / "logged")
    assert (logged.outcome, logged.calls) == (logged.log_outcome, logged.log_calls)
    decisions = json.loads((logged.run_dir / "tie_breaks.json").read_text())
    assert any(d["used"] and d["logged"] != d["genplan"] for d in decisions)
