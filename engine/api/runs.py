"""Reading run directories for a front end: which directories are runs, the files every run has, a run's
recorded events and answers. Starting, resuming and forking runs is :mod:`genplan.engine.api`'s."""

from __future__ import annotations

from pathlib import Path

from ..events import Event
from ..runs.answers import recorded_answer
from ..runs.layout import META, SUMMARY, TRIAL, holds_runs, is_run_dir
from ..runs.store import RunInfo, RunStore

__all__ = ["META", "SUMMARY", "TRIAL", "RunInfo", "holds_runs", "is_run_dir", "recorded_answer", "open_run",
           "run_events"]


def run_events(run_dir: Path) -> list[Event]:
    """Every event a run recorded, in order (a replay)."""
    return list(RunStore.open(Path(run_dir)).events())


def open_run(run_dir: Path) -> RunStore:
    """The store of an existing run directory (FileNotFoundError when it holds no run)."""
    return RunStore.open(Path(run_dir))
