"""genplan show DOMAIN PROBLEM: the task in the Python encoding that generated programs receive."""

from __future__ import annotations

import argparse

from genplan.cli.common import EXIT_OK, load_task, print_json, run_guarded, typed_setting_for
from genplan.engine.api.pddl import encode_task, render_task, render_task_abbreviated, shuffled_task


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="print a task in the Python encoding programs receive",
        description="Print PROBLEM as the Python sets a generalized plan receives: objects, init, goal. "
        "Objects are (name, type) tuples when the domain directory's domain.toml says typed_objects = true "
        "(else: when the domain declares types).",
    )
    p.add_argument("domain", help="domain PDDL file, or a domain directory (genplan's layout, the paper's, bare files)")
    p.add_argument("problem", help="problem PDDL file, or with a domain directory the name of one of its tasks")
    typed = p.add_mutually_exclusive_group()
    typed.add_argument("--typed", dest="typed", action="store_true", default=None, help="objects as (name, type)")
    typed.add_argument("--untyped", dest="typed", action="store_false", help="objects as names")
    p.add_argument("--shuffle", type=int, metavar="SEED", help="a seeded random order of objects, init and goal")
    p.add_argument(
        "--abbreviated", action="store_true", help="at most 10 objects per type and facts per predicate (Silver et al.)"
    )
    p.add_argument("--json", action="store_true", help="print JSON lists instead of Python text")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    domain, problem = load_task(args.domain, args.problem)
    typed = args.typed if args.typed is not None else typed_setting_for(args.domain, domain)
    task = encode_task(problem, typed, domain)
    if args.shuffle is not None:
        task = shuffled_task(task, args.shuffle)
    if args.json:
        print_json(task.to_dict())
    elif args.abbreviated:
        print(render_task_abbreviated(task))
    else:
        print(render_task(task))
    return EXIT_OK
