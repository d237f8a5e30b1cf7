"""`genplan reproduce`: the paper's experiment grid over a directory of domains in the paper's layout.

Builds an ordinary experiment file (docs/experiments.md) for every domain directory under DATA_DIR, so the
grid runs, resumes and is evaluated by the batch machinery; then the batch report's tables, plus one table
beside the published numbers when the user gives them:

    domain,preset,mean,best        # CSV with a header; coverage in percent (0-100); best may be empty
    ferry,F5-3,98.3,100

or the same in TOML: ``[[coverage]]`` tables with ``domain``, ``preset``, ``mean`` and optional ``best``.
"""

from __future__ import annotations

import csv
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from genplan.engine.domainlib import DomainDir, DomainDirError, keyed_by_directory
from genplan.engine.report.data import BatchData
from genplan.engine.report.paper import PAPER_PLANNER_COLUMNS, PaperNumbers
from genplan.engine.report.table import PERCENT, TEXT, Table

PAPER_PRESETS = ("F5-3", "F3-6", "Bas", "Sil")


class ReproduceError(Exception):
    """Bad input for `genplan reproduce` (one line)."""


@dataclass(frozen=True)
class Published:
    domain: str
    preset: str
    mean: float
    best: float | None


def find_domains(data_dir: Path) -> list[DomainDir]:
    """Every domain directory of ``data_dir``: its subdirectories that are domains, and those one level further
    down (the paper's ``data/`` holds ``silver/<domain>`` and ``additional/<domain>``). Domains are keyed by
    their directory name (or domain.toml's ``name``: engine.domainlib.keyed_by_directory), so two of the
    same name are an error; in name order within each folder."""
    if not data_dir.is_dir():
        raise ReproduceError(f"{data_dir}: not a directory")
    found: list[DomainDir] = []
    for folder in _subdirectories(data_dir):
        try:
            found.append(DomainDir.open(folder))
            continue
        except DomainDirError:
            pass
        for inner in _subdirectories(folder):  # a collection of domains (silver/, additional/)
            try:
                found.append(DomainDir.open(inner))
            except DomainDirError:
                continue
    if not found:
        raise ReproduceError(f"{data_dir}: no domain directories in it (expected the paper's layout: <domain>/domain.pddl, "
                             "problems_pddl/, or collections of them such as silver/<domain>)")
    seen: dict[str, Path] = {}
    for domain in found:
        name = keyed_by_directory(domain).name
        if name in seen:
            raise ReproduceError(f"{data_dir}: two domain directories are named {name!r} ({seen[name]} and "
                                 f"{domain.path}); a grid keys domains by their directory name (or domain.toml's)")
        seen[name] = domain.path
    return found


