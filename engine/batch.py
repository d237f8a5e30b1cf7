"""Batches: the paper's experiment grid (domains x presets x seeds x models) as ordinary runs.

An experiment file (TOML) lists what to run; ``load_experiment`` checks all of it before anything runs
and reports every problem at once. ``run_batch`` runs each combination as an ordinary pipeline run in
the batch directory, then evaluates each selected program on the domain's eval tasks::

    BATCH_DIR/
      batch.json                      the experiment (as understood) and the grid with each run's state
      experiment.toml                 the experiment file as given
      runs/<domain>/<preset>/<model>/seed-<n>/<run-id>/      an ordinary run directory, plus
                                      evaluation.json (the selected program on the eval tasks)
      planner/<domain>/<task>.json    the satisficing planner (GBFS + FF) on one eval task, shared by
                                      every program of that domain (for the runtime comparison)

Run ids are derived from what determines a run (domain, pipeline settings, model settings), so running
the same batch again finds its runs: finished ones are skipped, unfinished ones are resumed (without
repeating an answered request), and evaluations already written are kept.

Execution is local by default (threads: a bounded number of concurrent runs, whose model requests are
I/O bound, and one evaluation per core, whose programs run in the sandbox's processes) or on a Ray
cluster (``--ray ADDRESS``; ``ray`` is an optional extra), where runs and evaluations are Ray tasks.
"""

from __future__ import annotations

import concurrent.futures as futures
import hashlib
import json
import os
import re
import shutil
import threading
import time
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from .domainlib import DomainDir, DomainDirError
from .evaluation import Evaluation, Evaluator, PlannerComparison, load_tasks
from .llm import ModelAccessError, ModelSettings, SettingsError, make_provider
from .llm.client import resolve_key
from .llm.settings import SETTING_NAMES, _apply_text_values
from .pipeline import ConfigError, Pipeline, PipelineConfig, RunStore, load_config_file, load_preset
from .pipeline.config import PROMPT_TASKS_BY_SEED
from .pipeline.store import write_json_atomic
from .planner import solve
from .pddl import load_domain
from .sandbox import Limits, Program, Sandbox
from .sandbox.limits import MIB

BATCH_FILE = "batch.json"
EVALUATION_FILE = "evaluation.json"
LABEL_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")
TASK_SETS = ("eval", "debug", "probes")
# Tasks one evaluation runs at once: a program run waits on the sandbox's processes much of the time,
# so two per evaluation (and one evaluation per core) keep the cores busy.
EVAL_TASK_JOBS = 2
# Model settings that change what a run produces (the others only change how answers are fetched).
RUN_DEFINING_SETTINGS = ("model", "base_url", "temperature", "max_tokens", "seed", "top_p", "extra_body", "reasoning")


class ExperimentError(Exception):
    """An unusable experiment file; ``problems`` lists every problem found (each one line)."""

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.path = Path(path)
        self.problems = problems
        super().__init__("\n".join(f"{self.path}: {problem}" for problem in problems))


# =====================================================================================  experiment


@dataclass(frozen=True)
class ModelSpec:
    label: str  # the name in the batch directory and the tables
    settings: ModelSettings


@dataclass(frozen=True)
class PresetSpec:
    label: str
    config: PipelineConfig  # the experiment's [pipeline] overrides applied; split_seed set per run


@dataclass(frozen=True)
class EvalSpec:
    enabled: bool = True
    task_set: str = "eval"
    limit: int = 0  # evaluate on the first `limit` tasks only (0: all)
    orderings: int = 4
    jobs: int = 0  # evaluations at once (0: one per core)
    compare_planner: bool = True
    planner_timeout_s: float = 45.0
    memory_mb: int = 2048


@dataclass(frozen=True)
class Experiment:
    path: Path
    name: str
    domains: list[DomainDir]
    presets: list[PresetSpec]
    seeds: list[int]
    models: list[ModelSpec]
    evaluation: EvalSpec = field(default_factory=EvalSpec)
    max_concurrent_runs: int = 4
    out: Path | None = None

    def describe(self) -> dict[str, Any]:
        """What the batch directory records about the experiment (never an API key)."""
        return {
            "name": self.name,
            "file": str(self.path),
            "domains": [{"name": d.name, "path": str(d.path.resolve())} for d in self.domains],
            "presets": [{"label": p.label, "config": p.config.to_dict()} for p in self.presets],
            "seeds": list(self.seeds),
            "models": [{"label": m.label, "settings": m.settings.to_dict()} for m in self.models],
            "evaluation": dict(self.evaluation.__dict__),
            "max_concurrent_runs": self.max_concurrent_runs,
        }


