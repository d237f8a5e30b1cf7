"""The paper's tables and figures from a batch directory (see engine/batch/__init__.py for its layout).

``load_batch`` reads what the runs left on disk; the table functions turn that into plain ``Table``
values (numbers, not text); the renderers write them as a terminal table, Markdown, CSV and JSON; the
plots are SVG written here without a plotting library:

- coverage: per domain, the average coverage over the seeds and the coverage of the best run, for each
  model and preset (Stein et al., Tables 1-2), with the average over the domains;
- errors: per model and preset, the runs whose generation stopped (incomplete) and, of the runs whose
  program failed some task, the share in which each error type occurred (Table 5);
- budget: model calls, tokens (input + output) and generation time per run, averaged over the seeds and
  then over the domains, with the ratios between presets (Table 9), and per domain (Figures 10-11);
- planner: the best run's program against the satisficing planner on the commonly solved tasks: mean
  runtime and plan length ratios and how often the program is at least as fast / short (Table 6);
- coverage.svg (Figure "coverage per domain"), runtime-<model>-<preset>.svg and length-... .svg
  (log-log scatter of program vs planner with the diagonal, Figures 7-9).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from .errors import GenplanError
from .sandbox.outcome import CATEGORIES

PERCENT, COUNT, NUMBER, RATIO, SECONDS, TEXT = "percent", "count", "number", "ratio", "seconds", "text"


class ReportError(GenplanError):
    """The batch directory cannot be read (one line)."""


# =====================================================================================  reading


@dataclass
class TaskOutcome:
    solved: bool
    runtime: float
    plan_length: int | None


@dataclass
class RunRecord:
    """One entry of the grid as it is on disk."""

    domain: str
    preset: str
    model: str
    seed: int
    run_dir: Path
    status: str | None  # run.json status; None: never started
    calls: int = 0
    tokens: int = 0  # input + output (output includes reasoning tokens)
    seconds: float | None = None  # generation time, summed over the sessions of a resumed run
    evaluation: dict[str, Any] | None = None
    trial: dict[str, Any] | None = None  # PDDLego+ / PlanGen runs: trial.json (outcome, steps, error counts)

    @property
    def evaluated(self) -> bool:
        return self.evaluation is not None

    @property
    def coverage(self) -> float | None:
        """Percent of the evaluation tasks solved: 0 for a run that failed without a program; None while
        there is nothing to count (not run or not evaluated yet)."""
        if self.evaluation is None:
            return 0.0 if self.status == "failed" else None
        return 100.0 * float(self.evaluation.get("coverage") or 0.0)

    @property
    def incomplete(self) -> bool:
        """The generation stopped without a program (the paper's "incomplete run")."""
        if self.status is None:
            return False
        if self.status not in ("finished", "stopped"):
            return True
        return self.evaluation is not None and self.evaluation.get("status") == "no-program"

    @property
    def error_categories(self) -> set[str]:
        """Error types that occurred on at least one evaluation task."""
        table = (self.evaluation or {}).get("error_table") or {}
        return {category for category, count in table.items() if count}

    def tasks(self) -> dict[str, TaskOutcome]:
        out = {}
        for result in (self.evaluation or {}).get("results", []):
            out[result["task"]] = TaskOutcome(
                result.get("status") == "solved", float(result.get("runtime") or 0.0), result.get("plan_length")
            )
        return out


@dataclass
class BatchData:
    batch_dir: Path
    name: str
    domains: list[str]
    presets: list[str]
    models: list[str]
    seeds: list[int]
    approaches: dict[str, str]  # preset label -> stein / bas / sil
    runs: list[RunRecord]
    planner: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # (domain, task) -> result
    optimal_planner: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # A* + LM-cut, same keys

    def runs_of(self, domain: str | None = None, preset: str | None = None, model: str | None = None) -> list[RunRecord]:
        return [
            r
            for r in self.runs
            if (domain is None or r.domain == domain)
            and (preset is None or r.preset == preset)
            and (model is None or r.model == model)
        ]

    def combinations(self) -> list[tuple[str, str]]:
        return [(model, preset) for model in self.models for preset in self.presets]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def load_batch(batch_dir: str | Path) -> BatchData:
    root = Path(batch_dir)
    batch = _read_json(root / "batch.json")
    if not isinstance(batch, dict):
        raise ReportError(f"{root}: not a batch directory (no readable batch.json)")
    experiment = batch.get("experiment", {})
    runs = [_run_record(root, entry) for entry in batch.get("entries", [])]
    planner = _planner_results(root / "planner")
    optimal_planner = _planner_results(root / "planner-optimal")
    return BatchData(
        batch_dir=root,
        name=experiment.get("name", root.name),
        domains=[d["name"] for d in experiment.get("domains", [])],
        presets=[p["label"] for p in experiment.get("presets", [])],
        models=[m["label"] for m in experiment.get("models", [])],
        seeds=list(experiment.get("seeds", [])),
        approaches={p["label"]: p.get("config", {}).get("approach", "stein") for p in experiment.get("presets", [])},
        runs=runs,
        planner=planner,
        optimal_planner=optimal_planner,
    )


def _planner_results(folder: Path) -> dict[tuple[str, str], dict[str, Any]]:
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for file in sorted(folder.glob("*/*.json")):
        result = _read_json(file)
        if isinstance(result, dict) and "task" in result:
            found[(file.parent.name, result["task"])] = result
    return found


def _run_record(root: Path, entry: dict[str, Any]) -> RunRecord:
    run_dir = root / entry["run_dir"]
    meta = _read_json(run_dir / "run.json") or {}
    record = RunRecord(
        domain=entry["domain"],
        preset=entry["preset"],
        model=entry["model"],
        seed=int(entry["seed"]),
        run_dir=run_dir,
        status=meta.get("status"),
    )
    # Calls and tokens from the answers on disk: complete even when the run was resumed.
    for file in sorted((run_dir / "responses").glob("*.json")):
        response = (_read_json(file) or {}).get("response") or {}
        record.calls += 1
        usage = response.get("usage") or {}
        record.tokens += int(usage.get("input_tokens") or 0) + int(usage.get("output_tokens") or 0)
    if "batch_seconds" in meta:
        record.seconds = float(meta["batch_seconds"])
    else:
        summary = _read_json(run_dir / "summary.json") or {}
        record.seconds = summary.get("wall_seconds")
    evaluation = _read_json(run_dir / "evaluation.json")
    record.evaluation = evaluation if isinstance(evaluation, dict) else None
    trial = _read_json(run_dir / "trial.json")
    record.trial = trial if isinstance(trial, dict) else None
    return record


# =====================================================================================  tables


@dataclass
class Table:
    name: str  # file stem and JSON key
    title: str
    columns: list[str]
    kinds: list[str]  # per column: percent / count / number / ratio / seconds / text (how to show values)
    rows: list[list[Any]]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "columns": self.columns, "rows": self.rows, "notes": self.notes}

    def column(self, name: str) -> list[Any]:
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    def row(self, *keys: Any) -> list[Any]:
        """The first row whose leading cells are ``keys``."""
        for row in self.rows:
            if list(row[: len(keys)]) == list(keys):
                return row
        raise KeyError(keys)


def mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def coverage_table(data: BatchData) -> Table:
    combos = data.combinations()
    columns = ["domain"] + [f"{m} {p} avg" for m, p in combos] + [f"{m} {p} best" for m, p in combos]
    rows: list[list[Any]] = []
    for domain in data.domains:
        averages, bests = [], []
        for model, preset in combos:
            values = [r.coverage for r in data.runs_of(domain, preset, model) if r.coverage is not None]
            averages.append(mean(values))
            bests.append(max(values) if values else None)
        rows.append([domain, *averages, *bests])
    if rows:
        rows.append(["average", *[mean(row[i] for row in rows) for i in range(1, len(columns))]])
    return Table(
        "coverage",
        "Coverage (% of evaluation tasks solved): average over the seeds, and the best run",
        columns,
        [TEXT] + [PERCENT] * (len(columns) - 1),
        rows,
        [f"seeds: {', '.join(map(str, data.seeds))}; a run that ended without a program counts as 0 %; "
         "'-': nothing evaluated yet"],
    )


def error_table(data: BatchData) -> Table:
    columns = ["model", "preset", "runs", "incomplete runs", "runs with errors", *CATEGORIES]
    rows: list[list[Any]] = []

    def row(model: str, preset: str, runs: list[RunRecord]) -> list[Any]:
        done = [r for r in runs if r.status is not None]
        with_errors = [r for r in done if not r.incomplete and r.error_categories]
        shares = [
            100.0 * sum(category in r.error_categories for r in with_errors) / len(with_errors) if with_errors else None
            for category in CATEGORIES
        ]
        return [model, preset, len(done), sum(r.incomplete for r in done), len(with_errors), *shares]

    for model in data.models:
        for preset in data.presets:
            rows.append(row(model, preset, data.runs_of(preset=preset, model=model)))
        rows.append(row(model, "all", data.runs_of(model=model)))
    return Table(
        "errors",
        "Error types: of the runs whose program failed some evaluation task, % in which each type occurred",
        columns,
        [TEXT, TEXT, COUNT, COUNT, COUNT] + [PERCENT] * len(CATEGORIES),
        rows,
        ["incomplete runs: the generation stopped without a program (not counted in the percentages)"],
    )


