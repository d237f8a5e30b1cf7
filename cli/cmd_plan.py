"""genplan plan DOMAIN PROBLEM: run a classical planner (Fast Downward, or the built-in search)."""

from __future__ import annotations

import argparse
import sys

from genplan.cli.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    load_task,
    print_json,
    require_between,
    require_seconds,
    run_guarded,
)
from genplan.engine.api.pddl import Task, plan_cost, solve

MIN_PLANNER_MB, MAX_PLANNER_MB = 64, 1_048_576  # the sandbox's floor; a TiB: beyond it, a typo


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "plan",
        help="find a plan with a classical planner",
        description="Find a plan for PROBLEM of DOMAIN. Optimal: A* with the maximum of LM-cut and a "
        "merge-and-shrink heuristic (where Fast Downward refuses LM-cut for a task, a search that supports it: "
        "h^max for conditional effects, blind for ADL); satisficing: eager greedy best-first search with the FF "
        "heuristic. --faithful: the paper's two planners instead, A* + LM-cut alone ('lm'; a task it refuses is "
        "not solved) and lazy greedy best-first search with FF and its preferred operators ('ff'). Uses Fast Downward when the "
        "up-fast-downward wheel is installed, otherwise a built-in search for small tasks; the planner that "
        "ran is reported on stderr. The plan goes to stdout in IPC format. Every plan is checked by genplan's "
        "validator on the task as read from your files first: a plan that fails is reported as a "
        "'planner/translation fault' and not printed. Fast Downward reads the task as genplan writes it back; "
        "when that rewrote anything (an 'object' type declared among :types, dropped action costs, ...), "
        "'unsolvable' is confirmed by the built-in search within the time limit or reported as "
        "'unknown (translation rewrote: ...)'. --json adds 'rewrites', the list of those changes. "
        "Exit codes: 0 plan found, 1 no plan (unsolvable, limit reached, unknown, or a planner/translation "
        "fault), 2 bad input.",
    )
    p.add_argument("domain", help="domain PDDL file, or a domain directory (genplan's layout, the paper's, bare files)")
    p.add_argument("problem", help="problem PDDL file, or with a domain directory the name of one of its tasks")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--optimal", dest="optimal", action="store_true", default=True, help="optimal plan (default)")
    mode.add_argument("--satisficing", dest="optimal", action="store_false", help="any plan, found fast")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="time limit in seconds (default 60)")
    p.add_argument("--memory", type=int, default=4096, metavar="MB",
                   help=f"memory limit in MB (default 4096; {MIN_PLANNER_MB} to {MAX_PLANNER_MB})")
    p.add_argument(
        "--planner",
        choices=["auto", "fast-downward", "builtin"],
        default="auto",
        help="auto (default): Fast Downward if installed, else the built-in search",
    )
    p.add_argument("--faithful", action="store_true",
                   help="the paper's planners as the reference code runs them: A* + LM-cut alone (--optimal; a task "
                   "LM-cut refuses is not solved, no other search is tried), lazy GBFS + FF with preferred operators "
                   "(--satisficing)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON: status (solved, unsolvable, limit, unknown, fault, error), planner, "
        "seconds, plan, cost (the plan's total-cost where the task minimizes it, else its length; null without "
        "a plan), metric ('total-cost' or 'plan-length'), message, rewrites",
    )
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    require_seconds("--timeout", args.timeout)
    require_between("--memory", args.memory, MIN_PLANNER_MB, MAX_PLANNER_MB)
    domain, problem = load_task(args.domain, args.problem)
    if args.faithful:  # the paper's planners as the reference runs them
        result = solve(domain, problem, args.optimal, args.timeout, args.memory, args.planner, lm_search="lmcut",
                       ff_search="lazy-preferred", fallback=False)
    else:
        result = solve(domain, problem, args.optimal, args.timeout, args.memory, args.planner)
    cost = plan_cost(domain, problem, result.plan) if result.plan is not None else None
    if args.json:
        print_json(
            {
                "status": result.status,
                "planner": result.planner,
                "seconds": round(result.seconds, 3),
                "plan": result.plan,
                # what the planner minimized: total-cost where the task asks for it, else the number of steps
                "cost": (cost if cost is not None else len(result.plan)) if result.plan is not None else None,
                "metric": "total-cost" if Task(domain, problem).uses_costs else "plan-length",
                "message": result.message,
                "rewrites": list(result.rewrites),
            }
        )
    else:
        print(result.summary(), file=sys.stderr)
        if cost is not None:  # action costs: the task minimizes total-cost
            print(f"plan cost: {cost:g}", file=sys.stderr)
        for step in result.plan or []:
            print(step)
    return EXIT_OK if result.solved else EXIT_NEGATIVE
