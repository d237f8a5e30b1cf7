"""Another process working on a run directory: a child that holds the run's lock (engine/runs/lock.py) until
the block ends, as a `genplan run` in another terminal does."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def lock_held_elsewhere(run_dir: Path) -> Iterator[subprocess.Popen[str]]:
    """Yields the holding process (its pid is what a refusal names); it lets go when the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from genplan.engine.runs.lock import RunLock\n"
         f"with RunLock({str(run_dir)!r}):\n    print('held', flush=True); sys.stdin.readline()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        release(holder)


def release(holder: subprocess.Popen[str]) -> None:
    """The holder lets go (the other process stops working on the run); nothing when it has already."""
    if holder.poll() is None:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
