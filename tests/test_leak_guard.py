"""The suite's hygiene guard (tests/support/leak_guard.py) run on tests that leak: each leak fails the run and is
named; a module that cleans up after itself, or keeps a process only for its own tests, passes."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

pytest_plugins = ("pytester",)

SUPPORT = Path(__file__).parent

INNER_CONFTEST = """
from pathlib import Path
from support.leak_guard import LeakGuard

def pytest_configure(config):
    config.pluginmanager.register(LeakGuard(Path(__file__).parent), "leak_guard")
"""


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A checkout of its own (a git repository with one commit) whose tests run in a pytest of their own."""
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_ADDOPTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PYTHONPATH", str(SUPPORT))
    pytester.makeconftest(INNER_CONFTEST)
    (pytester.path / ".gitignore").write_text("__pycache__/\nrunpytest-*/\n")  # as the project ignores its own
    for command in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"]):
        subprocess.run(["git", *command], cwd=pytester.path, check=True, capture_output=True)
    return pytester


def run(inner: pytest.Pytester, source: str) -> pytest.RunResult:
    inner.makepyfile(test_inner=textwrap.dedent(source))
    subprocess.run(["git", "add", "test_inner.py"], cwd=inner.path, check=True)  # the test file itself is no leak
    return inner.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0")


def test_a_process_left_running_fails_its_module_and_is_ended(inner: pytest.Pytester) -> None:
    result = run(inner, """
        import subprocess
        def test_leaks():
            subprocess.Popen(["sleep", "397"])
    """)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*test_inner.py left behind:*", "*process *: sleep 397*"])
    assert "sleep 397" not in subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout


def test_a_process_that_detached_itself_is_still_found(inner: pytest.Pytester) -> None:
    result = run(inner, """
        import subprocess
        def test_leaks():
            subprocess.run(["sh", "-c", "setsid sleep 398 >/dev/null 2>&1 &"], check=True)
    """)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*process *: sleep 398*"])


def test_a_listening_socket_left_open_fails_its_module(inner: pytest.Pytester) -> None:
    result = run(inner, """
        import socket
        kept = []
        def test_leaks():
            server = socket.socket()
            server.bind(("127.0.0.1", 0))
            server.listen()
            kept.append(server)
    """)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*a listening socket (tcp port *)*"])


def test_a_file_written_into_the_checkout_fails_the_session(inner: pytest.Pytester) -> None:
    result = run(inner, """
        from pathlib import Path
        def test_leaks():
            (Path(__file__).parent / "stray-output.json").write_text("{}")
    """)
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*files left behind by the tests*", "*in the checkout: ?? stray-output.json*"])


def test_a_module_that_keeps_a_process_for_its_own_tests_and_ends_it_passes(inner: pytest.Pytester) -> None:
    result = run(inner, """
        import socket, subprocess
        import pytest

        @pytest.fixture(scope="module")
        def helper():
            process = subprocess.Popen(["sleep", "399"])
            server = socket.socket()
            server.bind(("127.0.0.1", 0))
            server.listen()
            yield process
            server.close()
            process.kill()
            process.wait()

        def test_one(helper):
            assert helper.poll() is None

        def test_two(helper):
            assert helper.poll() is None

        def test_a_child_that_ends(tmp_path):
            subprocess.run(["true"], check=True)
            (tmp_path / "fine.txt").write_text("in the test's own directory")
    """)
    result.assert_outcomes(passed=3)
    assert result.ret == pytest.ExitCode.OK
