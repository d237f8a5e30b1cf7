"""genplan runs Fast Downward's translator and search itself where the driver sits in the wheel's layout
(engine/fast_downward.py), and through the driver anywhere else. Both ways must give the same exit codes,
files and reasons: each case here runs both, the driver through a stand-in script outside the wheel's layout
(so that genplan cannot find the components beside it and starts the real driver).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from genplan.engine.fast_downward import OUTPUT_FILE, Components, fast_downward_driver, run_fast_downward_files
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.planner import LMCUT_SEARCH, SOLVED, fast_downward_hit_limit, fast_downward_reason, solve

ROOT = Path(__file__).resolve().parents[1]
FERRY = ROOT / "domains" / "ferry"
DRIVER = fast_downward_driver()
pytestmark = pytest.mark.skipif(DRIVER is None, reason="Fast Downward not found (install up-fast-downward)")

UNREACHABLE_DOMAIN = """(define (domain lock)
  (:requirements :strips)
  (:predicates (key) (open))
  (:action unlock :parameters () :precondition (key) :effect (open)))
"""
UNREACHABLE_PROBLEM = "(define (problem shut) (:domain lock) (:init) (:goal (open)))\n"
BROKEN_DOMAIN = "(define (domain ferry) (:requirements :strips) (:predicates (p)) (:action a :parameters ()\n"


@pytest.fixture
def stand_in_driver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A driver script outside the wheel's layout that records its use and runs the real driver."""
    assert DRIVER is not None
    marker = tmp_path / "driver-used"
    script = tmp_path / "elsewhere" / "fast-downward.py"
    script.parent.mkdir()
    script.write_text(
        "import os, sys\n"
        f"open({str(marker)!r}, 'a').write('x')\n"
        f"os.execv(sys.executable, [sys.executable, {str(DRIVER)!r}, *sys.argv[1:]])\n"
    )
    return script


def both_ways(tmp_path: Path, driver: Path, domain: str, problem: str, **options: object) -> list[tuple[int, str, Path]]:
    assert DRIVER is not None
    results = []
    for name, path in (("components", DRIVER), ("driver", driver)):
        work = tmp_path / name
        work.mkdir()
        (work / "domain.pddl").write_text(domain)
        (work / "problem.pddl").write_text(problem)
        code, output = run_fast_downward_files(path, work, "domain.pddl", "problem.pddl", **options)  # type: ignore[arg-type]
        results.append((code, output, work))
    return results


def test_the_wheel_layout_runs_the_translator_and_the_search_without_the_driver(tmp_path: Path) -> None:
    assert DRIVER is not None and Components.beside(DRIVER) is not None
    (tmp_path / "domain.pddl").write_text((FERRY / "domain.pddl").read_text())
    (tmp_path / "problem.pddl").write_text((FERRY / "debug" / "task-01.pddl").read_text())
    code, output = run_fast_downward_files(DRIVER, tmp_path, "domain.pddl", "problem.pddl",
                                           search=["--search", LMCUT_SEARCH], time_limit=20, memory_mb=2000,
                                           wall_limit=60)
    assert code == 0 and (tmp_path / "plan.txt").is_file()
    assert f"{sys.executable} -S -m fast_downward.translate domain.pddl problem.pddl --sas-file output.sas" in output
    assert "search exit code: 0" in output and "translate exit code: 0" in output
    assert "Planner time" not in output  # the driver's last line: it did not run


def test_solved_the_same_way_with_the_same_plan(tmp_path: Path, stand_in_driver: Path) -> None:
    domain, problem = (FERRY / "domain.pddl").read_text(), (FERRY / "debug" / "task-03.pddl").read_text()
    (ours, _, ours_dir), (theirs, _, theirs_dir) = both_ways(
        tmp_path, stand_in_driver, domain, problem, search=["--search", LMCUT_SEARCH], time_limit=20, memory_mb=2000,
        wall_limit=60)
    assert ours == theirs == 0
    assert (ours_dir / "plan.txt").read_text() == (theirs_dir / "plan.txt").read_text()
    assert (tmp_path / "driver-used").read_text() == "x"


