"""genplan import autotos LOG: turn one published AutoToS log into a genplan run by replaying its answers.

The logged answers are given back in order while genplan's own unit tests decide what is asked next; the
run directory then holds the event log and every succ / goal version, and the evaluation is genplan's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..engine.autotos.domains import DOMAINS, DataError, load_domain
from ..engine.autotos.logfile import LogFormatError, parse_log
from ..engine.sandbox.limits import GIB
from .autotos_options import add_limit_arguments, check_limits, print_summary
from .common import EXIT_OK, BadInput, error


def _default_data(log: Path) -> Path | None:
    """The release's data folder when LOG lies in its clean_logs/ tree."""
    for parent in log.resolve().parents:
        if parent.name == "clean_logs":
            return parent.parent
    return None


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
    add_limit_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help="print run_dir, calls, success, failure, categories, expanded, generated as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def _progress(event: Any) -> None:
    """One stderr line per event worth one (the calls, the unit-test rounds, the evaluation)."""
    from ..engine.autotos.live import describe

    line = describe(event)
    if line:
        print(line, file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from ..engine.autotos.executor import SandboxExecutor
    from ..engine.autotos.session import import_log, log_settings

    log_path = Path(args.log)
    try:
        log = parse_log(log_path)
    except LogFormatError as exc:
        return error(str(exc))
    domain_name = args.domain or log.domain
    if domain_name is None:
        return error(f"{log_path}: cannot tell the domain from the path; give --domain")
    data = Path(args.data) if args.data else _default_data(log_path)
    if data is None:
        return error("no data folder: give --data DIR (the AutoToS data with twentyfourgame/, blocksworld/, ...)")
    try:
        check_limits(args)
    except BadInput as exc:
        return error(str(exc))
    try:
        domain = load_domain(domain_name, data)
    except DataError as exc:
        return error(str(exc))
    pst = {"on": True, "off": False}.get(args.pst, bool(log.partial_soundness))
    settings = log_settings(log, partial_soundness=pst, evaluate=not args.no_eval, eval_limit=args.eval_limit,
                            eval_timeout=args.eval_timeout, soundness_timeout=args.search_timeout,
                            release_validation=not args.strict)
    if not args.quiet:
        print(f"genplan: replaying {log.calls} answers of {log_path} ({domain_name}, PST {'on' if pst else 'off'})",
              file=sys.stderr)
    executor = SandboxExecutor(hash_seed=args.hash_seed, memory_bytes=int(args.memory * GIB))
    try:
        summary = import_log(log, domain, executor, Path(args.runs), settings, None if args.quiet else _progress,
                             released_instances=args.eval_set == "release")
    finally:
        executor.close()
    if summary["wanted_more"] or summary["divergences"]:
        print("genplan: warning: the replay left the log's path (see import.json in the run directory)", file=sys.stderr)
    print_summary(summary, args.json, logged_calls=log.calls)
    return EXIT_OK