_EXPERIMENT_KEYS = {
    "name": str,
    "domains": list,
    "presets": list,
    "seeds": list,
    "eval": bool,
    "eval_tasks": str,
    "eval_limit": int,
    "orderings": int,
    "eval_jobs": int,
    "compare_planner": bool,
    "planner_timeout_s": (int, float),
    "memory_mb": int,
    "max_concurrent_runs": int,
    "out": str,
}
_TYPE_WORDS = {str: "a string", list: "a list", bool: "true or false", int: "an integer", (int, float): "a number"}


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file; raise ExperimentError listing every problem."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ExperimentError(file, ["no such file"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExperimentError(file, [f"cannot be read ({exc})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(file, [f"not valid TOML ({exc})"]) from None
    return _Checker(file, data).experiment()


class _Checker:
    """Collects every problem of an experiment file instead of stopping at the first."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def experiment(self) -> Experiment:
        for key in sorted(set(self.data) - {"experiment", "pipeline", "models"}):
            self.problem(f"unknown table or key '{key}' (known: [experiment], [pipeline], [[models]])")
        table = self.data.get("experiment")
        if not isinstance(table, dict):
            self.problem("missing the [experiment] table")
            table = {}
        values = self.typed_values(table)
        domains = self.domains(values.get("domains"))
        presets = self.presets(values.get("presets"), self.data.get("pipeline", {}))
        seeds = self.seeds(values.get("seeds", [1, 2, 3]))
        models = self.models(self.data.get("models"))
        evaluation = self.evaluation(values, domains)
        name = values.get("name", self.path.stem)
        if not LABEL_PATTERN.match(name):
            self.problem(f"[experiment] name must be a short label (letters, digits, . _ + -), got {name!r}")
        max_runs = values.get("max_concurrent_runs", 4)
        if max_runs < 1:
            self.problem(f"[experiment] max_concurrent_runs must be at least 1, got {max_runs}")
        if self.problems:
            raise ExperimentError(self.path, self.problems)
        out = values.get("out")
        return Experiment(
            path=self.path,
            name=name,
            domains=domains,
            presets=presets,
            seeds=seeds,
            models=models,
            evaluation=evaluation,
            max_concurrent_runs=max_runs,
            out=self.resolve(out) if out else None,
        )

    def typed_values(self, table: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, value in table.items():
            kind = _EXPERIMENT_KEYS.get(key)
            if kind is None:
                self.problem(f"[experiment] unknown key '{key}' (known: {', '.join(_EXPERIMENT_KEYS)})")
            elif isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
                self.problem(f"[experiment] {key} must be {_TYPE_WORDS[kind]}, got {value!r}")
            else:
                values[key] = value
        for required in ("domains", "presets"):
            if required not in table:
                self.problem(f"[experiment] missing '{required}'")
        return values

    def resolve(self, text: str) -> Path:
        """Paths are relative to the experiment file's directory (or the working directory)."""
        candidate = Path(text).expanduser()
        if candidate.is_absolute():
            return candidate
        beside = self.path.parent / candidate
        return beside if beside.exists() or not candidate.exists() else candidate

    def domains(self, entries: list[Any] | None) -> list[DomainDir]:
        if entries is None:
            return []
        if not entries:
            self.problem("[experiment] domains is empty")
        opened: list[DomainDir] = []
        for entry in entries:
            if not isinstance(entry, str):
                self.problem(f"[experiment] domains: {entry!r} is not a path")
                continue
            try:
                domain = DomainDir.open(self.resolve(entry))
            except DomainDirError as exc:
                self.problem(f"domain '{entry}': {exc}")
                continue
            if not domain.debug_tasks():
                self.problem(f"domain '{entry}': no debug tasks in {domain.path / 'debug'}")
            if any(d.name == domain.name for d in opened):
                self.problem(f"domain '{entry}': the domain name '{domain.name}' is listed twice")
            elif not LABEL_PATTERN.match(domain.name):
                self.problem(f"domain '{entry}': its name '{domain.name}' cannot name a directory")
            else:
                opened.append(domain)
        return opened

    def presets(self, entries: list[Any] | None, overrides: Any) -> list[PresetSpec]:
        if not isinstance(overrides, dict):
            self.problem("[pipeline] must be a table of pipeline settings")
            overrides = {}
        for key in ("preset", "split_seed"):
            if key in overrides:
                what = "[experiment] presets" if key == "preset" else "[experiment] seeds"
                self.problem(f"[pipeline] {key} cannot be overridden (use {what})")
        overrides = {k: v for k, v in overrides.items() if k not in ("preset", "split_seed")}
        known = set(PipelineConfig.__dataclass_fields__)
        for key in sorted(set(overrides) - known):
            self.problem(f"[pipeline] unknown setting '{key}'")
        overrides = {k: v for k, v in overrides.items() if k in known}
        if entries is None:
            return []
        if not entries:
            self.problem("[experiment] presets is empty")
        specs: list[PresetSpec] = []
        for entry in entries:
            if not isinstance(entry, str):
                self.problem(f"[experiment] presets: {entry!r} is not a preset name")
                continue
            try:
                if entry.endswith(".toml"):
                    base, label = load_config_file(self.resolve(entry)), Path(entry).stem
                else:
                    base = load_preset(entry)
                    label = base.preset
            except ConfigError as exc:
                self.problem(f"preset '{entry}': {exc}")
                continue
            try:
                config = PipelineConfig.from_dict({**base.to_dict(), **overrides, "preset": label})
            except (ConfigError, TypeError) as exc:
                self.problem(f"[pipeline] with preset '{label}': {exc}")
                continue
            if any(s.label == label for s in specs):
                self.problem(f"preset '{entry}' is listed twice")
            elif not LABEL_PATTERN.match(label):
                self.problem(f"preset '{entry}': '{label}' cannot name a directory")
            else:
                specs.append(PresetSpec(label, config))
        return specs

    def seeds(self, entries: Any) -> list[int]:
        if not isinstance(entries, list) or not entries:
            self.problem("[experiment] seeds must be a non-empty list of integers")
            return []
        seeds: list[int] = []
        for seed in entries:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed not in PROMPT_TASKS_BY_SEED:
                self.problem(f"[experiment] seeds: {seed!r} is not one of {sorted(PROMPT_TASKS_BY_SEED)}")
            elif seed in seeds:
                self.problem(f"[experiment] seeds: {seed} is listed twice")
            else:
                seeds.append(seed)
        return seeds

    def models(self, entries: Any) -> list[ModelSpec]:
        if entries is None:
            self.problem("no [[models]] table: name at least one model")
            return []
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            self.problem("models must be [[models]] tables")
            return []
        specs: list[ModelSpec] = []
        for number, table in enumerate(entries, 1):
            label = table.get("name", table.get("model"))
            where = f"[[models]] #{number}" + (f" ({label})" if isinstance(label, str) else "")
            settings = self.model_settings({k: v for k, v in table.items() if k != "name"}, where)
            if not isinstance(label, str) or not LABEL_PATTERN.match(label):
                self.problem(f"{where}: name must be a short label (letters, digits, . _ + -), got {label!r}")
                continue
            if any(s.label == label for s in specs):
                self.problem(f"{where}: the name '{label}' is used twice")
                continue
            if settings is not None:
                specs.append(ModelSpec(label, settings))
        return specs

    def model_settings(self, table: dict[str, Any], where: str) -> ModelSettings | None:
        """engine.llm's own conversion and range checks, one setting at a time so all problems show."""
        settings = ModelSettings()
        bad = False
        for key, value in table.items():
            if key not in SETTING_NAMES:
                self.problem(f"{where}: unknown setting '{key}' (known: name, {', '.join(SETTING_NAMES)})")
                bad = True
                continue
            try:
                settings = _apply_text_values(settings, {key: value}, where=lambda name: f"{where}: {name}")
            except SettingsError as exc:
                self.problem(str(exc))
                bad = True
        if not settings.model:
            self.problem(f"{where}: no model (set model = \"...\")")
            return None
        if bad:
            return None
        try:
            resolve_key(settings)
        except ModelAccessError as exc:
            self.problem(f"{where}: {exc}")
            return None
        return settings

    def evaluation(self, values: dict[str, Any], domains: list[DomainDir]) -> EvalSpec:
        spec = EvalSpec(
            enabled=values.get("eval", True),
            task_set=values.get("eval_tasks", "eval"),
            limit=values.get("eval_limit", 0),
            orderings=values.get("orderings", 4),
            jobs=values.get("eval_jobs", 0),
            compare_planner=values.get("compare_planner", True),
            planner_timeout_s=float(values.get("planner_timeout_s", 45.0)),
            memory_mb=values.get("memory_mb", 2048),
        )
        if spec.task_set not in TASK_SETS:
            self.problem(f"[experiment] eval_tasks must be one of {', '.join(TASK_SETS)}, got {spec.task_set!r}")
        for key, value, minimum in (
            ("eval_limit", spec.limit, 0),
            ("orderings", spec.orderings, 1),
            ("eval_jobs", spec.jobs, 0),
            ("memory_mb", spec.memory_mb, 64),
        ):
            if value < minimum:
                self.problem(f"[experiment] {key} must be at least {minimum}, got {value}")
        if not spec.planner_timeout_s > 0:
            self.problem(f"[experiment] planner_timeout_s must be positive, got {spec.planner_timeout_s}")
        if spec.enabled and spec.task_set in TASK_SETS:
            for domain in domains:
                if not _task_files(domain, spec.task_set):
                    self.problem(f"domain '{domain.name}': no {spec.task_set} tasks to evaluate on")
        return spec


