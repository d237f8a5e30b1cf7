"""Running a batch: what is left to do, doing it, and the batch file with each entry's state."""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.api.budget import BUDGET_REASON, Budget, BudgetError, BudgetMeter, Spend, check_budget, spend_of
from genplan.engine.api.domains import DomainDir
from genplan.engine.api.presets import evaluates_itself
from genplan.engine.api.runs import (
    RunBusy,
    RunStatus,
    drop_evaluation,
    has_evaluation,
    holding,
    is_run_dir,
    read_evaluation,
    read_meta,
    self_evaluation,
    write_json_atomic,
)
from genplan.engine.batch.executors import BatchError, Executor, LocalExecutor, Progress, ProgressCallback, Work
from genplan.engine.batch.experiment import Experiment
from genplan.engine.batch.jobs import (
    BATCH_METERS,
    NOT_STARTED,
    Entry,
    EvalJob,
    JobKind,
    JobStatus,
    RunJob,
    eval_job_toggles,
    grid,
    run_status,
)
from genplan.engine.batch.planner_coverage import run_planner_coverage

BATCH_FILE = "batch.json"
# Tasks one evaluation runs at once: a program run waits on the sandbox's processes much of the time,
# so two per evaluation (and one evaluation per core) keep the cores busy.
EVAL_TASK_JOBS = 2


@dataclass
class EntryState:
    entry: Entry
    run_status: str | None
    evaluated: bool
    coverage: float | None = None
    message: str = ""

    def describe(self) -> dict[str, Any]:
        return {
            **self.entry.describe(),
            "run_status": self.run_status,
            "evaluated": self.evaluated,
            "coverage": self.coverage,
            "message": self.message,
        }


@dataclass
class BatchResult:
    batch_dir: Path
    states: list[EntryState]
    ran: int  # runs started in this invocation (fresh or resumed)
    skipped: int  # runs finished before
    evaluated: int  # evaluations done in this invocation
    seconds: float
    evaluation_enabled: bool = True
    budget: dict[str, Any] | None = None  # the batch's caps and spend (BudgetMeter.record), when it has caps
    stopped_at_budget: int = 0  # runs that stopped at the cap (resumable with a higher one)
    not_started: int = 0  # runs not started: the cap was reached before

    @property
    def failed(self) -> list[EntryState]:
        """Entries whose run did not finish, or whose evaluation is missing or failed."""
        return [
            s
            for s in self.states
            if s.run_status != RunStatus.FINISHED or s.message or (self.evaluation_enabled and not s.evaluated)
        ]

    @property
    def complete(self) -> bool:
        return not self.failed


def default_batch_dir(experiment: Experiment) -> Path:
    return experiment.out or experiment.path.parent / "batches" / experiment.name


def plan_work(
    experiment: Experiment, batch_dir: Path, *, no_cache: bool = False, cache_dir: str | None = None, eval_jobs: int = 1,
    batch_budget: str | None = None,
) -> list[Work]:
    """What each entry still needs: a run (fresh or resumed) and/or an evaluation."""
    work: list[Work] = []
    for entry in grid(experiment):
        run_dir = batch_dir / entry.run_dir
        needs_run = run_status(run_dir) != RunStatus.FINISHED
        run_job = None
        if needs_run:
            run_job = RunJob(run_dir=str(run_dir.resolve()), target=entry.target, preset=entry.preset,
                             settings=entry.model.settings, batch=entry.describe(), config=entry.config,
                             parameters=entry.mapping if entry.config is None else None,
                             no_cache=no_cache, cache_dir=cache_dir, batch_budget=batch_budget)
        eval_job = None
        if not evaluates_itself(entry.approach):  # the batch evaluates the program the run selects
            assert entry.config is not None and isinstance(entry.domain, DomainDir)
            needs_eval = experiment.evaluation.enabled and not has_evaluation(run_dir)
            if needs_run and not _resume_refused(run_dir, entry.target):
                _drop_stale_evaluation(run_dir)
            if needs_eval or (needs_run and experiment.evaluation.enabled):
                eval_job = EvalJob(
                    run_dir=str(run_dir.resolve()),
                    domain_path=str(entry.domain.path.resolve()),
                    planner_dir=str((batch_dir / "planner" / entry.domain.name).resolve()),
                    spec=experiment.evaluation,
                    time_limit=experiment.evaluation.time_limit_s,  # not the debugging limit (Sil debugs at 30 s)
                    function=entry.config.function_name,
                    jobs=eval_jobs,
                    **eval_job_toggles(entry.config),
                )
        if run_job is not None or eval_job is not None:
            work.append(Work(entry, run_job, eval_job))
    return work


