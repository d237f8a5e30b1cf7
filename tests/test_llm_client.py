"""OpenAIProvider against the scripted OpenAI-compatible server (real openai client, real HTTP)."""

from __future__ import annotations

import threading
import time

import pytest
from support.scripted_server import Reply, ScriptedServer

from genplan.engine.llm import (
    STEP_HEADER,
    ChatMessage,
    ChatRequest,
    ModelAccessError,
    ModelSettings,
    OpenAIProvider,
    Price,
    RetryNotice,
)
from genplan.engine.llm.keys import PLACEHOLDER_KEY, is_local_url


def settings_for(server: ScriptedServer, **changes) -> ModelSettings:
    base = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005,
                         retry_max_delay_s=2.0, timeout_s=10.0)
    return base.with_overrides(**changes)


def ask(step: str = "nl.domain", text: str = "describe the domain", **params) -> ChatRequest:
    return ChatRequest(step, [ChatMessage("system", "you are a planner"), ChatMessage("user", text)], params)


# --- answers ---------------------------------------------------------------------------------

def test_streamed_deltas_arrive_in_order_and_join_to_the_text(scripted_server):
    answer = "The ferry carries one car at a time between locations."
    scripted_server.enqueue(Reply.answer(answer, chunk_chars=5))
    deltas: list[str] = []
    response = OpenAIProvider(settings_for(scripted_server)).complete(ask(), on_delta=deltas.append)
    assert response.text == answer
    assert "".join(deltas) == answer
    assert len(deltas) == -(-len(answer) // 5)  # one delta per 5-character chunk, none lost or merged
    assert response.finish_reason == "stop" and not response.truncated and not response.cached
    assert scripted_server.requests[0].stream
    assert scripted_server.requests[0].body["stream_options"] == {"include_usage": True}


def test_non_streaming_mode_returns_the_whole_answer_once(scripted_server):
    scripted_server.enqueue(Reply.answer("whole answer", reasoning="because"))
    deltas: list[str] = []
    thoughts: list[str] = []
    response = OpenAIProvider(settings_for(scripted_server, stream=False)).complete(
        ask(), on_delta=deltas.append, on_reasoning=thoughts.append)
    assert not scripted_server.requests[0].stream
    assert (response.text, response.reasoning) == ("whole answer", "because")
    assert deltas == ["whole answer"] and thoughts == ["because"]
    assert response.usage is not None and response.usage.output_tokens == 3


def test_usage_latency_and_cost_are_recorded(scripted_server):
    scripted_server.enqueue(Reply.answer("fine", usage={"prompt_tokens": 1000, "completion_tokens": 500}))
    settings = settings_for(scripted_server, model="gpt-4o-mini")
    response = OpenAIProvider(settings).complete(ask())
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (1000, 500)
    assert response.cost_usd == pytest.approx((1000 * 0.15 + 500 * 0.60) / 1e6)
    assert response.latency_s > 0 and response.attempts == 1
    assert response.model == "gpt-4o-mini"


def test_user_prices_override_and_unknown_models_get_no_cost(scripted_server):
    scripted_server.enqueue(Reply.answer("a", usage={"prompt_tokens": 2_000_000, "completion_tokens": 0}),
                            Reply.answer("b", usage={"prompt_tokens": 10, "completion_tokens": 10}))
    priced = settings_for(scripted_server, model="my-local-model", prices={"my-local-model": Price(0.5, 1.0)})
    assert OpenAIProvider(priced).complete(ask()).cost_usd == pytest.approx(1.0)
    assert OpenAIProvider(settings_for(scripted_server)).complete(ask()).cost_usd is None


def test_a_server_without_usage_reports_none_not_a_guess(scripted_server):
    scripted_server.enqueue(Reply.answer("no counts here", send_usage=False))
    response = OpenAIProvider(settings_for(scripted_server, model="gpt-4o")).complete(ask())
    assert response.text == "no counts here"
    assert response.usage is None and response.cost_usd is None


def test_reasoning_text_is_kept_apart_from_the_answer(scripted_server):
    scripted_server.enqueue(Reply.answer("final program", reasoning="first I consider the ferry",
                                         usage={"prompt_tokens": 3, "completion_tokens": 9, "reasoning_tokens": 6}),
                            Reply.answer("second", reasoning="other field", reasoning_field="reasoning"))
    provider = OpenAIProvider(settings_for(scripted_server, reasoning=True))
    thoughts: list[str] = []
    deltas: list[str] = []
    first = provider.complete(ask(), on_delta=deltas.append, on_reasoning=thoughts.append)
    assert first.text == "final program" and "".join(deltas) == "final program"
    assert first.reasoning == "first I consider the ferry" == "".join(thoughts)
    assert first.usage is not None and first.usage.reasoning_tokens == 6
    assert provider.complete(ask()).reasoning == "other field"


def test_a_cut_off_answer_is_reported_as_truncated(scripted_server):
    scripted_server.enqueue(Reply.truncated("def generate_solution(objects, init, go"))
    response = OpenAIProvider(settings_for(scripted_server, max_tokens=16)).complete(ask())
    assert response.truncated and response.finish_reason == "length"
    assert response.text == "def generate_solution(objects, init, go"
    assert len(scripted_server.requests) == 1  # a truncation is an answer, not a failure


def test_every_request_carries_its_step_header_even_retried_ones(scripted_server):
    scripted_server.enqueue("one", Reply.server_error(), "two", "three")
    provider = OpenAIProvider(settings_for(scripted_server))
    for step in ("nl.domain", "strategy.plan", "code.generate"):
        provider.complete(ask(step))
    assert scripted_server.steps() == ["nl.domain", "strategy.plan", "strategy.plan", "code.generate"]
    assert all(STEP_HEADER.lower() in r.headers for r in scripted_server.requests)


def test_sampling_settings_and_request_overrides_reach_the_server(scripted_server):
    scripted_server.enqueue("a", "b", "c")
    settings = settings_for(scripted_server, temperature=0.3, top_p=0.9, seed=7, max_tokens=100,
                            extra_body={"top_k": 20})
    provider = OpenAIProvider(settings)
    provider.complete(ask())
    provider.complete(ask(temperature=0.8, seed=8))
    OpenAIProvider(settings.with_overrides(temperature=None, max_tokens_field="max_completion_tokens")).complete(ask())
    first, second, third = (r.body for r in scripted_server.requests)
    assert (first["temperature"], first["top_p"], first["seed"], first["max_tokens"], first["top_k"]) == (
        0.3, 0.9, 7, 100, 20)
    assert first["messages"] == [{"role": "system", "content": "you are a planner"},
                                 {"role": "user", "content": "describe the domain"}]
    assert (second["temperature"], second["seed"]) == (0.8, 8)
    assert "temperature" not in third and "max_tokens" not in third and third["max_completion_tokens"] == 100


def test_official_openai_endpoint_uses_max_completion_tokens():
    provider = OpenAIProvider(ModelSettings(model="o3-mini", max_tokens=50), environ={"OPENAI_API_KEY": "sk-x"})
    try:
        arguments = provider._arguments(ask())
    finally:
        provider.close()
    assert arguments["max_completion_tokens"] == 50 and "max_tokens" not in arguments


def test_requests_from_several_threads_run_concurrently(scripted_server):
    scripted_server.fixed_delay_s = 0.5
    scripted_server.respond_with(lambda request: f"answer to {request.messages[-1]['content']}")
    provider = OpenAIProvider(settings_for(scripted_server))
    results: dict[int, str] = {}

    def work(index: int) -> None:
        results[index] = provider.complete(ask("nl.task", f"task {index}")).text

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {i: f"answer to task {i}" for i in range(4)}
    assert scripted_server.max_in_flight == 4


# --- retries ----------------------------------------------------------------------------------

def test_rate_limit_is_retried_honouring_retry_after(scripted_server):
    scripted_server.enqueue(Reply.rate_limited(retry_after=0.3), "after the wait")
    notices: list[RetryNotice] = []
    started = time.monotonic()
    response = OpenAIProvider(settings_for(scripted_server, retry_base_delay_s=0.001)).complete(
        ask(), on_retry=notices.append)
    assert time.monotonic() - started >= 0.3
    assert response.text == "after the wait" and response.attempts == 2
    assert len(notices) == 1 and notices[0].delay_s == pytest.approx(0.3)
    assert "429" in notices[0].reason
    assert len(scripted_server.requests) == 2


def test_retry_after_is_bounded_and_retry_after_ms_understood(scripted_server):
    scripted_server.enqueue(Reply.rate_limited(retry_after=3600), Reply.rate_limited(retry_after_ms=120), "done")
    notices: list[RetryNotice] = []
    response = OpenAIProvider(settings_for(scripted_server, retry_max_delay_s=0.05)).complete(
        ask(), on_retry=notices.append)
    assert response.text == "done"
    assert [n.delay_s for n in notices] == [pytest.approx(0.05), pytest.approx(0.05)]
    notices.clear()
    scripted_server.enqueue(Reply.rate_limited(retry_after_ms=120), "again")
    OpenAIProvider(settings_for(scripted_server)).complete(ask(), on_retry=notices.append)
    assert notices[0].delay_s == pytest.approx(0.12)


def test_server_errors_are_retried_with_growing_backoff(scripted_server):
    scripted_server.enqueue(Reply.server_error(500), Reply.server_error(503), Reply.server_error(502), "ok")
    notices: list[RetryNotice] = []
    settings = settings_for(scripted_server, retry_base_delay_s=0.01)
    provider = OpenAIProvider(settings, rng=lambda: 1.0)  # no jitter: exact backoff
    response = provider.complete(ask(), on_retry=notices.append)
    assert response.text == "ok" and response.attempts == 4
    assert [n.delay_s for n in notices] == [pytest.approx(0.01), pytest.approx(0.02), pytest.approx(0.04)]
    assert [n.attempt for n in notices] == [1, 2, 3]


def test_dropped_connections_are_retried(scripted_server):
    scripted_server.enqueue(Reply.dropped(0), Reply.dropped(after_chunks=3, text="abcdefghijklmnopqrstuvwxyz"),
                            "complete answer")
    events: list[str] = []
    response = OpenAIProvider(settings_for(scripted_server)).complete(
        ask(), on_delta=lambda d: events.append(f"delta:{d}"),
        on_retry=lambda n: events.append(f"retry:{n.attempt}"))
    assert response.text == "complete answer" and response.attempts == 3
    # the half-streamed attempt showed some text, then the retry notice voided it
    assert events[0] == "retry:1"
    assert events[1:4] == ["delta:abcdefgh", "delta:ijklmnop", "retry:2"]
    assert "".join(e[6:] for e in events[4:]) == "complete answer"


def test_a_stream_that_ends_without_a_finish_reason_is_retried(scripted_server):
    scripted_server.enqueue(Reply(text="half an ans", finish_reason=None), "whole answer")
    response = OpenAIProvider(settings_for(scripted_server)).complete(ask())
    assert response.text == "whole answer" and response.attempts == 2


def test_timeouts_are_retried(scripted_server):
    # the timeout leaves the prompt answer room for a stall of a loaded machine (at 0.3 s it could time out too)
    scripted_server.enqueue(Reply.slow("too late", delay_s=6.0), "in time")
    notices: list[RetryNotice] = []
    response = OpenAIProvider(settings_for(scripted_server, timeout_s=1.5)).complete(ask(), on_retry=notices.append)
    assert response.text == "in time"
    assert "timeout" in notices[0].reason


def test_exhausted_retries_give_one_clear_error(scripted_server):
    scripted_server.enqueue(*[Reply.server_error(500, "overloaded")] * 3)
    provider = OpenAIProvider(settings_for(scripted_server, max_retries=2))
    with pytest.raises(ModelAccessError) as caught:
        provider.complete(ask("strategy.plan"))
    assert caught.value.kind == "retries-exhausted"
    message = str(caught.value)
    assert "\n" not in message
    assert "3 attempt" in message and "strategy.plan" in message and "overloaded" in message
    assert len(scripted_server.requests) == 3


# --- fatal errors -----------------------------------------------------------------------------

def test_authentication_failure_stops_at_once_naming_the_key_variable():
    with ScriptedServer(api_key="sk-right") as server:
        settings = settings_for(server, api_key_env="MY_LLM_KEY")
        with pytest.raises(ModelAccessError) as caught:
            OpenAIProvider(settings, environ={"MY_LLM_KEY": "sk-wrong"}).complete(ask())
        assert caught.value.kind == "auth" and caught.value.status == 401
        assert "MY_LLM_KEY" in str(caught.value) and "HTTP 401" in str(caught.value)
        assert len(server.requests) == 1  # not retried
        server.enqueue("welcome")
        assert OpenAIProvider(settings, environ={"MY_LLM_KEY": "sk-right"}).complete(ask()).text == "welcome"
        assert server.requests[-1].headers["authorization"] == "Bearer sk-right"


def test_unknown_model_stops_at_once_with_a_clear_message():
    with ScriptedServer(known_models=["real-model"]) as server:
        with pytest.raises(ModelAccessError) as caught:
            OpenAIProvider(settings_for(server, model="no-such-model")).complete(ask())
        assert caught.value.kind == "not-found"
        assert "no-such-model" in str(caught.value) and "does not exist" in str(caught.value)
        assert len(server.requests) == 1


def test_bad_requests_and_quota_errors_are_not_retried(scripted_server):
    scripted_server.enqueue(Reply.error(400, "context length exceeded", code="context_length_exceeded"),
                            Reply.error(429, "You exceeded your current quota.", code="insufficient_quota"))
    provider = OpenAIProvider(settings_for(scripted_server))
    with pytest.raises(ModelAccessError) as first:
        provider.complete(ask())
    with pytest.raises(ModelAccessError) as second:
        provider.complete(ask())
    assert first.value.kind == "bad-request" and "context length exceeded" in str(first.value)
    assert second.value.kind == "quota"
    assert len(scripted_server.requests) == 2


def test_an_exception_from_a_callback_aborts_the_request(scripted_server):
    scripted_server.enqueue(Reply.answer("a long answer that the user cancels", chunk_chars=4))

    def cancel(delta: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        OpenAIProvider(settings_for(scripted_server)).complete(ask(), on_delta=cancel)
    assert len(scripted_server.requests) == 1


def test_missing_key_for_a_remote_endpoint_names_the_variable():
    settings = ModelSettings(model="deepseek-chat", base_url="https://api.deepseek.com", api_key_env="DEEPSEEK_API_KEY")
    with pytest.raises(ModelAccessError) as caught:
        OpenAIProvider(settings, environ={})
    assert caught.value.kind == "missing-key" and "DEEPSEEK_API_KEY" in str(caught.value)
    with pytest.raises(ModelAccessError):
        OpenAIProvider(ModelSettings(model="gpt-4o"), environ={})  # the official endpoint too


def test_local_servers_work_without_a_key(scripted_server):
    scripted_server.enqueue("local answer")
    response = OpenAIProvider(settings_for(scripted_server), environ={}).complete(ask())
    assert response.text == "local answer"
    assert scripted_server.requests[0].headers["authorization"] == f"Bearer {PLACEHOLDER_KEY}"
    assert is_local_url("http://localhost:11434/v1") and is_local_url("http://192.168.1.5:8000/v1")
    assert not is_local_url("https://api.openai.com/v1")


def test_list_models_checks_a_configuration(scripted_server):
    assert OpenAIProvider(settings_for(scripted_server)).list_models() == [scripted_server.model]


def test_a_provider_needs_a_model():
    with pytest.raises(ModelAccessError) as caught:
        OpenAIProvider(ModelSettings(base_url="http://127.0.0.1:9/v1"))
    assert caught.value.kind == "no-model"


# --- broken streams are retried, like any other transport failure ------------------------------

@pytest.mark.parametrize("kind", ["not-json", "not-utf8", "null-delta"])
def test_a_broken_stream_is_retried_to_the_same_answer(scripted_server, kind: str) -> None:
    scripted_server.enqueue(Reply.broken_stream(kind), Reply.answer("the whole answer"))
    notices: list[RetryNotice] = []
    response = OpenAIProvider(settings_for(scripted_server)).complete(ask(), on_retry=notices.append)
    if kind == "null-delta":  # a chunk without a delta carries nothing: skipped, no retry needed
        assert response.text == "an answer whose stream breaks" and response.attempts == 1
        return
    assert response.text == "the whole answer" and response.attempts == 2
    assert len(notices) == 1 and "the answer stream was broken" in notices[0].reason


def test_a_long_retry_after_is_capped_and_the_notice_says_so(scripted_server):
    scripted_server.enqueue(Reply.rate_limited(retry_after=3600), "done")
    notices: list[RetryNotice] = []
    OpenAIProvider(settings_for(scripted_server, retry_max_delay_s=0.05)).complete(ask(), on_retry=notices.append)
    assert "the server asked to wait 3600 s, genplan waits at most retry_max_delay_s = 0.05 s" in notices[0].reason


def test_an_unset_key_variable_is_named_as_unset_not_as_a_wrong_key():
    with ScriptedServer(api_key="sk-right") as server:
        # a local server is asked without a key when the variable is unset; it says 401
        settings = settings_for(server, api_key_env="GENPLAN_UNSET_KEY_VARIABLE")
        with pytest.raises(ModelAccessError) as caught:
            OpenAIProvider(settings, environ={}).complete(ask())
        message = str(caught.value)
        assert caught.value.kind == "auth" and len(server.requests) == 1
        assert "environment variable GENPLAN_UNSET_KEY_VARIABLE is not set" in message
        assert "check the key" not in message and "\n" not in message


# --- an answer that is no chat completion -------------------------------------------------------

WEB_PAGE = ("<!DOCTYPE html>\n<html><head><title>Open WebUI</title></head>\n<body><h1>Sign in</h1>"
            + "<p>" + "x" * 2000 + "</p></body></html>")


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])
def test_a_web_page_instead_of_an_answer_fails_at_once_naming_what_came_back(scripted_server, stream):
    scripted_server.respond_with(lambda request: Reply.web_page(WEB_PAGE))
    retries: list[RetryNotice] = []
    with pytest.raises(ModelAccessError) as caught:
        OpenAIProvider(settings_for(scripted_server, stream=stream, max_retries=6)).complete(
            ask(), on_retry=retries.append)
    message = str(caught.value)
    assert caught.value.kind == "invalid-response" and "\n" not in message
    assert "an HTML page titled 'Open WebUI'" in message and "not a chat completion" in message
    assert "base URL" in message and "stream ended" not in message
    assert len(scripted_server.requests) == 1 and retries == []  # not retried: it would bring the same page


def test_a_plain_text_body_instead_of_a_stream_is_named(scripted_server):
    scripted_server.respond_with(lambda request: Reply.web_page("Bad gateway", content_type="text/plain"))
    with pytest.raises(ModelAccessError) as caught:
        OpenAIProvider(settings_for(scripted_server, stream=False)).complete(ask())
    assert "a text/plain answer: 'Bad gateway'" in str(caught.value) and len(scripted_server.requests) == 1
