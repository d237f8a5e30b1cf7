"""Replaying a published AutoToS log: its answers are given back in order as the model's answers, while
genplan's own checks decide what is asked next. The run diverges from the log when genplan asks for a
different function than the logged prompt did, or asks more often than the log answered."""

from __future__ import annotations

import threading
import time

from ..llm.types import (
    ChatRequest,
    ChatResponse,
    DeltaCallback,
    ModelAccessError,
    RetryCallback,
)
from .logfile import AutoToSLog

REPLAY_MODEL = "replay"


class ReplayExhausted(ModelAccessError):
    """genplan asked for more answers than the log holds."""

    def __init__(self, calls: int) -> None:
        super().__init__(f"the log holds {calls} answers and genplan asked for more", kind="replay-exhausted")


class ReplayProvider:
    """A Provider whose answers are the logged responses, in order (one at a time)."""

    def __init__(self, log: AutoToSLog) -> None:
        self.log = log
        self.position = 0
        self.divergences: list[str] = []  # where genplan asked for another function than the log did
        self._lock = threading.Lock()

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
            if self.position >= len(self.log.exchanges):
                raise ReplayExhausted(len(self.log.exchanges))
            exchange = self.log.exchanges[self.position]
            self.position += 1
            wanted = request.step.rsplit(".", 1)[-1]
            if wanted != exchange.target:
                self.divergences.append(f"call {self.position}: genplan asked for {wanted}, the log answered {exchange.target}")
        if exchange.response and on_delta is not None:
            on_delta(exchange.response)
        return ChatResponse(text=exchange.response, model=REPLAY_MODEL, usage=None, finish_reason="stop",
                            latency_s=time.monotonic() - started, cost_usd=0.0)
