"""The report's figures as SVG: coverage per domain (grouped bars) and program vs planner (log-log scatters)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from genplan.engine.report.data import BatchData
from genplan.engine.report.paper_tables import common_tasks
from genplan.engine.report.svg import Svg
from genplan.engine.report.table import Table

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728"]


def coverage_svg(table: Table) -> str:
    """Grouped bars: per domain, one bar per (model, preset) with the seeds' average coverage; a black
    tick marks the best run."""
    averages = [i for i, c in enumerate(table.columns) if c.endswith(" avg")]
    series = [table.columns[i][: -len(" avg")] for i in averages]
    rows = [r for r in table.rows if r[0] != "average"]
    bar, left, top, plot_h = 16.0, 60.0, 40.0, 240.0
    group = max(len(series) * bar + 20.0, 56.0)
    longest = max((len(str(r[0])) for r in rows), default=0)
    legend_w = 40 + 7 * max((len(s) for s in series + ["bar: average, tick: best run"]), default=0)
    width = max(left + max(1, len(rows)) * group + legend_w + 20, 480.0)
    svg = Svg(width, top + plot_h + 30 + 6 * longest)
    svg.text(left, 22, "Coverage per domain (% of evaluation tasks solved)", 14)
    for percent in range(0, 101, 20):
        y = top + plot_h * (1 - percent / 100)
        svg.line(left, y, left + len(rows) * group, y, "#ddd")
        svg.text(left - 6, y + 4, str(percent), 11, "end")
    svg.line(left, top, left, top + plot_h)
    svg.line(left, top + plot_h, left + len(rows) * group, top + plot_h)
    for g, row in enumerate(rows):
        x0 = left + g * group + (group - len(series) * bar) / 2
        for s, index in enumerate(averages):
            value = row[index]
            best = row[index + len(averages)]
            x = x0 + s * bar
            if value is not None:
                h = plot_h * value / 100
                svg.rect(x, top + plot_h - h, bar - 2, h, PALETTE[s % len(PALETTE)], **{"class": "bar", "data-value": f"{value:.3f}"})
            if best is not None:
                y = top + plot_h * (1 - best / 100)
                svg.line(x - 1, y, x + bar - 1, y, "#000", 2, **{"class": "best"})
        label_x, label_y = left + g * group + group / 2, top + plot_h + 14
        svg.text(label_x, label_y, str(row[0]), 11, "end", transform=f"rotate(-35 {label_x:.1f} {label_y:.1f})")
    legend_x = left + len(rows) * group + 20
    for s, name in enumerate(series):
        y = top + 14 + 18 * s
        svg.rect(legend_x, y - 10, 12, 12, PALETTE[s % len(PALETTE)])
        svg.text(legend_x + 18, y, name, 11)
    svg.text(legend_x, top + 14 + 18 * len(series) + 8, "bar: average, tick: best run", 10)
    return svg.render()


def scatter_svg(points: Sequence[tuple[float, float, str]], title: str, x_label: str, y_label: str) -> str:
    """Log-log scatter (x, y, group) with the diagonal y = x in red; one colour per group."""
    size, left, top = 360.0, 70.0, 40.0
    positive = [v for x, y, _ in points for v in (x, y) if v > 0] or [1.0]
    low = math.floor(math.log10(min(positive)))
    high = math.ceil(math.log10(max(positive)))
    if high == low:
        high += 1
    groups = list(dict.fromkeys(g for _, _, g in points))
    width = left + size + 30 + 12 + 7 * max((len(g) for g in groups), default=0) + 30
    svg = Svg(width, top + size + 60)

    def position(value: float) -> float:
        return size * (math.log10(max(value, 10.0**low)) - low) / (high - low)

    svg.text(left, 22, title, 14)
    for k in range(low, high + 1):
        offset = size * (k - low) / (high - low)
        svg.line(left + offset, top, left + offset, top + size, "#eee")
        svg.line(left, top + size - offset, left + size, top + size - offset, "#eee")
        svg.text(left + offset, top + size + 16, f"1e{k}", 10, "middle")
        svg.text(left - 6, top + size - offset + 4, f"1e{k}", 10, "end")
    svg.rect(left, top, size, size, "none", stroke="#000")
    svg.line(left, top + size, left + size, top, "#d62728", 1.5, **{"class": "diagonal"})
    for x, y, group in points:
        colour = PALETTE[groups.index(group) % len(PALETTE)]
        svg.circle(left + position(x), top + size - position(y), 3, colour, **{"class": "point", "data-group": group})
    svg.text(left + size / 2, top + size + 36, x_label, 12, "middle")
    svg.text(16, top + size / 2, y_label, 12, "middle", transform=f"rotate(-90 16 {top + size / 2:.1f})")
    for g, group in enumerate(groups):
        y = top + 14 + 18 * g
        svg.rect(left + size + 30, y - 10, 12, 12, PALETTE[g % len(PALETTE)])
        svg.text(left + size + 48, y, group, 11)
    return svg.render()


def scatter_plots(data: BatchData) -> dict[str, str]:
    """file name -> SVG: runtime and plan length of each (model, preset)'s best runs against the planner."""
    plots = {}
    for model, preset in data.combinations():
        tasks = [t for domain in data.domains for t in common_tasks(data, model, preset, domain)]
        if not tasks:
            continue
        stem = f"{model}-{preset}".replace("/", "_")
        timed = [(t.program_seconds, s, t.domain) for t in tasks if (s := t.planner_seconds)]
        if timed:  # no runtime plot where only shipped reference plans stood in for the planner
            plots[f"runtime-{stem}.svg"] = scatter_svg(
                timed,
                f"Runtime (s): {preset} with {model} vs planner",
                f"program ({model} {preset}, best run)",
                "planner (GBFS + FF)",
            )
        plots[f"length-{stem}.svg"] = scatter_svg(
            [(float(t.program_length), float(t.planner_length), t.domain) for t in tasks],
            f"Plan length: {preset} with {model} vs planner",
            f"program ({model} {preset}, best run)",
            "planner (GBFS + FF)",
        )
    return plots
