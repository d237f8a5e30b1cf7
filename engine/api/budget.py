"""What a run or a batch may spend on a model, and what it spent: the caps a front end gives (``--max-cost``,
``--max-calls``, ``--max-total-tokens``, a ``[budget]`` table of the config file or the experiment file), checked
before anything starts, and a run's spend read from its answers on disk. The caps are kept by the model's provider
(engine/llm/budget.py): a request that would pass one is not sent, and the run stops with the reason "budget"."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from genplan.engine.llm.budget import (
    BUDGET_KEYS,
    BUDGET_REASON,
    Budget,
    BudgetError,
    BudgetMeter,
    BudgetReached,
    Spend,
    budget_of_values,
)
from genplan.engine.llm.pricing import Price, price_for
from genplan.engine.llm.settings import ModelSettings, default_config_path
from genplan.engine.report.forecast import EarlierRun, Figure, Forecast, Planned, Span, earlier_runs, forecast
from genplan.engine.runs.answers import spend_on_disk

__all__ = [
    "BUDGET_KEYS", "BUDGET_REASON", "Budget", "BudgetError", "BudgetMeter", "BudgetReached", "EarlierRun", "Figure",
    "Forecast", "Planned", "Price", "Span", "Spend", "budget_from_flags", "check_budget", "earlier_runs", "forecast",
    "forecast_runs", "load_budget", "price_of", "spend_of",
]


def spend_of(run_dir: Path) -> Spend:
    """What a run paid the model for (its own answers on disk: not cached ones, not a person's, not those a fork
    kept from its source)."""
    return spend_on_disk(Path(run_dir))


def price_of(settings: ModelSettings) -> Price | None:
    """The model's price (the config's [prices] over genplan's list), None when none is known."""
    return price_for(settings.model or "", settings.prices) if settings.model else None


def check_budget(budget: Budget | None, settings: ModelSettings) -> None:
    """BudgetError (one line) for a cost cap genplan cannot keep: the model has no known price."""
    if budget is not None and budget.max_cost is not None and settings.is_configured and price_of(settings) is None:
        raise BudgetError(f"--max-cost: no price known for model {settings.model}; set one in the config file "
                          f"([prices.\"{settings.model}\"] input = ..., output = ..., USD per million tokens) or cap "
                          "calls or tokens instead")


def budget_from_flags(max_cost: Any = None, max_calls: Any = None, max_total_tokens: Any = None) -> Budget:
    """The caps given as options (None: not given), checked as a [budget] table's are."""
    values = {"max_cost": max_cost, "max_calls": max_calls, "max_total_tokens": max_total_tokens}
    return budget_of_values(values, lambda key: BUDGET_KEYS[key])


def load_budget(config_file: str | Path | None = None, *, table: Mapping[str, Any] | None = None,
                table_where: str = "", flags: Budget | None = None, read_config: bool = True) -> Budget:
    """The caps in force: the config file's ``[budget]`` (``config_file``, else the default one where it exists),
    then ``table`` (an experiment file's ``[budget]``), then ``flags``; each set cap over the one before.
    BudgetError (one line) for a bad value."""
    budget = Budget()
    path = Path(config_file) if config_file is not None else default_config_path()
    if read_config and path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            data = {}  # the model settings' reader says what is wrong with the file
        if "budget" in data:
            budget = Budget.from_table(data["budget"], str(path))
    if table is not None:
        budget = Budget.from_table(table, table_where or "the experiment file").over(budget)
    return (flags or Budget()).over(budget)


def forecast_runs(planned: list[Planned], history: list[Path], prices: Mapping[str, Price] | None = None) -> Forecast:
    """The forecast of ``planned`` runs from genplan's finished runs found in ``history`` (run directories, folders
    of runs, batch directories, domain directories' own runs), else the paper's published figures
    (engine/report/forecast.py); ``prices``: the config's over genplan's list."""
    return forecast(planned, earlier_runs(history), prices)
