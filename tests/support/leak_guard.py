"""The suite's own hygiene: a test that leaves a process, a listening port or a file behind fails.

Checked where nothing the test made may still be alive: after the teardown of a module's last test (a module's
own fixtures may keep a server or a browser for its tests, never beyond them) and, for files, once at the end of
the session. What is looked for:

- **processes**: every process this worker started (its descendants) and every process that still carries this
  worker's marker in its environment (one that detached itself: a new session, a double fork) that is alive and
  was not there when the module began;
- **ports**: TCP sockets of this worker in the LISTEN state that were not open when the module began (a server
  thread that was never shut down);
- **files**: the new or deleted files ``git status`` shows in the checkout that it did not show at the start (a test
  wrote beside the sources instead of in its own temporary directory), and new files under the user's real
  genplan directories (every test has its own XDG directories, so nothing may arrive there).

A leak is reported as an error of the test whose teardown found it, naming each leaked thing; the files at the
end of the session fail the run with a section of their own. ``tests/test_leak_guard.py`` runs the guard on tests
that leak and expects it to fail them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

MARKER = "GENPLAN_TEST_WORKER_PID"  # inherited by every child; a detached process still carries it
GRACE_S = 2.0  # a process that was told to stop may take a moment to be gone (and reaped)


# ------------------------------------------------------------------------------ processes
def _processes() -> dict[int, tuple[int, str]]:
    """Every live process: pid -> (parent pid, command line); zombies left out (they hold nothing)."""
    found: dict[int, tuple[int, str]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            command = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # the command name may hold spaces and parentheses
        if fields[0] == "Z":
            continue
        found[int(entry.name)] = (int(fields[1]), command or stat[stat.index("(") + 1:stat.rindex(")")])
    return found


def _carries_marker(pid: int, marker: bytes) -> bool:
    try:
        return marker in Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False


def owned_processes(root: int | None = None) -> dict[int, str]:
    """The live processes this process started, directly or not, and those that carry its marker."""
    root = os.getpid() if root is None else root
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    owned: set[int] = set()
    stack = list(children.get(root, ()))
    while stack:
        pid = stack.pop()
        if pid not in owned:
            owned.add(pid)
            stack.extend(children.get(pid, ()))
    marker = f"{MARKER}={root}\0".encode()
    owned.update(pid for pid in table if pid != root and pid not in owned and _carries_marker(pid, marker))
    return {pid: table[pid][1] for pid in owned if pid in table}


# ------------------------------------------------------------------------------ ports
def _socket_inodes(pid: int) -> set[str]:
    inodes: set[str] = set()
    try:
        for fd in os.scandir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(fd.path)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def listening_ports(pid: int | None = None) -> dict[str, str]:
    """This process's listening TCP sockets: inode -> "address:port"."""
    pid = os.getpid() if pid is None else pid
    mine = _socket_inodes(pid)
    found: dict[str, str] = {}
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and inode in mine:  # 0A: LISTEN
                found[inode] = f"{table} port {int(local.rsplit(':', 1)[1], 16)}"
    return found


# ------------------------------------------------------------------------------ files
def checkout_changes(root: Path) -> set[str] | None:
    """The files ``git status`` shows as new or deleted in the checkout, as its lines; None outside a git checkout
    (an sdist, an archive). A tracked file changed meanwhile is left out: that is a person editing while the suite
    runs far more often than a test writing over a source."""
    try:
        done = subprocess.run(["git", "status", "--porcelain=v1", "--untracked-files=all"], cwd=root,
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return {line for line in done.stdout.splitlines() if line.startswith("??") or "D" in line[:2]}


def real_user_files() -> set[str]:
    """Files under the user's own genplan directories, as they are before the tests change XDG_* (each test gets
    its own directories, so none of them should ever appear here)."""
    home = Path.home()
    found: set[str] = set()
    for base in (home / ".config", home / ".cache", home / ".local" / "share", home / ".local" / "state"):
        folder = base / "genplan"
        if folder.is_dir():
            found.update(str(path) for path in folder.rglob("*"))
    return found


# ------------------------------------------------------------------------------ the plugin
@dataclass
class _ModuleStart:
    module: str
    processes: set[int]
    ports: set[str]


def _module_of(item: pytest.Item | None) -> str | None:
    return None if item is None else item.nodeid.split("::")[0]


def _kill(pids: list[int]) -> None:
    """Leaked processes are ended after being reported, so one leak does not become a failure of the next module."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


class LeakGuard:
    """Registered by tests/conftest.py in every pytest process (the controller and each xdist worker)."""

    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout
        self.start: _ModuleStart | None = None
        self.files_at_start: set[str] | None = None
        self.user_files_at_start: set[str] = set()
        self.file_leaks: list[str] = []

    # files: once per session, in the process that runs the session (not in a worker)
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        os.environ[MARKER] = str(os.getpid())
        if not os.environ.get("PYTEST_XDIST_WORKER"):
            self.files_at_start = checkout_changes(self.checkout)
            self.user_files_at_start = real_user_files()

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if os.environ.get("PYTEST_XDIST_WORKER"):
            return
        if self.files_at_start is not None:
            now = checkout_changes(self.checkout) or set()
            self.file_leaks += [f"in the checkout: {line}" for line in sorted(now - self.files_at_start)]
        self.file_leaks += [f"in the user's own directories: {path}"
                            for path in sorted(real_user_files() - self.user_files_at_start)]
        if self.file_leaks and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.file_leaks:
            terminalreporter.section("files left behind by the tests", red=True)
            for line in self.file_leaks:
                terminalreporter.line(line)

    # processes and ports: per module, in the process that runs its tests
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, None, None]:
        module = _module_of(item)
        if self.start is None or self.start.module != module:
            self.start = _ModuleStart(module or "", set(owned_processes()), set(listening_ports()))
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
        result = yield
        if self.start is None or _module_of(nextitem) == self.start.module:
            return result  # the module's own fixtures may still hold what its next test needs
        start, self.start = self.start, None
        leaks = self._leaks(start)
        if leaks:
            raise LeakError(f"{start.module} left behind:\n  " + "\n  ".join(leaks))
        return result

    def _leaks(self, start: _ModuleStart) -> list[str]:
        deadline = time.monotonic() + GRACE_S
        while True:
            processes = {pid: command for pid, command in owned_processes().items() if pid not in start.processes}
            ports = {inode: name for inode, name in listening_ports().items() if inode not in start.ports}
            if not (processes or ports) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        _kill(list(processes))
        return ([f"process {pid}: {command[:160]}" for pid, command in sorted(processes.items())]
                + [f"a listening socket ({name})" for name in ports.values()])


class LeakError(Exception):
    """A module left a process or a listening port behind."""