def _task_files(domain: DomainDir, task_set: str) -> list[Path]:
    return {"eval": domain.eval_tasks, "debug": domain.debug_tasks, "probes": domain.probe_tasks}[task_set]()


# =====================================================================================  the grid


@dataclass(frozen=True)
class Entry:
    """One cell of the grid: one ordinary run (and the evaluation of its program)."""

    domain: DomainDir
    preset: str
    model: ModelSpec
    seed: int
    config: PipelineConfig

    @property
    def key(self) -> str:
        return f"{self.domain.name} {self.preset} {self.model.label} seed {self.seed}"

    @property
    def run_id(self) -> str:
        """Derived from everything that determines the run, so a rerun finds it again."""
        config = {k: v for k, v in self.config.to_dict().items() if k != "max_concurrency"}
        settings = self.model.settings.to_dict()
        identity = {
            "domain": self.domain.name,
            "config": config,
            "model": {k: settings[k] for k in RUN_DEFINING_SETTINGS},
        }
        digest = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()
        return f"run-{digest[:10]}"

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
    """Every combination, domain-major (so that runs of one domain finish close together)."""
    return [
        Entry(domain, preset.label, model, seed, preset.config.with_changes(split_seed=seed))
        for domain in experiment.domains
        for model in experiment.models
        for preset in experiment.presets
        for seed in experiment.seeds
    ]


