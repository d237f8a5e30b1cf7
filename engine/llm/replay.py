"""A provider that gives back recorded answers, in order, one per request: how published runs (Silver et al.'s
conversations, AutoToS logs, PDDLego+ trials) are imported. genplan's own checks decide what is asked; the
recording only decides what is answered, so a replay that asks more often than the original run did ends
with :class:`ReplayExhausted`."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from genplan.engine.llm.types import ChatRequest, ChatResponse, DeltaCallback, ModelAccessError, RetryCallback

REPLAY_MODEL = "replay"
OUT_OF_ANSWERS = "out-of-answers"  # the error kind of a replay that asked for more than was recorded


class ReplayExhausted(ModelAccessError):
    """genplan asked for more answers than the recording holds."""

    def __init__(self, answers: int, source: str = "recording") -> None:
        super().__init__(f"the {source} holds {answers} answers and genplan asked for more", kind=OUT_OF_ANSWERS)


class RecordedAnswers:
    """A Provider answering with ``answers`` in order. ``source`` names the recording in the error message;
    subclasses may look at each request as it is answered (:meth:`answered`)."""

    source = "recording"

    def __init__(self, answers: Sequence[str], model: str = REPLAY_MODEL) -> None:
        self.answers = tuple(answers)
        self.model = model
        self.position = 0  # answers given so far
        self._lock = threading.Lock()

    @property
    def unused(self) -> int:
        return len(self.answers) - self.position

    def answered(self, request: ChatRequest, index: int) -> None:
        """Called (under the lock) when answer ``index`` is given to ``request``."""

    def complete(
        self,
        request: ChatRequest,
        on_delta: DeltaCallback | None = None,
        *,
        on_reasoning: DeltaCallback | None = None,
        on_retry: RetryCallback | None = None,
    ) -> ChatResponse:
        started = time.monotonic()
        with self._lock:
            if self.position >= len(self.answers):
                raise ReplayExhausted(len(self.answers), self.source)
            index = self.position
            self.position += 1
            self.answered(request, index)
        text = self.answers[index]
        if text and on_delta is not None:
            on_delta(text)
        return ChatResponse(text=text, model=self.model, usage=None, finish_reason="stop",
                            latency_s=time.monotonic() - started, cost_usd=0.0)
