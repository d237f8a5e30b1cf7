"""What a run directory says about its versions: where each belongs (approach phase, candidate), how each
version did on the debug tasks (per task: pass, or the error and its category), and whether the run is a
fork of another. Read from the run's plain files; consumers (the TUI's Versions tree and results matrix,
reports) display it and compute none of it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from genplan.engine.pddl.validate import GOAL_NOT_REACHED
from genplan.engine.runs import layout
from genplan.engine.runs.overview import RunOverview, read_overview
from genplan.engine.sandbox.outcome import CATEGORY_GOAL, CATEGORY_INVALID_ACTION, run_category

PASS = "pass"
NO_PLAN = "no plan"  # the model's answer held no plan to check
SOLVER_ERROR = "solver error"  # PDDLego+: the model's PDDL did not parse or the planner found no plan
# Kinds the checks write that are neither a sandbox outcome nor a validator error.
_OTHER_CATEGORIES = {"no-plan": NO_PLAN, "solver-error": SOLVER_ERROR}
_RESULT_FILE = re.compile(r"^(?P<what>[a-z]+)-(?P<label>.+?)(?P<all>-all)?$")
_CANDIDATE = re.compile(r"(?:^|-)(c\d+)(?:-|$)")
_STRATEGY_LABEL = re.compile(r"^v\d+")
PHASE_ORDER = ("description", "strategy", "code", "other")


def check_category(kind: str | None, solved: bool) -> str:
    """One name per outcome: ``pass``, or the failure's column of the papers' error table (exception, timeout,
    wrong type, invalid action, goal not satisfied, sandbox error), or ``no plan``."""
    if solved:
        return PASS
    if kind is None:
        return CATEGORY_INVALID_ACTION
    if kind in _OTHER_CATEGORIES:
        return _OTHER_CATEGORIES[kind]
    category = run_category(kind)
    if category is not None:
        return category
    return CATEGORY_GOAL if kind == GOAL_NOT_REACHED else CATEGORY_INVALID_ACTION


@dataclass(frozen=True)
class Place:
    """Where a version belongs in its run: the approach phase, for programs the candidate, and its position
    (the version number it is or follows; a reflection on a version comes right after that version)."""

    phase: str  # description, strategy, code, other
    candidate: str | None = None  # c1, c2, ... (code phase)
    number: int = 0
    after: int = 0  # 0 for the version itself, 1 for a reflection on it, 2 for an edit snapshot


_NUMBER = re.compile(r"(?:^|-)v(\d+)")
_PDDL_FILE = re.compile(r"^s(\d+)-a(\d+)-r(\d+)-(domain|problem)$")


def _pddl_place(base: str, after: int) -> Place:
    """A PDDLego+ file: its phase is which file (pddl-domain, pddl-problem), its position (time step,
    attempt after a reset, retry after a solver error) the order in which the model wrote it."""
    match = _PDDL_FILE.match(base)
    if match is None:
        return Place("other", None, 0, after)
    step, attempt, retry, which = match.groups()
    return Place(f"pddl-{which}", None, int(step) * 10_000 + int(attempt) * 100 + int(retry), after)


def version_place(kind: str, name: str) -> Place:
    """The phase, candidate and position of a strategy, reflection or program version named ``name``
    (a file stem; ``+N`` marks a snapshot of an edit made outside)."""
    base, _, edit = name.partition("+")
    number_match = _NUMBER.search(base)
    number = int(number_match.group(1)) if number_match else 0
    after = 2 if edit else 0
    if kind == "strategy":
        return Place("strategy", None, number, after)
    if kind == "program":
        match = _CANDIDATE.search(base)
        return Place("code", match.group(1) if match else None, number, after)
    if kind == "reflection":
        if base.startswith("strategy-"):
            return Place("strategy", None, number, 1)
        if base.startswith("code-"):
            match = _CANDIDATE.search(base[len("code-"):])
            return Place("code", match.group(1) if match else None, number, 1)
    if kind in ("nl_domain", "nl_task", "description"):
        return Place("description")
    if kind == "pddl":  # PDDLego+: sNN-aN-rN-domain / -problem, in the order the model wrote them
        return _pddl_place(base, after)
    if kind == "function":  # AutoToS: succ-N (the successor function), goal-N (the goal test)
        target, _, count = base.partition("-")
        return Place(target, None, int(count) if count.isdigit() else 0, after)
    return Place("other", None, number, after)


@dataclass(frozen=True)
class TaskOutcome:
    """One debug task's result for one version."""

    task: str
    solved: bool
    kind: str | None  # the validator's or the sandbox's kind; None when solved
    category: str  # check_category(kind, solved)
    message: str  # the feedback the model got
    plan: tuple[str, ...] | None  # the plan the model or the program returned


