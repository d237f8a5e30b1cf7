"""Replay PDDLego+ / PlanGen trial logs (the PDDLego+ release) through genplan.

Each LOG (a trial's .txt file, or a directory of them) is replayed with its logged model answers in order,
in the real CoinCollector game (or, for ALFWorld, a game that answers from the log's own observations);
genplan's parser, planner and game decide the path, under the release's rules where its code differed from
genplan's loop (--genplan-rules: genplan's own). Every trial becomes a run under OUT/runs/, and
OUT/batch.json lists them, so `genplan report OUT` shows success rates and error counts per condition.
With one LOG and --json, prints {"run_dir", "outcome", "calls", "steps", "solver_errors",
"simulation_errors"}.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from genplan.cli.common import EXIT_OK, error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="LOG", help="a trial log (.txt) or a directory of trial logs")
    parser.add_argument("--out", metavar="DIR", default="pddlego-imports",
                        help="where the runs go (default ./pddlego-imports); imports into the same DIR accumulate")
    parser.add_argument("--env", choices=["auto", "real", "logged"], default="auto",
                        help="the game: the real one where it runs here (CoinCollector; default auto), "
                        "or one that answers from the log's observations")
    parser.add_argument("--planner", choices=["auto", "fast-downward", "builtin"], default="auto",
                        help="auto (default): genplan's own optimal search for the small worlds models write, "
                        "Fast Downward when that takes over 2 s; or always one of them")
    parser.add_argument("--ties", choices=["logged", "genplan"], default="logged",
                        help="equally short plans of the same files: execute the one the log records, after genplan "
                        "has checked it against the files (default), or always genplan's own (ALFWorld under the "
                        "release's rules: the logged plan whenever it is valid, of any length)")
    parser.add_argument("--genplan-rules", dest="release_rules", action="store_false",
                        help="genplan's own loop and planner steer the replay (default: the release's rules where its "
                        "code differed: in ALFWorld its planner's refusals, its logged plan taken when genplan finds it "
                        "valid, its command mapping, a refused 'go to' not ending the attempt, PlanGen's restarts; "
                        "docs/pddlego.md)")
    parser.add_argument("--seed", type=int, help="the CoinCollector seed (default: the seed whose game gives every "
                        "observation the log holds; a note on stderr when several do)")
    parser.add_argument("--json", action="store_true", help="print the result(s) as JSON")


def _logs(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(path.glob("*.txt")))
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"{name}: no such file or directory")
    return found


def run(args: argparse.Namespace) -> int:
    from genplan.engine import api
    from genplan.engine.api.imports import ImportFailed, import_pddlego
    from genplan.engine.api.runs import count_words

    try:
        logs = _logs(args.logs)
    except FileNotFoundError as exc:
        return error(str(exc))
    if not logs:
        return error("no trial logs (*.txt) found")
    out = Path(args.out)
    results: list[dict[str, Any]] = []
    for index, log in enumerate(logs, 1):
        try:
            result = import_pddlego(log, out, environment=args.env, seed=args.seed, planner=args.planner,
                                    ties=args.ties, release_rules=args.release_rules)
        except ImportFailed as exc:
            return error(str(exc))
        if result.seed_note:
            print(f"genplan: {log.name}: {result.seed_note}", file=sys.stderr)
        entry = {**result.to_dict(), "log": {"outcome": result.log_outcome, "calls": result.log_calls,
                                             "steps": result.log_steps}}
        account = api.account(Path(result.run_dir))
        entry["account"] = account.to_dict()
        results.append(entry)
        if not args.json:
            same = "same" if (result.outcome, result.calls) == (result.log_outcome, result.log_calls) else "DIFFERS"
            print(f"[{index}/{len(logs)}] {log.name}: {account.outcome.facts.headline}, calls: "
                  f"{count_words(account.counts)} (the log's own: {account.outcome.facts.log_result}, "
                  f"{result.log_calls} calls) {same}")
    if args.json:
        if len(results) == 1:
            results[0].pop("log")
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))
    else:
        as_logged = sum((r["outcome"], r["calls"]) == (r["log"]["outcome"], r["log"]["calls"]) for r in results)
        print(f"{as_logged} of {len(results)} trials end as logged (outcome and number of calls); runs in {out}")
    return EXIT_OK
