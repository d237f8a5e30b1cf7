"""The fork server: a pre-started Python process that forks one fresh child per run.

Started by the parent (see launcher.py) with a scrubbed environment and a fixed PYTHONHASHSEED, possibly
inside new user/network/pid/mount namespaces. It reads run requests (frames on stdin), forks a child per
request (child.py), enforces the wall-clock limit (SIGINT at the limit so the program shows where it was,
SIGKILL of the whole process group after a grace period), caps the output, reaps the child with its
resource usage, removes every process the run left behind, and answers with one frame on stdout.

Everything this module imports is visible to the untrusted program after fork, so it imports nothing
that opens sockets or starts processes.
"""

from __future__ import annotations

import errno
import gc
import importlib
import json
import os
import selectors
import shutil
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from genplan.engine.sandbox import child, confine, guard, protocol
from genplan.engine.sandbox.limits import Limits
from genplan.engine.sandbox.tracebacks import clean_fault_dump

if TYPE_CHECKING:
    from resource import struct_rusage

# Loaded once here so that the children do not read them from disk on every run.
PRELOAD = (
    "abc", "array", "bisect", "collections", "collections.abc", "contextlib", "copy", "dataclasses",
    "datetime", "decimal", "enum", "fractions", "functools", "heapq", "itertools", "json", "math",
    "numbers", "operator", "pprint", "random", "re", "reprlib", "statistics", "string",
    "textwrap", "time", "traceback", "types", "typing", "warnings", "weakref",
)  # fmt: skip

CHILD_KINDS = frozenset(
    {"plan", "exception", "wrong-type", "syntax-error", "missing-function", "result-too-large", "sandbox-error"}
)
_TEXT_BOUNDS = {
    "traceback": 30_000,
    "exception": 4_000,
    "returned": 4_000,
    "returned_type": 200,
    "function": 200,
    "detail": 2_000,
}
FINISH_BACKSTOP = 3.0  # seconds after the kill before a run is closed even if its pipes stay open
SWEEP_INTERVAL = 0.1
# Prepared children kept per server, forked in batches: after every fork, each page the server writes costs it
# a copy (the page is shared with the new child), so forking several children at once pays that once per batch.
SPARES = 4
SPARES_LOW_WATER = 1  # refill (to SPARES) when this few are left and no run is active


@dataclass
class Spare:
    """A forked child that has prepared itself and waits for its request."""

    pid: int
    run_dir: str
    result_fd: int
    output_fd: int
    request_fd: int


@dataclass
class Run:
    request_id: object
    pid: int
    run_dir: str
    limits: Limits
    result_fd: int
    output_fd: int
    started: float
    deadline: float
    hash_seed: int
    result: bytearray = field(default_factory=bytearray)
    output: bytearray = field(default_factory=bytearray)
    output_total: int = 0
    result_open: bool = True
    output_open: bool = True
    interrupted: bool = False
    kill_at: float | None = None
    killed_at: float | None = None
    stop_reason: str | None = None  # "output-limit", "result-too-large"
    status: int | None = None
    rusage: struct_rusage | None = None
    ended: float | None = None
    record: dict[str, Any] | None = None
    fault: str | None = None
    # The newest pid of the machine when the program got its request (root without namespaces only):
    # every process the program starts gets a later pid, which lets the sweep look at those alone.
    pids_after: int | None = None
    ran_program: bool = True  # False for discarded spares: they never ran anything but our code


