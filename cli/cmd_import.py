"""genplan import KIND ...: bring published runs of other systems into genplan (one module per kind)."""

from __future__ import annotations

import argparse
import importlib

# kind -> module under genplan.cli exposing add_arguments(parser) and run(args) -> int
IMPORTERS: dict[str, str] = {
    "autotos": "import_autotos",
}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("import", help="import a published run of another system as a genplan run",
                            description="Import a published run (log) of another system as a genplan run.")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND")
    for kind, module_name in IMPORTERS.items():
        module = importlib.import_module(f"genplan.cli.{module_name}")
        doc = (module.__doc__ or kind).strip().splitlines()[0]
        kind_parser = kinds.add_parser(kind, help=doc, description=module.__doc__)
        module.add_arguments(kind_parser)
        kind_parser.set_defaults(func=module.run)
