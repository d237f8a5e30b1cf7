"""genplan import autotos LOG: turn one published AutoToS log into a genplan run by replaying its answers.

The logged answers are given back in order while genplan's own unit tests decide what is asked next; the
run directory then holds the event log and every succ / goal version, and the evaluation is genplan's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.cli.autotos_options import add_limit_arguments, add_rule_arguments, check_limits, print_summary
from genplan.cli.common import EXIT_OK, BadInput, error
from genplan.engine.api.presets import AUTOTOS_DOMAINS as DOMAINS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", help="an AutoToS log: clean_logs/<domain>/<model>-{val,noval}_logs/<name>.txt")
    parser.add_argument("--data", metavar="DIR",
                        help="the AutoToS data folder (with twentyfourgame/, blocksworld/, ...); "
                        "default: the folder holding the log's clean_logs/")
    parser.add_argument("--domain", choices=DOMAINS, help="the domain (default: from the log's folder)")
    parser.add_argument("--pst", choices=["auto", "on", "off"], default="auto",
                        help="partial soundness test: auto (from the log's folder: val = on), on, off")
    parser.add_argument("--runs", metavar="DIR", default="runs", help="where the run directory is made (default runs/)")
    parser.add_argument("--eval-set", choices=["release", "folder"], default="release",
                        help="evaluation instances: those the release's runs used (default; for Sokoban its three "
                        "unit-test instances in place of p05, p08, p09) or the data folder's test instances")
    parser.add_argument("--strict", action="store_true",
                        help="validate solutions by genplan's checks only: every state, where the release checked "
                        "the actions the states show (BlocksWorld)")
    add_rule_arguments(parser, release_default=True)
    add_limit_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help="print run_dir, calls, success, failure, categories, expanded, generated and the run's account as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def run(args: argparse.Namespace) -> int:
    from genplan.engine.api import Watch
    from genplan.engine.api.imports import ImportFailed, import_autotos, open_autotos

    pst = {"on": True, "off": False}.get(args.pst)  # auto: as the log's folder says
    try:
        check_limits(args)
        source = open_autotos(Path(args.log), domain=args.domain, data=Path(args.data) if args.data else None,
                              partial_soundness=pst)
    except (BadInput, ImportFailed) as exc:
        return error(str(exc))
    if not args.quiet:
        print(f"genplan: replaying {source.calls} answers of {Path(args.log)} ({source.domain.name}, "
              f"PST {'on' if source.partial_soundness else 'off'})", file=sys.stderr)
    watch = Watch(progress=None if args.quiet else lambda line: print(line, file=sys.stderr))
    summary = import_autotos(source, Path(args.runs), evaluate=not args.no_eval, eval_limit=args.eval_limit,
                             eval_timeout=args.eval_timeout, search_timeout=args.search_timeout, strict=args.strict,
                             hash_seed=args.hash_seed, memory_gib=args.memory, clock=args.clock,
                             released_instances=args.eval_set == "release", release_rules=args.release_rules,
                             watch=watch)
    if summary["wanted_more"] or summary["divergences"]:
        print("genplan: warning: the replay left the log's path (see import.json in the run directory)", file=sys.stderr)
    print_summary(summary, args.json, logged_calls=source.calls)
    return EXIT_OK
