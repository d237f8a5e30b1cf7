"""Which API key a model's settings lead to, without the openai package: the settings a front end reads and
`genplan batch`'s check of its experiment need this, and importing openai costs a second or more on a small machine."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from genplan.engine.llm.settings import ModelSettings
from genplan.engine.llm.types import ModelAccessError

OPENAI_BASE_URL = "https://api.openai.com/v1"
PLACEHOLDER_KEY = "no-key-needed"


def is_local_url(url: str) -> bool:
    """Whether ``url`` points at this machine or a private network (servers that often need no key)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local or address.is_unspecified


def resolve_key(settings: ModelSettings, environ: dict[str, str] | None = None) -> str:
    """The API key for ``settings``; a placeholder for local servers; else a clear error."""
    key = settings.resolve_api_key(environ)
    if key:
        return key
    base_url = settings.base_url or OPENAI_BASE_URL
    if is_local_url(base_url):
        return PLACEHOLDER_KEY
    raise ModelAccessError(
        f"no API key: environment variable {settings.api_key_env} is not set (needed for {base_url}; "
        f"set it, or name another variable with api_key_env)",
        kind="missing-key",
    )
