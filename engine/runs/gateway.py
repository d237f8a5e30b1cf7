"""Every model request of a run goes through here: files, events, step-mode decisions, resume, totals.

Request ids are handed out by the pipeline in a deterministic order, so a resumed run asks the same
request under the same id; if the run directory already holds a response for that id whose request had
the same messages, the stored response is used and nothing is sent again.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from genplan.engine.errors import RunStopped
from genplan.engine.events import (
    EventBus,
    PromptEdited,
    Publish,
    RequestPaused,
    RequestRetry,
    RequestSent,
    ResponseReceived,
    TextDelta,
)
from genplan.engine.llm import ChatMessage, ChatRequest, ChatResponse, Provider, RetryNotice
from genplan.engine.llm.manual import MANUAL_MODEL
from genplan.engine.runs import layout
from genplan.engine.runs.answers import response_record
from genplan.engine.runs.store import RunStore


class DecisionAction(StrEnum):
    SEND = "send"  # as the approach wrote it
    EDIT = "edit"  # with the person's messages instead
    ANSWER = "answer"  # not sent: the person's text is the answer
    STOP = "stop"  # not sent: the run stops (RunStopped)


@dataclass(frozen=True)
class Decision:
    """What a controller decides about a request before it is sent."""

    action: DecisionAction
    messages: list[ChatMessage] | None = None
    answer: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", DecisionAction(self.action))  # "answer" is the member ANSWER

    @classmethod
    def send(cls) -> Decision:
        return cls(DecisionAction.SEND)

    @classmethod
    def edit(cls, messages: list[ChatMessage]) -> Decision:
        return cls(DecisionAction.EDIT, messages=messages)

    @classmethod
    def answer_with(cls, text: str) -> Decision:
        return cls(DecisionAction.ANSWER, answer=text)

    @classmethod
    def stop(cls) -> Decision:
        return cls(DecisionAction.STOP)


class Controller(Protocol):
    """Step mode: called (blocking, in a pipeline thread) before every request that is not yet answered.

    A controller may also define ``wants_to_pause() -> bool``: while it returns False (a person watching
    rather than stepping), independent requests still go out concurrently; without it, the pipeline
    assumes every request may pause and sends one at a time.
    """

    def before_request(self, request_id: int, request: ChatRequest) -> Decision: ...


@dataclass
class Totals:
    calls: int = 0
    cache_hits: int = 0
    resumed: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    model_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def messages_hash(messages: list[ChatMessage], params: dict[str, Any]) -> str:
    canonical = json.dumps(
        {"messages": [m.to_dict() for m in messages], "params": params}, sort_keys=True, ensure_ascii=False
    )
    # surrogatepass: a lone surrogate must not make a run unresumable; other text hashes as before
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class ModelGateway:
    provider: Provider
    store: RunStore
    bus: EventBus
    controller: Controller | None = None
    totals: Totals = field(default_factory=Totals)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _next_id: int = 0

    def next_id(self) -> int:
        """Called from the pipeline's coordinating thread only, so ids follow the pipeline's order."""
        with self._lock:
            self._next_id += 1
            return self._next_id

    def announce(self, request_id: int, request: ChatRequest, publish: Publish, **context: Any) -> None:
        publish(RequestSent(
            request_id=request_id,
            step=request.step,
            file=layout.request_file(request_id, request.step),
            messages=len(request.messages),
            **context,
        ))

    def ask(
        self,
        request_id: int,
        request: ChatRequest,
        publish: Publish | None = None,
        context: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """Send (or replay) one request. `publish` replaces the bus for the logged events of this request
        (concurrent requests hand in a DeferredPublisher so the log keeps a deterministic order)."""
        publish = publish or self.bus.publish
        context = context or {}  # what the request is about (task, version, candidate), for watchers
        original_hash = messages_hash(request.messages, request.params)
        stored = self._stored_response(request_id, request.step, original_hash)
        if stored is not None:
            self.announce(request_id, request, publish, **context)
            with self._lock:
                self.totals.resumed += 1
            # an answer kept from before (a resumed run, or a fork): not sent again; a person's answer stays one
            self._publish_response(request_id, request, stored, human=self._stored_human(request_id, request.step), publish=publish,
                                   resumed=True)
            return stored
        if self.controller is not None:
            wants_to_pause = getattr(self.controller, "wants_to_pause", None)  # optional (see Controller)
            held = wants_to_pause() if wants_to_pause is not None else True
            publish(RequestPaused(request_id=request_id, step=request.step, held=held, **context))  # which task
            decision = self.controller.before_request(request_id, request)
            if decision.action is DecisionAction.STOP:
                raise RunStopped(f"stopped before request {request_id} ({request.step})")
            if decision.action is DecisionAction.EDIT and decision.messages is not None:
                edited = ChatRequest(request.step, list(decision.messages), dict(request.params))
                changed = [place for place, (old, new) in enumerate(
                    zip(request.messages, edited.messages, strict=False), start=1) if old != new]
                changed += list(range(len(request.messages) + 1, len(edited.messages) + 1))  # messages added
                if changed or len(edited.messages) != len(request.messages):  # on the record: the file holds the
                    publish(PromptEdited(request_id=request_id, step=request.step, messages=changed))  # edit only
                request = edited
            if decision.action is DecisionAction.ANSWER:
                answer = _human_answer(decision.answer or "")
                return self._record(request_id, request, answer, original_hash, True, publish)
        self.store.write_json(layout.request_file(request_id, request.step), self._request_record(request_id, request))
        self.announce(request_id, request, publish, **context)

        def delta(text: str) -> None:
            self.bus.publish(TextDelta(request_id=request_id, step=request.step, text=text))

        def retry(notice: RetryNotice) -> None:
            self.bus.publish(RequestRetry(request_id=request_id, step=request.step, attempt=notice.attempt,
                             delay_s=round(notice.delay_s, 3), reason=notice.reason))

        response = self.provider.complete(request, on_delta=delta, on_retry=retry)
        # the manual provider (no model configured): a person typed this answer, as in step mode's "answer"
        human = response.model == MANUAL_MODEL
        return self._record(request_id, request, response, original_hash, human, publish)

    # ------------------------------------------------------------------ internals
    def _request_record(self, request_id: int, request: ChatRequest) -> dict[str, Any]:
        return {
            "id": request_id,
            "step": request.step,
            "hash": messages_hash(request.messages, request.params),
            "params": request.params,
            "messages": [m.to_dict() for m in request.messages],
        }

    def _stored_human(self, request_id: int, step: str) -> bool:
        record = response_record(self.store.path, request_id, step)
        return bool(record.get("human")) if record is not None else False

    def _stored_response(self, request_id: int, step: str, original_hash: str) -> ChatResponse | None:
        record = response_record(self.store.path, request_id, step)
        # the pipeline's own request must match; what was actually sent may have been edited by a person
        if record is None or record.get("original_hash") != original_hash:
            return None
        return ChatResponse.from_dict(record["response"])

    def _record(
        self,
        request_id: int,
        request: ChatRequest,
        response: ChatResponse,
        original_hash: str,
        human: bool,
        publish: Publish,
    ) -> ChatResponse:
        if human:
            self.store.write_json(layout.request_file(request_id, request.step), self._request_record(request_id, request))
        record = {
            "id": request_id,
            "step": request.step,
            "request_hash": messages_hash(request.messages, request.params),
            "original_hash": original_hash,
            "human": human,
            "response": response.to_dict(),
        }
        self.store.write_text(layout.response_file(request_id, request.step, ".md"), response.text)
        self.store.write_json(layout.response_file(request_id, request.step), record)
        usage = response.usage
        with self._lock:
            t = self.totals
            t.calls += 0 if response.cached or human else 1
            t.cache_hits += 1 if response.cached else 0
            if usage is not None and not response.cached:
                t.tokens_in += usage.input_tokens
                t.tokens_out += usage.output_tokens
                t.reasoning_tokens += usage.reasoning_tokens or 0
            t.cost_usd += response.cost_usd or 0.0
            t.model_seconds += response.latency_s
        self._publish_response(request_id, request, response, human, publish)
        return response

    def _publish_response(
        self, request_id: int, request: ChatRequest, response: ChatResponse, human: bool, publish: Publish,
        resumed: bool = False,
    ) -> None:
        usage = response.usage
        publish(ResponseReceived(
            request_id=request_id,
            step=request.step,
            file=layout.response_file(request_id, request.step, ".md"),
            cached=response.cached,
            human=human,
            truncated=response.truncated,
            latency_s=round(response.latency_s, 3),
            tokens_in=usage.input_tokens if usage else None,
            tokens_out=usage.output_tokens if usage else None,
            cost_usd=response.cost_usd,
            resumed=resumed or None,
        ))


def _human_answer(text: str) -> ChatResponse:
    return ChatResponse(text=text, model="human", cost_usd=0.0)
