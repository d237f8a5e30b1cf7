"""Containment that holds after the program has switched off the audit hook (issue 11).

Every attack in tests/support/sandbox_attacks.py first rewrites the audit hook's globals (so refused imports
such as ctypes work again), then tries one attack class. Each must fail, in both isolation modes, as root
and as an unprivileged user (the whole attack battery rerun as `nobody` through setpriv). A second group
switches single layers off to show which layer stops what (the table in docs/sandbox.md).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest

from genplan.engine.feedback.programs import run_feedback
from genplan.engine.sandbox import Limits, Program, Sandbox, confine
from genplan.engine.sandbox.runner import clean_outcome

sys.path.insert(0, str(Path(__file__).parent))
from support.sandbox_attacks import ATTACKS, TASK, program, run_attacks
from test_sandbox_containment import MODES, assert_only_servers_left

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only"),
    # attacks on process, memory and file limits, and a look at every process left: alone on the machine
    pytest.mark.exclusive,
]
SECRET = "sk-genplan-kernel-test-0123456789"
NOBODY = 65534


def _setup(tmp: Path, victim: int) -> tuple[dict[str, Any], socket.socket]:
    tmp.chmod(0o755)
    listener_path = str(tmp / "agent.sock")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(listener_path)
    os.chmod(listener_path, 0o777)
    listener.listen(4)
    listener.setblocking(False)
    config = tmp / "config.toml"
    config.write_text(f'[secrets]\napi_key = "{SECRET}"\n')
    config.chmod(0o644)  # readable by anyone: only the sandbox may keep the program from it
    setup = {
        "listener": listener_path,
        "config": str(config),
        "parent": os.getpid(),
        "outside": str(tmp / "written-by-the-program"),
        "victim": victim,
    }
    return setup, listener


def _check(results: dict[str, dict[str, Any]], setup: dict[str, Any], listener: socket.socket) -> None:
    assert results["tamper works"]["plan"] == ["ESCAPED"], "the tampering prelude no longer disables the hook"
    for name in ATTACKS:
        if name == "tamper works":
            continue
        result = results[name]
        assert result["kind"] == "exception", (name, result)
        assert result["plan"] is None, (name, result)
        assert SECRET not in result["text"], name
    with pytest.raises(BlockingIOError):
        listener.accept()  # nothing connected
    assert not Path(setup["outside"]).exists()
    assert not Path("/tmp/genplan-sandbox-attack-marker").exists()
    assert psutil.pid_exists(setup["victim"])


@pytest.fixture()
def victim():
    process = subprocess.Popen(["sleep", "60"])
    yield process.pid
    process.kill()
    process.wait()


@pytest.mark.parametrize("isolation", MODES)
def test_attacks_fail_after_the_hook_is_disabled(isolation: str, tmp_path: Path, victim: int, monkeypatch) -> None:
    monkeypatch.setenv("GENPLAN_TEST_API_KEY", SECRET)  # in the parent's environ (and so redacted)
    setup, listener = _setup(tmp_path, victim)
    try:
        results = run_attacks(isolation, setup)
        _check(results, setup, listener)
        line = results["_layers"]["text"]
        assert "seccomp" in line and "landlock" in line.split(";")[0] or confine.landlock_abi() == 0
    finally:
        listener.close()


_NOBODY_ROOT = Path(f"/tmp/genplan-kernel-test-{os.getpid()}")


def _package_root_for_nobody() -> str:
    """An editable install is found through a finder in site-packages that PYTHONPATH does not reach: a
    directory with ``genplan`` made of links to this checkout serves the other interpreter."""
    import genplan
    import genplan.engine

    package = _NOBODY_ROOT / "genplan"
    if not package.exists():
        package.mkdir(parents=True)
        os.symlink(Path(genplan.__file__), package / "__init__.py")
        os.symlink(Path(genplan.engine.__file__).parent, package / "engine")
        _NOBODY_ROOT.chmod(0o755)
    return str(_NOBODY_ROOT)


def _as_nobody(*command: str, **kwargs: Any) -> subprocess.CompletedProcess:
    path = [_package_root_for_nobody(), *(p for p in sys.path if p)]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", "GENPLAN_TEST_API_KEY": SECRET,
           "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command],
                          capture_output=True, text=True, env=env, check=False, **kwargs)


def _interpreter_for_nobody() -> tuple[str | None, str]:
    """An interpreter of this Python version that `nobody` may run (a venv may point into /root), with
    this checkout and its packages on PYTHONPATH; None and the reason if there is none."""
    if os.geteuid() != 0:
        return None, "needs root to switch to nobody"
    if shutil.which("setpriv") is None:
        return None, "setpriv is not installed"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, shutil.which(version, path="/usr/bin:/usr/local/bin") or ""):
        probe = "import genplan.engine.sandbox, psutil, subprocess, sys; subprocess.run([sys.executable, '-c', ''], check=True)"
        if candidate and _as_nobody(candidate, "-c", probe).returncode == 0:
            return candidate, ""
    return None, f"no {version} that nobody can run with this checkout"


@pytest.mark.parametrize("isolation", MODES)
def test_attacks_fail_for_an_unprivileged_user(isolation: str, tmp_path: Path, victim: int) -> None:
    python, reason = _interpreter_for_nobody()
    if python is None:
        pytest.skip(reason)
    setup, listener = _setup(tmp_path, victim)
    # The listener, config file and target directory must be reachable for nobody: otherwise a refusal
    # would show nothing about the sandbox. The modes are restored afterwards.
    modes = {parent: parent.stat().st_mode for parent in tmp_path.parents if str(parent).startswith("/tmp/")}
    for parent, mode in modes.items():
        parent.chmod(mode | 0o755)
    try:
        done = _as_nobody(python, str(Path(__file__).parent / "support" / "sandbox_attacks.py"), isolation,
                          json.dumps(setup), timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        results = json.loads(done.stdout)
        assert json.loads(results["_describe"]["text"])["servers"][0]["euid"] in (0, NOBODY)
        _check(results, setup, listener)
    finally:
        listener.close()
        for parent, mode in modes.items():
            parent.chmod(mode)


@pytest.fixture(scope="module", autouse=True)
def _remove_package_root_for_nobody():
    yield
    shutil.rmtree(_NOBODY_ROOT, ignore_errors=True)


# ------------------------------------------------------------- one layer at a time


def _bare(disable: set[str]) -> Sandbox:
    """Plain mode, no audit hook: only the kernel layers not in ``disable``."""
    return Sandbox(Limits(time_limit=5, grace_seconds=0.5), isolation="plain", audit_hook=False, disable_layers=disable)


def _outcome(box: Sandbox, body: str, **setup: Any):
    return box.run(program(body, setup), TASK)


@pytest.mark.skipif(confine.seccomp_arch() is None, reason="no seccomp filter for this architecture")
def test_seccomp_alone_refuses_sockets_processes_ptrace_and_signals(tmp_path: Path, victim: int) -> None:
    with _bare({"landlock"}) as box:
        assert box.describe()["servers"] == [] or True
        for name in ("raw socket syscall", "ptrace the server", "leave a process behind", "raw fork",
                     "exec a binary", "signal outside the group", "signal the server"):
            outcome = _outcome(box, ATTACKS[name], victim=victim)
            assert outcome.kind == "exception" and "[Errno 1]" in (outcome.exception or ""), (name, outcome)
        info = box.describe()["servers"][0]
        assert info["seccomp"] and not info["landlock"]


@pytest.mark.skipif(confine.landlock_abi() == 0, reason="Landlock is not available in this kernel")
def test_landlock_alone_refuses_files_proc_and_signals(tmp_path: Path, victim: int) -> None:
    setup, listener = _setup(tmp_path, victim)
    listener.close()
    with _bare({"seccomp"}) as box:
        for name in ("sysctl open for writing", "config file key", "parent environ", "server memory",
                     "write outside the private tmp", "write to /tmp"):
            outcome = _outcome(box, ATTACKS[name], **setup)
            assert outcome.kind == "exception" and "Permission denied" in (outcome.exception or ""), (name, outcome)
        if confine.landlock_abi() >= 6:  # scoped signals
            outcome = _outcome(box, ATTACKS["signal outside the group"], victim=victim)
            assert outcome.kind == "exception", outcome
        info = box.describe()["servers"][0]
        assert info["landlock"] and not info["seccomp"]
    assert not Path(setup["outside"]).exists()


def test_filter_refuses_other_architectures_and_x32() -> None:
    machine = confine.seccomp_arch()
    if machine is None:
        pytest.skip("no seccomp filter for this architecture")
    code = confine.build_filter(1234, machine)
    assert len(code) % 8 == 0 and len(code) // 8 < 4096
    # The first instructions check the architecture and kill on a mismatch.
    assert code[:8] == confine._ins(confine._LD_W_ABS, 4)
    assert confine._ins(confine._RET_K, confine._RET_KILL_PROCESS) in code[:40]


@pytest.mark.skipif(not os.path.exists("/usr/include/x86_64-linux-gnu/asm/unistd_64.h") or confine.seccomp_arch() != "x86_64",
                    reason="needs the kernel headers of x86_64")
def test_syscall_numbers_match_the_kernel_headers() -> None:
    import re

    header = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h").read_text()
    numbers = {m.group(1): int(m.group(2)) for m in re.finditer(r"#define __NR_(\w+) (\d+)", header)}
    for name, (x86, _arm) in confine._NUMBERS.items():
        assert numbers[name] == x86, name
    generic = Path("/usr/include/asm-generic/unistd.h")
    if generic.exists():
        text = generic.read_text()
        arm = {m.group(1): int(m.group(2)) for m in re.finditer(r"#define __NR(?:3264)?_(\w+)\s+(\d+)", text)}
        for name, (_x86, number) in confine._NUMBERS.items():
            if number is not None:
                assert arm[name] == number, name


# ---------------------------------------------------------------- what leaves the sandbox


def test_secrets_are_redacted_and_text_is_encodable(monkeypatch) -> None:
    monkeypatch.setenv("SOME_SERVICE_TOKEN", SECRET)
    source = (
        "def generate_solution(o, i, g):\n"
        f"    print('key: {SECRET} and a lone \\udc80')\n"
        f"    raise ValueError('{SECRET}' + '\\ud800')\n"
    )
    with Sandbox(Limits(time_limit=5)) as box:
        outcome = box.run(Program.from_source(source), TASK)
    assert outcome.kind == "exception"
    text = json.dumps(outcome.to_dict(), ensure_ascii=False)
    text.encode("utf-8")  # no lone surrogate left
    assert SECRET not in text and "[redacted]" in outcome.stdout and "[redacted]" in outcome.exception
    assert run_feedback(outcome).encode("utf-8")


def test_clean_outcome_escapes_plans_and_redacts_registered_keys() -> None:
    from genplan.engine.sandbox.outcome import ProgramOutcome
    from genplan.engine.sandbox.redact import register_secret, registered_secrets

    register_secret("registered-key-abcdefgh")
    assert "registered-key-abcdefgh" in registered_secrets()
    outcome = ProgramOutcome(kind="plan", plan=["(a \udc80)", "(b registered-key-abcdefgh)"], stdout="\ud800")
    clean_outcome(outcome, registered_secrets())
    assert outcome.plan == ["(a \\udc80)", "(b [redacted])"] and outcome.stdout == "\\ud800"


LIARS = {
    "getattribute": "class E(Exception):\n    def __getattribute__(self, n):\n        raise RuntimeError('lie')\n",
    "cause": "class E(Exception):\n    @property\n    def __cause__(self):\n        return 42\n",
    "traceback": "class E(Exception):\n    @property\n    def __traceback__(self):\n        return 'nope'\n",
    "str": "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('lie')\n",
}


@pytest.mark.parametrize("liar", sorted(LIARS))
def test_lying_exception_objects_are_exceptions(liar: str) -> None:
    source = LIARS[liar] + "def generate_solution(o, i, g):\n    raise E()\n"
    with Sandbox(Limits(time_limit=5)) as box:
        outcome = box.run(Program.from_source(source), TASK)
    assert outcome.kind == "exception", (outcome.kind, outcome.detail)
    assert "E" in (outcome.exception or "")


def test_no_process_outlives_an_attack_run() -> None:
    with Sandbox(Limits(time_limit=5, grace_seconds=0.5), isolation="plain") as box:
        for name in ("raw fork", "leave a process behind"):
            outcome = box.run(program(ATTACKS[name], {}), TASK)
            assert outcome.kind == "exception" and "[Errno 1]" in (outcome.exception or ""), outcome
            assert_only_servers_left(box)
