"""Coverage over tasks x orderings, the error table, the debugging failure choice, planner comparison."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from genplan.engine.domainlib import DomainDir
from genplan.engine.evaluation import (
    EvalTask,
    Evaluation,
    Evaluator,
    OrderingResult,
    TaskResult,
    choose_failure,
    evaluate_program,
    hash_seed_for,
    load_tasks,
)
from genplan.engine.pddl import load_domain
from genplan.engine.pddl.validate import ValidationResult
from genplan.engine.sandbox import Limits, Program, ProgramOutcome, Sandbox

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

FERRY = Path(__file__).resolve().parents[1] / "domains" / "ferry"

FERRY_SOLVER = """
def generate_solution(objects, init, goal):
    ferry_at = None
    car_at = {}
    for fact in init:
        if fact[0] == "at-ferry":
            ferry_at = fact[1]
        elif fact[0] == "at":
            car_at[fact[1]] = fact[2]
    plan = []
    for fact in goal:
        car, target = fact[1], fact[2]
        here = car_at[car]
        if here == target:
            continue
        if ferry_at != here:
            plan.append(f"(sail {ferry_at} {here})")
        plan += [f"(board {car} {here})", f"(sail {here} {target})", f"(debark {car} {target})"]
        ferry_at = target
        car_at[car] = target
    return plan
