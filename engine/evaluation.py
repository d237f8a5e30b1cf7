"""Evaluating a generated program on a domain's tasks: coverage over tasks x input orderings.

A task counts as solved only if the program returns a valid plan under every ordering (Stein et al.
run 4 random orderings of objects, init and goal; ordering 0 is the file order, ordering k > 0 is
``shuffled_task(task, seed=k)`` run with PYTHONHASHSEED=k, so set iteration order changes too and
every ordering is reproducible). The same engine serves the pipeline's debugging: run on the debug
tasks, optionally stop at the first failure, and choose which failed task to report.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.feedback import FeedbackStyle
from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.feedback.programs import run_feedback
from genplan.engine.pddl import Domain, PddlError, Problem, load_domain, load_problem
from genplan.engine.pddl.encoding import PythonTask, encode_task, reference_orderings, shuffled_task
from genplan.engine.pddl.validate import GOAL_NOT_REACHED, PlanValidator, ValidationResult
from genplan.engine.sandbox.limits import Limits
from genplan.engine.sandbox.outcome import (
    CATEGORIES,
    CATEGORY_GOAL,
    CATEGORY_INVALID_ACTION,
    EXCEPTION,
    OUTPUT_ERROR_KINDS,
    PLAN,
    PYTHON_ERROR_KINDS,
    RESULT_TOO_LARGE,
    ProgramOutcome,
)
from genplan.engine.sandbox.program import Program
from genplan.engine.sandbox.runner import Sandbox

VALID = "valid"
# The reference code's safety check (agents/gen_plan_execution.py, run_safety_checks), applied in its debugging
# and in its evaluation (eval_configs/*.json, safety_checks): a program whose text contains one of these strings
# is not run. Its third string is "import shutils", so `import shutil` passes.
REFERENCE_IMPORT_RISKS = ("import sys", "import os", "import shutils")


def refused_import(source: str) -> str | None:
    """The first of the reference's risky imports the program's text contains, if any."""
    return next((risk for risk in REFERENCE_IMPORT_RISKS if risk in source), None)


def refusal_line(risk: str) -> str:
    """The error a refused program gets instead of a run (--faithful's import check)."""
    return (f"RuntimeError: the program contains `{risk}`, which the safety check does not allow, so it was "
            "not run. Write it without that import.")

DEFAULT_ORDERINGS = 4
# Validation is bounded by the time limit too: a program returning millions of valid steps must not make an
# evaluation run minutes past its timeout. The validator checks tens of thousands of actions per second on a
# loaded machine; a plan longer than this many actions per second of time limit is not checked at all (every
# shipped task needs a few thousand at most).
CHECKED_ACTIONS_PER_SECOND = 5_000
MIN_CHECKED_ACTIONS = 10_000


def plan_length_cap(limits: Limits) -> int:
    """The longest plan validated under ``limits`` (longer ones are reported as too large to check)."""
    return max(MIN_CHECKED_ACTIONS, int(CHECKED_ACTIONS_PER_SECOND * limits.time_limit))


# ------------------------------------------------------------------ tasks


@dataclass
class EvalTask:
    """One task: its PDDL problem and its Python encoding in file order."""

    name: str  # e.g. "eval/task-003"
    path: Path
    problem: Problem
    python: PythonTask

    def ordering(self, index: int) -> PythonTask:
        """The program input of ordering ``index``: file order for 0, a seeded shuffle otherwise."""
        return self.python if index == 0 else shuffled_task(self.python, seed=index)


def hash_seed_for(ordering: int) -> int:
    """PYTHONHASHSEED of the server that runs ordering ``ordering`` (0 = no hash randomization)."""
    return ordering


def load_tasks(domain: Domain, paths: Iterable[Path | str], typed: bool, root: Path | None = None) -> list[EvalTask]:
    """Parse the task files (PddlError on a bad file) and encode them for programs."""
    tasks = []
    for raw in paths:
        path = Path(raw)
        problem = load_problem(path, domain)
        name = _task_name(path, root)
        tasks.append(EvalTask(name, path, problem, encode_task(problem, typed=typed, domain=domain)))
    return tasks


def _task_name(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return str(path.resolve().relative_to(root.resolve()).with_suffix(""))
        except ValueError:
            pass
    return str(path.with_suffix("")) if not path.is_absolute() else path.stem


# ---------------------------------------------------------------- results


@dataclass
class OrderingResult:
    ordering: int
    outcome: ProgramOutcome
    validation: ValidationResult | None = None
    message: str = ""  # the feedback message for a failure ("" when valid)

    @property
    def valid(self) -> bool:
        return self.validation is not None and self.validation.valid

    @property
    def kind(self) -> str:
        """``valid``, a run failure kind (timeout, exception, ...) or a validation kind."""
        if self.outcome.kind != PLAN:
            return self.outcome.kind
        if self.validation is None:
            return "unvalidated"
        return VALID if self.validation.valid else str(self.validation.kind)

    @property
    def category(self) -> str | None:
        """The column of the paper's error table; None when valid."""
        if self.outcome.kind != PLAN:
            return self.outcome.category
        if self.validation is None or self.validation.valid:
            return None
        return CATEGORY_GOAL if self.validation.kind == GOAL_NOT_REACHED else CATEGORY_INVALID_ACTION

    @property
    def plan_length(self) -> int | None:
        return len(self.outcome.plan) if self.outcome.plan is not None else None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "ordering": self.ordering,
            "hash_seed": self.outcome.hash_seed,
            "kind": self.kind,
            "category": self.category,
            "message": self.message,
            "runtime": self.outcome.runtime,
            "wall_time": self.outcome.wall_time,
            "peak_memory": self.outcome.peak_memory,
            "plan_length": self.plan_length,
            "stdout": self.outcome.stdout,
            "stdout_bytes": self.outcome.stdout_bytes,
        }
        if self.validation is not None and not self.validation.valid:
            out["validation"] = {
                "kind": self.validation.kind,
                "step": self.validation.step,
                "action": self.validation.action,
            }
        return out


@dataclass
class PlannerComparison:
    planner: str
    status: str
    seconds: float
    plan_length: int | None
    runtime_ratio: float | None  # program runtime / planner runtime (< 1: the program is faster)
    length_ratio: float | None  # program plan length / planner plan length (> 1: longer plans)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class TaskResult:
    task: EvalTask
    orderings: list[OrderingResult] = field(default_factory=list)
    orderings_wanted: int = 1
    planner: PlannerComparison | None = None  # the satisficing planner (GBFS + FF)
    optimal_planner: PlannerComparison | None = None  # the optimal planner (A* + LM-cut)

    @property
    def name(self) -> str:
        return self.task.name

    @property
    def solved(self) -> bool:
        return len(self.orderings) == self.orderings_wanted and all(o.valid for o in self.orderings)

    @property
    def failure(self) -> OrderingResult | None:
        return next((o for o in self.orderings if not o.valid), None)

    @property
    def status(self) -> str:
        if self.solved:
            return "solved"
        return "failed" if self.failure is not None else "incomplete"

    @property
    def error_kind(self) -> str | None:
        failure = self.failure
        return failure.kind if failure else None

    @property
    def category(self) -> str | None:
        failure = self.failure
        return failure.category if failure else None

    @property
    def message(self) -> str:
        failure = self.failure
        return failure.message if failure else ""

    @property
    def runtime(self) -> float:
        """Mean seconds of the function call over the orderings that ran."""
        if not self.orderings:
            return 0.0
        return sum(o.outcome.runtime for o in self.orderings) / len(self.orderings)

    @property
    def plan_length(self) -> int | None:
        """Length of the plan of the first ordering (file order)."""
        return self.orderings[0].plan_length if self.orderings else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.name,
            "path": str(self.task.path),
            "status": self.status,
            "error_kind": self.error_kind,
            "category": self.category,
            "message": self.message,
            "runtime": self.runtime,
            "plan_length": self.plan_length,
            "orderings": [o.to_dict() for o in self.orderings],
            "planner": self.planner.to_dict() if self.planner else None,
            "optimal_planner": self.optimal_planner.to_dict() if self.optimal_planner else None,
        }


