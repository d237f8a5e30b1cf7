"""The parent side: a pool of fork servers (one per hash seed) and the blocking ``Sandbox.run`` call.

Thread-safe: many threads may call ``run`` at once; each server runs its requests concurrently, one
forked child per request. Everything a server sends back is parsed as untrusted JSON.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from genplan.engine.sandbox import protocol, redact
from genplan.engine.sandbox.launcher import LaunchPlan, namespace_tools, plan_launch, requested_isolation
from genplan.engine.sandbox.limits import Limits
from genplan.engine.sandbox.outcome import SANDBOX_ERROR, ProgramOutcome
from genplan.engine.sandbox.program import Program
from genplan.engine.sandbox.server import FINISH_BACKSTOP, remove_tree

READY_TIMEOUT = 20.0
# Kernel layers a test may switch off with Sandbox(disable_layers=...) to check the others on their own.
KERNEL_LAYERS = frozenset({"seccomp", "landlock"})
# Extra seconds the parent waits beyond the run's own limits before it declares the server broken.
PARENT_MARGIN = 10.0

# Whether namespaced servers work on this machine: None until the first attempt.
_namespaces_work: bool | None = None
_namespaces_lock = threading.Lock()


class SandboxError(Exception):
    """The sandbox could not be started at all (one line)."""


@dataclass
class _Pending:
    reply: dict[str, Any] | None = None


def task_lists(task: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """Objects, init and goal as lists, from a PythonTask, a dict or an (objects, init, goal) triple."""
    if hasattr(task, "objects") and hasattr(task, "init") and hasattr(task, "goal"):
        parts = (task.objects, task.init, task.goal)
    elif isinstance(task, dict):
        parts = (task["objects"], task["init"], task["goal"])
    else:
        parts = tuple(task)
        if len(parts) != 3:
            raise TypeError("a task is (objects, init, goal)")
    return tuple(list(p) for p in parts)  # type: ignore[return-value]


_STALE_DIR = re.compile(r"genplan-sandbox-(\d+)-\w+")
_swept = False


def sweep_stale_dirs(root: str | None = None, *, again: bool = False) -> list[str]:
    """Remove the sandbox directories of genplan processes that died without cleaning up (kill -9); done
    once per process, when its first sandbox starts. A directory's name carries the pid of its owner."""
    global _swept
    if _swept and not again:
        return []
    _swept = True
    removed: list[str] = []
    try:
        entries = list(os.scandir(root or tempfile.gettempdir()))
    except OSError:
        return removed
    for entry in entries:
        match = _STALE_DIR.fullmatch(entry.name)
        if match is None or not entry.is_dir(follow_symlinks=False) or _alive(int(match.group(1))):
            continue
        remove_tree(entry.path)
        removed.append(entry.path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


class ForkServer:
    """One running server process. Answers are read by whichever waiting caller holds the reader role
    (leader/follower), so the usual case, one request in flight, needs no extra thread hand-off."""

    def __init__(self, hash_seed: int, namespaced: bool, disabled: tuple[str, ...] = ()) -> None:
        self.hash_seed = hash_seed
        sweep_stale_dirs()
        self.base = tempfile.mkdtemp(prefix=f"genplan-sandbox-{os.getpid()}-")
        self._log = tempfile.TemporaryFile(prefix="genplan-sandbox-log-")
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._reading = False
        self._frames = protocol.FrameBuffer()
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self.alive = False
        plan: LaunchPlan = plan_launch(hash_seed, self.base, namespaced, disabled)
        try:
            self.process = subprocess.Popen(
                plan.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env=plan.env,
                cwd=self.base,
                close_fds=True,
                start_new_session=True,  # Ctrl-C on the terminal reaches only the parent
            )
        except OSError as exc:
            self._cleanup_files()
            raise SandboxError(f"cannot start the sandbox server: {exc}") from exc
        self._in = self.process.stdin.fileno()  # type: ignore[union-attr]
        self._out = self.process.stdout.fileno()  # type: ignore[union-attr]
        protocol.enlarge_pipe(self._in)
        try:
            self.info = self._await_ready()
        except SandboxError:
            self.kill()
            raise
        self.namespaced = bool(self.info.get("namespaced"))
        self.alive = True

    # --------------------------------------------------------------- startup
    def _await_ready(self) -> dict[str, Any]:
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SandboxError(f"the sandbox server did not start within {READY_TIMEOUT:g} s")
            ready, _, _ = select.select([self._out], [], [], min(remaining, 0.5))
            if ready:
                break
            if self.process.poll() is not None:
                raise SandboxError(f"the sandbox server exited at startup: {self.log_tail()}")
        try:
            message = protocol.read_frame(self._out)
        except protocol.ProtocolError as exc:
            raise SandboxError(f"the sandbox server sent garbage at startup: {exc}") from exc
        if not message or message.get("op") != "ready":
            raise SandboxError(f"the sandbox server failed at startup: {self.log_tail()}")
        return message

    def log_tail(self) -> str:
        try:
            self._log.seek(0)
            lines = self._log.read().decode("utf-8", errors="replace").strip().splitlines()
        except (OSError, ValueError):
            return "no log"
        return lines[-1] if lines else "no output"

    # ------------------------------------------------------------------ runs
    def submit(self, header: dict[str, Any], body: bytes) -> tuple[int, _Pending]:
        pending = _Pending()
        with self._cond:
            if not self.alive:
                raise SandboxError("the sandbox server is not running")
            request_id = next(self._ids)
            self._pending[request_id] = pending
        data = protocol.encode({**header, "op": "run", "id": request_id}) + protocol.encode_raw(body)
        try:
            with self._write_lock:
                protocol.write_all(self._in, data)
        except OSError as exc:
            self._mark_dead()
            raise SandboxError(f"the sandbox server stopped: {exc}") from exc
        return request_id, pending

    def wait(self, request_id: int, pending: _Pending, timeout: float) -> dict[str, Any] | None:
        """The answer to ``request_id``, or None if the server died or did not answer in time."""
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                while pending.reply is None and self.alive and self._reading:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        self._pending.pop(request_id, None)
                        return None
                    self._cond.wait(remaining)
                if pending.reply is not None or not self.alive:
                    self._pending.pop(request_id, None)
                    return pending.reply
                self._reading = True  # this caller reads answers (for everybody) until its own arrives
            try:
                self._read_until(pending, deadline)
            finally:
                with self._cond:
                    self._reading = False
                    self._cond.notify_all()
            if pending.reply is not None or not self.alive or time.monotonic() >= deadline:
                with self._cond:
                    self._pending.pop(request_id, None)
                return pending.reply

    def _read_until(self, pending: _Pending, deadline: float) -> None:
        while pending.reply is None and self.alive:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            ready, _, _ = select.select([self._out], [], [], min(remaining, 1.0))
            if not ready:
                continue
            try:
                data = os.read(self._out, 1 << 20)
                messages = self._frames.feed(data) if data else None
            except (OSError, protocol.ProtocolError):
                messages = None
            if messages is None:
                self._mark_dead()
                return
            with self._cond:
                for message in messages:
                    request_id = message.get("id")
                    waiting = self._pending.get(request_id) if isinstance(request_id, int) else None
                    if waiting is not None:
                        waiting.reply = message
                self._cond.notify_all()

    def _mark_dead(self) -> None:
        with self._cond:
            self.alive = False
            self._cond.notify_all()

    # -------------------------------------------------------------- shutdown
    def process_ids(self) -> list[int]:
        return [self.process.pid]

    def close(self) -> None:
        with self._cond:
            was_alive = self.alive
            self.alive = False
            self._cond.notify_all()
        if was_alive and self.process.poll() is None:
            try:
                with self._write_lock:
                    protocol.write_frame(self._in, {"op": "shutdown"})
            except OSError:
                pass
        try:
            self.process.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            self.process.wait(timeout=3.0)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """Hard stop: the server's whole session (and, with namespaces, everything inside them)."""
        self._mark_dead()
        if self.process.poll() is None:
            actions: tuple[Callable[[], None], ...] = (
                lambda: os.killpg(self.process.pid, signal.SIGKILL),
                lambda: self.process.kill(),
            )
            for action in actions:
                try:
                    action()
                except (ProcessLookupError, PermissionError, OSError):
                    pass
        try:
            self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._cleanup_files()

    def _cleanup_files(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)
        try:
            self._log.close()
        except OSError:
            pass


class Sandbox:
    """Runs programs in forked, locked-down children of pre-started servers (one per hash seed).

    ``isolation``: "auto" (namespaces when they work, else plain), "namespaces" (fail if they do not
    work) or "plain"; the default comes from $GENPLAN_SANDBOX_ISOLATION.
    """

    def __init__(
        self,
        limits: Limits | None = None,
        isolation: str | None = None,
        *,
        audit_hook: bool = True,
        disable_layers: Iterable[str] = (),
    ) -> None:
        self.limits = limits or Limits()
        # Switched off only in tests that check the other layers (and the backstops) on their own.
        self._audit_hook = audit_hook
        self._disabled = tuple(sorted(set(disable_layers) & KERNEL_LAYERS))
        self.isolation = requested_isolation(isolation)
        self._servers: dict[int, ForkServer] = {}
        self._lock = threading.Lock()
        self._start_locks: dict[int, threading.Lock] = {}
        self._closed = False
        # Keys to redact from everything a program produces (environment, config file, registered ones).
        self._secrets = redact.known_secrets()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------- servers
    def _want_namespaces(self) -> bool:
        if self.isolation == "plain":
            return False
        if self.isolation == "namespaces":
            return True
        return _namespaces_work is not False and namespace_tools() is not None

    def _server(self, hash_seed: int) -> ForkServer:
        global _namespaces_work
        with self._lock:
            if self._closed:
                raise SandboxError("the sandbox is closed")
            server = self._servers.get(hash_seed)
            if server is not None and server.alive:
                return server
            start_lock = self._start_locks.setdefault(hash_seed, threading.Lock())
        with start_lock:
            with self._lock:
                server = self._servers.get(hash_seed)
                if server is not None and server.alive:
                    return server
            if server is not None:
                server.kill()
            namespaced = self._want_namespaces()
            try:
                server = ForkServer(hash_seed, namespaced, self._disabled)
            except SandboxError:
                if not namespaced or self.isolation == "namespaces":
                    raise
                with _namespaces_lock:
                    _namespaces_work = False
                server = ForkServer(hash_seed, False, self._disabled)
            else:
                if namespaced:
                    with _namespaces_lock:
                        _namespaces_work = True
            with self._lock:
                if self._closed:
                    server.close()
                    raise SandboxError("the sandbox is closed")
                self._servers[hash_seed] = server
            return server

    def start(self, hash_seeds: Iterable[int]) -> None:
        """Start the servers for these seeds now, in parallel (otherwise each starts on first use)."""
        threads = [threading.Thread(target=self._server, args=(seed,), daemon=True) for seed in hash_seeds]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def describe(self) -> dict[str, Any]:
        """How the running servers are isolated (for the docs, tests and diagnostics)."""
        with self._lock:
            servers = list(self._servers.values())
        return {
            "requested": self.isolation,
            "servers": [
                {
                    "hash_seed": s.hash_seed,
                    "launcher_pid": s.process.pid,  # host pid of the process we started (unshare or python)
                    "base": s.base,
                    "namespaced": bool(s.info.get("namespaced")),
                    "euid": s.info.get("euid"),
                    "writable_mounts": s.info.get("writable_mounts"),
                    "seccomp": s.info.get("seccomp"),
                    "landlock": s.info.get("landlock"),
                    "server_undumpable": s.info.get("server_undumpable"),
                }
                for s in servers
            ],
        }

    def layers(self, hash_seed: int = 0) -> list[dict[str, Any]]:
        """Which containment layers the runs of this sandbox get on this machine (starts the server of
        ``hash_seed`` if needed): one dict per layer with ``name``, ``active`` (bool) and ``detail``."""
        server = self._server(hash_seed)
        return layers_of(server.info, audit_hook=self._audit_hook)

    def layers_line(self, hash_seed: int = 0) -> str:
        """One line naming the active layers (and the inactive ones), for `genplan run`/`eval`."""
        return format_layers(self.layers(hash_seed))

    def process_ids(self) -> list[int]:
        """Host pids of the processes this sandbox started directly (one per server)."""
        with self._lock:
            return [pid for s in self._servers.values() for pid in s.process_ids()]

    # ----------------------------------------------------------------- runs
    def run(
        self,
        program: Program,
        task: Any,
        *,
        hash_seed: int = 0,
        random_seed: int | None = None,
        limits: Limits | None = None,
        ordered_sets: bool = False,
    ) -> ProgramOutcome:
        """Run ``program`` on ``task`` (objects, init, goal) in a fresh child; never raises for program faults.
        ``ordered_sets``: the program gets OrderedSets in the task's order instead of sets (--faithful)."""
        limits = limits or self.limits
        objects, init, goal = task_lists(task)
        body = {
            "source": program.source,
            "functions": list(program.functions),
            "objects": objects,
            "init": init,
            "goal": goal,
            "limits": limits.to_dict(),
            "random_seed": hash_seed if random_seed is None else random_seed,
            "audit_hook": self._audit_hook,
        }
        if ordered_sets:
            body["ordered_sets"] = True
        encoded = json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        try:
            server = self._server(hash_seed)
            request_id, pending = server.submit({"limits": limits.to_dict()}, encoded)
        except SandboxError as exc:
            return self._error(str(exc), limits, hash_seed)
        wait = limits.time_limit + limits.grace_seconds + FINISH_BACKSTOP + PARENT_MARGIN
        reply = server.wait(request_id, pending, wait)
        if reply is None:
            if server.alive:
                server.kill()  # it failed to enforce the limits: never trust it again
                return self._error("the sandbox server stopped answering and was restarted", limits, hash_seed)
            return self._error(f"the sandbox server stopped ({server.log_tail()})", limits, hash_seed)
        outcome = outcome_from_reply(reply, limits, hash_seed)
        clean_outcome(outcome, [*self._secrets, *redact.registered_secrets()])
        return outcome

    def _error(self, detail: str, limits: Limits, hash_seed: int) -> ProgramOutcome:
        return ProgramOutcome(kind=SANDBOX_ERROR, detail=detail, time_limit=limits.time_limit, hash_seed=hash_seed)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            servers = list(self._servers.values())
            self._servers.clear()
        for server in servers:
            server.close()


def outcome_from_reply(reply: dict[str, Any], limits: Limits, hash_seed: int) -> ProgramOutcome:
    """Build the record from a server answer, accepting only well-typed fields."""
    from genplan.engine.sandbox.outcome import KINDS

    kind = reply.get("kind")
    if kind not in KINDS:
        return ProgramOutcome(kind=SANDBOX_ERROR, detail=f"unexpected answer from the sandbox server: kind {kind!r}")
    outcome = ProgramOutcome(kind=kind, time_limit=limits.time_limit, hash_seed=hash_seed)
    plan = reply.get("plan")
    if kind == "plan":
        if not isinstance(plan, list) or not all(isinstance(a, str) for a in plan):
            return ProgramOutcome(kind=SANDBOX_ERROR, detail="malformed plan in the sandbox answer")
        outcome.plan = plan
    for name in ("function", "traceback", "exception", "returned", "returned_type", "stdout"):
        value = reply.get(name)
        if isinstance(value, str):
            setattr(outcome, name, value)
    detail = reply.get("detail")
    if isinstance(detail, str):
        outcome.detail = detail
    for name in ("runtime", "wall_time"):
        value = reply.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
            setattr(outcome, name, float(value))
    for name in ("stdout_bytes", "peak_memory", "exit_code", "signal"):
        value = reply.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            setattr(outcome, name, value)
    outcome.stdout_truncated = bool(reply.get("stdout_truncated"))
    notes = reply.get("notes")
    if isinstance(notes, list):
        outcome.notes = [str(n) for n in notes]
    return outcome


def clean_outcome(outcome: ProgramOutcome, secrets: list[str]) -> None:
    """Redact ``secrets`` from every text of the outcome and escape what UTF-8 cannot carry (in place)."""
    secrets = sorted(set(secrets), key=len, reverse=True)  # a key containing another is replaced whole
    for name in ("function", "traceback", "exception", "returned", "returned_type", "detail", "stdout"):
        value = getattr(outcome, name)
        if isinstance(value, str):
            setattr(outcome, name, redact.clean(value, secrets))
    if outcome.plan is not None:
        outcome.plan = [redact.clean(action, secrets) for action in outcome.plan]
    outcome.notes = [redact.clean(note, secrets) for note in outcome.notes]


def layers_of(info: dict[str, Any], audit_hook: bool = True) -> list[dict[str, Any]]:
    """The containment layers a server reported at startup, in the order a program meets them."""
    landlock = info.get("landlock")
    seccomp = info.get("seccomp")
    namespaced = bool(info.get("namespaced"))
    return [
        {"name": "audit hook", "active": audit_hook, "detail": "explains refusals; not a security boundary"},
        {"name": "seccomp", "active": isinstance(seccomp, str),
         "detail": f"filter for {seccomp}" if isinstance(seccomp, str) else "unsupported architecture"},
        {"name": "landlock", "active": isinstance(landlock, int) and landlock > 0,
         "detail": f"ABI {landlock}" if isinstance(landlock, int) and landlock > 0 else "not in this kernel"},
        {"name": "namespaces", "active": namespaced,
         "detail": "user, pid, net, mount, ipc, uts; read-only mounts" if namespaced else "plain mode"},
        {"name": "no_new_privs", "active": True, "detail": ""},
        {"name": "undumpable server", "active": bool(info.get("server_undumpable")), "detail": ""},
        {"name": "rlimits", "active": True, "detail": "memory, CPU, file size, files"},
    ]


def format_layers(layers: list[dict[str, Any]]) -> str:
    active = [layer["name"] + (f" ({layer['detail']})" if layer["name"] in ("seccomp", "landlock") else "")
              for layer in layers if layer["active"]]
    inactive = [f"{layer['name']} ({layer['detail']})" for layer in layers if not layer["active"]]
    line = "sandbox layers: " + ", ".join(active)
    return line + ("; inactive: " + ", ".join(inactive) if inactive else "")
