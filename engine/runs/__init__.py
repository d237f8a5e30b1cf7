"""The run service: start, resume, fork-from-edit and open a run, for every front end (CLI, TUI, batch).

``run.json`` is read and written by the store only; this module turns it into a typed ``RunMeta`` and
assembles store + provider + run context the same way for everyone. Run directories written before
``RunMeta`` existed are plain dicts with the same keys: ``RunMeta.from_dict`` accepts them (missing keys
get defaults, unknown keys are kept in ``extra``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GenplanError
from ..pipeline.config import BEFORE_REPRODUCTION_SETTINGS, PipelineConfig
from . import layout
from .layout import is_run_dir
from .status import RunStatus

if TYPE_CHECKING:
    from ..domainlib import DomainDir
    from ..llm import Provider
    from ..pipeline.runner import Pipeline
    from ..prompts import PromptLibrary
    from ..runs.gateway import Controller
    from ..runs.store import RunStore

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

    def pipeline_config(self) -> PipelineConfig:
        """The configuration the run used (defaults for a run.json without one)."""
        return PipelineConfig.from_stored(self.config)

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

    @property
    def made_before_reproduction(self) -> bool:
        """Made before the reproduction settings existed (its config names none of them)."""
        return bool(self.config) and not set(BEFORE_REPRODUCTION_SETTINGS) & set(self.config)


__all__ = [
    "NotResumable", "RunMeta", "RunStatus", "create", "create_named", "fork_from_edit", "is_run_dir", "layout", "make_pipeline", "open_run",
    "open_to_continue", "read_meta", "read_meta_or_none", "start_run",
]


class NotResumable(GenplanError):
    """The run opens and replays, but today's code cannot continue it."""


def read_meta(run_dir: Path) -> RunMeta:
    """The typed ``run.json`` of a run directory (FileNotFoundError when it is not one)."""
    from ..runs.store import RunStore  # the store names its files from .layout: imported when used

    store = RunStore.open(Path(run_dir))
    return RunMeta.from_dict(store.meta(), run_id=store.path.name)


def read_meta_or_none(run_dir: Path) -> RunMeta | None:
    """The typed ``run.json``, or None when it is missing or not JSON (listing runs never fails on one)."""
    try:
        return read_meta(run_dir)
    except (OSError, ValueError):
        return None


def start_run(
    root: Path,
    domain_dir: DomainDir,
    config: PipelineConfig,
    model: dict[str, Any],
    *,
    source: str | None = None,
    extra: dict[str, Any] | None = None,
    run_id: str | None = None,
) -> RunStore:
    """A new run directory under ``root`` with its ``run.json``."""
    meta: dict[str, Any] = {"domain_dir": str(domain_dir.path.resolve()), "config": config.to_dict(), "model": model}
    if source is not None:
        meta["source"] = source
    return create(Path(root), {**meta, **(extra or {})}, run_id=run_id)


def create(root: Path, meta: dict[str, Any], *, run_id: str | None = None, existing_dir_ok: bool = False) -> RunStore:
    """The one way a run directory is made: ``root/<run_id>`` (a new id unless one is given; FileExistsError
    when it exists, unless ``existing_dir_ok`` and no run is in it) with its ``run.json`` (``meta`` plus id,
    status running, creation time and owner) and an empty event log."""
    from ..runs.store import RunStore

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
    from ..runs.store import RunStore

    store = RunStore.open(Path(run_dir))
    return store, RunMeta.from_dict(store.meta(), run_id=store.path.name)


def open_to_continue(run_dir: Path) -> tuple[RunStore, RunMeta]:
    """An existing run, to resume: its recorded answers are given back in order and the rest is asked."""
    store, meta = open_run(run_dir)
    _require_continuable(store.path, meta)
    return store, meta


def _require_continuable(path: Path, meta: RunMeta) -> None:
    # An own-loop approach's run (AutoToS, PDDLego+) is made by its own command; the pipeline cannot go on with it.
    if meta.approach is not None:
        from ..approaches import OWN_LOOP, UnknownApproach, get_approach

        try:
            approach = get_approach(meta.approach)
        except UnknownApproach:
            approach = None
        if approach is not None and approach.kind == OWN_LOOP:
            raise NotResumable(f"{path}: a run of {meta.approach}, which runs its own loop; the pipeline does not "
                               f"continue it (`genplan run --resume {path}` does; a new run: "
                               f"{approach.command or 'its own command'})")
    # Bas changed its steps to the paper's (NL descriptions, no PDDL summary): an earlier Bas run's answers
    # belong to steps today's Bas never asks, so continuing it would silently start over.
    if meta.made_before_reproduction and meta.pipeline_config().approach == "bas":
        raise NotResumable(f"{path}: made by genplan's earlier Bas (a PDDL summary, no NL descriptions); Bas now follows "
                           "the paper (docs/reproduction.md), so this run opens and replays but cannot be continued; "
                           "start a new run")


def fork_from_edit(run_dir: Path, relative: str, kind: str, text: str) -> RunStore:
    """A new run that keeps every answer before the edited artefact and continues from the edit."""
    from ..runs.store import continue_from_edit

    store, meta = open_run(run_dir)
    _require_continuable(store.path, meta)
    return continue_from_edit(store, relative, kind, text)


def make_pipeline(
    store: RunStore,
    domain_dir: DomainDir,
    config: PipelineConfig,
    provider: Provider,
    *,
    controller: Controller | None = None,
    prompts: PromptLibrary | None = None,
    reasoning: bool = False,
) -> Pipeline:
    """The run context for the run's approach (the registry decides what runs)."""
    from ..pipeline.runner import Pipeline

    return Pipeline(domain_dir, config, provider, store, controller=controller, prompts=prompts, reasoning=reasoning)
