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

from genplan.tui.messages import RerunEnded, RerunProgress, RerunRow

# Debug tasks run once in file order, as the pipeline's debugging does; eval tasks under the paper's
# four orderings (file order plus three seeded shuffles).


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
    from genplan.engine import api

    error: str | None = None

    def progress(result: Any, done: int, total: int) -> None:
        post(RerunProgress(job, done - 1, total, row_from(result), result.task.path))

    try:
        api.rerun_program(source, domain_path, task_set, run_dir, progress, cancelled)
        if cancelled.is_set():
            error = "cancelled"
    except Exception as exc:  # noqa: BLE001 - one line for the user, never a traceback
        error = f"{type(exc).__name__}: {exc}"
    post(RerunEnded(job, error))
