"""Reading run directories for a front end: which directories are runs, the files every run has, a run's
recorded events and answers. Starting, resuming and forking runs is :mod:`genplan.engine.api`'s."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from genplan.engine.events import Event
from genplan.engine.runs import read_meta, read_meta_or_none
from genplan.engine.runs.account import CallSource, Counts, ProvenanceKind, RunAccount, Tokens, count_words
from genplan.engine.runs.answers import answer_text, recorded_answer
from genplan.engine.runs.files import write_json_atomic
from genplan.engine.runs.layout import (
    META,
    RESULTS,
    RUNS_SUBDIR,
    SUMMARY,
    TRIAL,
    OutsideRun,
    holds_runs,
    in_run,
    is_run_dir,
    nl_files,
    observations_file,
    programs_dir,
    trial_call_file,
)
from genplan.engine.runs.layout import default_runs_dir as runs_dir_of
from genplan.engine.runs.lock import RunBusy, RunLock
from genplan.engine.runs.outcome import (
    drop_evaluation,
    has_evaluation,
    has_trial,
    read_evaluation,
    read_summary,
    self_evaluation,
    write_evaluation,
    write_outcome,
)
from genplan.engine.runs.status import RunStatus
from genplan.engine.runs.store import RunInfo, RunStore

__all__ = [
    "CallSource", "Counts", "META", "OutsideRun", "ProvenanceKind", "RunAccount", "Tokens", "count_words",
    "RESULTS", "RUNS_SUBDIR", "RunBusy", "RunInfo", "RunStatus", "RunStore", "SUMMARY", "TRIAL",
    "answer_text", "default_runs_dir", "drop_evaluation", "has_evaluation", "has_trial", "holding", "holds_runs", "in_run",
    "is_run_dir", "mark_failed", "nl_files", "observations_file", "open_run", "programs_dir", "read_evaluation",
    "read_meta", "read_meta_or_none", "read_summary", "record_game_run", "recorded_answer", "run_events", "self_evaluation",
    "trial_call_file", "write_evaluation", "write_json_atomic", "write_summary",
]


def record_game_run(out: Path, run_dir: Path) -> None:
    """Add (or replace) the entry of a PDDLego+ trial run in ``run_dir`` in ``OUT/batch.json``. (The trial's
    modules, its prompts and jinja2, load on this call: not when a front end reads runs, as the TUI's first screen
    does.)"""
    from genplan.engine.pddlego.batch import record_run

    record_run(out, run_dir)


def run_events(run_dir: Path) -> list[Event]:
    """Every event a run recorded, in order (a replay)."""
    return list(RunStore.open(Path(run_dir)).events())


def open_run(run_dir: Path) -> RunStore:
    """The store of an existing run directory (FileNotFoundError when it holds no run)."""
    return RunStore.open(Path(run_dir))


def default_runs_dir(domain_dir: Path) -> Path:
    """Where runs on a domain directory go unless a front end is told otherwise (``DOMAIN_DIR/.genplan/runs``)."""
    return runs_dir_of(Path(domain_dir))


def holding(run_dir: Path) -> RunLock:
    """The run's lock, for a writer into its directory outside the run itself (``with holding(run_dir): ...``):
    RunBusy (one line naming the process) while another process works on the run."""
    return RunLock(Path(run_dir))


def mark_failed(run_dir: Path) -> None:
    """Record in run.json that the run failed (a front end that had to give up on it: the model or the disk);
    under the run's lock (RunBusy when another process has taken the run up meanwhile)."""
    with holding(run_dir):
        RunStore.open(Path(run_dir)).update_meta(status=RunStatus.FAILED)


def write_summary(run_dir: Path, summary: Mapping[str, Any]) -> Path:
    """Write the run's summary.json again with what a front end added to it (``genplan run --eval``'s coverage),
    under the run's lock."""
    with holding(run_dir):
        return write_outcome(Path(run_dir), summary)
