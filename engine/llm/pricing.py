"""Estimated cost of a call from a price table (USD per million tokens).

The default table lists a few well-known models at their published list prices when this
was written; prices change, so users override or extend it in the config file's
``[prices]`` table. A model name matches a table entry exactly or as ``<entry>-<suffix>``
(dated snapshots such as ``gpt-4o-2024-08-06``), the longest entry winning. Models not in
the table (typically local ones) get no estimate (None), never a guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from genplan.engine.llm.types import Usage


@dataclass(frozen=True)
class Price:
    """USD per million input (prompt) and output (completion, reasoning included) tokens."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, usage: Usage) -> float:
        return self.cost_of(usage.input_tokens, usage.output_tokens)

    def cost_of(self, input_tokens: float, output_tokens: float) -> float:
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1e6

    def to_dict(self) -> dict[str, float]:
        return {"input": self.input_per_mtok, "output": self.output_per_mtok}

    to_table = to_dict

    @classmethod
    def from_table(cls, entry: Any) -> Price:
        """From a config entry ``{input = ..., output = ...}``; ValueError on anything else."""
        if not isinstance(entry, Mapping):
            raise ValueError("must be a table with 'input' and 'output' (USD per million tokens)")
        unknown = sorted(set(entry) - {"input", "output"})
        if unknown:
            raise ValueError(f"unknown key(s) {', '.join(unknown)}; only 'input' and 'output' are known")
        values = []
        for key in ("input", "output"):
            value = entry.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"'{key}' must be a non-negative number (USD per million tokens)")
            values.append(float(value))
        return cls(values[0], values[1])


DEFAULT_PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "gpt-4-turbo": Price(10.00, 30.00),
    "gpt-4": Price(30.00, 60.00),
    "gpt-3.5-turbo": Price(0.50, 1.50),
    "o1": Price(15.00, 60.00),
    "o1-mini": Price(1.10, 4.40),
    "o3": Price(2.00, 8.00),
    "o3-mini": Price(1.10, 4.40),
    "o4-mini": Price(1.10, 4.40),
    "deepseek-chat": Price(0.28, 0.42),
    "deepseek-reasoner": Price(0.28, 0.42),
}


def price_for(model: str, overrides: Mapping[str, Price] | None = None) -> Price | None:
    """The price entry for ``model``: user overrides first, then the default table."""
    for table in (overrides or {}, DEFAULT_PRICES):
        if model in table:
            return table[model]
        matches = [name for name in table if model.startswith(name + "-")]
        if matches:
            return table[max(matches, key=len)]
    return None


def estimate_cost(model: str, usage: Usage | None, overrides: Mapping[str, Price] | None = None) -> float | None:
    """Estimated USD for one call, or None when the usage or the model's price is unknown."""
    if usage is None:
        return None
    price = price_for(model, overrides)
    return None if price is None else price.cost(usage)
