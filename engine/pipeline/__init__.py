"""The LLM pipeline engine: strategy refinement (Stein et al.) and the baselines, with a run store.

Exports load lazily, so that reading a preset (genplan.engine.pipeline.config) does not import the model
client and the sandbox.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "ConfigError": "config",
    "PipelineConfig": "config",
    "Pipeline": "runner",
    "RunResult": "runner",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from genplan.engine.pipeline.config import (
        ConfigError as ConfigError,
    )
    from genplan.engine.pipeline.config import (
        PipelineConfig as PipelineConfig,
    )
    from genplan.engine.pipeline.runner import Pipeline as Pipeline
    from genplan.engine.pipeline.runner import RunResult as RunResult


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
