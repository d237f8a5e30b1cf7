"""genplan edit RUN_DIR VERSION FILE: a person's edit of a run's version, on the run's record, as in the TUI."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.common import EXIT_OK, BadInput, run_guarded


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "edit",
        help="put a file on a run's record as a new version edited from one of its versions",
        description="Put FILE on RUN_DIR's record as a new version edited from VERSION, as saving an edit in "
        "genplan-tui does: the new version gets the next name of its artefact (strategies/v03.md, "
        "programs/c1-v02.py, reflections/…-edit1.md, nl/domain-edit1.md), VERSION stays as it is, and the run's "
        "events.jsonl logs the edit (artifact.edited). VERSION may itself be an edit. Prints the new version's "
        "path relative to the run (nothing, with a note on stderr, when FILE holds VERSION's own text: no version "
        "is made). Continue from it with `genplan fork RUN_DIR --from PATH`. Exit code 2 for a missing run, an "
        "unknown version, an empty or unreadable FILE, a run that another process is running.",
    )
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run directory, e.g. domains/ferry/.genplan/runs/<id>")
    p.add_argument("version", metavar="VERSION", help="the version edited, relative to the run: strategies/v01.md, "
                   "programs/c1-v00.py, reflections/<name>.md, nl/domain.md, nl/<task>.md")
    p.add_argument("file", metavar="FILE", help="the new text ('-': standard input)")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def read_text(file: str) -> str:
    """FILE's text ('-': standard input); BadInput (one line) when it cannot be read."""
    import sys

    if file == "-":
        return sys.stdin.read()
    try:
        return Path(file).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"{file}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{file}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None


def run(args: argparse.Namespace) -> int:
    import sys

    from genplan.engine import api

    text = read_text(args.file)
    record = api.edit(Path(args.run_dir), args.version, text, origin="cli")
    if record is None:
        print(f"genplan: {args.file} holds {args.version}'s own text; no new version was made", file=sys.stderr)
        return EXIT_OK
    print(record.file)
    return EXIT_OK
