"""What leaves the sandbox is cleaned before anyone stores or sends it: secrets redacted, text made encodable.

The kernel layers keep API keys out of the child's reach (scrubbed environment, no config or home directory
visible, no other process's /proc). This is the second line: anything a program prints, raises or returns
is scanned for the configured keys, which are replaced by ``[redacted]`` before the outcome reaches the
run files, the reports or a model. Text is also made safe to encode: lone surrogates and other code points
UTF-8 cannot carry are escaped (``\\udc80``), so no consumer crashes on what a program produced.

Parent side only (never imported by the fork server).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8  # shorter values would redact ordinary words
_SECRET_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)

_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Add a key to redact from every later outcome (e.g. an API key given on the command line)."""
    if value and len(value) >= MIN_SECRET_LENGTH:
        with _lock:
            _registered.add(value)


def registered_secrets() -> list[str]:
    with _lock:
        return list(_registered)


def config_file_secrets(path: Path | None = None) -> list[str]:
    """The ``[secrets] api_key`` of genplan's config file (default location unless ``path``), if any."""
    if path is None:
        try:
            import platformdirs

            path = Path(platformdirs.user_config_dir("genplan")) / "config.toml"
        except ImportError:  # pragma: no cover - platformdirs is a dependency
            return []
    try:
        import tomllib

        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, ValueError):
        return []
    secrets = data.get("secrets")
    key = secrets.get("api_key") if isinstance(secrets, dict) else None
    return [key] if isinstance(key, str) else []


def known_secrets(environ: Mapping[str, str] | None = None, config_path: Path | None = None) -> list[str]:
    """Registered keys, values of environment variables whose names say they are secret, the config file's
    key; longest first (so a key containing another is replaced whole)."""
    env = os.environ if environ is None else environ
    found = set(_registered)
    found.update(value for name, value in env.items() if _SECRET_NAME.search(name))
    found.update(config_file_secrets(config_path))
    return sorted((s for s in found if len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def encodable(text: str) -> str:
    """``text`` with lone surrogates (and anything else UTF-8 cannot encode) backslash-escaped."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def clean(text: str, secrets: Iterable[str]) -> str:
    """Encodable text with every secret replaced."""
    text = encodable(text)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text