def _budget(runs: list[RunRecord], domains: list[str]) -> tuple[float | None, float | None, float | None]:
    """Average over the seeds per domain, then over the domains (the paper's way)."""
    per_domain = []
    for domain in domains:
        mine = [r for r in runs if r.domain == domain and r.status is not None]
        if mine:
            per_domain.append(
                (mean(r.calls for r in mine), mean(r.tokens for r in mine), mean(r.seconds for r in mine))
            )
    return tuple(mean(values[i] for values in per_domain) for i in range(3))  # type: ignore[return-value]


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def reference_presets(data: BatchData) -> list[str]:
    """What the other presets are compared with: the baselines in the batch (as in the paper), else the
    first preset."""
    baselines = [p for p in data.presets if data.approaches.get(p) in ("bas", "sil")]
    return baselines or data.presets[:1]


def budget_table(data: BatchData) -> Table:
    rows: list[list[Any]] = []
    for model in data.models:
        values = {preset: _budget(data.runs_of(preset=preset, model=model), data.domains) for preset in data.presets}
        for preset in data.presets:
            rows.append([model, preset, *values[preset]])
        for reference in reference_presets(data):
            for preset in data.presets:
                if preset == reference:
                    continue
                rows.append(
                    [model, f"{preset} / {reference}", *(_ratio(a, b) for a, b in zip(values[preset], values[reference]))]
                )
    return Table(
        "budget",
        "Model calls, tokens and generation time per run (average over the seeds, then over the domains)",
        ["model", "preset", "calls", "tokens", "time (s)"],
        [TEXT, TEXT, NUMBER, NUMBER, NUMBER],
        rows,
        ["tokens: input + output (output includes reasoning); rows 'A / B' are ratios of the averages"],
    )


def budget_by_domain_table(data: BatchData) -> Table:
    rows = []
    for domain in data.domains:
        for model, preset in data.combinations():
            runs = [r for r in data.runs_of(domain, preset, model) if r.status is not None]
            rows.append(
                [domain, model, preset, len(runs), mean(r.calls for r in runs), mean(r.tokens for r in runs),
                 mean(r.seconds for r in runs)]
            )
    return Table(
        "budget_by_domain",
        "Model calls, tokens and generation time per run and domain (average over the seeds)",
        ["domain", "model", "preset", "runs", "calls", "tokens", "time (s)"],
        [TEXT, TEXT, TEXT, COUNT, NUMBER, NUMBER, NUMBER],
        rows,
    )


@dataclass(frozen=True)
class CommonTask:
    """A task solved by both the program (of the best run) and the planner."""

    domain: str
    task: str
    program_seconds: float
    planner_seconds: float
    program_length: int
    planner_length: int


def best_run(runs: list[RunRecord]) -> RunRecord | None:
    """The seed with the highest coverage (ties: the lower seed)."""
    evaluated = sorted((r for r in runs if r.coverage is not None), key=lambda r: (-r.coverage, r.seed))  # type: ignore[operator]
    return evaluated[0] if evaluated else None


def common_tasks(data: BatchData, model: str, preset: str, domain: str, optimal: bool = False) -> list[CommonTask]:
    run = best_run(data.runs_of(domain, preset, model))
    if run is None:
        return []
    common = []
    for task, outcome in run.tasks().items():
        planned = (data.optimal_planner if optimal else data.planner).get((domain, task))
        if not outcome.solved or not planned or planned.get("status") != "solved" or outcome.plan_length is None:
            continue
        common.append(
            CommonTask(
                domain, task, outcome.runtime, float(planned["seconds"]), outcome.plan_length, int(planned["plan_length"])
            )
        )
    return common