def _drop_stale_evaluation(run_dir: Path) -> None:
    """The evaluation of a run about to be resumed goes: it was made before the run's end (under the run's lock;
    a run another process works on keeps it: its resume there is refused as busy)."""
    if not is_run_dir(run_dir):
        drop_evaluation(run_dir)
        return
    with contextlib.suppress(RunBusy), holding(run_dir):
        drop_evaluation(run_dir)


def _resume_refused(run_dir: Path, target: str) -> bool:
    """Whether going on with the entry's earlier run would be refused (its domain changed since, or is another):
    its record, its evaluation included, stays as it is, and the run job says why."""
    from genplan.engine import api

    if run_status(run_dir) is None:
        return False
    try:
        api.resume_target(run_dir, Path(target))
    except api.NotResumable:
        return True
    return False


def entry_states(experiment: Experiment, batch_dir: Path, messages: dict[str, str] | None = None) -> list[EntryState]:
    states = []
    for entry in grid(experiment):
        run_dir = batch_dir / entry.run_dir
        evaluated, coverage = coverage_of(run_dir)
        states.append(EntryState(entry, run_status(run_dir), evaluated, coverage, (messages or {}).get(entry.key, "")))
    return states


def coverage_of(run_dir: Path) -> tuple[bool, float | None]:
    """Whether the run is evaluated, and its coverage: its evaluation of itself, whatever its approach (a game
    trial's outcome as 1 or 0; AutoToS's solved fraction, 0 when its feedback rounds ran out first), else the
    batch's evaluation of the program it selected."""
    own = self_evaluation(run_dir)
    if own is not None:
        solved, tasks = own
        return True, solved / tasks if tasks else 0.0
    evaluation = read_evaluation(run_dir)
    return has_evaluation(run_dir), evaluation.get("coverage") if evaluation is not None else None


def write_batch_file(experiment: Experiment, batch_dir: Path, states: list[EntryState],
                     budget: dict[str, Any] | None = None) -> None:
    write_json_atomic(
        batch_dir / BATCH_FILE,
        {
            "format": 1,
            "experiment": experiment.describe(),
            "entries": [state.describe() for state in states],
            **({"budget": budget} if budget is not None else {}),
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S"),
        },
    )


def batch_spend(experiment: Experiment, batch_dir: Path) -> Spend:
    """What the batch's runs have paid the model for so far (their answers on disk)."""
    spent = Spend()
    for entry in grid(experiment):
        run_dir = batch_dir / entry.run_dir
        if run_dir.is_dir():
            spent = spent.plus(spend_of(run_dir))
    return spent


def _batch_meter(experiment: Experiment, batch_dir: Path, budget: Budget | None, executor: Executor) -> BudgetMeter | None:
    """The meter of the batch's caps, charged with what its runs spent before (None: no cap); BatchError (one line)
    for caps genplan cannot keep (a cost cap for a model of no known price, caps across a Ray cluster)."""
    if budget is None or not budget.is_set:
        return None
    if not isinstance(executor, LocalExecutor):
        raise BatchError("a batch's budget (--max-cost, --max-calls, --max-total-tokens, [budget]) is kept in this "
                         "process: it cannot be kept across a Ray cluster yet; run without --ray, or without caps")
    for model in experiment.models:
        try:
            check_budget(budget, model.settings)
        except BudgetError as exc:
            raise BatchError(f"model {model.label}: {exc}") from None
    return BudgetMeter(budget, batch_spend(experiment, batch_dir), scope="batch")


