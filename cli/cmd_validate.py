"""genplan validate DOMAIN PROBLEM PLAN: check a plan and print the paper's feedback message."""

from __future__ import annotations

import argparse

from ..engine.pddl.plans import load_plan
from ..engine.pddl.validate import validate_plan
from .common import EXIT_NEGATIVE, EXIT_OK, load_task, print_json, run_guarded


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "validate",
        help="validate a plan and print the feedback message",
        description="Validate PLAN (IPC format: one '(action arg ...)' per line) for PROBLEM of DOMAIN. "
        "Prints the feedback message the pipeline would give a model. "
        "Exit codes: 0 valid, 1 invalid, 2 bad input.",
    )
    p.add_argument("domain", help="domain PDDL file")
    p.add_argument("problem", help="problem PDDL file")
    p.add_argument("plan", help="plan file")
    p.add_argument(
        "--style",
        choices=["stein", "silver"],
        default="stein",
        help="feedback messages of the strategy-refinement paper (stein, default) or of Silver et al.",
    )
    p.add_argument("--json", action="store_true", help="print the structured result as JSON")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    domain, problem = load_task(args.domain, args.problem)
    steps = load_plan(args.plan)
    result = validate_plan(domain, problem, steps, style=args.style)
    if args.json:
        print_json({**result.to_dict(), "table13": result.table13_id})
    else:
        print(result.message)
    return EXIT_OK if result.valid else EXIT_NEGATIVE
