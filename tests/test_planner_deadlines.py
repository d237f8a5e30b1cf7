"""Every planner call ends at its limit, whatever the task: grounding bombs of our own on each planner path.

tests/data/bombs/sprawl: an action with nine parameters that no precondition ties to the state (40^8 bindings
in every state), as a model once wrote by accident in a PDDLego+ trial; quantified: the same blow-up inside an
``exists`` of nine variables. Before budgets were checked inside successor generation, the built-in search spent
hours in its first expansion and never looked at its clock.

The bounds asserted here are not speed measurements: a call either ends near its limit or runs for hours. They
allow for a busy shared machine (the limit plus several seconds of slack, Fast Downward's plus its wall-clock
backstop, engine/planner.py ``fast_downward_wall_limit``).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from genplan.engine.autotos import pddl_family
from genplan.engine.autotos.domains import DataError
from genplan.engine.autotos.pddl_family import PddlTasks, build_pddl_domain
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.budget import Budget, BudgetExceeded
from genplan.engine.pddl.model import Task
from genplan.engine.pddlego.solver import PddlSolver
from genplan.engine.planner import (
    LIMIT,
    Successors,
    builtin_search,
    fast_downward_driver,
    fast_downward_wall_limit,
    solve,
)

BOMBS = Path(__file__).resolve().parent / "data" / "bombs"
SPRAWL = (BOMBS / "sprawl-domain.pddl", BOMBS / "sprawl-problem.pddl")
QUANTIFIED = (BOMBS / "quantified-domain.pddl", BOMBS / "quantified-problem.pddl")
SWITCHES = (BOMBS / "switches-domain.pddl", BOMBS / "switches-problem.pddl")
LIMIT_S = 2.0
SLACK_S = 8.0  # a loaded machine: start-up and the last few thousand bindings before the clock is looked at
HAS_FAST_DOWNWARD = fast_downward_driver() is not None
needs_fast_downward = pytest.mark.skipif(not HAS_FAST_DOWNWARD, reason="Fast Downward not installed (up-fast-downward)")


def _task(files: tuple[Path, Path]) -> tuple[object, object]:
    domain = load_domain(files[0])
    return domain, load_problem(files[1], domain)


@pytest.fixture
def no_fast_downward(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GENPLAN_FAST_DOWNWARD", str(tmp_path / "no-such-driver"))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("files", [SPRAWL, QUANTIFIED], ids=["parameters", "quantifier"])
@pytest.mark.parametrize("optimal", [True, False], ids=["optimal", "satisficing"])
def test_the_builtin_search_ends_at_its_limit_inside_a_grounding_bomb(files: tuple[Path, Path], optimal: bool) -> None:
    domain, problem = _task(files)
    start = time.monotonic()
    result = builtin_search(domain, problem, optimal=optimal, timeout=LIMIT_S)  # type: ignore[arg-type]
    assert result.status == LIMIT and result.message == f"no plan within the limit of {LIMIT_S:g} s", result
    assert time.monotonic() - start < LIMIT_S + SLACK_S


@pytest.mark.timeout(120)
def test_genplan_plan_with_the_builtin_search_ends_at_its_limit(no_fast_downward: None, tmp_path: Path) -> None:
    from genplan.cli.main import main

    start = time.monotonic()
    assert main(["plan", "--timeout", str(LIMIT_S), "--json", *map(str, SPRAWL)]) == 1
    assert time.monotonic() - start < LIMIT_S + SLACK_S


@pytest.mark.timeout(120)
def test_genplan_plan_json_reports_the_limit(no_fast_downward: None, capsys: pytest.CaptureFixture[str]) -> None:
    from genplan.cli.main import main

    assert main(["plan", "--timeout", str(LIMIT_S), "--json", *map(str, SPRAWL)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "limit" and answer["plan"] is None and answer["cost"] is None
    assert answer["planner"].startswith("builtin")


@pytest.mark.timeout(180)
@needs_fast_downward
def test_fast_downward_on_a_grounding_bomb_ends_at_its_limit() -> None:
    domain, problem = _task(SPRAWL)
    start = time.monotonic()
    result = solve(domain, problem, optimal=True, timeout=LIMIT_S, planner="fast-downward")  # type: ignore[arg-type]
    assert result.status == LIMIT, result
    assert time.monotonic() - start < fast_downward_wall_limit(LIMIT_S) + SLACK_S


@pytest.mark.timeout(120)
@pytest.mark.parametrize("optimal", [True, False], ids=["optimal", "satisficing"])
def test_the_memory_budget_ends_a_search_that_grows(optimal: bool) -> None:
    """20 MB to spare above what the process holds, for a search that stores 2^24 states: the memory limit
    ends it (the time limit is far away)."""
    domain, problem = _task(SWITCHES)
    result = builtin_search(domain, problem, optimal=optimal, timeout=600, memory_mb=20)  # type: ignore[arg-type]
    assert result.status == LIMIT and result.message == "no plan within the memory limit of 20 MB", result
    assert result.seconds < 100


@pytest.mark.timeout(60)
def test_a_budget_counts_bindings_of_quantifiers_and_of_parameters() -> None:
    domain, problem = _task(QUANTIFIED)
    budget = Budget(0.0)  # already over: the first look at the clock ends the enumeration
    task = Task(domain, problem, budget=budget)  # type: ignore[arg-type]
    with pytest.raises(BudgetExceeded) as exceeded:
        list(Successors(task).applicable(task.init_state))
    assert exceeded.value.what == "time"
    domain, problem = _task(SPRAWL)
    task = Task(domain, problem, budget=Budget(0.0))  # type: ignore[arg-type]
    with pytest.raises(BudgetExceeded):
        list(Successors(task).applicable(task.init_state))


def _mapper(name: str, args: list[str]) -> str:
    return " ".join([name, *args])


@pytest.mark.timeout(180)
@pytest.mark.parametrize("planner", ["auto", "builtin"])
def test_the_pddlego_solver_ends_at_its_limit_on_a_grounding_bomb(planner: str) -> None:
    """The published trial's shape: the quick built-in pass (its own short limit), then Fast Downward."""
    if planner == "auto" and not HAS_FAST_DOWNWARD:
        pytest.skip("Fast Downward not installed (up-fast-downward): 'auto' is the built-in search alone")
    solver = PddlSolver(_mapper, timeout=LIMIT_S, planner=planner, quick_seconds=1.0)
    start = time.monotonic()
    outcome = solver.solve(SPRAWL[0].read_text(), SPRAWL[1].read_text())
    assert not outcome.ok and outcome.error is not None and "within its limits" in outcome.error, outcome
    bound = 1.0 + (fast_downward_wall_limit(LIMIT_S) if planner == "auto" else LIMIT_S)
    assert time.monotonic() - start < bound + SLACK_S


