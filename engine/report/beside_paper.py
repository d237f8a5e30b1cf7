"""A batch's tables beside the strategy-refinement paper's published numbers (engine/report/stein2026.toml):
coverage per domain and preset (Tables 1 and 2), the planners' coverage (Table 2's symbolic columns), model calls,
tokens and time (Table 9), the best F5-3 program against the planners (Tables 6 and 7), error types (Table 5)
and, for costumed or anonymized domains, Table 3.

Grid domains are matched to the paper's rows by their directory name (``data/additional/grippers`` is the
paper's grippers, whatever its PDDL file calls the domain); a costumed or anonymized variant by its
``domain.toml`` (``variant``, ``costume_of``). A figure that does not exist prints as "–".
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from genplan.engine.report.data import BatchData
from genplan.engine.report.paper import PAPER_PLANNER_COLUMNS, PaperNumbers
from genplan.engine.report.paper_tables import _budget, error_table, mean, planner_table
from genplan.engine.report.table import COUNT, NUMBER, PERCENT, RATIO, TEXT, Table

_LIMIT_WORDS = {45: "45 s", 1800: "30 min"}


def _limit(seconds: float) -> str:
    if seconds in _LIMIT_WORDS:
        return _LIMIT_WORDS[int(seconds)]
    return f"{seconds / 60:g} min" if seconds >= 60 and seconds % 60 == 0 else f"{seconds:g} s"


def _cite(paper: PaperNumbers, tables: str) -> str:
    return f"published: {paper.title}, {tables} (genplan's copy: engine/report/stein2026.toml)"


def matched_domains(data: BatchData, paper: PaperNumbers) -> tuple[list[str], list[str]]:
    """The grid's domains the paper reports (by directory name), and the others."""
    matched = sorted((d for d in data.domains if paper.has_domain(d)), key=paper.domains.index)  # the paper's order
    return matched, [d for d in data.domains if not paper.has_domain(d)]


def coverage_beside_paper(data: BatchData, paper: PaperNumbers) -> Table:
    """Tables 1 and 2: per domain, preset and model of the grid, genplan's average and best coverage beside the
    paper's for each of its four models."""
    columns = ["domain", "preset", "model", "genplan mean", "genplan best"]
    for model in paper.models:
        columns += [f"{model} mean", f"{model} best"]
    rows: list[list[Any]] = []
    matched, others = matched_domains(data, paper)
    presets = [p for p in data.presets if p in paper.presets]
    for domain in [*matched, "average"]:
        for preset in presets:
            for model in data.models:
                if domain == "average":
                    per_domain = [_coverage(data, d, preset, model) for d in matched]
                    ours: tuple[float | None, float | None] = (
                        mean(v[0] for v in per_domain), mean(v[1] for v in per_domain))
                else:
                    ours = _coverage(data, domain, preset, model)
                published: list[float | None] = []
                for paper_model in paper.models:
                    published += list(paper.cell(domain, preset, paper_model) or (None, None))
                rows.append([domain, preset, model, *ours, *published])
    notes = [
        _cite(paper, "Tables 1 and 2 (coverage in % of the evaluation tasks; mean of three runs, best run)"),
        "domains matched by directory name; 'average': genplan over the matched domains in this grid, the paper "
        "over its 17; '–': no such figure (the paper ran no ablations with deepseek; not evaluated yet)",
    ]
    if others:
        notes.append(f"not in the paper: {', '.join(others)}")
    unmatched = [p for p in data.presets if p not in paper.presets]
    if unmatched:
        notes.append(f"presets the paper does not report: {', '.join(unmatched)}")
    if paper.notes:
        notes.append(f"the paper's text damaged a few cells of Tables 1 and 2; how each was read: the notes in "
                     f"engine/report/stein2026.toml ({len(paper.notes)})")
    return Table("paper-coverage", "Coverage beside the paper's published coverage (Tables 1 and 2)", columns,
                 [TEXT, TEXT, TEXT] + [PERCENT] * (len(columns) - 3), rows, notes)


def _coverage(data: BatchData, domain: str, preset: str, model: str) -> tuple[float | None, float | None]:
    values = [r.coverage for r in data.runs_of(domain, preset, model) if r.coverage is not None]
    return (mean(values), max(values) if values else None)


