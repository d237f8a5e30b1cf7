"""genplan costume DOMAIN_DIR --mapping MAP.toml --out DIR: a costumed copy of a domain directory."""

from __future__ import annotations

import argparse

from genplan.cli.common import EXIT_BAD_INPUT, EXIT_OK, error
from genplan.engine.api.variants import VariantError, build_costume_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "costume",
        help="rename every action, predicate, type and object of a domain by a mapping",
        description="Write a costumed variant of DOMAIN_DIR to DIR: the domain, every task of debug/, eval/ "
        "and probes/, and a generator that renames the original generator's output, all renamed by the "
        "mapping file (see docs/variants.md). The mapping is checked completely first; every problem is "
        "listed, one per line, and nothing is written.",
    )
    p.add_argument("domain_dir", help="the original domain directory, e.g. domains/ferry")
    p.add_argument("--mapping", required=True, metavar="MAP.toml", help="the costume mapping")
    p.add_argument("--out", required=True, metavar="DIR", help="the directory to write (e.g. domains/ferry-costumed)")
    p.add_argument("--force", action="store_true", help="regenerate DIR even if it is not empty")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        plan = build_costume_dir(args.domain_dir, args.mapping, args.out, force=args.force)
    except VariantError as exc:
        for problem in exc.problems:
            error(problem)
        return EXIT_BAD_INPUT
    tasks = sum(1 for name in plan.files if name.endswith(".pddl") and "/" in name)
    print(f"wrote {plan.out}: the costumed domain and {tasks} task(s)")
    return EXIT_OK
