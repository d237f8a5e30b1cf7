"""genplan init DIR: write a commented domain.toml for a domain directory of any layout."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.common import EXIT_OK, BadInput, open_source, run_guarded
from genplan.engine.api.domains import domain_toml_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "init",
        help="write a commented domain.toml for a domain directory",
        description="Write DIR/domain.toml with every key explained and filled with what genplan infers "
        "(name from the PDDL, typed_objects from :types). The file is optional: genplan opens directories "
        "without it. Exit codes: 0 written, 2 bad input (not a domain directory, or the file exists).",
    )
    p.add_argument("dir", help="a domain directory (genplan's layout, the paper's benchmark layout, bare files)")
    p.add_argument("--force", action="store_true", help="overwrite an existing domain.toml")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    directory = Path(args.dir)
    if not directory.is_dir():
        raise BadInput(f"{directory}: not a directory")
    target = directory / "domain.toml"
    if target.exists() and not args.force:
        raise BadInput(f"{target}: already exists (use --force to overwrite it)")
    source = open_source(directory)
    try:
        target.write_text(domain_toml_text(source), encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"{target}: cannot be written ({exc.strerror or exc})") from None
    print(f"wrote {target} ({source.describe()})")
    return EXIT_OK
