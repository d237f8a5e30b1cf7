"""The paper's tables from a batch: coverage, error types, budget, program vs planner, PDDLego+ trials."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from genplan.engine.report.counterexamples import counterexample_table
from genplan.engine.report.data import BatchData, RunRecord
from genplan.engine.report.table import COUNT, NUMBER, PERCENT, RATIO, TEXT, Table
from genplan.engine.sandbox.outcome import CATEGORIES


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
         "'–': nothing evaluated yet"],
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
    from genplan.engine.approaches import is_baseline  # the registry: loaded when a table is made

    baselines = [p for p in data.presets if is_baseline(data.approaches.get(p))]
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


def cost_table(data: BatchData) -> Table | None:
    """What the runs cost per domain, model and preset (the sum over the seeds), and in total per model and preset,
    beside the forecast made from the paper's published figures (the forecast a grid gets before genplan has runs of
    its own, engine/report/forecast.py); None when no run has a known cost."""
    from genplan.engine.report.forecast import Planned, forecast

    started = [r for r in data.runs if r.status is not None]
    if not any(r.cost for r in started):
        return None
    rows: list[list[Any]] = []

    def row(domain: str, model: str, preset: str, runs: list[RunRecord]) -> list[Any]:
        costs = [r.cost for r in runs]
        cost = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
        names = [r.model_name for r in runs if r.model_name]
        expected = forecast([Planned(r.domain, preset, names[0]) for r in runs], [], None).total() if names else {}
        calls, spend = expected.get("calls"), expected.get("cost")
        return [domain, model, preset, len(runs), sum(r.calls for r in runs), sum(r.tokens for r in runs), cost,
                calls.low if calls is not None else None, calls.high if calls is not None else None,
                spend.low if spend is not None else None, spend.high if spend is not None else None]

    for model, preset in data.combinations():
        for domain in data.domains:
            runs = [r for r in started if r.domain == domain and r.model == model and r.preset == preset]
            if runs:
                rows.append(row(domain, model, preset, runs))
        runs = [r for r in started if r.model == model and r.preset == preset]
        if runs:
            rows.append(row("all", model, preset, runs))
    return Table(
        "cost",
        "What the runs cost (sum over the seeds; 'all': over the domains) beside the forecast from the paper's "
        "published figures",
        ["domain", "model", "preset", "runs", "calls", "tokens", "cost ($)", "forecast calls low", "forecast calls high",
         "forecast cost low ($)", "forecast cost high ($)"],
        [TEXT, TEXT, TEXT, COUNT, COUNT, COUNT, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER],
        rows,
        ["calls and tokens: every answer, as the budget tables count them; cost: the runs' own model calls at their "
         "price (cached answers cost nothing; '-': a call of no known price); forecast: the paper's Table 9 calls "
         "and tokens per run for the preset and model (its four models' range for another model), tokens all at "
         "the input to all at the output price; '-': no published figure"],
    )


@dataclass(frozen=True)
class CommonTask:
    """A task solved by both the program (of the best run) and the planner."""

    domain: str
    task: str
    program_seconds: float
    planner_seconds: float | None  # None: a shipped reference plan stood in for the planner (no runtime)
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
        seconds = float(planned.get("seconds") or 0.0)
        timed = bool(seconds) and not str(planned.get("planner", "")).startswith("reference plan")
        common.append(
            CommonTask(
                domain, task, outcome.runtime, seconds if timed else None, outcome.plan_length,
                int(planned["plan_length"]),
            )
        )
    return common


def planner_table(data: BatchData, optimal: bool = False) -> Table:
    """Tables 6 and 7 of the paper: the satisficing planner (GBFS + FF), or with ``optimal`` A* + LM-cut."""
    rows = []

    def row(model: str, preset: str, domain: str, tasks: list[CommonTask]) -> list[Any]:
        n = len(tasks)
        timed = [(t.program_seconds, s) for t in tasks if (s := t.planner_seconds)]
        return [
            model,
            preset,
            domain,
            n,
            mean(program / planner for program, planner in timed),
            100.0 * sum(program <= planner for program, planner in timed) / len(timed) if timed else None,
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
        ["ratios: program / planner, averaged over the tasks; best run: the seed with the highest coverage; "
         "runtimes only where the planner ran (a shipped reference plan has none: '–')"],
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
    searched = counterexample_table(data)  # only a batch with a +CE preset has this table
    tables = tables + [searched] if searched is not None else tables
    cost = cost_table(data)  # only a batch whose runs have a known cost
    tables = tables + [cost] if cost is not None else tables
    return tables + [pddlego_table(data)] if trials else tables
