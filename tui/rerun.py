"""Rerunning a program version on the debug (or eval) tasks through the engine's Evaluator.

Runs in a thread worker; each task's result is posted as soon as it is known, so the screen shows
progress. Running, validating and the feedback texts are the engine's; this module only reshapes
the results for display.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .messages import RerunEnded, RerunProgress, RerunRow

# Debug tasks run once in file order, as the pipeline's debugging does; eval tasks under the paper's
# four orderings (file order plus three seeded shuffles).
DEBUG_ORDERINGS = 1


def run_config(run_dir: Path | None) -> Any:
    """The PipelineConfig a run used (for the time limit, function name and feedback style)."""
    from genplan.engine.pipeline import ConfigError, load_preset

    if run_dir is not None:
        try:
            from genplan.engine.runs import read_meta

            return read_meta(run_dir).pipeline_config()
        except (OSError, ValueError, TypeError, ConfigError):
            pass  # an old or hand-edited run.json: the defaults
    return load_preset("F5-3")


def row_from(result: Any) -> RerunRow:
    """A TaskResult of the engine's Evaluator as one table row."""
    shown = result.failure or (result.orderings[0] if result.orderings else None)
    outcome = shown.outcome if shown is not None else None
    details: dict[str, Any] = {}
    if outcome is not None and outcome.stdout:
        details["stdout"] = outcome.stdout
    if shown is not None and shown.ordering:
        details["ordering"] = shown.ordering
    return RerunRow(
        task=result.name.split("/")[-1],
        solved=result.solved,
        kind=result.error_kind,
        message=result.message,
        output=list(outcome.plan) if outcome is not None and outcome.plan is not None else None,
        runtime=result.runtime if result.orderings else None,
        details=details,
    )


def rerun_program(
    job: int,
    source: str,
    domain_path: Path,
    task_set: str,
    run_dir: Path | None,
    post: Callable[[Any], Any],
    cancelled: threading.Event,
) -> None:
    """Run ``source`` on every task of ``task_set`` and post one RerunProgress per task."""
    error: str | None = None
    try:
        from genplan.engine.domainlib import DomainDir
        from genplan.engine.evaluation import DEFAULT_ORDERINGS, Evaluator, load_tasks
        from genplan.engine.pddl import load_domain
        from genplan.engine.sandbox import Limits, Program

        directory = DomainDir.open(domain_path)
        config = run_config(run_dir)
        domain = load_domain(directory.domain_file)
        paths = directory.eval_tasks() if task_set == "eval" else directory.debug_tasks()
        tasks = load_tasks(domain, paths, directory.typed_objects, root=directory.path)
        style = "silver" if config.approach in ("bas", "sil") else "stein"
        program = Program.from_source(source, functions=(config.function_name,))
        orderings = DEFAULT_ORDERINGS if task_set == "eval" else DEBUG_ORDERINGS

        def progress(result: Any, done: int, total: int) -> None:
            post(RerunProgress(job, done - 1, total, row_from(result), result.task.path))

        with Evaluator(domain, tasks, limits=Limits(time_limit=config.program_timeout_s), style=style) as evaluator:
            evaluator.evaluate(program, orderings=orderings, progress=progress, cancel=cancelled)
        if cancelled.is_set():
            error = "cancelled"
    except Exception as exc:  # noqa: BLE001 - one line for the user, never a traceback
        error = f"{type(exc).__name__}: {exc}"
    post(RerunEnded(job, error))