"""

# Correct, except that it forgets the last action whenever the first object it sees is the car c0:
# whether that happens depends on the ordering (set iteration order).
ORDER_DEPENDENT = FERRY_SOLVER.replace(
    "    return plan\n", "    if next(iter(objects)) == 'c0':\n        plan = plan[:-1]\n    return plan\n"
)
FIRST_OBJECT = "def generate_solution(objects, init, goal):\n    return [next(iter(objects))]\n"


@pytest.fixture(scope="module")
def ferry() -> tuple[DomainDir, object, list[EvalTask]]:
    domain_dir = DomainDir.open(FERRY)
    domain = load_domain(domain_dir.domain_file)
    tasks = load_tasks(domain, domain_dir.debug_tasks(), domain_dir.typed_objects, root=domain_dir.path)
    return domain_dir, domain, tasks


@pytest.fixture(scope="module")
def evaluator(ferry) -> Iterator[Evaluator]:
    _dir, domain, tasks = ferry
    with Evaluator(domain, tasks, limits=Limits(time_limit=10)) as ev:
        yield ev


def test_correct_program_solves_every_task_under_every_ordering(evaluator: Evaluator) -> None:
    results = evaluator.evaluate(Program.from_source(FERRY_SOLVER), orderings=4, jobs=2)
    assert [r.name for r in results] == [f"debug/task-0{i}" for i in range(6)]
    assert all(r.solved and r.status == "solved" for r in results)
    assert all(len(r.orderings) == 4 for r in results)
    assert [o.outcome.hash_seed for o in results[0].orderings] == [0, 1, 2, 3]
    assert results[0].plan_length == 3 and results[0].error_kind is None


def test_a_task_counts_only_if_all_orderings_succeed(evaluator: Evaluator) -> None:
    # What the program sees first under each ordering, observed in the sandbox itself.
    probe = Program.from_source(FIRST_OBJECT)
    first_seen = {
        task.name: [evaluator.run_one(probe, task, k).outcome.plan[0] for k in range(4)] for task in evaluator.tasks
    }
    results = evaluator.evaluate(Program.from_source(ORDER_DEPENDENT), orderings=4, jobs=2)
    for result in results:
        expected = "c0" not in first_seen[result.name]
        assert result.solved == expected, (result.name, first_seen[result.name])
        if not expected:
            assert result.error_kind == "goal-not-reached" and result.category == "goal not satisfied"
            # It stopped at the first failing ordering.
            first_bad = first_seen[result.name].index("c0")
            assert result.failure.ordering == first_bad and len(result.orderings) == first_bad + 1
    # With these fixed hash seeds both cases occur (deterministic for a given Python version).
    assert not all(r.solved for r in results) and any(r.solved for r in results)


def test_orderings_are_reproducible(evaluator: Evaluator) -> None:
    task = evaluator.tasks[5]
    assert task.ordering(0) == task.python
    assert task.ordering(2) == task.ordering(2) and task.ordering(2) != task.ordering(3)
    assert sorted(task.ordering(3).init) == sorted(task.python.init)
    assert hash_seed_for(3) == 3


@pytest.mark.parametrize(
    ("source", "kind", "category"),
    [
        ("def generate_solution(o, i, g):\n    return {}['x']\n", "exception", "exception"),
        ("def generate_solution(o, i, g):\n    while True:\n        pass\n", "timeout", "timeout"),
        ("def generate_solution(o, i, g):\n    return 'sail'\n", "wrong-type", "wrong type"),
        ("def generate_solution(o, i, g):\n    return ['(fly l0 l1)']\n", "unknown-action", "invalid action"),
        ("def generate_solution(o, i, g):\n    return ['(debark c0 l0)']\n", "unsatisfied-precondition", "invalid action"),
        ("def generate_solution(o, i, g):\n    return []\n", "goal-not-reached", "goal not satisfied"),
    ],
)
def test_error_table(ferry, source: str, kind: str, category: str) -> None:
    _dir, domain, tasks = ferry
    limits = Limits(time_limit=0.5, grace_seconds=0.3)
    with Evaluator(domain, tasks[:2], limits=limits) as ev:
        results = ev.evaluate(Program.from_source(source), orderings=2)
    evaluation = Evaluation("p.py", "ferry", 2, 0.5, "stein", results)
    assert evaluation.solved == 0 and evaluation.coverage == 0.0
    assert evaluation.error_table()[category] == 2
    assert sum(evaluation.error_table().values()) == 2
    assert evaluation.error_kinds() == {kind: 2}
    assert all(r.message for r in results)
    data = evaluation.to_dict()
    assert data["results"][0]["orderings"][0]["kind"] == kind


def test_stop_at_first_failure_and_progress(evaluator: Evaluator) -> None:
    seen: list[tuple[str, int, int]] = []
    source = FERRY_SOLVER.replace("    plan = []\n", "    plan = []\n    if len(objects) > 6:\n        return None\n")
    results = evaluator.evaluate(
        Program.from_source(source),
        orderings=1,
        stop_at_first_failure=True,
        progress=lambda r, done, total: seen.append((r.name, done, total)),
    )
    # debug tasks have 3, 4, 6, 7, ... objects: the fourth is the first failure
    assert [r.solved for r in results] == [True, True, True, False]
    assert seen[-1] == ("debug/task-03", 4, 6)


def test_parallel_and_sequential_agree(evaluator: Evaluator) -> None:
    program = Program.from_source(ORDER_DEPENDENT)
    sequential = evaluator.evaluate(program, orderings=3, jobs=1)
    parallel = evaluator.evaluate(program, orderings=3, jobs=3)
    assert [(r.name, r.status, r.error_kind) for r in sequential] == [(r.name, r.status, r.error_kind) for r in parallel]


def test_cancel_stops_early(evaluator: Evaluator) -> None:
    cancel = threading.Event()
    cancel.set()
    assert evaluator.evaluate(Program.from_source(FERRY_SOLVER), orderings=1, cancel=cancel) == []


def test_planner_comparison(ferry) -> None:
    _dir, domain, tasks = ferry
    with Evaluator(domain, tasks[:2], limits=Limits(time_limit=10)) as ev:
        results = ev.evaluate(Program.from_source(FERRY_SOLVER), orderings=1)
        ev.compare_with_planner(results, timeout=30)
    for result in results:
        assert result.planner is not None and result.planner.status == "solved"
        assert result.planner.length_ratio == pytest.approx(result.plan_length / result.planner.plan_length)
        assert result.planner.runtime_ratio is not None and result.planner.runtime_ratio >= 0
    summary = Evaluation("p", "ferry", 1, 10, "stein", results).planner_summary()
    assert summary["tasks_compared"] == 2 and summary["length_ratio_mean"] >= 1.0


def test_evaluate_program_wrapper() -> None:
    domain_dir = DomainDir.open(FERRY)
    evaluation = evaluate_program(
        Program.from_source(FERRY_SOLVER),
        domain_dir.domain_file,
        domain_dir.debug_tasks()[:2],
        typed=False,
        orderings=2,
        limits=Limits(time_limit=10),
        root=domain_dir.path,
    )
    assert evaluation.solved == 2 and evaluation.to_dict()["coverage"] == 1.0


# ------------------------------------------------------------- failure choice


def _result(name: str, kind: str | None) -> TaskResult:
    task = EvalTask(name, Path(name), None, None)  # type: ignore[arg-type]
    result = TaskResult(task, orderings_wanted=1)
    if kind is None:
        result.orderings.append(OrderingResult(0, ProgramOutcome(kind="plan", plan=[]), ValidationResult(valid=True)))
    elif kind in ("goal-not-reached", "unsatisfied-precondition"):
        validation = ValidationResult(valid=False, kind=kind)
        result.orderings.append(OrderingResult(0, ProgramOutcome(kind="plan", plan=[]), validation, f"{name} {kind}"))
    else:
        result.orderings.append(OrderingResult(0, ProgramOutcome(kind=kind), None, f"{name} {kind}"))
    return result


def test_choose_failure_prefers_python_errors_then_output_then_plans() -> None:
    results = [
        _result("t0", None),
        _result("t1", "goal-not-reached"),
        _result("t2", "wrong-type"),
        _result("t3", "timeout"),
        _result("t4", "exception"),
    ]
    assert choose_failure(results).name == "t3"
    assert choose_failure(results[:3]).name == "t2"
    assert choose_failure(results[:2]).name == "t1"
    assert choose_failure(results[:1]) is None


def test_choose_failure_keeps_the_same_task_while_it_fails() -> None:
    results = [_result("t0", "exception"), _result("t1", "unsatisfied-precondition")]
    assert choose_failure(results, previous="t1").name == "t1"
    fixed = [_result("t0", "exception"), _result("t1", None)]
    assert choose_failure(fixed, previous="t1").name == "t0"


def test_pipeline_checks_use_the_same_choice() -> None:
    """The pipeline's TaskCheck (programs' runs and model-written plans) follows the same rule."""
    from genplan.engine.pipeline.checks import TaskCheck, choose_failed_task

    checks = [
        TaskCheck("t0", True),
        TaskCheck("t1", False, kind="goal-not-reached"),
        TaskCheck("t2", False, kind="wrong-type", wrong_output=True),
        TaskCheck("t3", False, kind="timeout", python_error=True),
        TaskCheck("t4", False, kind="exception", python_error=True),
    ]
    assert choose_failed_task(checks, None).task == "t3"
    assert choose_failed_task(checks[:3], None).task == "t2"
    assert choose_failed_task(checks, previous="t1").task == "t1"
    assert choose_failed_task(checks[:1], previous="t0") is None


def test_sandbox_can_be_shared_between_evaluators(ferry) -> None:
    _dir, domain, tasks = ferry
    with Sandbox(Limits(time_limit=10)) as box:
        first = Evaluator(domain, tasks[:1], sandbox=box)
        second = Evaluator(domain, tasks[1:2], sandbox=box)
        assert first.evaluate(Program.from_source(FERRY_SOLVER), orderings=1)[0].solved
        first.close()  # does not close a sandbox it was given
        assert second.evaluate(Program.from_source(FERRY_SOLVER), orderings=1)[0].solved
