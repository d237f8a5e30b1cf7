"""Who runs a run directory: a lock so that one process at a time works on it, and the owner's identity so
that a run whose process died is not shown as running forever.

The lock is an ``flock`` on ``run.lock`` in the run directory: the kernel releases it when the process ends,
however it ends (kill -9 included), so a stale lock never blocks a resume. ``run.json`` records the owning
process (pid and start time); a later open that finds ``"status": "running"`` with that process gone marks
the run ``interrupted``.

A run this process runs is also registered with its event bus and its version names (:func:`running_here`): a
person's edit of it (the TUI editing the run it shows going on) is numbered and logged by that bus, not beside it,
and takes no name the run has chosen.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from genplan.engine.errors import GenplanError
from genplan.engine.runs import layout
from genplan.engine.runs.status import RunStatus

LOCK_FILE = layout.LOCK
INTERRUPTED = RunStatus.INTERRUPTED


class RunBusy(GenplanError):
    """Another process is working on this run directory."""

    def __init__(self, message: str, holder: str = "?") -> None:
        super().__init__(message)
        self.holder = holder  # the pid run.lock names


def owner() -> dict[str, Any]:
    """This process, as recorded in run.json."""
    import psutil  # (here: every front end imports this module; psutil is a fortieth of a second)

    return {"pid": os.getpid(), "pid_started": psutil.Process().create_time()}


def owner_alive(meta: dict[str, Any]) -> bool | None:
    """Whether the process recorded in ``meta`` still runs (None: nothing recorded, by an older genplan)."""
    pid, started = meta.get("pid"), meta.get("pid_started")
    if not isinstance(pid, int) or not isinstance(started, (int, float)):
        return None
    import psutil

    try:
        created = float(psutil.Process(pid).create_time())
        return abs(created - started) < 0.01  # the same process, not another one that reuses the pid
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False


class RunLock:
    """Held while a process works on a run directory (``with RunLock(path): ...``)."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.run_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise RunBusy(f"{self.run_dir}: already running (pid {holder}); wait for it or stop it first",
                          holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# ------------------------------------------------------------------------------------ runs live in this process
class EditNames(Protocol):
    """How an edit of a run going on is named and written (``engine.runs.edits.VersionNames``)."""

    def write_edit(self, run_dir: Path, relative: str, text: str) -> str: ...


@dataclass(frozen=True)
class LiveRun:
    """What an edit needs of a run going on in this process: its bus's way of logging an event from outside the
    run's own sequence (``EventBus.publish_aside``) and its version names."""

    publish_aside: Callable[[Any], Any]
    names: EditNames


_LIVE: dict[Path, LiveRun] = {}
_LIVE_LOCK = threading.Lock()


@contextmanager
def running_here(run_dir: Path, live: LiveRun) -> Iterator[None]:
    """While the block runs, ``run_dir`` is a run of this process (``live``)."""
    key = Path(run_dir).resolve()
    with _LIVE_LOCK:
        _LIVE[key] = live
    try:
        yield
    finally:
        with _LIVE_LOCK:
            _LIVE.pop(key, None)


def live_run(run_dir: Path) -> LiveRun | None:
    """The run going on in ``run_dir`` in this process, else None."""
    with _LIVE_LOCK:
        return _LIVE.get(Path(run_dir).resolve())
