"""A search's time and memory limits, checked from inside its innermost loops.

A domain a model writes by accident can give one action billions of bindings (nine unconstrained parameters
over 40 objects: 40^9). Checking the clock once per expanded state then never happens again: the first
expansion enumerates bindings for days. So whatever enumerates (the built-in search's binding joins, the
quantifiers of ADL conditions and effects) calls :meth:`Budget.tick` once per candidate, and every few
thousand ticks the budget looks at the clock and at the memory the process has grown by since it started.
"""

from __future__ import annotations

import os
import time

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_EVERY = 2048  # ticks between two looks at the clock: about a millisecond of enumeration
_MEMORY_EVERY_S = 0.05  # seconds between two looks at the process's memory (a read of /proc)
CHUNK = 256  # enumerations may count in chunks of this many (a method call per binding costs too much)


class BudgetExceeded(Exception):
    """The search ran out of ``what``: "time" or "memory"."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux /proc), or None where that cannot be read."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


class Budget:
    """``seconds`` from now, and at most ``memory_mb`` more resident memory than the process has now."""

    def __init__(self, seconds: float, memory_mb: int | None = None) -> None:
        self.seconds = seconds
        self.memory_mb = memory_mb
        self.start = time.monotonic()
        self.deadline = self.start + seconds
        base = resident_bytes() if memory_mb is not None else None
        self.memory_ceiling = None if base is None or memory_mb is None else base + memory_mb * 1024 * 1024
        self._ticks = 0
        self._next_look = _EVERY
        self._next_memory = self.start

    def tick(self, count: int = 1) -> None:
        """``count`` units of enumeration; raises :class:`BudgetExceeded` (every few thousand units) past a limit."""
        self._ticks += count
        if self._ticks >= self._next_look:
            self._next_look = self._ticks + _EVERY
            self.check()

    def check(self) -> None:
        now = time.monotonic()
        if now > self.deadline:
            raise BudgetExceeded("time")
        if self.memory_ceiling is not None and now >= self._next_memory:
            self._next_memory = now + _MEMORY_EVERY_S
            resident = resident_bytes()
            if resident is not None and resident > self.memory_ceiling:
                raise BudgetExceeded("memory")

    def elapsed(self) -> float:
        return time.monotonic() - self.start
