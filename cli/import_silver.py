"""genplan import silver DIR --domain DOMAIN_DIR: replay one conversation of Silver et al.'s released cache.

DIR is one conversation folder of the cache (``<env>_<seed>_<exp>/`` with ``<k>-response.txt``). Its answers
are given back in order as the model's answers to genplan's Sil baseline while genplan's own checks on the
domain's debug tasks decide what is asked next. The run opens in the TUI like any other
(``genplan-tui --run RUN_DIR``) and its selected program is evaluated with ``genplan eval``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from genplan.cli.common import EXIT_OK, error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("conversation", metavar="DIR", help="one conversation folder: <env>_<seed>_<exp>/")
    parser.add_argument("--domain", metavar="DOMAIN_DIR", required=True,
                        help="the domain the conversation is about (e.g. the paper's benchmarks/hiking for pg3-hiking)")
    parser.add_argument("--split-seed", type=int, default=1, choices=(1, 2, 3),
                        help="which debug tasks are the prompt tasks (default 1)")
    parser.add_argument("--runs", metavar="DIR", default="runs", help="where the run directory is made (default runs/)")
    parser.add_argument("--json", action="store_true",
                        help="print run_dir, selected_program, llm_calls, debug_solved, debug_total and the run's account as JSON")


def run(args: argparse.Namespace) -> int:
    from genplan.cli.account_view import account_lines, with_account
    from genplan.engine import api
    from genplan.engine.api.imports import ImportFailed, import_silver, open_silver

    try:
        source = open_silver(Path(args.conversation), Path(args.domain))
    except ImportFailed as exc:
        return error(str(exc))
    if source.mismatch is not None and not args.json:
        print(f"genplan: warning: {source.mismatch}", file=sys.stderr)
    if not args.json:
        print(f"genplan: replaying {source.answers} answers of {source.conversation.path} on {source.domain.name}",
              file=sys.stderr)
    imported = import_silver(source, Path(args.runs), split_seed=args.split_seed)
    summary = imported.summary
    if args.json:
        print(json.dumps(with_account(summary, summary["run_dir"])))
    else:
        print(f"run directory: {summary['run_dir']}")
        print(f"the conversation holds {imported.answers} recorded answers")
        print("\n".join(account_lines(api.account(Path(summary["run_dir"])))))
    return EXIT_OK
