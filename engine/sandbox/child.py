"""What the forked child does: lock itself down, run the program on the task, report one JSON record.

Everything here runs in a process that will execute untrusted code, so the record it writes is only a
claim: the server re-checks its shape, measures time and memory itself, and the parent validates plans.
The child never returns into the server's code: every path ends in ``os._exit``.
"""

from __future__ import annotations

import _thread
import faulthandler
import io
import json
import linecache
import os
import random
import reprlib
import resource
import signal
import sys
import tempfile
import time
import types
from collections.abc import MutableSet, Set
from typing import Any

from genplan.engine.sandbox import confine, guard
from genplan.engine.sandbox.limits import Limits, apply_rlimits
from genplan.engine.sandbox.tracebacks import exception_line, program_traceback

RESULT_FD = 3
# Exit statuses of the child that the server explains (a program could fake them with os._exit; it
# would only mislabel its own failure).
EXIT_HARNESS_FAILURE = 70
EXIT_CHANNEL_LOST = 71
EXIT_OUT_OF_MEMORY = 72  # a MemoryError outside the program, and no memory left to report it
EXIT_WATCHDOG = 124
PROGRAM_FILE = "<program>"
PROGRAM_MODULE = "genplan_program"

_repr = reprlib.Repr()
_repr.maxstring = 200
_repr.maxother = 200
_repr.maxlist = 20
_repr.maxtuple = 20
_repr.maxset = 20
_repr.maxdict = 20
_repr.maxlevel = 4
MAX_RETURNED_REPR = 2000


def _bounded_repr(value: object) -> str:
    try:
        text = _repr.repr(value)
    except BaseException:  # noqa: BLE001 - a hostile __repr__ must not take the harness down
        text = f"<unprintable {type(value).__name__} object>"
    if len(text) > MAX_RETURNED_REPR:
        text = text[:MAX_RETURNED_REPR] + "..."
    return text


def _to_tuples(item: Any) -> Any:
    """JSON arrays back to the tuples the program expects (facts, typed objects, ('not', fact))."""
    if isinstance(item, list):
        return tuple(_to_tuples(x) for x in item)
    return item


REQUEST_FD = 4


def _redirect_fds(result_fd: int, output_fd: int, devnull_fd: int, request_fd: int) -> None:
    """0 = /dev/null, 1 and 2 = the output pipe, 3 = the result pipe, 4 = the request pipe (until the
    request is read); every other descriptor closed, so nothing of the server is reachable."""
    os.dup2(devnull_fd, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    # Move the two pipes out of the way first so that dup2 cannot clobber one with the other.
    moved_result = os.dup(result_fd)
    moved_request = os.dup(request_fd)
    os.dup2(moved_result, RESULT_FD)
    os.dup2(moved_request, REQUEST_FD)
    os.closerange(REQUEST_FD + 1, 1 << 20)


def _python_streams() -> None:
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")  # type: ignore[misc]
    out = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="backslashreplace")
    err = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
    )
    # the originals too: a program that restores sys.__stdout__ must still write into the pipe
    sys.stdout = sys.__stdout__ = out  # type: ignore[misc]
    sys.stderr = sys.__stderr__ = err  # type: ignore[misc]


# The watchdog's deadline; unknown (infinite) while the child waits for its request.
_hard_deadline = [float("inf")]


def _start_watchdog(server_pid: int) -> None:
    """Backstop if the server disappears or fails to stop us: the child ends itself."""

    def watch() -> None:
        while True:
            time.sleep(0.25)
            if os.getppid() != server_pid or time.monotonic() > _hard_deadline[0]:
                os._exit(EXIT_WATCHDOG)

    # _thread, not threading: Thread.start() waits until the thread runs, which costs milliseconds.
    _thread.stack_size(256 * 1024)
    _thread.start_new_thread(watch, ())


def _flush_streams() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()  # type: ignore[union-attr]
        except BaseException:  # noqa: BLE001 - the program may have closed or replaced them
            pass


def _send(record: dict[str, Any]) -> None:
    data = json.dumps(record, ensure_ascii=True).encode("ascii")
    view = memoryview(data)
    while view:
        written = os.write(RESULT_FD, view)
        view = view[written:]


