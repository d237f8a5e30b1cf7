"""The LLM pipeline engine: strategy refinement (Stein et al.) and the baselines, with a run store.

Exports load lazily, so that reading a preset (genplan.engine.pipeline.config) does not import the model
client and the sandbox.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "PRESETS": "config",
    "ConfigError": "config",
    "PipelineConfig": "config",
    "load_config_file": "config",
    "load_preset": "config",
    "preset_names": "config",
    "Event": "events",
    "EventBus": "events",
    "Controller": "gateway",
    "Decision": "gateway",
    "ModelGateway": "gateway",
    "RunStopped": "gateway",
    "Pipeline": "..approaches.stein",
    "RunResult": "..approaches.stein",
    "RunStore": "store",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .config import PRESETS, ConfigError, PipelineConfig, load_config_file, load_preset, preset_names
    from .events import Event, EventBus
    from .gateway import Controller, Decision, ModelGateway, RunStopped
    from ..approaches.stein import Pipeline, RunResult
    from .store import RunStore


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if module.startswith(".."):  # moved to engine/approaches
        return getattr(importlib.import_module(module[1:], __package__.rpartition(".")[0]), name)
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