@dataclass
class Evaluation:
    program: str
    domain: str
    orderings: int
    time_limit: float
    style: FeedbackStyle
    results: list[TaskResult]
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def solved(self) -> int:
        return sum(r.solved for r in self.results)

    @property
    def coverage(self) -> float:
        return self.solved / len(self.results) if self.results else 0.0

    def error_table(self) -> dict[str, int]:
        """Failed tasks per error category (the paper's table), every category listed."""
        counts = Counter(r.category for r in self.results if r.failure is not None)
        return {category: counts.get(category, 0) for category in CATEGORIES}

    def error_kinds(self) -> dict[str, int]:
        return dict(Counter(r.error_kind or "" for r in self.results if r.failure is not None))

    def planner_summary(self, optimal: bool = False) -> dict[str, Any] | None:
        """Ratios against the satisficing planner (GBFS + FF), or with ``optimal`` against A* + LM-cut."""
        found = [r.optimal_planner if optimal else r.planner for r in self.results]
        compared = [c for c in found if c is not None]
        if not compared:
            return None
        runtime = [c.runtime_ratio for c in compared if c.runtime_ratio is not None]
        length = [c.length_ratio for c in compared if c.length_ratio is not None]
        return {
            "planners": sorted({c.planner for c in compared}),  # which planner ran (or a shipped plan stood in)
            "tasks_compared": len(compared),
            "planner_solved": sum(c.status == "solved" for c in compared),
            "runtime_ratio_mean": _mean(runtime),
            "runtime_ratio_geomean": _geomean(runtime),
            "length_ratio_mean": _mean(length),
            "length_ratio_geomean": _geomean(length),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "program": self.program,
            "domain": self.domain,
            "orderings": self.orderings,
            "time_limit": self.time_limit,
            "style": self.style,
            "tasks": len(self.results),
            "solved": self.solved,
            "coverage": self.coverage,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "error_table": self.error_table(),
            "error_kinds": self.error_kinds(),
            "planner": self.planner_summary(),
            "optimal_planner": self.planner_summary(optimal=True),
            "results": [r.to_dict() for r in self.results],
        }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _geomean(values: Sequence[float]) -> float | None:
    positive = [v for v in values if v > 0]
    if not positive:
        return None
    return math.exp(sum(math.log(v) for v in positive) / len(positive))