def planner_table(data: BatchData, optimal: bool = False) -> Table:
    """Tables 6 and 7 of the paper: the satisficing planner (GBFS + FF), or with ``optimal`` A* + LM-cut."""
    rows = []

    def row(model: str, preset: str, domain: str, tasks: list[CommonTask]) -> list[Any]:
        n = len(tasks)
        timed = [t for t in tasks if t.planner_seconds > 0]
        return [
            model,
            preset,
            domain,
            n,
            mean(t.program_seconds / t.planner_seconds for t in timed),
            100.0 * sum(t.program_seconds <= t.planner_seconds for t in tasks) / n if n else None,
            mean(t.program_length / t.planner_length for t in tasks if t.planner_length),
            100.0 * sum(t.program_length <= t.planner_length for t in tasks) / n if n else None,
        ]

    for model, preset in data.combinations():
        everything: list[CommonTask] = []
        for domain in data.domains:
            tasks = common_tasks(data, model, preset, domain, optimal)
            everything += tasks
            rows.append(row(model, preset, domain, tasks))
        rows.append(row(model, preset, "all", everything))
    return Table(
        "planner-optimal" if optimal else "planner",
        f"Best run's program vs the {'optimal planner (A* + LM-cut)' if optimal else 'satisficing planner (GBFS + FF)'}"
        " on the commonly solved tasks",
        ["model", "preset", "domain", "N", "runtime ratio", "program <= planner time %", "length ratio",
         "program <= planner length %"],
        [TEXT, TEXT, TEXT, COUNT, RATIO, PERCENT, RATIO, PERCENT],
        rows,
        ["ratios: program / planner, averaged over the tasks; best run: the seed with the highest coverage"],
    )


_TRIAL_COUNTS = ("solver_errors", "solver_fixed", "simulation_errors", "simulation_fixed", "abort_solver",
                 "abort_simulation")


def pddlego_table(data: BatchData) -> Table:
    """PDDLego+ / PlanGen trials (Gong et al. 2025, Appendix A): per environment, model and condition the
    trials, successes, success rate, solver and simulation errors and how many were fixed, the trials
    aborted by each, and the average number of time steps of successful and failed trials."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for run in data.runs:
        if run.trial is not None:
            groups.setdefault((run.domain, run.model, run.preset), []).append(run.trial)
    rows = []
    for (domain, model, preset), trials in sorted(groups.items()):
        wins = [t for t in trials if t.get("outcome") == "success"]
        losses = [t for t in trials if t.get("outcome") != "success"]
        totals = [sum(int(t.get(k) or 0) for t in trials) for k in _TRIAL_COUNTS]
        rows.append([domain, model, preset, len(trials), len(wins), 100.0 * len(wins) / len(trials), *totals,
                     mean(float(t.get("steps") or 0) for t in wins), mean(float(t.get("steps") or 0) for t in losses)])
    return Table(
        "pddlego", "PDDLego+ / PlanGen trials",
        ["environment", "model", "condition", "trials", "successes", "success rate", "solver errors", "solver fixed",
         "simulation errors", "simulation fixed", "aborted (solver)", "aborted (simulation)", "avg steps (success)",
         "avg steps (failure)"],
        [TEXT, TEXT, TEXT, COUNT, COUNT, PERCENT, COUNT, COUNT, COUNT, COUNT, COUNT, COUNT, NUMBER, NUMBER],
        rows,
        [("at most one solver error per outer attempt and one simulation error per step; an error is fixed unless "
          "the trial ended on it; steps: time steps (plans executed), as in the paper")],
    )


def all_tables(data: BatchData) -> list[Table]:
    trials = any(run.trial is not None for run in data.runs)
    if trials and all(run.trial is not None for run in data.runs):
        return [pddlego_table(data)]
    tables = [coverage_table(data), error_table(data), budget_table(data), budget_by_domain_table(data), planner_table(data)]
    if data.optimal_planner:
        tables.append(planner_table(data, optimal=True))
    return tables + [pddlego_table(data)] if trials else tables


# =====================================================================================  rendering


def format_value(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == TEXT or isinstance(value, str):
        return str(value)
    if kind == COUNT:
        return f"{value:.0f}"
    if kind == PERCENT:
        return f"{value:.1f}"
    if kind == RATIO:
        return f"{value:.3g}"
    if kind == SECONDS:
        return f"{value:.3g}"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.1f}"


def text_rows(table: Table) -> list[list[str]]:
    return [[format_value(v, k) for v, k in zip(row, table.kinds)] for row in table.rows]


def to_markdown(tables: Sequence[Table], title: str = "") -> str:
    out = [f"# {title}\n"] if title else []
    for table in tables:
        out.append(f"## {table.title}\n")
        out.append("| " + " | ".join(table.columns) + " |")
        out.append("| " + " | ".join("---" if k == TEXT else "---:" for k in table.kinds) + " |")
        for row in text_rows(table):
            out.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
        out.extend(f"\n{note}" for note in table.notes)
        out.append("")
    return "\n".join(out)


def to_csv(table: Table) -> str:
    """Numbers at full precision (rounded to 6 places), empty cells for missing values."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow(["" if v is None else round(v, 6) if isinstance(v, float) else v for v in row])
    return buffer.getvalue()


