"""Checking the two kinds of artefacts the pipeline produces against the debug tasks.

Strategies are checked through the plans a model derives by following them (validated here); programs are
run in the sandbox and their plans validated. Both give one `TaskCheck` per debug task.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..pddl import Domain, Problem
from ..pddl.encoding import PythonTask, encode_task, render_task
from ..pddl.validate import PlanValidator, SYNTAX_KINDS
from ..sandbox import Limits, Program, Sandbox
from ..sandbox.outcome import PYTHON_ERROR_KINDS


@dataclass
class DebugTask:
    """A debug task with everything the prompts need."""

    name: str
    path: Path
    problem: Problem
    python: PythonTask
    pddl: str
    nl: str | None = None

    @property
    def python_text(self) -> str:
        return render_task(self.python)


@dataclass
class TaskCheck:
    task: str
    solved: bool
    kind: str | None = None  # validator kind or sandbox outcome kind
    message: str = ""  # the feedback message shown to the model
    output: list[str] | None = None  # the plan the model/program returned, if any
    python_error: bool = False  # exceptions, timeouts and other crashes: reported before plan errors
    runtime: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def solved_count(checks: list[TaskCheck]) -> int:
    return sum(c.solved for c in checks)


def validate_model_plan(domain: Domain, task: DebugTask, plan: list[str] | None, style: str, reason: str) -> TaskCheck:
    """A plan a model wrote while following a strategy (None: nothing could be extracted, `reason` says why)."""
    if plan is None:
        return TaskCheck(task.name, False, "no-plan", f"No plan could be found in the answer: {reason}")
    result = PlanValidator(domain, task.problem, style).validate(plan)  # type: ignore[arg-type]
    return TaskCheck(
        task.name,
        result.valid,
        result.kind,
        "" if result.valid else result.message,
        plan,
        details={"step": result.step, "unsatisfied": result.unsatisfied + result.unsatisfied_static},
    )


class ProgramChecker:
    """Runs program versions on the debug tasks in one sandbox (its fork servers are reused)."""

    def __init__(self, domain: Domain, tasks: list[DebugTask], timeout_s: float, function: str, style: str) -> None:
        self.domain = domain
        self.tasks = tasks
        self.function = function
        self.style = style
        self.sandbox = Sandbox(Limits(time_limit=timeout_s))
        self.validators = {t.name: PlanValidator(domain, t.problem, "silver" if style == "silver" else "stein") for t in tasks}

    def close(self) -> None:
        self.sandbox.close()

    def check(self, source: str, stop_at_first_failure: bool = False) -> list[TaskCheck]:
        program = Program.from_source(source, functions=(self.function,))
        results: list[TaskCheck] = []
        for task in self.tasks:
            check = self.check_one(program, task)
            results.append(check)
            if stop_at_first_failure and not check.solved:
                break
        return results

    def check_one(self, program: Program, task: DebugTask) -> TaskCheck:
        outcome = self.sandbox.run(program, task.python, hash_seed=0)
        if not outcome.returned_plan:
            return TaskCheck(
                task.name,
                False,
                outcome.kind,
                outcome.feedback("silver" if self.style == "silver" else "stein"),
                None,
                python_error=outcome.kind in PYTHON_ERROR_KINDS,
                runtime=outcome.runtime,
                details={"stdout": outcome.stdout[-2000:], "traceback": outcome.traceback or outcome.detail},
            )
        result = self.validators[task.name].validate(outcome.plan or [])
        return TaskCheck(
            task.name,
            result.valid,
            result.kind,
            "" if result.valid else result.message,
            outcome.plan,
            runtime=outcome.runtime,
            details={"step": result.step, "action": result.action, "syntax": result.kind in SYNTAX_KINDS},
        )


def choose_failed_task(checks: list[TaskCheck], previous: str | None) -> TaskCheck | None:
    """The failed task to report (the paper's rule): the same task again if it still fails, else a task
    with a Python error before one with a wrong plan, else the first failure in task order."""
    failed = [c for c in checks if not c.solved]
    if not failed:
        return None
    for c in failed:
        if c.task == previous:
            return c
    python_errors = [c for c in failed if c.python_error]
    return (python_errors or failed)[0]


def load_debug_tasks(domain: Domain, paths: list[Path], typed: bool) -> list[DebugTask]:
    from ..pddl import load_problem

    tasks = []
    for path in paths:
        problem = load_problem(path, domain)
        tasks.append(
            DebugTask(path.stem, path, problem, encode_task(problem, typed, domain), path.read_text(encoding="utf-8"))
        )
    return tasks
