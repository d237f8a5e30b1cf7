"""The TUI's settings: the model settings of the engine plus the pipeline preset and limits.

Everything lives in genplan's one config file (TOML, in the platformdirs config directory, mode 600):
``[llm]`` as the engine reads it and ``[pipeline]`` with ``preset`` and optional overrides, the same
shape ``genplan run --config`` files use. The API key is written only when the user asks.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

PIPELINE_TABLE = "pipeline"
LIMIT_FIELDS = ("strategy_rounds", "code_rounds", "initial_programs", "program_timeout_s")
# the reference-faithful toggles (docs/reproduction.md): "all", "all,-extraction", ... ; "" is genplan's own
FAITHFUL_FIELD = "faithful"


def limits_apply(preset: str) -> bool:
    """Whether the pipeline's limits and faithful toggles are settings of ``preset`` (not of AutoToS's or a
    trial's: their approach has its own parameters)."""
    from genplan.engine.api.presets import has_pipeline_settings

    return has_pipeline_settings(preset)


def preset_choices() -> list[str]:
    """What the settings offer: the pipeline's presets, then those of the other approaches the TUI can start."""
    from genplan.engine.api.presets import domain_presets

    return domain_presets()


def check_preset(preset: str) -> str:
    """The preset's own spelling; ConfigError (one line) when no approach has it or it cannot run on a domain."""
    from genplan.engine.api.presets import check_domain_preset

    return check_domain_preset(preset)


@dataclass
class RunPrefs:
    preset: str = "F5-3"
    overrides: dict[str, Any] = field(default_factory=dict)  # LIMIT_FIELDS (and faithful) set by the user
    keymap: dict[str, str] = field(default_factory=dict)  # [keymap]: binding id -> keys (actions.py)
    budget: Any = None  # the caps in force: [budget], then the command line's (engine/api/budget.Budget)

    @property
    def limits_apply(self) -> bool:
        """Whether the pipeline's limits are settings of the preset (not of AutoToS's or a trial's)."""
        return limits_apply(self.preset)

    def to_config(self) -> Any:
        """The pipeline's configuration; for a preset without pipeline settings the default preset's (its limits
        shown, greyed)."""
        from genplan.engine.api.presets import load_preset

        preset = self.preset if self.limits_apply else RunPrefs.preset
        return load_preset(preset).with_changes(**self.overrides)

    def parameters(self) -> dict[str, Any]:
        """What the person set of the preset's parameters (the limits and faithful toggles, where they apply)."""
        return dict(self.overrides) if self.limits_apply else {}

    def to_table(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.overrides}


def config_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit is not None:
        return Path(explicit)
    from genplan.engine.api.settings import default_config_path

    return default_config_path()


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def prefs_from_table(table: dict[str, Any], where: str) -> RunPrefs:
    from genplan.engine.api.presets import ConfigError

    prefs = RunPrefs()
    if not isinstance(table, dict):
        raise ValueError(f"{where}: [{PIPELINE_TABLE}] must be a table")
    preset = table.get("preset", prefs.preset)
    try:
        prefs.preset = check_preset(str(preset))
    except ConfigError as exc:
        raise ValueError(f"{where}: [{PIPELINE_TABLE}] {exc}") from None
    for key, value in table.items():
        if key == "preset":
            continue
        if key not in LIMIT_FIELDS and key != FAITHFUL_FIELD:
            raise ValueError(f"{where}: [{PIPELINE_TABLE}] unknown setting '{key}' (known: preset, "
                             f"{', '.join(LIMIT_FIELDS)}, {FAITHFUL_FIELD})")
        prefs.overrides[key] = value
    try:
        prefs.to_config()
    except (ConfigError, TypeError) as exc:
        raise ValueError(f"{where}: [{PIPELINE_TABLE}] {exc}") from None
    return prefs


def load_tui_settings(
    explicit_path: str | os.PathLike[str] | None = None, cli: dict[str, Any] | None = None
) -> tuple[Any, RunPrefs, str | None]:
    """(ModelSettings, RunPrefs, error). A broken file gives defaults and the one-line error."""
    from genplan.engine.api.settings import ModelSettings, SettingsError, load_settings

    path = config_path(explicit_path)
    error: str | None = None
    try:
        settings = load_settings(explicit_path, cli=cli)
    except SettingsError as exc:
        settings, error = ModelSettings(), str(exc)
    prefs = RunPrefs()
    try:
        data = _read(path)
        prefs = prefs_from_table(data.get(PIPELINE_TABLE, {}), str(path))
        if "keymap" in data:
            from genplan.tui.actions import check_keymap

            prefs.keymap, keymap_error = check_keymap(data["keymap"], str(path))
            error = error or keymap_error
    except (OSError, tomllib.TOMLDecodeError) as exc:
        error = error or f"{path}: cannot read ({exc})"
    except ValueError as exc:
        error = error or str(exc)
    return settings, prefs, error


def save_tui_settings(path: Path, settings: Any, prefs: RunPrefs, *, store_key: bool = False) -> Path:
    """Write [llm] (and [prices], [secrets] if asked) and [pipeline]; other tables are kept. Mode 0600."""
    from genplan.engine.api.settings import settings_to_toml, write_private_file

    existing = _read(path)
    existing[PIPELINE_TABLE] = prefs.to_table()
    return write_private_file(path, settings_to_toml(settings, store_key=store_key, keep=existing))


def model_fields() -> tuple[str, ...]:
    from genplan.engine.api.settings import ModelSettings

    return tuple(f.name for f in fields(ModelSettings))
