"""The approach registry: one record per LLM method, kept in a plain dict (as pyperplan registers its
searches).

A record names everything that used to be spread over three vocabularies (approach, prompt variant,
feedback style): the prompt set its templates come from, the style of the feedback its model gets after a
check, the function that runs it, and its presets (name -> parameters). This module imports nothing heavy:
listing presets or validating a configuration must not load the model client or the sandbox; the entry
function is imported only when a run starts.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ..pipeline.checks import ProgramChecker
    from .context import RunContext

#: An approach's entry function: it drives one run against the context and returns when done.
EntryFunction = Callable[["RunContext", "ProgramChecker"], None]


@dataclass(frozen=True)
class Approach:
    """One LLM method: what it is called, where its prompts and feedback come from, how it runs."""

    name: str
    summary: str
    prompt_set: str  # a prompt variant of prompts/ (engine.prompts.VARIANTS); "-reasoning" is added for reasoning models
    feedback_style: str  # "stein" (Table 13 of Stein et al.) or "silver" (Silver et al.'s four types)
    entry: str  # "module:function", the module relative to genplan.engine.approaches unless absolute
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)  # preset name -> PipelineConfig fields
    select_last: bool = False  # Silver et al. keep the last program; the others select on the debug tasks
    steps: tuple[str, ...] = ()  # request steps of its own, beyond engine.llm.types.STEPS

    def entry_function(self) -> EntryFunction:
        module_name, _, function = self.entry.partition(":")
        if module_name.startswith("."):
            module = importlib.import_module(module_name, __package__)
        else:
            module = importlib.import_module(module_name)
        run: EntryFunction = getattr(module, function)
        return run


#: Every known approach by name, in the order presets are listed.
APPROACHES: dict[str, Approach] = {}


def register(approach: Approach) -> Approach:
    """Add (or replace) an approach; its presets become known to every front end at once."""
    APPROACHES[approach.name] = approach
    return approach


def unregister(name: str) -> None:
    APPROACHES.pop(name, None)


def get(name: str) -> Approach:
    try:
        return APPROACHES[name]
    except KeyError:
        raise KeyError(f"unknown approach '{name}' (known: {', '.join(APPROACHES)})") from None


def preset_table() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every preset of every approach: name -> (approach, parameters)."""
    return {name: (a.name, params) for a in APPROACHES.values() for name, params in a.presets.items()}


# Numbers are the paper's: F5-3 (N=5 initial programs, K_C=3 code debugging rounds), F3-6 (N=3, K_C=6),
# both with K_S=5 strategy debugging rounds and a 45 s program time limit; the ablations of F3-6: -MC (N=1),
# -SD (K_S=0), -CR (revise code without reflection).
_F36 = {"strategy_rounds": 5, "code_rounds": 6, "initial_programs": 3}
register(
    Approach(
        name="stein",
        summary="Stein et al.: NL descriptions, strategy debugging, N code candidates debugged with reflection",
        prompt_set="stein",
        feedback_style="stein",
        entry=".stein:run_stein",
        presets={
            "F5-3": {"strategy_rounds": 5, "code_rounds": 3, "initial_programs": 5},
            "F3-6": _F36,
            "F3-6-MC": {**_F36, "initial_programs": 1},
            "F3-6-SD": {**_F36, "strategy_rounds": 0},
            "F3-6-CR": {**_F36, "code_reflection": False},
        },
    )
)
# The paper's re-implementation of the baseline: summary -> strategy -> code as separate steps, Silver's
# feedback, no reflection and no strategy debugging; the program is selected on the debug tasks.
register(
    Approach(
        name="bas",
        summary="Bas: Silver et al. re-implemented as separate steps, program selected on the debug tasks",
        prompt_set="baseline",
        feedback_style="silver",
        entry=".baselines:run_bas",
        presets={"Bas": {"strategy_rounds": 0, "code_rounds": 4, "initial_programs": 1, "code_reflection": False}},
    )
)
# Silver et al.: one conversation, get_plan, four fixes, 30 s, the last program is the result.
register(
    Approach(
        name="sil",
        summary="Sil: Silver et al., one conversation, four fixes, the last program counts",
        prompt_set="silver",
        feedback_style="silver",
        entry=".baselines:run_sil",
        select_last=True,
        presets={
            "Sil": {
                "strategy_rounds": 0,
                "code_rounds": 4,
                "initial_programs": 1,
                "code_reflection": False,
                "program_timeout_s": 30.0,
                "function_name": "get_plan",
            }
        },
    )
)
