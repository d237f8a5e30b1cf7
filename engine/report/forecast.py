"""What runs will cost before they start: model calls, input and output tokens and US dollars per domain and
preset, and in total.

Each planned run is forecast from the best source there is, which the forecast names:

1. genplan's own earlier runs of the same preset on the same domain with the same model (finished ones; forks and
   imports left out): the range from the cheapest to the dearest of them, every answer counted (a cached one too:
   a new run may not find it in the cache);
2. else the paper's published calls and tokens per run for the preset and model (Table 9 of Stein et al., shipped
   in ``stein2026.toml``: averages over the domains, input and output together), the same for every domain; for a
   model the paper did not run, the range over the paper's models. The paper does not split input from output,
   so the cost is a range from every token at the input price to every token at the output price;
3. else nothing: the run is counted as not forecast, never guessed.

The cost is the model's price (the config's ``[prices]`` over genplan's list) times the tokens; with no price known
the cost is "no price known", never a guess. A total is the sum of its parts (lows and highs summed apart).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from genplan.engine.llm.budget import Spend
from genplan.engine.llm.pricing import Price, price_for
from genplan.engine.report.paper import PaperNumbers, load_paper_numbers
from genplan.engine.runs import layout, read_meta_or_none
from genplan.engine.runs.answers import spend_on_disk
from genplan.engine.runs.status import RunStatus

OWN, PUBLISHED, NONE = "genplan", "published", "none"


@dataclass(frozen=True)
class Span:
    """A range from ``low`` to ``high`` (equal: one figure)."""

    low: float
    high: float

    def __add__(self, other: Span) -> Span:
        return Span(self.low + other.low, self.high + other.high)

    def times(self, factor: float) -> Span:
        return Span(self.low * factor, self.high * factor)

    @classmethod
    def of(cls, values: Iterable[float]) -> Span:
        listed = list(values)
        return cls(min(listed), max(listed))

    def to_dict(self) -> dict[str, float]:
        return {"low": round(self.low, 6), "high": round(self.high, 6)}

    def text(self, money: bool = False) -> str:
        def one(value: float) -> str:
            return f"${value:,.2f}" if money else f"{value:,.0f}"

        return one(self.low) if round(self.low, 6) == round(self.high, 6) else f"{one(self.low)}-{one(self.high)}"


@dataclass(frozen=True)
class Planned:
    """One run to forecast: its domain (a directory's name), preset and model; ``done``: it finished before (it will
    not be asked again and costs nothing more)."""

    domain: str
    preset: str
    model: str
    done: bool = False


@dataclass(frozen=True)
class Figure:
    """The forecast of one or more runs of one domain, preset and model (``runs``: how many)."""

    domain: str
    preset: str
    model: str
    runs: int
    source: str  # OWN, PUBLISHED or NONE
    basis: str  # which runs or which table, in words
    calls: Span | None = None
    tokens_in: Span | None = None
    tokens_out: Span | None = None
    tokens: Span | None = None
    cost: Span | None = None  # None: no price known (or nothing to forecast)
    done: int = 0  # of the runs, those that finished before (not counted)

    def to_dict(self) -> dict[str, Any]:
        def span(value: Span | None) -> dict[str, float] | None:
            return value.to_dict() if value is not None else None

        return {"domain": self.domain, "preset": self.preset, "model": self.model, "runs": self.runs,
                "done": self.done, "source": self.source, "basis": self.basis, "calls": span(self.calls),
                "tokens_in": span(self.tokens_in), "tokens_out": span(self.tokens_out), "tokens": span(self.tokens),
                "cost_usd": span(self.cost)}


@dataclass
class Forecast:
    """The figures of every domain, preset and model, and their total."""

    figures: list[Figure] = field(default_factory=list)
    prices: dict[str, Price | None] = field(default_factory=dict)  # model -> its price (None: no price known)

    def total(self) -> dict[str, Any]:
        """The sum of the figures: each quantity summed over the figures that have it, with how many lack it."""
        counted = [f for f in self.figures if f.runs > f.done]

        def summed(name: str) -> tuple[Span | None, int]:
            spans = [getattr(f, name) for f in counted if getattr(f, name) is not None]
            # lines with no forecast at all are counted apart (calls_missing); the others lack this quantity
            missing = sum(1 for f in counted if getattr(f, name) is None and (name == "calls" or f.calls is not None))
            total = None
            for value in spans:
                total = value if total is None else total + value
            return total, missing

        result: dict[str, Any] = {"runs": sum(f.runs - f.done for f in self.figures),
                                  "done": sum(f.done for f in self.figures)}
        for name in ("calls", "tokens_in", "tokens_out", "tokens", "cost"):
            value, missing = summed(name)
            result[name] = value
            result[f"{name}_missing"] = missing
        return result

    def to_dict(self) -> dict[str, Any]:
        total = self.total()
        return {
            "figures": [f.to_dict() for f in self.figures],
            "total": {k: (v.to_dict() if isinstance(v, Span) else v) for k, v in total.items()},
            "prices": {model: (price.to_dict() if price is not None else None) for model, price in self.prices.items()},
        }

    def lines(self) -> list[str]:
        """The forecast as a table: one line per domain and preset, then the total."""
        models = len({f.model for f in self.figures}) > 1  # a column of its own only when there are several
        header = f"{'domain':<14} {'preset':<8} " + (f"{'model':<14} " if models else "") + \
            f"{'runs':>4}  {'calls':>9}  {'tokens in':>17}  {'tokens out':>17}  {'tokens':>19}  {'cost':>15}  source"
        lines = [header]
        for f in self.figures:
            left = f.runs - f.done
            runs = f"{left}" if not f.done else f"{left}+{f.done}✓"
            model = f"{f.model[:14]:<14} " if models else ""
            lines.append(f"{f.domain[:14]:<14} {f.preset[:8]:<8} {model}{runs:>4}  {_text(f.calls):>9}  "
                         f"{_text(f.tokens_in):>17}  {_text(f.tokens_out):>17}  {_text(f.tokens):>19}  "
                         f"{_cost(f, self.prices.get(f.model)):>15}  {f.basis}")
        total = self.total()
        if total["cost"] is not None:
            cost = total["cost"].text(money=True) + (" +?" if total["cost_missing"] else "")  # +?: a price unknown
        else:
            cost = "no price known" if total["calls"] is not None and total["runs"] else "-"
        lines.append(f"{'total':<14} {'':<8} " + (f"{'':<14} " if models else "") + f"{total['runs']:>4}  {_text(total['calls']):>9}  "
                     f"{_text(total['tokens_in']):>17}  {_text(total['tokens_out']):>17}  {_text(total['tokens']):>19}  "
                     f"{cost:>15}")
        unforecast = total["calls_missing"]
        if unforecast:
            lines.append(f"({unforecast} line(s) have no earlier run and no published figure: not in the total)")
        if total["done"]:
            lines.append(f"({total['done']} run(s) finished before (✓): they are not asked again and cost nothing)")
        for model, price in self.prices.items():
            lines.append(f"price of {model}: " + (f"${price.input_per_mtok:g} in / ${price.output_per_mtok:g} out per "
                                                  "million tokens" if price is not None else
                                                  "no price known (set [prices] in the config file)"))
        return lines


def _text(span: Span | None) -> str:
    return span.text() if span is not None else "-"


def _cost(figure: Figure, price: Price | None) -> str:
    if figure.runs == figure.done:
        return "$0.00"
    if figure.calls is None:
        return "-"
    if price is None:
        return "no price known"
    return figure.cost.text(money=True) if figure.cost is not None else "-"


# ------------------------------------------------------------------------------------------------ earlier runs
@dataclass(frozen=True)
class EarlierRun:
    """A finished run of genplan's, as a forecast counts it: every answer it got (cached ones too)."""

    path: Path
    domain: str
    preset: str
    model: str
    spend: Spend


