"""The Python encoding of tasks (as programs receive them and as prompts show them) and plan parsing."""

from __future__ import annotations

import ast

import pytest

from genplan.engine.pddl import PddlError, parse_domain_text, parse_problem_text
from genplan.engine.pddl.encoding import (
    encode_task,
    render_problem_abbreviated,
    render_task,
    render_task_abbreviated,
    shuffled_task,
)
from genplan.engine.pddl.plans import parse_action, parse_plan_text

DOMAIN = parse_domain_text(
    """(define (domain move)
      (:requirements :strips :typing)
      (:types place thing - object box - thing)
      (:constants home - place)
      (:predicates (at ?t - thing ?p - place) (open ?b - box))
      (:action carry :parameters (?t - thing ?from ?to - place)
        :precondition (at ?t ?from) :effect (and (at ?t ?to) (not (at ?t ?from)))))"""
)


def problem(n_things: int = 3):
    things = " ".join(f"t{i}" for i in range(n_things))
    init = " ".join(f"(at t{i} p{i % 2})" for i in range(n_things))
    goal = " ".join(f"(at t{i} home)" for i in range(n_things))
    return parse_problem_text(
        f"(define (problem p) (:domain move) (:objects p1 p0 - place {things} - thing b9 - box)"
        f" (:init (open b9) {init}) (:goal (and {goal} (not (open b9)))))",
        DOMAIN,
    )


def test_typed_and_untyped_encodings_keep_file_order_with_constants_first() -> None:
    task = encode_task(problem(), typed=True, domain=DOMAIN)
    assert task.objects[:4] == [("home", "place"), ("p1", "place"), ("p0", "place"), ("t0", "thing")]
    assert task.init[:2] == [("open", "b9"), ("at", "t0", "p0")]
    assert task.goal[-1] == ("not", ("open", "b9"))  # negative goals are marked
    untyped = encode_task(problem(), typed=False, domain=DOMAIN)
    assert untyped.objects[:3] == ["home", "p1", "p0"]


def test_rendering_is_valid_python_with_the_same_content() -> None:
    task = encode_task(problem(), typed=True, domain=DOMAIN)
    namespace: dict = {}
    exec(render_task(task), namespace)  # noqa: S102 - our own rendering of our own data
    assert namespace["objects"] == set(task.objects)
    assert namespace["init"] == set(task.init) and namespace["goal"] == set(task.goal)
    assert render_task(task).splitlines()[0].startswith("objects = {('home', 'place'), ('p1', 'place')")


def test_shuffled_orderings_are_seeded_permutations() -> None:
    task = encode_task(problem(12), typed=False, domain=DOMAIN)
    one, again, other = shuffled_task(task, 1), shuffled_task(task, 1), shuffled_task(task, 2)
    assert one == again and one != other
    for shuffled in (one, other):
        assert sorted(shuffled.objects) == sorted(task.objects)
        assert sorted(shuffled.init) == sorted(task.init) and sorted(shuffled.goal, key=str) == sorted(task.goal, key=str)


def test_silver_abbreviation_keeps_ten_per_type_and_predicate() -> None:
    task = encode_task(problem(14), typed=True, domain=DOMAIN)
    text = render_task_abbreviated(task)
    objects_line, init_line, _goal = text.splitlines()
    assert objects_line.count("'thing')") == 10 and "..." in objects_line and "'box')" in objects_line
    assert init_line.count("('at',") == 10 and init_line.count("...") == 1 and "('open', 'b9')" in init_line
    pddl = render_problem_abbreviated(problem(14))
    assert "t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 ... - thing" in pddl and pddl.count("(at t") == 10 + 14  # init + goal
    assert ast.literal_eval(render_task_abbreviated(encode_task(problem(2), True, DOMAIN)).split(" = ", 1)[1].split("\n")[0])


@pytest.mark.parametrize(
    "line,expected",
    [("(sail l0 l1)", ("sail", ("l0", "l1"))), ("(SAIL L0 L1)", ("sail", ("l0", "l1"))), ("( board  c0 l0 )", ("board", ("c0", "l0")))],
)
def test_actions_parse_case_insensitively(line: str, expected: tuple) -> None:
    step = parse_action(line)
    assert (step.name, step.args) == expected and step.well_formed


def test_actions_without_parentheses_are_kept_but_marked() -> None:
    step = parse_action("sail l0 l1")
    assert step.name == "sail" and not step.well_formed and "parentheses" in (step.problem or "")
    assert parse_action("(sail (l0) l1)").name is None
    assert parse_action("  ").problem == "the action is an empty string"


def test_ipc_plan_files_with_comments_step_numbers_and_durations() -> None:
    text = "; a plan\n0: (SAIL l0 l1) [1]\n1.000: (board c0 l1)\n\n(debark c0 l0) ; done\n; cost = 3 (unit cost)\n"
    assert [s.pddl() for s in parse_plan_text(text)] == ["(sail l0 l1)", "(board c0 l1)", "(debark c0 l0)"]
    with pytest.raises(PddlError, match=r"plan.txt:2: expected '\(action arg \.\.\.\)'"):
        parse_plan_text("(sail l0 l1)\nsail l1 l0\n", "plan.txt")
