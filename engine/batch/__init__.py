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

An experiment may also list the presets of AutoToS (``AutoToS``, ``AutoToS+PST``), the own-loop approach that
runs on domain directories: such an entry is one AutoToS run through the approach registry's entry, in the
same place of the grid; it evaluates itself (plain search on the eval tasks, within the experiment's
``eval_timeout_s``), so it has no evaluation.json (its result is in run.json).

A ``[games]`` table (``presets``, ``rooms``, ``seeds``, ``environment = "coincollector"``) adds the grid of the
approaches that play a game instead of a domain (PDDLego+ and PlanGen): one trial per size, model, preset and
game seed, in ``runs/coincollector-<rooms>/<preset>/<model>/seed-<n>/``; its "coverage" is 1 when the game's goal
was reached, and ``genplan report`` tabulates the trials as for ``genplan pddlego``.

Run ids are derived from what determines a run (domain, pipeline settings, model settings), so running
the same batch again finds its runs: finished ones are skipped, unfinished ones are resumed (without
repeating an answered request), and evaluations already written are kept.

Modules: ``experiment`` (the file and its checks), ``jobs`` (the grid, one run, one evaluation),
``executors`` (local threads or Ray), ``results`` (what is left to do, the batch file, ``run_batch``).

Execution is local by default (threads: a bounded number of concurrent runs, whose model requests are
I/O bound, and one evaluation per core, whose programs run in the sandbox's processes) or on a Ray
cluster (``--ray ADDRESS``; ``ray`` is an optional extra), where runs and evaluations are Ray tasks.
"""

from __future__ import annotations

from genplan.engine.batch.executors import (
    BatchError,
    Executor,
    LocalExecutor,
    Progress,
    ProgressCallback,
    RayExecutor,
    Work,
    default_eval_workers,
)
from genplan.engine.batch.experiment import (
    LABEL_PATTERN,
    TASK_SETS,
    EvalSpec,
    Experiment,
    ExperimentError,
    GamesSpec,
    GameTarget,
    ModelSpec,
    PresetSpec,
    api_key_environment,
    load_experiment,
    task_files,
    with_max_concurrent_runs,
)
from genplan.engine.batch.jobs import (
    RUN_DEFINING_SETTINGS,
    Entry,
    EvalJob,
    JobKind,
    JobStatus,
    Outcome,
    RunJob,
    attach_planner_results,
    domain_tasks,
    execute_evaluation,
    execute_run,
    grid,
    run_status,
    selected_program,
)
from genplan.engine.batch.results import (
    BATCH_FILE,
    EVAL_TASK_JOBS,
    BatchResult,
    EntryState,
    coverage_of,
    default_batch_dir,
    entry_states,
    plan_work,
    run_batch,
    write_batch_file,
)

__all__ = [
    "BATCH_FILE", "EVAL_TASK_JOBS", "LABEL_PATTERN", "RUN_DEFINING_SETTINGS", "TASK_SETS",
    "BatchError", "BatchResult", "Entry", "EntryState", "EvalJob", "EvalSpec", "Executor", "Experiment",
    "ExperimentError", "GameTarget", "GamesSpec", "JobKind", "JobStatus", "LocalExecutor", "ModelSpec", "Outcome",
    "PresetSpec", "Progress", "ProgressCallback",
    "RayExecutor", "RunJob", "Work", "api_key_environment", "attach_planner_results", "default_batch_dir",
    "default_eval_workers", "domain_tasks", "entry_states", "execute_evaluation", "execute_run",
    "coverage_of", "grid", "load_experiment", "plan_work", "run_batch", "run_status",
    "selected_program", "task_files", "with_max_concurrent_runs", "write_batch_file",
]  # fmt: skip
