"""The response cache in front of the scripted server: hits, when caching applies, safety."""

from __future__ import annotations

import json
import threading

import pytest
from support.scripted_server import Reply, ScriptedServer

from genplan.engine.llm import (
    CachingProvider,
    ChatMessage,
    ChatRequest,
    ModelAccessError,
    ModelSettings,
    OpenAIProvider,
    ResponseCache,
    make_provider,
)


def settings_for(server: ScriptedServer, **changes) -> ModelSettings:
    return ModelSettings(model="gpt-4o", base_url=server.base_url, retry_base_delay_s=0.005).with_overrides(**changes)


def ask(text: str = "write the strategy", step: str = "strategy.generate", **params) -> ChatRequest:
    return ChatRequest(step, [ChatMessage("user", text)], params)


def cached_provider(server: ScriptedServer, tmp_path, **changes) -> CachingProvider:
    settings = settings_for(server, **changes)
    return CachingProvider(OpenAIProvider(settings), ResponseCache(tmp_path / "cache"))


def test_second_identical_deterministic_request_is_a_cache_hit(scripted_server, tmp_path):
    scripted_server.enqueue(Reply.answer("the strategy", reasoning="thinking",
                                         usage={"prompt_tokens": 100, "completion_tokens": 50}))
    provider = cached_provider(scripted_server, tmp_path)
    first = provider.complete(ask())
    deltas: list[str] = []
    second = provider.complete(ask(), on_delta=deltas.append)
    assert len(scripted_server.requests) == 1
    assert not first.cached and first.cost_usd is not None and first.cost_usd > 0
    assert second.cached and second.cost_usd == 0.0 and second.attempts == 0
    assert (second.text, second.reasoning, second.usage) == (first.text, first.reasoning, first.usage)
    assert deltas == ["the strategy"]  # a hit still shows its text
    assert (provider.stats.hits, provider.stats.misses, provider.stats.stores) == (1, 1, 1)


def test_cache_survives_a_new_provider_on_the_same_directory(scripted_server, tmp_path):
    scripted_server.enqueue("persisted")
    cached_provider(scripted_server, tmp_path).complete(ask())
    again = cached_provider(scripted_server, tmp_path).complete(ask())
    assert again.cached and again.text == "persisted"
    assert len(scripted_server.requests) == 1


def test_no_caching_at_positive_temperature_without_seed(scripted_server, tmp_path):
    scripted_server.enqueue("one", "two")
    provider = cached_provider(scripted_server, tmp_path, temperature=0.7)
    assert [provider.complete(ask()).text for _ in range(2)] == ["one", "two"]
    assert len(scripted_server.requests) == 2
    assert not list((tmp_path / "cache").rglob("*.json"))


def test_a_seed_makes_sampling_cacheable(scripted_server, tmp_path):
    scripted_server.enqueue("seeded")
    provider = cached_provider(scripted_server, tmp_path, temperature=0.7, seed=1)
    assert provider.complete(ask()).text == "seeded"
    assert provider.complete(ask()).cached
    assert len(scripted_server.requests) == 1


def test_request_overrides_decide_cacheability_and_the_key(scripted_server, tmp_path):
    scripted_server.enqueue("greedy", "warm", "warm again", "seeded 2")
    provider = cached_provider(scripted_server, tmp_path)
    assert provider.complete(ask()).text == "greedy"
    assert provider.complete(ask(temperature=0.5)).text == "warm"
    assert provider.complete(ask(temperature=0.5)).text == "warm again"
    assert provider.complete(ask(seed=2)).text == "seeded 2"  # a different key than the greedy one
    assert provider.complete(ask()).cached
    assert len(scripted_server.requests) == 4


def test_different_messages_or_models_do_not_share_entries(scripted_server, tmp_path):
    scripted_server.enqueue("a", "b", "c")
    provider = cached_provider(scripted_server, tmp_path)
    other_model = cached_provider(scripted_server, tmp_path, model="gpt-4o-mini")
    assert provider.complete(ask("task one")).text == "a"
    assert provider.complete(ask("task two")).text == "b"
    assert other_model.complete(ask("task one")).text == "c"
    assert len(scripted_server.requests) == 3


def test_no_cache_flag_and_cache_dir_of_make_provider(scripted_server, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    scripted_server.enqueue("x", "y", "z")
    settings = settings_for(scripted_server)
    uncached = make_provider(settings, cache_dir=tmp_path / "c", no_cache=True)
    assert isinstance(uncached, OpenAIProvider)
    assert [uncached.complete(ask()).text for _ in range(2)] == ["x", "y"]
    cached = make_provider(settings, cache_dir=tmp_path / "c")
    assert isinstance(cached, CachingProvider)
    assert [cached.complete(ask()).text for _ in range(2)] == ["z", "z"]
    assert len(scripted_server.requests) == 3
    assert list((tmp_path / "c").rglob("*.json"))


def test_cache_files_never_contain_the_api_key(tmp_path, monkeypatch):
    secret = "sk-test-very-secret-123"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    with ScriptedServer(api_key=secret) as server:
        server.enqueue("answer")
        provider = make_provider(settings_for(server), cache_dir=tmp_path / "cache")
        provider.complete(ask())
        assert provider.complete(ask()).cached
    files = list((tmp_path / "cache").rglob("*"))
    entries = [f for f in files if f.is_file()]
    assert len(entries) == 1
    text = entries[0].read_text()
    assert secret not in text
    entry = json.loads(text)
    assert entry["request"]["messages"] == [{"role": "user", "content": "write the strategy"}]


def test_errors_are_not_cached_and_broken_entries_are_redone(scripted_server, tmp_path):
    scripted_server.enqueue(Reply.error(400, "bad"), "good", "redone")
    provider = cached_provider(scripted_server, tmp_path)
    with pytest.raises(ModelAccessError):
        provider.complete(ask())
    assert provider.complete(ask()).text == "good"
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.write_text("{ not json")
    assert provider.complete(ask()).text == "redone"
    assert provider.complete(ask()).cached


def test_identical_concurrent_requests_ask_the_model_once(scripted_server, tmp_path):
    scripted_server.fixed_delay_s = 0.3
    scripted_server.respond_with(lambda request: "shared answer")
    provider = cached_provider(scripted_server, tmp_path)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(provider.complete(ask()))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(scripted_server.requests) == 1
    assert sorted(r.cached for r in results) == [False, True, True, True]
    assert {r.text for r in results} == {"shared answer"}