def run_meta(domain: DomainDir, config: PipelineConfig, settings: ModelSettings) -> dict[str, Any]:
    """What run.json records, as `genplan run` records it (never the API key)."""
    return {"domain_dir": str(domain.path.resolve()), "config": config.to_dict(), "model": settings.to_dict()}


# =====================================================================================  jobs
# A job is what one worker needs: plain picklable data (for worker processes and Ray tasks).


@dataclass(frozen=True)
class RunJob:
    run_dir: str  # absolute
    domain_path: str
    config: PipelineConfig
    settings: ModelSettings
    meta: dict[str, Any]
    no_cache: bool = False
    cache_dir: str | None = None


@dataclass(frozen=True)
class EvalJob:
    run_dir: str
    domain_path: str
    planner_dir: str  # BATCH_DIR/planner/<domain>
    spec: EvalSpec
    time_limit: float
    function: str
    jobs: int = 1  # tasks evaluated in parallel inside this job


@dataclass
class Outcome:
    """What a job reports back."""

    kind: str  # "run" | "evaluation"
    status: str  # run: finished / failed / skipped ...; evaluation: evaluated / kept / no-program / failed
    run_dir: str
    message: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def run_status(run_dir: Path) -> str | None:
    """The status in run.json, or None when there is no run yet."""
    try:
        return json.loads((run_dir / "run.json").read_text(encoding="utf-8")).get("status")
    except (OSError, json.JSONDecodeError):
        return None


