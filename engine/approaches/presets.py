"""The presets of the registered approaches (each approach keeps its own in engine/approaches/<name>.py), as
PipelineConfigs for the approaches that write programs, and custom configuration files.

Numbers are the paper's: F5-3 (N=5 initial programs, K_C=3 code debugging rounds), F3-6 (N=3, K_C=6),
both with K_S=5 strategy debugging rounds and a 45 s program time limit; the ablations of F3-6: -MC (N=1),
-SD (K_S=0), -CR (revise code without reflection); Bas (the paper's re-implementation of the baseline) and
Sil (Silver et al.: one conversation, four fixes, 30 s).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from genplan.engine.approaches import APPROACHES, Capability, pipeline_approach_names
from genplan.engine.pipeline.config import ConfigError, PipelineConfig

__all__ = ["ALIASES", "PRESETS", "all_presets", "check_config", "load_config_file", "load_preset", "preset_names"]


def all_presets() -> dict[str, PipelineConfig]:
    """Every registered approach's presets (name -> configuration), in registration order."""
    presets: dict[str, PipelineConfig] = {}
    for approach in APPROACHES.values():
        if not approach.can(Capability.PROGRAMS):  # the others' presets are not pipeline settings
            continue
        for name, parameters in approach.presets.items():
            presets[name] = PipelineConfig(
                preset=name, approach=approach.name, function_name=approach.function_name, **parameters
            )
    return presets


# The built-in presets (F5-3, F3-6 and its ablations, Bas, Sil); approaches registered later add theirs to
# all_presets(), which load_preset and preset_names consult.
PRESETS: dict[str, PipelineConfig] = all_presets()
ALIASES = {"-MC": "F3-6-MC", "-SD": "F3-6-SD", "-CR": "F3-6-CR", "MC": "F3-6-MC", "SD": "F3-6-SD", "CR": "F3-6-CR"}


def preset_names() -> list[str]:
    return list(all_presets())


def load_preset(name: str) -> PipelineConfig:
    key = ALIASES.get(name, name)
    presets = all_presets()
    for preset in presets:
        if preset.lower() == key.lower():
            return presets[preset]
    raise ConfigError(f"unknown preset '{name}' (known: {', '.join(presets)})")


def check_config(config: PipelineConfig) -> PipelineConfig:
    """``config`` when its approach is a registered one whose parameters are a PipelineConfig (the registry is
    asked here, so the configuration module needs no list of them); ConfigError (one line) otherwise."""
    names = pipeline_approach_names()
    if config.approach not in names:
        raise ConfigError(f"approach must be one of {', '.join(names)}, not '{config.approach}'")
    return config


def load_config_file(path: str | Path) -> PipelineConfig:
    """A custom configuration in TOML: ``preset = "F3-6"`` as the base, then any field to override."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from None
    data = dict(data.get("pipeline", data))
    base = load_preset(str(data.pop("preset", "F5-3")))
    try:
        if "faithful" in data:  # faithful = "all": its toggles first, the file's other settings over them
            base = base.faithfully(str(data.pop("faithful")))
        return check_config(PipelineConfig.from_dict({**base.to_dict(), "preset": data.pop("name", f"{base.preset}*"),
                                                      **data}))
    except (ConfigError, TypeError) as exc:
        raise ConfigError(f"{p}: {exc}") from None
