"""The LLM pipeline engine: strategy refinement (Stein et al.) and the baselines, with a run store."""

from .config import PRESETS, ConfigError, PipelineConfig, load_config_file, load_preset, preset_names
from .events import Event, EventBus
from .gateway import Controller, Decision, ModelGateway, RunStopped
from .runner import Pipeline, RunResult
from .store import RunStore

__all__ = [
    "PRESETS",
    "ConfigError",
    "Controller",
    "Decision",
    "Event",
    "EventBus",
    "ModelGateway",
    "Pipeline",
    "PipelineConfig",
    "RunResult",
    "RunStopped",
    "RunStore",
    "load_config_file",
    "load_preset",
    "preset_names",
]
