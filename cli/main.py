"""The `genplan` command: one subcommand module per verb, each with `register(subparsers)`."""

from __future__ import annotations

# Only what start-up has loaded already is imported here (not even typing), so that main catches ctrl+c before
# any import that takes time
import signal
import sys
from types import FrameType

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


def build_parser(only: str | None = None):  # noqa: ANN201 - an argparse.ArgumentParser (imported here, not above)
    """All commands (for --help), or just `only`: a command's module may import heavy parts of the
    engine (the model client, the sandbox), which the other commands should not pay for."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="genplan",
        description="Develop generalized plans for PDDL domains with LLMs (headless commands).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES if only is None else [only]:
        module = importlib.import_module(f"genplan.cli.cmd_{name}")
        module.register(sub)
    return parser


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    """ctrl+c: a KeyboardInterrupt where the program is; a second one waits (ignored) while the first is handled,
    so that a run records its stop undisturbed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """The command's exit code. ctrl+c at any moment (importing the command's modules included) ends it with one
    line on stderr and exit code 130: ``genplan: interrupted``, or what the command says (genplan run: the run is
    stopped, and how to resume it). A reader that stops early (``genplan ... | head``) ends it quietly with 141, as
    SIGPIPE ends other tools, never with a traceback."""
    try:
        previous = signal.signal(signal.SIGINT, _interrupt)
    except ValueError:  # not the main thread (a test calling main): Python's own handling stays
        previous = None
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, not at exit, where a closed pipe is an "Exception ignored" message
        return code
    except BrokenPipeError:
        import contextlib
        import os

        # what is still buffered for stdout is never to be written: point it at /dev/null for the exit's flush
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as interrupt:
        print(f"genplan: {interrupt.args[0] if interrupt.args else 'interrupted'}", file=sys.stderr, flush=True)
        previous = signal.SIG_DFL  # another ctrl+c while the process ends ends it at once, silently
        # CPython marks a KeyboardInterrupt that left an exec of a string (dataclasses and namedtuples make their
        # methods so while modules load) as unhandled, however it was caught, and ends the process by SIGINT
        # instead of the exit code; the next exec of a string clears the mark
        exec("pass")  # noqa: S102 - a constant
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _main(argv: list[str] | None) -> int:
    from genplan.engine.errors import GenplanError

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


if __name__ == "__main__":
    sys.exit(main())
