"""The audit hook installed in each sandboxed child right before the program runs.

It refuses, with a PermissionError the program sees as an ordinary Python exception: network access,
starting processes, sending signals, raising rlimits, loading native code (ctypes, cffi, extension modules
from outside the Python installation), reading files outside the Python installation and the private
directory, and changing anything outside the private directory.

This is a friendly first layer, not a security boundary: it explains refusals in plain words, but a program
that rewrites this module's globals or introspects the interpreter (frames, closures, crafted bytecode) can
switch it off. What holds then is enforced by the kernel (confine.py: seccomp-bpf, Landlock, no_new_privs;
plus rlimits, process groups, namespaces and read-only mounts; see docs/sandbox.md), and the tests attack
with this hook disabled (tests/test_sandbox_kernel.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Imports refused by top-level package name.
DENIED_MODULES = frozenset(
    {
        "ctypes",
        "_ctypes",
        "cffi",
        "_cffi_backend",
        "subprocess",
        "_posixsubprocess",
        "multiprocessing",
        "_multiprocessing",
        "_posixshmem",
        "socket",
        "_socket",
        "ssl",
        "_ssl",
        "asyncio",
        "_asyncio",
        "pty",
        "sqlite3",
        "_sqlite3",
        "dbm",
        "_dbm",
        "_gdbm",
        "_xxsubinterpreters",
        "_xxinterpchannels",
        "_interpreters",
    }
)

# Events refused outright, by exact name or by prefix (ending in ".").
_DENIED_EXACT = {
    "os.system": "starting processes",
    "os.fork": "starting processes",
    "os.forkpty": "starting processes",
    "os.posix_spawn": "starting processes",
    "os.spawn": "starting processes",
    "os.exec": "starting processes",
    "os.startfile": "starting processes",
    "subprocess.Popen": "starting processes",
    "pty.spawn": "starting processes",
    "os.kill": "sending signals",
    "os.killpg": "sending signals",
    "signal.pthread_kill": "sending signals",
    "code.__new__": "creating code objects",
    "setopencodehook": "replacing the open-code hook",
    "gc.get_objects": "walking the interpreter's objects",
    "gc.get_referrers": "walking the interpreter's objects",
    "gc.get_referents": "walking the interpreter's objects",
    "sys.unraisablehook": None,  # harmless; listed so it is not treated as a path event
}
_DENIED_PREFIXES = {
    "socket.": "network access",
    "ctypes.": "loading native code",
    "resource.": "changing resource limits",
    "urllib.": "network access",
    "http.": "network access",
    "ftplib.": "network access",
    "smtplib.": "network access",
    "poplib.": "network access",
    "imaplib.": "network access",
    "nntplib.": "network access",
    "telnetlib.": "network access",
    "webbrowser.": "starting processes",
    "sqlite3.": "opening databases",
    "_winapi.": "starting processes",
}
# os.* events that only read (checked against the read policy); every other os.* or shutil.* event
# with path arguments must stay inside the private directory.
_READ_EVENTS = frozenset({"os.listdir", "os.scandir", "os.chdir", "os.getxattr", "os.listxattr"})
_HARMLESS_OS_EVENTS = frozenset({"os.putenv", "os.unsetenv"})
# Positions of dir_fd arguments of the events that have them: path index -> dir_fd index.
_DIR_FD = {
    "os.remove": {0: 1},
    "os.rmdir": {0: 1},
    "os.mkdir": {0: 2},
    "os.rename": {0: 2, 1: 3},
    "os.link": {0: 2, 1: 3},
    "os.symlink": {1: 2},
    "os.chmod": {0: 2},
    "os.chown": {0: 3},
    "os.utime": {0: 3},
}
_SPECIAL_READ_FILES = frozenset({"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"})
_SPECIAL_WRITE_FILES = frozenset({"/dev/null"})
_WRITE_FLAGS = os.O_CREAT | os.O_TRUNC | os.O_APPEND
# How many name-decided verdicts are remembered (a program may raise events with names of its own).
_MAX_REMEMBERED = 4096


@dataclass(frozen=True)
class Policy:
    private_dir: str  # realpath of the run's private directory
    read_roots: tuple[str, ...]  # realpaths of the Python installation (sys.path entries)
    max_files_created: int


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root if root.endswith("/") else root + "/")


def _deny(what: str) -> PermissionError:
    return PermissionError(f"the genplan sandbox does not allow {what}")


def make_hook(policy: Policy) -> Callable[[str, tuple[Any, ...]], None]:
    """Build the audit hook for ``policy``; its state lives in this closure."""
    private = policy.private_dir
    roots = policy.read_roots
    created = [0]
    # The verdicts of events decided by their name alone, remembered: id() raises an event for every object
    # copy.deepcopy visits, and the model's successor functions deep-copy states at every expansion.
    by_name: dict[str, str | None] = {}
    realpath = os.path.realpath
    fsdecode = os.fsdecode
    readlink = os.readlink

    def resolve(path: Any, dir_fd: object = None) -> str | None:
        if isinstance(path, int) or path is None:
            return None  # an already open descriptor (it passed these checks when it was opened)
        try:
            text = fsdecode(path)
        except TypeError:
            return None
        if isinstance(dir_fd, int) and dir_fd >= 0 and not text.startswith("/"):
            text = readlink(f"/proc/self/fd/{dir_fd}") + "/" + text
        return realpath(text)

    def readable(real: str) -> bool:
        if _inside(real, private) or real in _SPECIAL_READ_FILES:
            return True
        return any(_inside(real, root) for root in roots)

    def check_write(path: Any, dir_fd: object = None) -> None:
        real = resolve(path, dir_fd)
        if real is None or _inside(real, private) or real in _SPECIAL_WRITE_FILES:
            return
        raise _deny(f"changing files outside its private directory ({fsdecode(path)})")

    def check_read(path: Any, dir_fd: object = None) -> None:
        real = resolve(path, dir_fd)
        if real is None or readable(real):
            return
        raise _deny(f"reading {fsdecode(path)}")

    def decided_by_name(event: str, reason: str | None) -> None:
        if len(by_name) < _MAX_REMEMBERED:
            by_name[event] = reason
        if reason:
            raise _deny(reason)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event in by_name:
            known = by_name[event]
            if known is None:
                return
            raise _deny(known)
        if event == "open":
            path, _mode, flags = args
            if isinstance(path, int):
                return
            real = resolve(path)
            if real is None:
                return
            writes = (flags & os.O_ACCMODE) != os.O_RDONLY or flags & _WRITE_FLAGS
            if writes:
                if not (_inside(real, private) or real in _SPECIAL_WRITE_FILES):
                    raise _deny(f"writing files outside its private directory ({fsdecode(path)})")
                if flags & os.O_CREAT:
                    created[0] += 1
                    if created[0] > policy.max_files_created:
                        raise _deny(f"creating more than {policy.max_files_created} files")
                return
            if not readable(real):
                raise _deny(f"reading {fsdecode(path)}")
            if not _inside(real, private) and os.path.isdir(real):
                # A directory descriptor would let dir_fd-relative calls escape the path checks.
                raise _deny(f"opening the directory {fsdecode(path)}")
            return
        if event == "import":
            name = args[0] if args else ""
            if isinstance(name, str) and name.partition(".")[0] in DENIED_MODULES:
                raise _deny(f"importing {name}")
            # An extension module is being loaded from a file: only from the Python installation.
            if len(args) > 1 and isinstance(args[1], str) and args[1]:
                real = realpath(args[1])
                if not any(_inside(real, root) for root in roots):
                    raise _deny(f"loading native code from {args[1]}")
            return
        reason = _DENIED_EXACT.get(event)
        if reason:
            decided_by_name(event, reason)
        if event.startswith(("os.", "shutil.")):
            if event in _HARMLESS_OS_EVENTS or event in _DENIED_EXACT:
                return
            if event.startswith("os.exec") or event.startswith("os.spawn") or event.startswith("os.posix_spawn"):
                raise _deny("starting processes")
            check = check_read if event in _READ_EVENTS else check_write
            dir_fds = _DIR_FD.get(event, {})
            for index, arg in enumerate(args):
                if isinstance(arg, (str, bytes)) or hasattr(arg, "__fspath__"):
                    fd_index = dir_fds.get(index)
                    check(arg, args[fd_index] if fd_index is not None and fd_index < len(args) else None)
                elif arg is None and event in _READ_EVENTS and index == 0:
                    check(".")
            return
        for prefix, why in _DENIED_PREFIXES.items():
            if event.startswith(prefix):
                decided_by_name(event, why)
        decided_by_name(event, None)

    return hook


def python_installation() -> tuple[str, ...]:
    """What the program may read: the Python installation (prefixes, stdlib and site-packages paths)."""
    import sysconfig

    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    paths = sysconfig.get_paths()
    candidates += [paths.get(key, "") for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    roots: list[str] = []
    for entry in candidates:
        if not entry:
            continue
        real = os.path.realpath(entry)
        if real == "/" or not os.path.exists(real) or real in roots:
            continue
        roots.append(real)
    return tuple(roots)


def loaded_denied_modules() -> tuple[str, ...]:
    """Refused modules that are already imported (computed once in the server, before forking)."""
    return tuple(name for name in sys.modules if name.partition(".")[0] in DENIED_MODULES)


def install(policy: Policy, loaded_denied: tuple[str, ...] | None = None) -> None:
    """Forget the refused modules that are already loaded, then add the hook (cannot be removed)."""
    names = loaded_denied_modules() if loaded_denied is None else loaded_denied
    for name in names:
        sys.modules.pop(name, None)
    sys.addaudithook(make_hook(policy))
