"""Planner verdicts genplan can trust: the translation for Fast Downward keeps every type, plans are checked
by genplan's validator before use, and a verdict of "unsolvable" after a rewrite is confirmed or withheld."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from genplan.cli.main import main
from genplan.engine import planner as planner_module
from genplan.engine.pddl import Domain, Problem, load_domain, load_problem, parse_domain_text, parse_problem_text
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl
from genplan.engine.planner import (
    FAULT,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    PlannerResult,
    confirm_unsolvable,
    fast_downward_driver,
    solve,
)

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


# ------------------------------------------------------------------ verdicts checked before use

needs_fd = pytest.mark.skipif(
    fast_downward_driver() is None, reason="Fast Downward not found (install up-fast-downward or set GENPLAN_FAST_DOWNWARD)"
)
GRIPPER_DOMAIN = QUIRKS / "object-in-types-domain.pddl"  # the IPC gripper: `object` among its :types
GRIPPER_PROBLEM = QUIRKS / "object-in-types-problem.pddl"


def gripper(balls: int = 2, goal: str | None = None) -> tuple[Domain, Problem]:
    domain = load_domain(GRIPPER_DOMAIN)
    names = " ".join(f"ball{i}" for i in range(1, balls + 1))
    at = " ".join(f"(at ball{i} rooma)" for i in range(1, balls + 1))
    goal = goal or "(and " + " ".join(f"(at ball{i} roomb)" for i in range(1, balls + 1)) + ")"
    text = (f"(define (problem g) (:domain gripper-typed) (:objects robot1 - robot rooma roomb roomc - room "
            f"left right - gripper {names} - object) (:init (at-robby robot1 rooma) (free robot1 left) "
            f"(free robot1 right) {at}) (:goal {goal}))")
    return domain, parse_problem_text(text, domain)


def broken_writer(monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    """Fast Downward's input with a deliberate fault: ``old`` replaced by ``new`` in the written domain."""
    real = planner_module.domain_to_pddl

    def broken(domain: Domain) -> str:
        text = real(domain)
        assert old in text, text
        return text.replace(old, new)

    monkeypatch.setattr(planner_module, "domain_to_pddl", broken)


@needs_fd
def test_fast_downward_plans_the_ipc_gripper_and_says_what_was_rewritten() -> None:
    domain = load_domain(GRIPPER_DOMAIN)
    problem = load_problem(GRIPPER_PROBLEM, domain)
    result = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    assert result.status == SOLVED and result.plan is not None and len(result.plan) == 5, result
    assert validate_plan(domain, problem, result.plan).valid
    assert result.rewrites == ("'object' declared among :types (left out of the written domain: it is PDDL's root type)",)


@needs_fd
def test_a_plan_the_validator_refuses_is_a_translation_fault_never_a_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    # The written pick forgets that the gripper is no longer free: Fast Downward carries both balls in one hand.
    broken_writer(monkeypatch, " (not (free ?r ?g))))\n  (:action drop", "))\n  (:action drop")
    domain, problem = gripper(balls=2)
    result = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    assert result.status == FAULT and result.plan is None and not result.solved, result
    assert result.message.startswith("planner/translation fault: its plan fails genplan's validator")
    assert "(free robot1 " in result.message  # the precondition the refused plan violates
    assert result.rejected_plan and not validate_plan(domain, problem, result.rejected_plan).valid
    assert any("delete effects of action pick" in note for note in result.rewrites), result.rewrites


@needs_fd
def test_unsolvable_after_a_broken_translation_is_refuted_by_the_builtin_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # The written drop forgets to put the ball down: every goal `at` is unreachable for Fast Downward.
    broken_writer(monkeypatch, ":effect (and (at ?obj ?room) ", ":effect (and ")
    domain, problem = gripper(balls=2)
    result = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    assert result.status == FAULT and result.plan is None, result
    assert "Fast Downward called the task unsolvable, but the built-in search found a valid plan" in result.message
    assert any("add effects of action drop" in note for note in result.rewrites), result.rewrites


