"""genplan anonymize DOMAIN_DIR --out DIR: a copy of a domain directory with numbered names only."""

from __future__ import annotations

import argparse

from genplan.cli.common import EXIT_BAD_INPUT, EXIT_OK, error
from genplan.engine.api.variants import ANONYMOUS_DOMAIN, VariantError, build_anonymized_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "anonymize",
        help="rename every action, predicate, type and object of a domain to action1, predicate1, ...",
        description="Write an anonymized variant of DOMAIN_DIR to DIR: actions, predicates, types and "
        "parameters numbered in file order (action1, predicate1, type1, var1, ...), objects numbered per "
        "task (object1, ...), for the domain, every task and the generator's output.",
    )
    p.add_argument("domain_dir", help="the original domain directory, e.g. domains/ferry")
    p.add_argument("--out", required=True, metavar="DIR", help="the directory to write")
    p.add_argument("--name", default=ANONYMOUS_DOMAIN, help=f"the new domain name (default {ANONYMOUS_DOMAIN})")
    p.add_argument("--force", action="store_true", help="regenerate DIR even if it is not empty")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        plan = build_anonymized_dir(args.domain_dir, args.out, name=args.name, force=args.force)
    except VariantError as exc:
        for problem in exc.problems:
            error(problem)
        return EXIT_BAD_INPUT
    tasks = sum(1 for name in plan.files if name.endswith(".pddl") and "/" in name)
    print(f"wrote {plan.out}: the anonymized domain and {tasks} task(s)")
    return EXIT_OK
