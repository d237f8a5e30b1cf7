"""`genplan-tui DOMAIN_DIR`: the interactive terminal app.

Kept light: only argparse runs before the first screen; the engine is imported by workers later.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The model options of `genplan run`, as setting names of the engine's ModelSettings.
MODEL_OPTIONS = {
    "model": "model name as the server knows it (none: a person answers)",
    "base_url": "the server's OpenAI-style base URL",
    "api_key_env": "environment variable that holds the API key",
    "temperature": "sampling temperature (or none)",
    "max_tokens": "answer length limit",
    "seed": "sampling seed",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="genplan-tui",
        description="Watch, step through and correct genplan's pipeline on a PDDL domain directory.",
    )
    parser.add_argument("domain_dir", metavar="DOMAIN_DIR", help="a domain directory of any layout (genplan's, the paper's benchmark layout, domain.pddl with problem files)")
    parser.add_argument("--run", metavar="ID", help="reopen a run of this domain (its id or directory)")
    parser.add_argument("--replay", metavar="RUN", help="play a recorded run back event by event")
    parser.add_argument("--speed", type=float, default=1.0, help="replay speed factor (default 1)")
    parser.add_argument("--preset", help="pipeline preset (F5-3, F3-6, ...)")
    parser.add_argument("--step", action="store_true", help="start in step mode (pause before every request)")
    parser.add_argument("--config-file", type=Path, help="settings file (default: the user config directory)")
    for name, help_text in MODEL_OPTIONS.items():
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, help=help_text)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from genplan.engine.domainlib import DomainDir, DomainDirError

    domain_dir = Path(args.domain_dir)
    if domain_dir.is_file() and domain_dir.name == "domain.pddl":
        domain_dir = domain_dir.parent  # a bare domain file: its directory, with the problems beside it
    try:
        DomainDir.open(domain_dir)  # any layout: genplan's, the paper's benchmark layout, bare files
    except DomainDirError as exc:
        print(f"genplan-tui: {exc}", file=sys.stderr)
        return 2
    if args.speed <= 0:
        print("genplan-tui: --speed must be positive", file=sys.stderr)
        return 2
    if args.config_file is not None and not args.config_file.is_file():
        print(f"genplan-tui: {args.config_file}: config file does not exist", file=sys.stderr)
        return 2
    from .app import GenplanApp, LaunchOptions, resolve_run

    for run in (args.run, args.replay):
        if run is not None and not (resolve_run(domain_dir, run) / "run.json").is_file():
            print(f"genplan-tui: {run}: no such run of {domain_dir} (see its .genplan/runs/)", file=sys.stderr)
            return 2
    options = LaunchOptions(
        domain_dir=domain_dir,
        run=args.run,
        replay=args.replay,
        speed=args.speed,
        preset=args.preset,
        cli_settings={name: getattr(args, name) for name in MODEL_OPTIONS},
        config_file=args.config_file,
        step=args.step,
    )
    GenplanApp(options).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
