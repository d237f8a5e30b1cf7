"""Model settings and where they come from: config file < environment < command line.

The config file is TOML (default: ``platformdirs.user_config_dir("genplan")/config.toml``)::

    [llm]
    model = "deepseek-chat"
    base_url = "https://api.deepseek.com"
    api_key_env = "DEEPSEEK_API_KEY"
    temperature = 0.0
    seed = 1

    [llm.extra_body]
    top_k = 20

    [prices."deepseek-chat"]        # USD per million tokens
    input = 0.28
    output = 0.42

Other top-level tables belong to other parts of genplan and are left alone. The API key
itself is read from the environment variable named by ``api_key_env``; it is written to a
file only when explicitly asked (``save_settings(..., store_key=True)``), then into a
separate ``[secrets]`` table.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from genplan.engine.errors import GenplanError
from genplan.engine.llm.pricing import Price

APP_NAME = "genplan"
ENV_PREFIX = "GENPLAN_"
MAX_TOKENS_FIELDS = ("auto", "max_tokens", "max_completion_tokens")
# The word that stands for "not set / do not send" where TOML has no null.
NONE_WORD = "none"


class SettingsError(GenplanError, ValueError):
    """A bad setting; ``str(err)`` is one line naming where it came from."""


@dataclass
class ModelSettings:
    """How to reach a model and how to sample from it."""

    model: str | None = None
    base_url: str | None = None  # None: the official OpenAI endpoint
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float | None = 0.0  # None: not sent (some reasoning models refuse it)
    max_tokens: int | None = None
    # Which request field carries max_tokens; "auto" uses max_completion_tokens for
    # the official OpenAI endpoint (its reasoning models refuse max_tokens), max_tokens elsewhere.
    max_tokens_field: str = "auto"
    seed: int | None = None
    top_p: float | None = None
    extra_body: dict[str, Any] = field(default_factory=dict)
    reasoning: bool = False  # a reasoning model: prompts leave out "think step by step"
    stream: bool = True
    timeout_s: float = 600.0
    max_retries: int = 6
    retry_base_delay_s: float = 1.0
    retry_max_delay_s: float = 60.0
    prices: dict[str, Price] = field(default_factory=dict)  # overrides of the default price table
    # A key stored in the config file's [secrets] table; never printed, never saved unless asked.
    api_key: str | None = field(default=None, repr=False, compare=False)

    @property
    def is_configured(self) -> bool:
        """Whether a model is set (otherwise requests go to a human)."""
        return bool(self.model)

    def sampling_params(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """temperature, max_tokens, seed, top_p and extra_body, with per-request ``overrides``."""
        params: dict[str, Any] = {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "top_p": self.top_p,
            "extra_body": dict(self.extra_body),
        }
        params.update(overrides or {})
        return params

    def resolve_api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        env = os.environ if environ is None else environ
        return env.get(self.api_key_env) or self.api_key

    def to_dict(self) -> dict[str, Any]:
        """All settings except the key, as plain JSON-able values (for run records)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "api_key":
                continue
            value = getattr(self, f.name)
            if f.name == "prices":
                value = {name: price.to_dict() for name, price in value.items()}
            elif f.name == "extra_body":
                value = dict(value)
            out[f.name] = value
        return out

    def with_overrides(self, **changes: Any) -> ModelSettings:
        return replace(self, **changes)


# --- field kinds -----------------------------------------------------------------------------

# name -> (kind, may be None). Kinds: "str", "float", "int", "bool", "table".
_FIELD_KINDS: dict[str, tuple[str, bool]] = {
    "model": ("str", True),
    "base_url": ("str", True),
    "api_key_env": ("str", False),
    "temperature": ("float", True),
    "max_tokens": ("int", True),
    "max_tokens_field": ("str", False),
    "seed": ("int", True),
    "top_p": ("float", True),
    "extra_body": ("table", False),
    "reasoning": ("bool", False),
    "stream": ("bool", False),
    "timeout_s": ("float", False),
    "max_retries": ("int", False),
    "retry_base_delay_s": ("float", False),
    "retry_max_delay_s": ("float", False),
}
SETTING_NAMES: tuple[str, ...] = tuple(_FIELD_KINDS)

_KIND_WORDS = {"str": "a string", "float": "a number", "int": "an integer", "bool": "true or false",
               "table": "a table"}


class _Bad(Exception):
    """Internal: a value problem, without saying where the value came from."""


