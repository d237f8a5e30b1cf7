"""A run's outcome, ``summary.json``: written one way by every approach, read one way by every reader.

Every approach writes one: the pipeline its ``RunResult``, a strategy check its finish event, a PDDLego+/PlanGen
trial its trial record (also kept as ``trial.json``), AutoToS its calls and its evaluation, ``genplan run --eval``
the pipeline's with the evaluation added. All go through :func:`write_outcome` (atomically, the same JSON as
before: sorted keys, two-space indent). Readers take it typed, as a :class:`RunSummary` (:func:`read_summary`),
which keeps the whole record as it is. A run that evaluates itself (AutoToS's search on the eval tasks, a game
trial) says how in the same words for every approach (:func:`self_evaluation`, :func:`result_line`), so no
reader asks which approach made the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.runs import RunMeta, layout, read_meta_or_none
from genplan.engine.runs.account import OutcomeFacts, RunAccount
from genplan.engine.runs.files import read_json_or_none, write_json_atomic
from genplan.engine.runs.status import RunStatus


@dataclass(frozen=True)
class RunSummary:
    """A run's ``summary.json``, typed: the keys readers pick, each None when the run's kind writes none (a
    game trial has no debug tasks, a pipeline run no trial outcome) or its value has the wrong type; ``data``
    is the whole record as written."""

    status: RunStatus = RunStatus.UNKNOWN  # the pipeline's and a strategy check's; UNKNOWN for a game trial
    selected_program: Path | None = None  # the program the run selected, as written (inside the run directory)
    debug_solved: int | None = None
    debug_total: int | None = None
    wall_seconds: float | None = None
    outcome: str | None = None  # a PDDLego+/PlanGen trial: success, failure
    reason: str | None = None  # why the trial ended that way
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunSummary:
        def count(key: str) -> int | None:
            value = data.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None

        seconds = data.get("wall_seconds")
        program = text("selected_program")
        return cls(
            status=RunStatus.parse(data.get("status")),
            selected_program=Path(program) if program else None,
            debug_solved=count("debug_solved"),
            debug_total=count("debug_total"),
            wall_seconds=float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else None,
            outcome=text("outcome"),
            reason=text("reason"),
            data=dict(data),
        )

    @property
    def self_evaluation(self) -> tuple[int, int] | None:
        """How the run evaluated itself, as (solved, tasks): a game trial's outcome (1 or 0 of 1), an approach's
        ``self_evaluation`` record (AutoToS: (0, 0) when its feedback rounds ran out before an evaluation); None
        for a run that leaves its evaluation to a batch (the pipeline's selected program)."""
        if self.outcome in ("success", "failure"):
            return (1 if self.outcome == "success" else 0), 1
        own = self.data.get("self_evaluation")
        if isinstance(own, dict):
            solved, tasks = own.get("solved"), own.get("tasks")
            if isinstance(solved, int) and isinstance(tasks, int):
                return solved, tasks
        return None

    @property
    def trial_outcome(self) -> str | None:
        """A game trial's outcome in a few words: ``failure (solver)``; None for any other run."""
        if self.outcome is None:
            return None
        return self.outcome + (f" ({self.reason})" if self.reason else "")


def self_evaluation_record(solved: int, tasks: int) -> dict[str, int]:
    """The ``self_evaluation`` field of an outcome record, as :attr:`RunSummary.self_evaluation` reads it."""
    return {"solved": solved, "tasks": tasks}


def self_evaluation(run_dir: Path, meta: RunMeta | None = None) -> tuple[int, int] | None:
    """How a finished run evaluated itself, as (solved, tasks), read from its outcome record (an AutoToS run made
    before it wrote one: from ``run.json``); None when it did not (not finished, evaluation off, or an approach
    whose program a batch evaluates)."""
    summary = read_summary(run_dir)
    own = summary.self_evaluation if summary is not None else None
    if own is not None:
        return own
    meta = meta if meta is not None else read_meta_or_none(run_dir)
    return meta.own_evaluation if meta is not None else None


def result_line(run_dir: Path, meta: RunMeta | None = None) -> str | None:
    """A run's own result in a few words, for listings: a trial's outcome ("failure (solver)"), a run's evaluation
    of itself ("20/20 solved"); None when it has neither."""
    trial = read_trial_summary(run_dir)
    if trial is not None and trial.trial_outcome is not None:
        return trial.trial_outcome
    own = self_evaluation(run_dir, meta)
    if own is None or own[1] == 0:
        return None
    return f"{own[0]}/{own[1]} solved"


def write_outcome(run_dir: Path, outcome: Mapping[str, Any], *, trial: bool = False) -> Path:
    """Write the run's ``summary.json`` (and, for a game trial, the same record as ``trial.json``)."""
    data = dict(outcome)
    if trial:
        write_json_atomic(layout.trial_file(run_dir), data)
    target = layout.summary_file(run_dir)
    write_json_atomic(target, data)
    return target


def _json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``; None when the file is missing, unreadable or holds anything else."""
    data = read_json_or_none(path)
    return data if isinstance(data, dict) else None


def read_outcome(run_dir: Path) -> dict[str, Any] | None:
    """The run's ``summary.json``; None when it has none (not finished) or it is not a JSON object."""
    return _json_object(layout.summary_file(run_dir))


def read_summary(run_dir: Path) -> RunSummary | None:
    """The run's outcome, typed; None when it has none (not finished) or it is not a JSON object."""
    data = read_outcome(run_dir)
    return RunSummary.from_dict(data) if data is not None else None


def read_trial_summary(run_dir: Path) -> RunSummary | None:
    """A PDDLego+/PlanGen trial's record (``trial.json``), typed; None for any other run."""
    data = read_trial(run_dir)
    return RunSummary.from_dict(data) if data is not None else None


def read_trial(run_dir: Path) -> dict[str, Any] | None:
    """A PDDLego+/PlanGen trial's record (``trial.json``); None for any other run."""
    return _json_object(layout.trial_file(run_dir))


def has_trial(run_dir: Path) -> bool:
    return layout.trial_file(run_dir).is_file()


def write_evaluation(run_dir: Path, record: Mapping[str, Any]) -> Path:
    """Write a batch's evaluation of the run's selected program (``evaluation.json``)."""
    target = layout.evaluation_file(run_dir)
    write_json_atomic(target, dict(record))
    return target


def read_evaluation(run_dir: Path) -> dict[str, Any] | None:
    """A batch's evaluation of the run's selected program; None when there is none (or it is no JSON object)."""
    return _json_object(layout.evaluation_file(run_dir))


def has_evaluation(run_dir: Path) -> bool:
    return layout.evaluation_file(run_dir).is_file()


def write_import_record(run_dir: Path, record: Mapping[str, Any]) -> Path:
    """Write what an import of a published log reproduced (``import.json``)."""
    target = layout.import_file(run_dir)
    write_json_atomic(target, dict(record))
    return target


def drop_evaluation(run_dir: Path) -> None:
    """Forget an evaluation made before the run went on (its program may change)."""
    layout.evaluation_file(run_dir).unlink(missing_ok=True)


@dataclass(frozen=True)
class RunReport:
    """What a front end prints of a run's end, for every approach (``engine.api.report``): the run directory, its
    status and the approach's own summary (``details``: the pipeline's selected program and debug tasks,
    AutoToS's calls and evaluation, a trial's outcome). ``to_json`` is what ``--json`` prints."""

    run_dir: Path
    status: RunStatus
    details: Mapping[str, Any] = field(default_factory=dict)
    # the run's account (engine/account.py): what a front end shows of it, the same for every approach
    account: RunAccount | None = None

    @property
    def error(self) -> str | None:
        """Why the model could not be used to the end (None: it could)."""
        error = self.details.get("error")
        return str(error) if error else None

    @property
    def calls(self) -> int | None:
        calls = self.details.get("calls")
        return calls if isinstance(calls, int) and not isinstance(calls, bool) else None

    def to_json(self, *, account: bool = True) -> dict[str, Any]:
        # the keys (and their order) every report had when it was a plain dict, then the account
        shown = {"run_dir": str(self.run_dir), **self.details, "status": self.status}
        if account and self.account is not None:
            shown["account"] = self.account.to_dict()
        return shown


@dataclass(frozen=True)
class OutcomeInput:
    """What an approach's ``describe`` hook reads of a run to say its outcome: the typed records, whose untyped
    parts (``summary.data``, ``imported``) belong to the approach that wrote them."""

    status: RunStatus
    meta: RunMeta
    summary: RunSummary | None
    imported: Mapping[str, Any] | None  # import.json, for an import that wrote one
    message: str = ""


# an approach's part of the account: its run's outcome in words and numbers
Describe = Callable[[OutcomeInput], OutcomeFacts]
