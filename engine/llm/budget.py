"""Caps on what a run or a batch may spend on a model: calls, tokens and US dollars.

A :class:`Budget` says the caps (any of them; none set: no cap). A :class:`BudgetMeter` holds one budget and what
was spent under it, and stands between the response cache and the model (:class:`BudgetedProvider`): a cached
answer never reaches it and costs nothing; every request that would go to the model is checked first. A request is
refused (:class:`BudgetReached`, the run's one stop exception with the reason ``"budget"``) once the spend is at a
cap. Requests in flight are reckoned at the size of the largest answer so far, so concurrent requests do not all
slip under a cap together: a cap is passed by at most about one request's worth. Reasoning tokens count as output
tokens, as servers report and bill them.

A batch's meter is the ``parent`` of each of its runs' meters: a request is checked against both, and its spend
is counted in both.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from genplan.engine.errors import GenplanError, RunStopped
from genplan.engine.llm.types import ChatRequest, ChatResponse, DeltaCallback, Provider, RetryCallback

BUDGET_REASON = "budget"  # RunStopped.reason of a run that stopped at its cap (run.json's stop_reason)
# the keys of a [budget] table (config file, experiment file) and the flags that set them
BUDGET_KEYS = {"max_cost": "--max-cost", "max_calls": "--max-calls", "max_total_tokens": "--max-total-tokens"}


class BudgetError(GenplanError, ValueError):
    """A cap that is no cap (negative, not a number), or one genplan cannot keep (a cost cap for a model of no
    known price); one line naming where it came from."""


@dataclass(frozen=True)
class Budget:
    """The caps: US dollars at the model's price, model calls (answers from the model, not from the cache or a
    person), tokens (input + output, reasoning included). None: no cap of that kind."""

    max_cost: float | None = None
    max_calls: int | None = None
    max_total_tokens: int | None = None

    @property
    def is_set(self) -> bool:
        return any(value is not None for value in (self.max_cost, self.max_calls, self.max_total_tokens))

    def over(self, other: Budget) -> Budget:
        """This budget's caps where set, ``other``'s elsewhere (flags over a file)."""
        return Budget(self.max_cost if self.max_cost is not None else other.max_cost,
                      self.max_calls if self.max_calls is not None else other.max_calls,
                      self.max_total_tokens if self.max_total_tokens is not None else other.max_total_tokens)

    def to_tuple(self) -> tuple[float | None, int | None, int | None]:
        return self.max_cost, self.max_calls, self.max_total_tokens

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in zip(BUDGET_KEYS, self.to_tuple(), strict=True) if value is not None}

    @classmethod
    def from_table(cls, table: Any, where: str) -> Budget:
        """From a ``[budget]`` table (``max_cost``, ``max_calls``, ``max_total_tokens``); BudgetError otherwise."""
        if not isinstance(table, Mapping):
            raise BudgetError(f"{where}: 'budget' must be a table ([budget])")
        unknown = sorted(set(table) - set(BUDGET_KEYS))
        if unknown:
            raise BudgetError(f"{where}: [budget] unknown key(s) {', '.join(unknown)}; known: {', '.join(BUDGET_KEYS)}")
        return budget_of_values({key: table.get(key) for key in BUDGET_KEYS}, lambda key: f"{where}: [budget] {key}")

    def describe(self) -> str:
        """The caps in words: "$5.00, 200 calls, 1,000,000 tokens" ("no cap" when none is set)."""
        parts = []
        if self.max_cost is not None:
            parts.append(f"${self.max_cost:.2f}")
        if self.max_calls is not None:
            parts.append(f"{self.max_calls} calls")
        if self.max_total_tokens is not None:
            parts.append(f"{self.max_total_tokens:,} tokens")
        return ", ".join(parts) or "no cap"


def budget_of_values(values: Mapping[str, Any], where: Callable[[str], str]) -> Budget:
    """A budget of ``max_cost``, ``max_calls`` and ``max_total_tokens`` (None: no cap), each value checked."""
    cost = checked("max_cost", values.get("max_cost"), where("max_cost"))
    calls = checked("max_calls", values.get("max_calls"), where("max_calls"))
    tokens = checked("max_total_tokens", values.get("max_total_tokens"), where("max_total_tokens"))
    return Budget(float(cost) if cost is not None else None, int(calls) if calls is not None else None,
                  int(tokens) if tokens is not None else None)


def checked(key: str, value: Any, where: str) -> float | int | None:
    """A cap's value, checked: a non-negative number (an integer for calls and tokens), or None."""
    if value is None:
        return None
    if key == "max_cost":
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise BudgetError(f"{where} must be a non-negative number of US dollars, got {value!r}")
        return float(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BudgetError(f"{where} must be a non-negative whole number, got {value!r}")
    return value


@dataclass
class Spend:
    """What was spent: model calls, tokens in and out (reasoning included in out), US dollars at the model's price
    (``unpriced``: calls whose cost is not known, counted as 0)."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    unpriced: int = 0

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out

    def add(self, response: ChatResponse) -> None:
        """One answer of the model (a cached one or a person's costs nothing and is not counted)."""
        if response.cached:
            return
        self.calls += 1
        if response.usage is not None:
            self.tokens_in += response.usage.input_tokens
            self.tokens_out += response.usage.output_tokens
        if response.cost_usd is None:
            self.unpriced += 1
        else:
            self.cost_usd += response.cost_usd

    def plus(self, other: Spend) -> Spend:
        return Spend(self.calls + other.calls, self.tokens_in + other.tokens_in, self.tokens_out + other.tokens_out,
                     self.cost_usd + other.cost_usd, self.unpriced + other.unpriced)

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "tokens_in": self.tokens_in, "tokens_out": self.tokens_out,
                "cost_usd": round(self.cost_usd, 6), "unpriced_calls": self.unpriced}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Spend:
        return cls(int(data.get("calls", 0)), int(data.get("tokens_in", 0)), int(data.get("tokens_out", 0)),
                   float(data.get("cost_usd", 0.0)), int(data.get("unpriced_calls", 0)))

    def describe(self, budget: Budget | None = None) -> str:
        """"$0.1234 of $5.00, 12 of 200 calls, 3,456 tokens": the spend, each beside its cap where there is one."""
        budget = budget or Budget()
        cost = f"${self.cost_usd:.4f}" + (f" of ${budget.max_cost:.2f}" if budget.max_cost is not None else "")
        if self.unpriced:
            cost += f" (+{self.unpriced} call(s) of no known price)"
        calls = f"{self.calls}" + (f" of {budget.max_calls}" if budget.max_calls is not None else "") + " calls"
        tokens = f"{self.tokens:,}" + (f" of {budget.max_total_tokens:,}" if budget.max_total_tokens is not None
                                       else "") + " tokens"
        return f"{cost}, {calls}, {tokens}"


class BudgetReached(RunStopped):
    """A request was not sent: the spend is at a cap. The run ends stopped with the reason ``"budget"`` and goes on
    with a higher cap (every answer it has is on disk and not asked again)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, reason=BUDGET_REASON)


@dataclass
class BudgetMeter:
    """One budget and what was spent under it (``spent``: from the start, earlier sessions included). Safe to use
    from several threads (a run's concurrent requests, a batch's runs)."""

    budget: Budget
    spent: Spend = field(default_factory=Spend)
    parent: BudgetMeter | None = None  # a batch's meter: checked and charged too
    scope: str = "run"  # what the budget is for, in the stop's message ("run", "batch")
    reached: str | None = None  # the message of the first refusal
    _in_flight: int = 0
    # the largest answer so far, in tokens and in dollars (None: no answer yet): a request in flight is reckoned so
    _largest_tokens: int | None = None
    _largest_cost: float | None = None
    _condition: threading.Condition = field(default_factory=threading.Condition)

    def at_cap(self) -> str | None:
        """Which cap the spend has reached, in words (None: below every cap)."""
        with self._condition:
            return self._at_cap()

    def _at_cap(self) -> str | None:
        budget, spent = self.budget, self.spent
        if budget.max_calls is not None and spent.calls >= budget.max_calls:
            return f"{spent.calls} of --max-calls {budget.max_calls} model calls made"
        if budget.max_total_tokens is not None and spent.tokens >= budget.max_total_tokens:
            return f"{spent.tokens:,} tokens spent, --max-total-tokens {budget.max_total_tokens:,}"
        if budget.max_cost is not None and spent.cost_usd >= budget.max_cost:
            return f"${spent.cost_usd:.4f} spent, --max-cost ${budget.max_cost:.2f}"
        return None

    def _room(self) -> bool:
        """Whether one more request may start beside those in flight without passing a cap by more than one."""
        budget, spent, flying = self.budget, self.spent, self._in_flight
        if budget.max_calls is not None and spent.calls + flying >= budget.max_calls:
            return False
        if not flying:
            return True
        sizes: tuple[tuple[float | None, float, float | None], ...] = (
            (budget.max_total_tokens, spent.tokens, self._largest_tokens),
            (budget.max_cost, spent.cost_usd, self._largest_cost))
        for cap, used, size in sizes:
            if cap is None:
                continue
            if size is None or used + flying * size >= cap:  # no answer yet to reckon by: one at a time
                return False
        return True

    def acquire(self, step: str = "") -> None:
        """Before a request goes to the model: wait while requests in flight may take the room, then take a place;
        BudgetReached when a cap is reached (here, or in the parent)."""
        with self._condition:
            while True:
                reason = self._at_cap()
                if reason is not None:
                    self.reached = self.reached or reason
                    where = f" before {step}" if step else ""
                    raise BudgetReached(f"the {self.scope}'s budget is spent{where}: {reason}")
                if self._room():
                    self._in_flight += 1
                    break
                self._condition.wait()
        if self.parent is not None:
            try:
                self.parent.acquire(step)
            except BudgetReached as exc:
                self.release(None)
                self.reached = self.reached or str(exc)
                raise

    def release(self, response: ChatResponse | None, *, parent: bool = True) -> None:
        """After the request: its answer's spend counted (None: it failed, nothing is counted)."""
        with self._condition:
            self._in_flight -= 1
            if response is not None:
                self.spent.add(response)
                size = Spend()
                size.add(response)
                self._largest_tokens = max(self._largest_tokens or 0, size.tokens)
                self._largest_cost = max(self._largest_cost or 0.0, size.cost_usd)
            self._condition.notify_all()
        if parent and self.parent is not None:
            self.parent.release(response)

    def snapshot(self) -> Spend:
        with self._condition:
            return Spend().plus(self.spent)

    def record(self) -> dict[str, Any]:
        """What run.json and batch.json keep: the caps, the spend, and the cap reached (if one was)."""
        return {"caps": self.budget.to_dict(), "spent": self.snapshot().to_dict(),
                **({"reached": self.reached} if self.reached else {})}


class BudgetedProvider:
    """The model behind a budget: every request is checked by the meter before it is sent and counted after. It sits
    under the response cache, so a cached answer is never checked or counted."""

    def __init__(self, inner: Provider, meter: BudgetMeter) -> None:
        self.inner = inner
        self.meter = meter
        self.settings = getattr(inner, "settings", None)

    def complete(self, request: ChatRequest, on_delta: DeltaCallback | None = None, *,
                 on_reasoning: DeltaCallback | None = None, on_retry: RetryCallback | None = None) -> ChatResponse:
        self.meter.acquire(request.step)
        response: ChatResponse | None = None
        try:
            response = self.inner.complete(request, on_delta, on_reasoning=on_reasoning, on_retry=on_retry)
            return response
        finally:
            self.meter.release(response)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
