"""Running Fast Downward (GPL: always a separate process, never imported): its translator, then its search.

Fast Downward's driver script (``fast-downward.py``) is itself a Python process that starts the translator (a
second Python process) and the search binary with CPU-time and address-space limits. Its own start-up costs
about 60 ms of CPU per plan, as much as translating a small task. Where the driver sits in the layout of the
``up-fast-downward`` wheel (``builds/release/bin/``: the ``downward`` binary and the ``fast_downward``
translator package) genplan starts the two components itself, as the driver would: the same command lines
(but the translator's Python started with ``-S``), the same limits (each component: RLIMIT_CPU of the whole
limit less the CPU time the components used before it, soft and hard one second apart; RLIMIT_AS of the memory
limit), the same exit codes and an output in the driver's form (``INFO ... command line string: ...``, then
the component's output, then ``translate exit code: N``), which
:func:`genplan.engine.planner.fast_downward_reason` reads. Any other layout (a Fast Downward checkout named by
$GENPLAN_FAST_DOWNWARD) goes through its driver, with the same arguments.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SAS_FILE = "output.sas"
PLAN_FILE = "plan.txt"
OUTPUT_FILE = "fast-downward.log"
# The driver's codes where it turns a component's failure into its own (driver/run_components.py)
_TRANSLATE_CRASHED, _TRANSLATE_CRITICAL_ERROR = 1, 30


def fast_downward_driver() -> Path | None:
    """The Fast Downward driver script: $GENPLAN_FAST_DOWNWARD, else the up-fast-downward wheel's copy."""
    override = os.environ.get("GENPLAN_FAST_DOWNWARD")
    if override:
        return Path(override) if Path(override).exists() else None
    spec = importlib.util.find_spec("up_fast_downward")  # locates the package without running it
    if spec is None or not spec.submodule_search_locations:
        return None
    driver = Path(list(spec.submodule_search_locations)[0]) / "downward" / "fast-downward.py"
    return driver if driver.exists() else None


@dataclass(frozen=True)
class Components:
    """Where the translator and the search of a Fast Downward build lie."""

    bin: Path  # builds/release/bin

    @property
    def search(self) -> Path:
        return self.bin / "downward"

    @classmethod
    def beside(cls, driver: Path) -> Components | None:
        """The release build next to ``driver``, when it has the wheel's layout (else None: use the driver)."""
        bin_dir = driver.resolve().parent / "builds" / "release" / "bin"
        search = bin_dir / "downward"
        translator = bin_dir / "fast_downward" / "translate" / "__main__.py"
        if search.is_file() and os.access(search, os.X_OK) and translator.is_file():
            return cls(bin_dir)
        return None


def run_fast_downward_files(
    driver: Path,
    work: Path,
    domain_file: str,
    problem_file: str,
    *,
    search: Sequence[str] | None,
    time_limit: int | None,
    memory_mb: int,
    wall_limit: float,
    translate_options: Sequence[str] = (),
) -> tuple[int, str]:
    """Fast Downward in ``work`` on two files there: the translator (writing ``output.sas``), then, given
    ``search`` options, the search (writing ``plan.txt``). ``time_limit``: CPU seconds for both together, as
    the driver's ``--overall-time-limit``. The exit code and the output are the driver's; the whole run is
    killed after ``wall_limit`` seconds (subprocess.TimeoutExpired), the backstop for a busy machine."""
    components = Components.beside(driver)
    if components is None:
        return _through_driver(driver, work, domain_file, problem_file, search, time_limit, memory_mb, wall_limit,
                               translate_options)
    return _ComponentRun(components, work, memory_mb, time_limit, wall_limit).run(
        domain_file, problem_file, search, translate_options)


def _through_driver(driver: Path, work: Path, domain_file: str, problem_file: str, search: Sequence[str] | None,
                    time_limit: int | None, memory_mb: int, wall_limit: float,
                    translate_options: Sequence[str]) -> tuple[int, str]:
    command = [sys.executable, str(driver)]
    if time_limit is not None:
        command += ["--overall-time-limit", f"{time_limit}s"]
    command += ["--overall-memory-limit", f"{memory_mb}M"]
    if search is None:
        command += ["--translate", domain_file, problem_file]
    else:
        command += ["--plan-file", PLAN_FILE, domain_file, problem_file]
    if translate_options:
        command += ["--translate-options", *translate_options]
    if search is not None:
        command += [*(["--search-options"] if translate_options else []), *search]
    return _run_in_own_group(command, work, wall_limit)


