"""PDDLego+ and its PlanGen baseline in a text environment (engine/pddlego/): PDDLego+ has the model write
and refine PDDL from the observations, genplan plans and executes; PlanGen has the model choose the commands.
One entry run is one trial in one CoinCollector game (``target``: the environment, ``coincollector``); with the
parameter ``continue_from`` ({"run", "file", "text"}) it continues a trial from a person's edit of one of its PDDL
files (``pddlego/fork.py``) in the same game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import OWN_LOOP, Approach, RunContext, register

ENVIRONMENTS = ("coincollector",)
# ``fixed_domain`` naming genplan's own domain file of the game (prompts/pddlego/<environment>_domain.pddl)
GENPLAN_DOMAIN = "genplan"


def _trial(context: RunContext, approach: str) -> dict[str, Any]:
    from dataclasses import replace

    from ..errors import GenplanError
    from ..pddlego.environment import CoinCollector, CoinCollectorConfig, EnvironmentUnavailable
    from ..pddlego.loop import PddlegoConfig
    from ..pddlego.runner import STOPPED, TrialSpec, run_trial
    from ..pddlego.solver import PddlSolver, coin_command
    from ..prompts import PromptLibrary
    from ..runs.status import RunStatus

    if context.target not in ENVIRONMENTS:
        raise GenplanError(f"{context.target}: not an environment {approach} plays (known: {', '.join(ENVIRONMENTS)})")
    p = dict(context.parameters)
    fork = None
    if context.resume:  # this trial again, unfinished: its answers on disk are not asked again
        from ..pddlego.fork import CannotContinue, open_trial

        if context.run_name is None:
            raise CannotContinue("a trial to resume needs its run directory's name")
        fork = open_trial(context.runs_dir / context.run_name)
    elif p.get("continue_from"):  # {"run", "file", "text"}: a person's edit of one PDDL file of a trial
        from ..pddlego.fork import fork_trial

        edit = p["continue_from"]
        fork = fork_trial(Path(edit["run"]), str(edit["file"]), str(edit["text"]), context.runs_dir)
        meta = fork.meta()
        game, kept = meta["environment"], meta.get("config") or {}
        p.update(seed=game["seed"], locations=game["num_locations"], style=kept.get("style", "detailed"),
                 fixed_domain=kept.get("fixed_domain"), max_steps=kept.get("max_steps", 20),
                 preset=str(kept.get("preset") or approach).removesuffix("-fixed-domain"))
    locations, seed = int(p.get("locations", 11)), int(p.get("seed", 0))
    prompts = PromptLibrary(p["prompts"]) if p.get("prompts") else PromptLibrary()
    fixed = p.get("fixed_domain")
    if fixed == GENPLAN_DOMAIN:  # the ablation's preset: genplan's own domain file of the game
        fixed = prompts.read_file(f"pddlego/{context.target}_domain.pddl")
    config = replace(PddlegoConfig(), style=str(p.get("style", "detailed")), fixed_domain=fixed,
                     max_steps=int(p.get("max_steps", 20)))
    try:
        env = CoinCollector(CoinCollectorConfig(num_locations=locations, seed=seed))
    except EnvironmentUnavailable as exc:
        raise GenplanError(str(exc)) from None
    preset = str(p.get("preset") or approach)
    if fixed and not preset.endswith("-fixed-domain"):  # a domain file given to another preset
        preset += "-fixed-domain"
    spec = TrialSpec(approach, config, {"name": context.target, "kind": "real", "seed": seed,
                                        "num_locations": locations, "group": str(locations)},
                     preset=preset, model=str(context.model.get("model") or "manual"),
                     # the target and the parameters it was played with: what a resume plays again
                     extra={"trial": seed, "target": context.target, "parameters": {
                         k: v for k, v in {**p, "preset": preset}.items() if k != "continue_from"}})
    context.progress(f"{approach}: CoinCollector game {seed} ({locations} rooms)"
                     + (f", continuing {Path(p['continue_from']['run']).name} from the edited "
                        f"{p['continue_from']['file']}" if fork is not None and p.get("continue_from") else "")
                     + (f", resuming {context.run_name}" if context.resume else ""))
    store, result = run_trial(env, context.provider, spec, context.runs_dir, PddlSolver(coin_command), prompts,
                              run_id=context.run_name, store=fork,
                              subscribers=[context.subscriber] if context.subscriber is not None else None,
                              run_created=context.run_created, stop_requested=context.stop_requested,
                              controller=context.controller, resume=context.resume)
    status = RunStatus.STOPPED if result.reason == STOPPED else RunStatus.FINISHED
    summary = {"run_dir": str(Path(store.path)), "seed": seed, "status": status, **result.to_dict()}
    summary.pop("record")
    summary.pop("commands")
    return summary


def pddlego_entry(context: RunContext) -> dict[str, Any]:
    return _trial(context, "pddlego")


def plangen_entry(context: RunContext) -> dict[str, Any]:
    return _trial(context, "plangen")


PDDLEGO = register(Approach(
    name="pddlego",
    title="PDDLego+: the model writes and refines PDDL from text observations; planner and game give feedback",
    prompt_variant="pddlego",
    feedback_style="pddlego",  # solver errors (inner loop) and simulation errors (outer loop)
    function_name="",  # no program: the artefacts are PDDL domain and problem files
    kind=OWN_LOOP,
    entry=pddlego_entry,
    command="genplan pddlego",
    default_target="coincollector",
    presets={"pddlego-detailed": {"style": "detailed"}, "pddlego-simple": {"style": "simple"},
             # the paper's ablation: the domain file is given (genplan's; `genplan pddlego --fixed-domain FILE`
             # gives another), the model writes the problem file only
             "pddlego-fixed-domain": {"style": "detailed", "fixed_domain": GENPLAN_DOMAIN}},
))

PLANGEN = register(Approach(
    name="plangen",
    title="PlanGen: the model chooses the game commands itself (PDDLego+'s baseline)",
    prompt_variant="pddlego",
    feedback_style="pddlego",
    function_name="",
    kind=OWN_LOOP,
    entry=plangen_entry,
    command="genplan pddlego",
    default_target="coincollector",
    presets={"plangen": {}},
))
