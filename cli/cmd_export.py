"""genplan export RUN_DIR --html OUT.html: a run as one self-contained page anyone can open in a browser."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.common import EXIT_OK, error
from genplan.engine.api.share import ExportError, default_page, export_run


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a run as one self-contained HTML page",
        description="Write the run in RUN_DIR as one HTML file that opens in any browser with nothing installed and "
        "nothing loaded from the network: the timeline (every model call with its prompt messages, answer, tokens "
        "and time; checks, feedback rounds, edits and the run's fork lineage), every version with a side-by-side "
        "diff of any two of one kind, the results matrix with each cell's feedback and a plan stepper, "
        "counterexamples, AutoToS's feedback rounds and PDDLego+'s commands and observations. No API key or other "
        "secret of the environment is written into it. Exit codes: 0 written, 2 bad input (no run there, OUT.html "
        "a file genplan did not write without --force, a page that cannot be written).",
    )
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run directory (with its run.json)")
    p.add_argument("--html", metavar="OUT.html", type=Path,
                   help="the page to write (default RUN_DIR/<run id>.html); an existing file is replaced only when "
                   "it is a page genplan wrote, unless --force is given")
    p.add_argument("--force", action="store_true", help="replace OUT.html even when it is not a page genplan wrote")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    out = args.html if args.html is not None else default_page(run_dir)
    try:
        written = export_run(run_dir, out, force=args.force)
    except ExportError as exc:
        return error(str(exc))
    print(f"wrote {written.path} ({written.size / 1e6:.2f} MB)")
    return EXIT_OK