def open_or_create_run(run_dir: Path, meta: dict[str, Any]) -> RunStore:
    if (run_dir / "run.json").exists():
        return RunStore.open(run_dir)
    if run_dir.exists():  # a crash between creating the directory and writing run.json: nothing to keep
        shutil.rmtree(run_dir)
    return RunStore.create(run_dir.parent, meta, run_id=run_dir.name)


def execute_run(job: RunJob) -> Outcome:
    """Run (or resume) one pipeline run; never raises for a failing run."""
    run_dir = Path(job.run_dir)
    if run_status(run_dir) == "finished":
        return Outcome("run", "skipped", job.run_dir, "finished before")
    store = open_or_create_run(run_dir, job.meta)
    started = time.monotonic()
    try:
        provider = make_provider(job.settings, cache_dir=job.cache_dir, no_cache=job.no_cache)
        pipeline = Pipeline(DomainDir.open(job.domain_path), job.config, provider, store, reasoning=job.settings.reasoning)
        result = pipeline.run()
    except Exception as exc:  # noqa: BLE001 - one failing run must not stop the batch; rerunning resumes it
        message = f"{type(exc).__name__}: {exc}" if not isinstance(exc, ModelAccessError) else str(exc)
        _add_session(store, time.monotonic() - started, status="failed", error=message)
        return Outcome("run", "failed", job.run_dir, message)
    _add_session(store, time.monotonic() - started, status=result.status, error=result.message or None)
    return Outcome("run", result.status, job.run_dir, result.message, result.to_dict())


def _add_session(store: RunStore, seconds: float, **changes: Any) -> None:
    """Generation time adds up over the sessions of a resumed run."""
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
            files = _task_files(domain_dir, task_set)
            files = files[:limit] if limit else files
            domain = load_domain(domain_dir.domain_file)
            cached = (domain, load_tasks(domain, files, domain_dir.typed_objects, root=domain_dir.path))
            _TASKS[key] = cached
        return cached


def selected_program(run_dir: Path) -> Path | None:
    """The run's selected program (found inside the run directory even if the batch was moved)."""
    try:
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    chosen = summary.get("selected_program")
    if not chosen:
        return None
    path = Path(chosen)
    inside = run_dir / "programs" / path.name
    return inside if inside.exists() else path if path.exists() else None


def execute_evaluation(job: EvalJob, sandbox: Sandbox | None = None) -> Outcome:
    """Evaluate one run's selected program; write evaluation.json beside the run.

    `sandbox`: one shared by the evaluations of a batch (starting one costs a few tenths of a second);
    each run brings its own limits."""
    run_dir = Path(job.run_dir)
    target = run_dir / EVALUATION_FILE
    if target.exists():
        return Outcome("evaluation", "kept", job.run_dir)
    started = time.monotonic()
    try:
        domain, tasks = domain_tasks(job.domain_path, job.spec.task_set, job.spec.limit)
        program_file = selected_program(run_dir)
        if program_file is None:
            record = {"program": None, "tasks": len(tasks), "solved": 0, "coverage": 0.0, "results": []}
            write_json_atomic(target, {**record, "status": "no-program", "task_set": job.spec.task_set})
            return Outcome("evaluation", "no-program", job.run_dir, data=record)
        program = Program.from_file(program_file, functions=(job.function,))
        limits = Limits(time_limit=job.time_limit, memory_bytes=job.spec.memory_mb * MIB)
        with Evaluator(domain, tasks, limits=limits, sandbox=sandbox) as evaluator:
            results = evaluator.evaluate(program, orderings=job.spec.orderings, jobs=job.jobs)
        if job.spec.compare_planner:
            attach_planner_results(domain, results, Path(job.planner_dir), job.spec.planner_timeout_s)
        evaluation = Evaluation(
            program=str(program_file.relative_to(run_dir) if program_file.is_relative_to(run_dir) else program_file),
            domain=domain.name,
            orderings=job.spec.orderings,
            time_limit=job.time_limit,
            style="stein",
            results=results,
            seconds=time.monotonic() - started,
        )
    except Exception as exc:  # noqa: BLE001 - reported for this entry; a rerun tries again
        return Outcome("evaluation", "failed", job.run_dir, f"{type(exc).__name__}: {exc}")
    data = _compact(evaluation.to_dict())
    write_json_atomic(target, {**data, "status": "evaluated", "task_set": job.spec.task_set})
    return Outcome("evaluation", "evaluated", job.run_dir, data={"coverage": evaluation.coverage})