def test_the_translator_alone_writes_the_same_task(tmp_path: Path, stand_in_driver: Path) -> None:
    domain, problem = (FERRY / "domain.pddl").read_text(), (FERRY / "debug" / "task-02.pddl").read_text()
    results = both_ways(tmp_path, stand_in_driver, domain, problem, search=None, time_limit=None, memory_mb=2000,
                        wall_limit=60, translate_options=["--keep-unimportant-variables"])
    assert [code for code, _, _ in results] == [0, 0]
    assert not (results[0][2] / "plan.txt").exists()
    assert (results[0][2] / "output.sas").read_text() == (results[1][2] / "output.sas").read_text()


def test_unsolvable_broken_and_out_of_memory_give_the_drivers_codes_and_reasons(
    tmp_path: Path, stand_in_driver: Path
) -> None:
    cases = {
        "unsolvable": (UNREACHABLE_DOMAIN, UNREACHABLE_PROBLEM, 2000),
        "broken": (BROKEN_DOMAIN, UNREACHABLE_PROBLEM, 2000),
        # enough address space to start Python, too little to import the translator: a MemoryError, exit 30
        "memory": ((FERRY / "domain.pddl").read_text(), (FERRY / "debug" / "task-01.pddl").read_text(), 16),
    }
    for name, (domain, problem, memory_mb) in cases.items():
        (tmp_path / name).mkdir()
        (ours, ours_output, _), (theirs, theirs_output, _) = both_ways(
            tmp_path / name, stand_in_driver, domain, problem, search=["--search", LMCUT_SEARCH], time_limit=20,
            memory_mb=memory_mb, wall_limit=60)
        assert ours == theirs != 0, (name, ours_output[-600:], theirs_output[-600:])
        if name == "broken":  # the reason a user reads is the same either way
            assert fast_downward_reason(ours_output) == fast_downward_reason(theirs_output)
    assert (tmp_path / "driver-used").read_text() == "xxx"


def test_the_cpu_limit_ends_the_search_either_way(tmp_path: Path, stand_in_driver: Path) -> None:
    domain, problem = (FERRY / "domain.pddl").read_text(), (FERRY / "eval" / "task-031.pddl").read_text()
    results = both_ways(tmp_path, stand_in_driver, domain, problem, search=["--search", LMCUT_SEARCH], time_limit=1,
                        memory_mb=2000, wall_limit=60)
    for code, output, work in results:
        assert fast_downward_hit_limit(code), (code, output[-600:])
        assert not (work / "plan.txt").exists()


def test_a_wall_clock_backstop_kills_the_components(tmp_path: Path) -> None:
    assert DRIVER is not None
    (tmp_path / "domain.pddl").write_text((FERRY / "domain.pddl").read_text())
    (tmp_path / "problem.pddl").write_text((FERRY / "eval" / "task-031.pddl").read_text())
    with pytest.raises(subprocess.TimeoutExpired):
        run_fast_downward_files(DRIVER, tmp_path, "domain.pddl", "problem.pddl", search=["--search", LMCUT_SEARCH],
                                time_limit=100, memory_mb=2000, wall_limit=0.5)
    assert (tmp_path / OUTPUT_FILE).exists()
    leftovers = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _runs_in(p, tmp_path)]
    assert leftovers == []


def _runs_in(proc: Path, work: Path) -> bool:
    try:
        return os.readlink(proc / "cwd") == str(work)
    except OSError:
        return False


def test_genplan_plans_through_a_driver_elsewhere(tmp_path: Path, stand_in_driver: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    domain = load_domain(FERRY / "domain.pddl")
    problem = load_problem(FERRY / "debug" / "task-02.pddl", domain)
    ours = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    monkeypatch.setenv("GENPLAN_FAST_DOWNWARD", str(stand_in_driver))
    theirs = solve(domain, problem, optimal=True, timeout=20, planner="fast-downward")
    assert ours.status == theirs.status == SOLVED and ours.plan == theirs.plan
    assert (tmp_path / "driver-used").read_text() == "x"
    shutil.rmtree(tmp_path / "elsewhere")  # the named driver gone: no Fast Downward, as before
    assert solve(domain, problem, optimal=True, timeout=20, planner="fast-downward").status != SOLVED
