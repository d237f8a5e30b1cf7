"""The scripted OpenAI-compatible server itself (the test double the whole project relies on)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

from support.scripted_server import Reply, ScriptedServer

from genplan.engine.llm import ChatMessage, ChatRequest, ModelSettings, OpenAIProvider


def post(server: ScriptedServer, body: dict, step: str | None = None) -> tuple[int, str]:
    headers = {"Content-Type": "application/json"}
    if step:
        headers["X-Genplan-Step"] = step
    request = urllib.request.Request(f"{server.base_url}/chat/completions", data=json.dumps(body).encode(),
                                     headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def chat(text: str = "hi", **extra) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": text}], **extra}


def test_step_queues_come_before_the_general_queue_then_responder_then_fallback(scripted_server):
    scripted_server.on_step("strategy.plan", ["plan A", Reply.answer("plan B")])
    scripted_server.enqueue("general")
    scripted_server.respond_with(lambda request: "responder" if request.step == "code.generate" else None)
    scripted_server.fallback = "fallback"
    assert scripted_server.pending() == 3
    texts = []
    for step in ["nl.domain", "strategy.plan", "code.generate", "strategy.plan", "strategy.plan", "nl.task"]:
        status, body = post(scripted_server, chat(), step)
        assert status == 200
        texts.append(json.loads(body)["choices"][0]["message"]["content"])
    assert texts == ["general", "plan A", "responder", "plan B", "fallback", "fallback"]
    assert [r.step for r in scripted_server.requests_for("strategy.plan")] == ["strategy.plan"] * 3
    assert scripted_server.pending() == 0


def test_an_exhausted_script_answers_400_naming_the_step(scripted_server):
    status, body = post(scripted_server, chat(), "code.reflect")
    assert status == 400
    assert "no reply left for step 'code.reflect'" in json.loads(body)["error"]["message"]


def test_stream_format_is_sse_with_usage_only_when_asked(scripted_server):
    scripted_server.enqueue(Reply.answer("abcdef", chunk_chars=3, reasoning="hm"), "plain")
    _, with_usage = post(scripted_server, chat(stream=True, stream_options={"include_usage": True}))
    events = [line[len("data: "):] for line in with_usage.split("\n\n") if line]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    contents = [c["choices"][0]["delta"].get("content") for c in chunks if c["choices"]]
    assert [piece for piece in contents if piece] == ["abc", "def"]
    assert chunks[-2]["choices"][0]["finish_reason"] == "stop"
    assert any(c["choices"] and c["choices"][0]["delta"].get("reasoning_content") == "hm" for c in chunks)
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] == 2
    _, without = post(scripted_server, chat(stream=True))
    assert '"usage"' not in without


def test_models_listing_and_recorded_bodies(scripted_server):
    with urllib.request.urlopen(f"{scripted_server.base_url}/models", timeout=5) as response:
        assert [m["id"] for m in json.loads(response.read())["data"]] == [scripted_server.model]
    scripted_server.enqueue("x")
    post(scripted_server, chat(text="recorded"), "baseline.summary")
    (recorded,) = scripted_server.requests
    assert recorded.messages == [{"role": "user", "content": "recorded"}] and recorded.model == "m"
    scripted_server.clear()
    assert scripted_server.requests == []


def test_fixed_delay_applies_to_every_request(scripted_server):
    scripted_server.fixed_delay_s = 0.2
    scripted_server.enqueue("slow")
    started = time.monotonic()
    assert post(scripted_server, chat())[0] == 200
    assert time.monotonic() - started >= 0.2


def test_stop_does_not_hang_on_kept_alive_client_connections():
    server = ScriptedServer().start()
    server.enqueue("kept alive")
    provider = OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url))
    assert provider.complete(ChatRequest("nl.domain", [ChatMessage("user", "hi")])).text == "kept alive"
    started = time.monotonic()
    server.stop()  # the provider still holds its pooled connection open
    assert time.monotonic() - started < 3
    provider.close()