@needs_fd
def test_cli_reports_the_fault_and_prints_no_plan(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    broken_writer(monkeypatch, " (not (free ?r ?g))))\n  (:action drop", "))\n  (:action drop")
    code = main(["plan", str(GRIPPER_DOMAIN), str(GRIPPER_PROBLEM), "--timeout", "20"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and "planner/translation fault" in err
    code = main(["plan", str(GRIPPER_DOMAIN), str(GRIPPER_PROBLEM), "--timeout", "20", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["status"] == "fault" and report["plan"] is None and report["rewrites"]


@needs_fd
def test_unsolvable_after_a_rewrite_is_confirmed_by_the_builtin_search() -> None:
    domain, problem = gripper(balls=1, goal="(and (at ball1 roomb) (carry robot1 ball1 left))")
    result = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    assert result.status == UNSOLVABLE, result
    assert "confirmed by the built-in search" in result.message and "'object' declared among :types" in result.message


def test_unsolvable_the_builtin_search_cannot_confirm_in_time_is_unknown() -> None:
    # Eleven balls in three rooms: far too many states to exhaust in a tenth of a second.
    domain, problem = gripper(balls=11, goal="(and (at ball1 roomb) (carry robot1 ball1 left))")
    said = PlannerResult(UNSOLVABLE, None, "fast-downward", 0.5, "the task is unsolvable", rewrites=("a rewrite",))
    result = confirm_unsolvable(said, domain, problem, 0.1)
    assert result.status == UNKNOWN and result.message == "unknown (translation rewrote: a rewrite)"
    assert confirm_unsolvable(said, domain, problem, 0.0).status == UNKNOWN  # no time left at all


def test_a_builtin_plan_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    domain, problem = gripper(balls=1)
    wrong = PlannerResult(SOLVED, ["(move robot1 rooma roomb)"], "builtin", 0.0)
    monkeypatch.setattr(planner_module, "builtin_search", lambda *args, **kwargs: wrong)
    result = solve(domain, problem, planner="builtin")
    assert result.status == FAULT and result.plan is None and "the goal is not reached" in result.message


def test_an_untouched_translation_has_nothing_to_report() -> None:
    from genplan.engine.pddl.translation import translation_rewrites
    from genplan.engine.planner import fast_downward_input

    domain = load_domain(QUIRKS / "untyped-object-keyword-domain.pddl")
    problem = load_problem(QUIRKS / "untyped-object-keyword-problem.pddl", domain)
    assert translation_rewrites(domain, problem, *fast_downward_input(domain, problem)) == []


# ------------------------------------------------------------------ the entry points that use a planner's plan

FERRY = Path(__file__).resolve().parents[1] / "domains" / "ferry"
FERRY_BOARD_FAULT = (" (not (at ?car ?loc)) (not (empty-ferry))))", " (not (at ?car ?loc))))")  # two cars board one ferry


@needs_fd
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")
def test_eval_compare_planner_records_the_fault(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from support.ferry_model import CORRECT_PROGRAM

    broken_writer(monkeypatch, *FERRY_BOARD_FAULT)
    program = tmp_path / "solver.py"
    program.write_text(CORRECT_PROGRAM)
    report = tmp_path / "report.json"
    task = FERRY / "debug" / "task-05.pddl"
    code = main(["eval", str(program), str(FERRY), "--tasks", str(task), "--orderings", "1", "--compare-planner",
                 "--quiet", "--json", str(report)])
    assert code == 0
    planner = json.loads(report.read_text())["results"][0]["planner"]
    assert planner["status"] == FAULT and planner["plan_length"] is None, planner


@needs_fd
def test_the_debug_task_draw_gets_no_length_from_a_faulty_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    from genplan.engine.domainlib import DomainDir, _optimal_plan_length

    ferry = DomainDir.open(FERRY)
    domain = load_domain(ferry.domain_file)
    task = ferry.debug_tasks()[5]
    assert _optimal_plan_length(ferry, domain, task) is not None
    broken_writer(monkeypatch, *FERRY_BOARD_FAULT)
    assert _optimal_plan_length(ferry, domain, task) is None


def test_the_pddlego_solver_tells_the_model_of_a_fault_and_executes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from genplan.engine.pddlego import solver as solver_module

    domain_text = GRIPPER_DOMAIN.read_text()
    problem_text = GRIPPER_PROBLEM.read_text()
    wrong = PlannerResult(SOLVED, ["(move robot1 rooma roomb)"], "builtin", 0.0)
    for planner in ("auto", "builtin"):  # auto: the quick built-in search first; builtin: through solve()
        monkeypatch.setattr(solver_module, "builtin_search", lambda *args, **kwargs: wrong)
        monkeypatch.setattr(planner_module, "builtin_search", lambda *args, **kwargs: wrong)
        outcome = solver_module.PddlSolver(solver_module.coin_command, planner=planner).solve(domain_text, problem_text)
        assert not outcome.ok and outcome.commands is None and outcome.plan is None, outcome
        assert outcome.error is not None and "failed genplan's own check" in outcome.error
        assert "planner/translation fault" in outcome.error


def test_object_as_a_parent_is_no_rewrite_object_as_a_type_is() -> None:
    from genplan.engine.pddl.translation import _declares_object

    assert _declares_object("(define (domain d) (:types room object robot))")
    assert _declares_object("(define (domain d) (:types ball - thing object thing))")
    assert not _declares_object("(define (domain d) (:types room robot - object ball))")
    assert not _declares_object("(define (domain d) (:predicates (object ?x)))")


def test_batch_planner_results_recheck_old_verdicts_and_check_shipped_plans(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from genplan.engine.batch.jobs import attach_planner_results

    domain = load_domain(GRIPPER_DOMAIN)
    problem = load_problem(GRIPPER_PROBLEM, domain)
    result = SimpleNamespace(solved=True, name="gripper-1", task=SimpleNamespace(path=GRIPPER_PROBLEM, problem=problem),
                             runtime=0.1, plan_length=5, planner=None, optimal_planner=None)
    cache = tmp_path / "planner" / "gripper-1.json"
    cache.parent.mkdir()
    # What a batch of the old translation cached: the IPC gripper "unsolvable".
    cache.write_text(json.dumps({"task": "gripper-1", "planner": "fast-downward", "status": "unsolvable",
                                 "seconds": 0.1, "plan_length": None, "timeout": 5}))
    shipped = tmp_path / "plans_gbfs" / "gripper-1_plan.txt"
    shipped.parent.mkdir()
    shipped.write_text("(move robot1 rooma roomb)\n")  # a shipped plan that does not reach the goal
    attach_planner_results(domain, [result], tmp_path / "planner", 5.0, reference=lambda task: shipped)
    assert result.planner.status == FAULT and result.planner.plan_length is None
    assert json.loads(cache.read_text())["checked"] is True
    shipped.write_text((QUIRKS / "object-in-types-plan.txt").read_text())
    attach_planner_results(domain, [result], tmp_path / "planner", 5.0, reference=lambda task: shipped)
    assert result.planner.status == FAULT  # a checked verdict is kept: each task is planned once per batch
    cache.unlink()
    attach_planner_results(domain, [result], tmp_path / "planner", 5.0, reference=lambda task: shipped)
    assert result.planner.status == SOLVED and result.planner.plan_length == 5


@needs_fd
def test_the_old_object_translation_would_now_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The writer as it was: parameters of type object bare, so `?obj ?room - room` made the balls rooms.
    real = planner_module.domain_to_pddl
    monkeypatch.setattr(planner_module, "domain_to_pddl", lambda domain: real(domain).replace(" - object", ""))
    domain, problem = gripper(balls=2)
    result = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    assert result.status == FAULT and result.plan is None, result
    assert "Fast Downward called the task unsolvable, but the built-in search found a valid plan" in result.message
    assert any(note.startswith("the written files do not read back") for note in result.rewrites), result.rewrites


VAL = Path(__file__).resolve().parents[1].parent / "shared" / "tools" / "val" / "validate"


TOLL_DOMAIN = """(define (domain tolls)
  (:requirements :strips :typing :action-costs)
  (:types town)
  (:predicates (at ?t - town) (road ?a ?b - town))
  (:functions (total-cost) - number (toll ?a ?b - town) - number)
  (:action drive
    :parameters (?a ?b - town)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) (toll ?a ?b)))))
"""
# the direct road costs 10, the way round two steps of 2: the cheapest plan is the longer one
TOLL_PROBLEM = """(define (problem toll-3)
  (:domain tolls)
  (:objects home mid office - town)
  (:init (at home) (road home office) (road home mid) (road mid office)
         (= (toll home office) 10) (= (toll home mid) 2) (= (toll mid office) 2) (= (total-cost) 0))
  (:goal (at office))
  (:metric minimize (total-cost)))
"""


@pytest.mark.parametrize(("name", "metric", "cost"), [("toll", "total-cost", 4), ("late-types", "plan-length", None)])
@pytest.mark.parametrize("planner", ["builtin", "auto"])
def test_plan_json_carries_the_cost_and_the_metric(name: str, metric: str, cost: int | None, planner: str,
                                                   tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The cost is what VAL reports as the plan's value (total-cost where the task minimizes it, else the number
    of steps): checked against VAL when ../shared is there."""
    import subprocess

    if name == "toll":
        domain, problem = tmp_path / "toll-domain.pddl", tmp_path / "toll-problem.pddl"
        domain.write_text(TOLL_DOMAIN)
        problem.write_text(TOLL_PROBLEM)
    else:
        domain, problem = QUIRKS / f"{name}-domain.pddl", QUIRKS / f"{name}-problem.pddl"
    assert main(["plan", str(domain), str(problem), "--planner", planner, "--timeout", "60", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["metric"] == metric and answer["plan"]
    assert answer["cost"] == (cost if cost is not None else len(answer["plan"]))
    if VAL.exists():
        plan = tmp_path / "plan.txt"
        plan.write_text("\n".join(answer["plan"]) + "\n")
        output = subprocess.run([str(VAL), str(domain), str(problem), str(plan)], capture_output=True, text=True,
                                timeout=60, check=False).stdout
        assert f"Value: {answer['cost']:g}" in output, output[-400:]
