"""Resource limits of one sandboxed run, and how the forked child applies them to itself.

Kept free of heavy imports: the fork server imports this module, and everything the server imports is
also visible to the untrusted program in the child.
"""

from __future__ import annotations

import math
import resource
from dataclasses import asdict, dataclass, fields
from typing import Any

GIB = 1024**3
MIB = 1024**2

# The paper's time limit (Stein et al.); Silver et al. used 30 s.
DEFAULT_TIME_LIMIT = 45.0


MIN_MEMORY_BYTES = 64 * MIB  # less than this, and the Python child cannot even start its harness
MIN_MEMORY_GIB = MIN_MEMORY_BYTES / GIB  # the same, as the --memory GIB options give it


@dataclass(frozen=True)
class Limits:
    """Everything a run may use. Soft and hard rlimits are set to the same value, so the program
    cannot raise them again (raising a hard limit needs privileges it does not have)."""

    time_limit: float = DEFAULT_TIME_LIMIT  # wall-clock seconds from the start of the child
    memory_bytes: int = 2 * GIB  # address space (RLIMIT_AS)
    grace_seconds: float = 1.0  # after the interrupt at the time limit, before the hard kill
    max_output_bytes: int = 16 * MIB  # printing more than this stops the run (reported as a failure)
    kept_output_bytes: int = 64 * 1024  # how much of what the program prints is kept in the record
    max_result_chars: int = 32 * MIB  # total characters of the returned plan
    file_size_bytes: int = 16 * MIB  # any one file the program writes in its temporary directory
    open_files: int = 64  # RLIMIT_NOFILE
    max_files_created: int = 64  # files the program may create (audit hook; defence in depth)

    def __post_init__(self) -> None:
        if not (self.time_limit > 0 and math.isfinite(self.time_limit)):
            raise ValueError(f"time limit must be a positive number of seconds, got {self.time_limit!r}")
        if self.memory_bytes < MIN_MEMORY_BYTES:
            raise ValueError(f"memory limit must be at least 64 MiB, got {self.memory_bytes} bytes")
        for name in ("max_output_bytes", "kept_output_bytes", "max_result_chars", "file_size_bytes", "open_files"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")

    @property
    def cpu_seconds(self) -> int:
        """RLIMIT_CPU: a backstop above the wall-clock limit (wall time normally ends the run first)."""
        return int(math.ceil(self.time_limit + self.grace_seconds)) + 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Limits:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def apply_rlimits(limits: Limits, no_new_tasks: bool) -> list[str]:
    """Set the rlimits of the calling process (the forked child, before any program code runs).

    Returns the names of limits that could not be set (reported by the server, never fatal).
    ``no_new_tasks`` sets RLIMIT_NPROC to 1: the kernel then refuses every new process or thread of this
    user for this process (it does not bind root, which the server compensates for).
    """
    wanted: list[tuple[str, int, int]] = [
        ("RLIMIT_CORE", resource.RLIMIT_CORE, 0),
        ("RLIMIT_CPU", resource.RLIMIT_CPU, limits.cpu_seconds),
        ("RLIMIT_AS", resource.RLIMIT_AS, int(limits.memory_bytes)),
        ("RLIMIT_FSIZE", resource.RLIMIT_FSIZE, int(limits.file_size_bytes)),
        ("RLIMIT_NOFILE", resource.RLIMIT_NOFILE, int(limits.open_files)),
        ("RLIMIT_MEMLOCK", resource.RLIMIT_MEMLOCK, 0),
        ("RLIMIT_MSGQUEUE", resource.RLIMIT_MSGQUEUE, 0),
    ]
    if no_new_tasks:
        wanted.append(("RLIMIT_NPROC", resource.RLIMIT_NPROC, 1))
    failed = []
    for name, which, value in wanted:
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            failed.append(name)
    return failed
