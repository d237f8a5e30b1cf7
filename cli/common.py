"""Shared helpers of the CLI commands: loading inputs with one-line errors, and exit codes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..engine.pddl import Domain, PddlError, Problem, load_domain, load_problem

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2


class BadInput(Exception):
    """Raised by commands for a one-line user error (exit code 2)."""


def error(message: str) -> int:
    print(f"genplan: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def warn(message: str) -> None:
    print(f"genplan: warning: {message}", file=sys.stderr)


def load_task(domain_path: str, problem_path: str) -> tuple[Domain, Problem]:
    """Load a domain and problem, printing their warnings; PddlError propagates as a one-liner."""
    domain = load_domain(domain_path)
    for w in domain.warnings:
        warn(f"{domain_path}: {w}")
    problem = load_problem(problem_path, domain)
    for w in problem.warnings:
        warn(f"{problem_path}: {w}")
    return domain, problem


def typed_setting_for(domain_path: str | Path, domain: Domain) -> bool:
    """Whether programs get typed objects: the domain directory's domain.toml decides, else the domain itself."""
    toml_file = Path(domain_path).resolve().parent / "domain.toml"
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
    except (PddlError, BadInput) as exc:
        return error(str(exc))
