"""A run at a glance: who it is, how it stands and ended, whose fork it is, read from ``run.json`` through
:class:`RunMeta` (the one typed view of it) and from its outcome through :class:`RunSummary`.

The version-level part (how each strategy and program did on the debug tasks) is ``engine.versions``'s, which
extends this overview with the run's results; the batch report reads its grid entries through it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from genplan.engine.runs import RunMeta, read_meta_or_none
from genplan.engine.runs.answers import answers
from genplan.engine.runs.outcome import RunSummary, read_summary, result_line
from genplan.engine.runs.status import RunStatus


@dataclass(frozen=True)
class RunOverview:
    """A run at a glance: its identity, how it stands, its fork parent and what it selected."""

    run_id: str
    path: Path
    status: str  # the outcome's status, else run.json's; "?" when neither says
    preset: str  # "?" when run.json names none
    created: str
    meta: RunMeta
    summary: RunSummary | None = None  # None while the run has no outcome
    forked_from: str | None = None  # the parent run's id
    forked_at: int | None = None  # the request whose answer the fork replaced
    edited_version: str | None = None  # the parent's version the fork continues from (file, relative)
    selected_program: str | None = None  # file stem of the program the run selected
    debug_solved: int | None = None
    debug_total: int | None = None
    outcome: str | None = None  # a run's own result in a few words ("failure (solver)", "20/20 solved")


def read_overview(run_dir: Path) -> RunOverview:
    """One run directory's overview (a directory without a readable run.json gives an UNKNOWN one)."""
    run_dir = Path(run_dir)
    meta = read_meta_or_none(run_dir) or RunMeta(run_id=run_dir.name, status=RunStatus.UNKNOWN)
    summary = read_summary(run_dir)
    forked = meta.forked_from
    edited = meta.extra.get("edited_version")
    selected = summary.selected_program if summary is not None else None
    return RunOverview(
        run_id=run_dir.name,
        path=run_dir,
        status=str((summary.status if summary is not None else "") or meta.status or "?"),
        preset=meta.preset or "?",
        created=meta.created,
        meta=meta,
        summary=summary,
        forked_from=Path(forked).name if forked else None,
        forked_at=meta.forked_at,
        edited_version=str(edited) if edited else None,
        selected_program=selected.stem if selected is not None else None,
        debug_solved=summary.debug_solved if summary is not None else None,
        debug_total=summary.debug_total if summary is not None else None,
        outcome=result_line(run_dir, meta),
    )


def usage(run_dir: Path) -> tuple[int, int]:
    """(model calls, input + output tokens) from the answers on disk: complete even when the run was resumed."""
    recorded = answers(run_dir)
    return len(recorded), sum(answer.tokens for answer in recorded)
