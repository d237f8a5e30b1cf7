"""A run's versions for a front end: where each belongs, how its checks came out, the overviews of one run and
of all runs in a directory, a person's edits (the next version's name, a file changed outside genplan, whether an
edited program still compiles), and what
follows from a version: whether a trial continues from a file, what a strategy check costs, a counterexample."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.pddlego.fork import CannotContinue, check_continuable
from genplan.engine.python_text import compile_quietly
from genplan.engine.runs import layout
from genplan.engine.runs.edits import (
    KIND_DIRS,
    VERSION_DIRS,
    EditRecord,
    adopt_outside_edit,
    edits_of,
    lineage,
    next_version_name,
)
from genplan.engine.runs.edits import kind_of as edit_kind
from genplan.engine.versions import (
    Place,
    TaskOutcome,
    VersionResults,
    VersionsOverview,
    check_category,
    domain_overview,
    run_overview,
    version_place,
)

if TYPE_CHECKING:
    from genplan.engine.counterexample import SearchBudget

__all__ = [
    "KIND_DIRS", "VERSION_DIRS", "CannotContinue", "EditRecord", "Place", "TaskOutcome", "VersionResults",
    "VersionsOverview", "adopt_outside_edit", "check_category", "check_continuable", "compile_quietly", "counterexample_for",
    "domain_overview", "edit_kind", "edits_of", "lineage", "next_version_name", "recorded_plans", "run_overview",
    "strategy_check_requests", "version_place",
]


def strategy_check_requests(domain_dir: Path) -> int:
    """How many model requests a strategy check on the domain's debug tasks sends (at least)."""
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.strategy_check import requests_needed

    return requests_needed(DomainDir.open(Path(domain_dir)))


def counterexample_for(run_dir: Path, label: str, relative: str, source: str, domain_dir: Path, *,
                       budget: SearchBudget | None = None, seconds: float | None = None) -> tuple[dict[str, Any], str]:
    """The counterexample record of program version ``label`` (the run's file ``relative``, text ``source``):
    the recorded one, else a new search within ``budget`` (default: :func:`person_budget`, the budget of
    ``genplan counterexample`` without flags; ``seconds``: that budget with as many seconds to search and again
    to shrink). Returns the record and the task's PDDL ("" when none was found)."""
    from genplan.engine.api.presets import run_config
    from genplan.engine.counterexample import person_budget
    from genplan.engine.counterexample.record import search_for_version
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.pddl import load_domain
    from genplan.engine.runs.store import RunStore

    run_dir = Path(run_dir)
    config = run_config(run_dir)
    directory = DomainDir.open(Path(domain_dir))
    budget = budget or person_budget(seconds=seconds, shrink_seconds=seconds)
    record, _searched = search_for_version(RunStore.open(run_dir), label, relative, source, config.function_name,
                                           directory, load_domain(directory.domain_file), seed=0, budget=budget)
    pddl = layout.in_run(run_dir, record["task"]).read_text(encoding="utf-8") if record.get("task") else ""
    return record, pddl


def recorded_plans(run_dir: Path, task_name: str) -> list[tuple[str, bool, list[str]]]:
    """The plans of task ``task_name`` in a run's check results (the model's plans and the programs'): for each,
    the check's name (its results file), whether the plan solved the task, and its actions."""
    found: list[tuple[str, bool, list[str]]] = []
    folder = layout.results_dir(Path(run_dir))
    if not folder.is_dir():
        return found
    for file in sorted(folder.glob("*.json")):
        try:
            records = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(records, list):
            continue
        for record in records:
            if isinstance(record, dict) and record.get("task") == task_name and record.get("output"):
                found.append((file.stem, bool(record.get("solved")), list(record["output"])))
    return found
