"""The grid's entries and the work of one entry: its pipeline run and the evaluation of the program it
selected (on the domain's eval tasks, next to the planner)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from genplan.engine.api import runs
from genplan.engine.api.budget import BudgetMeter
from genplan.engine.api.domains import DomainDir
from genplan.engine.api.pddl import SOLVED, PlannerResult, check_plan, load_domain, load_plan, solve
from genplan.engine.api.presets import EvaluationSettings, PipelineConfig, self_evaluation_parameters
from genplan.engine.api.programs import (
    MIB,
    Evaluation,
    Evaluator,
    FeedbackStyle,
    Limits,
    PlannerComparison,
    Program,
    Sandbox,
    load_tasks,
)
from genplan.engine.api.runs import RunStore, has_evaluation, read_summary, write_evaluation, write_json_atomic
from genplan.engine.api.settings import ModelAccessError, ModelSettings
from genplan.engine.batch.experiment import EvalSpec, Experiment, GameTarget, KeptParameters, ModelSpec, PresetSpec, task_files

# Model settings that change what a run produces (the others only change how answers are fetched).
# Pipeline settings that joined the run's identity later, with the value every earlier run had.
SETTINGS_ADDED_LATER: dict[str, Any] = {
    # the reference-faithful switches (engine/pipeline/faithful.py)
    "reference_prompts": False, "import_check": False, "code_extraction": "lenient", "sorted_presentation": False,
    "ordering_style": "hash-seeds", "final_check_prompt": "validation", "bas_style": "genplan",
    "lm_search": "lmcut-max-ms", "example_choice": "any-version", "ff_search": "eager", "faithful": "",
    "planner_fallback": True, "answer_extraction": "lenient", "ordering_draws": "per-task", "bas_nl_conversation": False,
    "get_plan_accepted": False,
    # the counterexample search (F5-3+CE)
    "counterexample_search": False, "counterexample_seconds": 30.0, "counterexample_max_tasks": 200,
    "counterexample_probes": True,
}
RUN_DEFINING_SETTINGS = ("model", "base_url", "temperature", "max_tokens", "seed", "top_p", "extra_body", "reasoning")


@dataclass(frozen=True)
class Entry(KeptParameters):
    """One cell of the grid: one ordinary run (and the evaluation of its program)."""

    domain: DomainDir | GameTarget  # a game family for a [games] entry (PDDLego+, PlanGen)
    preset: str
    model: ModelSpec
    seed: int
    approach: str  # the registry's name
    # a run whose program the batch evaluates: its PipelineConfig (split_seed set); a run that evaluates itself:
    # every parameter it gets (the preset's, the game's, what it takes of the experiment's evaluation)
    parameters: PipelineConfig | dict[str, Any]

    @property
    def key(self) -> str:
        return f"{self.domain.name} {self.preset} {self.model.label} seed {self.seed}"

    @property
    def run_id(self) -> str:
        """Derived from everything that determines the run, so a rerun finds it again."""
        settings = self.model.settings.to_dict()
        identity: dict[str, Any] = {"domain": self.domain.name, "model": {k: settings[k] for k in RUN_DEFINING_SETTINGS}}
        if self.config is not None:
            config = self.config.to_dict()
            # settings added after batches existed count only when set, so earlier batches find their runs again
            for name, default in SETTINGS_ADDED_LATER.items():
                if config.get(name) == default:
                    config.pop(name)
            identity["config"] = {k: v for k, v in config.items() if k != "max_concurrency"}
        else:  # the seed only repeats a run whose parameters have no split seed
            identity.update(approach=self.approach, parameters=self.parameters, seed=self.seed)
        digest = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()
        return f"run-{digest[:10]}"

    @property
    def target(self) -> str:
        """What the run runs on: the domain directory (absolute), or the game for a [games] entry."""
        if isinstance(self.domain, GameTarget):
            return self.domain.environment
        return str(self.domain.path.resolve())

    @property
    def parent(self) -> Path:
        """Relative to the batch directory: where the run directory goes."""
        return Path("runs") / self.domain.name / self.preset / self.model.label / f"seed-{self.seed}"

    @property
    def run_dir(self) -> Path:
        return self.parent / self.run_id

    def describe(self) -> dict[str, Any]:
        return {
            "domain": self.domain.name,
            "preset": self.preset,
            "model": self.model.label,
            "seed": self.seed,
            "run_dir": str(self.run_dir),
        }


def grid(experiment: Experiment) -> list[Entry]:
    """Every combination, domain-major (so that runs of one domain finish close together); then the [games]
    grid, one trial per size, model, preset and game seed."""
    entries = [
        _entry(domain, preset, model, seed, experiment.evaluation)
        for domain in experiment.domains
        for model in experiment.models
        for preset in experiment.presets
        for seed in experiment.seeds
    ]
    games = experiment.games
    if games is not None:
        for rooms in games.rooms:
            for model in experiment.models:
                for preset in games.presets:
                    for seed in games.seeds:
                        parameters = {**preset.mapping, "seed": seed, "locations": rooms}
                        entries.append(Entry(GameTarget(games.environment, rooms), preset.label, model, seed,
                                             preset.approach, parameters))
    return entries


def _entry(domain: DomainDir, preset: PresetSpec, model: ModelSpec, seed: int, spec: EvalSpec) -> Entry:
    if preset.config is not None:
        return Entry(domain, preset.label, model, seed, preset.approach, preset.config.with_changes(split_seed=seed))
    evaluation = self_evaluation_parameters(preset.approach, evaluation_settings(spec))
    return Entry(domain, preset.label, model, seed, preset.approach, {**preset.mapping, **evaluation})


def evaluation_settings(spec: EvalSpec) -> EvaluationSettings:
    """What a run that evaluates itself is asked of the experiment's evaluation: the task set, the first tasks,
    each task's time limit, the memory (the approach's registry entry turns these into its parameters)."""
    return EvaluationSettings(enabled=spec.enabled, task_set=spec.task_set, limit=spec.limit,
                              time_limit_s=spec.time_limit_s, memory_mb=spec.memory_mb)




# =====================================================================================  jobs
# A job is what one worker needs: plain picklable data (for worker processes and Ray tasks).


@dataclass(frozen=True)
class RunJob:
    """One run of the grid, of any approach: started through the front-end API, or resumed when an earlier batch
    left it unfinished (killed, stopped, failed)."""

    run_dir: str  # absolute; its name is fixed, so a rerun finds it
    target: str  # the domain directory, or the game (coincollector)
    preset: str
    settings: ModelSettings
    batch: dict[str, Any]  # the entry, recorded in run.json
    config: PipelineConfig | None = None  # an approach that writes programs: its complete configuration
    parameters: dict[str, Any] | None = None  # any other approach: its parameters (the preset's, with the grid's)
    no_cache: bool = False
    cache_dir: str | None = None
    # the batch's budget: the key of its meter in this process (BATCH_METERS); None: no cap
    batch_budget: str | None = None


# The meters of the batches running in this process, by batch directory: a run job names its batch's (a job is
# plain data, pickled for worker processes; the meter, with its lock, stays here)
BATCH_METERS: dict[str, BudgetMeter] = {}
NOT_STARTED = "not started: the batch's budget is spent"


@dataclass(frozen=True)
class EvalJob:
    run_dir: str
    domain_path: str
    planner_dir: str  # BATCH_DIR/planner/<domain>
    spec: EvalSpec
    time_limit: float
    function: str
    jobs: int = 1  # tasks evaluated in parallel inside this job
    # the run's --faithful toggles that reach the evaluation, as the reference evaluates (evaluation/evaluation.py,
    # eval_configs/*.json): the import check (imports), ordered-set orderings (orderings), get_plan (bas)
    import_check: bool = False
    ordered_sets: bool = False
    also_accepted: tuple[str, ...] = ()

    @property
    def faithful(self) -> dict[str, Any]:
        """What evaluation.json records of these (nothing for genplan's own evaluation)."""
        record = {"import_check": self.import_check, "ordering_style": "ordered-sets" if self.ordered_sets else None,
                  "also_accepted": list(self.also_accepted)}
        return {k: v for k, v in record.items() if v}


def eval_job_toggles(config: PipelineConfig) -> dict[str, Any]:
    """An EvalJob's faithful fields for a run made with ``config``."""
    return {"import_check": config.import_check, "ordered_sets": config.ordering_style == "ordered-sets",
            "also_accepted": ("get_plan",) if (config.bas_style == "reference" or config.get_plan_accepted)
            and config.function_name != "get_plan" else ()}


class JobKind(StrEnum):
    RUN = "run"  # an entry's run of its approach
    EVALUATION = "evaluation"  # the evaluation of the program it selected


class JobStatus(StrEnum):
    """How a job ended (the CLI's progress lines and evaluation.json spell it as the value)."""

    FINISHED = "finished"  # a run: as its RunStatus says
    STOPPED = "stopped"
    INTERRUPTED = "interrupted"
    FAILED = "failed"  # a run or an evaluation that ended with an error
    SKIPPED = "skipped"  # a run an earlier batch finished
    EVALUATED = "evaluated"
    KEPT = "kept"  # an evaluation an earlier batch made
    NO_PROGRAM = "no-program"  # a run that selected no program: nothing to evaluate (coverage 0)

    @classmethod
    def of_run(cls, status: str) -> JobStatus:
        """A run's end (its RunStatus) as a job's; a status a run cannot end with counts as failed."""
        return next((member for member in cls if member.value == status and status), cls.FAILED)

    @property
    def run_done(self) -> bool:
        """A run job whose run has ended and whose program can be evaluated."""
        return self in (JobStatus.FINISHED, JobStatus.SKIPPED)


@dataclass
class Outcome:
    """What a job reports back."""

    kind: JobKind
    status: JobStatus
    run_dir: str
    message: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def run_status(run_dir: Path) -> str | None:
    """The status in run.json, or None when there is no run yet."""
    try:
        return runs.read_meta(run_dir).status or None
    except (OSError, json.JSONDecodeError):
        return None


def execute_run(job: RunJob) -> Outcome:
    """Run one entry of the grid to its end, or go on with it where an earlier batch left it; never raises for a
    failing run (rerunning the batch resumes it)."""
    from genplan.engine import api

    run_dir = Path(job.run_dir)
    status = run_status(run_dir)
    if status == runs.RunStatus.FINISHED:
        return Outcome(JobKind.RUN, JobStatus.SKIPPED, job.run_dir, "finished before")
    meter = BATCH_METERS.get(job.batch_budget) if job.batch_budget is not None else None
    reached = meter.at_cap() if meter is not None else None
    if reached is not None:  # no new run, no new request: the runs under way finish what they asked
        return Outcome(JobKind.RUN, JobStatus.STOPPED, job.run_dir, f"{NOT_STARTED} ({reached})")
    if run_dir.exists() and status is None:  # a crash before run.json was written: nothing to keep
        shutil.rmtree(run_dir)
    started = time.monotonic()
    try:
        if status is None:
            # a pipeline job's parameters are its config
            parameters = {} if job.config is not None else job.parameters
            request = api.StartRequest(job.preset, job.target, run_dir.parent, parameters=parameters or {},
                                       config=job.config, run_name=run_dir.name, extra_meta={"batch": job.batch})
            outcome = api.start(request, job.settings, no_cache=job.no_cache, cache_dir=job.cache_dir,
                                budget_parent=meter)
        else:
            outcome = api.resume(run_dir, job.settings, no_cache=job.no_cache, cache_dir=job.cache_dir,
                                 domain_dir=Path(job.target), budget_parent=meter)
    except api.NotResumable as exc:  # refused before anything was written (another domain, a changed one): kept so
        return Outcome(JobKind.RUN, JobStatus.FAILED, job.run_dir, str(exc))
    except Exception as exc:  # noqa: BLE001 - one failing run must not stop the batch; rerunning resumes it
        message = f"{type(exc).__name__}: {exc}" if not isinstance(exc, ModelAccessError) else str(exc)
        if runs.is_run_dir(run_dir):
            _add_session(runs.open_run(run_dir), time.monotonic() - started, status=runs.RunStatus.FAILED,
                         error=message)
        return Outcome(JobKind.RUN, JobStatus.FAILED, job.run_dir, message)
    message = api.message(outcome)
    _add_session(runs.open_run(run_dir), time.monotonic() - started, batch=job.batch, error=message or None)
    return Outcome(JobKind.RUN, JobStatus.of_run(outcome.status), job.run_dir, message, api.report(outcome).to_json())


def _add_session(store: RunStore, seconds: float, **changes: Any) -> None:
    """Generation time adds up over the sessions of a resumed run."""
    with runs.holding(store.path):  # the run has ended: nothing else may write it meanwhile
        meta = store.meta()
        store.update_meta(batch_seconds=round(float(meta.get("batch_seconds", 0.0)) + seconds, 3), **changes)


# --------------------------------------------------------------------------- evaluation

_TASKS_LOCK = threading.Lock()
_TASKS: dict[tuple[str, str, int], tuple[Any, list[Any]]] = {}


def domain_tasks(domain_path: str, task_set: str, limit: int) -> tuple[Any, list[Any]]:
    """The parsed domain and tasks, once per process (shared by every evaluation of the domain)."""
    key = (str(Path(domain_path).resolve()), task_set, limit)
    with _TASKS_LOCK:
        cached = _TASKS.get(key)
        if cached is None:
            domain_dir = DomainDir.open(domain_path)
            files = task_files(domain_dir, task_set)
            files = files[:limit] if limit else files
            domain = load_domain(domain_dir.domain_file)
            cached = (domain, load_tasks(domain, files, domain_dir.typed_objects, root=domain_dir.path))
            _TASKS[key] = cached
        return cached


def selected_program(run_dir: Path) -> Path | None:
    """The run's selected program (found inside the run directory even if the batch was moved)."""
    summary = read_summary(run_dir)
    path = summary.selected_program if summary is not None else None
    if path is None:
        return None
    inside = runs.programs_dir(run_dir) / path.name
    return inside if inside.exists() else path if path.exists() else None


def execute_evaluation(job: EvalJob, sandbox: Sandbox | None = None) -> Outcome:
    """Evaluate one run's selected program; write evaluation.json beside the run.

    `sandbox`: one shared by the evaluations of a batch (starting one costs a few tenths of a second);
    each run brings its own limits."""
    run_dir = Path(job.run_dir)
    if has_evaluation(run_dir):
        return Outcome(JobKind.EVALUATION, JobStatus.KEPT, job.run_dir)
    started = time.monotonic()
    try:
        domain, tasks = domain_tasks(job.domain_path, job.spec.task_set, job.spec.limit)
        program_file = selected_program(run_dir)
        if program_file is None:
            record: dict[str, Any] = {"program": None, "tasks": len(tasks), "solved": 0, "coverage": 0.0, "results": []}
            with runs.holding(run_dir):
                write_evaluation(run_dir, {**record, "status": JobStatus.NO_PROGRAM, "task_set": job.spec.task_set})
            return Outcome(JobKind.EVALUATION, JobStatus.NO_PROGRAM, job.run_dir, data=record)
        program = Program.from_file(program_file, functions=(job.function, *job.also_accepted))
        limits = Limits(time_limit=job.time_limit, memory_bytes=job.spec.memory_mb * MIB)
        with Evaluator(domain, tasks, limits=limits, sandbox=sandbox) as evaluator:
            evaluator.import_check, evaluator.ordered_sets = job.import_check, job.ordered_sets
            results = evaluator.evaluate(program, orderings=job.spec.orderings, jobs=job.jobs)
        if job.spec.compare_planner:
            source = DomainDir.open(job.domain_path)  # shipped plans (the paper's plans_gbfs/) spare the planner
            attach_planner_results(
                domain, results, Path(job.planner_dir), job.spec.planner_timeout_s,
                reference=lambda task: source.reference_plan(task, "satisficing"), ff_search=job.spec.ff_search,
            )
            if job.spec.compare_optimal:  # the paper's Tables 6 and 7 report both planners
                attach_planner_results(
                    domain, results, optimal_planner_dir(Path(job.planner_dir)), job.spec.planner_timeout_s,
                    reference=lambda task: source.reference_plan(task, "optimal"), optimal=True,
                    lm_search=job.spec.lm_search, fallback=job.spec.planner_fallback,
                )
        evaluation = Evaluation(
            program=str(program_file.relative_to(run_dir) if program_file.is_relative_to(run_dir) else program_file),
            domain=domain.name,
            orderings=job.spec.orderings,
            time_limit=job.time_limit,
            style=FeedbackStyle.STEIN,
            results=results,
            seconds=time.monotonic() - started,
        )
    except Exception as exc:  # noqa: BLE001 - reported for this entry; a rerun tries again
        return Outcome(JobKind.EVALUATION, JobStatus.FAILED, job.run_dir, f"{type(exc).__name__}: {exc}")
    data = _compact(evaluation.to_dict())
    if job.faithful:
        data["faithful"] = job.faithful
    try:
        with runs.holding(run_dir):  # another process took the run up meanwhile: its evaluation is not this one
            write_evaluation(run_dir, {**data, "status": JobStatus.EVALUATED, "task_set": job.spec.task_set})
    except runs.RunBusy as exc:
        return Outcome(JobKind.EVALUATION, JobStatus.FAILED, job.run_dir, str(exc))
    return Outcome(JobKind.EVALUATION, JobStatus.EVALUATED, job.run_dir, data={"coverage": evaluation.coverage})


def _compact(evaluation: dict[str, Any]) -> dict[str, Any]:
    """Leave out what the programs printed (kept by `genplan eval --json`, not needed by reports)."""
    for result in evaluation.get("results", []):
        for ordering in result.get("orderings", []):
            ordering.pop("stdout", None)
    return evaluation


def optimal_planner_dir(planner_dir: Path) -> Path:
    """BATCH_DIR/planner/<domain> -> BATCH_DIR/planner-optimal/<domain>."""
    return planner_dir.parent.parent / "planner-optimal" / planner_dir.name


def attach_planner_results(
    domain: Any,
    results: list[Any],
    planner_dir: Path,
    timeout: float,
    reference: Callable[[Path], Path | None] | None = None,
    optimal: bool = False,
    lm_search: str = "lmcut-max-ms",
    ff_search: str = "eager",
    fallback: bool = True,
) -> None:
    """The satisficing planner (``optimal``: A* + LM-cut) on every task the program solved, each task planned
    once per batch; ``reference`` gives a task's shipped plan of that kind, used instead where there is one.
    ``fallback`` False: the optimal planner's search alone (--faithful's no-fallback)."""
    search = (lm_search + ("" if fallback else ",alone")) if optimal else ff_search  # recorded where not the default
    default_search = "lmcut-max-ms" if optimal else "eager"
    for result in results:
        if not result.solved:
            continue
        cache = planner_dir / (re.sub(r"[^A-Za-z0-9._-]", "_", result.name) + ".json")
        try:
            known = json.loads(cache.read_text(encoding="utf-8"))
            if not known.get("checked"):  # written before plans were validated: the verdict may be wrong
                raise ValueError(cache)
            if known.get("search", default_search) != search:  # another search planned it (--faithful's planner)
                raise ValueError(cache)
        except (OSError, ValueError):  # json.JSONDecodeError is a ValueError
            shipped = reference(result.task.path) if reference is not None else None
            if shipped is not None:  # a shipped plan is checked as a planner's would be
                steps = [s.pddl() for s in load_plan(shipped)]
                reference_plan = PlannerResult(SOLVED, steps, f"reference plan ({shipped.parent.name})", 0.0)
                planned = check_plan(reference_plan, domain, result.task.problem)
            else:
                planned = solve(domain, result.task.problem, optimal=optimal, timeout=timeout, lm_search=lm_search,
                                ff_search=ff_search, fallback=fallback)
            known = {
                "task": result.name,
                "planner": planned.planner,
                "status": planned.status,
                "seconds": planned.seconds,
                "plan_length": len(planned.plan) if planned.plan is not None else None,
                "timeout": timeout,
                "checked": True,  # the plan passed genplan's validator (engine/planner.py)
                "message": planned.message,
                **({"search": search} if search != default_search else {}),
            }
            write_json_atomic(cache, known)
        solved = known["status"] == "solved"
        length = known["plan_length"]
        comparison = PlannerComparison(
            known["planner"],
            known["status"],
            known["seconds"],
            length,
            result.runtime / known["seconds"] if solved and known["seconds"] > 0 else None,
            result.plan_length / length if solved and length and result.plan_length is not None else None,
        )
        if optimal:
            result.optimal_planner = comparison
        else:
            result.planner = comparison