def _convert(name: str, value: Any, *, from_text: bool) -> Any:
    """Check/convert one value; ``from_text`` values come from env vars or the command line."""
    kind, nullable = _FIELD_KINDS[name]
    if nullable and (value is None or (isinstance(value, str) and value.strip().lower() == NONE_WORD)):
        return None
    want = _KIND_WORDS[kind] + (f" or \"{NONE_WORD}\"" if nullable else "")
    try:
        if kind == "str":
            if not isinstance(value, str):
                raise _Bad
            if not value.strip():
                raise _Bad
            return value.strip()
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if from_text and isinstance(value, str):
                word = value.strip().lower()
                if word in ("1", "true", "yes", "on"):
                    return True
                if word in ("0", "false", "no", "off"):
                    return False
            raise _Bad
        if kind == "int":
            if isinstance(value, bool):
                raise _Bad
            if isinstance(value, int):
                return value
            if from_text and isinstance(value, str):
                return int(value.strip())
            raise _Bad
        if kind == "float":
            if isinstance(value, bool):
                raise _Bad
            if isinstance(value, (int, float)):
                number = float(value)
            elif from_text and isinstance(value, str):
                number = float(value.strip())
            else:
                raise _Bad
            if not math.isfinite(number):
                raise _Bad
            return number
        if kind == "table":
            if isinstance(value, Mapping):
                return dict(value)
            if from_text and isinstance(value, str):
                parsed = json.loads(value)
                if isinstance(parsed, dict):
                    return parsed
            raise _Bad
    except (_Bad, ValueError):
        shown = value if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        suffix = " (a JSON object)" if kind == "table" and from_text else ""
        raise _Bad(f"must be {want}{suffix}, got {shown!r}") from None
    raise AssertionError(kind)


def _check_ranges(settings: ModelSettings) -> list[tuple[str, str]]:
    """(setting name, problem) pairs for values of the right type but out of range."""
    problems: list[tuple[str, str]] = []
    if settings.temperature is not None and not 0.0 <= settings.temperature <= 2.0:
        problems.append(("temperature", f"must be between 0 and 2, got {settings.temperature}"))
    if settings.top_p is not None and not 0.0 < settings.top_p <= 1.0:
        problems.append(("top_p", f"must be in (0, 1], got {settings.top_p}"))
    if settings.max_tokens is not None and settings.max_tokens <= 0:
        problems.append(("max_tokens", f"must be positive, got {settings.max_tokens}"))
    if settings.max_tokens_field not in MAX_TOKENS_FIELDS:
        problems.append(("max_tokens_field", f"must be one of {', '.join(MAX_TOKENS_FIELDS)}, "
                                             f"got {settings.max_tokens_field!r}"))
    if settings.timeout_s <= 0:
        problems.append(("timeout_s", f"must be positive, got {settings.timeout_s}"))
    if settings.max_retries < 0:
        problems.append(("max_retries", f"must be 0 or more, got {settings.max_retries}"))
    if settings.retry_base_delay_s < 0 or settings.retry_max_delay_s < 0:
        problems.append(("retry_base_delay_s", "retry delays must not be negative"))
    if settings.base_url is not None and not settings.base_url.startswith(("http://", "https://")):
        problems.append(("base_url", f"must start with http:// or https://, got {settings.base_url!r}"))
    return problems


# --- sources ---------------------------------------------------------------------------------

def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "responses"


def env_var_name(setting: str) -> str:
    return ENV_PREFIX + setting.upper()


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"{path}: not valid TOML: {err}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not a text file (TOML must be UTF-8)") from None
    except OSError as err:
        raise SettingsError(f"{path}: cannot read: {err.strerror or err}") from None


def _apply_file(settings: ModelSettings, path: Path) -> ModelSettings:
    data = _read_toml(path)
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key in _FIELD_KINDS:
            raise SettingsError(f"{path}: setting '{key}' must be inside the [llm] table")
        if key in ("llm", "prices", "secrets") and not isinstance(value, dict):
            raise SettingsError(f"{path}: '{key}' must be a table ([{key}])")

    for key, value in data.get("llm", {}).items():
        if key not in _FIELD_KINDS:
            raise SettingsError(f"{path}: unknown setting '{key}' in [llm]; "
                                f"known: {', '.join(SETTING_NAMES)}")
        try:
            changes[key] = _convert(key, value, from_text=False)
        except _Bad as err:
            raise SettingsError(f"{path}: [llm] {key} {err}") from None

    prices: dict[str, Price] = {}
    for model, entry in data.get("prices", {}).items():
        try:
            prices[model] = Price.from_table(entry)
        except ValueError as err:
            raise SettingsError(f"{path}: [prices.\"{model}\"] {err}") from None
    if prices:
        changes["prices"] = {**settings.prices, **prices}

    secrets = data.get("secrets", {})
    for key, value in secrets.items():
        if key != "api_key":
            raise SettingsError(f"{path}: unknown key '{key}' in [secrets]; only api_key is known")
        if not isinstance(value, str) or not value:
            raise SettingsError(f"{path}: [secrets] api_key must be a non-empty string")
        changes["api_key"] = value

    return _finish(replace(settings, **changes), where=f"{path}: [llm]")


