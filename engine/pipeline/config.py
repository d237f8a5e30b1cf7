"""Pipeline configurations; the presets are data carried by the approach records
(engine/approaches/registry.py), turned into configurations here.
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ..approaches import registry

# Which debug tasks (instance/task index) are the two prompt tasks, per split seed — as in the paper's
# published splits: seed 1 uses tasks 4 and 5, seed 2 tasks 0 and 1, seed 3 tasks 2 and 3.
PROMPT_TASKS_BY_SEED = {1: (4, 5), 2: (0, 1), 3: (2, 3)}


class ConfigError(Exception):
    """A bad preset or configuration value (one line)."""


@dataclass(frozen=True)
class PipelineConfig:
    preset: str = "F5-3"
    approach: str = "stein"
    strategy_rounds: int = 5  # K_S
    code_rounds: int = 3  # K_C
    initial_programs: int = 5  # N
    code_reflection: bool = True  # False for -CR
    program_timeout_s: float = 45.0
    split_seed: int = 1
    max_concurrency: int = 6  # one request per debug task at once
    function_name: str = "generate_solution"
    extraction_retries: int = 1  # an unusable answer is fed back this many times
    silver_fixes: int = 4

    def __post_init__(self) -> None:
        problems = []
        if self.approach not in registry.APPROACHES:
            problems.append(f"approach must be one of {', '.join(registry.APPROACHES)}, not '{self.approach}'")
        for name in ("strategy_rounds", "code_rounds", "silver_fixes", "extraction_retries"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must be >= 0")
        if self.initial_programs < 1:
            problems.append("initial_programs must be >= 1")
        if self.max_concurrency < 1:
            problems.append("max_concurrency must be >= 1")
        if self.program_timeout_s <= 0:
            problems.append("program_timeout_s must be > 0")
        if self.split_seed not in PROMPT_TASKS_BY_SEED:
            problems.append(f"split_seed must be one of {sorted(PROMPT_TASKS_BY_SEED)}")
        if problems:
            raise ConfigError("; ".join(problems))

    @property
    def prompt_task_indices(self) -> tuple[int, int]:
        return PROMPT_TASKS_BY_SEED[self.split_seed]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PipelineConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown pipeline setting(s): {', '.join(unknown)}")
        return cls(**data)

    def with_changes(self, **changes: Any) -> "PipelineConfig":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def presets() -> dict[str, PipelineConfig]:
    """Every registered approach's presets as configurations, in registration order."""
    return {
        name: PipelineConfig(preset=name, approach=approach, **params)
        for name, (approach, params) in registry.preset_table().items()
    }


#: The built-in presets (a registered approach's presets are found by load_preset too).
PRESETS: dict[str, PipelineConfig] = presets()
ALIASES = {"-MC": "F3-6-MC", "-SD": "F3-6-SD", "-CR": "F3-6-CR", "MC": "F3-6-MC", "SD": "F3-6-SD", "CR": "F3-6-CR"}


def preset_names() -> list[str]:
    return list(registry.preset_table())


def load_preset(name: str) -> PipelineConfig:
    key = ALIASES.get(name, name)
    known = presets()
    for preset in known:
        if preset.lower() == key.lower():
            return known[preset]
    raise ConfigError(f"unknown preset '{name}' (known: {', '.join(known)})")


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
        return PipelineConfig.from_dict({**base.to_dict(), "preset": data.pop("name", f"{base.preset}*"), **data})
    except (ConfigError, TypeError) as exc:
        raise ConfigError(f"{p}: {exc}") from None
