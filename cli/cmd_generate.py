"""genplan generate DOMAIN_DIR --seed S --size NAME=VALUE ...: a new task from the domain's generator."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.common import EXIT_OK, MAX_SIZE, BadInput, require_between, run_guarded
from genplan.engine.api.domains import DomainDir, DomainDirError


def _size(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{text}'")
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the size '{name}' needs a whole number, got '{value}'") from None
    return name.strip(), number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help="generate a task with a domain's instance generator",
        description="Generate a problem with DOMAIN_DIR/generator.py. Sizes are given as NAME=VALUE; "
        "--list-sizes shows the generator's size parameters and their defaults.",
    )
    p.add_argument("domain_dir", help="a domain directory, e.g. domains/ferry")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--size", type=_size, action="append", default=[], metavar="NAME=VALUE", help="a size parameter")
    p.add_argument("--list-sizes", action="store_true", help="list the size parameters and exit")
    p.add_argument("--out", metavar="FILE", help="write the problem here instead of stdout")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    for name, value in args.size:
        require_between(f"--size {name}", value, 0, MAX_SIZE)
    try:
        ddir = DomainDir.open(args.domain_dir)
        if args.list_sizes:
            for name, (default, help_text) in ddir.parameters().items():
                print(f"{name} (default {default}): {help_text}")
            return EXIT_OK
        text = ddir.generate(args.seed, **dict(args.size))
    except DomainDirError as exc:
        raise BadInput(str(exc)) from None
    if args.out:
        Path(args.out).write_text(text)
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    return EXIT_OK
