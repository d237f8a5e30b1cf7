"""The run directory, for every approach: its files (``layout``), its store, lock and model gateway, the one
``Run`` context an approach works on (``run``), its end (``outcome``); here: creating and opening runs and the
typed ``RunMeta`` of ``run.json``. Starting, resuming and forking runs is the front-end API's (engine/api/).

``run.json`` is read and written by the store only; this module turns it into a typed ``RunMeta``. Run directories written before
``RunMeta`` existed are plain dicts with the same keys: ``RunMeta.from_dict`` accepts them (missing keys
get defaults, unknown keys are kept in ``extra``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.errors import GenplanError
from genplan.engine.runs import layout
from genplan.engine.runs.layout import is_run_dir
from genplan.engine.runs.status import RunStatus

if TYPE_CHECKING:
    from genplan.engine.runs.store import RunStore

_KNOWN = ("run_id", "status", "created", "domain_dir", "config", "model", "source", "forked_from", "forked_at")


@dataclass(frozen=True)
class RunMeta:
    """What ``run.json`` records: what was run, with which model (never the key), and how it ended."""

    run_id: str
    status: RunStatus = RunStatus.RUNNING
    created: str = ""
    domain_dir: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    model: dict[str, Any] = field(default_factory=dict)
    source: str | None = None  # e.g. "genplan-tui"
    forked_from: str | None = None
    forked_at: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. "batch", "edited"

    @classmethod
    def from_dict(cls, data: Any, run_id: str = "") -> RunMeta:
        """Tolerant of old and hand-edited files: a value of the wrong type counts as missing."""
        data = data if isinstance(data, dict) else {}

        def text(key: str) -> str | None:
            value = data.get(key)
            return str(value) if isinstance(value, (str, int, float)) and value != "" else None

        def mapping(key: str) -> dict[str, Any]:
            value = data.get(key)
            return dict(value) if isinstance(value, dict) else {}

        forked_at = data.get("forked_at")
        return cls(
            run_id=text("run_id") or run_id,
            status=RunStatus.parse(data.get("status")),  # UNKNOWN: a hand-made or partial run.json
            created=text("created") or "",
            domain_dir=text("domain_dir"),
            config=mapping("config"),
            # an AutoToS run of before named its model as a string: migrated on read to the settings' shape
            model=mapping("model") or ({"model": data["model"]} if isinstance(data.get("model"), str) else {}),
            source=text("source"),
            forked_from=text("forked_from"),
            forked_at=forked_at if isinstance(forked_at, int) and not isinstance(forked_at, bool) else None,
            extra={k: v for k, v in data.items() if k not in _KNOWN},
        )

    @property
    def approach(self) -> str | None:
        """The approach that made the run (a pipeline run names it in its config, an own-loop run at the top)."""
        named = self.config.get("approach") or self.extra.get("approach")
        return str(named) if named else None

    @property
    def result(self) -> dict[str, Any]:
        """An own-loop run's record of how it ended (AutoToS: run.json ``result``); {} for any other run."""
        result = self.extra.get("result")
        return dict(result) if isinstance(result, dict) else {}

    @property
    def own_evaluation(self) -> tuple[int, int] | None:
        """A finished own-loop run's evaluation of itself (AutoToS: run.json ``result.evaluation``) as (solved,
        tasks); (0, 0) when its feedback rounds ran out before an evaluation; None when it has none (a pipeline
        run, a run not finished, an evaluation turned off)."""
        result = self.extra.get("result")
        if self.status != RunStatus.FINISHED or not isinstance(result, dict) or "evaluation" not in result:
            return None
        evaluation = result.get("evaluation")
        if isinstance(evaluation, dict):
            solved = int(evaluation.get("solved") or 0)
            return solved, solved + int(evaluation.get("failed") or 0)
        return (0, 0) if result.get("stopped") else None

    @property
    def preset(self) -> str | None:
        """The preset the run used (its config's; an AutoToS run of before names it, or only its approach, at
        the top of run.json)."""
        named = self.config.get("preset") or self.extra.get("preset") or self.approach
        return str(named) if named else None

    @property
    def model_name(self) -> str | None:
        name = self.model.get("model")
        return str(name) if isinstance(name, str) else None

    @property
    def is_fork(self) -> bool:
        return self.forked_from is not None



__all__ = ["NotResumable", "RunMeta", "RunStatus", "create", "create_named", "is_run_dir", "layout", "open_run", "read_meta",
           "read_meta_or_none"]


class NotResumable(GenplanError):
    """The run opens and replays, but it cannot be continued (one line says why)."""


def read_meta(run_dir: Path) -> RunMeta:
    """The typed ``run.json`` of a run directory (FileNotFoundError when it is not one)."""
    from genplan.engine.runs.store import RunStore  # the store names its files from .layout: imported when used

    store = RunStore.open(Path(run_dir))
    return RunMeta.from_dict(store.meta(), run_id=store.path.name)


def read_meta_or_none(run_dir: Path) -> RunMeta | None:
    """The typed ``run.json``, or None when it is missing or not JSON (listing runs never fails on one)."""
    try:
        return read_meta(run_dir)
    except (OSError, ValueError):
        return None


def create(root: Path, meta: dict[str, Any], *, run_id: str | None = None, existing_dir_ok: bool = False) -> RunStore:
    """The one way a run directory is made: ``root/<run_id>`` (a new id unless one is given; FileExistsError
    when it exists, unless ``existing_dir_ok`` and no run is in it) with its ``run.json`` (``meta`` plus id,
    status running, creation time and owner) and an empty event log."""
    from genplan.engine.runs.store import RunStore

    return RunStore.create(Path(root), meta, run_id=run_id, existing_dir_ok=existing_dir_ok)


def create_named(root: Path, stem: str, meta: dict[str, Any]) -> RunStore:
    """A new run directory named ``<stem>-<date>-<time>`` (``-1``, ``-2``, ... after it when taken), as an
    AutoToS run's are."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1000):
        try:
            return create(root, meta, run_id=f"{stem}-{stamp}" + (f"-{k}" if k else ""))
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot make a new run directory in {root}")


def open_run(run_dir: Path) -> tuple[RunStore, RunMeta]:
    """An existing run, to resume or replay."""
    from genplan.engine.runs.store import RunStore

    store = RunStore.open(Path(run_dir))
    return store, RunMeta.from_dict(store.meta(), run_id=store.path.name)