def planner_coverage_table(data: BatchData, paper: PaperNumbers) -> Table:
    """genplan's planners' coverage of the evaluation tasks at the configured time limits, beside the paper's
    lm (A* + LM-cut) and ff (GBFS + FF) at 45 s and 30 min."""
    limits = data.planner_coverage_limits
    columns = ["domain", "tasks"]
    columns += [f"genplan {planner} {_limit(limit)}" for planner in ("lm", "ff") for limit in limits]
    columns += [f"paper {planner} {_limit(limit)}" for planner, limit in PAPER_PLANNER_COLUMNS]
    rows: list[list[Any]] = []
    matched, others = matched_domains(data, paper)
    for domain in [*matched, *others]:
        results = {p: [r for (planner, d, _t), r in data.planner_coverage.items() if planner == p and d == domain]
                   for p in ("lm", "ff")}
        tasks = max(len(results["lm"]), len(results["ff"]))
        ours: list[float | None] = []
        for planner in ("lm", "ff"):
            for limit in limits:
                found = results[planner]
                solved = sum(r.get("status") == "solved" and float(r.get("seconds") or 0) <= limit for r in found)
                ours.append(100.0 * solved / len(found) if found else None)
        published = [paper.planners.get((domain, planner, limit)) for planner, limit in PAPER_PLANNER_COLUMNS]
        rows.append([domain, tasks or None, *ours, *published])
    if rows:
        average = ["average", None, *[mean(row[i] for row in rows) for i in range(2, 2 + 2 * len(limits))]]
        average += [paper.planners.get(("average", p, limit)) for p, limit in PAPER_PLANNER_COLUMNS]
        rows.append(average)
    planners = sorted({str(r.get("planner")) for r in data.planner_coverage.values() if r.get("planner")})
    notes = [_cite(paper, "Table 2, 'Cov. symbolic' (lm: A* + LM-cut, ff: GBFS + FF; 8 GB)")]
    if limits:
        notes.append(f"genplan: each planner ran once per evaluation task with {_limit(max(limits))}; a task counts at "
                     f"a limit when it was solved within it; planners that ran: {', '.join(planners) or 'none yet'}")
    else:
        notes.append("genplan's planners were not run for coverage (experiment key planner_coverage, or "
                     "genplan reproduce --planner-limits)")
    notes.append("'average': genplan over this grid's domains, the paper over its 17")
    return Table("planner-coverage", "The symbolic planners' coverage of the evaluation tasks (% solved)", columns,
                 [TEXT, COUNT] + [PERCENT] * (len(columns) - 2), rows, notes)


def budget_beside_paper(data: BatchData, paper: PaperNumbers) -> Table:
    """Table 9: calls, tokens and generation time per run (average over the seeds, then over the domains)."""
    rows: list[list[Any]] = []
    for preset in [p for p in data.presets if any(k[1] == p for k in paper.budget)]:
        for model in data.models:
            rows.append([preset, f"genplan {model}", *_budget(data.runs_of(preset=preset, model=model), data.domains)])
        for paper_model in paper.models:
            if (paper_model, preset) in paper.budget:
                rows.append([preset, f"paper {paper_model}", *paper.budget[(paper_model, preset)]])
    return Table("paper-budget", "Calls, tokens and time per run beside the paper's (Table 9)",
                 ["preset", "source", "calls", "tokens", "time (s)"], [TEXT, TEXT, NUMBER, NUMBER, NUMBER], rows,
                 [_cite(paper, "Table 9 (averaged over the seeds, then over the domains; the paper's 17 domains)"),
                  "tokens: input + output, reasoning included; '–': not reported (deepseek Sil: footnote 5)"])


