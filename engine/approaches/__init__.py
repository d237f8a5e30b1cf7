"""The approaches genplan runs, one record each in a registry (a plain dict, as pyperplan registers its
searches).

An :class:`Approach` names everything that used to be spread over three vocabularies: the prompt set
(``prompts/<variant>/``), the feedback style of its checks, the function its programs must define, how the
result is selected, and its presets (name -> parameters, shown by ``genplan run --list-presets``).

Two kinds of approach plug in here:

- ``pipeline`` approaches (Stein et al.'s ``stein``, the baselines ``bas`` and ``sil``, a test's toy approach):
  their ``run`` function drives one run through a narrow
  :class:`~genplan.engine.approaches.context.PipelineContext` (ask and extract, render a prompt, write an
  artefact, check it, publish an event, and the steps they share), and their presets are
  :class:`~genplan.engine.pipeline.config.PipelineConfig` fields. The run service behind the context is
  :class:`~genplan.engine.pipeline.runner.Pipeline`, which approaches never import.
- ``own-loop`` approaches (``autotos``, ``pddlego``, ``plangen``): methods with a loop of their own. Their
  ``entry`` takes a narrow :class:`RunContext` (what to run on, the model provider, where runs go, the preset's
  parameters, a progress line sink; optionally an event subscriber, a callback with the new run directory and a
  stop request, for a front end that shows the run live) and returns the run's summary; their presets are that loop's parameters.
  ``command`` names the CLI command that runs them; ``runs_domain_dirs`` says whether ``genplan run DOMAIN_DIR
  --preset P`` can hand a PDDL domain directory to the entry; ``default_target`` is what the TUI runs an
  approach on that needs no domain directory (PDDLego+'s game).

:func:`register` adds more (a test registers a toy approach this way).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GenplanError
from ..pipeline.config import PIPELINE_APPROACHES

if TYPE_CHECKING:
    from ..events import Event
    from ..llm.types import Provider
    from ..runs.run import NewRun, Run, RunOutcome

# an approach's run: its loop on the one Run context every approach gets (engine/runs/run.py)
RunFunction = Callable[["Run"], "RunOutcome"]


class Capability(StrEnum):
    """What an approach's runs can do; front ends offer what the approach declares."""

    RESUME = "resume"  # an unfinished run goes on; the answers on disk are not asked again
    STEP = "step"  # step mode: a person sends, edits, answers or stops each request
    FORK = "fork"  # a new run continues from a person's edit of one of its files
    DOMAIN_DIR = "domain-dir"  # runs on a PDDL domain directory
    GAME = "game"  # plays a text game (its ``default_target``)
    PROGRAMS = "programs"  # writes programs checked on the debug tasks; its parameters are a PipelineConfig

PIPELINE = "pipeline"  # runs through a PipelineContext (strategy / code phases, program checks)
OWN_LOOP = "own-loop"  # runs its own loop through ``entry(RunContext)``


@dataclass(frozen=True)
class RunContext:
    """What an own-loop approach gets for one run, and nothing more."""

    target: str  # what to run on: a domain directory, an AutoToS domain name, an environment name
    provider: Provider  # the model (with the provider stack's retries and cache)
    runs_dir: Path  # where the run directory is made
    parameters: Mapping[str, Any]  # the preset's parameters, overridden by the user's options
    model: Mapping[str, Any] = field(default_factory=dict)  # the model settings, for the run's record
    progress: Callable[[str], None] = lambda _line: None  # one line per step worth telling a person
    # the run directory's name inside ``runs_dir`` (a batch fixes it, so that running the batch again finds the
    # run); None: the approach names it (e.g. with a time stamp).
    run_name: str | None = None
    # a front end that shows the run as it goes (the TUI): every event of the run as it is published, the new run
    # directory (before the run's first event), and whether the person asked to stop (checked before each model
    # call: True ends the run there with status "stopped")
    subscriber: Callable[[Event], None] | None = None
    run_created: Callable[[Path], None] | None = None
    stop_requested: Callable[[], bool] | None = None
    # step mode: decides on every request before it is sent (send, edit, answer, stop), as for pipeline runs
    # (a ``genplan.engine.runs.gateway.Controller``, which approaches do not import)
    controller: Any = None
    # go on with the unfinished run ``runs_dir / run_name`` (killed, stopped, failed): the loop starts again and
    # every answer on disk is taken from there instead of being asked again
    resume: bool = False


# an own-loop approach's entry: one run, its summary (at least "run_dir")
EntryFunction = Callable[[RunContext], dict[str, Any]]


