"""AutoToS: the model writes a successor function and a goal test; unit tests check soundness and
completeness and feed the failures back; plain search then solves every instance (engine/autotos/).

The approach's parts for the one run context: ``run(Run) -> RunOutcome`` (the loop on the run it is given),
``parameters(mapping) -> AutoToSParameters`` (typed; an unknown key or a wrong type is one line),
``new_run(target, parameters)`` (run.json's fields, the name stem ``autotos-<domain>``), ``reopen(run.json)``
(an unfinished run's target and parameters) and ``edited_answer`` (an edited succ / goal version forks the run).
``entry(RunContext)`` is the adapter today's callers use until the registry takes the parts above.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import OWN_LOOP, Approach, RunContext, register

if TYPE_CHECKING:
    from ..autotos.parameters import AutoToSParameters
    from ..runs.run import NewRun, Run, RunOutcome

__all__ = ["APPROACH", "edited_answer", "entry", "new_run", "parameters", "reopen", "run"]

# The parts import engine/autotos when called: the registry is read before the run machinery is loaded.


def run(run: Run) -> RunOutcome:
    """The AutoToS loop on ``run`` (engine/autotos/live.py)."""
    from ..autotos import live

    return live.run(run)


def parameters(mapping: Mapping[str, Any]) -> AutoToSParameters:
    """The typed parameters (BadParameters, one line: an unknown key, a value of the wrong type)."""
    from ..autotos import parameters as typed

    return typed.parameters(mapping)


def new_run(target: str, params: AutoToSParameters) -> NewRun:
    from ..autotos import live

    return live.new_run(target, params)


def reopen(meta: Mapping[str, Any]) -> tuple[str, AutoToSParameters]:
    from ..autotos import live

    return live.reopen(meta)


def edited_answer(run_dir: Path, relative: str, kind: str, text: str) -> str:
    from ..autotos import live

    return live.edited_answer(run_dir, relative, kind, text)


def entry(context: RunContext) -> dict[str, Any]:
    """Today's own-loop entry over :func:`run`: the run directory made (or, ``context.resume``, opened), the Run
    carried out by ``execute``; the summary of ``genplan import autotos`` plus ``stopped`` (the function whose
    feedback rounds were spent), ``error`` and ``status`` (finished, stopped: the person asked to, failed)."""
    from ..autotos.domains import DataError
    from ..autotos.session import summary_of
    from ..runs import create, create_named, is_run_dir, open_run
    from ..runs.run import Run, RunSetup, execute

    params = parameters(context.parameters)
    runs_dir = Path(context.runs_dir)
    if context.resume:
        if context.run_name is None or not is_run_dir(runs_dir / context.run_name):
            raise DataError(f"{runs_dir / str(context.run_name)}: no AutoToS run to resume there")
        store, _meta = open_run(runs_dir / context.run_name)
    else:
        new = new_run(context.target, params)
        meta = {**new.meta, "model": dict(context.model)}
        store = (create(runs_dir, meta, run_id=context.run_name) if context.run_name is not None
                 else create_named(runs_dir, new.stem or "autotos", meta))
    setup = RunSetup(context.provider, model=dict(context.model), controller=context.controller,
                     subscribers=(context.subscriber,) if context.subscriber is not None else (),
                     progress=context.progress, stop_requested=context.stop_requested,
                     run_created=context.run_created)
    outcome = execute(Run(store, setup, target=context.target, parameters=params), run)
    ended = outcome.value
    return {**summary_of(store.path, ended), "stopped": ended.stopped, "error": ended.error, "status": outcome.status}


APPROACH = register(Approach(
    name="autotos",
    title="AutoToS: successor function and goal test checked by unit tests, then plain search",
    prompt_variant="autotos",
    feedback_style="autotos",  # the paper's ten error categories, made in engine/feedback/autotos.py
    function_name="succ",
    kind=OWN_LOOP,
    entry=entry,
    command="genplan autotos",
    runs_domain_dirs=True,  # any PDDL domain directory is an AutoToS search domain (the PDDL family)
    # "+PST" in the paper: the partial soundness test checks every successor the unit-test searches see
    presets={"AutoToS": {"partial_soundness": False}, "AutoToS+PST": {"partial_soundness": True}},
))
