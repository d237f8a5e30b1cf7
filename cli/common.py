"""Shared helpers of the CLI commands: loading inputs with one-line errors, and exit codes."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from genplan.engine.api.domains import DomainDir, DomainDirError
from genplan.engine.api.pddl import Domain, PddlError, Problem, load_domain, load_problem
from genplan.engine.errors import GenplanError

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2

# Upper bounds of numeric flags: beyond them a value is a typo, and would only grow time or memory unboundedly.
MAX_SECONDS = 86_400.0  # a day
MAX_ORDERINGS = 1_000
MAX_SIZE = 100_000  # objects of one kind in a generated task


class BadInput(GenplanError):
    """Raised by commands for a one-line user error (exit code 2)."""


def require_seconds(flag: str, value: float) -> None:
    """A time limit: positive, finite and at most a day (BadInput otherwise)."""
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise BadInput(f"{flag} must be a positive number of seconds, at most {MAX_SECONDS:g}; got {value:g}")


def require_between(flag: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise BadInput(f"{flag} must be between {low} and {high}; got {value}")


def require_output_dir(flag: str, path: str | Path) -> Path:
    """A directory genplan may create or write into: not an existing file, and under a writable directory."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise BadInput(f"{flag} {target}: exists and is not a directory")
    existing = target
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise BadInput(f"{flag} {target}: {existing} is not a writable directory")
    return target


def require_input_dir(flag: str, path: str | Path) -> Path:
    if not Path(path).is_dir():
        raise BadInput(f"{flag} {path}: no such directory")
    return Path(path)


def error(message: str) -> int:
    print(f"genplan: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def warn(message: str) -> None:
    print(f"genplan: warning: {message}", file=sys.stderr)


def open_source(path: str | Path, tasks: list[Path] | None = None) -> DomainDir:
    """A domain source of any layout (directory or domain file); BadInput with one line otherwise."""
    try:
        return DomainDir.open(path, tasks=tasks)
    except DomainDirError as exc:
        raise BadInput(str(exc)) from None


def resolve_task(domain_arg: str, problem_arg: str) -> tuple[str, str, DomainDir | None]:
    """DOMAIN may be a domain file or a domain directory of any layout; PROBLEM a file or, with a directory,
    the name of one of its tasks (``instance-3``, ``task-00``, ``debug/task-00.pddl``)."""
    if not Path(domain_arg).is_dir():
        return domain_arg, problem_arg, None
    source = open_source(domain_arg)
    if Path(problem_arg).is_file():
        return str(source.domain_file), problem_arg, source
    found = source.find_task(problem_arg)
    if found is None:
        if Path(problem_arg).exists():  # a directory: the loader says so in its words
            return str(source.domain_file), problem_arg, source
        raise BadInput(f"{problem_arg}: no such problem file, and no task of that name in {domain_arg}")
    return str(source.domain_file), str(found), source


def load_task(domain_path: str, problem_path: str) -> tuple[Domain, Problem]:
    """Load a domain and problem, printing their warnings; PddlError propagates as a one-liner.
    ``domain_path`` may be a domain directory (see `resolve_task`)."""
    domain_path, problem_path, _ = resolve_task(domain_path, problem_path)
    domain = load_domain(domain_path)
    for w in domain.warnings:
        warn(f"{domain_path}: {w}")
    problem = load_problem(problem_path, domain)
    for w in problem.warnings:
        warn(f"{problem_path}: {w}")
    return domain, problem


def typed_setting_for(domain_path: str | Path, domain: Domain) -> bool:
    """Whether programs get typed objects: the domain directory's domain.toml decides, else the domain itself."""
    base = Path(domain_path).resolve()
    toml_file = (base if base.is_dir() else base.parent) / "domain.toml"
    if toml_file.exists():
        import tomllib

        try:
            return bool(tomllib.loads(toml_file.read_text()).get("typed_objects", domain.typed))
        except (tomllib.TOMLDecodeError, OSError) as exc:
            raise BadInput(f"{toml_file}: cannot be read as TOML ({exc})") from None
    return domain.typed


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=list))


def run_guarded(func, args) -> int:
    """Run a command body, turning our expected errors into one line and exit code 2."""
    try:
        return func(args)
    except (PddlError, BadInput, DomainDirError) as exc:
        return error(str(exc))


def add_faithful_options(p: argparse.ArgumentParser, what: str | None = None) -> None:
    """--faithful and --faithful-except (docs/reproduction.md); ``what``: --faithful's help, where it differs."""
    from genplan.engine.api.presets import FAITHFUL_HELP, faithful_except_help

    p.add_argument("--faithful", action="store_true", help=what or FAITHFUL_HELP)
    p.add_argument("--faithful-except", metavar="NAMES", help=faithful_except_help())


def faithful_spec(args: argparse.Namespace) -> str | None:
    """The --faithful spec the options ask for (None: genplan's own behaviour)."""
    from genplan.engine.api.presets import except_spec

    excluded = getattr(args, "faithful_except", None)
    if excluded is not None:
        return except_spec(excluded)
    return "all" if getattr(args, "faithful", False) else None


def interrupted_run(args: argparse.Namespace, run_dir: Path) -> None:
    """ctrl+c during a run: the run recorded its stop; the line the command prints (``genplan: ...``, raised as the
    KeyboardInterrupt's text) names the resume command. With --json, the same as one object on stdout."""
    from genplan.engine.api.runs import open_run

    resume = f"genplan run --resume {run_dir}"
    status = str(open_run(run_dir).meta().get("status"))
    message = (f"interrupted; the run is stopped: {run_dir} (resume with: {resume})" if status == "stopped"
               else f"interrupted; the run is {status}: {run_dir}")
    if getattr(args, "json", False):
        print(json.dumps({"status": status, "message": message, "resume": resume}), flush=True)
    raise KeyboardInterrupt(message)
