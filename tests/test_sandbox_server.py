"""What the fork server does to keep runs cheap, checked for what it must not lose.

The sweep for root without namespaces (root is not bound by RLIMIT_NPROC, so processes a program starts
are found by session and killed after the run, however short the run was) looks only at pids newer than
the run when that is safe; spare children rehearse a run before their request arrives."""

from __future__ import annotations

import os
import sys
import time

import psutil
import pytest

from genplan.engine.sandbox import Limits, Program, Sandbox
from genplan.engine.sandbox import server as server_module
from genplan.engine.sandbox.server import SWEEP_INTERVAL, Run, _oldest_possible_pid

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

TASK = (["a"], [("p", "a")], [("p", "a")])

# The child leaves the run's process group (so the group kill misses it) but stays in its session, then
# sleeps far longer than the test waits. The audit hook is off: this is about the kernel-level cleanup.
ESCAPE = (
    "import os, time\n"
    "def generate_solution(o, i, g):\n"
    "    pid = os.fork()\n"
    "    if pid == 0:\n"
    "        os.setpgid(0, 0)\n"
    "        time.sleep({child_sleep})\n"
    "        os._exit(0)\n"
    "    time.sleep({parent_sleep})\n"
    "    return [str(pid)]\n"
)


def _gone(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.02)
    return False


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can start processes in a plain sandbox (RLIMIT_NPROC binds everyone else)")
@pytest.mark.parametrize("parent_sleep", [0.0, 0.3], ids=["short-run", "run-longer-than-the-sweep-interval"])
def test_root_escapee_in_the_session_is_killed(parent_sleep: float) -> None:
    source = ESCAPE.format(child_sleep=60, parent_sleep=parent_sleep)
    # seccomp refuses new processes; off here so that the sweep behind it is tested.
    with Sandbox(Limits(time_limit=5, grace_seconds=0.5), isolation="plain", audit_hook=False,
                 disable_layers={"seccomp"}) as box:
        outcome = box.run(Program.from_source(source), TASK)
        assert outcome.kind == "plan", (outcome.kind, outcome.detail, outcome.exception)
        escapee = int(outcome.plan[0])
        assert _gone(escapee), f"process {escapee} outlived its run"
        # The sandbox goes on working after the cleanup.
        assert box.run(Program.from_source("def generate_solution(o, i, g):\n    return []\n"), TASK).kind == "plan"


def _run(pid: int, pids_after: int | None, started: float) -> Run:
    return Run(
        request_id=1, pid=pid, run_dir="/nonexistent", limits=Limits(), result_fd=-1, output_fd=-1,
        started=started, deadline=started + 1, hash_seed=0, pids_after=pids_after,
    )


def test_sweep_looks_only_at_newer_pids_after_short_runs(monkeypatch) -> None:
    now = time.monotonic()
    monkeypatch.setattr(server_module, "_last_pid", lambda: 5000)
    runs = [_run(100, 4000, now - 0.01), _run(101, 4200, now - 0.02)]
    assert _oldest_possible_pid(runs, now) == 4000


def test_sweep_checks_everything_when_unsure(monkeypatch) -> None:
    now = time.monotonic()
    monkeypatch.setattr(server_module, "_last_pid", lambda: 5000)
    # A run older than the sweep interval: the pid counter may have wrapped around meanwhile.
    assert _oldest_possible_pid([_run(100, 4000, now - 2 * SWEEP_INTERVAL)], now) is None
    # No mark recorded (namespaced or non-root server).
    assert _oldest_possible_pid([_run(100, None, now)], now) is None
    # The counter is below the mark: it wrapped around.
    monkeypatch.setattr(server_module, "_last_pid", lambda: 300)
    assert _oldest_possible_pid([_run(100, 4000, now)], now) is None
    # The counter cannot be read.
    monkeypatch.setattr(server_module, "_last_pid", lambda: None)
    assert _oldest_possible_pid([_run(100, 4000, now)], now) is None


def test_last_pid_reads_the_kernel_counter() -> None:
    before = server_module._last_pid()
    if before is None:
        pytest.skip("/proc/sys/kernel/ns_last_pid is not readable here")
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    assert server_module._last_pid() >= child


def test_spares_rehearse_the_run_without_side_effects(tmp_path) -> None:
    """Each spare child walks a dummy run before its request arrives (see child.rehearsal)."""
    import linecache

    from genplan.engine.sandbox import child

    modules_before = set(sys.modules)
    record = child.rehearsal(str(tmp_path), ())
    assert record["kind"] == "plan" and record["plan"] == ["(noop 1)"]
    assert set(sys.modules) == modules_before
    assert child.PROGRAM_FILE not in linecache.cache
    assert list(tmp_path.iterdir()) == []


def test_a_failed_fork_while_refilling_spares_keeps_the_server_going() -> None:
    """Spares are forked in batches; if a fork fails (a process limit, say), the spares there are do."""
    from types import SimpleNamespace

    from genplan.engine.sandbox.server import SPARES, Server

    forks = []

    def fork_child():
        if len(forks) >= 2:
            raise OSError("Resource temporarily unavailable")
        forks.append(object())
        return forks[-1]

    server = SimpleNamespace(spares=[], runs={}, fork_child=fork_child)
    Server.refill_spares(server)  # type: ignore[arg-type]
    assert len(server.spares) == 2 < SPARES

    server = SimpleNamespace(spares=[], runs={}, fork_child=lambda: (_ for _ in ()).throw(OSError("no")))
    with pytest.raises(OSError):  # without any spare a request could not run: that must not pass silently
        Server.refill_spares(server)  # type: ignore[arg-type]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can start processes in a plain sandbox (RLIMIT_NPROC binds everyone else)")
def test_closing_the_sandbox_during_a_run_kills_escapees_of_that_run(tmp_path) -> None:
    import threading

    marker = tmp_path / "escapee.pid"
    source = (
        "import os, time\n"
        "def generate_solution(o, i, g):\n"
        "    if os.fork() == 0:\n"
        "        os.setpgid(0, 0)\n"
        f"        open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
        "        time.sleep(60)\n"
        "        os._exit(0)\n"
        "    time.sleep(30)\n"
        "    return []\n"
    )
    box = Sandbox(Limits(time_limit=40, grace_seconds=0.5), isolation="plain", audit_hook=False,
                  disable_layers={"seccomp", "landlock"})  # the escapee writes its pid where the test reads it
    outcome: list[object] = []
    runner = threading.Thread(target=lambda: outcome.append(box.run(Program.from_source(source), TASK)), daemon=True)
    runner.start()
    # a loaded machine (CI beside other work) can take seconds to start the sandbox: wait up to the program's own
    # 30 s sleep, and stop waiting early if the run ended without starting its child
    deadline = time.monotonic() + 30
    while not (marker.exists() and marker.read_text()) and runner.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists() and marker.read_text(), f"the program's child never wrote its pid; the run: {outcome}"
    escapee = int(marker.read_text())
    box.close()
    assert _gone(escapee), f"process {escapee} outlived the sandbox"
    runner.join(timeout=15)
