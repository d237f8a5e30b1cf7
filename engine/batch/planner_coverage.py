"""The symbolic planners' coverage on a grid's evaluation tasks (the paper's "Cov. symbolic" columns of Table 2):
genplan's optimal planner ("lm") and satisficing planner ("ff") run once on every evaluation task of every domain
with the largest of the configured time limits; a task counts as covered at a limit L when the planner solved it
within L seconds, so one run gives every column (45 s and 30 min in the paper).

Each result is kept in ``BATCH_DIR/planner-coverage/<lm|ff>/<domain>/<task>.json``; a rerun plans only what is
missing (or was planned with a shorter limit). Shipped reference plans never stand in here: coverage within a
time limit needs a planner that ran.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from genplan.engine.api.pddl import ERROR, PlannerResult, load_domain, load_problem, solve
from genplan.engine.api.runs import write_json_atomic
from genplan.engine.batch.experiment import Experiment, task_files

COVERAGE_DIR = "planner-coverage"
PLANNERS = ("lm", "ff")  # optimal (A* family) and satisficing (GBFS + FF)
PLANNER_MEMORY_MB = 8192  # the paper's planners ran with 8 GB


def result_file(batch_dir: Path, planner: str, domain: str, task: str) -> Path:
    return batch_dir / COVERAGE_DIR / planner / domain / (re.sub(r"[^A-Za-z0-9._-]", "_", task) + ".json")


def _known(path: Path, timeout: float, search: str = "") -> bool:
    """Planned already, with this search (``search``: "" for genplan's default, else the one recorded)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    if data.get("search", "") != search:
        return False
    return bool(float(data.get("timeout") or 0) >= timeout or data.get("status") == "solved")


def _search(experiment: Experiment, planner: str) -> str:
    """The search a planner runs with when it is not genplan's default (--faithful's planner), else ""."""
    evaluation = experiment.evaluation
    if planner == "lm":
        search = evaluation.lm_search if evaluation.lm_search != "lmcut-max-ms" else ""
        return search if evaluation.planner_fallback else f"{search or 'lmcut-max-ms'},alone"
    return evaluation.ff_search if evaluation.ff_search != "eager" else ""


def run_planner_coverage(
    experiment: Experiment, batch_dir: Path, jobs: int = 0, report: Callable[[str], None] | None = None
) -> int:
    """Plan every evaluation task not planned yet with both planners; returns how many planner runs it made."""
    limits = experiment.evaluation.planner_coverage
    if not limits or not experiment.evaluation.enabled:
        return 0
    timeout = max(limits)
    todo: list[tuple[str, Any, Path, str]] = []
    for domain in experiment.domains:
        files = task_files(domain, experiment.evaluation.task_set)
        files = files[: experiment.evaluation.limit] if experiment.evaluation.limit else files
        for planner in PLANNERS:
            for file in files:
                target = result_file(batch_dir, planner, domain.name, file.stem)
                if not _known(target, timeout, _search(experiment, planner)):
                    todo.append((planner, domain, file, str(target)))
    if not todo:
        return 0
    if report is not None:
        report(f"planner coverage: {len(todo)} planner runs (limit {timeout:g} s each)")
    parsed: dict[Path, Any] = {}
    for _planner, domain, _file, _target in todo:
        if domain.domain_file not in parsed:
            parsed[domain.domain_file] = load_domain(domain.domain_file)

    def plan(item: tuple[str, Any, Path, str]) -> None:
        planner, domain, file, target = item
        pddl_domain = parsed[domain.domain_file]
        try:
            result = solve(pddl_domain, load_problem(file, pddl_domain), optimal=planner == "lm", timeout=timeout,
                           memory_mb=PLANNER_MEMORY_MB, lm_search=experiment.evaluation.lm_search,
                           ff_search=experiment.evaluation.ff_search,
                           fallback=experiment.evaluation.planner_fallback)
        except Exception as exc:  # noqa: BLE001 - one task's problem is that task's result, not the batch's end
            result = PlannerResult(ERROR, None, planner, 0.0, f"{type(exc).__name__}: {exc}")
        write_json_atomic(Path(target), {
            "task": file.stem, "planner": result.planner, "status": result.status, "seconds": result.seconds,
            "plan_length": len(result.plan) if result.plan is not None else None, "timeout": timeout,
            "message": result.message,
            **({"search": _search(experiment, planner)} if _search(experiment, planner) else {}),
        })

    workers = jobs or max(1, (os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(plan, todo))
    return len(todo)
