"""Plain data passed between the pipeline and the model-access layer.

Everything here is a dataclass that round-trips through JSON (``to_dict`` / ``from_dict``),
because the run store writes requests and responses to files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from genplan.engine.errors import GenplanError

# The pipeline steps a request can belong to; sent as the ``X-Genplan-Step`` header.
STEP_HEADER = "X-Genplan-Step"
STEPS: tuple[str, ...] = (
    "nl.domain",
    "nl.task",
    "strategy.generate",
    "strategy.plan",
    "strategy.reflect",
    "strategy.revise",
    "code.generate",
    "code.reflect",
    "code.revise",
    "baseline.summary",
    "baseline.strategy",
    "baseline.code",
    "baseline.fix",
    "autotos.succ",
    "autotos.goal",
    "pddlego.pddl",  # PDDLego+: domain and problem file from the observations
    "pddlego.plangen",  # PlanGen: the next command, chosen by the model
)

ROLES = ("system", "user", "assistant")

# Sampling parameters a single request may override (on top of ModelSettings).
REQUEST_PARAMS = ("temperature", "max_tokens", "seed", "top_p", "extra_body")


class ModelAccessError(GenplanError):
    """A model request failed for good; ``str(err)`` is one line meant for the user.

    ``kind`` says why: "auth", "not-found", "bad-request", "missing-key", "no-model",
    "retries-exhausted", "invalid-response" (a person declining to answer is a stop, ``RunStopped``).
    """

    def __init__(self, message: str, *, kind: str, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status


@dataclass(frozen=True)
class ChatMessage:
    role: str
    content: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown chat role {self.role!r}; expected one of {', '.join(ROLES)}")
        # Text that cannot be encoded (lone surrogates, e.g. from what a program printed) is escaped here, once,
        # so that hashing, the request files, the cache and the HTTP body all see the same valid text.
        try:
            self.content.encode("utf-8")
        except UnicodeEncodeError:
            object.__setattr__(self, "content", self.content.encode("utf-8", "backslashreplace").decode("utf-8"))

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatMessage:
        return cls(role=data["role"], content=data["content"])


# A step of an approach registered beside the built-in ones (a plug-in's "guess.plan"): a family of its own, in a
# shape that is safe in a header and a file name. A built-in family's steps are checked by name (typos fail).
_STEP_SHAPE = re.compile(r"[a-z][a-z0-9_-]*\.[a-z][a-z0-9_.-]*")
_STEP_FAMILIES = frozenset(step.split(".", 1)[0] for step in STEPS)


def _known_step(step: str) -> bool:
    return step in STEPS or (_STEP_SHAPE.fullmatch(step) is not None and step.split(".", 1)[0] not in _STEP_FAMILIES)


@dataclass
class ChatRequest:
    """One chat completion the pipeline wants.

    ``step`` names the pipeline step (one of ``STEPS``); ``params`` overrides the sampling
    settings for this request only (keys from ``REQUEST_PARAMS``).
    """

    step: str
    messages: list[ChatMessage]
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _known_step(self.step):
            raise ValueError(f"unknown pipeline step {self.step!r}; expected one of {', '.join(STEPS)}, or an "
                             "approach's own <family>.<name> (lower-case letters, digits, '-', '_')")
        unknown = sorted(set(self.params) - set(REQUEST_PARAMS))
        if unknown:
            raise ValueError(
                f"unknown request parameter(s) {', '.join(unknown)}; allowed: {', '.join(REQUEST_PARAMS)}"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "messages": [m.to_dict() for m in self.messages],
            "params": dict(self.params),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatRequest:
        return cls(
            step=data["step"],
            messages=[ChatMessage.from_dict(m) for m in data["messages"]],
            params=dict(data.get("params") or {}),
        )


@dataclass(frozen=True)
class Usage:
    """Token counts of one call. ``output_tokens`` includes ``reasoning_tokens``
    (that is how OpenAI-compatible servers count, and how they bill)."""

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def to_dict(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "reasoning_tokens": self.reasoning_tokens,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Usage:
        return cls(
            input_tokens=int(data.get("input_tokens", 0)),
            output_tokens=int(data.get("output_tokens", 0)),
            reasoning_tokens=int(data.get("reasoning_tokens", 0)),
        )


@dataclass
class ChatResponse:
    """What came back for one ChatRequest.

    ``usage`` is None when the server reported no token counts (nothing is estimated);
    ``cost_usd`` is None when usage or the model's price is unknown, 0.0 for cache hits
    and human answers. ``truncated`` means the answer was cut off by the token limit.
    ``latency_s`` is wall time including retries; ``attempts`` counts HTTP attempts.
    """

    text: str
    model: str
    reasoning: str | None = None
    usage: Usage | None = None
    finish_reason: str | None = None
    truncated: bool = False
    cached: bool = False
    latency_s: float = 0.0
    cost_usd: float | None = None
    attempts: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "model": self.model,
            "reasoning": self.reasoning,
            "usage": self.usage.to_dict() if self.usage is not None else None,
            "finish_reason": self.finish_reason,
            "truncated": self.truncated,
            "cached": self.cached,
            "latency_s": self.latency_s,
            "cost_usd": self.cost_usd,
            "attempts": self.attempts,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatResponse:
        usage = data.get("usage")
        return cls(
            text=data["text"],
            model=data["model"],
            reasoning=data.get("reasoning"),
            usage=Usage.from_dict(usage) if usage is not None else None,
            finish_reason=data.get("finish_reason"),
            truncated=bool(data.get("truncated", False)),
            cached=bool(data.get("cached", False)),
            latency_s=float(data.get("latency_s", 0.0)),
            cost_usd=data.get("cost_usd"),
            attempts=int(data.get("attempts", 1)),
        )


@dataclass(frozen=True)
class RetryNotice:
    """Told to ``on_retry`` before waiting: attempt ``attempt`` failed for ``reason``.

    Text streamed so far through ``on_delta`` is void; the next attempt streams anew.
    """

    attempt: int
    delay_s: float
    reason: str


DeltaCallback = Callable[[str], None]
RetryCallback = Callable[[RetryNotice], None]


class Provider(Protocol):
    """Anything that answers chat requests: a model endpoint, the cache in front of one, a human.

    ``complete`` blocks until the answer is there and may be called from several threads at
    once. ``on_delta`` receives answer text as it arrives, ``on_reasoning`` reasoning text,
    ``on_retry`` a notice before a retry.
    """

    def complete(
        self,
        request: ChatRequest,
        on_delta: DeltaCallback | None = None,
        *,
        on_reasoning: DeltaCallback | None = None,
        on_retry: RetryCallback | None = None,
    ) -> ChatResponse: ...
