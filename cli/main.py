"""The `genplan` command: one subcommand module per verb, each with `register(subparsers)`."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys

from genplan.engine.errors import GenplanError

EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a tool its reader stopped reading

# Each module defines register(sub) adding a parser whose defaults include func(args) -> int.
_COMMAND_MODULES = [
    "validate",
    "plan",
    "show",
    "generate",
    "run",
    "costume",
    "anonymize",
    "eval",
    "batch",
    "reproduce",
    "report",
    "export",
    "generalize",
    "counterexample",
    "import",
    "pddlego",
    "autotos",
    "init",
    "edit",
    "fork",
]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """All commands (for --help), or just `only`: a command's module may import heavy parts of the
    engine (the model client, the sandbox), which the other commands should not pay for."""
    parser = argparse.ArgumentParser(
        prog="genplan",
        description="Develop generalized plans for PDDL domains with LLMs (headless commands).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES if only is None else [only]:
        module = importlib.import_module(f"genplan.cli.cmd_{name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command, its output read to the end or not: a reader that stops early (``genplan ... | head``) ends it
    quietly with 141, as SIGPIPE ends other tools, never with a traceback."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, not at exit, where a closed pipe is an "Exception ignored" message
        return code
    except BrokenPipeError:
        # what is still buffered for stdout is never to be written: point it at /dev/null for the exit's flush
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and argv[0] in _COMMAND_MODULES else None
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except GenplanError as exc:  # a problem with what the user gave: one line, never a traceback
        print(f"genplan: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("genplan: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
