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
    """A TaskResult of the engine's Evaluator as one table row (the engine's check of it: api.rerun_check)."""
    from genplan.engine import api

    check = api.rerun_check(result)
    return RerunRow(task=check.task, solved=check.solved, kind=check.kind, message=check.message, output=check.output,
                    runtime=check.runtime, details=check.details)


def rerun_program(
    job: int,
    source: str,
    domain_path: Path,
    task_set: str,
    run_dir: Path | None,
    post: Callable[[Any], Any],
    cancelled: threading.Event,
    record: str | None = None,
) -> None:
    """Run ``source`` on every task of ``task_set`` and post one RerunProgress per task; ``record``: the version's
    file in ``run_dir``, whose results an edit's rerun puts on the run's record (RerunEnded names the file)."""
    from genplan.engine import api

    error: str | None = None
    recorded: str | None = None

    def progress(result: Any, done: int, total: int) -> None:
        post(RerunProgress(job, done - 1, total, row_from(result), result.task.path))

    try:
        recorded = api.rerun_program(source, domain_path, task_set, run_dir, progress, cancelled, record=record)
        if cancelled.is_set():
            error = "cancelled"
    except Exception as exc:  # noqa: BLE001 - one line for the user, never a traceback
        error = f"{type(exc).__name__}: {exc}"
    post(RerunEnded(job, error, recorded))