def earlier_runs(directories: Iterable[Path], depth: int = 7) -> list[EarlierRun]:
    """The finished runs in ``directories`` (run directories themselves, folders of runs, a batch directory; found
    down to ``depth`` levels), not forks, not imports."""
    found: dict[Path, EarlierRun] = {}
    for directory in directories:
        for run_dir in _run_dirs(Path(directory), depth):
            if run_dir in found:
                continue
            meta = read_meta_or_none(run_dir)
            if meta is None or meta.status != RunStatus.FINISHED or meta.forked_from or meta.extra.get("import") \
                    or meta.extra.get("imported_from"):
                continue
            preset = str(meta.config.get("preset") or meta.extra.get("preset") or "")
            domain = Path(meta.domain_dir).name if meta.domain_dir else str(meta.extra.get("domain") or "")
            model = str(meta.model.get("model") or "")
            if preset and domain and model:
                found[run_dir] = EarlierRun(run_dir, domain, preset, model, spend_on_disk(run_dir, cached=True))
    return list(found.values())


def _run_dirs(directory: Path, depth: int) -> Iterable[Path]:
    if not directory.is_dir():
        return
    if layout.is_run_dir(directory):
        yield directory
        return
    if depth <= 0:
        return
    try:
        children = sorted(child for child in directory.iterdir() if child.is_dir() and not child.name.startswith("."))
    except OSError:
        return
    hidden = directory / layout.RUNS_SUBDIR  # a domain directory's own runs
    for child in ([hidden] if hidden.is_dir() else []) + children:
        yield from _run_dirs(child, depth - 1)


