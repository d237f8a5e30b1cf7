"""The manual provider: a person answers each request (the default when no model is set).

The TUI plugs in a blocking callable that shows the prompt and waits for the answer typed
or pasted there; the headless CLI can use ``stdin_answerer``. Requests are put to the person
one at a time even when the pipeline asks several at once.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TextIO

from genplan.engine.errors import RunStopped
from genplan.engine.llm.types import ChatRequest, ChatResponse, DeltaCallback, RetryCallback

MANUAL_MODEL = "manual"
END_MARK = "."

Answerer = Callable[[ChatRequest], "str | None"]


class AnswerCancelled(RunStopped):
    """The person declined to answer: the run stops, as a stop in step mode does."""

    def __init__(self, message: str = "the request was cancelled by the person answering it") -> None:
        super().__init__(message)


class ManualProvider:
    """A Provider whose answers come from ``answer(request)``; returning None cancels."""

    def __init__(self, answer: Answerer, *, one_at_a_time: bool = True) -> None:
        """``one_at_a_time`` False: the answerer takes several questions at once (concurrent requests, one per
        task) and asks them in its own order (the TUI asks in the pipeline's); True: one waits for another."""
        self._answer = answer
        self._one_at_a_time: AbstractContextManager[object] = threading.Lock() if one_at_a_time else nullcontext()

    def complete(
        self,
        request: ChatRequest,
        on_delta: DeltaCallback | None = None,
        *,
        on_reasoning: DeltaCallback | None = None,
        on_retry: RetryCallback | None = None,
    ) -> ChatResponse:
        started = time.monotonic()
        with self._one_at_a_time:
            text = self._answer(request)
        if text is None:
            raise AnswerCancelled()
        if not isinstance(text, str):
            raise TypeError(f"a manual answer must be a string, got {type(text).__name__}")
        if text and on_delta is not None:
            on_delta(text)
        return ChatResponse(
            text=text,
            model=MANUAL_MODEL,
            usage=None,  # nobody counted tokens
            finish_reason="stop",
            latency_s=time.monotonic() - started,
            cost_usd=0.0,
        )


def format_prompt(request: ChatRequest) -> str:
    """The request as plain text for a person to read."""
    parts = [f"=== request for step {request.step} ==="]
    for message in request.messages:
        parts.append(f"--- {message.role} ---")
        parts.append(message.content)
    return "\n".join(parts)


def stdin_answerer(input_stream: TextIO | None = None, output_stream: TextIO | None = None) -> Answerer:
    """An answerer for terminals without the TUI: prints the prompt, reads the answer up to a
    line holding only ``.`` (or end of input). End of input with nothing typed cancels."""

    def answer(request: ChatRequest) -> str | None:
        source = input_stream if input_stream is not None else sys.stdin
        sink = output_stream if output_stream is not None else sys.stderr
        sink.write(format_prompt(request) + "\n")
        sink.write(f"=== type the answer; finish with a line holding only '{END_MARK}' ===\n")
        sink.flush()
        lines: list[str] = []
        for line in source:
            if line.rstrip("\r\n") == END_MARK:
                return "".join(lines).rstrip("\n")
            lines.append(line)
        return "".join(lines).rstrip("\n") if lines else None

    return answer
