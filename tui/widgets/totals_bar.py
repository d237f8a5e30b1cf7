"""The one-line bar with the run's totals (calls, tokens, cost, time) and the mode; always visible."""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.markup import escape
from rich.text import Text
from textual.widgets import Static

from genplan.tui.run_state import RunState


def format_tokens(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1_000_000:.1f}M"
    if count >= 10_000:
        return f"{count / 1000:.0f}k"
    if count >= 1000:
        return f"{count / 1000:.1f}k"
    return str(count)


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, rest = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{rest:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def format_cost(state: RunState) -> str:
    cost = f"${state.totals.cost_usd:.4f}" if state.totals.cost_usd < 1 else f"${state.totals.cost_usd:.2f}"
    if state.totals.cost_known:
        return cost
    return f"{cost} +{state.totals.unpriced_calls} unpriced"


def format_total_tokens(state: RunState) -> str:
    """The run's tokens: "n/a" when no call reported any (an imported run's recorded answers hold no counts),
    "≥N" when only some did."""
    totals = state.totals
    if not totals.tokens_known:
        return "n/a"
    shown = format_tokens(totals.tokens)
    return f"≥{shown}" if totals.uncounted_calls else shown


UNPRICED_NOTE = ("Cost: some calls have no price — their model is neither in genplan's price table nor in [prices] "
                 "of your config file — so the cost shown counts only the priced calls, plus how many were not "
                 "priced. Set the model's prices per million tokens under [prices.\"MODEL\"] (docs/models.md).")


# What the app says once per run when a call has no price: one short line (the totals bar's tooltip has the rest)
UNPRICED_TOAST = "Unpriced calls: cost counts priced ones (docs/models.md)"

UNCOUNTED_NOTE = ("Tokens: some answers came without token counts (the recorded answers of an imported run hold "
                  "none), so the total is unknown (n/a) or counts only the calls that reported them (≥).")

# Notifications and tooltips read markup, where "[prices]" would vanish as an unknown tag
UNPRICED_NOTE_MARKUP = escape(UNPRICED_NOTE)


def cap_texts(caps: Any) -> tuple[str, str, str]:
    """" of N" beside the calls, the tokens and the cost for each cap the run has ("" where it has none)."""
    if caps is None:
        return "", "", ""
    calls = f" of {caps.max_calls}" if caps.max_calls is not None else ""
    tokens = f" of {format_tokens(caps.max_total_tokens)}" if caps.max_total_tokens is not None else ""
    cost = f" of ${caps.max_cost:.2f}" if caps.max_cost is not None else ""
    return calls, tokens, cost


class Source(NamedTuple):
    """What the bar names besides the totals."""

    domain: str
    run: str  # "run ID" or "no run open"
    preset: str
    model: str


def format_calls(state: RunState, short: bool = False) -> str:
    """The calls as they were made: sent to the model, answered from the cache, kept from an earlier run."""
    totals = state.totals
    reused = totals.cached_calls + totals.kept_calls
    if not reused:
        return f"calls {totals.calls}"
    if not totals.calls:
        where = "the cache" if not totals.kept_calls else ("earlier runs" if not totals.cached_calls
                                                           else "the cache and earlier runs")
        return f"{reused} calls, all from {where}" if not short else f"{reused} calls cached"
    return f"calls {totals.calls} +{reused} cached" if short or not totals.kept_calls else \
        f"calls {totals.calls} +{totals.cached_calls} cached +{totals.kept_calls} kept"


# A part of the bar: its text in full and in short, its style, and its rank (lower ranks are kept first when the
# width is short: the state, the run, the preset and the model fit at 80 columns).
Part = tuple[str, str, str, int]


class TotalsBar(Static):
    """Hovering shows the whole line and what "+N unpriced" means; the app also says it once per session."""

    full_text = ""  # every part in full (the tooltip's first line; what a narrow bar leaves out is here)

    DEFAULT_CSS = """
    TotalsBar { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    def show(self, state: RunState | None, *, mode: str, source: Source, live: bool, status: str | None = None,
             caps: Any = None) -> None:
        """``caps``: the run's budget (engine/api/budget.Budget, or None): each total shown beside its cap."""
        parts: list[Part] = [(f" {mode} ", f" {mode} ", "bold reverse", 0)]
        shown = status or (state.status if state is not None else None)
        if shown:
            style = {"running": "bold green", "failed": "bold red", "paused": "bold yellow"}.get(shown, "")
            if shown.startswith("waiting"):
                style = "bold black on yellow"
            parts.append((shown, shown, style, 0))
        model = "you answer" if source.model.startswith("no model") else source.model
        parts += [(source.run, source.run.removeprefix("run "), "bold", 1), (source.preset, source.preset, "", 2),
                  (source.model, model, "", 3)]
        totals: list[Part] = []
        if state is not None:
            cost = format_cost(state)
            calls_cap, tokens_cap, cost_cap = cap_texts(caps)
            totals = [(format_calls(state) + calls_cap, format_calls(state, short=True) + calls_cap, "", 4),
                      (f"tokens {format_total_tokens(state)}{tokens_cap}", f"{format_total_tokens(state)} tok{tokens_cap}",
                       "", 5),
                      (f"cost {cost}{cost_cap}",
                       (cost.removeprefix("$0.0000 ") if cost.startswith("$0.0000 +") else cost) + cost_cap, "", 6),
                      (f"time {format_seconds(state.elapsed(live))}", format_seconds(state.elapsed(live)), "", 7)]
        groups = [parts, totals, [(source.domain, source.domain, "dim", 8)]]
        self.full_text = self.laid_out(groups, set(), set()).plain
        self.update(self.fit(groups), layout=False)  # one line, always: no layout pass
        notes = [self.full_text.strip()]  # hovering shows all of it, whatever the width left out
        if state is not None and not state.totals.cost_known:
            notes.append(UNPRICED_NOTE_MARKUP)
        if state is not None and state.totals.uncounted_calls:
            notes.append(UNCOUNTED_NOTE)
        self.tooltip = escape(notes[0]) + "".join("\n\n" + note for note in notes[1:])

    def fit(self, groups: list[list[Part]]) -> Text:
        """The parts in their order: in full when all fit; else, from the least important up, each part in short,
        then the least important left out, until the line fits."""
        width = max(20, (self.size.width or 80) - 2)
        ranks = sorted({part[3] for group in groups for part in group}, reverse=True)
        short: set[int] = set()
        dropped: set[int] = set()
        steps = [("short", rank) for rank in ranks] + [("drop", rank) for rank in ranks if rank > 0]
        text = self.laid_out(groups, short, dropped)
        for what, rank in steps:
            if text.cell_len <= width:
                break
            (short if what == "short" else dropped).add(rank)
            text = self.laid_out(groups, short, dropped)
        return text

    @staticmethod
    def laid_out(groups: list[list[Part]], short: set[int], dropped: set[int]) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for group in groups:
            chosen = [part for part in group if part[3] not in dropped and part[0]]
            if not chosen:
                continue
            if text:
                text.append(" │ ", style="dim")
            for index, (full, brief, style, rank) in enumerate(chosen):
                if index:
                    text.append(" " if group is groups[0] and index == 1 else " · ", style="dim")
                text.append(brief if rank in short else full, style=style)
        return text
