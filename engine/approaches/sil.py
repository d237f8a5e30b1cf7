"""Sil, Silver et al.'s approach: one conversation, a get_plan program, four fixes with their four feedback
types and a 30 s limit; the last program is the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Approach, register

if TYPE_CHECKING:
    from ..pipeline.checks import ProgramChecker
    from ..pipeline.runner import Pipeline


def run(pipeline: Pipeline, checker: ProgramChecker) -> None:
    from ..pipeline.baseline import run_sil

    run_sil(pipeline, checker)


APPROACH = register(Approach(
    name="sil",
    title="Sil: Silver et al. (one conversation, four feedback types, the last program counts)",
    prompt_variant="silver",
    feedback_style="silver",
    function_name="get_plan",
    run=run,
    select_last=True,
    presets={"Sil": {"strategy_rounds": 0, "code_rounds": 4, "initial_programs": 1, "code_reflection": False,
                     "program_timeout_s": 30.0, "debug_orderings": 1,  # Silver et al. debug on one ordering
                     "final_strategy_check": False}},
))
