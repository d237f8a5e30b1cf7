"""Stein et al.'s strategy-refinement pipeline: NL descriptions, a pseudocode strategy debugged with the plan
validator and reflection, N code candidates debugged with reflection, the best program on the debug tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Approach, register

if TYPE_CHECKING:
    from ..pipeline.checks import ProgramChecker
    from ..pipeline.runner import Pipeline


def run(pipeline: Pipeline, checker: ProgramChecker) -> None:
    pipeline.run_stein(checker)


# The paper's numbers: F5-3 (N=5 initial programs, K_C=3 code rounds), F3-6 (N=3, K_C=6), both with K_S=5
# strategy rounds and a 45 s program limit; the ablations of F3-6 drop one part each.
_F36 = {"strategy_rounds": 5, "code_rounds": 6, "initial_programs": 3}

APPROACH = register(Approach(
    name="stein",
    title="Stein et al.: strategy debugging and code debugging with reflection",
    prompt_variant="stein",
    feedback_style="stein",
    function_name="generate_solution",
    run=run,
    presets={
        "F5-3": {"strategy_rounds": 5, "code_rounds": 3, "initial_programs": 5},
        "F3-6": _F36,
        "F3-6-MC": {**_F36, "initial_programs": 1},  # one initial program
        "F3-6-SD": {**_F36, "strategy_rounds": 0},  # no strategy debugging
        "F3-6-CR": {**_F36, "code_reflection": False},  # code revised without reflection
    },
))
