"""The per-domain table of one file of ``autotos_import_all.py`` rows, as docs/autotos.md shows it.

    .venv/bin/python benchmarks/autotos_import_table.py benchmarks/results/autotos_import_all.jsonl

A log *matches* when genplan made the log's calls and its evaluation gave the log's success and failure counts
(``match_calls`` and ``match_result``); *same search* counts the evaluated logs whose log has expansion and
generation counts and whose replay gave exactly those. The table says which engine trees made the rows: one
figure is one tree.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DOMAINS = {"24game": "24 Game", "blocks": "BlocksWorld", "prontoqa": "PrOntoQA", "sokoban": "Sokoban",
           "cw": "Crossword"}
LOGS_PER_DOMAIN = 40  # the release has 40 logs of each domain: 4 models (or 5), with and without the PST


def matched(row: dict[str, Any]) -> bool:
    return bool(row["match_calls"] and row["match_result"])


def table(rows: Iterable[dict[str, Any]]) -> str:
    """A markdown table, one line per domain of the release (in its order), then the engine trees and totals."""
    rows = list(rows)
    lines = ["| domain | logs | full match | differ | same search (of the evaluated logs with counts) |",
             "|---|---|---|---|---|"]
    for folder, name in DOMAINS.items():
        mine = [row for row in rows if row["log"].split("/", 1)[0] == folder]
        counted = [row for row in mine if row["match_search"] is not None]
        differ = ", ".join(f"`{Path(row['log']).stem.removeprefix('script_log_')}`"
                           for row in mine if not matched(row)) or "-"
        lines.append(f"| {name} | {len(mine)} of {LOGS_PER_DOMAIN} | {sum(map(matched, mine))} | {differ} | "
                     f"{sum(bool(row['match_search']) for row in counted)} of {len(counted)} |")
    trees = sorted({str(row.get("engine")) for row in rows})
    total = sum(map(matched, rows))
    lines += ["", f"{total} of {len(rows)} logs match in full; rows made by engine tree "
                  f"{', '.join(trees) or '-'}" + ("" if len(trees) <= 1 else " (more than one: not one figure)")]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="JSON lines of autotos_import_all.py --out")
    args = parser.parse_args()
    try:
        rows = [json.loads(line) for line in Path(args.file).read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        print(f"{args.file}: cannot be read as JSON lines ({exc})", file=sys.stderr)
        return 2
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
