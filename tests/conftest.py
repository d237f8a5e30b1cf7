"""Fixtures shared by all tests, and what lets the suite run on every core (pytest-xdist, see README.md).

- Every test gets its own XDG config, cache, data and state directories: no test reads the user's settings or
  the response cache, and two tests running at once never share one.
- A test marked ``exclusive`` (kill -9 in the middle of work, the sandbox's kernel limits, time limits
  measured on the wall clock) runs with no other test beside it, setup and teardown included
  (tests/support/machine_share.py); exclusive tests run one after the other keep the machine from the first
  to the last, so the running tests are waited for once.
- Scripted runs that several modules need are recorded once per session and shared by every worker
  (``buggy_then_fixed_ferry``); each module works on its own copy.
- Modules with ``exclusive`` tests are handed out first, those tests at their head: an exclusive test waits
  for the tests running beside it, and at the start those are the first tests of other modules, not a minute
  long replay (the waits cost 22 s of idle workers when they fell anywhere). Then the modules with tests marked
  ``slow``, the longest of them before the rest, so no worker starts a long test when the others are about to
  finish.
- A module that leaves a process or a listening port behind fails, and so does a session that leaves a file in
  the checkout or in the user's own directories (tests/support/leak_guard.py).
- Bytecode is cached as a default Python does, even where the environment says not to (see ``_cache_bytecode``).
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.leak_guard import LeakGuard
from support.machine_share import MachineTurns
from support.scripted_server import ScriptedServer


def pytest_configure(config: pytest.Config) -> None:
    _cache_bytecode()
    if not config.pluginmanager.has_plugin("leak_guard"):  # a test may run an inner session (pytester)
        config.pluginmanager.register(LeakGuard(Path(__file__).resolve().parent.parent), "leak_guard")
    config.addinivalue_line("markers", "slow: takes more than a few seconds; left out of the inner loop (-m 'not slow')")
    config.addinivalue_line("markers", "exclusive: cannot share the machine with another test; runs alone")


def _cache_bytecode() -> None:
    """Let this process, the workers (started after this hook, with this environment) and every subprocess the
    tests start (``python -m genplan ...``, the sandbox's servers read what others wrote) write and reuse
    bytecode caches. With PYTHONDONTWRITEBYTECODE set, as on the development machine, each worker rewrote the
    assertions of all ~280 test modules (9 s of CPU) and every subprocess compiled genplan's sources again;
    the caches go to __pycache__/ (ignored by git), as Python's default puts them."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


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


def workers_for(cores: int) -> int:
    """Half again as many workers as cores: a test waits for servers, subprocesses and the app a third of its
    time (CPU/wall 0.67 per test, benchmarks/README.md), so one worker per core leaves a core idle."""
    return max(1, cores * 3 // 2)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """What ``-n logical`` (pyproject.toml) starts; ``-n N`` on the command line still decides."""
    return workers_for(len(os.sched_getaffinity(0)))


_turns: MachineTurns | None = None  # this worker's (made at its first test: the shared directory is known then)


def _exclusive(item: pytest.Item | None) -> bool:
    return item is not None and item.get_closest_marker("exclusive") is not None


@pytest.hookimpl(hookwrapper=True, tryfirst=True)  # outermost: pytest-timeout's clock starts once the lock is held
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    global _turns
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield  # one process: tests already run one at a time
        return
    if _turns is None:
        _turns = MachineTurns(_shared_dir(item.config))
    with _turns.turn(alone=_exclusive(item), next_alone=_exclusive(nextitem)):
        yield


# ------------------------------------------------------------------------------ slow tests
# Marked `slow` here rather than in each file, so the inner loop (-m "not slow", README.md) is one list to keep:
# modules whose tests drive whole runs (the pipeline against the scripted server, the TUI through Pilot or tmux,
# sandboxed evaluations, the planners, Ray, mypy), and single long tests in otherwise quick modules. Measured
# with --durations (benchmarks/README.md); a test over about 2 s belongs here.
SLOW_MODULES = frozenset({
    "test_adl_domains", "test_api_front_end", "test_approaches", "test_autotos_feedback", "test_autotos_import",
    "test_autotos_live", "test_autotos_run", "test_batch", "test_batch_games", "test_cli_eval", "test_cli_run",
    "test_counterexample_loop", "test_counterexample_trust", "test_domain_sources", "test_evaluation", "test_faithful",
    "test_faithful_eval", "test_fault_injection", "test_old_runs", "test_own_loop_replay", "test_own_loop_resume",
    "test_pddlego_fork", "test_pddlego_import", "test_pddlego_loop", "test_pddlego_run", "test_pipeline_fidelity",
    "test_pipeline_stein", "test_pipeline_steering", "test_reproduce", "test_reproduce_paper_grid", "test_run_failures",
    "test_run_ownership", "test_run_service", "test_sandbox_containment", "test_sandbox_kernel", "test_silver_import",
    "test_static_checks", "test_tui_autotos_run", "test_tui_classroom", "test_tui_continue", "test_tui_escape",
    "test_tui_keys", "test_tui_papercuts", "test_tui_pddlego_run", "test_tui_responsiveness", "test_tui_stories",
    "test_tui_tmux", "test_tui_versions", "test_tui_versions_tree", "test_tui_views", "test_variants",
    "test_cli_edit_fork", "test_edit_lineage", "test_tui_lineage", "test_tui_tmux_lineage",
    # ctrl+c sent to `genplan run` processes, an internal error and resumes; host-side parses in threads under stress
    "test_run_endings", "test_parse_threads",
    # Fast Downward at its 20 s limit per task (it timed out at 80 s beside other work); headless chromium
    "test_planner_conformance", "test_share", "test_share_own_loops", "test_tui_share",
    "test_planner_deadlines", "test_fast_downward_reasons",
    "test_leak_guard",  # a pytest of its own per test
    "test_tui_open_run", "test_tui_tmux_open_run",
})
# Single tests of quick modules over about 2 CPU s (per-test CPU in the whole suite, 2026-11-28): planners and VAL
# on generated and shared tasks, counterexample shrinking, whole runs in the TUI and the Table 8 budget.
SLOW_TESTS: frozenset[str] = frozenset({
    "tests/test_adl_heldout.py::test_heldout_domain",
    "tests/test_counterexample.py::test_a_wrong_program_is_caught_and_shrunk_to_a_few_objects_on_every_own_domain",
    "tests/test_counterexample.py::test_a_correct_program_yields_no_counterexample",
    "tests/test_conformance_shared.py::test_the_optimal_planner_matches_every_optimal_debug_plan",
    "tests/test_conformance_shared.py::test_mutated_plans_get_the_verdict_of_pyval",
    "tests/test_planner.py::test_fast_downward_solves_debug_task_optimally",
    "tests/test_autotos_pddl.py::test_a_correct_pair_solves_every_debug_task_optimally_by_bfs",
    "tests/test_pipeline_budget.py::test_call_count_within_table_8",
    "tests/test_pddl_lenient.py::test_lenient_mode_loads_more_real_model_output_and_never_crashes",
    "tests/test_pddl_fast_problems.py::test_fast_path_equals_full_loader_on_the_shared_benchmarks",
    "tests/test_tui_readable.py::test_a_classroom_replay_at_80x24_names_every_rows_task_and_lists_the_replay_keys",
    "tests/test_docs_screenshots.py::test_the_script_saves_svg_screens_of_the_app",
    "tests/test_tui_counterexample.py::test_counterexample_key_plan_stepper_and_continue_with_this_task",
    "tests/test_debug_draw.py::test_only_small_solved_tasks_qualify",
    "tests/test_generalize.py::test_generalize_command",
    "tests/test_tui_step.py::test_step_mode_send_edit_answer_watch_and_stop",
    "tests/test_pddlego_tiebreak.py::test_a_trial_that_differed_by_a_tie_now_replays_as_logged",
})
# The longest modules, longest first, ahead of all others: a worker that takes one of them late runs alone at the
# end. From the per-module sums of --durations on 2026-11-28 (benchmarks/README.md "The test suite"): Fast
# Downward on every library and shared task, the variants' runs, the AutoToS import replays, mypy and lint-imports.
LONGEST_MODULES = ("test_planner_conformance", "test_variants", "test_autotos_import", "test_static_checks")


def _is_slow(item: pytest.Item) -> bool:
    module = item.module.__name__ if getattr(item, "module", None) else ""
    return module in SLOW_MODULES or item.nodeid.split("[")[0] in SLOW_TESTS


def pytest_itemcollected(item: pytest.Item) -> None:
    if _is_slow(item):
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules with exclusive tests first (those tests at their head), then the longest modules, then the others
    holding slow tests (after any shuffling by pytest-randomly; the order inside each module is left as it is
    but for the exclusive tests): xdist hands out whole modules in this order
    (--no-loadscope-reorder in pyproject.toml keeps it from sorting them by their number of tests)."""
    slow_modules = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    exclusive_modules = {item.nodeid.split("::")[0] for item in items if _exclusive(item)}
    longest = {f"tests/{name}.py": rank for rank, name in enumerate(LONGEST_MODULES)}

    def place(item: pytest.Item) -> tuple[int, int, int, int]:
        path = item.nodeid.split("::")[0]
        if path in exclusive_modules:  # at the very start, their exclusive tests first: the running tests an
            return (0, 0, 0, 0 if _exclusive(item) else 1)  # exclusive one waits for are the first, short ones
        return (1, longest.get(path, len(longest)), 0 if path in slow_modules else 1, 0)

    items.sort(key=place)
