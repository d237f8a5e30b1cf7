"""The counterexample table of a batch: how often the search in the loop (a +CE preset) found a task the
program failed, and how small the shrunk tasks were."""

from __future__ import annotations

from typing import Any

from genplan.engine.report.data import BatchData
from genplan.engine.report.table import COUNT, NUMBER, PERCENT, SECONDS, TEXT, Table


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def counterexample_table(data: BatchData) -> Table | None:
    """One row per model, preset and domain with searches; None when no run searched."""
    rows: list[list[Any]] = []
    for model, preset in data.combinations():
        for domain in data.domains:
            runs = data.runs_of(domain, preset, model)
            searches = [s for r in runs for s in r.counterexamples]
            if not searches:
                continue
            found = [s for s in searches if s.get("found")]
            original = [float((s.get("original_size") or {}).get("objects") or 0) for s in found]
            shrunk = [float((s.get("shrunk_size") or s.get("original_size") or {}).get("objects") or 0) for s in found]
            steps = [float((s.get("shrunk") or {}).get("steps") or 0) for s in found]
            rows.append([
                model, preset, domain, sum(1 for r in runs if r.counterexamples), len(searches), len(found),
                100.0 * len(found) / len(searches), _mean(original), _mean(shrunk), max(shrunk) if shrunk else None,
                _mean(steps), _mean([float(s.get("search_seconds") or 0.0) for s in searches]),
            ])
    if not rows:
        return None
    return Table(
        "counterexamples",
        "Counterexamples found in the loop: searches after a program solved every debug task, and the shrunk tasks",
        ["model", "preset", "domain", "runs", "searches", "found", "found %", "objects before", "objects after",
         "largest after", "shrink steps", "search time (s)"],
        [TEXT, TEXT, TEXT, COUNT, COUNT, COUNT, PERCENT, NUMBER, NUMBER, NUMBER, NUMBER, SECONDS],
        rows,
        ["objects before/after: mean over the counterexamples found (the task as found, and shrunk)"],
    )
