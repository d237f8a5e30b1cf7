"""The options `genplan autotos` and `genplan import autotos` share: the limits of the unit tests, the
evaluation and the sandboxed runs (the paper's values are the defaults)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from genplan.cli.common import BadInput, require_seconds
from genplan.engine.api.programs import MIN_MEMORY_GIB  # 64 MiB, the sandbox's floor

# what --json prints; expanded/generated are the evaluation's search totals (None without an evaluation); a run
# started or resumed (not an import) adds its status, as every approach's report has it (engine/api.report)
SUMMARY_KEYS = ("run_dir", "calls", "success", "failure", "categories", "expanded", "generated")


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-eval", action="store_true", help="stop after the unit tests (no evaluation)")
    parser.add_argument("--eval-limit", type=int, metavar="N", help="evaluate only the first N instances")
    parser.add_argument("--eval-timeout", type=float, default=600.0, metavar="S",
                        help="time limit per evaluation search in seconds (default 600, the paper's)")
    parser.add_argument("--search-timeout", type=float, default=600.0, metavar="S",
                        help="time limit per unit-test search in seconds (default 600, the paper's); a search that "
                        "reaches it is the 'search timeout' feedback")
    parser.add_argument("--clock", choices=("wall", "cpu"), default=None,
                        help="what the time limits count: wall-clock seconds or the sandboxed process's CPU seconds "
                        "(default: wall for a live run, as the paper; cpu for an import, so that a busy machine "
                        "does not cut short a search the release finished)")
    parser.add_argument("--hash-seed", type=int, default=0, metavar="N",
                        help="PYTHONHASHSEED of the sandboxed runs (set order; default 0)")
    parser.add_argument("--memory", type=float, default=2.0, metavar="GIB",
                        help="address-space limit of each sandboxed test in GiB (default 2); a unit-test search "
                        "stops itself an eighth below it (feedback to the model: 'search memory', or the release's "
                        "'search timeout' under its rules); an evaluation that keeps millions of states may need more")


def add_rule_arguments(parser: argparse.ArgumentParser, release_default: bool) -> None:
    """How answers are read and the soundness search judged: the AutoToS release's rules (an import's default) or
    genplan's stricter ones (a live run's default)."""
    if release_default:
        parser.add_argument("--genplan-rules", dest="release_rules", action="store_false",
                            help="genplan's own rules steer the replay: the whole first code block is the function, "
                            "a soundness search that stops at a state genplan's goal check rejects fails the goal "
                            "test, and one that fills the memory is genplan's 'search memory' feedback (default: the "
                            "release's rules; that state is then only reported as a finding, and such a search is the "
                            "release's 'search timeout')")
    else:
        parser.add_argument("--release-rules", dest="release_rules", action="store_true",
                            help="the AutoToS release's rules: its cut of the function out of an answer, no check "
                            "that a soundness search stopped at a real goal (reported as a finding instead), and a "
                            "search that fills the memory is the release's 'search timeout' (the release had no "
                            "memory limit)")


def rule_parameters(release_rules: bool) -> dict[str, Any]:
    """The loop settings of the two rule sets (add_rule_arguments)."""
    return {"extraction": "release" if release_rules else "genplan", "goal_reached_check": not release_rules,
            "memory_as_timeout": release_rules}


def check_limits(args: argparse.Namespace) -> None:
    """BadInput (one line) for limits that make no sense."""
    if args.eval_limit is not None and args.eval_limit < 0:
        raise BadInput("--eval-limit must not be negative")
    require_seconds("--eval-timeout", args.eval_timeout)
    require_seconds("--search-timeout", args.search_timeout)
    require_memory(args.memory)


def require_memory(gib: float | None) -> None:
    """BadInput (one line) for a --memory the sandbox cannot run with (None: not given)."""
    if gib is not None and not gib >= MIN_MEMORY_GIB:
        raise BadInput(f"--memory must be at least {MIN_MEMORY_GIB} GiB (64 MiB); got {gib:g}")


def add_run_memory_argument(parser: argparse.ArgumentParser) -> None:
    """--memory of `genplan run` and `genplan fork` (genplan-tui's says the same, tests/test_tui_views.py)."""
    parser.add_argument("--memory", type=float, metavar="GIB",
                        help="AutoToS presets: address-space limit of each sandboxed search in GiB (default 2), also "
                        "for a run that goes on (one that ran out of memory goes on with more)")


def print_summary(summary: dict[str, Any], as_json: bool, logged_calls: int | None = None) -> None:
    """An import's run on stdout: SUMMARY_KEYS and the run's account as JSON, or the account's lines for a
    person (with how many answers the log holds)."""
    from genplan.cli.account_view import account_lines, with_account
    from genplan.engine import api

    result = {key: summary[key] for key in SUMMARY_KEYS}
    if "status" in summary:
        result["status"] = summary["status"]
    if as_json:
        print(json.dumps(with_account(result, result["run_dir"])))
        return
    print(f"run directory: {result['run_dir']}")
    if logged_calls is not None:
        print(f"the log holds {logged_calls} answers")
    print("\n".join(account_lines(api.account(Path(str(result["run_dir"]))))))
