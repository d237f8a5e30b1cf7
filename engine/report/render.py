"""Tables as text: the terminal (rich), Markdown, CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from genplan.engine.report.data import BatchData
from genplan.engine.report.table import COUNT, PERCENT, RATIO, SECONDS, TEXT, Table


def format_value(value: Any, kind: str) -> str:
    if value is None:
        return "–"  # a figure there is nothing to compute from
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
