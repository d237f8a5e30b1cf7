"""PDDLego+ and its PlanGen baseline in a text environment (engine/pddlego/): PDDLego+ has the model write
and refine PDDL from the observations, genplan plans and executes; PlanGen has the model choose the commands.

One run is one trial in one CoinCollector game (``target``: the environment, ``coincollector``), on the one
:class:`~genplan.engine.runs.run.Run` context every approach gets:

- :func:`parameters` turns a preset's dict and the user's overrides into :class:`TrialParameters` (an unknown
  key or a value of the wrong type is an error of one line);
- :func:`new_run` says what a new trial's ``run.json`` records; :func:`reopen` reads the target and parameters
  back from an unfinished trial's ``run.json`` (to resume it, or to go on with a fork of it);
- :func:`run` plays the trial on the Run (every model call through ``run.ask``) and returns its outcome;
- :func:`edited_answer` turns a person's edit of one PDDL file of a trial into the answer of the call that wrote
  it, so that the generic fork (``fork_run`` at that call, then a resume of the fork) continues from the edit.

"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.approaches import Approach, Capability, EvaluationSettings, register
from genplan.engine.approaches.accounts import describe_trial
from genplan.engine.errors import GenplanError
from genplan.engine.feedback import FeedbackStyle

if TYPE_CHECKING:
    from genplan.engine.pddlego.loop import PddlegoConfig
    from genplan.engine.prompts import PromptLibrary
    from genplan.engine.runs.run import NewRun, Run, RunOutcome

ENVIRONMENTS = ("coincollector",)
APPROACHES = ("pddlego", "plangen")
STYLES = ("detailed", "simple")
# ``fixed_domain`` naming genplan's own domain file of the game (prompts/pddlego/<environment>_domain.pddl)
GENPLAN_DOMAIN = "genplan"
FIXED_SUFFIX = "-fixed-domain"


class ParameterError(GenplanError, ValueError):
    """A trial's parameter that is unknown or of the wrong type (one line)."""


