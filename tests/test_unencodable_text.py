"""Text that cannot be encoded (lone surrogates, as a program may print them) never makes a request
unsendable, unhashable or unresumable: it is escaped once, where chat messages are made."""

from __future__ import annotations

import hashlib
import json

from support.scripted_server import Reply, ScriptedServer

from genplan.engine.llm import ChatMessage, ChatRequest, ModelSettings, OpenAIProvider, cache_key
from genplan.engine.runs.gateway import messages_hash

LONE = "the program printed \ud800 and \udfff then stopped"


def test_lone_surrogates_are_escaped_and_valid_text_is_untouched() -> None:
    message = ChatMessage("user", LONE)
    assert message.content == "the program printed \\ud800 and \\udfff then stopped"
    message.content.encode("utf-8")  # encodable now
    assert ChatMessage("user", "plain text, ümlauts and 🚢").content == "plain text, ümlauts and 🚢"
    assert ChatMessage.from_dict(message.to_dict()) == message


def test_hashes_accept_any_text_and_stay_the_same_for_valid_text() -> None:
    assert messages_hash([ChatMessage("user", LONE)], {}) == messages_hash([ChatMessage("user", LONE)], {})
    # the cache key hashes raw dictionaries: a surrogate there is hashed too, not an exception
    assert len(cache_key("m", None, [{"role": "user", "content": LONE}], {})) == 64
    # valid text hashes exactly as before the escaping existed, so caches and run directories stay valid
    messages = [{"role": "user", "content": "Fähre 🚢"}]
    material = {"model": "m", "base_url": None, "messages": messages, "params": {"temperature": 0}}
    before = hashlib.sha256(
        json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    assert cache_key("m", None, messages, {"temperature": 0}) == before


def test_a_request_with_a_lone_surrogate_reaches_the_endpoint(scripted_server: ScriptedServer) -> None:
    scripted_server.enqueue(Reply.answer("noted"))
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url, timeout_s=10.0)
    request = ChatRequest("nl.domain", [ChatMessage("user", LONE)])
    assert OpenAIProvider(settings).complete(request).text == "noted"
    sent = scripted_server.requests[0].body["messages"][0]["content"]
    assert sent == "the program printed \\ud800 and \\udfff then stopped"
