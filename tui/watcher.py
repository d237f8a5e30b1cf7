"""Watching the domain directory and its runs with watchdog; changes reach the app as messages.

The runs may be in a directory of their own (``--runs DIR``, ``genplan-tui runs/``): that directory is watched
too, for new versions in its runs and for new runs (their run.json).

Editors save in odd ways (temporary files, rename over the original, several writes in a row), so
events are filtered to the files we show and debounced per path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from genplan.engine.api import runs as run_files

DEBOUNCE_S = 0.25
WATCHED_SUFFIXES = (".pddl", ".md", ".py", ".toml")
# the files of a run directory that make or change a run (a new run, a run that ended)
RUN_FILES = (run_files.META, run_files.SUMMARY)


def in_runs_dir(path: Path, runs_dir: Path) -> bool:
    """A version file of a run in ``runs_dir`` (any kind the Versions tree shows), or a run's run.json or
    summary.json."""
    from genplan.engine.api.versions import VERSION_DIRS

    name = path.name
    if name.startswith(".") or name.endswith("~"):
        return False
    try:
        parts = path.relative_to(runs_dir).parts
    except ValueError:
        return False
    if len(parts) == 2:
        return name in RUN_FILES
    return len(parts) == 3 and any(parts[1] == folder and path.suffix == suffix
                                   for folder, suffix in VERSION_DIRS.values())


def interesting(path: Path, domain_dir: Path, runs_dir: Path | None = None) -> bool:
    """Domain files, task files and the runs' versions (in the domain's .genplan/runs/ or in ``runs_dir``),
    new runs; nothing else."""
    if runs_dir is not None and in_runs_dir(path, runs_dir):
        return True
    name = path.name
    if name.startswith(".") or name.endswith("~") or path.suffix not in WATCHED_SUFFIXES:
        return False
    try:
        relative = path.relative_to(domain_dir)
    except ValueError:
        return False
    parts = relative.parts
    runs_parts = Path(run_files.RUNS_SUBDIR).parts  # (".genplan", "runs")
    if parts[0] == runs_parts[0]:
        return len(parts) == 5 and parts[1] == runs_parts[1] and parts[3] in ("strategies", "reflections", "programs")
    if len(parts) == 1:
        return name in ("domain.pddl", "domain.toml")
    return len(parts) == 2 and parts[0] in ("debug", "eval", "probes") and path.suffix == ".pddl"


class DomainWatcher:
    """Calls ``notify(path, deleted)`` (from a watchdog thread) after a quiet moment per changed file."""

    def __init__(self, domain_dir: Path, notify: Callable[[Path, bool], Any], runs_dir: Path | None = None) -> None:
        self.domain_dir = domain_dir.resolve()
        self.runs_dir = runs_dir.resolve() if runs_dir is not None else None
        self.notify = notify
        self._timers: dict[Path, threading.Timer] = {}
        self._lock = threading.Lock()
        self._observer: Any = None

    def start(self) -> None:
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:
                if event.is_directory or event.event_type not in ("created", "modified", "moved", "deleted", "closed"):
                    return
                target = getattr(event, "dest_path", "") or event.src_path
                watcher._changed(Path(str(target)), event.event_type == "deleted")

        self._observer = Observer()
        self._observer.daemon = True
        self._observer.schedule(Handler(), str(self.domain_dir), recursive=True)
        if self.runs_dir is not None and self.runs_dir.is_dir() and not self.runs_dir.is_relative_to(self.domain_dir):
            self._observer.schedule(Handler(), str(self.runs_dir), recursive=True)  # runs outside the domain
        self._observer.start()

    def _changed(self, path: Path, deleted: bool) -> None:
        if not interesting(path, self.domain_dir, self.runs_dir):
            return
        with self._lock:
            timer = self._timers.pop(path, None)
            if timer is not None:
                timer.cancel()
            timer = threading.Timer(DEBOUNCE_S, self._fire, (path, deleted))
            timer.daemon = True
            self._timers[path] = timer
            timer.start()

    def _fire(self, path: Path, deleted: bool) -> None:
        with self._lock:
            self._timers.pop(path, None)
        self.notify(path, deleted and not path.exists())

    def stop(self) -> None:
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None
