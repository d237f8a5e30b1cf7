"""Tests that share the machine and tests that must have it alone, across pytest-xdist's worker processes.

A readers-writer lock on files in a directory all workers see: every test holds ``machine.lock`` shared for its
whole run, an exclusive one holds it alone. Whoever comes takes ``turnstile.lock`` first, and an exclusive test
keeps it while it waits, so the shared tests that come after it queue behind it instead of starving it.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


@contextmanager
def machine_share(shared: Path, alone: bool) -> Iterator[None]:
    with open(shared / "turnstile.lock", "a+b") as turnstile, open(shared / "machine.lock", "a+b") as machine:
        fcntl.flock(turnstile, fcntl.LOCK_EX)  # behind an exclusive test that is waiting, if any
        if alone:
            fcntl.flock(machine, fcntl.LOCK_EX)  # wait for the tests running now to end
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        else:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
            fcntl.flock(machine, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(machine, fcntl.LOCK_UN)


class MachineTurns:
    """One worker's turns on the machine. A run of exclusive tests one after the other (a module of them, such
    as the sandbox's kernel tests) keeps the machine from the first to the last: the tests running elsewhere
    are waited for once, not before each of them, while every worker idles behind the turnstile."""

    def __init__(self, shared: Path) -> None:
        self.shared = shared
        self._alone: ExitStack | None = None

    @contextmanager
    def turn(self, alone: bool, next_alone: bool) -> Iterator[None]:
        if not alone:
            with machine_share(self.shared, alone=False):
                yield
            return
        if self._alone is None:
            stack = ExitStack()
            stack.enter_context(machine_share(self.shared, alone=True))
            self._alone = stack
        try:
            yield
        finally:
            if not next_alone:
                self._alone.close()
                self._alone = None
