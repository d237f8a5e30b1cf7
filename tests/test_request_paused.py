"""A request is "paused" only while a person holds it: a controller that only watches (the TUI in watch mode) lets
it go out, and the row says it is on its way, not paused."""

from __future__ import annotations

from pathlib import Path

from support.scripted_server import ScriptedServer

from genplan.engine.api import Decision
from genplan.engine.events import Event, EventBus, RequestPaused
from genplan.engine.llm import ChatMessage, ChatRequest, ModelSettings, OpenAIProvider
from genplan.engine.runs.gateway import ModelGateway
from genplan.engine.runs.store import RunStore
from genplan.tui.run_state import PAUSED, RUNNING, RunState


class Watching:
    def __init__(self, stepping: bool) -> None:
        self.stepping = stepping

    def wants_to_pause(self) -> bool:
        return self.stepping

    def before_request(self, request_id: int, request: ChatRequest) -> Decision:
        return Decision.send()


def paused_events(server: ScriptedServer, tmp_path: Path, controller: object) -> list[RequestPaused]:
    server.enqueue("the answer")
    store = RunStore.create(tmp_path, {"config": {}})
    bus = EventBus(store.append_event)
    seen: list[Event] = []
    bus.subscribe(seen.append)
    gateway = ModelGateway(OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url)), store, bus,
                           controller)  # type: ignore[arg-type]
    assert gateway.ask(gateway.next_id(), ChatRequest("nl.domain", [ChatMessage("user", "describe")])).text
    return [e for e in seen if isinstance(e, RequestPaused)]


def test_a_watching_controller_announces_the_request_as_not_held(scripted_server: ScriptedServer,
                                                                 tmp_path: Path) -> None:
    (watched,) = paused_events(scripted_server, tmp_path / "watch", Watching(stepping=False))
    assert watched.held is False
    (stepped,) = paused_events(scripted_server, tmp_path / "step", Watching(stepping=True))
    assert stepped.held is True


def test_the_timeline_row_of_a_watched_request_is_running_and_a_held_one_paused() -> None:
    state = RunState()
    state.apply(RequestPaused(request_id=3, step="nl.task", task="task-00", held=False))
    state.apply(RequestPaused(request_id=5, step="nl.task", task="task-01"))
    assert state.entry("req:3").status == RUNNING
    assert state.entry("req:5").status == PAUSED
    # a person's decision shows at once, before the request's own (deferred) events arrive
    state.decided("5", "answered")
    assert state.entry("req:5").status == "answered"