def to_json(tables: Sequence[Table], batch: BatchData | None = None) -> str:
    head: dict[str, Any] = {}
    if batch is not None:
        head = {"batch": str(batch.batch_dir), "name": batch.name, "runs": len(batch.runs)}
    return json.dumps({**head, "tables": {t.name: t.to_dict() for t in tables}}, indent=2) + "\n"


def to_terminal(tables: Sequence[Table], width: int | None = None) -> str:
    """Boxed tables (rich) as text; numbers right-aligned."""
    from rich.console import Console
    from rich.table import Table as RichTable

    buffer = io.StringIO()
    console = Console(file=buffer, width=width or 200, force_terminal=False, color_system=None)
    for table in tables:
        rich_table = RichTable(title=table.title, title_justify="left")
        for column, kind in zip(table.columns, table.kinds):
            rich_table.add_column(column, justify="left" if kind == TEXT else "right", overflow="fold")
        for row in text_rows(table):
            rich_table.add_row(*row)
        console.print(rich_table)
        for note in table.notes:
            console.print(note)
        console.print()
    return buffer.getvalue()


# =====================================================================================  SVG plots

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728"]


class Svg:
    """Just enough SVG: rectangles, lines, circles and text."""

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.items: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **extra: str) -> None:
        self.items.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}"{_attrs(extra)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000", width: float = 1, **extra: str) -> None:
        self.items.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="{width}"{_attrs(extra)}/>'
        )

    def circle(self, x: float, y: float, r: float, fill: str, **extra: str) -> None:
        self.items.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}"{_attrs(extra)}/>')

    def text(self, x: float, y: float, content: str, size: int = 12, anchor: str = "start", **extra: str) -> None:
        self.items.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{_attrs(extra)}>{escape(content)}</text>'
        )

    def render(self) -> str:
        body = "\n  ".join(self.items)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" height="{self.height:.0f}" '
            f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" font-family="sans-serif">\n'
            f'  <rect x="0" y="0" width="{self.width:.0f}" height="{self.height:.0f}" fill="#fff"/>\n  {body}\n</svg>\n'
        )


def _attrs(extra: dict[str, str]) -> str:
    return "".join(f' {key.replace("_", "-")}="{escape(str(value))}"' for key, value in extra.items())


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
        plots[f"runtime-{stem}.svg"] = scatter_svg(
            [(t.program_seconds, t.planner_seconds, t.domain) for t in tasks],
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


# =====================================================================================  writing


def write_report(data: BatchData, out_dir: Path, tables: list[Table] | None = None) -> list[Path]:
    """Every format into `out_dir`: report.md, report.json, <table>.csv, coverage.svg and the scatters."""
    tables = tables if tables is not None else all_tables(data)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {
        "report.md": to_markdown(tables, f"Batch {data.name}"),
        "report.json": to_json(tables, data),
        "report.txt": to_terminal(tables),
    }
    for table in tables:
        written[f"{table.name}.csv"] = to_csv(table)
    coverage = next((t for t in tables if t.name == "coverage"), None)
    if coverage is not None:
        written["coverage.svg"] = coverage_svg(coverage)
    written.update(scatter_plots(data))
    paths = []
    for name, text in written.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths

