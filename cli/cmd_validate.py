"""genplan validate DOMAIN PROBLEM PLAN: check a plan and print the paper's feedback message."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    BadInput,
    load_task,
    print_json,
    resolve_task,
    run_guarded,
)
from genplan.engine.api.pddl import load_plan, plan_feedback, validate_plan


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "validate",
        help="validate a plan and print the feedback message",
        description="Validate PLAN (IPC format: one '(action arg ...)' per line) for PROBLEM of DOMAIN. "
        "Prints the feedback message the pipeline would give a model. "
        "Exit codes: 0 valid, 1 invalid, 2 bad input.",
    )
    p.add_argument("domain", help="domain PDDL file, or a domain directory (genplan's layout, the paper's, bare files)")
    p.add_argument("problem", help="problem PDDL file, or with a domain directory the name of one of its tasks")
    p.add_argument(
        "plan",
        nargs="?",
        help="plan file (default with a domain directory of the paper's layout: the task's reference plan)",
    )
    p.add_argument(
        "--style",
        choices=["stein", "silver"],
        default="stein",
        help="feedback messages of the strategy-refinement paper (stein, default) or of Silver et al.",
    )
    p.add_argument("--json", action="store_true", help="print the structured result as JSON")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    domain_file, problem_file, source = resolve_task(args.domain, args.problem)
    plan_file = args.plan
    if plan_file is None:
        reference = source.reference_plan(Path(problem_file)) if source is not None else None
        if reference is None:
            raise BadInput(f"{args.problem}: no plan given, and {args.domain} ships no reference plan for it")
        plan_file = str(reference)
    domain, problem = load_task(domain_file, problem_file)
    steps = load_plan(plan_file)
    result = validate_plan(domain, problem, steps)
    message = plan_feedback(result, domain, args.style)
    if args.json:
        print_json({**result.to_dict(), "table13": result.table13_id, "message": message})
    else:
        print(message)
        if result.cost is not None:  # action costs: the task minimizes total-cost
            print(f"Plan cost: {result.cost:g}")
    return EXIT_OK if result.valid else EXIT_NEGATIVE