@dataclass(frozen=True)
class VersionResults:
    """How one strategy or program version did on the debug tasks."""

    what: str  # strategy, program
    label: str  # v01, c1-v00
    outcomes: tuple[TaskOutcome, ...]
    all_tasks: bool = False  # a baseline's final check on every task (results/program-X-all.json)

    @property
    def solved(self) -> int:
        return sum(outcome.solved for outcome in self.outcomes)

    @property
    def total(self) -> int:
        return len(self.outcomes)

    def outcome(self, task: str) -> TaskOutcome | None:
        return next((o for o in self.outcomes if o.task == task), None)


@dataclass(frozen=True)
class VersionsOverview(RunOverview):
    """A run at a glance (engine.runs.overview) with every checked version's results."""

    results: tuple[VersionResults, ...] = ()
    tasks: tuple[str, ...] = ()  # debug tasks in the order they were checked

    def results_for(self, what: str, label: str) -> VersionResults | None:
        key = (what, label)
        return next((r for r in self.results if (r.what, r.label) == key and not r.all_tasks), None)

    def results_of(self, kind: str, name: str) -> VersionResults | None:
        """The results of a version as the Versions tree names it (kind strategy/program, file stem)."""
        if kind not in ("strategy", "program"):
            return None
        return self.results_for(kind, name)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _outcome(record: dict[str, Any]) -> TaskOutcome:
    solved = bool(record.get("solved"))
    kind = record.get("kind")
    kind = str(kind) if kind is not None else None
    output = record.get("output")
    plan = tuple(str(a) for a in output) if isinstance(output, list) else None
    return TaskOutcome(str(record.get("task", "?")), solved, None if solved else kind,
                       check_category(kind, solved), str(record.get("message") or ""), plan)


def read_results(run_dir: Path) -> tuple[VersionResults, ...]:
    """Every ``results/<what>-<label>.json`` of a run, strategies first, then programs, in version order."""
    folder = layout.results_dir(run_dir)
    if not folder.is_dir():
        return ()
    found: list[VersionResults] = []
    for file in folder.glob("*.json"):
        match = _RESULT_FILE.match(file.stem)
        records = _read_json(file)
        if match is None or not isinstance(records, list):
            continue
        outcomes = tuple(_outcome(r) for r in records if isinstance(r, dict))
        found.append(VersionResults(match.group("what"), match.group("label"), outcomes, bool(match.group("all"))))
    return tuple(sorted(found, key=_results_order))


def _natural(text: str) -> tuple[Any, ...]:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def _results_order(results: VersionResults) -> tuple[Any, ...]:
    return (results.what != "strategy", _natural(results.label), results.all_tasks)


def run_overview(run_dir: Path) -> VersionsOverview:
    """Read one run directory: its overview (run.json, its outcome) and its results (results/)."""
    results = read_results(run_dir)
    tasks: list[str] = []
    for version in results:
        for outcome in version.outcomes:
            if outcome.task not in tasks and not version.all_tasks:
                tasks.append(outcome.task)
    overview = read_overview(run_dir)
    return VersionsOverview(**{f.name: getattr(overview, f.name) for f in fields(RunOverview)},
                            results=results, tasks=tuple(tasks))


def domain_overview(runs_dir: Path) -> list[VersionsOverview]:
    """Every run under a domain's runs directory, oldest first."""
    if not runs_dir.is_dir():
        return []
    return [run_overview(child) for child in layout.run_dirs_in(runs_dir)]