@dataclass(frozen=True)
class TrialParameters:
    """What one PDDLego+ or PlanGen trial is played with."""

    approach: str = "pddlego"  # "pddlego" | "plangen" (set by the approach, not a parameter of its own)
    preset: str = ""  # the preset's name ("-fixed-domain" added when a domain file is given to another preset)
    style: str = "detailed"  # the goal prompt: "detailed" (goal template and hints) | "simple"
    fixed_domain: str | None = None  # a domain file the model may not change, or "genplan" (genplan's own)
    max_steps: int | None = None  # time steps per trial (None: the game's, as the release set it: release.py)
    locations: int = 11  # rooms in the house
    seed: int = 0  # the game's seed
    prompts: str | None = None  # a directory with the person's own prompt templates

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def record(self) -> dict[str, Any]:
        """The parameters as ``run.json`` records them (what a resume plays again)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "approach" and getattr(self, f.name) is not None}


# parameter -> (its type, the words for it)
_TYPES: dict[str, tuple[type, str]] = {
    "preset": (str, "a string"), "style": (str, "a string"), "fixed_domain": (str, "a string"),
    "max_steps": (int, "an integer"), "locations": (int, "an integer"), "seed": (int, "an integer"),
    "prompts": (str, "a string (a directory)"),
}


def parameters(values: Mapping[str, Any], approach: str = "pddlego") -> TrialParameters:
    """The typed parameters of a trial from a preset's dict and the user's overrides (a value None: the default).
    Raises ParameterError for an unknown key, a value of the wrong type or out of range."""
    if approach not in APPROACHES:
        raise ParameterError(f"{approach}: not a trial approach (known: {', '.join(APPROACHES)})")
    given: dict[str, Any] = {}
    for key, value in values.items():
        if key not in _TYPES:
            raise ParameterError(f"{approach}: unknown parameter {key!r} (known: {', '.join(_TYPES)})")
        if value is None:
            continue
        kind, words = _TYPES[key]
        if isinstance(value, Path) and kind is str:
            value = str(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ParameterError(f"{approach} parameter {key!r}: expected {words}, not {value!r}")
        given[key] = value
    if given.get("style", "detailed") not in STYLES:
        raise ParameterError(f"{approach} parameter 'style': {given['style']!r} is not one of {', '.join(STYLES)}")
    for key in ("max_steps", "locations"):
        if key in given and given[key] < 1:
            raise ParameterError(f"{approach} parameter {key!r}: at least 1, not {given[key]}")
    preset = str(given.get("preset") or approach)
    if given.get("fixed_domain") and not preset.endswith(FIXED_SUFFIX):  # a domain file given to another preset
        preset += FIXED_SUFFIX
    return TrialParameters(**{**given, "approach": approach, "preset": preset})


def pddlego_parameters(values: Mapping[str, Any]) -> TrialParameters:
    return parameters(values, "pddlego")


def plangen_parameters(values: Mapping[str, Any]) -> TrialParameters:
    return parameters(values, "plangen")


def _require_environment(target: str, approach: str) -> None:
    if target not in ENVIRONMENTS:
        raise GenplanError(f"{target}: not an environment {approach} plays (known: {', '.join(ENVIRONMENTS)})")


def _require_game() -> None:
    """GenplanError (one line) when the game cannot run here: said before a run directory is made."""
    from genplan.engine.pddlego.environment import CoinCollector, EnvironmentUnavailable

    try:
        CoinCollector.require_available()
    except EnvironmentUnavailable as exc:
        raise GenplanError(str(exc)) from None


def _prompts(params: TrialParameters, default: PromptLibrary | None = None) -> PromptLibrary:
    from genplan.engine.prompts import PromptLibrary

    return PromptLibrary(params.prompts) if params.prompts else default or PromptLibrary()


def _loop_config(target: str, params: TrialParameters, prompts: PromptLibrary) -> PddlegoConfig:
    from genplan.engine.pddlego.loop import PddlegoConfig

    fixed = params.fixed_domain
    if fixed == GENPLAN_DOMAIN:  # the ablation's preset: genplan's own domain file of the game
        fixed = prompts.read_file(f"pddlego/{target}_domain.pddl")
    from genplan.engine.pddlego.release import step_limit

    steps = params.max_steps if params.max_steps is not None else step_limit(target, params.approach)
    return replace(PddlegoConfig(), style=params.style, fixed_domain=fixed, max_steps=steps)


def _spec(target: str, params: TrialParameters, prompts: PromptLibrary) -> Any:
    from genplan.engine.pddlego.runner import TrialSpec

    return TrialSpec(params.approach, _loop_config(target, params, prompts),
                     {"name": target, "kind": "real", "seed": params.seed, "num_locations": params.locations,
                      "group": str(params.locations)},
                     preset=params.preset,
                     # the target and the parameters it was played with: what a resume plays again
                     extra={"trial": params.seed, "target": target, "parameters": params.record()})


def new_run(target: str, params: TrialParameters) -> NewRun:
    """What a new trial's ``run.json`` records: approach, config, environment, trial, target, parameters (the
    model is the front end's to add). A plain run id names it. GenplanError (one line) for an environment the
    approach does not play or a game that cannot run on this machine (before anything is made)."""
    from genplan.engine.runs.run import NewRun

    _require_environment(target, params.approach)
    _require_game()
    return NewRun(_spec(target, params, _prompts(params)).meta())


def reopen(meta: Mapping[str, Any]) -> tuple[str, TrialParameters]:
    """The target and parameters of a trial's ``run.json`` (an unfinished trial, or a fork of one): those it
    recorded, or, for a trial recorded before they were (an import, an earlier genplan), those of its game and
    settings. CannotContinue when the trial was not played in a game that runs here."""
    from genplan.engine.pddlego.fork import CannotContinue

    approach = str(meta.get("approach") or "")
    if approach not in APPROACHES:
        raise CannotContinue(f"{meta.get('run_id', 'the run')}: not a PDDLego+ or PlanGen trial")
    target, recorded = meta.get("target"), meta.get("parameters")
    if isinstance(target, str) and isinstance(recorded, dict):
        return target, parameters(recorded, approach)
    game, kept = meta.get("environment") or {}, meta.get("config") or {}
    if game.get("kind") != "real" or game.get("name") not in ENVIRONMENTS:
        raise CannotContinue(f"{meta.get('run_id', 'the run')}: the trial was played in a "
                             f"{game.get('kind', 'unknown')} environment; going on needs the real CoinCollector game")
    return str(game["name"]), parameters({
        "seed": game.get("seed"), "locations": game.get("num_locations"), "style": kept.get("style"),
        "fixed_domain": kept.get("fixed_domain"), "max_steps": kept.get("max_steps"),
        "preset": str(kept.get("preset") or approach).removesuffix(FIXED_SUFFIX)}, approach)


def edited_answer(run_dir: Path, relative: str, kind: str, text: str) -> str:
    """The answer of the call that wrote the PDDL file ``relative`` of the trial in ``run_dir``, with ``text``
    in place of that file (``kind``: the artefact's kind, domain or problem; the file's name says it too).
    CannotContinue (one line) when the trial cannot go on from it: not a PDDLego+ trial in the real game, a
    domain file that was fixed, not a domain or problem file."""
    from genplan.engine.pddlego import fork

    fork.check_continuable(Path(run_dir), relative)
    return fork.edited_answer(Path(run_dir), relative, text)


def run(run: Run) -> RunOutcome:
    """One trial on ``run``: the game and the solver made from the run's parameters, the trial played; its
    outcome's ``summary`` is the trial record (summary.json and trial.json), ``meta`` its run.json ``outcome``,
    ``value`` the loop's TrialResult (or the error of a model that could not be used)."""
    from genplan.engine.pddlego.environment import CoinCollector, CoinCollectorConfig, EnvironmentUnavailable
    from genplan.engine.pddlego.runner import play
    from genplan.engine.pddlego.solver import PddlSolver, coin_command

    params = run.parameters
    if not isinstance(params, TrialParameters):  # a Run made without them (a test, a tool): the defaults
        params = parameters({}, str(run.meta().get("approach") or "pddlego"))
    _require_environment(run.target, params.approach)
    prompts = _prompts(params, run.setup.prompts)
    spec = _spec(run.target, params, prompts)
    try:
        env = CoinCollector(CoinCollectorConfig(num_locations=params.locations, seed=params.seed))
    except EnvironmentUnavailable as exc:
        raise GenplanError(str(exc)) from None
    meta = run.meta()
    resumed = run.store.last_seq() > 0
    forked, edited = meta.get("forked_from"), meta.get("edited_version")
    run.progress(f"{params.approach}: CoinCollector game {params.seed} ({params.locations} rooms)"
                 + (f", continuing {Path(str(forked)).name} from the edited {edited}" if forked and edited
                    and not resumed else "")
                 + (f", resuming {run.path.name}" if resumed else ""))
    return play(run, env, spec, PddlSolver(coin_command), prompts)