def _subdirectories(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def _toml_value(value: Any) -> str:
    return json.dumps(value)  # strings, numbers, booleans and lists of them are the same in TOML and JSON


def experiment_text(
    name: str,
    domains: list[DomainDir],
    presets: list[str],
    seeds: list[int],
    model: dict[str, Any],
    experiment: dict[str, Any] | None = None,
    pipeline: dict[str, Any] | None = None,
) -> str:
    lines = ["# written by genplan reproduce; rerun the same command to resume", "[experiment]",
             f"name = {_toml_value(name)}",
             f"domains = {_toml_value([str(d.path.resolve()) for d in domains])}",
             f"presets = {_toml_value(presets)}", f"seeds = {_toml_value(seeds)}"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in (experiment or {}).items()]
    if pipeline:
        lines += ["", "[pipeline]"] + [f"{key} = {_toml_value(value)}" for key, value in pipeline.items()]
    lines += ["", "[[models]]"] + [f"{key} = {_toml_value(value)}" for key, value in model.items() if value is not None]
    return "\n".join(lines) + "\n"


def load_published(path: Path) -> list[Published]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReproduceError(f"{path}: cannot be read ({exc.strerror})") from None
    rows: list[dict[str, Any]]
    if path.suffix == ".toml":
        try:
            rows = list(tomllib.loads(text).get("coverage", []))
        except tomllib.TOMLDecodeError as exc:
            raise ReproduceError(f"{path}: not valid TOML ({exc})") from None
    else:
        rows = list(csv.DictReader(text.splitlines()))
    found = []
    for number, row in enumerate(rows, 1):
        try:
            best = row.get("best")
            found.append(Published(str(row["domain"]), str(row["preset"]), float(row["mean"]),
                                   float(best) if best not in (None, "") else None))
        except (KeyError, TypeError, ValueError):
            raise ReproduceError(f"{path}: row {number}: needs domain, preset, mean (percent) and optional best") from None
    return found


def published_table(data: BatchData, published: list[Published]) -> Table:
    """Coverage (average and best of seeds) beside the published numbers, per domain and preset."""
    rows: list[list[Any]] = []
    for item in published:
        model_rows = {r.model for r in data.runs} or {""}
        for model in sorted(model_rows):
            runs = [r for r in data.runs if r.domain == item.domain and r.preset == item.preset and r.model == model]
            values = [r.coverage for r in runs if r.coverage is not None]
            ours_mean = mean(values) if values else None
            ours_best = max(values) if values else None
            rows.append([item.domain, item.preset, model, ours_mean, item.mean, ours_best, item.best])
    return Table(
        "published",
        "Coverage beside the published numbers (average and best of seeds)",
        ["domain", "preset", "model", "genplan mean", "published mean", "genplan best", "published best"],
        [TEXT, TEXT, TEXT, PERCENT, PERCENT, PERCENT, PERCENT],
        rows,
        ["published: as given with --published; empty genplan cells: the entry is not in this grid or not evaluated"],
    )


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:g} %"


def published_figures(paper: PaperNumbers, key: str, presets: list[str]) -> list[str]:
    """The paper's figures a grid of ``presets`` is compared with for domain ``key``, one line per preset shown
    (coverage in %, mean of three runs and the best run, per model) and one for its planners (lm, ff at 45 s and
    30 min); nothing for a domain the paper has no row for."""
    if not paper.has_domain(key):
        return []
    lines = []
    for preset in presets:
        cells = [(model, paper.cell(key, preset, model)) for model in paper.models_of(preset)]
        shown = [f"{model} {_figure(cell[0])} (best {_figure(cell[1])})" for model, cell in cells if cell is not None]
        lines.append(f"    {preset}: " + ("; ".join(shown) if shown else "not published"))
    planners = [f"{planner} {seconds // 60} min" if seconds >= 60 else f"{planner} {seconds} s"
                for planner, seconds in PAPER_PLANNER_COLUMNS]
    values = [paper.planners.get((key, planner, seconds)) for planner, seconds in PAPER_PLANNER_COLUMNS]
    lines.append("    planners: " + ", ".join(f"{name} {_figure(value)}" for name, value in zip(planners, values)))
    return lines


def domain_listing(data_dir: Path, domains: list[DomainDir], published: set[str], paper: PaperNumbers | None = None,
                   presets: list[str] | None = None) -> list[str]:
    """One line per domain: where it is, its key in the grid, the name its PDDL declares, its tasks, and whether
    the paper's published numbers have a row for it; with ``paper``, that row's figures for ``presets`` below it
    (:func:`published_figures`)."""
    lines = []
    for domain in domains:
        where = domain.path.resolve().relative_to(data_dir.resolve()) if domain.path.resolve().is_relative_to(
            data_dir.resolve()) else domain.path
        key = keyed_by_directory(domain).name
        lines.append(f"{key:<14} {str(where):<26} PDDL {domain.name:<18} {len(domain.debug_tasks())} debug, "
                     f"{len(domain.eval_tasks())} eval  published: {'yes' if key in published else 'no'}")
        if paper is not None:
            lines += published_figures(paper, key, presets or [])
    return lines
