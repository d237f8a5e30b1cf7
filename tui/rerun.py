"""Rerunning a program version on the debug (or eval) tasks, through the engine's checker.

Runs in a thread worker; each task's result is posted as soon as it is known, so the screen shows
progress. The checker (sandbox + validator + feedback) is the engine's; nothing is re-implemented here.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Callable

from .messages import RerunEnded, RerunProgress


def run_config(run_dir: Path | None) -> Any:
    """The PipelineConfig a run used (for the time limit, function name and feedback style)."""
    from genplan.engine.pipeline import PipelineConfig, load_preset

    if run_dir is not None:
        try:
            meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
            return PipelineConfig.from_dict(meta.get("config") or {})
        except (OSError, ValueError, TypeError, Exception):  # noqa: BLE001 - an old or odd run.json: defaults
            pass
    return load_preset("F5-3")


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
    checker = None
    try:
        from genplan.engine.domainlib import DomainDir
        from genplan.engine.pddl import load_domain
        from genplan.engine.pipeline.checks import ProgramChecker, load_debug_tasks
        from genplan.engine.sandbox import Program

        directory = DomainDir.open(domain_path)
        config = run_config(run_dir)
        domain = load_domain(directory.domain_file)
        paths = directory.eval_tasks() if task_set == "eval" else directory.debug_tasks()
        tasks = load_debug_tasks(domain, paths, directory.typed_objects)
        style = "silver" if config.approach in ("bas", "sil") else "stein"
        checker = ProgramChecker(domain, tasks, config.program_timeout_s, config.function_name, style)
        program = Program.from_source(source, functions=(config.function_name,))
        for index, task in enumerate(tasks):
            if cancelled.is_set():
                error = "cancelled"
                break
            check = checker.check_one(program, task)
            post(RerunProgress(job, index, len(tasks), check, task.path))
    except Exception as exc:  # noqa: BLE001 - one line for the user, never a traceback
        error = f"{type(exc).__name__}: {exc}"
    finally:
        if checker is not None:
            checker.close()
    post(RerunEnded(job, error))
