"""Bas, the paper's re-implementation of the baseline: summary, strategy and code as separate steps, Silver
et al.'s feedback, no reflection and no strategy debugging; the program is selected on the debug tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Approach, register

if TYPE_CHECKING:
    from ..pipeline.checks import ProgramChecker
    from ..pipeline.runner import Pipeline


def run(pipeline: Pipeline, checker: ProgramChecker) -> None:
    from ..pipeline.baseline import run_bas

    run_bas(pipeline, checker)


APPROACH = register(Approach(
    name="bas",
    title="Bas: the paper's re-implemented baseline (summary, strategy, code; Silver's feedback)",
    prompt_variant="baseline",
    feedback_style="silver",
    function_name="generate_solution",
    run=run,
    # 5 fix rounds as in the reference configuration (Table 8's maximum of 21 calls implies 6); the strategy is
    # validated once and never refined, and no final strategy check re-plans the prompt tasks
    presets={"Bas": {"strategy_rounds": 0, "code_rounds": 5, "initial_programs": 1, "code_reflection": False,
                     "final_strategy_check": False}},
))
