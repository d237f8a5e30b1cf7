"""The one-line bar with the run's totals (calls, tokens, cost, time) and the mode; always visible."""

from __future__ import annotations

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


class TotalsBar(Static):
    """Hovering shows what "+N unpriced" means; the app also says it once per run (UNPRICED_NOTE)."""

    DEFAULT_CSS = """
    TotalsBar { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    def show(self, state: RunState | None, *, mode: str, source: str, live: bool, status: str | None = None) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {mode} ", style="bold reverse")
        if state is not None:
            totals = state.totals
            text.append(" ")
            text.append(f"calls {totals.calls}")
            text.append(" · ", style="dim")
            text.append(f"tokens {format_total_tokens(state)}")
            text.append(" · ", style="dim")
            text.append(f"cost {format_cost(state)}")
            text.append(" · ", style="dim")
            text.append(f"time {format_seconds(state.elapsed(live))}")
            shown = status or state.status
            text.append(" │ ", style="dim")
            style = {"running": "bold green", "failed": "bold red", "paused": "bold yellow"}.get(shown, "")
            text.append(shown, style=style)
        elif status:
            text.append(f" {status}")
        text.append(" │ ", style="dim")
        text.append(source, style="dim")
        notes = []
        if state is not None and not state.totals.cost_known:
            notes.append(UNPRICED_NOTE_MARKUP)
        if state is not None and state.totals.uncounted_calls:
            notes.append(UNCOUNTED_NOTE)
        self.tooltip = "\n\n".join(notes) or None
        self.update(text, layout=False)  # one line, always: no layout pass for the whole screen
