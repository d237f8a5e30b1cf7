"""What a front end offers to start: the approaches and their capabilities, the presets (a pipeline preset's
configuration), the reference-faithful toggles, the configuration a run used."""

from __future__ import annotations

from pathlib import Path

from ..approaches import APPROACHES, Approach, Capability, preset_owner, start_target
from ..approaches.presets import load_preset, preset_names
from ..pipeline.config import ConfigError, PipelineConfig
from ..pipeline.faithful import FAITHFUL_HELP, FaithfulError, except_spec, faithful_except_help, parse_spec

__all__ = [
    "APPROACHES", "FAITHFUL_HELP", "Approach", "Capability", "ConfigError", "FaithfulError", "PipelineConfig",
    "approaches", "except_spec", "faithful_except_help", "load_preset", "parse_spec", "preset_names", "preset_owner",
    "run_config", "start_target",
]

DEFAULT_PRESET = "F5-3"  # the configuration of a program that no run made


def approaches() -> list[Approach]:
    """Every registered approach, in registration order."""
    return list(APPROACHES.values())


def run_config(run_dir: Path | None) -> PipelineConfig:
    """The pipeline configuration a run used (its time limit, function name, approach); for no run, an old or
    hand-edited run.json: the default preset's."""
    from ..runs import read_meta

    if run_dir is not None:
        try:
            return PipelineConfig.of_run(read_meta(Path(run_dir)))
        except (OSError, ValueError, TypeError, ConfigError):
            pass
    return load_preset(DEFAULT_PRESET)
