"""The root of the errors a user can act on.

Every problem caused by what the user gave genplan (a file it cannot read or parse, a setting out of range, a
directory that is no domain, a log in an unknown format) is a :class:`GenplanError`. Its text is one line that
names the file or place it concerns, and the command-line entry points print it as ``genplan: <text>`` with
exit status 2 instead of a traceback. Internal failures stay ordinary exceptions.
"""

from __future__ import annotations


class GenplanError(Exception):
    """A problem the user can fix; ``str(error)`` is one line naming the file or place it concerns."""


class RunStopped(Exception):  # noqa: N818 - the name says what happened, as RunStatus.STOPPED does
    """The one way a run ends early on purpose, whoever asked: a person (step mode, the stop key, a declined
    manual answer) or a replay with no recorded answer left. Not an error: the run is recorded as stopped (a
    PDDLego+ trial as ended with ``reason``) and can be resumed. Subclasses carry what a handler needs more of
    (AutoToS's ``EvaluationStopped``: how far the evaluation got)."""

    def __init__(self, message: str = "stopped by the person", *, reason: str = "stopped") -> None:
        super().__init__(message)
        self.reason = reason  # the word a trial record keeps for it ("stopped", "out-of-answers")


def is_internal(error: BaseException) -> bool:
    """Whether an error that ended a run is a fault in genplan itself (a bug: an IndexError, CPython's AST race's
    SystemError), not a problem of what the person gave (GenplanError), of the machine (OSError: the disk is full),
    a stop, or ctrl+c. A run records an internal error with its traceback."""
    return not isinstance(error, (GenplanError, RunStopped, OSError, KeyboardInterrupt))
