"""A report directory: every table in every format, and the charts."""

from __future__ import annotations

from pathlib import Path

from genplan.engine.report.charts import coverage_svg, scatter_plots
from genplan.engine.report.data import BatchData
from genplan.engine.report.paper_tables import all_tables
from genplan.engine.report.render import to_csv, to_json, to_markdown, to_terminal
from genplan.engine.report.table import Table


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
