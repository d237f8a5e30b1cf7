"""AutoToS: the model writes a successor function and a goal test; unit tests check soundness and
completeness and feed the failures back; plain search then solves every instance (engine/autotos/).

The approach's parts for the one run context: ``run(Run) -> RunOutcome`` (the loop on the run it is given),
``parameters(mapping) -> AutoToSParameters`` (typed; an unknown key or a wrong type is one line),
``new_run(target, parameters)`` (run.json's fields, the name stem ``autotos-<domain>``), ``reopen(run.json)``
(an unfinished run's target and parameters) and ``edited_answer`` (an edited succ / goal version forks the run).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.approaches import Approach, Capability, EvaluationSettings, RunOptions, register
from genplan.engine.approaches.accounts import describe_autotos
from genplan.engine.errors import GenplanError
from genplan.engine.feedback import FeedbackStyle

if TYPE_CHECKING:
    from genplan.engine.autotos.parameters import AutoToSParameters
    from genplan.engine.runs.run import NewRun, Run, RunOutcome

__all__ = ["APPROACH", "edited_answer", "new_run", "parameters", "reopen", "run"]

# The parts import engine/autotos when called: the registry is read before the run machinery is loaded.


def run(run: Run) -> RunOutcome:
    """The AutoToS loop on ``run`` (engine/autotos/live.py)."""
    from genplan.engine.autotos import live

    return live.run(run)


def parameters(mapping: Mapping[str, Any]) -> AutoToSParameters:
    """The typed parameters (BadParameters, one line: an unknown key, a value of the wrong type)."""
    from genplan.engine.autotos import parameters as typed

    return typed.parameters(mapping)


def new_run(target: str, params: AutoToSParameters) -> NewRun:
    from genplan.engine.autotos import live

    return live.new_run(target, params)


def reopen(meta: Mapping[str, Any]) -> tuple[str, AutoToSParameters]:
    from genplan.engine.autotos import live

    return live.reopen(meta)


def edited_answer(run_dir: Path, relative: str, kind: str, text: str) -> str:
    from genplan.engine.autotos import live

    return live.edited_answer(run_dir, relative, kind, text)


def self_evaluation(asked: EvaluationSettings) -> dict[str, Any]:
    """AutoToS evaluates itself: plain search with its final functions on the domain's eval tasks, each search
    within the time limit asked, its unit tests in the memory asked."""
    if asked.task_set != "eval":
        raise GenplanError(f"autotos evaluates itself on the eval tasks only, not eval_tasks = {asked.task_set!r}")
    parameters: dict[str, Any] = {"evaluate": asked.enabled}
    if asked.limit is not None:
        parameters["eval_limit"] = asked.limit or None  # 0: every task
    if asked.time_limit_s is not None:
        parameters["eval_timeout"] = asked.time_limit_s
    if asked.memory_mb is not None:
        parameters["memory_gib"] = asked.memory_mb / 1024
    return parameters


def take_options(options: RunOptions) -> tuple[dict[str, Any], list[str]]:
    """Of the run options, the memory of the sandboxed searches (its unit tests and its evaluation)."""
    given = options.given()
    taken = {"memory_gib": given["memory_gib"]} if "memory_gib" in given else {}
    return taken, [name for name in given if name != "memory_gib"]


APPROACH = register(Approach(
    name="autotos",
    title="AutoToS: successor function and goal test checked by unit tests, then plain search",
    prompt_variant="autotos",
    feedback_style=FeedbackStyle.AUTOTOS,  # the paper's ten error categories, made in engine/feedback/autotos.py
    function_name="succ",
    run=run,
    parameters=parameters,
    new_run=new_run,
    reopen=reopen,
    edited_answer=edited_answer,  # an edited successor function or goal test forks the run from there
    # any PDDL domain directory is an AutoToS search domain (the PDDL family); so are the paper's five domains
    capabilities=frozenset({Capability.RESUME, Capability.STEP, Capability.FORK, Capability.DOMAIN_DIR}),
    command="genplan autotos",
    self_evaluation=self_evaluation,
    take_options=take_options,
    describe=describe_autotos,
    # "+PST" in the paper: the partial soundness test checks every successor the unit-test searches see
    presets={"AutoToS": {"partial_soundness": False}, "AutoToS+PST": {"partial_soundness": True}},
))
