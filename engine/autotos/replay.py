"""Replaying a published AutoToS log: its answers are given back in order as the model's answers, while
genplan's own checks decide what is asked next. The run diverges from the log when genplan asks for a
different function than the logged prompt did, or asks more often than the log answered."""

from __future__ import annotations

from genplan.engine.autotos.logfile import AutoToSLog
from genplan.engine.llm.replay import REPLAY_MODEL, RecordedAnswers, ReplayExhausted
from genplan.engine.llm.types import ChatRequest

__all__ = ["REPLAY_MODEL", "ReplayExhausted", "ReplayProvider"]


class ReplayProvider(RecordedAnswers):
    """The logged responses, in order; each call where genplan asks for another function than the log's
    prompt did is recorded in ``divergences``."""

    source = "log"

    def __init__(self, log: AutoToSLog) -> None:
        super().__init__([exchange.response for exchange in log.exchanges])
        self.log = log
        self.divergences: list[str] = []

    def answered(self, request: ChatRequest, index: int) -> None:
        wanted = request.step.rsplit(".", 1)[-1]
        logged = self.log.exchanges[index].target
        if wanted != logged:
            self.divergences.append(f"call {index + 1}: genplan asked for {wanted}, the log answered {logged}")