def comparison_beside_paper(data: BatchData, paper: PaperNumbers) -> Table:
    """Tables 6 and 7: the best run's program against the planners on the commonly solved tasks."""
    columns = ["planner", "source", "N", "runtime ratio", "program <= planner time %", "length ratio",
               "program <= planner length %"]
    rows: list[list[Any]] = []
    preset = paper.comparison_preset
    for planner, optimal in (("ff", False), ("lm", True)):
        if preset in data.presets and (not optimal or data.optimal_planner):
            ours = planner_table(data, optimal=optimal)
            for model in data.models:
                row = ours.row(model, preset, "all")
                rows.append([planner, f"genplan {model} {preset}", *row[3:]])
        for paper_model in paper.models:
            if (planner, paper_model) in paper.comparison:
                rows.append([planner, f"paper {paper_model} {preset}", *paper.comparison[(planner, paper_model)]])
    return Table("paper-planner-comparison",
                 "Best F5-3 program vs the planners beside the paper's (Tables 6, 7)",
                 columns, [TEXT, TEXT, COUNT, RATIO, PERCENT, RATIO, PERCENT], rows,
                 [_cite(paper, "Tables 6 and 7"),
                  "for lm the paper's last column is the share of equally long plans (an optimal plan is never longer)",
                  "genplan's runtimes only where the planner ran: shipped reference plans (the paper's layout) have "
                  "none ('–')"])


_ERROR_COLUMNS = {"exception": "python exception", "timeout": "timeout", "invalid action": "invalid actions",
                  "goal not satisfied": "goal not satisfied"}


def errors_beside_paper(data: BatchData, paper: PaperNumbers) -> Table:
    """Table 5: of the runs with an error on some evaluation task, % with each error type; incomplete runs."""
    ours = error_table(data)
    columns = ["source", *_ERROR_COLUMNS.values(), "incomplete runs"]
    rows: list[list[Any]] = []
    for model in data.models:
        row = ours.row(model, "all")
        rows.append([f"genplan {model}", *(row[ours.columns.index(c)] for c in _ERROR_COLUMNS),
                     row[ours.columns.index("incomplete runs")]])
    for paper_model in paper.models:
        found = paper.errors.get(paper_model)
        if found:
            rows.append([f"paper {paper_model}", *(found.get(c) for c in _ERROR_COLUMNS.values()),
                         found.get("incomplete runs")])
    return Table("paper-errors", "Error types beside the paper's (Table 5)", columns,
                 [TEXT, PERCENT, PERCENT, PERCENT, PERCENT, COUNT], rows,
                 [_cite(paper, "Table 5 (all configurations and domains of each model)"),
                  "genplan's 'wrong type' and 'sandbox error' runs are in the errors table only"])


def _variant_of(path: str) -> tuple[str, str] | None:
    """(original domain, "costume" / "anonymized") from a variant's domain.toml."""
    try:
        meta = tomllib.loads((Path(path) / "domain.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    variant, original = meta.get("variant"), meta.get("costume_of")
    if variant in ("costume", "anonymized") and isinstance(original, str):
        return original, str(variant)
    return None


def variants_beside_paper(data: BatchData, paper: PaperNumbers) -> Table | None:
    """Table 3 (F5-3 with gpt-4o on costumed and anonymized domains), when the grid has such domains."""
    preset = "F5-3"
    rows: list[list[Any]] = []
    for domain in data.domains:
        variant = _variant_of(data.domain_paths.get(domain, ""))
        if variant is None or variant not in paper.variants or preset not in data.presets:
            continue
        for model in data.models:
            rows.append([domain, variant[0], variant[1], model, *_coverage(data, domain, preset, model),
                         *paper.variants[variant]])
    if not rows:
        return None
    return Table("paper-variants", "Costumed and anonymized domains beside the paper's (Table 3, F5-3)",
                 ["domain", "original", "variant", "model", "genplan mean", "genplan best",
                  f"{paper.variants_model} mean", f"{paper.variants_model} best"],
                 [TEXT, TEXT, TEXT, TEXT, PERCENT, PERCENT, PERCENT, PERCENT], rows,
                 [_cite(paper, "Table 3"), "genplan's variants are its own renamings; the paper's may differ in names"])


def tables_beside_paper(data: BatchData, paper: PaperNumbers) -> list[Table]:
    tables = [coverage_beside_paper(data, paper), planner_coverage_table(data, paper),
              budget_beside_paper(data, paper), comparison_beside_paper(data, paper), errors_beside_paper(data, paper)]
    variants = variants_beside_paper(data, paper)
    return tables + ([variants] if variants is not None else [])
