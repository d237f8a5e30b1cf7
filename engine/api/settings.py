"""The model settings a front end shows and saves: reading them (config file, environment, options), checking
a form's values the way the command line's are checked, writing them back (mode 0600)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path

from genplan.engine.llm import ModelAccessError
from genplan.engine.llm.keys import resolve_key
from genplan.engine.llm.manual import stdin_answerer
from genplan.engine.llm.settings import (
    NONE_WORD,
    SETTING_NAMES,
    ModelSettings,
    SettingsError,
    apply_text_values,
    default_config_path,
    load_settings,
    settings_to_toml,
    write_private_file,
)
from genplan.engine.llm.types import ChatRequest
from genplan.engine.prompts import PromptError, PromptLibrary

__all__ = [
    "ChatRequest", "ModelAccessError", "ModelSettings", "NONE_WORD", "PromptError", "PromptLibrary",
    "SETTING_NAMES", "SettingsError", "apply_text_values", "default_config_path", "load_settings", "resolve_key",
    "settings_to_toml", "settings_with", "stdin_answerer", "write_private_file",
]


def settings_with(current: ModelSettings, given: Mapping[str, str]) -> ModelSettings:
    """``current`` with the fields in ``given`` (text, as typed; ``NONE_WORD`` clears a nullable field), checked
    as the command line's options are (SettingsError, one line, naming the option). The API key is not carried
    over: the caller decides whether it stays."""
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "current.toml"
        base.write_text(settings_to_toml(current), encoding="utf-8")
        return load_settings(base, environ={}, cli=given)
