"""genplan generalize PROGRAM DOMAIN_DIR: the program on generated tasks of growing size, and on the probes."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from genplan.cli.common import EXIT_NEGATIVE, EXIT_OK, MAX_ORDERINGS, error, require_between, require_seconds
from genplan.engine.api.domains import DomainDir, DomainDirError
from genplan.engine.api.pddl import PddlError
from genplan.engine.api.programs import (
    DEFAULT_ORDERINGS,
    DEFAULT_SCALE,
    DEFAULT_SEED,
    DEFAULT_TASKS_PER_SIZE,
    DEFAULT_TIME_LIMIT,
    MIB,
    GeneralizeError,
    Limits,
    Program,
    ProgramError,
    SandboxError,
    StepResult,
    generalization_tables,
    generalize,
    parse_fixed,
    parse_scale,
    parse_sizes,
    scale_ladder,
    size_ladders,
)
from genplan.engine.api.reports import to_markdown, to_terminal


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generalize",
        help="test a program on generated tasks of growing size and on the domain's probes",
        description="Generate tasks of growing size with DOMAIN_DIR's instance generator, well beyond the eval "
        "set, and run PROGRAM on them under several input orderings. Each ladder (one per --sizes parameter, "
        "or --scale for all sizes together) stops at its first size with a failed task. The hand-written probe "
        "tasks (DOMAIN_DIR/probes/) are reported separately. Exit codes: 0 every size solved, 1 some size "
        "failed, 2 bad input.",
    )
    p.add_argument("program", help="the Python program (a .py file)")
    p.add_argument("domain_dir", help="a domain directory with a generator.py, e.g. domains/ferry")
    p.add_argument(
        "--sizes",
        action="append",
        default=[],
        metavar="NAME=A,B,C",
        help="grow one generator parameter through these values (repeatable: one ladder each)",
    )
    p.add_argument(
        "--scale",
        metavar="F1,F2,...",
        help="grow every size parameter together, as multiples of the eval set's largest values "
        f"(default when no --sizes: {','.join(f'{f:g}' for f in DEFAULT_SCALE)})",
    )
    p.add_argument("--set", action="append", default=[], metavar="NAME=N", help="fix a generator parameter")
    p.add_argument("--tasks-per-size", type=int, default=DEFAULT_TASKS_PER_SIZE, metavar="N", help="tasks per size (default 3)")
    p.add_argument("--orderings", type=int, default=DEFAULT_ORDERINGS, metavar="N", help="input orderings per task (default 4)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIME_LIMIT, metavar="S", help="time limit per run (default 45)")
    p.add_argument("--memory", type=int, default=2048, metavar="MB", help="memory limit per run in MiB (default 2048)")
    p.add_argument("--jobs", type=int, default=0, metavar="N", help="tasks run in parallel (default: number of cores)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"first generator seed (default {DEFAULT_SEED})")
    p.add_argument("--tasks-dir", metavar="DIR", help="keep the generated tasks in DIR")
    p.add_argument("--no-probes", action="store_true", help="skip the probe tasks")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON to FILE ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="also write the tables as Markdown to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=run)


def _progress(result: StepResult) -> None:
    coverage = f"{result.solved}/{result.tasks} solved" if result.tasks else result.status
    detail = f" - {result.failure}" if result.failure else ""
    print(f"  {result.step.label}: {coverage} ({result.seconds:.1f} s){detail}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    require_seconds("--timeout", args.timeout)
    require_between("--orderings", args.orderings, 1, MAX_ORDERINGS)
    try:
        if args.tasks_per_size < 1 or args.orderings < 1 or args.jobs < 0 or not args.timeout > 0 or args.memory < 64:
            raise GeneralizeError(
                "--tasks-per-size and --orderings must be at least 1, --jobs not negative, --timeout positive, "
                "--memory at least 64"
            )
        program = Program.from_file(args.program)
        problem = program.syntax_problem()
        if problem:
            raise GeneralizeError(f"{args.program}: {problem}")
        domain_dir = DomainDir.open(args.domain_dir)
        fixed = parse_fixed(args.set)
        ladders = size_ladders(domain_dir, parse_sizes(args.sizes), fixed) if args.sizes else []
        if args.scale or not args.sizes:
            factors = parse_scale(args.scale) if args.scale else list(DEFAULT_SCALE)
            ladders.append(scale_ladder(domain_dir, factors, fixed))
        limits = Limits(time_limit=args.timeout, memory_bytes=args.memory * MIB)
    except (GeneralizeError, ProgramError, DomainDirError, ValueError) as exc:
        return error(str(exc))
    if not args.quiet:
        print(f"genplan: {args.program} on {domain_dir.name}, {len(ladders)} ladder(s)", file=sys.stderr)
    try:
        report = generalize(
            program,
            domain_dir,
            ladders,
            tasks_per_size=args.tasks_per_size,
            orderings=args.orderings,
            limits=limits,
            jobs=args.jobs,
            seed=args.seed,
            tasks_dir=Path(args.tasks_dir) if args.tasks_dir else None,
            probes=not args.no_probes,
            on_step=None if args.quiet else _progress,
        )
    except (SandboxError, PddlError, DomainDirError, GeneralizeError) as exc:
        return error(str(exc))
    except KeyboardInterrupt:
        print("genplan: interrupted", file=sys.stderr)
        return 130
    tables = generalization_tables(report)
    if args.json == "-":
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(to_terminal(tables), end="")
    try:
        if args.json and args.json != "-":
            Path(args.json).write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
        if args.markdown:
            Path(args.markdown).write_text(to_markdown(tables, f"Generalization of {args.program}"), encoding="utf-8")
    except OSError as exc:
        return error(f"cannot write the results ({exc.strerror or exc})")
    return EXIT_OK if report.all_solved else EXIT_NEGATIVE
