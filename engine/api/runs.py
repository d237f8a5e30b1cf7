"""Reading run directories for a front end: which directories are runs, the files every run has, a run's
recorded events and answers. Starting, resuming and forking runs is :mod:`genplan.engine.api`'s."""

from __future__ import annotations

import json
from pathlib import Path

from ..events import Event
from ..runs.answers import recorded_answer
from ..runs.layout import META, SUMMARY, TRIAL, holds_runs, is_run_dir
from ..runs.store import RunInfo, RunStore

__all__ = ["META", "SUMMARY", "TRIAL", "RunInfo", "answer_text", "holds_runs", "is_run_dir", "open_run",
           "recorded_answer", "run_events"]


def run_events(run_dir: Path) -> list[Event]:
    """Every event a run recorded, in order (a replay)."""
    return list(RunStore.open(Path(run_dir)).events())


def open_run(run_dir: Path) -> RunStore:
    """The store of an existing run directory (FileNotFoundError when it holds no run)."""
    return RunStore.open(Path(run_dir))


def answer_text(response_file: Path) -> str:
    """The text of the answer a ``ResponseReceived`` event's ``response_file`` holds: the gateway's JSON record
    (its response's text) or the answer itself (a ``.md``). OSError, ValueError when it cannot be read."""
    path = Path(response_file)
    if path.suffix == ".json":
        record = json.loads(path.read_text(encoding="utf-8"))
        return str((record.get("response") or record).get("text", ""))
    return path.read_text(encoding="utf-8", errors="replace")
