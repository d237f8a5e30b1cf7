"""genplan import KIND ...: bring published runs of other systems into genplan's run format.

Each kind is a module with ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib

# kind -> module (under genplan.cli) that imports that kind of log
IMPORTERS: dict[str, str] = {
    "autotos": "import_autotos",
    "pddlego": "import_pddlego",
    "silver": "import_silver",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import",
        help="import published runs of other systems (replayed through genplan)",
        description="Replay published runs of other systems with their recorded answers through genplan's "
        "own loops, so they can be compared, reported and inspected like genplan runs.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND")
    for kind, module_name in IMPORTERS.items():
        module = importlib.import_module(f"genplan.cli.{module_name}")
        parser = kinds.add_parser(kind, help=(module.__doc__ or "").strip().splitlines()[0],
                                  description=(module.__doc__ or "").strip())
        module.add_arguments(parser)
        parser.set_defaults(func=module.run)
    p.set_defaults(func=lambda args: _no_kind(p))


def _no_kind(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2
