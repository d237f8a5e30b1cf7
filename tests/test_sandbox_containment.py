"""Hostile programs: none of them may harm the user, and the harness carries on after each.

Every test is itself safe: the file a program tries to delete lives in pytest's tmp dir, the network
test listens on 127.0.0.1 only, and process-spawning programs are bounded. Each containment test runs in
both isolation modes ("namespaces" when the machine allows it, and "plain": rlimits + audit hook only).
The last group switches the audit hook off to check that the kernel-level layers hold on their own.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Iterator

import psutil
import pytest

from genplan.engine.feedback.programs import run_feedback
from genplan.engine.sandbox import Limits, Program, Sandbox
from genplan.engine.sandbox.launcher import namespace_tools
from genplan.engine.sandbox.server import SPARES

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

TASK = (["a", "b"], [("p", "a")], [("p", "b")])
LIMITS = Limits(time_limit=5, grace_seconds=0.5)


def _namespaces_available() -> bool:
    if namespace_tools() is None:
        return False
    try:
        with Sandbox(LIMITS, isolation="namespaces") as box:
            return box.run(Program.from_source("def get_plan(o, i, g):\n    return []\n"), TASK).kind == "plan"
    except Exception:  # noqa: BLE001 - any failure means: not available here
        return False


NAMESPACES = _namespaces_available()
MODES = ["plain", pytest.param("namespaces", marks=pytest.mark.skipif(
    not NAMESPACES, reason="user/net/pid namespaces are not available here"))]


@pytest.fixture(scope="module", params=MODES)
def sandbox(request) -> Iterator[Sandbox]:
    with Sandbox(LIMITS, isolation=request.param) as box:
        yield box


def run(sandbox: Sandbox, source: str, limits: Limits | None = None):
    return sandbox.run(Program.from_source(source), TASK, limits=limits)


def sandbox_processes(sandbox: Sandbox) -> list[psutil.Process]:
    """Every live process on the machine that belongs to this sandbox (found by the servers' private base
    directories on their command lines), except the launchers of namespaced servers."""
    bases = [s["base"] for s in sandbox.describe()["servers"]]
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if "sandbox.server" in cmdline and any(base in cmdline for base in bases) and _alive(proc):
            found.append(proc)
    return found


def server_pids(sandbox: Sandbox) -> set[int]:
    """The server processes: the launcher itself (plain) or its child (namespaced: unshare -> server)."""
    pids = set()
    for pid in sandbox.process_ids():
        launcher = psutil.Process(pid)
        if "sandbox.server" in " ".join(launcher.cmdline()) and "unshare" not in launcher.cmdline()[0]:
            pids.add(pid)
        else:
            pids.update(child.pid for child in launcher.children())
    return pids


def assert_only_servers_left(sandbox: Sandbox) -> None:
    """Each server plus at most its prepared spare children (direct children with no children)."""
    deadline = time.monotonic() + 5.0
    while True:
        try:
            servers = server_pids(sandbox)
            launchers = set(sandbox.process_ids())
            others = [p for p in sandbox_processes(sandbox) if p.pid not in servers | launchers]
            spares_ok = all(_alive_parent(p) in servers and not p.children() for p in others)
            one_each = all(sum(_alive_parent(p) == s for p in others) <= SPARES for s in servers)
            if spares_ok and one_each:
                return
            report = [(p.pid, _alive_parent(p), p.status()) for p in others]
        except psutil.Error:  # a process ended while we looked: look again
            report = ["changing"]
        if time.monotonic() > deadline:
            raise AssertionError(f"processes left behind: {report}")
        time.sleep(0.05)


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _alive_parent(proc: psutil.Process) -> int:
    try:
        return proc.ppid()
    except psutil.NoSuchProcess:
        return -1


def assert_still_working(sandbox: Sandbox) -> None:
    outcome = run(sandbox, "def generate_solution(o, i, g):\n    return ['(done)']\n")
    assert outcome.kind == "plan" and outcome.plan == ["(done)"]


# ------------------------------------------------------------ the user's files


def test_cannot_delete_or_change_user_files(sandbox: Sandbox, tmp_path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "inside.txt").write_text("me too")
    attempts = [
        f"import os\nos.remove({str(victim)!r})",
        f"import shutil\nshutil.rmtree({str(folder)!r})",
        f"open({str(victim)!r}, 'w').write('overwritten')",
        f"open({str(victim)!r}, 'a').write('appended')",
        f"import os\nos.rename({str(victim)!r}, 'stolen.txt')",
        f"import os\nos.truncate({str(victim)!r}, 0)",
        f"import os\nos.chmod({str(victim)!r}, 0)",
        f"import pathlib\npathlib.Path({str(victim)!r}).write_text('x')",
        f"import os\nos.symlink({str(victim)!r}, 'link')\nopen('link', 'w').write('through a link')",
        f"import os\nfd = os.open({str(tmp_path)!r}, os.O_RDONLY)\nos.unlink('precious.txt', dir_fd=fd)",
    ]
    for attempt in attempts:
        body = "\n".join("    " + line for line in attempt.splitlines())
        outcome = run(sandbox, f"def generate_solution(o, i, g):\n{body}\n    return []\n")
        assert outcome.kind == "exception", (attempt, outcome)
        assert victim.read_text() == "keep me", attempt
        assert (folder / "inside.txt").read_text() == "me too", attempt
    assert_still_working(sandbox)


def test_private_directory_is_usable_and_removed_afterwards(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "import os, tempfile\n"
        "def generate_solution(o, i, g):\n"
        "    open('notes.txt', 'w').write('scratch')\n"
        "    with tempfile.NamedTemporaryFile('w', delete=False) as handle:\n"
        "        handle.write('more')\n"
        "    return [os.getcwd(), open('notes.txt').read()]\n",
    )
    assert outcome.kind == "plan", outcome.traceback
    private_dir, content = outcome.plan
    assert content == "scratch"
    deadline = time.monotonic() + 3
    while os.path.exists(private_dir) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(private_dir)


def test_cannot_read_files_outside_python_and_private_dir(sandbox: Sandbox, tmp_path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    outcome = run(sandbox, f"def generate_solution(o, i, g):\n    return [open({str(secret)!r}).read()]\n")
    assert outcome.kind == "exception" and "TOP-SECRET" not in str(outcome.to_dict())
    # ... but the standard library can still be imported lazily.
    outcome = run(sandbox, "def generate_solution(o, i, g):\n    import csv, zlib\n    return [csv.__name__]\n")
    assert outcome.kind == "plan", outcome.traceback


# ------------------------------------------------------------------ network


def test_no_network_connections(sandbox: Sandbox) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    try:
        attempts = [
            f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)",
            f"import _socket\ns = _socket.socket()\ns.connect(('127.0.0.1', {port}))",
            f"import urllib.request\nurllib.request.urlopen('http://127.0.0.1:{port}/', timeout=1)",
            f"import http.client\nhttp.client.HTTPConnection('127.0.0.1', {port}, timeout=1).request('GET', '/')",
        ]
        for attempt in attempts:
            body = "\n".join("    " + line for line in attempt.splitlines())
            outcome = run(sandbox, f"def generate_solution(o, i, g):\n{body}\n    return []\n")
            assert outcome.kind == "exception", (attempt, outcome)
        time.sleep(0.2)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nothing ever connected
    finally:
        listener.close()


# ---------------------------------------------------------------- processes


def test_no_processes_or_fork_bombs(sandbox: Sandbox) -> None:
    attempts = [
        "import os\nwhile True:\n    os.fork()",
        "import subprocess\nsubprocess.run(['sleep', '30'])",
        "import os\nos.system('sleep 30 &')",
        "import os\nos.execv('/bin/sleep', ['sleep', '30'])",
        "import multiprocessing\nmultiprocessing.Process(target=print).start()",
        "import os\nos.posix_spawn('/bin/sleep', ['sleep', '30'], {})",
        "import pty\npty.fork()",
    ]
    for attempt in attempts:
        body = "\n".join("    " + line for line in attempt.splitlines())
        outcome = run(sandbox, f"def generate_solution(o, i, g):\n{body}\n    return []\n")
        assert outcome.kind == "exception", (attempt, outcome)
        assert "PermissionError" in outcome.exception or "not allow" in outcome.exception, attempt
        assert_only_servers_left(sandbox)
    assert_still_working(sandbox)


def test_threads_die_with_the_run(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "import threading, time\n"
        "def generate_solution(o, i, g):\n"
        "    try:\n"
        "        threading.Thread(target=time.sleep, args=(60,)).start()\n"
        "    except RuntimeError:\n"
        "        return ['refused']\n"  # RLIMIT_NPROC refuses new threads for non-root users
        "    return ['started']\n",
    )
    assert outcome.kind == "plan" and outcome.plan[0] in ("refused", "started")
    assert_only_servers_left(sandbox)


def test_signals_at_the_parent_are_refused(sandbox: Sandbox) -> None:
    for attempt in (
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
        "import os, signal\nos.killpg(os.getpgid(os.getppid()), signal.SIGTERM)",
        "import os, signal\nos.kill(1, signal.SIGTERM)",
        "import signal, threading\nsignal.pthread_kill(threading.main_thread().ident, signal.SIGKILL)",
    ):
        body = "\n".join("    " + line for line in attempt.splitlines())
        outcome = run(sandbox, f"def generate_solution(o, i, g):\n{body}\n    return []\n")
        assert outcome.kind in ("exception", "crash"), (attempt, outcome)
    assert_still_working(sandbox)
    assert psutil.Process().is_running()


def test_leaves_no_process_after_close() -> None:
    box = Sandbox(LIMITS)
    sleeper = Program.from_source("import time\ndef get_plan(o, i, g):\n    time.sleep(60)\n")
    outcome = box.run(sleeper, TASK, limits=Limits(time_limit=0.5, grace_seconds=0.2))
    assert outcome.kind == "timeout"
    bases = [s["base"] for s in box.describe()["servers"]]
    launchers = box.process_ids()
    box.close()
    for pid in launchers:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    leftovers = [
        p.pid for p in psutil.process_iter(["cmdline"]) if any(b in " ".join(p.info["cmdline"] or []) for b in bases)
    ]
    assert leftovers == []
    assert all(not os.path.exists(b) for b in bases)


# ----------------------------------------------------------- output and exits


def test_printing_gigabytes_stops_the_run(sandbox: Sandbox) -> None:
    started = time.monotonic()
    outcome = run(
        sandbox,
        "import sys\ndef generate_solution(o, i, g):\n    chunk = 'x' * (1 << 20)\n    while True:\n        sys.stdout.write(chunk)\n",
        Limits(time_limit=20, max_output_bytes=8 << 20),
    )
    assert outcome.kind == "output-limit" and outcome.category == "exception"
    assert outcome.stdout_bytes > 8 << 20 and len(outcome.stdout) <= LIMITS.kept_output_bytes
    assert time.monotonic() - started < 10
    assert "printed too much output" in run_feedback(outcome)
    assert_still_working(sandbox)


def test_closing_stdout_and_exiting(sandbox: Sandbox) -> None:
    closed = run(
        sandbox,
        "import os, sys\ndef generate_solution(o, i, g):\n    sys.stdout.close()\n    os.close(1)\n    os.close(2)\n    return ['(ok)']\n",
    )
    assert closed.kind == "plan" and closed.plan == ["(ok)"]
    for source, kind in (
        ("import sys\ndef generate_solution(o, i, g):\n    sys.exit(0)\n", "exception"),
        ("import os\ndef generate_solution(o, i, g):\n    os._exit(1)\n", "crash"),
        ("import os\ndef generate_solution(o, i, g):\n    os.closerange(0, 1000)\n    return []\n", "crash"),
        ("import os, signal\ndef generate_solution(o, i, g):\n    os.abort()\n", "crash"),
    ):
        assert run(sandbox, source).kind == kind, source
    assert_still_working(sandbox)


# -------------------------------------------------------- environment secrets


def test_environment_is_scrubbed(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-genplan-test-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-genplan-test-secret")
    with Sandbox(LIMITS) as box:  # started after the secrets were set
        outcome = box.run(
            Program.from_source(
                "import os\n"
                "def generate_solution(o, i, g):\n"
                "    found = [k + '=' + v for k, v in os.environ.items()]\n"
                "    for pid in [p for p in os.listdir('/proc') if p.isdigit()]:\n"
                "        try:\n"
                "            found.append(open('/proc/%s/environ' % pid, 'rb').read().decode('latin-1'))\n"
                "        except Exception as exc:\n"
                "            found.append(type(exc).__name__)\n"
                "    return found\n"
            ),
            TASK,
        )
    text = str(outcome.to_dict())
    assert "genplan-test-secret" not in text
    if outcome.kind == "plan":
        assert not any(entry.startswith(("OPENAI", "AWS")) for entry in outcome.plan)


def test_native_code_and_interpreter_walks_are_refused(sandbox: Sandbox) -> None:
    for attempt in ("import ctypes", "import gc\ngc.get_objects()", "import _posixsubprocess", "import sqlite3"):
        body = "\n".join("    " + line for line in attempt.splitlines())
        outcome = run(sandbox, f"def generate_solution(o, i, g):\n{body}\n    return []\n")
        assert outcome.kind == "exception" and "PermissionError" in outcome.exception, attempt


# ------------------------------------------ kernel-level layers on their own

needs_namespaces = pytest.mark.skipif(not NAMESPACES, reason="user/net/pid namespaces are not available here")


@pytest.fixture(scope="module")
def bare_namespaced() -> Iterator[Sandbox]:
    if not NAMESPACES:
        pytest.skip("user/net/pid namespaces are not available here")
    # The namespaces on their own: no audit hook, no seccomp filter, no Landlock domain.
    with Sandbox(LIMITS, isolation="namespaces", audit_hook=False, disable_layers={"seccomp", "landlock"}) as box:
        yield box


@needs_namespaces
def test_kernel_keeps_files_read_only(bare_namespaced: Sandbox, tmp_path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me")
    outcome = run(bare_namespaced, f"import os\ndef generate_solution(o, i, g):\n    os.remove({str(victim)!r})\n")
    assert outcome.kind == "exception" and "Read-only file system" in outcome.exception
    assert victim.read_text() == "keep me"
    assert bare_namespaced.describe()["servers"][0]["writable_mounts"] == []


@needs_namespaces
def test_kernel_blocks_the_network(bare_namespaced: Sandbox) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    try:
        source = f"import socket\ndef generate_solution(o, i, g):\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        outcome = run(bare_namespaced, source)
        assert outcome.kind == "exception" and "unreachable" in outcome.exception.lower()
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()


@needs_namespaces
def test_kernel_level_cleanup_of_forked_processes(bare_namespaced: Sandbox) -> None:
    # A bounded "fork bomb": every process forks twice, five levels deep (at most 63 processes), each
    # escaping into its own session and sleeping. None may survive the run.
    outcome = run(
        bare_namespaced,
        "import os, time\n"
        "def generate_solution(o, i, g):\n"
        "    for level in range(5):\n"
        "        for _ in range(2):\n"
        "            if os.fork() == 0:\n"
        "                os.setsid()\n"
        "                break\n"
        "        else:\n"
        "            break\n"
        "    time.sleep(0.5)\n"
        "    return ['forked']\n",
    )
    assert outcome.kind in ("plan", "exception", "crash")
    assert_only_servers_left(bare_namespaced)


@needs_namespaces
def test_kernel_hides_other_processes(bare_namespaced: Sandbox) -> None:
    outcome = run(
        bare_namespaced,
        "import os, signal\n"
        "def generate_solution(o, i, g):\n"
        "    os.kill(os.getppid(), signal.SIGKILL)\n"
        "    pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "    def live(pid):\n"
        "        try:\n"
        "            return open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[0] != 'Z'\n"
        "        except OSError:\n"
        "            return False\n"
        "    return sorted(p for p in pids if live(p))\n",
    )
    assert outcome.kind == "plan"
    assert len(outcome.plan) <= 2 + SPARES  # the server (pid 1), this run's child, the prepared spares
    assert str(os.getpid()) not in outcome.plan or os.getpid() <= 3
    assert_still_working(bare_namespaced)


# ------------------------------------------------------------------ rlimits


def test_rlimits_are_applied_and_cannot_be_raised(sandbox: Sandbox) -> None:
    limits = Limits(time_limit=5, memory_bytes=512 * 1024 * 1024, file_size_bytes=1024 * 1024, open_files=32)
    outcome = sandbox.run(
        Program.from_source(
            "import resource\n"
            "def generate_solution(o, i, g):\n"
            "    names = ['RLIMIT_AS', 'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_NOFILE', 'RLIMIT_CORE', 'RLIMIT_NPROC']\n"
            "    found = [f'{n}={resource.getrlimit(getattr(resource, n))}' for n in names]\n"
            "    try:\n"
            "        resource.setrlimit(resource.RLIMIT_AS, (-1, -1))\n"
            "        found.append('raised')\n"
            "    except (PermissionError, ValueError, OSError):\n"
            "        found.append('refused')\n"
            "    try:\n"
            "        open('big.bin', 'wb').write(b'x' * (2 * 1024 * 1024))\n"
            "        found.append('wrote')\n"
            "    except OSError as exc:\n"
            "        found.append(type(exc).__name__)\n"
            "    return found\n"
        ),
        TASK,
        limits=limits,
    )
    assert outcome.kind == "plan", outcome.traceback
    found = outcome.plan
    assert f"RLIMIT_AS={(512 * 1024 * 1024, 512 * 1024 * 1024)}" in found
    assert f"RLIMIT_CPU={(limits.cpu_seconds, limits.cpu_seconds)}" in found
    assert f"RLIMIT_FSIZE={(1024 * 1024, 1024 * 1024)}" in found
    assert "RLIMIT_NOFILE=(32, 32)" in found and "RLIMIT_CORE=(0, 0)" in found and "RLIMIT_NPROC=(1, 1)" in found
    assert found[-2] == "refused"
    assert found[-1] == "OSError"  # File too large (EFBIG): the write beyond RLIMIT_FSIZE fails