class UnknownApproach(GenplanError):
    """No approach of that name is registered."""


@dataclass(frozen=True)
class Approach:
    name: str
    title: str  # one line, for listings
    prompt_variant: str  # the template directory under prompts/ ("-reasoning" is added for reasoning models)
    feedback_style: str  # "stein" (Table 13 of Stein et al.) or "silver" (Silver et al.'s four types)
    function_name: str  # the entry function every program of this approach defines
    run: RunFunction | None = None  # the approach's loop on its Run (a pipeline approach: a PipelineLoop)
    select_last: bool = False  # the last program is the result (Silver et al.), not the best on the debug tasks
    # preset name -> PipelineConfig fields (besides preset, approach and function_name, which are implied);
    # for an own-loop approach: the parameters its entry reads
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    capabilities: frozenset[Capability] = frozenset()
    # typed parameters from a preset's dict with the user's overrides (a pipeline approach's: its PipelineConfig)
    parameters: Callable[[Mapping[str, Any]], Any] | None = None
    new_run: Callable[[str, Any], NewRun] | None = None  # (target, parameters): run.json fields and name stem
    reopen: Callable[[dict[str, Any]], tuple[str, Any]] | None = None  # run.json -> (target, parameters)
    # (run directory, edited file, kind, text) -> the answer that replaces the model's, for a fork from the edit
    edited_answer: Callable[[Path, str, str, str], str] | None = None
    kind: str = PIPELINE
    entry: EntryFunction | None = None  # an own-loop approach's run
    command: str | None = None  # the CLI command that runs an own-loop approach, e.g. "genplan autotos"
    runs_domain_dirs: bool = False  # `genplan run DOMAIN_DIR --preset P` hands the directory to ``entry``
    # what an own-loop approach that plays no domain directory runs on when a front end has no target to give
    # (PDDLego+: the CoinCollector game); with it the TUI can start the approach from any domain directory
    default_target: str | None = None

    def __post_init__(self) -> None:
        if self.kind == PIPELINE and self.run is None:
            raise ValueError(f"approach {self.name}: a pipeline approach needs a run function")
        if self.kind == OWN_LOOP and self.entry is None:
            raise ValueError(f"approach {self.name}: an own-loop approach needs an entry function")
        if self.kind not in (PIPELINE, OWN_LOOP):
            raise ValueError(f"approach {self.name}: kind must be {PIPELINE!r} or {OWN_LOOP!r}, not {self.kind!r}")

    def can(self, capability: Capability) -> bool:
        return capability in self.capabilities


APPROACHES: dict[str, Approach] = {}


def register(approach: Approach) -> Approach:
    """Add (or replace) an approach; its presets become available to every front end."""
    APPROACHES[approach.name] = approach
    if approach.can(Capability.PROGRAMS) and approach.name not in PIPELINE_APPROACHES:
        PIPELINE_APPROACHES.append(approach.name)  # a PipelineConfig may name it
    return approach


def get_approach(name: str) -> Approach:
    try:
        return APPROACHES[name]
    except KeyError:
        raise UnknownApproach(f"unknown approach '{name}' (known: {', '.join(APPROACHES)})") from None


def approach_names() -> list[str]:
    return list(APPROACHES)


def pipeline_approach_names() -> list[str]:
    """The approaches a PipelineConfig may name."""
    return [a.name for a in APPROACHES.values() if a.can(Capability.PROGRAMS)]


def startable(approach: Approach) -> bool:
    """Can a front end opened on a domain directory start this approach's own loop (on the directory, or on the
    approach's own target)?"""
    return approach.kind == OWN_LOOP and (approach.runs_domain_dirs or approach.default_target is not None)


def start_target(approach: Approach, domain_dir: Path) -> str | None:
    """What a front end opened on ``domain_dir`` runs an own-loop approach on: the directory itself, the
    approach's fixed target, or None (the approach cannot be started there)."""
    if not startable(approach):
        return None
    return str(domain_dir) if approach.runs_domain_dirs else approach.default_target


def preset_owner(preset: str) -> tuple[Approach, str] | None:
    """The approach that defines a preset of this name (case does not matter) and the preset's own spelling;
    None when no approach does."""
    for approach in APPROACHES.values():
        for name in approach.presets:
            if name.lower() == preset.lower():
                return approach, name
    return None


# the built-in approaches register themselves, in the order listings show them
for _module in ("stein", "bas", "sil", "autotos", "pddlego"):
    importlib.import_module(f"{__name__}.{_module}")