def apply_text_values(settings: ModelSettings, values: Mapping[str, Any], *, where: Callable[[str], str]) -> ModelSettings:
    """``settings`` with the named values changed. Values may be text (as environment variables and
    command lines give them) or already typed; each is converted and range-checked, and errors name the
    place through ``where(name)``. Raises SettingsError."""
    changes: dict[str, Any] = {}
    for name, value in values.items():
        if name not in _FIELD_KINDS:
            raise SettingsError(f"{where(name)}: unknown setting; known: {', '.join(SETTING_NAMES)}")
        try:
            changes[name] = _convert(name, value, from_text=True)
        except _Bad as err:
            raise SettingsError(f"{where(name)} {err}") from None
    updated = replace(settings, **changes)
    for name, problem in _check_ranges(updated):
        if name in changes:
            raise SettingsError(f"{where(name)} {problem}")
    return updated


def _finish(settings: ModelSettings, *, where: str) -> ModelSettings:
    problems = _check_ranges(settings)
    if problems:
        name, problem = problems[0]
        raise SettingsError(f"{where} {name} {problem}")
    return settings


def load_settings(
    config_file: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cli: Mapping[str, Any] | None = None,
) -> ModelSettings:
    """Settings from the config file, then ``GENPLAN_*`` environment variables, then ``cli``.

    ``config_file`` None means the default path, which may be absent; an explicit path must
    exist. ``cli`` maps setting names to values (typed, or text as argparse gives them);
    entries whose value is None are ignored (flags not given). Raises SettingsError.
    """
    settings = ModelSettings()
    if config_file is None:
        path = default_config_path()
        if path.is_file():
            settings = _apply_file(settings, path)
    else:
        path = Path(config_file)
        if not path.is_file():
            raise SettingsError(f"{path}: config file does not exist")
        settings = _apply_file(settings, path)

    env = os.environ if environ is None else environ
    from_env = {name: env[env_var_name(name)] for name in SETTING_NAMES if env.get(env_var_name(name))}
    settings = apply_text_values(
        settings, from_env, where=lambda name: f"environment variable {env_var_name(name)}:"
    )

    given = {name: value for name, value in (cli or {}).items() if value is not None}
    settings = apply_text_values(
        settings, given, where=lambda name: f"command line option --{name.replace('_', '-')}:"
    )
    return settings


# --- saving ----------------------------------------------------------------------------------

def settings_to_toml(settings: ModelSettings, *, store_key: bool = False,
                     keep: Mapping[str, Any] | None = None) -> str:
    """The TOML text for ``settings``; other top-level tables from ``keep`` are carried over."""
    document: dict[str, Any] = {
        key: value for key, value in (keep or {}).items() if key not in ("llm", "prices", "secrets")
    }
    llm: dict[str, Any] = {}
    for name in SETTING_NAMES:
        value = getattr(settings, name)
        if name == "extra_body":
            if value:
                llm[name] = dict(value)
            continue
        if value is None:
            if _FIELD_KINDS[name][0] != "str":
                llm[name] = NONE_WORD  # an explicit "do not send", distinct from the default
            continue
        llm[name] = value
    document["llm"] = llm
    if settings.prices:
        document["prices"] = {name: price.to_table() for name, price in settings.prices.items()}
    if store_key:
        key = settings.resolve_api_key()
        if not key:
            raise SettingsError(
                f"no API key to store: environment variable {settings.api_key_env} is not set"
            )
        document["secrets"] = {"api_key": key}
    return tomli_w.dumps(document)


def save_settings(path: str | os.PathLike[str], settings: ModelSettings, *, store_key: bool = False) -> Path:
    """Write ``settings`` to the TOML file ``path`` (mode 0600, written atomically).

    The API key is written only with ``store_key=True`` (into ``[secrets]``); saving without it
    drops a key stored there before. Other top-level tables already in the file are kept.
    """
    target = Path(path)
    # A broken existing file raises SettingsError rather than being overwritten with its other tables lost.
    existing = _read_toml(target) if target.is_file() else {}
    return write_private_file(target, settings_to_toml(settings, store_key=store_key, keep=existing))


def write_private_file(target: Path, text: str) -> Path:
    """Replace `target` atomically with `text`, readable by its owner only (mode 0600) from the start."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file readable by its owner only (0600), before anything is written.
    descriptor, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    temp = Path(temp_name)
    try:
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return target