def _read_request() -> bytes:
    chunks = []
    while True:
        chunk = os.read(REQUEST_FD, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(REQUEST_FD)
    return b"".join(chunks)


def run_child(
    run_dir: str,
    result_fd: int,
    output_fd: int,
    devnull_fd: int,
    request_fd: int,
    server_pid: int,
    read_roots: tuple[str, ...],
    loaded_denied: tuple[str, ...] = (),
    layers: dict[str, Any] | None = None,
) -> None:
    """Entry point right after fork. Prepares what does not depend on the request, confines itself (kernel
    layers, see confine.py), waits for the request (so the server can fork a spare child ahead of time), runs
    it. Never returns."""
    code = 0
    try:
        os.setsid()
        _redirect_fds(result_fd, output_fd, devnull_fd, request_fd)
        _prepare_process(run_dir, server_pid, read_roots, layers or {})
        _rehearse(run_dir, read_roots)
        data = _read_request()
        if not data:  # the server went away or discarded this spare
            os._exit(0)
        request = json.loads(data)
        code = _run(request, run_dir, read_roots, loaded_denied)
    except BaseException as exc:  # noqa: BLE001 - report harness failures instead of dying silently
        code = EXIT_HARNESS_FAILURE
        out_of_memory = isinstance(exc, MemoryError)
        try:
            _send({"kind": "sandbox-error", "detail": f"harness failure in the child: {type(exc).__name__}: {exc}"})
        except BaseException:  # noqa: BLE001 - typically the program closed the result channel, or no memory is left
            code = EXIT_OUT_OF_MEMORY if out_of_memory else EXIT_CHANNEL_LOST
    finally:
        os._exit(code)


# The environment every program sees, plus HOME and TMPDIR (its private directory).
CHILD_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONIOENCODING": "utf-8",
    # Numeric libraries must not start thread pools (new threads are refused for non-root users).
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def prepare_server_process(base: str) -> None:
    """Done once in the server before it forks anything: what every child needs and the server itself does
    not mind having. Each child then inherits it instead of redoing it (every page a child writes after
    fork costs a copy-on-write fault)."""
    os.environ.clear()
    os.environ.update({**CHILD_ENV, "HOME": base, "TMPDIR": base})
    _python_streams()  # wrappers on fds 0-2; the server never uses them (it talks through os.read/os.write)
    sys.path[:] = [p for p in sys.path if p and not os.path.realpath(p).startswith(base)]
    sys.argv[:] = [PROGRAM_FILE]


def _prepare_process(run_dir: str, server_pid: int, read_roots: tuple[str, ...], layers: dict[str, Any]) -> None:
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the only handler the server installs
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the server's interrupt -> KeyboardInterrupt
    os.chdir(run_dir)
    os.environ["HOME"] = run_dir
    os.environ["TMPDIR"] = run_dir
    tempfile.tempdir = run_dir
    faulthandler.enable(file=RESULT_FD, all_threads=False)
    # Before any second thread exists: seccomp filters and Landlock domains bind the calling thread and the
    # threads it starts later (the watchdog included; it calls functions the program could replace).
    confine.confine_child(os.getpid(), os.path.realpath(run_dir), read_roots, layers)
    _start_watchdog(server_pid)


def _run(request: dict[str, Any], run_dir: str, read_roots: tuple[str, ...], loaded_denied: tuple[str, ...]) -> int:
    limits = Limits.from_dict(request.get("limits", {}))
    _hard_deadline[0] = time.monotonic() + limits.time_limit + limits.grace_seconds + 5.0
    notes = apply_rlimits(limits, no_new_tasks=True)
    random.seed(request.get("random_seed", 0))
    source: str = request["source"]
    functions: list[str] = list(request.get("functions") or ["generate_solution", "get_plan"])
    objects, init, goal = _task_inputs(request)
    hidden = (os.path.realpath(run_dir), run_dir)
    linecache.cache[PROGRAM_FILE] = (len(source), None, source.splitlines(True), PROGRAM_FILE)
    module = types.ModuleType(PROGRAM_MODULE)
    module.__file__ = PROGRAM_FILE
    sys.modules[PROGRAM_MODULE] = module
    record: dict[str, Any] = {"notes": notes}

    if request.get("audit_hook", True):  # switched off only by tests of the kernel-level layers
        guard.install(guard.Policy(os.path.realpath(run_dir), read_roots, limits.max_files_created), loaded_denied)
    # ---- untrusted code from here on ----
    try:
        compiled = compile(source, PROGRAM_FILE, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        record.update(kind="syntax-error", **_describe_exception(exc, hidden))
        return _finish(record)
    started = time.perf_counter()
    try:
        exec(compiled, module.__dict__)
        function = None
        for name in functions:
            candidate = module.__dict__.get(name)
            if callable(candidate):
                function = name
                break
        if function is None:
            defined = sorted(n for n, v in module.__dict__.items() if callable(v) and not n.startswith("_"))[:20]
            record.update(kind="missing-function", function=functions[0])
            if defined:
                record["detail"] = "The functions it defines are: " + ", ".join(defined) + "."
            return _finish(record)
        record["function"] = function
        started = time.perf_counter()
        value = module.__dict__[function](objects, init, goal)
        record["runtime"] = time.perf_counter() - started
        # Late interrupts must not hit the harness while it checks the result.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except BaseException as exc:  # noqa: BLE001 - every exception of the program, SystemExit included
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        record["runtime"] = time.perf_counter() - started
        record.update(kind="exception", **_describe_exception(exc, hidden))
        return _finish(record)
    record.update(_check_returned(value, limits))
    return _finish(record)


def _describe_exception(exc: BaseException, hidden: tuple[str, ...]) -> dict[str, Any]:
    """Traceback and last line of the program's exception. An exception object whose attributes lie (a
    ``__getattribute__``, ``__traceback__`` or ``__cause__`` that raises or returns junk) is still reported as
    an exception of its real type, never as a failure of the harness."""
    try:
        return {"traceback": program_traceback(exc, PROGRAM_FILE, hidden), "exception": exception_line(exc, hidden)}
    except BaseException:  # noqa: BLE001 - whatever the object does, the program raised it
        pass
    try:
        name = type.__dict__["__name__"].__get__(type(exc))  # the real class name, past any metaclass
    except BaseException:  # noqa: BLE001
        name = "Exception"
    line = f"{name}: <the exception object could not be shown>"
    return {"traceback": line, "exception": line}


class OrderedSet(MutableSet):  # type: ignore[type-arg]
    """A set that iterates in insertion order and can be indexed, as the reference code of Stein et al. hands
    its programs their inputs under --faithful (the ``ordered_set`` package's OrderedSet, which is no
    subclass of ``set`` either). Written here; nothing is imported for it."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, iterable: Any = ()) -> None:
        self._items: dict[Any, None] = dict.fromkeys(iterable)

    @classmethod
    def _from_iterable(cls, iterable: Any) -> OrderedSet:
        return cls(iterable)

    def __contains__(self, item: object) -> bool:
        try:
            return item in self._items
        except TypeError:  # an unhashable item is in no set
            return False

    def __iter__(self) -> Any:
        return iter(self._items)

    def __reversed__(self) -> Any:
        return reversed(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: Any) -> Any:
        items = list(self._items)
        return OrderedSet(items[index]) if isinstance(index, slice) else items[index]

    def __repr__(self) -> str:
        return f"OrderedSet({list(self._items)!r})" if self._items else "OrderedSet()"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        if isinstance(other, (Set, set, frozenset)):
            return len(self) == len(other) and all(item in other for item in self)
        return NotImplemented

    def add(self, item: Any) -> None:
        self._items[item] = None

    def append(self, item: Any) -> None:
        self.add(item)

    def discard(self, item: Any) -> None:
        self._items.pop(item, None)

    def index(self, item: Any) -> int:
        return list(self._items).index(item)

    def copy(self) -> OrderedSet:
        return OrderedSet(self)

    def update(self, *others: Any) -> None:
        for other in others:
            for item in other:
                self.add(item)

    def union(self, *others: Any) -> OrderedSet:
        out = self.copy()
        out.update(*others)
        return out

    def intersection(self, *others: Any) -> OrderedSet:
        return OrderedSet(item for item in self if all(item in other for other in others))

    def difference(self, *others: Any) -> OrderedSet:
        return OrderedSet(item for item in self if not any(item in other for other in others))

    def symmetric_difference(self, other: Any) -> OrderedSet:
        return OrderedSet([*(i for i in self if i not in other), *(i for i in other if i not in self)])

    def issubset(self, other: Any) -> bool:
        return all(item in other for item in self)

    def issuperset(self, other: Any) -> bool:
        return all(item in self for item in other)

    def difference_update(self, *others: Any) -> None:
        for other in others:
            for item in other:
                self.discard(item)

    def intersection_update(self, other: Any) -> None:
        self._items = dict.fromkeys(item for item in self if item in other)


def _task_inputs(request: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The program's arguments: sets of strings and tuples, as the paper's encoding has them (with
    ``ordered_sets``: OrderedSets in the order the request lists them)."""
    kind: Any = OrderedSet if request.get("ordered_sets") else set
    return tuple(kind(_to_tuples(x) for x in request[key]) for key in ("objects", "init", "goal"))


# A run of a trivial program on a tiny task, walked by every spare child before its real request arrives.
_REHEARSAL_REQUEST = json.dumps(
    {
        "source": "def generate_solution(objects, init, goal):\n    return [f'(noop {len(objects)})']\n",
        "objects": [["a", "thing"]],
        "init": [["ready", "a"]],
        "goal": [["done", "a"]],
        "limits": Limits().to_dict(),
        "random_seed": 0,
    }
).encode("ascii")


def _rehearse(run_dir: str, read_roots: tuple[str, ...]) -> None:
    """Walk the common path of a run on a dummy request while this spare waits for its real one.

    CPython writes to every object it touches (reference counts), and after fork the first write to each
    page shared with the server costs a page copy: a few hundred copies, most of the harness's time per
    run. Paying for them here, before the request exists, takes them off the run's clock.
    """
    try:
        rehearsal(run_dir, read_roots)
    except Exception:  # noqa: BLE001 - only an optimisation: the real run does not depend on it
        pass


def rehearsal(run_dir: str, read_roots: tuple[str, ...]) -> dict[str, Any]:
    """The rehearsed run; returns its record. Leaves nothing the program could notice (no module, no
    linecache entry, no audit hook, no limits)."""
    request = json.loads(_REHEARSAL_REQUEST)
    limits = Limits.from_dict(request["limits"])
    inputs = _task_inputs(request)
    hook = guard.make_hook(guard.Policy(os.path.realpath(run_dir), read_roots, limits.max_files_created))
    compiled = compile(request["source"], PROGRAM_FILE, "exec", dont_inherit=True)
    hook("compile", (None, PROGRAM_FILE))
    namespace: dict[str, Any] = {"__name__": PROGRAM_MODULE}
    hook("exec", (compiled,))
    exec(compiled, namespace)
    value = namespace["generate_solution"](*inputs)
    record = {"notes": [], "function": "generate_solution", "runtime": time.perf_counter(), "peak_memory": 0}
    record.update(_check_returned(value, limits))
    json.dumps(record, ensure_ascii=True).encode("ascii")
    namespace.clear()  # the function and its globals would otherwise wait for a collection
    return record


def _check_returned(value: object, limits: Limits) -> dict[str, Any]:
    """Trust the value only if it is exactly a list of exactly str (no subclasses with custom behaviour)."""
    if type(value) is not list or not all(type(item) is str for item in value):
        return {"kind": "wrong-type", "returned": _bounded_repr(value), "returned_type": type(value).__name__}
    total = sum(len(item) for item in value)
    if total > limits.max_result_chars:
        return {
            "kind": "result-too-large",
            "detail": f"{len(value)} actions with {total} characters; the limit is {limits.max_result_chars}",
        }
    return {"kind": "plan", "plan": list(value)}


def _finish(record: dict[str, Any]) -> int:
    """Flush and close the output, then send the record and close the channel: the server sees the end
    of the run right away instead of after the (slow) teardown of the process."""
    _flush_streams()
    for fd in (1, 2):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        record["peak_memory"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except (OSError, ValueError):
        pass
    _send(record)
    os.close(RESULT_FD)
    return 0
