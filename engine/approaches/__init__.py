"""The approaches genplan runs, one record each in a registry (a plain dict, as pyperplan registers its
searches).

An :class:`Approach` names everything that used to be spread over three vocabularies: the prompt set
(``prompts/<variant>/``), the feedback style of its checks, the function its programs must define, how the
result is selected, and its presets (name -> parameters, shown by ``genplan run --list-presets``). Its ``run``
function drives one run on a :class:`~genplan.engine.pipeline.runner.Pipeline`. The built-in approaches are
Stein et al.'s pipeline (``stein``) and the two baselines (``bas``, ``sil``); :func:`register` adds more (a test
registers a toy approach this way).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import GenplanError

if TYPE_CHECKING:
    from ..pipeline.checks import ProgramChecker
    from ..pipeline.runner import Pipeline

RunFunction = Callable[["Pipeline", "ProgramChecker"], None]


class UnknownApproach(GenplanError):
    """No approach of that name is registered."""


@dataclass(frozen=True)
class Approach:
    name: str
    title: str  # one line, for listings
    prompt_variant: str  # the template directory under prompts/ ("-reasoning" is added for reasoning models)
    feedback_style: str  # "stein" (Table 13 of Stein et al.) or "silver" (Silver et al.'s four types)
    function_name: str  # the entry function every program of this approach defines
    run: RunFunction
    select_last: bool = False  # the last program is the result (Silver et al.), not the best on the debug tasks
    # preset name -> PipelineConfig fields (besides preset, approach and function_name, which are implied)
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)


APPROACHES: dict[str, Approach] = {}


def register(approach: Approach) -> Approach:
    """Add (or replace) an approach; its presets become available to every front end."""
    APPROACHES[approach.name] = approach
    return approach


def get_approach(name: str) -> Approach:
    try:
        return APPROACHES[name]
    except KeyError:
        raise UnknownApproach(f"unknown approach '{name}' (known: {', '.join(APPROACHES)})") from None


def approach_names() -> list[str]:
    return list(APPROACHES)


# the built-in approaches register themselves, in the order listings show them
for _module in ("stein", "bas", "sil"):
    importlib.import_module(f"{__name__}.{_module}")
