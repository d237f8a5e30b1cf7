"""On-disk cache of model answers, for deterministic settings only.

An answer is cached when decoding is greedy (temperature 0) or a seed is set: then asking
again is expected to give the same answer, and a cache hit saves time and money. Entries are
keyed by the SHA-256 of canonical JSON of (model, base URL, messages, sampling parameters);
the API key is never part of an entry. Each entry is one JSON file, written atomically
(temporary file + ``os.replace``), so concurrent threads and processes never see half a file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from genplan.engine.llm.settings import ModelSettings
from genplan.engine.llm.types import ChatRequest, ChatResponse, DeltaCallback, Provider, RetryCallback

CACHE_FORMAT = 1

log = logging.getLogger(__name__)


def is_deterministic(params: Mapping[str, Any]) -> bool:
    """Greedy decoding or a fixed seed (``params`` as from ModelSettings.sampling_params)."""
    return params.get("temperature") == 0 or params.get("seed") is not None


def cache_key(model: str, base_url: str | None, messages: list[dict[str, Any]],
              params: Mapping[str, Any]) -> str:
    material = {"model": model, "base_url": base_url, "messages": messages, "params": dict(params)}
    canonical = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: a lone surrogate (from text a program printed) must not make a request unhashable;
    # any other text hashes exactly as before, so existing caches stay valid
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    stores: int = 0


class ResponseCache:
    """A directory of cached answers: ``<dir>/<key[:2]>/<key>.json``."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def path_for(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> ChatResponse | None:
        """The cached answer, or None (also for an unreadable entry, which is then just redone)."""
        try:
            data = json.loads(self.path_for(key).read_text(encoding="utf-8"))
            if data.get("format") != CACHE_FORMAT or data.get("key") != key:
                return None
            return ChatResponse.from_dict(data["response"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, response: ChatResponse, request: Mapping[str, Any]) -> Path:
        """Store ``response``; ``request`` (model, messages, parameters) is kept for people reading it."""
        path = self.path_for(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"format": CACHE_FORMAT, "key": key, "request": dict(request), "response": response.to_dict()}
        descriptor, temp_name = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, ensure_ascii=False, indent=1)
            os.replace(temp_name, path)
        except BaseException:
            Path(temp_name).unlink(missing_ok=True)
            raise
        return path


class CachingProvider:
    """A Provider answering deterministic requests from a ResponseCache before asking ``inner``.

    Cache hits come back with ``cached=True`` and ``cost_usd=0.0`` (``usage`` is the original
    call's); their text is handed to ``on_delta`` in one piece. Identical requests running at
    the same time wait for each other, so the model is asked once.
    """

    def __init__(self, inner: Provider, cache: ResponseCache, settings: ModelSettings | None = None) -> None:
        self.inner = inner
        self.cache = cache
        found = settings if settings is not None else getattr(inner, "settings", None)
        if found is None:
            raise ValueError("CachingProvider needs the model settings (pass settings=...)")
        self.settings: ModelSettings = found
        self.stats = CacheStats()
        self.write_failed = False  # set once the cache could not be written: later answers are not stored
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def key_for(self, request: ChatRequest) -> str | None:
        """The cache key of ``request``, or None when its settings are not deterministic."""
        params = self.settings.sampling_params(request.params)
        if not is_deterministic(params):
            return None
        messages = [message.to_dict() for message in request.messages]
        return cache_key(self.settings.model or "", self.settings.base_url, messages, params)

    def complete(
        self,
        request: ChatRequest,
        on_delta: DeltaCallback | None = None,
        *,
        on_reasoning: DeltaCallback | None = None,
        on_retry: RetryCallback | None = None,
    ) -> ChatResponse:
        key = self.key_for(request)
        if key is None:
            return self.inner.complete(request, on_delta, on_reasoning=on_reasoning, on_retry=on_retry)
        with self._lock_for(key):
            started = time.monotonic()
            hit = self.cache.get(key)
            if hit is not None:
                with self._locks_guard:
                    self.stats.hits += 1
                if hit.reasoning and on_reasoning is not None:
                    on_reasoning(hit.reasoning)
                if hit.text and on_delta is not None:
                    on_delta(hit.text)
                return replace(hit, cached=True, cost_usd=0.0, latency_s=time.monotonic() - started, attempts=0)
            with self._locks_guard:
                self.stats.misses += 1
            response = self.inner.complete(request, on_delta, on_reasoning=on_reasoning, on_retry=on_retry)
            described = {
                "step": request.step,
                "model": self.settings.model,
                "base_url": self.settings.base_url,
                "messages": [message.to_dict() for message in request.messages],
                "params": self.settings.sampling_params(request.params),
            }
            if not self.write_failed:
                try:
                    self.cache.put(key, replace(response, cached=False), described)
                except OSError as exc:  # a full disk, a read-only or vanished cache: the cache is optional
                    self.write_failed = True
                    log.warning("the response cache %s cannot be written (%s); going on without storing answers",
                                self.cache.directory, exc.strerror or exc)
                else:
                    with self._locks_guard:
                        self.stats.stores += 1
            return response

    def _lock_for(self, key: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())