def trial_evaluation(asked: EvaluationSettings) -> dict[str, Any]:
    """A trial is its own evaluation (the game's goal reached or not): it takes no evaluation parameters."""
    return {}


PDDLEGO = register(Approach(
    name="pddlego",
    title="PDDLego+: the model writes and refines PDDL from text observations; planner and game give feedback",
    prompt_variant="pddlego",
    feedback_style=FeedbackStyle.PDDLEGO,  # solver errors (inner loop) and simulation errors (outer loop)
    function_name="",  # no program: the artefacts are PDDL domain and problem files
    run=run,
    parameters=pddlego_parameters,
    new_run=new_run,
    reopen=reopen,
    edited_answer=edited_answer,  # an edited domain or problem file continues the trial (a fork)
    capabilities=frozenset({Capability.RESUME, Capability.STEP, Capability.FORK, Capability.GAME}),
    command="genplan pddlego",
    default_target="coincollector",
    self_evaluation=trial_evaluation,
    describe=describe_trial,
    presets={"pddlego-detailed": {"style": "detailed"}, "pddlego-simple": {"style": "simple"},
             # the paper's ablation: the domain file is given (genplan's; `genplan pddlego --fixed-domain FILE`
             # gives another), the model writes the problem file only
             "pddlego-fixed-domain": {"style": "detailed", "fixed_domain": GENPLAN_DOMAIN}},
))

PLANGEN = register(Approach(
    name="plangen",
    title="PlanGen: the model chooses the game commands itself (PDDLego+'s baseline)",
    prompt_variant="pddlego",
    feedback_style=FeedbackStyle.PDDLEGO,
    function_name="",
    run=run,
    parameters=plangen_parameters,
    new_run=new_run,
    reopen=reopen,
    capabilities=frozenset({Capability.RESUME, Capability.STEP, Capability.GAME}),
    command="genplan pddlego",
    default_target="coincollector",
    self_evaluation=trial_evaluation,
    describe=describe_trial,
    presets={"plangen": {}},
))
