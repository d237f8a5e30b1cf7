"""A report table: plain values with a kind per column; the renderers decide how each kind is shown.

Kept apart from the batch tables because other reports (generalize, reproduce) build tables too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PERCENT, COUNT, NUMBER, RATIO, SECONDS, TEXT = "percent", "count", "number", "ratio", "seconds", "text"


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
