"""Fixtures shared by all tests, and what lets the suite run on every core (pytest-xdist, see README.md).

- Every test gets its own XDG config, cache, data and state directories: no test reads the user's settings or
  the response cache, and two tests running at once never share one.
- A test marked ``exclusive`` (tmux, Ray, kill -9 in the middle of work, the sandbox's kernel limits, time
  limits measured on the wall clock) runs with no other test beside it: every test holds a shared lock on one
  file for its whole run (setup, call, teardown), an exclusive one takes it alone. A turnstile lock keeps a
  waiting exclusive test from being starved by the stream of shared ones.
- Scripted runs that several modules need are recorded once per session and shared by every worker
  (``buggy_then_fixed_ferry``); each module works on its own copy.
- Modules with tests marked ``slow`` are handed out first, so no worker starts a long test when the others
  are about to finish.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than a few seconds; left out of the inner loop (-m 'not slow')")
    config.addinivalue_line("markers", "exclusive: cannot share the machine with another test; runs alone")


@pytest.fixture
def scripted_server() -> Iterator[ScriptedServer]:
    """A started scripted OpenAI-compatible server on 127.0.0.1 (see tests/support/scripted_server.py)."""
    with ScriptedServer() as server:
        yield server


@pytest.fixture(autouse=True)
def own_xdg_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's directories, private to this test (tests that need their own set them again)."""
    base = tmp_path_factory.mktemp("xdg", numbered=True)
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(base / name.lower()))


@pytest.fixture(scope="session")
def buggy_then_fixed_ferry(request: pytest.FixtureRequest) -> Path:
    """A domains/ferry copy with one finished run of ``buggy_then_fixed()`` (see tests/test_tui_support.py), made by
    the real pipeline against the scripted server once per session: the first worker to ask records it under a
    lock, the others wait and read it. Never change it: take a copy (``test_tui_support.recorded_ferry``)."""
    from test_tui_support import buggy_then_fixed, ferry_copy, record_run

    shared = _shared_dir(request.config) / "buggy-then-fixed"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "done").exists():
            with ScriptedServer() as server:
                record_run(ferry_copy(shared), server, buggy_then_fixed())
            (shared / "done").touch()
    return shared / "ferry"


# ------------------------------------------------------------------------------ running alone
def _shared_dir(config: pytest.Config) -> Path:
    """A directory all workers of this session see: the parent of the workers' base temp directories."""
    factory: pytest.TempPathFactory = config._tmp_path_factory  # type: ignore[attr-defined]
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _machine_share(config: pytest.Config, alone: bool) -> Iterator[None]:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield  # one process: tests already run one at a time
        return
    shared = _shared_dir(config)
    with open(shared / "turnstile.lock", "a+b") as turnstile, open(shared / "machine.lock", "a+b") as machine:
        fcntl.flock(turnstile, fcntl.LOCK_EX)  # behind an exclusive test that is waiting, if any
        if alone:
            fcntl.flock(machine, fcntl.LOCK_EX)  # wait for the tests running now to end
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        else:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
            fcntl.flock(machine, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(machine, fcntl.LOCK_UN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    with _machine_share(item.config, alone=item.get_closest_marker("exclusive") is not None):
        yield


# ------------------------------------------------------------------------------ slow modules first
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules holding slow tests first (after any shuffling by pytest-randomly; the order inside each
    module is left as it is): xdist hands out work in this order."""
    slow_modules = {item.module.__name__ for item in items if item.get_closest_marker("slow") and item.module}
    items.sort(key=lambda item: 0 if item.module and item.module.__name__ in slow_modules else 1)
