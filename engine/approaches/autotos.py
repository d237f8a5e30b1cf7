"""AutoToS: the model writes a successor function and a goal test; unit tests check soundness and
completeness and feed the failures back; plain search then solves every instance (engine/autotos/)."""

from __future__ import annotations

from typing import Any

from . import OWN_LOOP, Approach, RunContext, register


def entry(context: RunContext) -> dict[str, Any]:
    from ..autotos.live import run_live

    return run_live(context.target, context.provider, context.runs_dir, context.parameters, context.model,
                    context.progress, preset=context.parameters.get("preset"), run_name=context.run_name,
                    subscriber=context.subscriber, run_created=context.run_created,
                    stop_requested=context.stop_requested, controller=context.controller,
                    resume=context.resume)


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