@pytest.mark.timeout(180)
def test_autotos_pddl_family_on_a_grounding_bomb_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The optimal plans of the tests come from the planner (within its limit); the simulator that lists a
    state's successors has a limit of its own and says what is wrong instead of running for hours."""
    monkeypatch.setattr(pddl_family, "SIMULATOR_SECONDS", 1.0)
    tasks = PddlTasks(SPRAWL[0], [SPRAWL[1]], [SPRAWL[1]], typed=True, planner="builtin", planner_timeout=LIMIT_S)
    start = time.monotonic()
    with pytest.raises(DataError, match="too many bindings") as error:
        build_pddl_domain(tasks)
    assert "within 1 s" in str(error.value) and "sprawl" in str(error.value)
    assert time.monotonic() - start < LIMIT_S + 1.0 + SLACK_S


BOMB_PROGRAM = 'def generate_solution(objects, init, goal):\n    return ["(walk p0 p1)", "(walk p1 p2)", "(walk p2 p3)"]\n'


@pytest.mark.timeout(240)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")
@pytest.mark.parametrize("planner", ["builtin", "fast-downward"])
def test_evals_planner_comparison_ends_at_its_limit(planner: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from genplan.engine.evaluation import Evaluator, load_tasks
    from genplan.engine.sandbox import Limits, Program

    if planner == "builtin":
        monkeypatch.setenv("GENPLAN_FAST_DOWNWARD", str(tmp_path / "no-such-driver"))
    elif not HAS_FAST_DOWNWARD:
        pytest.skip("Fast Downward not installed (up-fast-downward)")
    domain = load_domain(SPRAWL[0])
    tasks = load_tasks(domain, [SPRAWL[1]], False)
    with Evaluator(domain, tasks, limits=Limits(time_limit=30)) as evaluator:
        results = evaluator.evaluate(Program.from_source(BOMB_PROGRAM), orderings=1)
        assert [r.solved for r in results] == [True]
        start = time.monotonic()
        evaluator.compare_with_planner(results, timeout=LIMIT_S)
        elapsed = time.monotonic() - start
    comparison = results[0].planner
    assert comparison is not None and comparison.status == LIMIT, comparison
    assert elapsed < (fast_downward_wall_limit(LIMIT_S) if planner == "fast-downward" else LIMIT_S) + SLACK_S


@pytest.mark.timeout(240)
@pytest.mark.parametrize("planner", ["builtin", "fast-downward"])
def test_reproduces_planner_table_ends_at_its_limit(planner: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The planner coverage table (genplan reproduce, planner_coverage in an experiment): both planners on an
    evaluation task that is a grounding bomb, each run written down as a limit."""
    from genplan.engine.batch import load_experiment
    from genplan.engine.batch.planner_coverage import run_planner_coverage

    if planner == "builtin":
        monkeypatch.setenv("GENPLAN_FAST_DOWNWARD", str(tmp_path / "no-such-driver"))
    elif not HAS_FAST_DOWNWARD:
        pytest.skip("Fast Downward not installed (up-fast-downward)")
    sprawl = tmp_path / "sprawl"
    (sprawl / "problems_pddl").mkdir(parents=True)
    shutil.copy(SPRAWL[0], sprawl / "domain.pddl")
    for index in range(7):  # the paper's layout: instance-0..5 debug tasks, instance-6 the evaluation task
        shutil.copy(SPRAWL[1], sprawl / "problems_pddl" / f"instance-{index}.pddl")
    experiment = tmp_path / "grid.toml"
    experiment.write_text(
        f'[experiment]\nname = "g"\ndomains = ["{sprawl}"]\npresets = ["Sil"]\nseeds = [1]\n'
        f"planner_coverage = [{LIMIT_S}]\n\n[[models]]\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n")
    start = time.monotonic()
    assert run_planner_coverage(load_experiment(experiment), tmp_path / "batch", jobs=1) == 2  # lm and ff
    elapsed = time.monotonic() - start
    runs = sorted((tmp_path / "batch" / "planner-coverage").glob("*/sprawl/*.json"))
    assert len(runs) == 2 and all(json.loads(r.read_text())["status"] == LIMIT for r in runs)
    per_run = fast_downward_wall_limit(LIMIT_S) if planner == "fast-downward" else LIMIT_S
    assert elapsed < 2 * per_run + SLACK_S


def _processes_working_in(prefix: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and prefix in str((entry / "cwd").readlink()):
                found.append(int(entry.name))
        except OSError:
            continue  # gone, or not ours to look at
    return found


@pytest.mark.timeout(120)
@needs_fast_downward
def test_the_counterexample_translator_call_ends_at_its_limit_with_its_children() -> None:
    """The mutex groups of genplan counterexample come from Fast Downward's translator: on a grounding bomb it
    is ended at its limit, the translator (the driver's child) with it."""
    from genplan.engine.counterexample.invariants import translator_groups

    domain, problem = _task(SPRAWL)
    start = time.monotonic()
    answer = translator_groups(domain, problem, timeout=LIMIT_S)  # type: ignore[arg-type]
    assert answer == f"Fast Downward's translator took longer than {LIMIT_S:g} s"
    assert time.monotonic() - start < LIMIT_S + SLACK_S
    for _ in range(50):  # a killed process may take a moment to be gone; a translator left running never is
        if not _processes_working_in("genplan-invariants-"):
            break
        time.sleep(0.1)
    assert _processes_working_in("genplan-invariants-") == []
