"""A run's outcome, ``summary.json``: written one way by every approach, read one way by every reader.

The pipeline writes its ``RunResult``, a strategy check its finish event, a PDDLego+/PlanGen trial its trial
record (also kept as ``trial.json``), ``genplan run --eval`` the pipeline's with the evaluation added. All go
through :func:`write_outcome` (atomically, the same JSON as before: sorted keys, two-space indent).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import layout
from .files import read_json_or_none, write_json_atomic


def write_outcome(run_dir: Path, outcome: Mapping[str, Any], *, trial: bool = False) -> Path:
    """Write the run's ``summary.json`` (and, for a game trial, the same record as ``trial.json``)."""
    data = dict(outcome)
    if trial:
        write_json_atomic(layout.trial_file(run_dir), data)
    target = layout.summary_file(run_dir)
    write_json_atomic(target, data)
    return target


def read_outcome(run_dir: Path) -> dict[str, Any] | None:
    """The run's ``summary.json``; None when it has none (not finished) or it is not a JSON object."""
    data = read_json_or_none(layout.summary_file(run_dir))
    return data if isinstance(data, dict) else None


def read_trial(run_dir: Path) -> dict[str, Any] | None:
    """A PDDLego+/PlanGen trial's record (``trial.json``); None for any other run."""
    data = read_json_or_none(layout.trial_file(run_dir))
    return data if isinstance(data, dict) else None


def has_trial(run_dir: Path) -> bool:
    return layout.trial_file(run_dir).is_file()
