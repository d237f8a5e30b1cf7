"""Checking the two kinds of artefacts the pipeline produces against the debug tasks.

Strategies are checked through the plans a model derives by following them (validated here); programs are
run in the sandbox and their plans validated. Both give one `TaskCheck` per debug task.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.evaluation import (
    EvalTask,
    Evaluator,
    TaskResult,
    failure_rank,
    pick_failure,
    refusal_line,
    refused_import,
)
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.feedback.plans import no_plan, plan_feedback
from genplan.engine.pddl import Domain, Problem
from genplan.engine.pddl.encoding import PythonTask, encode_task, render_task
from genplan.engine.pddl.validate import SYNTAX_KINDS, PlanValidator
from genplan.engine.sandbox.limits import Limits
from genplan.engine.sandbox.outcome import OUTPUT_ERROR_KINDS, PYTHON_ERROR_KINDS
from genplan.engine.sandbox.program import Program


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
    wrong_output: bool = False  # not a list of strings: reported after Python errors, before plan errors
    runtime: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def solved_count(checks: list[TaskCheck]) -> int:
    return sum(c.solved for c in checks)


@dataclass
class Version:
    """A strategy or program version with its check results."""

    kind: str  # "strategy" | "program"
    label: str  # "v01" / "c1-v00"
    text: str
    file: str
    checks: list[TaskCheck] = field(default_factory=list)
    response_text: str = ""  # the model answer it came from (kept in the conversation)

    @property
    def solved(self) -> int:
        return solved_count(self.checks)


def best_version(versions: list[Version]) -> Version | None:
    """Most debug tasks solved; ties go to the later version (the paper's rule)."""
    best: Version | None = None
    for version in versions:
        if best is None or version.solved >= best.solved:
            best = version
    return best


def validate_model_plan(domain: Domain, task: DebugTask, plan: list[str] | None, style: FeedbackStyle, reason: str) -> TaskCheck:
    """A plan a model wrote while following a strategy (None: nothing could be extracted, `reason` says why)."""
    if plan is None:
        return TaskCheck(task.name, False, "no-plan", no_plan(reason))
    result = PlanValidator(domain, task.problem).validate(plan)
    return TaskCheck(
        task.name,
        result.valid,
        result.kind,
        "" if result.valid else plan_feedback(result, domain, style),
        plan,
        details={"step": result.step, "unsatisfied": result.unsatisfied + result.unsatisfied_static},
    )


class ProgramChecker:
    """Runs program versions on the debug tasks through the evaluation engine (one sandbox, reused)."""

    def __init__(
        self, domain: Domain, tasks: list[DebugTask], timeout_s: float, function: str, style: FeedbackStyle, orderings: int = 1,
        import_check: bool = False, ordered_sets: bool = False, redraw_seed: int | None = None,
    ) -> None:
        self.domain = domain
        # --faithful's redraw: the reference draws new orderings at every check (agents/validator_feedback_gen.py);
        # here each check's draw is seeded by ``redraw_seed`` and the check's number, so a run stays reproducible
        self.redraw_seed = redraw_seed
        self.checks_made = 0
        self.import_check = import_check
        self.orderings = orderings
        self.function = function
        self.also_accepted: tuple[str, ...] = ()  # further entry functions a program may define instead (Bas: get_plan)
        self.style = FeedbackStyle(style).of_programs
        self.evaluator = Evaluator(domain, [], limits=Limits(time_limit=timeout_s), style=self.style)
        self.evaluator.ordered_sets = ordered_sets
        self.tasks = tasks

    @property
    def tasks(self) -> list[DebugTask]:
        return self._tasks

    @tasks.setter
    def tasks(self, tasks: list[DebugTask]) -> None:
        """The order matters for stop-at-first-failure (Silver et al. check the prompt tasks first)."""
        self._tasks = list(tasks)
        self.evaluator.tasks = [EvalTask(t.name, t.path, t.problem, t.python) for t in self._tasks]

    def close(self) -> None:
        self.evaluator.close()

    def check(self, source: str, stop_at_first_failure: bool = False) -> list[TaskCheck]:
        """Each debug task under ``orderings`` random orderings (the reference code uses 4: a task counts as
        solved only if all of them succeed; the first failing ordering is the one reported)."""
        risk = refused_import(source) if self.import_check else None
        if risk is not None:
            return self._refused(risk, stop_at_first_failure)
        program = Program.from_source(source, functions=(self.function, *self.also_accepted))
        self.checks_made += 1
        if self.redraw_seed is not None:
            self.evaluator.draw = f"{self.redraw_seed}:{self.checks_made}"
        results = self.evaluator.evaluate(
            program, orderings=self.orderings, stop_at_first_failure=stop_at_first_failure
        )
        return [self._as_check(r, self._shown_input(r)) for r in results]

    def _shown_input(self, result: TaskResult) -> str:
        """The input the reported run saw: feedback shows the task in that ordering."""
        run = result.failure or result.orderings[0]
        if self.evaluator.ordered_sets:
            return render_task(self.evaluator.reference_input(result.task, run.ordering))
        return render_task(result.task.ordering(run.ordering))

    def _refused(self, risk: str, stop_at_first_failure: bool) -> list[TaskCheck]:
        """--faithful's import check: the program is not run; every task fails with the refusal as a Python
        exception, which is fed back like any other."""
        from genplan.engine.feedback.programs import exception_message
        from genplan.engine.sandbox.outcome import EXCEPTION

        line = refusal_line(risk)
        tasks = self._tasks[:1] if stop_at_first_failure else self._tasks
        return [
            TaskCheck(t.name, False, EXCEPTION, exception_message(line), None, python_error=True,
                      details={"traceback": line, "refused_import": risk, "python_input": t.python_text})
            for t in tasks
        ]

    @staticmethod
    def _as_check(result: TaskResult, shown_input: str | None = None) -> TaskCheck:
        run = result.failure or result.orderings[0]
        outcome, validation = run.outcome, run.validation
        details: dict[str, Any] = {"stdout": outcome.stdout[-2000:]}
        if validation is None:
            details["traceback"] = outcome.traceback or outcome.detail
        else:
            details.update(step=validation.step, action=validation.action, syntax=validation.kind in SYNTAX_KINDS)
        return TaskCheck(
            result.name,
            result.solved,
            None if result.solved else run.kind,
            run.message,
            outcome.plan,
            python_error=outcome.kind in PYTHON_ERROR_KINDS,
            wrong_output=outcome.kind in OUTPUT_ERROR_KINDS,
            runtime=outcome.runtime,
            # the input the failing run saw: feedback shows the task in that ordering
            details={**details, "ordering": run.ordering,
                     "python_input": shown_input or render_task(result.task.ordering(run.ordering))},
        )


def choose_failed_task(checks: list[TaskCheck], previous: str | None) -> TaskCheck | None:
    """The failed task to report, by the rule of `evaluation.pick_failure` (also for model-written plans)."""
    return pick_failure(
        checks,
        previous,
        failed=lambda c: not c.solved,
        name=lambda c: c.task,
        rank=lambda c: failure_rank(c.kind or ""),
    )


def load_debug_tasks(domain: Domain, paths: list[Path], typed: bool) -> list[DebugTask]:
    from genplan.engine.pddl import load_problem

    tasks = []
    for path in paths:
        problem = load_problem(path, domain)
        tasks.append(
            DebugTask(path.stem, path, problem, encode_task(problem, typed, domain), path.read_text(encoding="utf-8"))
        )
    return tasks