def _compact(evaluation: dict[str, Any]) -> dict[str, Any]:
    """Leave out what the programs printed (kept by `genplan eval --json`, not needed by reports)."""
    for result in evaluation.get("results", []):
        for ordering in result.get("orderings", []):
            ordering.pop("stdout", None)
    return evaluation


def attach_planner_results(domain: Any, results: list[Any], planner_dir: Path, timeout: float) -> None:
    """The satisficing planner on every task the program solved, each task planned once per batch."""
    for result in results:
        if not result.solved:
            continue
        cache = planner_dir / (re.sub(r"[^A-Za-z0-9._-]", "_", result.name) + ".json")
        try:
            known = json.loads(cache.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            planned = solve(domain, result.task.problem, optimal=False, timeout=timeout)
            known = {
                "task": result.name,
                "planner": planned.planner,
                "status": planned.status,
                "seconds": planned.seconds,
                "plan_length": len(planned.plan) if planned.plan is not None else None,
                "timeout": timeout,
            }
            write_json_atomic(cache, known)
        solved = known["status"] == "solved"
        length = known["plan_length"]
        result.planner = PlannerComparison(
            known["planner"],
            known["status"],
            known["seconds"],
            length,
            result.runtime / known["seconds"] if solved and known["seconds"] > 0 else None,
            result.plan_length / length if solved and length and result.plan_length is not None else None,
        )


# =====================================================================================  executors


@dataclass
class Progress:
    """What the executor tells its watcher: kind is run-started / run-done / eval-started / eval-done."""

    kind: str
    entry: Entry
    outcome: Outcome | None = None
    done: int = 0
    total: int = 0


ProgressCallback = Callable[[Progress], None]


@dataclass
class Work:
    """What one entry still needs."""

    entry: Entry
    run: RunJob | None
    evaluation: EvalJob | None


class Executor:
    """Runs the work of a batch; subclasses decide where (this machine, a Ray cluster)."""

    max_concurrent_runs: int = 4

    def execute(self, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        raise NotImplementedError


def default_eval_workers(jobs: int) -> int:
    return jobs or os.cpu_count() or 1


class LocalExecutor(Executor):
    """Runs and evaluations in threads of this process. At most `max_concurrent_runs` runs at once (their
    model requests are I/O bound); evaluations are CPU bound, but the work happens in the sandbox's
    processes, so `eval_workers` evaluations at once (default: one per core), each running two tasks at
    once, keep the cores busy. The evaluations share one sandbox and the parsed tasks of each domain."""

    def __init__(self, max_concurrent_runs: int = 4, eval_workers: int = 0) -> None:
        self.max_concurrent_runs = max_concurrent_runs
        self.eval_workers = default_eval_workers(eval_workers)

    def execute(self, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        outcomes: dict[str, list[Outcome]] = {item.entry.key: [] for item in work}
        total, done = len(work), 0
        run_pool = futures.ThreadPoolExecutor(max(1, self.max_concurrent_runs), thread_name_prefix="genplan-run")
        eval_pool = futures.ThreadPoolExecutor(self.eval_workers, thread_name_prefix="genplan-evaluation")
        sandbox = Sandbox()  # its servers start on the first evaluation
        pending: dict[futures.Future, tuple[Work, str]] = {}

        def evaluate(item: Work) -> bool:
            if item.evaluation is None:
                return False
            progress(Progress("eval-started", item.entry, done=done, total=total))
            pending[eval_pool.submit(execute_evaluation, item.evaluation, sandbox)] = (item, "evaluation")
            return True

        def run(item: Work) -> Outcome:
            progress(Progress("run-started", item.entry, done=done, total=total))  # when a pool thread takes it
            assert item.run is not None
            return execute_run(item.run)

        try:
            for item in work:
                if item.run is not None:
                    pending[run_pool.submit(run, item)] = (item, "run")
                elif not evaluate(item):
                    done += 1
            while pending:
                finished, _ = futures.wait(list(pending), return_when=futures.FIRST_COMPLETED)
                for future in finished:
                    item, kind = pending.pop(future)
                    outcome = _result_of(future, item, kind)
                    outcomes[item.entry.key].append(outcome)
                    if kind == "run":
                        progress(Progress("run-done", item.entry, outcome, done, total))
                        if outcome.status not in ("finished", "skipped") or not evaluate(item):
                            done += 1
                    else:
                        done += 1
                        progress(Progress("eval-done", item.entry, outcome, done, total))
        finally:
            run_pool.shutdown(wait=True, cancel_futures=True)
            eval_pool.shutdown(wait=True, cancel_futures=True)
            sandbox.close()
        return outcomes


def _result_of(future: futures.Future, item: Work, kind: str) -> Outcome:
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - a worker that died (e.g. out of memory) fails only its entry
        return Outcome(kind, "failed", str(item.entry.run_dir), f"{type(exc).__name__}: {exc}")


class RayExecutor(Executor):
    """The same work as Ray tasks on a cluster (`pip install 'genplan[ray]'`).

    The batch directory must be on a file system every node sees (the runs write there). API keys are
    handed to the workers through the job's runtime environment (the variables named by api_key_env).
    Runs are I/O bound and reserve no CPU; each evaluation reserves one CPU, so a cluster with N CPUs
    evaluates N programs at once.
    """

    def __init__(self, address: str, max_concurrent_runs: int = 4, env_vars: dict[str, str] | None = None) -> None:
        self.address = address
        self.max_concurrent_runs = max_concurrent_runs
        self.env_vars = env_vars or {}

    def execute(self, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        try:
            import ray
        except ImportError:
            raise BatchError("--ray needs the optional dependency ray (pip install 'genplan[ray]')") from None
        started_here = not ray.is_initialized()
        if started_here:
            try:
                ray.init(
                    address=self.address,
                    runtime_env={"env_vars": self.env_vars} if self.env_vars else None,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except Exception as exc:  # noqa: BLE001 - connection problems as one line
                raise BatchError(f"cannot connect to the Ray cluster at {self.address}: {exc}") from None
        try:
            return self._execute(ray, work, progress)
        finally:
            if started_here:
                ray.shutdown()

    def _execute(self, ray: Any, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        remote_run = ray.remote(num_cpus=0, max_retries=0)(execute_run)
        remote_eval = ray.remote(num_cpus=1, max_retries=0)(execute_evaluation)
        outcomes: dict[str, list[Outcome]] = {item.entry.key: [] for item in work}
        waiting = [item for item in work if item.run is not None]
        pending: dict[Any, tuple[Work, str]] = {}
        total, done, running = len(work), 0, 0

        def evaluate(item: Work) -> bool:
            if item.evaluation is None:
                return False
            progress(Progress("eval-started", item.entry, done=done, total=total))
            pending[remote_eval.remote(item.evaluation)] = (item, "evaluation")
            return True

        for item in work:
            if item.run is None and not evaluate(item):
                done += 1
        while waiting or pending:
            while waiting and running < self.max_concurrent_runs:
                item = waiting.pop(0)
                progress(Progress("run-started", item.entry, done=done, total=total))
                pending[remote_run.remote(item.run)] = (item, "run")
                running += 1
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                item, kind = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a task that died fails only its entry
                    outcome = Outcome(kind, "failed", str(item.entry.run_dir), f"{type(exc).__name__}: {exc}")
                outcomes[item.entry.key].append(outcome)
                if kind == "run":
                    running -= 1
                    progress(Progress("run-done", item.entry, outcome, done, total))
                    if outcome.status not in ("finished", "skipped") or not evaluate(item):
                        done += 1
                else:
                    done += 1
                    progress(Progress("eval-done", item.entry, outcome, done, total))
        return outcomes


class BatchError(Exception):
    """The batch cannot be carried out (one line)."""


# =====================================================================================  the batch


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

    @property
    def failed(self) -> list[EntryState]:
        """Entries whose run did not finish, or whose evaluation is missing or failed."""
        return [
            s
            for s in self.states
            if s.run_status != "finished" or s.message or (self.evaluation_enabled and not s.evaluated)
        ]

    @property
    def complete(self) -> bool:
        return not self.failed


def default_batch_dir(experiment: Experiment) -> Path:
    return experiment.out or experiment.path.parent / "batches" / experiment.name


def plan_work(
    experiment: Experiment, batch_dir: Path, *, no_cache: bool = False, cache_dir: str | None = None, eval_jobs: int = 1
) -> list[Work]:
    """What each entry still needs: a run (fresh or resumed) and/or an evaluation."""
    work: list[Work] = []
    for entry in grid(experiment):
        run_dir = batch_dir / entry.run_dir
        needs_run = run_status(run_dir) != "finished"
        needs_eval = experiment.evaluation.enabled and not (run_dir / EVALUATION_FILE).exists()
        if needs_run:
            (run_dir / EVALUATION_FILE).unlink(missing_ok=True)  # a stale one from before a resume
        run_job = None
        if needs_run:
            run_job = RunJob(
                run_dir=str(run_dir.resolve()),
                domain_path=str(entry.domain.path.resolve()),
                config=entry.config,
                settings=entry.model.settings,
                meta={**run_meta(entry.domain, entry.config, entry.model.settings), "batch": entry.describe()},
                no_cache=no_cache,
                cache_dir=cache_dir,
            )
        eval_job = None
        if needs_eval or (needs_run and experiment.evaluation.enabled):
            eval_job = EvalJob(
                run_dir=str(run_dir.resolve()),
                domain_path=str(entry.domain.path.resolve()),
                planner_dir=str((batch_dir / "planner" / entry.domain.name).resolve()),
                spec=experiment.evaluation,
                time_limit=entry.config.program_timeout_s,
                function=entry.config.function_name,
                jobs=eval_jobs,
            )
        if run_job is not None or eval_job is not None:
            work.append(Work(entry, run_job, eval_job))
    return work


def entry_states(experiment: Experiment, batch_dir: Path, messages: dict[str, str] | None = None) -> list[EntryState]:
    states = []
    for entry in grid(experiment):
        run_dir = batch_dir / entry.run_dir
        coverage = None
        evaluation = run_dir / EVALUATION_FILE
        if evaluation.exists():
            try:
                coverage = json.loads(evaluation.read_text(encoding="utf-8")).get("coverage")
            except (OSError, json.JSONDecodeError):
                pass
        states.append(
            EntryState(entry, run_status(run_dir), evaluation.exists(), coverage, (messages or {}).get(entry.key, ""))
        )
    return states


def write_batch_file(experiment: Experiment, batch_dir: Path, states: list[EntryState]) -> None:
    write_json_atomic(
        batch_dir / BATCH_FILE,
        {
            "format": 1,
            "experiment": experiment.describe(),
            "entries": [state.describe() for state in states],
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S"),
        },
    )


def run_batch(
    experiment: Experiment,
    batch_dir: Path | None = None,
    *,
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
    no_cache: bool = False,
    cache_dir: str | None = None,
) -> BatchResult:
    """Run every entry of the experiment that is not done yet, then evaluate; see the module docstring."""
    started = time.monotonic()
    batch_dir = Path(batch_dir or default_batch_dir(experiment))
    batch_dir.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copyfile(experiment.path, batch_dir / "experiment.toml")
    except (OSError, shutil.SameFileError):
        pass
    executor = executor or LocalExecutor(experiment.max_concurrent_runs, experiment.evaluation.jobs)
    work = plan_work(experiment, batch_dir, no_cache=no_cache, cache_dir=cache_dir, eval_jobs=EVAL_TASK_JOBS)
    write_batch_file(experiment, batch_dir, entry_states(experiment, batch_dir))
    outcomes = executor.execute(work, progress or (lambda _p: None))
    messages = {
        key: "; ".join(f"{o.kind} {o.status}: {o.message}" for o in items if o.status == "failed")
        for key, items in outcomes.items()
    }
    states = entry_states(experiment, batch_dir, messages)
    write_batch_file(experiment, batch_dir, states)
    ran = sum(1 for items in outcomes.values() for o in items if o.kind == "run" and o.status != "skipped")
    evaluated = sum(1 for items in outcomes.values() for o in items if o.kind == "evaluation" and o.status != "kept")
    return BatchResult(
        batch_dir=batch_dir,
        states=states,
        ran=ran,
        skipped=len(grid(experiment)) - ran,
        evaluated=evaluated,
        seconds=time.monotonic() - started,
        evaluation_enabled=experiment.evaluation.enabled,
    )


def api_key_environment(experiment: Experiment) -> dict[str, str]:
    """The API key variables the models name, as set here (handed to Ray workers)."""
    names = {m.settings.api_key_env for m in experiment.models}
    return {name: os.environ[name] for name in names if os.environ.get(name)}


def with_max_concurrent_runs(experiment: Experiment, value: int | None) -> Experiment:
    return experiment if value is None else replace(experiment, max_concurrent_runs=value)