class Server:
    def __init__(self, base: str, namespaced: bool) -> None:
        self.base = base
        self.namespaced = namespaced
        self.pid = os.getpid()
        self.hash_seed = int(os.environ.get("PYTHONHASHSEED", "0") or 0)  # read before the env is replaced
        self.read_roots = guard.python_installation()
        self.denied_loaded = guard.loaded_denied_modules()
        # Children can neither ptrace the server nor open its /proc/<pid>/mem (nor can other processes of
        # this user); the kernel layers every child installs on itself are probed once here.
        self.undumpable = confine.make_undumpable()
        disabled = set(os.environ.get("GENPLAN_SANDBOX_DISABLED", "").split(","))
        self.layers = {name: value for name, value in confine.available_layers().items() if name not in disabled}
        self.selector = selectors.DefaultSelector()
        self.frames = protocol.FrameBuffer()
        self.runs: dict[int, Run] = {}  # running, by child pid
        self.dying: dict[int, Run] = {}  # answered and killed, not yet reaped
        self.spares: list[Spare] = []  # forked, prepared, waiting for a request (oldest first)
        self.awaiting_body: dict[str, Any] | None = None
        self.counter = 0
        self.closing = False
        self.last_sweep = 0.0
        self.devnull = os.open(os.devnull, os.O_RDWR)
        # SIGCHLD wakes the select loop through the wakeup pipe.
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(self.wake_w, warn_on_full_buffer=False)
        os.set_blocking(0, False)
        self.selector.register(0, selectors.EVENT_READ, "requests")
        self.selector.register(self.wake_r, selectors.EVENT_READ, "wake")

    # ------------------------------------------------------------------ loop
    def serve(self) -> None:
        protocol.enlarge_pipe(1)  # answers to the parent
        # Objects that exist now are never collected again: a collection in a child would otherwise touch
        # (and copy) every page of the inherited heap.
        gc.freeze()
        self.spares.append(self.fork_child())
        self.send({"op": "ready", **self.describe()})
        while not (self.closing and not self.runs):
            for key, _events in self.selector.select(self.next_timeout()):
                tag = key.data
                if tag == "requests":
                    self.read_requests()
                elif tag == "wake":
                    self.drain_wakeups()
                else:
                    kind, run = tag
                    self.read_run(run, kind)
            self.reap()
            self.enforce_deadlines()
            self.finish_ready_runs()
            self.sweep()
            if not self.closing:
                self.refill_spares()

    def refill_spares(self) -> None:
        """Keep prepared children ready, so that a request only has to wake one up. Forking is done while no
        run is active (it would delay noticing a run's end), unless none is left at all."""
        if not self.spares:
            self.spares.append(self.fork_child())  # without any spare the next request cannot run
        if not self.runs and len(self.spares) <= SPARES_LOW_WATER:
            while len(self.spares) < SPARES:
                try:
                    self.spares.append(self.fork_child())
                except OSError:
                    break  # e.g. a process limit: the spares there are will do

    def next_timeout(self) -> float | None:
        if not self.runs:
            return 0.5 if self.dying else None
        now = time.monotonic()
        moments = []
        for run in self.runs.values():
            if run.killed_at is not None:
                moments.append(run.killed_at + FINISH_BACKSTOP)
            elif run.kill_at is not None:
                moments.append(run.kill_at)
            else:
                moments.append(run.deadline)
        timeout = max(0.0, min(moments) - now)
        if self.namespaced or os.geteuid() == 0:
            timeout = min(timeout, SWEEP_INTERVAL)
        return timeout

    def describe(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "namespaced": self.namespaced,
            "euid": os.geteuid(),
            "hash_seed": self.hash_seed,
            "python": sys.version.split()[0],
            "writable_mounts": writable_mounts(self.base) if self.namespaced else None,
            "seccomp": self.layers.get("seccomp"),
            "landlock": self.layers.get("landlock", 0),
            "server_undumpable": self.undumpable,
        }

    # -------------------------------------------------------------- requests
    def read_requests(self) -> None:
        """A run request is two frames: a small JSON header the server reads (id, limits) and the body
        (program and task) that it hands to the child without decoding it."""
        while True:
            try:
                data = os.read(0, 1 << 20)
            except BlockingIOError:
                return
            if not data:  # the parent is gone: stop everything
                self.shutdown()
                return
            for frame in self.frames.feed_raw(data):
                if self.awaiting_body is not None:
                    header, self.awaiting_body = self.awaiting_body, None
                    self.start(header, frame)
                    continue
                message = protocol.decode(frame)
                op = message.get("op")
                if op == "run":
                    self.awaiting_body = message
                elif op == "shutdown":
                    self.shutdown()

    def shutdown(self) -> None:
        self.closing = True
        try:
            self.selector.unregister(0)
        except (KeyError, ValueError):
            pass
        for spare in self.spares:
            self.discard_spare(spare)
        self.spares.clear()
        closed = list(self.runs.values())
        for run in closed:
            self.kill(run)
        deadline = time.monotonic() + 2.0
        while (self.runs or self.dying) and time.monotonic() < deadline:
            self.reap()
            for run in list(self.runs.values()):
                if run.status is not None:
                    self.close_run(run)
            time.sleep(0.01)
        for run in list(self.runs.values()):
            self.close_run(run)
        for run in list(self.dying.values()):
            remove_tree(run.run_dir)
        # Reaped by now, but processes that left their group may remain in those runs' sessions.
        self.sweep(force=True, finished=closed)

    def fork_child(self) -> Spare:
        """Fork a child that prepares itself and then waits for a request on its request pipe."""
        self.counter += 1
        run_dir = os.path.join(self.base, f"run-{self.counter}")
        os.mkdir(run_dir, 0o700)
        result_r, result_w = os.pipe()
        output_r, output_w = os.pipe()
        request_r, request_w = os.pipe()
        protocol.enlarge_pipe(result_w)
        protocol.enlarge_pipe(request_w)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            child.run_child(
                run_dir, result_w, output_w, self.devnull, request_r, self.pid, self.read_roots, self.denied_loaded,
                self.layers,
            )
        for fd in (result_w, output_w, request_r):
            os.close(fd)
        return Spare(pid, run_dir, result_r, output_r, request_w)

    def discard_spare(self, spare: Spare) -> None:
        for fd in (spare.request_fd, spare.result_fd, spare.output_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        _kill_quietly(spare.pid)
        self.dying[spare.pid] = Run(
            request_id=None, pid=spare.pid, run_dir=spare.run_dir, limits=Limits(), result_fd=-1, output_fd=-1,
            started=0.0, deadline=0.0, hash_seed=self.hash_seed, result_open=False, output_open=False,
            ran_program=False,
        )

    def start(self, request: dict[str, Any], body: bytes) -> None:
        if self.closing:
            return
        request_id = request.get("id")
        try:
            limits = Limits.from_dict(request.get("limits") or {})
        except (TypeError, ValueError) as exc:
            self.send({"op": "result", "id": request_id, "kind": "sandbox-error", "detail": f"bad limits: {exc}"})
            return
        spare = self.spares.pop(0) if self.spares else self.fork_child()
        pids_after = _last_pid() if self.sweeps_by_session() else None
        started = time.monotonic()
        try:
            os.set_blocking(spare.request_fd, True)
            protocol.write_all(spare.request_fd, body)
        except OSError:
            pass  # the child died while preparing: reported as a crash below
        os.close(spare.request_fd)
        os.set_blocking(spare.result_fd, False)
        os.set_blocking(spare.output_fd, False)
        run = Run(
            request_id=request_id,
            pid=spare.pid,
            run_dir=spare.run_dir,
            limits=limits,
            result_fd=spare.result_fd,
            output_fd=spare.output_fd,
            started=started,
            deadline=started + limits.time_limit,
            hash_seed=self.hash_seed,
            pids_after=pids_after,
        )
        self.runs[spare.pid] = run
        self.selector.register(spare.result_fd, selectors.EVENT_READ, ("result", run))
        self.selector.register(spare.output_fd, selectors.EVENT_READ, ("output", run))

    # ------------------------------------------------------------ run pipes
    def read_run(self, run: Run, kind: str) -> None:
        fd = run.result_fd if kind == "result" else run.output_fd
        while (run.result_open if kind == "result" else run.output_open):
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.close_pipe(run, kind)
                if kind == "result":
                    # The child has finished (or closed its channel): nothing of the run may go on.
                    self.kill(run)
                    run.record, run.fault = parse_child_result(bytes(run.result))
                    if run.ended is None:
                        run.ended = time.monotonic()
                return
            if kind == "result":
                run.result += data
                if len(run.result) > 2 * run.limits.max_result_chars + (1 << 20):
                    run.stop_reason = run.stop_reason or "result-too-large"
                    self.close_pipe(run, kind)
                    self.kill(run)
                    return
            else:
                run.output_total += len(data)
                room = run.limits.kept_output_bytes - len(run.output)
                if room > 0:
                    run.output += data[:room]
                if run.output_total > run.limits.max_output_bytes:
                    run.stop_reason = run.stop_reason or "output-limit"
                    self.close_pipe(run, kind)
                    self.kill(run)
                    return

    def close_pipe(self, run: Run, kind: str) -> None:
        fd = run.result_fd if kind == "result" else run.output_fd
        is_open = run.result_open if kind == "result" else run.output_open
        if not is_open:
            return
        try:
            self.selector.unregister(fd)
        except (KeyError, ValueError):
            pass
        os.close(fd)
        if kind == "result":
            run.result_open = False
        else:
            run.output_open = False

    def drain_wakeups(self) -> None:
        try:
            while os.read(self.wake_r, 4096):
                pass
        except BlockingIOError:
            pass

    # --------------------------------------------------------- process control
    def kill(self, run: Run) -> None:
        if run.killed_at is None:
            run.killed_at = time.monotonic()
        actions: tuple[Callable[[], None], ...] = (
            lambda: os.killpg(run.pid, signal.SIGKILL), lambda: os.kill(run.pid, signal.SIGKILL)
        )
        for action in actions:
            try:
                action()
            except (ProcessLookupError, PermissionError):
                pass

    def reap(self) -> None:
        while True:
            try:
                pid, status, rusage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            except InterruptedError:
                continue
            if pid == 0:
                return
            run = self.runs.get(pid)
            if run is not None and run.status is None:
                run.status, run.rusage = status, rusage
                if run.ended is None:
                    run.ended = time.monotonic()
                self.kill(run)  # its group may still hold processes the program started
                continue
            dead = self.dying.pop(pid, None)
            if dead is not None:
                _kill_group_quietly(pid)
                remove_tree(dead.run_dir)
            else:
                for spare in self.spares:
                    if spare.pid == pid:
                        # A spare died before it got work (should not happen): forget it.
                        self.spares.remove(spare)
                        for fd in (spare.request_fd, spare.result_fd, spare.output_fd):
                            os.close(fd)
                        remove_tree(spare.run_dir)
                        break

    def enforce_deadlines(self) -> None:
        now = time.monotonic()
        for run in self.runs.values():
            if run.status is not None or run.killed_at is not None:
                continue
            if not run.interrupted and now >= run.deadline:
                run.interrupted = True
                run.kill_at = now + run.limits.grace_seconds
                try:
                    os.kill(run.pid, signal.SIGINT)  # KeyboardInterrupt where the program is
                except ProcessLookupError:
                    pass
            elif run.interrupted and run.kill_at is not None and now >= run.kill_at:
                self.kill(run)

    def sweeps_by_session(self) -> bool:
        return not self.namespaced and os.geteuid() == 0

    def sweep(self, force: bool = False, finished: Iterable[Run] = ()) -> None:
        """Kill every process that is not the server, a spare or a run's child (orphans, escapees)."""
        now = time.monotonic()
        if not force and now - self.last_sweep < SWEEP_INTERVAL:
            return
        self.last_sweep = now
        if self.namespaced:
            # Inside our own pid namespace every other process is ours, and only run children are allowed.
            allowed = {self.pid} | set(self.runs)
            allowed.update(spare.pid for spare in self.spares)
            for pid in _proc_pids():
                if pid not in allowed:
                    _kill_quietly(pid)
        elif self.sweeps_by_session():
            # Root is not bound by RLIMIT_NPROC: look for members of the runs' sessions and groups.
            watched = [run for run in (*self.runs.values(), *self.dying.values()) if run.ran_program]
            watched += finished  # already closed, possibly reaped: their escapees still count
            if not watched:
                return
            sessions = {run.pid for run in watched}
            oldest = _oldest_possible_pid(watched, now)
            for pid in _proc_pids():
                if pid == self.pid or pid in self.runs or (oldest is not None and pid <= oldest):
                    continue
                ids = _session_and_group(pid)
                if ids and (ids[0] in sessions or ids[1] in sessions):
                    _kill_quietly(pid)

    # ----------------------------------------------------------------- results
    def finish_ready_runs(self) -> None:
        now = time.monotonic()
        for run in list(self.runs.values()):
            backstop = run.killed_at is not None and now >= run.killed_at + FINISH_BACKSTOP
            # A run is over when its result channel is closed and either the child is reaped or it sent a
            # complete record (then it has been killed already and is reaped in the background).
            complete = not run.result_open and (run.status is not None or run.record is not None)
            if complete or backstop:
                self.finish(run)

    def finish(self, run: Run) -> None:
        if run.output_open:
            self.read_run(run, "output")
        if run.result_open:
            self.read_run(run, "result")
        self.close_run(run)
        if not self.closing:
            self.send(self.response(run))
        self.sweep(force=True, finished=[run])

    def close_run(self, run: Run) -> None:
        self.kill(run)
        self.close_pipe(run, "result")
        self.close_pipe(run, "output")
        if run.status is None:
            try:
                pid, status, rusage = os.wait4(run.pid, os.WNOHANG)
                if pid:
                    run.status, run.rusage = status, rusage
            except ChildProcessError:
                run.status = run.status if run.status is not None else 0
        self.runs.pop(run.pid, None)
        if run.status is None:
            self.dying[run.pid] = run  # reaped (and its directory removed) by reap()
        else:
            _kill_group_quietly(run.pid)
            remove_tree(run.run_dir)

    def response(self, run: Run) -> dict[str, Any]:
        ended = run.ended or time.monotonic()
        wall = max(0.0, ended - run.started)
        record, fault = run.record, run.fault
        if record is None and fault is None and run.result:
            record, fault = parse_child_result(bytes(run.result))
        out: dict[str, Any] = {
            "op": "result",
            "id": run.request_id,
            "wall_time": wall,
            "runtime": wall,
            "time_limit": run.limits.time_limit,
            "hash_seed": run.hash_seed,
            "stdout": bytes(run.output).decode("utf-8", errors="replace"),
            "stdout_bytes": run.output_total,
            "stdout_truncated": run.output_total > len(run.output),
            "peak_memory": int(run.rusage.ru_maxrss) * 1024 if run.rusage is not None else None,
            "exit_code": None,
            "signal": None,
        }
        if run.status is not None:
            if os.WIFEXITED(run.status):
                out["exit_code"] = os.WEXITSTATUS(run.status)
            elif os.WIFSIGNALED(run.status):
                out["signal"] = os.WTERMSIG(run.status)
        if out["peak_memory"] is None and record is not None:
            out["peak_memory"] = record.get("peak_memory")
        if run.stop_reason == "output-limit":
            out.update(kind="output-limit", detail=f"more than {run.limits.max_output_bytes} bytes")
        elif run.stop_reason == "result-too-large":
            out.update(
                kind="result-too-large", detail=f"the returned data exceeded {run.limits.max_result_chars} characters"
            )
        elif run.interrupted:
            out["kind"] = "timeout"
            out["runtime"] = max(run.limits.time_limit, min(wall, run.limits.time_limit + run.limits.grace_seconds))
            if (
                record
                and record.get("kind") == "exception"
                and str(record.get("exception", "")).startswith("KeyboardInterrupt")
            ):
                out["traceback"] = record.get("traceback")
                out["function"] = record.get("function")
            elif record is None:
                out["detail"] = "the program did not stop when it was interrupted and was killed"
        elif out["signal"] == signal.SIGXCPU or (
            out["signal"] == signal.SIGKILL and record is None and _cpu_used(run) >= run.limits.cpu_seconds
        ):
            out.update(kind="timeout", detail="the CPU time limit was reached")
        elif record is not None:
            out.update(record)
            out["runtime"] = min(max(0.0, float(record.get("runtime", wall))), wall)
        else:
            out.update(kind="crash", detail=_crash_detail(out["exit_code"], out["signal"], run))
            if fault:
                out["traceback"] = fault
        return out

    def send(self, message: dict[str, Any]) -> None:
        protocol.write_frame(1, message)


# ------------------------------------------------------------------ helpers


def parse_child_result(data: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The child's JSON record (checked and bounded) or the faulthandler dump of a fatal crash."""
    if not data:
        return None, None
    text = data.decode("utf-8", errors="replace")
    if "Fatal Python error" in text and not text.lstrip().startswith("{"):
        return None, clean_fault_dump(text)
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        if "Fatal Python error" in text:
            return None, clean_fault_dump(text[text.index("Fatal Python error") :])
        return None, None
    return sanitize_record(raw), None


def sanitize_record(raw: object) -> dict[str, Any] | None:
    if not isinstance(raw, dict) or raw.get("kind") not in CHILD_KINDS:
        return None
    record: dict[str, Any] = {"kind": raw["kind"]}
    if raw["kind"] == "plan":
        plan = raw.get("plan")
        if not isinstance(plan, list) or not all(isinstance(a, str) for a in plan):
            return None
        record["plan"] = plan
    for name, limit in _TEXT_BOUNDS.items():
        value = raw.get(name)
        if isinstance(value, str):
            record[name] = value[:limit]
    peak = raw.get("peak_memory")
    if isinstance(peak, int) and not isinstance(peak, bool) and peak >= 0:
        record["peak_memory"] = peak
    runtime = raw.get("runtime")
    if isinstance(runtime, (int, float)) and not isinstance(runtime, bool) and runtime >= 0:
        record["runtime"] = float(runtime)
    notes = raw.get("notes")
    if isinstance(notes, list):
        record["notes"] = [str(n)[:200] for n in notes[:20]]
    return record


def _cpu_used(run: Run) -> float:
    if run.rusage is None:
        return 0.0
    return float(run.rusage.ru_utime + run.rusage.ru_stime)


def _crash_detail(exit_code: int | None, signum: int | None, run: Run) -> str:
    if signum is not None:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        if signum == signal.SIGSEGV:
            return f"the Python process crashed ({name}), most likely a stack overflow caused by very deep recursion"
        if signum == signal.SIGKILL and run.killed_at is not None:
            return "the program closed the channel the harness reports its result on"
        return f"the Python process was killed by {name}"
    if exit_code == child.EXIT_OUT_OF_MEMORY:
        return "the process ran out of memory (the address-space limit) and could not report its result"
    if exit_code == child.EXIT_CHANNEL_LOST:
        return "the program closed the file descriptors the harness needs to report its result"
    if exit_code == child.EXIT_WATCHDOG:
        return "the sandbox watchdog stopped the process (time limit or lost server)"
    if exit_code is not None:
        return (
            f"the Python process exited with status {exit_code} (for example through os._exit) "
            "instead of returning from the function"
        )
    return "the Python process ended without a result"


def _read_proc(path: str) -> bytes | None:
    """A small /proc file in one read (plain os calls: the sweep reads many of them), None if unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


def _last_pid() -> int | None:
    """The pid the kernel handed out last in our pid namespace (None if unknown)."""
    data = _read_proc("/proc/sys/kernel/ns_last_pid")
    try:
        return int(data) if data is not None else None
    except ValueError:
        return None


def _oldest_possible_pid(watched: list[Run], now: float) -> int | None:
    """A pid at or below which no process of these runs can be, or None if every pid must be checked.

    A run's processes are all started after it got its request, so their pids come after the newest pid
    of that moment, unless the kernel's pid counter wrapped around since. Wrapping takes tens of thousands of
    process starts; it cannot happen in the SWEEP_INTERVAL allowed here, and a counter now below the mark
    shows it anyway (then everything is checked)."""
    marks = [run.pids_after for run in watched]
    if any(mark is None for mark in marks) or any(now - run.started > SWEEP_INTERVAL for run in watched):
        return None
    oldest = min(mark for mark in marks if mark is not None)
    newest = _last_pid()
    if newest is None or newest < oldest:
        return None
    return oldest


def _proc_pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _session_and_group(pid: int) -> tuple[int, int] | None:
    data = _read_proc(f"/proc/{pid}/stat")
    if data is None:
        return None
    # Fields after the command name (which may contain spaces) start after the last ')'.
    rest = data[data.rfind(b")") + 2 :].split()
    try:
        return int(rest[3]), int(rest[2])  # session, process group
    except (IndexError, ValueError):
        return None


def _kill_group_quietly(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_quietly(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def remove_tree(path: str) -> None:
    """Remove a run directory whatever the program did to its permissions (never follows symlinks)."""

    def make_writable(_function: object, failed_path: str, _exc: object) -> None:
        try:
            parent = os.path.dirname(failed_path)
            os.chmod(parent, stat.S_IRWXU)
            if os.path.isdir(failed_path) and not os.path.islink(failed_path):
                os.chmod(failed_path, stat.S_IRWXU)
                shutil.rmtree(failed_path, ignore_errors=True)
            else:
                os.unlink(failed_path)
        except OSError:
            pass

    try:
        os.rmdir(path)  # the usual case: the program left its directory empty
        return
    except OSError:
        pass
    if os.path.lexists(path):
        shutil.rmtree(path, onerror=make_writable)


def writable_mounts(base: str) -> list[str]:
    """Mount points that are still writable (everything but the base directory should be read-only).

    Only the last mount on each mount point counts: the ones below it are hidden and unreachable."""
    top: dict[str, list[str]] = {}
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) >= 6:
                    top[parts[4]] = parts[5].split(",")
    except OSError:
        return ["<unknown>"]
    return [
        point
        for point, options in top.items()
        if "rw" in options and point != base and point != "/proc" and not _proc_of_namespace(point)
    ]


def _proc_of_namespace(point: str) -> bool:
    """Per-process entries of our own /proc (writable: the namespace's processes only); every host-wide
    entry (sys, sysrq-trigger, ...) must be read-only."""
    return point.startswith("/proc/") and point[6:].split("/", 1)[0].isdigit()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m genplan.engine.sandbox.server BASE_DIR", file=sys.stderr)
        return 2
    base = os.path.realpath(argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for name in PRELOAD:
        importlib.import_module(name)
    namespaced = os.environ.get("GENPLAN_SANDBOX_NAMESPACED") == "1"
    os.chdir(base)
    try:
        server = Server(base, namespaced)
        child.prepare_server_process(base)
        server.serve()
    except OSError as exc:
        if exc.errno != errno.EPIPE:  # the parent went away while we answered
            raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
