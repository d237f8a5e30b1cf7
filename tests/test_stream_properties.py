"""Generated junk in an answer stream never escapes the model client as anything but a clean answer or a
ModelAccessError: junk data lines, bytes that are no UTF-8, chunks of the wrong shape."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.scripted_server import Reply, ScriptedServer

from genplan.engine.llm import ChatMessage, ChatRequest, ModelAccessError, ModelSettings, OpenAIProvider

CHUNK_SHAPES = st.sampled_from([
    {"choices": None}, {"choices": []}, {"choices": [{"index": 0, "delta": None}]},
    {"choices": [{"index": 0, "delta": {"content": None}}]}, {"choices": [{"index": 1, "delta": {"content": "x"}}]},
    {"choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": "stop"}]}, {"usage": None}, {},
])
JUNK_LINES = st.one_of(
    st.binary(max_size=60).map(lambda raw: b"data: " + raw.replace(b"\n", b" ") + b"\n\n"),
    st.text(max_size=40).map(lambda text: f"data: {text}\n\n".encode("utf-8", "surrogatepass")),
    CHUNK_SHAPES.map(lambda shape: f"data: {json.dumps({'id': 'x', 'object': 'chat.completion.chunk', **shape})}\n\n".encode()),
    st.sampled_from([b": a comment\n\n", b"event: error\ndata: {}\n\n", b"\n\n", b"data: [DONE]\n\n", b"retry: 5\n\n"]),
)


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as running:
        yield running


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example({0: b"data: 0\n\n"})  # JSON, but no object: once an AttributeError from the client
@example({1: b'data: ["x"]\n\n'})
@given(st.dictionaries(st.integers(min_value=0, max_value=4), JUNK_LINES, max_size=3))
def test_junk_in_a_stream_is_an_answer_or_a_model_access_error(server: ScriptedServer, junk: dict[int, bytes]) -> None:
    server.clear()
    server.enqueue(Reply(text="a short answer", raw_lines=junk))
    settings_ = ModelSettings(model=server.model, base_url=server.base_url, max_retries=0, timeout_s=5.0)
    request = ChatRequest("nl.domain", [ChatMessage("user", "describe the domain")])
    try:
        response = OpenAIProvider(settings_).complete(request)
    except ModelAccessError:
        return
    assert isinstance(response.text, str)
