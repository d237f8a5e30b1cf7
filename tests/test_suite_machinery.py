"""What lets the suite run on every core (tests/conftest.py): tests marked exclusive have the machine alone,
every test has its own XDG directories, the inner loop leaves out the slow tests, and the slow modules come
first."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from support.machine_share import MachineTurns, machine_share


def test_an_exclusive_test_waits_for_the_running_ones_and_the_later_ones_wait_for_it(tmp_path: Path) -> None:
    log: list[str] = []
    running_shared = threading.Event()
    release_shared = threading.Event()

    def shared_test(name: str, started: threading.Event | None = None, hold: threading.Event | None = None) -> None:
        with machine_share(tmp_path, alone=False):
            log.append(f"{name} start")
            if started:
                started.set()
            if hold:
                hold.wait(10)
            log.append(f"{name} end")

    def exclusive_test() -> None:
        with machine_share(tmp_path, alone=True):
            log.append("exclusive start")
            time.sleep(0.2)
            log.append("exclusive end")

    first = threading.Thread(target=shared_test, args=("first", running_shared, release_shared))
    first.start()
    assert running_shared.wait(10)
    alone = threading.Thread(target=exclusive_test)
    alone.start()
    time.sleep(0.2)  # the exclusive test is now waiting behind the first, holding the turnstile
    later = threading.Thread(target=shared_test, args=("later",))
    later.start()
    time.sleep(0.2)
    assert log == ["first start"]  # neither the exclusive test nor the later shared one has started
    release_shared.set()
    for thread in (first, alone, later):
        thread.join(10)
    assert log == ["first start", "first end", "exclusive start", "exclusive end", "later start", "later end"]


def test_exclusive_tests_in_a_row_wait_for_the_others_once(tmp_path: Path) -> None:
    turns = MachineTurns(tmp_path)
    shared_inside = threading.Event()

    def shared_test() -> None:
        with machine_share(tmp_path, alone=False):
            shared_inside.set()

    with turns.turn(alone=True, next_alone=True):
        pass
    between = threading.Thread(target=shared_test)
    between.start()  # between the two exclusive tests: the machine is still held
    assert not shared_inside.wait(0.3)
    with turns.turn(alone=True, next_alone=False):
        assert not shared_inside.is_set()
    assert shared_inside.wait(10)  # released after the last of the run
    between.join(10)
    with turns.turn(alone=False, next_alone=False):  # a shared test takes the machine shared, holds nothing after
        pass
    with machine_share(tmp_path, alone=True):
        pass


def test_shared_tests_run_beside_each_other(tmp_path: Path) -> None:
    inside = threading.Barrier(2, timeout=10)

    def shared_test() -> None:
        with machine_share(tmp_path, alone=False):
            inside.wait()  # both are inside at once, or the barrier breaks

    threads = [threading.Thread(target=shared_test) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not inside.broken


def test_each_test_has_its_own_xdg_directories(tmp_path_factory: pytest.TempPathFactory) -> None:
    names = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
    paths = [Path(os.environ[name]) for name in names]
    assert len(set(paths)) == 4
    assert all(path.is_relative_to(tmp_path_factory.getbasetemp()) for path in paths)


def test_the_inner_loop_leaves_out_the_slow_modules_and_they_come_first(request: pytest.FixtureRequest) -> None:
    from types import SimpleNamespace

    from conftest import LONGEST_MODULES, SLOW_MODULES, SLOW_TESTS, _is_slow

    def item(module: str, nodeid: str):
        return SimpleNamespace(module=SimpleNamespace(__name__=module), nodeid=nodeid)

    assert _is_slow(item("test_autotos_import", "tests/test_autotos_import.py::test_x"))
    assert not _is_slow(item("test_events", "tests/test_events.py::test_x[1]"))
    tests = Path(__file__).parent
    assert all((tests / f"{name}.py").is_file() for name in SLOW_MODULES)  # no stale name in the list
    assert set(LONGEST_MODULES) <= SLOW_MODULES
    for test in SLOW_TESTS:  # no stale name: each names a test function of its file
        path, name = test.split("::")
        assert f"def {name}(" in (tests.parent / path).read_text(), test
    # xdist keeps this order only without its own reordering of modules by their number of tests
    assert request.config.getoption("loadscopereorder") is False
    items = request.session.items
    marked = [item for item in items if item.get_closest_marker("slow")]
    if len(items) > 1 and marked:  # the whole suite (or a part with slow tests) was collected here
        first_quick = next((i for i, item in enumerate(items) if not item.get_closest_marker("slow")
                            and not any(m.nodeid.split("::")[0] == item.nodeid.split("::")[0] for m in marked)), len(items))
        assert all(i < first_quick for i, item in enumerate(items) if item.get_closest_marker("slow"))
        if items[0].get_closest_marker("slow"):  # the whole suite: modules with exclusive tests, then the longest
            leading = list(dict.fromkeys(item.nodeid.split("::")[0] for item in items))
            exclusive = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("exclusive")}
            assert set(leading[: len(exclusive)]) == exclusive
            for module in exclusive:  # each such module starts with its exclusive tests
                own = [item.get_closest_marker("exclusive") is not None for item in items
                       if item.nodeid.split("::")[0] == module]
                assert own == sorted(own, reverse=True), module
            present = [f"tests/{name}.py" for name in LONGEST_MODULES if any(f"tests/{name}.py" == m for m in leading)]
            assert leading[len(exclusive): len(exclusive) + len(present)] == present
    assert request.node.get_closest_marker("slow") is None  # this module is part of the inner loop


def test_the_suite_starts_half_again_as_many_workers_as_cores(request: pytest.FixtureRequest) -> None:
    from conftest import pytest_xdist_auto_num_workers, workers_for

    assert [workers_for(cores) for cores in (1, 2, 3, 4, 8)] == [1, 3, 4, 6, 12]
    assert pytest_xdist_auto_num_workers(request.config) == workers_for(len(os.sched_getaffinity(0)))
    # pyproject.toml asks for the automatic count, which xdist takes from the hook above
    addopts = request.config.getini("addopts")
    assert addopts[addopts.index("-n") + 1] == "logical"


def test_ci_runs_the_readmes_test_command() -> None:
    root = Path(__file__).resolve().parents[1]
    quickstart = (root / "README.md").read_text().split("## Quickstart", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    readme_test_command = [line for line in quickstart.splitlines() if "pytest" in line]
    ci_commands = [line for line in (root / ".ci" / "run").read_text().splitlines() if "pytest" in line and not line.startswith("#")]
    assert len(readme_test_command) == 1 and ci_commands == readme_test_command
    # the app's line installs the same way (the same pinned installer), only without the test extra
    app_command = [line for line in quickstart.splitlines() if "genplan-tui" in line]
    assert len(app_command) == 1
    install = readme_test_command[0].split(" && .venv/bin/python -m pytest")[0]
    assert app_command[0] == install.replace("-e '.[test]'", "-e .") + " && .venv/bin/genplan-tui domains/ferry"
