"""The approaches genplan runs, one record each in a registry (a plain dict, as pyperplan registers its
searches).

An :class:`Approach` names everything a front end needs to know of a method: its prompt set
(``prompts/<variant>/``), the feedback style of its checks, the function its programs define, how the result is
selected, its presets (name -> parameters, shown by ``genplan run --list-presets``) and its capabilities
(resume, step, fork, runs on a domain directory, plays a game, writes programs).

Every approach runs the same way: ``run(run)`` is its loop on the one :class:`~genplan.engine.runs.run.Run`
context (ask through the gateway, write artefacts, publish events, return the outcome), carried out by
``engine.runs.run.execute``; ``parameters`` makes its typed parameters from a preset and the user's options,
``new_run`` says what a new run directory records, ``reopen`` reads an unfinished run's target and parameters
back, ``edited_answer`` turns a person's edit of one of its files into the answer a fork continues from. The
front ends reach all of it through ``engine/api/`` and never ask which approach they run.

The approaches that write programs (``stein``, ``bas``, ``sil``, a test's toy) share one layer:
``context.pipeline_fields(name, function_name, loop)`` registers their loop on a
:class:`~genplan.engine.approaches.context.PipelineContext` (the pipeline built on the Run) with a
``PipelineConfig`` as their parameters. AutoToS (``autotos.py``) and PDDLego+/PlanGen (``pddlego.py``) run their
own loops on the Run directly.

:func:`register` adds more (a test registers a toy approach this way).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from genplan.engine.errors import GenplanError
from genplan.engine.feedback import FeedbackStyle

if TYPE_CHECKING:
    from genplan.engine.runs.outcome import Describe
    from genplan.engine.runs.run import ApproachParameters, NewRun, Run, RunOutcome

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



@dataclass(frozen=True)
class EvaluationSettings:
    """How a front end or a batch wants a run evaluated, for an approach that evaluates itself; None: the
    approach's own default."""

    enabled: bool = True
    task_set: str = "eval"  # the domain's task set evaluated on
    limit: int | None = None  # the first ``limit`` tasks only
    time_limit_s: float | None = None  # per task
    memory_mb: int | None = None


# An approach that evaluates itself (AutoToS searches the eval tasks, a game trial is its own evaluation): the
# parameters that make its run evaluate as asked; a GenplanError (one line) when it cannot.
SelfEvaluation = Callable[[EvaluationSettings], Mapping[str, Any]]


@dataclass(frozen=True)
class RunOptions:
    """What a front end's options ask of a new run, whatever its approach (None: not given). Each approach takes
    those it has (its ``take_options``); the front end tells the person which options went unused."""

    seed: int | None = None  # which pair of debug tasks are the prompt tasks
    max_concurrency: int | None = None  # parallel model requests
    faithful: str | None = None  # the reference-faithful toggles (engine/pipeline/faithful.py)
    memory_gib: float | None = None  # the address space of a run's sandboxed searches (AutoToS's unit tests)

    def given(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items() if value is not None}


# (options) -> (the parameters they set, over the preset's; the names of the options the approach has no use for)
TakeOptions = Callable[[RunOptions], tuple[dict[str, Any], list[str]]]


def takes_no_options(options: RunOptions) -> tuple[dict[str, Any], list[str]]:
    """An approach none of whose parameters these options set: every option given goes unused."""
    return {}, list(options.given())


class UnknownApproach(GenplanError):
    """No approach of that name is registered."""


P = TypeVar("P", bound="ApproachParameters")  # an approach's typed parameters


@dataclass(frozen=True)
class Approach(Generic[P]):
    name: str
    title: str  # one line, for listings
    prompt_variant: str  # the template directory under prompts/ ("-reasoning" is added for reasoning models)
    feedback_style: FeedbackStyle  # whose words its feedback follows
    function_name: str  # the entry function every program of this approach defines ("" when it writes none)
    run: RunFunction  # the approach's loop on its Run
    parameters: Callable[[Mapping[str, Any]], P]  # typed parameters: a preset's dict with the user's options over it
    new_run: Callable[[str, P], NewRun]  # (target, parameters): what a new run directory records, its name's stem
    reopen: Callable[[Mapping[str, Any]], tuple[str, P]]  # an unfinished run's run.json -> (target, parameters)
    capabilities: frozenset[Capability] = frozenset()
    # (run directory, edited file, kind, text) -> the answer that replaces the model's, for a fork from the edit
    edited_answer: Callable[[Path, str, str, str], str] | None = None
    select_last: bool = False  # the last program is the result (Silver et al.), not the best on the debug tasks
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)  # preset name -> parameters
    command: str | None = None  # the CLI command of its own, e.g. "genplan autotos"
    # what the approach runs on when it takes no domain directory (PDDLego+: the CoinCollector game)
    default_target: str | None = None
    baseline: bool = False  # a batch report compares the other presets with this approach's (the paper's Bas, Sil)
    take_options: TakeOptions = takes_no_options  # what the front end's run options set of its parameters
    # None: the program the run selects is evaluated after it (a batch's evaluation job, ``genplan run --eval``)
    self_evaluation: SelfEvaluation | None = None
    # why a run made by an earlier genplan cannot go on (from run.json's fields), None when it can; a resume or
    # fork refuses it with that line (Bas's runs from before it followed the paper)
    refuse_resume: Callable[[Mapping[str, Any]], str | None] | None = None
    # its part of a run's account (engine/runs/account.py): the outcome in words and numbers from its records;
    # None: the generic reading of the outcome record's typed fields (engine/account.describe_generic)
    describe: Describe | None = None

    def __post_init__(self) -> None:
        # a style given as its word ("stein") is the enum's member; an unknown word is refused here, not mid-run
        object.__setattr__(self, "feedback_style", FeedbackStyle(self.feedback_style))
        if self.can(Capability.FORK) and self.edited_answer is None:
            raise ValueError(f"approach {self.name}: forking needs an edited_answer function")
        if self.can(Capability.GAME) and self.default_target is None:
            raise ValueError(f"approach {self.name}: a game approach needs its default_target")

    def can(self, capability: Capability) -> bool:
        return capability in self.capabilities


APPROACHES: dict[str, Approach[Any]] = {}


def register(approach: Approach[P]) -> Approach[P]:
    """Add (or replace) an approach; its presets become available to every front end."""
    APPROACHES[approach.name] = approach
    return approach


def unregister(name: str) -> None:
    """Take an approach out of the registry again (a test's toy approach)."""
    APPROACHES.pop(name, None)


def get_approach(name: str) -> Approach[Any]:
    try:
        return APPROACHES[name]
    except KeyError:
        raise UnknownApproach(f"unknown approach '{name}' (known: {', '.join(APPROACHES)})") from None


def is_baseline(name: str | None) -> bool:
    """Whether the approach of this name is one a report compares the others with (an unknown one is not)."""
    approach = APPROACHES.get(name or "")
    return approach is not None and approach.baseline


def approach_names() -> list[str]:
    return list(APPROACHES)


def pipeline_approach_names() -> list[str]:
    """The approaches a PipelineConfig may name."""
    return [a.name for a in APPROACHES.values() if a.can(Capability.PROGRAMS)]


def start_target(approach: Approach[Any], domain_dir: Path) -> str | None:
    """What a front end opened on ``domain_dir`` runs the approach on: the directory itself, the approach's own
    target (a game), or None (it cannot be started there)."""
    if approach.can(Capability.DOMAIN_DIR):
        return str(domain_dir)
    return approach.default_target


def preset_owner(preset: str) -> tuple[Approach[Any], str] | None:
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
