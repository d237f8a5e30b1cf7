"""Model access for genplan: chat completions from OpenAI-compatible endpoints, a response
cache, cost estimates, and a manual provider where a person answers.

Typical use::

    settings = load_settings(config_file, cli={"model": "gpt-4o", "temperature": None})
    provider = make_provider(settings, no_cache=args.no_cache, manual_answer=tui_answer)
    response = provider.complete(ChatRequest("nl.domain", [ChatMessage("user", prompt)]), on_delta=show)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.llm.budget import Budget, BudgetedProvider, BudgetMeter, BudgetReached, Spend
from genplan.engine.llm.cache import CachingProvider, ResponseCache, cache_key, is_deterministic
from genplan.engine.llm.keys import is_local_url
from genplan.engine.llm.manual import AnswerCancelled, Answerer, ManualProvider, format_prompt, stdin_answerer
from genplan.engine.llm.pricing import DEFAULT_PRICES, Price, estimate_cost, price_for
from genplan.engine.llm.settings import (
    ModelSettings,
    SettingsError,
    default_cache_dir,
    default_config_path,
    env_var_name,
    load_settings,
    save_settings,
)
from genplan.engine.llm.types import (
    STEP_HEADER,
    STEPS,
    ChatMessage,
    ChatRequest,
    ChatResponse,
    ModelAccessError,
    Provider,
    RetryNotice,
    Usage,
)

if TYPE_CHECKING:
    from genplan.engine.llm.client import OpenAIProvider

# The model client imports the openai package (a second or more on a small machine): it loads on first use, not
# with the types, the settings or the cache, which the run files and a front end's first screen need.
_CLIENT_NAMES = ("OpenAIProvider",)


def __getattr__(name: str) -> Any:
    if name in _CLIENT_NAMES:
        from genplan.engine.llm import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AnswerCancelled", "Answerer", "Budget", "BudgetMeter", "BudgetReached", "BudgetedProvider", "CachingProvider",
    "ChatMessage", "ChatRequest", "ChatResponse",
    "DEFAULT_PRICES", "ManualProvider", "ModelAccessError", "ModelSettings", "OpenAIProvider", "Price",
    "Provider", "ResponseCache", "RetryNotice", "STEPS", "STEP_HEADER", "SettingsError", "Spend", "Usage",
    "cache_key", "default_cache_dir", "default_config_path", "env_var_name", "estimate_cost",
    "format_prompt", "is_deterministic", "is_local_url", "load_settings", "make_provider", "price_for",
    "save_settings", "stdin_answerer",
]


def make_provider(
    settings: ModelSettings,
    cache_dir: str | os.PathLike[str] | None = None,
    no_cache: bool = False,
    manual_answer: Answerer | None = None,
    manual_one_at_a_time: bool = True,
    meter: BudgetMeter | None = None,
) -> Provider:
    """The provider for ``settings``: the configured model behind the response cache, or — when
    no model is configured — a person answering through ``manual_answer``.

    ``cache_dir`` defaults to the platform cache directory; ``no_cache`` turns caching off.
    ``meter``: every request that reaches the model (not a cached answer, not a person's) is checked against its
    budget first (BudgetReached at a cap) and counted after.
    Raises ModelAccessError (one line) when neither a model nor an answerer is available, or
    when the API key is missing for a remote endpoint.
    """
    if not settings.is_configured:
        if manual_answer is None:
            raise ModelAccessError(
                "no model configured and nobody to answer by hand: set a model "
                "([llm] model in the config file, GENPLAN_MODEL or --model)",
                kind="no-model",
            )
        return ManualProvider(manual_answer, one_at_a_time=manual_one_at_a_time)
    from genplan.engine.llm.client import OpenAIProvider

    provider: Provider = OpenAIProvider(settings)
    if meter is not None:  # under the cache: a cached answer is never checked against the budget
        provider = BudgetedProvider(provider, meter)
    if not no_cache:
        directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        provider = CachingProvider(provider, ResponseCache(directory), settings)
    return provider
