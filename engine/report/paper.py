"""The strategy-refinement paper's published numbers (``stein2026.toml`` beside this module, with its source and
how it was transcribed), read into plain lookups for the report's "beside the paper" tables.

Domains are named as the directories of the paper's data (``data/silver/<name>``, ``data/additional/<name>``),
presets by genplan's names (Sil, Bas, F5-3, F3-6, F3-6-MC, F3-6-SD, F3-6-CR). A cell the paper's text does not
give is ``None``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.errors import GenplanError

PAPER_FILE = Path(__file__).with_name("stein2026.toml")
# The paper's planner columns: (planner, time limit in seconds)
PAPER_PLANNER_COLUMNS = (("lm", 45), ("lm", 1800), ("ff", 45), ("ff", 1800))


class PaperNumbersError(GenplanError):
    """The published-numbers file cannot be read (one line)."""


Cell = float | None


@dataclass(frozen=True)
class PaperNumbers:
    title: str
    models: list[str]  # the paper's models in its table order (gpt-4o, llama-3.3, deepseek, qwen3-thinking)
    domains: list[str]  # the 17 domains in the paper's row order
    # (domain, preset, model) -> (mean of three runs, best run); domain "average" holds the paper's Avg rows
    coverage: dict[tuple[str, str, str], tuple[Cell, Cell]] = field(default_factory=dict)
    planners: dict[tuple[str, str, int], Cell] = field(default_factory=dict)  # (domain, "lm"/"ff", seconds)
    variants: dict[tuple[str, str], tuple[Cell, Cell]] = field(default_factory=dict)  # (domain, variant) -> F5-3
    variants_model: str = ""
    errors: dict[str, dict[str, Cell]] = field(default_factory=dict)  # model -> column -> value
    error_columns: list[str] = field(default_factory=list)
    comparison: dict[tuple[str, str], list[Cell]] = field(default_factory=dict)  # ("ff"/"lm", model) -> row
    comparison_columns: list[str] = field(default_factory=list)
    comparison_preset: str = "F5-3"
    budget: dict[tuple[str, str], tuple[Cell, Cell, Cell]] = field(default_factory=dict)  # (model, preset)
    notes: list[str] = field(default_factory=list)

    @property
    def presets(self) -> list[str]:
        seen: dict[str, None] = {}
        for _domain, preset, _model in self.coverage:
            seen.setdefault(preset, None)
        return list(seen)

    def has_domain(self, domain: str) -> bool:
        return domain in self.domains

    def cell(self, domain: str, preset: str, model: str) -> tuple[Cell, Cell] | None:
        """(mean, best) of one domain, preset and model; None when the paper has no such column."""
        return self.coverage.get((domain, preset, model))

    def models_of(self, preset: str) -> list[str]:
        """The paper's models that have coverage for ``preset``."""
        return [m for m in self.models if any(k[1] == preset and k[2] == m for k in self.coverage)]


def _cell(value: Any) -> Cell:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PaperNumbersError(f"{PAPER_FILE.name}: {value!r} is not a number")
    return None if math.isnan(value) else float(value)


def load_paper_numbers(path: Path | None = None) -> PaperNumbers:
    """Read the published numbers (default: the file shipped with genplan)."""
    file = path or PAPER_FILE
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PaperNumbersError(f"{file}: cannot be read ({exc})") from None
    source = data.get("source", {})
    numbers = PaperNumbers(title=f"{source.get('authors', '')} ({source.get('year', '')}), {source.get('paper', '')}",
                           models=list(source.get("models", {})), domains=[])
    for table in data.get("coverage", {}).values():
        columns: list[str] = table["columns"]
        numbers.notes.extend(table.get("notes", []))
        for domain, row in table["rows"].items():
            if len(row) != len(columns):
                raise PaperNumbersError(f"{file}: {domain}: {len(row)} cells for {len(columns)} columns")
            if domain != "average" and domain not in numbers.domains:
                numbers.domains.append(domain)
            means: dict[tuple[str, str], Cell] = {}
            bests: dict[tuple[str, str], Cell] = {}
            for column, value in zip(columns, row):
                parts = column.split()
                if parts[0] == "planner":
                    numbers.planners[(domain, parts[1], int(parts[2]))] = _cell(value)
                    continue
                model, preset, statistic = parts
                (means if statistic == "mean" else bests)[(preset, model)] = _cell(value)
            for preset, model in means:
                numbers.coverage[(domain, preset, model)] = (means[(preset, model)], bests.get((preset, model)))
    variants = data.get("variants", {})
    numbers_variants = numbers.variants
    for domain, row in variants.get("rows", {}).items():
        for index, variant in enumerate(("original", "costume", "anonymized")):
            numbers_variants[(domain, variant)] = (_cell(row[index]), _cell(row[index + 3]))
    errors = data.get("errors", {})
    numbers.error_columns.extend(errors.get("columns", []))
    for model, row in errors.get("rows", {}).items():
        numbers.errors[model] = {c: _cell(v) for c, v in zip(numbers.error_columns, row)}
    comparison = data.get("planner_comparison", {})
    numbers.comparison_columns.extend(comparison.get("columns", []))
    for planner in ("ff", "lm"):
        for model, row in comparison.get(planner, {}).items():
            numbers.comparison[(planner, model)] = [_cell(v) for v in row]
    for model, presets in data.get("budget", {}).items():
        if not isinstance(presets, dict):
            continue
        for preset, row in presets.items():
            if isinstance(row, list):
                numbers.budget[(model, preset)] = (_cell(row[0]), _cell(row[1]), _cell(row[2]))
    return PaperNumbers(**{**numbers.__dict__, "variants_model": str(variants.get("model", ""))})
