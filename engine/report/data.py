"""Reading a batch directory: the grid's runs as they are on disk, and the planners' results."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.errors import GenplanError
from genplan.engine.events import ResponseReceived
from genplan.engine.runs import RunMeta, RunStatus, layout, read_meta_or_none
from genplan.engine.runs.answers import spend_on_disk
from genplan.engine.runs.outcome import read_evaluation, read_summary, read_trial, self_evaluation
from genplan.engine.runs.overview import usage
from genplan.engine.runs.store import read_events

PLANNER_COVERAGE_DIR = "planner-coverage"


class ReportError(GenplanError):
    """The batch directory cannot be read (one line)."""


@dataclass
class TaskOutcome:
    solved: bool
    runtime: float
    plan_length: int | None


@dataclass
class RunRecord:
    """One entry of the grid as it is on disk."""

    domain: str
    preset: str
    model: str
    seed: int
    run_dir: Path
    status: str | None  # run.json status; None: never started
    calls: int = 0
    tokens: int = 0  # input + output (output includes reasoning tokens)
    # US dollars its own model calls cost at the price of their time (None: a call had no known price)
    cost: float | None = 0.0
    model_name: str = ""  # the model as its endpoint knows it (``model`` is the grid's label)
    seconds: float | None = None  # generation time, summed over the sessions of a resumed run
    evaluation: dict[str, Any] | None = None
    trial: dict[str, Any] | None = None  # PDDLego+ / PlanGen runs: trial.json (outcome, steps, error counts)
    # the counterexample searches of its program versions (+CE presets): counterexamples/<version>.json
    counterexamples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def evaluated(self) -> bool:
        return self.evaluation is not None

    @property
    def coverage(self) -> float | None:
        """Percent of the evaluation tasks solved: 0 for a run that failed without a program; None while
        there is nothing to count (not run or not evaluated yet)."""
        if self.evaluation is None:
            return 0.0 if self.status == RunStatus.FAILED else None
        return 100.0 * float(self.evaluation.get("coverage") or 0.0)

    @property
    def incomplete(self) -> bool:
        """The generation stopped without a program (the paper's "incomplete run")."""
        if self.status is None:
            return False
        if self.status not in (RunStatus.FINISHED, RunStatus.STOPPED):
            return True
        return self.evaluation is not None and self.evaluation.get("status") == "no-program"

    @property
    def error_categories(self) -> set[str]:
        """Error types that occurred on at least one evaluation task."""
        table = (self.evaluation or {}).get("error_table") or {}
        return {category for category, count in table.items() if count}

    def tasks(self) -> dict[str, TaskOutcome]:
        out = {}
        for result in (self.evaluation or {}).get("results", []):
            out[result["task"]] = TaskOutcome(
                result.get("status") == "solved", float(result.get("runtime") or 0.0), result.get("plan_length")
            )
        return out


@dataclass
class BatchData:
    batch_dir: Path
    name: str
    domains: list[str]
    presets: list[str]
    models: list[str]
    seeds: list[int]
    approaches: dict[str, str]  # preset label -> stein / bas / sil
    runs: list[RunRecord]
    planner: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # (domain, task) -> result
    optimal_planner: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # A* + LM-cut, same keys
    # the planners' own coverage runs: (planner "lm"/"ff", domain, task) -> result; the limits (s) they count at
    planner_coverage: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    planner_coverage_limits: list[float] = field(default_factory=list)
    domain_paths: dict[str, str] = field(default_factory=dict)  # grid domain name -> its directory

    def runs_of(self, domain: str | None = None, preset: str | None = None, model: str | None = None) -> list[RunRecord]:
        return [
            r
            for r in self.runs
            if (domain is None or r.domain == domain)
            and (preset is None or r.preset == preset)
            and (model is None or r.model == model)
        ]

    def combinations(self) -> list[tuple[str, str]]:
        return [(model, preset) for model in self.models for preset in self.presets]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def load_batch(batch_dir: str | Path) -> BatchData:
    root = Path(batch_dir)
    batch = _read_json(root / "batch.json")
    if not isinstance(batch, dict):
        raise ReportError(f"{root}: not a batch directory (no readable batch.json)")
    experiment = batch.get("experiment", {})
    runs = [_run_record(root, entry) for entry in batch.get("entries", [])]
    planner = _planner_results(root / "planner")
    optimal_planner = _planner_results(root / "planner-optimal")
    return BatchData(
        batch_dir=root,
        name=experiment.get("name", root.name),
        domains=[d["name"] for d in experiment.get("domains", [])],
        presets=[p["label"] for p in experiment.get("presets", [])],
        models=[m["label"] for m in experiment.get("models", [])],
        seeds=list(experiment.get("seeds", [])),
        approaches={p["label"]: p.get("config", {}).get("approach", "stein") for p in experiment.get("presets", [])},
        runs=runs,
        planner=planner,
        optimal_planner=optimal_planner,
        planner_coverage=_planner_coverage(root / PLANNER_COVERAGE_DIR),
        planner_coverage_limits=[float(v) for v in experiment.get("evaluation", {}).get("planner_coverage") or []],
        domain_paths={d["name"]: d.get("path", "") for d in experiment.get("domains", [])},
    )


def _planner_coverage(folder: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    """BATCH_DIR/planner-coverage/<lm|ff>/<domain>/<task>.json (engine.batch.planner_coverage writes them)."""
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    for file in sorted(folder.glob("*/*/*.json")):
        result = _read_json(file)
        if isinstance(result, dict) and "status" in result:
            found[(file.parent.parent.name, file.parent.name, str(result.get("task", file.stem)))] = result
    return found


def _planner_results(folder: Path) -> dict[tuple[str, str], dict[str, Any]]:
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for file in sorted(folder.glob("*/*.json")):
        result = _read_json(file)
        if isinstance(result, dict) and "task" in result:
            found[(file.parent.name, result["task"])] = result
    return found


def _run_record(root: Path, entry: dict[str, Any]) -> RunRecord:
    run_dir = root / entry["run_dir"]
    meta = read_meta_or_none(run_dir)  # None: the entry never started
    record = RunRecord(
        domain=entry["domain"],
        preset=entry["preset"],
        model=entry["model"],
        seed=int(entry["seed"]),
        run_dir=run_dir,
        status=(meta.status or None) if meta is not None else None,
    )
    # Calls and tokens from the answers on disk: complete even when the run was resumed.
    record.calls, record.tokens = usage(run_dir)
    spent = spend_on_disk(run_dir)
    record.cost = spent.cost_usd if not spent.unpriced else None
    record.model_name = str(meta.model.get("model") or "") if meta is not None else ""
    if meta is not None and "batch_seconds" in meta.extra:
        record.seconds = float(meta.extra["batch_seconds"])
    else:
        summary = read_summary(run_dir)
        record.seconds = summary.wall_seconds if summary is not None else None
    record.evaluation = read_evaluation(run_dir)
    record.trial = read_trial(run_dir)  # a game trial's tables read its record, not a coverage
    if meta is not None and record.evaluation is None:
        _self_evaluated(record, meta)
    searches = [_read_json(path) for path in sorted(layout.counterexamples_dir(run_dir).glob("*.json"))]
    record.counterexamples = [search for search in searches if isinstance(search, dict)]
    return record


def _self_evaluated(record: RunRecord, meta: RunMeta) -> None:
    """A run that evaluated itself (AutoToS's search, a game trial: its outcome record says so, whatever its
    approach) has no evaluation.json: its evaluation is its own. An AutoToS run made before its model calls went
    to responses/ counts its calls and tokens from run.json's ``result`` and its event log."""
    own = self_evaluation(record.run_dir, meta)
    if own is not None and record.trial is None:
        solved, tasks = own
        record.evaluation = {
            "status": "evaluated" if tasks else "no-program",  # no evaluation: its feedback rounds ran out
            "own": True, "solved": solved, "tasks": tasks, "coverage": solved / tasks if tasks else 0.0,
        }
    if record.calls == 0 and meta.result.get("calls"):
        record.calls = int(meta.result.get("calls") or 0)
        for event in read_events(record.run_dir):
            if isinstance(event, ResponseReceived):
                record.tokens += int(event.tokens_in or 0) + int(event.tokens_out or 0)
