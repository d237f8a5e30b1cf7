"""A request that is retried says so as it happens (live, never in the event log, so resumes stay exact)."""

from __future__ import annotations

import json
from pathlib import Path

from support.scripted_server import Reply, ScriptedServer

from genplan.cli.cmd_run import Progress
from genplan.engine.events import Event, EventBus, RequestRetry
from genplan.engine.llm import ChatMessage, ChatRequest, ModelSettings, OpenAIProvider
from genplan.engine.runs.gateway import ModelGateway
from genplan.engine.runs.store import RunStore


def test_retries_are_published_live_and_shown_by_the_cli(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(Reply.server_error(503), Reply.answer("the answer"))
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url,
                             retry_base_delay_s=0.01, retry_max_delay_s=0.05, timeout_s=10.0)
    store = RunStore.create(tmp_path, {"config": {}})
    bus = EventBus(store.append_event)
    seen: list[Event] = []
    bus.subscribe(seen.append)
    gateway = ModelGateway(OpenAIProvider(settings), store, bus, None)
    request = ChatRequest("nl.domain", [ChatMessage("user", "describe the ferry domain")])
    assert gateway.ask(gateway.next_id(), request).text == "the answer"

    retries = [e for e in seen if isinstance(e, RequestRetry)]
    assert len(retries) == 1 and retries[0].attempt == 1 and "503" in (retries[0].reason or "")
    line = Progress.describe(retries[0])
    assert line is not None and "nl.domain #1: attempt 1 failed" in line and "retrying in" in line
    logged = [json.loads(x)["type"] for x in (store.path / "events.jsonl").read_text().splitlines()]
    assert "request.retry" not in logged and "response.received" in logged
