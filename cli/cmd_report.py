"""genplan report BATCH_DIR: the paper's tables and figures from a batch's results."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.cli.common import EXIT_OK, error
from genplan.engine.api.reports import ReportError, all_tables, load_batch, to_json, to_markdown, to_terminal, write_report


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report",
        help="tables and plots of a batch's results",
        description="Read BATCH_DIR (written by genplan batch) and produce the paper's tables: coverage per "
        "domain (average over the seeds and best run) per preset and model, the error types, model calls, "
        "tokens and time per run with the ratios between presets, and the programs against the satisficing "
        "planner on the commonly solved tasks. Prints them and writes Markdown, CSV, JSON and SVG plots "
        "(coverage per domain; runtime and plan length of program vs planner, log-log with the diagonal). "
        "Exit codes: 0 done, 2 bad input (no batch there, a file that cannot be written, --html OUT.html a file "
        "genplan did not write without --force).",
    )
    p.add_argument("batch_dir", help="a batch directory")
    p.add_argument("--out", metavar="DIR", help="where to write the files (default BATCH_DIR/report)")
    p.add_argument(
        "--print",
        dest="show",
        choices=["terminal", "markdown", "json", "none"],
        default="terminal",
        help="what to print on stdout (default terminal tables)",
    )
    p.add_argument("--no-files", action="store_true", help="print only, write no files")
    p.add_argument("--paper", action="store_true",
                   help="add the strategy-refinement paper's published numbers beside the batch's (coverage per "
                   "domain and preset, the planners' coverage, Tables 5-7 and 9; domains matched by directory name), "
                   "as genplan reproduce does")
    p.add_argument("--html", nargs="?", const="", metavar="OUT.html",
                   help="also write the report as one self-contained page (default BATCH_DIR/report/report.html) "
                   "that links a page of each run, written beside it in runs/ (as genplan export writes them); an "
                   "existing file is replaced only when it is a page genplan wrote, unless --force is given")
    p.add_argument("--force", action="store_true", help="with --html: replace OUT.html even when genplan did not "
                   "write it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.html:  # refused before any table is printed or written
        from genplan.engine.api.share import ExportError, check_target

        try:
            check_target(Path(args.html), force=args.force)
        except ExportError as exc:
            return error(str(exc))
    try:
        data = load_batch(args.batch_dir)
    except ReportError as exc:
        return error(str(exc))
    tables = all_tables(data)
    if args.paper:
        from genplan.engine.api.reports import load_paper_numbers, tables_beside_paper

        tables += tables_beside_paper(data, load_paper_numbers())
    if args.show == "terminal":
        print(to_terminal(tables), end="")
    elif args.show == "markdown":
        print(to_markdown(tables, f"Batch {data.name}"))
    elif args.show == "json":
        print(to_json(tables, data), end="")
    if not args.no_files:
        out = Path(args.out) if args.out else Path(args.batch_dir) / "report"
        try:
            written = write_report(data, out, tables)
        except OSError as exc:
            return error(f"{out}: cannot write the report ({exc.strerror or exc})")
        if args.show != "json":
            print(f"wrote {len(written)} files to {out}")
    if args.html is not None:
        return _write_page(Path(args.batch_dir), Path(args.html) if args.html else None, args.force)
    return EXIT_OK


def _write_page(batch_dir: Path, out: Path | None, force: bool = False) -> int:
    from genplan.engine.api.share import ExportError, export_batch

    try:
        page = export_batch(batch_dir, out, force=force)
    except ExportError as exc:
        return error(str(exc))
    print(f"wrote {page.path} and {page.pages - 1} run pages beside it ({page.size / 1e6:.2f} MB)", file=sys.stderr)
    return EXIT_OK
