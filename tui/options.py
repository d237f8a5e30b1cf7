"""How genplan-tui was started: the command line's choices, as the app and its controllers read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class LaunchOptions:
    domain_dir: Path
    # where the runs are: None for the domain's .genplan/runs/; a directory of runs of `genplan autotos`,
    # `genplan import autotos`, `genplan pddlego`, `genplan run --out`, ...
    runs_dir: Path | None = None
    no_domain: bool = False  # opened on runs alone (domain_dir is then the runs directory): no domain to load
    run: str | None = None
    replay: str | None = None
    speed: float = 1.0
    preset: str | None = None
    cli_settings: dict[str, Any] = field(default_factory=dict)
    # PipelineConfig fields given on the command line (split_seed, max_concurrency), as `genplan run` takes them
    pipeline_changes: dict[str, Any] = field(default_factory=dict)
    no_cache: bool = False  # do not use the on-disk response cache
    # an own-loop preset's evaluation (AutoToS): only the first N eval tasks (0: none); None: all of them
    eval_limit: int | None = None
    # an AutoToS run's sandboxed searches, started or resumed here: their address space in GiB (None: the default)
    memory_gib: float | None = None
    # caps given as options on what a run started or gone on with here may spend (engine/api/budget.Budget; None:
    # none); the caps in force, with the settings file's [budget] under them, are RunPrefs.budget
    budget: Any = None
    # a PDDLego+ or PlanGen trial's game: {"seed": N, "locations": N} as given; the rest as the approach's defaults
    game: dict[str, int] = field(default_factory=dict)
    config_file: Path | None = None
    step: bool = False
    classroom: bool = False  # the caption under the timeline (stage of the method, why a feedback); L toggles it
    # served to a classroom (--serve --read-only): watch and replay only; no run started, no edit, no settings saved
    read_only: bool = False
    watch_files: bool = True
    # Warm up after the first frame and freeze the long-lived heap (see responsiveness.py).
    tune_gc: bool = True


def resolve_run(runs_dir: Path, run: str) -> Path:
    """A run given as a directory, or as the id of a run in ``runs_dir`` (the domain's, or the one given)."""
    from genplan.engine.api.runs import is_run_dir

    candidate = Path(run)
    if is_run_dir(candidate):
        return candidate
    return runs_dir / run