# ----------------------------------------------------------------- engine

ProgressCallback = Callable[[TaskResult, int, int], None]  # (result, done, total)


class Evaluator:
    """Runs programs on tasks through a sandbox and validates the plans they return.

    One Evaluator can serve many programs (the servers stay up between calls); close it when done.
    """

    def __init__(
        self,
        domain: Domain,
        tasks: Sequence[EvalTask],
        *,
        limits: Limits | None = None,
        style: FeedbackStyle = FeedbackStyle.STEIN,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.domain = domain
        self.tasks = list(tasks)
        self.limits = limits or Limits()
        self.style = style
        self._own_sandbox = sandbox is None
        self.sandbox = sandbox or Sandbox(self.limits)
        self._validators: dict[int, PlanValidator] = {}
        self._validated: dict[tuple[int, tuple[str, ...]], ValidationResult] = {}
        self._validator_lock = threading.Lock()
        # --faithful (ordering_style = "ordered-sets"): the reference's random orderings as ordered sets
        self.ordered_sets = False
        # --faithful (import_check): a program with a risky import is not run; every run fails with the refusal
        self.import_check = False
        self.ordering_count = 4
        # --faithful (ordering_draws = "per-check"): the draw the reference orderings come from (None: one per task)
        self.draw: str | None = None
        self._reference_inputs: dict[tuple[int, int, str | None], list[PythonTask]] = {}

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        if self._own_sandbox:
            self.sandbox.close()

    def _validator(self, task: EvalTask) -> PlanValidator:
        with self._validator_lock:
            validator = self._validators.get(id(task))
            if validator is None:
                validator = PlanValidator(self.domain, task.problem)
                self._validators[id(task)] = validator
            return validator

    def reference_input(self, task: EvalTask, ordering: int) -> PythonTask:
        """Ordering ``ordering`` of the reference code's orderings of ``task`` (ordered_sets), seeded by the
        task's name (and by ``draw`` when the orderings are drawn afresh at every check); there are as many as the
        evaluation's orderings (at least 4, as the reference builds)."""
        count = max(self.ordering_count, ordering + 1)
        key = (id(task), count, self.draw)
        with self._validator_lock:
            inputs = self._reference_inputs.get(key)
            if inputs is None:
                if self.draw is not None:  # an earlier draw's orderings are not used again
                    self._reference_inputs = {k: v for k, v in self._reference_inputs.items() if k[2] == self.draw}
                seed = task.name if self.draw is None else f"{task.name}@{self.draw}"
                inputs = reference_orderings(task.python, count, seed)
                self._reference_inputs[key] = inputs
        return inputs[ordering]

    # ------------------------------------------------------------ one run
    def run_one(self, program: Program, task: EvalTask, ordering: int = 0, hash_seed: int | None = None) -> OrderingResult:
        """Run the program on one task under one ordering and validate what it returns; ``hash_seed`` replaces
        the ordering's PYTHONHASHSEED (the counterexample shrinker runs a file order under another seed)."""
        seed = hash_seed_for(ordering) if hash_seed is None else hash_seed
        risk = refused_import(program.source) if self.import_check else None
        if risk is not None:
            line = refusal_line(risk)
            refused = ProgramOutcome(EXCEPTION, traceback=line, exception=line, detail="refused by the import check",
                                 time_limit=self.limits.time_limit, hash_seed=seed)
            return OrderingResult(ordering, refused, None, run_feedback(refused, self.style))
        if self.ordered_sets:  # --faithful: the reference's orderings, handed over as ordered sets
            outcome = self.sandbox.run(program, self.reference_input(task, ordering), hash_seed=seed,
                                       limits=self.limits, ordered_sets=True)
        else:
            outcome = self.sandbox.run(program, task.ordering(ordering), hash_seed=seed, limits=self.limits)
        cap = plan_length_cap(self.limits)
        if outcome.kind == PLAN and len(outcome.plan or []) > cap:
            outcome.kind = RESULT_TOO_LARGE
            outcome.detail = (
                f"{len(outcome.plan or [])} actions; at most {cap} can be checked within the time limit of "
                f"{self.limits.time_limit:g} seconds"
            )
            outcome.plan = None
        if outcome.kind != PLAN:
            return OrderingResult(ordering, outcome, None, run_feedback(outcome, self.style))
        validation = self._validate(task, outcome.plan or [])
        message = "" if validation.valid else plan_feedback(validation, self.domain, self.style)
        return OrderingResult(ordering, outcome, validation, message)

    def _validate(self, task: EvalTask, plan: list[str]) -> ValidationResult:
        """Validate, remembering the last few distinct plans per task (orderings often give the same plan)."""
        key = (id(task), tuple(plan))
        with self._validator_lock:
            known = self._validated.get(key)
        if known is not None:
            return known
        result = self._validator(task).validate(plan)
        with self._validator_lock:
            if len(self._validated) >= 256:
                self._validated.pop(next(iter(self._validated)))
            self._validated[key] = result
        return result

    def run_task(self, program: Program, task: EvalTask, orderings: int, cancel: threading.Event | None = None) -> TaskResult:
        """All orderings of one task, stopping at the first failing ordering (the task has failed then)."""
        result = TaskResult(task, orderings_wanted=orderings)
        for ordering in range(orderings):
            if cancel is not None and cancel.is_set():
                break
            run = self.run_one(program, task, ordering)
            result.orderings.append(run)
            if not run.valid:
                break
        return result

    # ------------------------------------------------------------ many runs
    def evaluate(
        self,
        program: Program,
        *,
        orderings: int = DEFAULT_ORDERINGS,
        jobs: int = 1,
        stop_at_first_failure: bool = False,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> list[TaskResult]:
        """Every task (in order) under ``orderings`` orderings, ``jobs`` tasks at a time.

        With ``stop_at_first_failure`` the tasks run one after another and the list ends at the first
        failed task (the pipeline's debugging). ``cancel`` stops early; unfinished tasks are left out.
        """
        if orderings < 1:
            raise ValueError("orderings must be at least 1")
        self.ordering_count = orderings
        cancel = cancel or threading.Event()
        total = len(self.tasks)
        self.sandbox.start(hash_seed_for(k) for k in range(orderings))
        if stop_at_first_failure or jobs <= 1:
            results: list[TaskResult] = []
            for task in self.tasks:
                if cancel.is_set():
                    break
                result = self.run_task(program, task, orderings, cancel)
                results.append(result)
                if progress:
                    progress(result, len(results), total)
                if stop_at_first_failure and not result.solved:
                    break
            return results
        return self._evaluate_parallel(program, orderings, jobs, progress, cancel)

    def _evaluate_parallel(
        self,
        program: Program,
        orderings: int,
        jobs: int,
        progress: ProgressCallback | None,
        cancel: threading.Event,
    ) -> list[TaskResult]:
        done: dict[int, TaskResult] = {}
        executor = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="genplan-eval")
        try:
            futures: dict[Future[Any], int] = {
                executor.submit(self.run_task, program, task, orderings, cancel): index
                for index, task in enumerate(self.tasks)
            }
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in finished:
                    if future.cancelled():
                        continue
                    result = future.result()
                    done[futures[future]] = result
                    if progress:
                        progress(result, len(done), len(self.tasks))
        except BaseException:
            cancel.set()
            raise
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
        return [done[i] for i in sorted(done)]

    # ------------------------------------------------------ planner compare
    def compare_with_planner(
        self,
        results: Sequence[TaskResult],
        timeout: float | None = None,
        progress: Callable[[TaskResult, int, int], None] | None = None,
        cancel: threading.Event | None = None,
        reference: Callable[[Path], Path | None] | None = None,
        ff_search: str = "eager",
    ) -> None:
        """For each solved task, run the satisficing planner (GBFS + FF; ``ff_search``: eager, or lazy with
        preferred operators as the reference runs it) and store the ratios.

        ``reference``: a task file -> the satisficing plan its source ships (the paper's plans_gbfs/); a
        shipped plan is compared instead of running the planner (no runtime ratio then)."""
        from genplan.engine.pddl.plans import load_plan
        from genplan.engine.planner import SOLVED, PlannerResult, check_plan, solve

        solved = [r for r in results if r.solved]
        for index, result in enumerate(solved, 1):
            if cancel is not None and cancel.is_set():
                return
            shipped = reference(result.task.path) if reference is not None else None
            if shipped is not None:
                steps = [s.pddl() for s in load_plan(shipped)]
                shipped_plan = PlannerResult(SOLVED, steps, f"reference plan ({shipped.parent.name})", 0.0)
                planner = check_plan(shipped_plan, self.domain, result.task.problem)  # checked like a planner's
            else:
                    planner = solve(
                    self.domain, result.task.problem, optimal=False, timeout=timeout or self.limits.time_limit,
                    ff_search=ff_search,
                )
            length = len(planner.plan) if planner.plan is not None else None
            runtime_ratio = result.runtime / planner.seconds if planner.solved and planner.seconds > 0 else None
            length_ratio = (
                result.plan_length / length if planner.solved and length and result.plan_length is not None else None
            )
            result.planner = PlannerComparison(
                planner.planner, planner.status, planner.seconds, length, runtime_ratio, length_ratio
            )
            if progress:
                progress(result, index, len(solved))


# ------------------------------------------------------------- debugging


def failure_rank(kind: str) -> int:
    """How urgent a failure is for the debugging feedback: Python-level errors (exception, timeout,
    crash, ...) first, then output that is not a list of strings, then invalid plans."""
    if kind in PYTHON_ERROR_KINDS:
        return 0
    if kind in OUTPUT_ERROR_KINDS:
        return 1
    return 2


def pick_failure(items: Sequence[Any], previous: str | None, *, failed: Callable[[Any], bool],
                 name: Callable[[Any], str], rank: Callable[[Any], int]) -> Any | None:
    """The paper's choice of the failed task to report: the same task as last time if it still fails (so
    the model sees whether its fix worked), otherwise the most urgent failure (``rank``), in task order."""
    failures = [(index, item) for index, item in enumerate(items) if failed(item)]
    if not failures:
        return None
    for _index, item in failures:
        if previous is not None and name(item) == previous:
            return item
    return min(failures, key=lambda pair: (rank(pair[1]), pair[0]))[1]


def choose_failure(results: Sequence[TaskResult], previous: str | None = None) -> TaskResult | None:
    """Which failed task the debugging feedback is about (see ``pick_failure``)."""
    return pick_failure(
        results,
        previous,
        failed=lambda r: r.failure is not None,
        name=lambda r: r.name,
        rank=lambda r: failure_rank(r.failure.outcome.kind if r.failure else ""),
    )


def evaluate_program(
    program: Program,
    domain_file: Path | str,
    task_files: Sequence[Path | str],
    *,
    typed: bool,
    orderings: int = DEFAULT_ORDERINGS,
    limits: Limits | None = None,
    jobs: int = 1,
    style: FeedbackStyle = FeedbackStyle.STEIN,
    root: Path | None = None,
    import_check: bool = False,
    ordered_sets: bool = False,
) -> Evaluation:
    """Convenience wrapper: load, evaluate, close. Raises PddlError for unusable PDDL files. ``import_check`` and
    ``ordered_sets``: the reference's evaluation (--faithful's imports and orderings, see Evaluator)."""
    domain = load_domain(domain_file)
    tasks = load_tasks(domain, task_files, typed, root)
    limits = limits or Limits()
    started = time.monotonic()
    with Evaluator(domain, tasks, limits=limits, style=style) as evaluator:
        evaluator.import_check, evaluator.ordered_sets = import_check, ordered_sets
        results = evaluator.evaluate(program, orderings=orderings, jobs=jobs)
    return Evaluation(
        program=program.path or "<program>",
        domain=domain.name,
        orderings=orderings,
        time_limit=limits.time_limit,
        style=style,
        results=results,
        seconds=time.monotonic() - started,
    )


__all__ = [
    "DEFAULT_ORDERINGS",
    "EvalTask",
    "Evaluation",
    "Evaluator",
    "OrderingResult",
    "PddlError",
    "PlannerComparison",
    "TaskResult",
    "choose_failure",
    "evaluate_program",
    "hash_seed_for",
    "load_tasks",
    "plan_length_cap",
]