# ------------------------------------------------------------------------------------------------ the forecast
def paper_model(model: str, paper: PaperNumbers, published: Mapping[str, str]) -> str | None:
    """The paper's name of ``model`` (``gpt-4o`` for gpt-4o and gpt-4o-2024-08-06), None when the paper has none."""
    for name in paper.models:
        full = published.get(name, "")
        if model in (name, full) or model.startswith(name + "-20") or (full and model.endswith("/" + full)):
            return name
    return None


def forecast(planned: Iterable[Planned], earlier: Iterable[EarlierRun], prices: Mapping[str, Price] | None = None,
             paper: PaperNumbers | None = None) -> Forecast:
    """The forecast of ``planned`` runs, grouped by domain, preset and model in the order first planned."""
    paper = paper or load_paper_numbers()
    published = _published_names()
    history = list(earlier)
    groups: dict[tuple[str, str, str], list[Planned]] = {}
    for item in planned:
        groups.setdefault((item.domain, item.preset, item.model), []).append(item)
    result = Forecast()
    for (domain, preset, model), items in groups.items():
        price = price_for(model, prices) if model else None
        result.prices.setdefault(model, price)
        one = _one_run(domain, preset, model, price, history, paper, published)
        left = sum(1 for item in items if not item.done)
        result.figures.append(replace(
            one, runs=len(items), done=len(items) - left,
            calls=_times(one.calls, left), tokens_in=_times(one.tokens_in, left),
            tokens_out=_times(one.tokens_out, left), tokens=_times(one.tokens, left), cost=_times(one.cost, left)))
    return result


def _times(span: Span | None, factor: int) -> Span | None:
    return span.times(factor) if span is not None else None


def _one_run(domain: str, preset: str, model: str, price: Price | None, history: list[EarlierRun],
             paper: PaperNumbers, published: Mapping[str, str]) -> Figure:
    own = [run for run in history if run.domain == domain and run.preset == preset and run.model == model]
    if own:
        spends = [run.spend for run in own]
        cost = Span.of(price.cost_of(s.tokens_in, s.tokens_out) for s in spends) if price is not None else None
        return Figure(domain, preset, model, 1, OWN, f"genplan's {len(own)} earlier run(s)",
                      calls=Span.of(s.calls for s in spends), tokens_in=Span.of(s.tokens_in for s in spends),
                      tokens_out=Span.of(s.tokens_out for s in spends), tokens=Span.of(s.tokens for s in spends),
                      cost=cost)
    name = paper_model(model, paper, published)
    rows = {m: paper.budget.get((m, preset)) for m in ([name] if name else paper.models)}
    known = {m: row for m, row in rows.items() if row is not None and row[0] is not None and row[1] is not None}
    if not known:
        return Figure(domain, preset, model, 1, NONE, "no earlier run, no published figure")
    calls = Span.of(float(row[0] or 0) for row in known.values())
    tokens = Span.of(float(row[1] or 0) for row in known.values())
    basis = (f"published ({name}, mean per run over the paper's domains)" if name
             else f"published (other models: {', '.join(known)})")
    cost = None
    if price is not None:  # the paper does not split input from output: all at the input price to all at the output
        cost = Span(tokens.low * min(price.input_per_mtok, price.output_per_mtok) / 1e6,
                    tokens.high * max(price.input_per_mtok, price.output_per_mtok) / 1e6)
    return Figure(domain, preset, model, 1, PUBLISHED, basis, calls=calls, tokens=tokens, cost=cost)


def _published_names() -> dict[str, str]:
    """The paper's model names and the full names they stand for (``gpt-4o`` -> ``gpt-4o-2024-08-06``)."""
    import tomllib

    from genplan.engine.report.paper import PAPER_FILE

    try:
        data = tomllib.loads(PAPER_FILE.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    models = data.get("source", {}).get("models", {})
    return {str(k): str(v) for k, v in models.items()} if isinstance(models, dict) else {}