def run_batch(
    experiment: Experiment,
    batch_dir: Path | None = None,
    *,
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
    no_cache: bool = False,
    cache_dir: str | None = None,
    planner_report: Callable[[str], None] | None = None,
    budget: Budget | None = None,
) -> BatchResult:
    """Run every entry of the experiment that is not done yet, then evaluate, then measure the planners'
    coverage when the experiment asks for it (``planner_report`` hears one line before that starts); see the
    module docstring. ``budget``: caps on the whole batch's model spend (what its runs spent before counts): once
    one is reached no new run and no new request starts, the requests under way finish, and the runs stopped there
    go on when the batch runs again with a higher cap."""
    started = time.monotonic()
    batch_dir = Path(batch_dir or default_batch_dir(experiment))
    batch_dir.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copyfile(experiment.path, batch_dir / "experiment.toml")
    except (OSError, shutil.SameFileError):
        pass
    executor = executor or LocalExecutor(experiment.max_concurrent_runs, experiment.evaluation.jobs)
    meter = _batch_meter(experiment, batch_dir, budget, executor)
    key = str(batch_dir.resolve()) if meter is not None else None
    work = plan_work(experiment, batch_dir, no_cache=no_cache, cache_dir=cache_dir, eval_jobs=EVAL_TASK_JOBS,
                     batch_budget=key)
    write_batch_file(experiment, batch_dir, entry_states(experiment, batch_dir),
                     meter.record() if meter is not None else None)
    told = progress or (lambda _p: None)

    def tell(event: Progress) -> None:  # every progress report carries the spend so far beside the caps
        if meter is not None:
            event.budget = meter.record()
        told(event)

    if key is not None and meter is not None:
        BATCH_METERS[key] = meter
    try:
        outcomes = executor.execute(work, tell)
    finally:
        if key is not None:
            BATCH_METERS.pop(key, None)
    run_planner_coverage(experiment, batch_dir, experiment.evaluation.jobs, report=planner_report)
    messages = {
        key: "; ".join(f"{o.kind} {o.status}: {o.message}" for o in items if o.status == JobStatus.FAILED)
        for key, items in outcomes.items()
    }
    states = entry_states(experiment, batch_dir, messages)
    record = meter.record() if meter is not None else None
    write_batch_file(experiment, batch_dir, states, record)
    run_outcomes = [o for items in outcomes.values() for o in items if o.kind == JobKind.RUN]
    not_started = sum(1 for o in run_outcomes if o.message.startswith(NOT_STARTED))
    at_budget = sum(1 for o in run_outcomes if o.status == JobStatus.STOPPED and not o.message.startswith(NOT_STARTED)
                    and _stopped_at_budget(Path(o.run_dir)))
    ran = sum(1 for items in outcomes.values() for o in items if o.kind == JobKind.RUN and o.status != JobStatus.SKIPPED)
    evaluated = sum(1 for items in outcomes.values() for o in items if o.kind == JobKind.EVALUATION and o.status != JobStatus.KEPT)
    return BatchResult(
        batch_dir=batch_dir,
        states=states,
        ran=ran,
        skipped=len(grid(experiment)) - ran,
        evaluated=evaluated,
        seconds=time.monotonic() - started,
        evaluation_enabled=experiment.evaluation.enabled,
        budget=record,
        stopped_at_budget=at_budget,
        not_started=not_started,
    )


def _stopped_at_budget(run_dir: Path) -> bool:
    try:
        return read_meta(run_dir).extra.get("stop_reason") == BUDGET_REASON
    except (OSError, ValueError):
        return False