class _ComponentRun:
    """One run of the translator and the search, each in its own process group, under one wall-clock backstop."""

    def __init__(self, components: Components, work: Path, memory_mb: int, time_limit: int | None,
                 wall_limit: float) -> None:
        self.components = components
        self.work = work
        self.memory_bytes = memory_mb * 1024 * 1024
        self.time_limit = time_limit
        self.cpu_used = 0.0  # the components' CPU seconds so far (the driver counts its own too)
        self.wall_limit = wall_limit
        self.wall_used = 0.0
        self.output: list[str] = []

    def run(self, domain_file: str, problem_file: str, search: Sequence[str] | None,
            translate_options: Sequence[str]) -> tuple[int, str]:
        # -S: the translator needs the standard library and its own package only; without the site-packages'
        # start-up files (an editable install's finder among them) Python starts in a third of the time
        translate = [sys.executable, "-S", "-m", "fast_downward.translate", domain_file, problem_file, "--sas-file",
                     SAS_FILE, *translate_options]
        env = dict(os.environ, PYTHONPATH=f"{self.components.bin}:{os.environ.get('PYTHONPATH', '')}".strip(":"))
        code = self._component("translator", translate, None, env)
        if code == _TRANSLATE_CRASHED:  # a crash without an exception of its own
            code = _TRANSLATE_CRITICAL_ERROR
        self.output.append(f"translate exit code: {code}\n\n")
        if code == 0 and search is not None:
            command = [str(self.components.search), *search, "--internal-plan-file", PLAN_FILE]
            code = self._component("search", command, SAS_FILE, None)
            self.output.append(f"search exit code: {code}\n\n")
        return code, "".join(self.output)

    def _component(self, nick: str, command: list[str], stdin: str | None, env: dict[str, str] | None) -> int:
        limit = None if self.time_limit is None else int(max(0.0, self.time_limit - self.cpu_used) + 0.001)
        line = " ".join(shlex.quote(c) for c in command) + (f" < {stdin}" if stdin else "")
        self.output.append(f"INFO     {nick} time limit: {limit}s\nINFO     {nick} command line string: {line}\n")
        log = self.work / OUTPUT_FILE
        with open(log, "w") as out, open(self.work / stdin if stdin else os.devnull) as source:
            proc = subprocess.Popen(command, cwd=self.work, stdin=source, stdout=out, stderr=subprocess.STDOUT,
                                    env=env, start_new_session=True)
        _limit(proc.pid, limit, self.memory_bytes)
        code, cpu = _wait(proc, self.wall_limit - self.wall_used)
        self.wall_used += cpu.wall
        self.cpu_used += cpu.user + cpu.system
        self.output.append(log.read_text(errors="replace"))
        return code


@dataclass(frozen=True)
class _Usage:
    user: float
    system: float
    wall: float


def _wait(proc: subprocess.Popen[bytes], wall_limit: float) -> tuple[int, _Usage]:
    """Wait for ``proc`` with its resource usage (os.wait4: this child's own, whatever other threads reap); kill
    its whole group at ``wall_limit`` seconds, and on any exit path, then raise TimeoutExpired."""
    start = time.monotonic()
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        _kill_group(proc.pid)

    timer = threading.Timer(max(0.0, wall_limit), kill)
    timer.daemon = True
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
        _kill_group(proc.pid)  # a component's own children go too
    proc.returncode = os.waitstatus_to_exitcode(status)
    if killed.is_set():
        raise subprocess.TimeoutExpired(proc.args, wall_limit)
    return proc.returncode, _Usage(usage.ru_utime, usage.ru_stime, time.monotonic() - start)


def _limit(pid: int, cpu_seconds: int | None, memory_bytes: int) -> None:
    """The driver's limits (its limits.py) on a started component. Set from outside, not in a preexec_fn, which
    is unsafe in a process with threads (the app, a batch): CPU time counts from the process's start, and the
    address-space limit caps every allocation after the first microseconds of start-up."""
    try:
        if cpu_seconds is not None:
            try:
                resource.prlimit(pid, resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
            except ValueError:  # a hard limit already in place equal to the soft one
                resource.prlimit(pid, resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
        resource.prlimit(pid, resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    except ProcessLookupError:  # it has ended already
        pass


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _run_in_own_group(command: list[str], cwd: Path, timeout: float) -> tuple[int, str]:
    """Run a command in its own process group and kill the whole group on any exit path: Fast Downward's
    driver starts the translator and the search as children, which a plain kill of the driver would orphan."""
    proc = subprocess.Popen(
        command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=timeout)
        return proc.returncode, output or ""
    finally:
        _kill_group(proc.pid)  # the group may outlive the driver
        proc.wait()
