"""Planner conformance: genplan's planner path against Fast Downward on the user's own files.

genplan never hands Fast Downward the user's files: it reads them, and writes the task back as it understood
it (engine/pddl/writer.py). A slip in that round trip once made every task of the IPC gripper "unsolvable"
(a parameter of type `object` written bare took the next parameter's type). This suite runs, for each task:

1. Fast Downward directly on the original files (same optimal search, A* with max(LM-cut, M&S)), its
   translator and search started as genplan starts them, without the driver script;
2. genplan's planner path (`engine.planner.solve`, Fast Downward through the translation, the plan checked by
   genplan's validator, "unsolvable" after a rewrite confirmed by the built-in search);

and asks for the same verdict (solved / unsolvable), the same optimal plan length, and a plan that genplan's
validator and VAL (`../shared/tools/val/validate`, when present) both accept on the original files.

Tasks: every debug task of every domain directory in `domains/` (their costumed and anonymized variants
included), every task of `tests/data/quirks/` and `tests/data/quirks/planner/`, and the six debug tasks of each
domain of `../shared/benchmarks` (skipped with a reason when ../shared is absent). With Fast Downward missing,
the whole file is skipped. Runtime: about 240 tasks, two planner calls each, about 1.5 minutes of CPU time.
Where either side hits the time limit (a busy machine), there is no verdict to compare; genplan's side must
still give no fault and no "unknown".
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from genplan.engine.domainlib import DomainDir
from genplan.engine.fast_downward import run_fast_downward_files
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.plans import parse_plan_text
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import (
    LIMIT,
    OPTIMAL_SEARCH,
    SOLVED,
    UNSOLVABLE,
    _searches,
    builtin_search,
    fast_downward_driver,
    solve,
)

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
BENCHMARKS = SHARED / "benchmarks"
VAL = SHARED / "tools" / "val" / "validate"
QUIRKS = ROOT / "tests" / "data" / "quirks"
SECONDS = 20  # per planner call; every chosen task takes Fast Downward a second or two
MEMORY_MB = 4096  # as genplan plans
DRIVER = fast_downward_driver()

pytestmark = pytest.mark.skipif(
    DRIVER is None, reason="Fast Downward not found (install up-fast-downward or set GENPLAN_FAST_DOWNWARD)"
)


@dataclass(frozen=True)
class Case:
    label: str
    domain: Path
    problem: Path


def library_cases() -> list[Case]:
    cases = []
    for directory in sorted(p for p in (ROOT / "domains").iterdir() if (p / "domain.toml").is_file()):
        domain_dir = DomainDir.open(directory)
        for task in domain_dir.debug_tasks():
            cases.append(Case(f"domains/{directory.name}/{task.stem}", domain_dir.domain_file, task))
    return cases


def quirk_cases() -> list[Case]:
    cases = []
    for folder in (QUIRKS, QUIRKS / "planner"):
        for domain in sorted(folder.glob("*-domain.pddl")):
            name = domain.name.removesuffix("-domain.pddl")
            label = f"{folder.relative_to(ROOT / 'tests' / 'data')}/{name}"
            cases.append(Case(label, domain, folder / f"{name}-problem.pddl"))
    return cases


def benchmark_cases() -> list[Case]:
    if not BENCHMARKS.is_dir():
        return []
    cases = []
    for directory in sorted(p for p in BENCHMARKS.iterdir() if (p / "domain.pddl").is_file()):
        debug = [directory / "problems_pddl" / f"instance-{i}.pddl" for i in range(6)]
        for task in [t for t in debug if t.is_file()]:
            cases.append(Case(f"shared/{directory.name}/{task.stem}", directory / "domain.pddl", task))
    return cases


@dataclass(frozen=True)
class Verdict:
    status: str  # SOLVED, UNSOLVABLE, LIMIT or "error"
    plan: list[str] | None
    output: str = ""
    seconds: float = 0.0


def fast_downward_on_the_original_files(case: Case, search: str = OPTIMAL_SEARCH) -> Verdict:
    """The driver on the user's files, exactly as written, with genplan's optimal search; where that search does
    not support the translated task (exit code 34: conditional effects, axioms), the next one genplan would try
    (engine/planner.py, ``_searches``)."""
    assert DRIVER is not None
    verdict = _fast_downward_on_the_original_files(case, search)
    if "search exit code: 34" in verdict.output or "Tried to use unsupported feature" in verdict.output:
        domain = load_domain(case.domain)
        searches = [s[1][-1] for s in _searches(domain, load_problem(case.problem, domain), True, "lmcut-max-ms")]
        if search in searches and searches.index(search) + 1 < len(searches):
            return fast_downward_on_the_original_files(case, searches[searches.index(search) + 1])
        if search not in searches:
            return fast_downward_on_the_original_files(case, searches[0])
    return verdict


def _fast_downward_on_the_original_files(case: Case, search: str) -> Verdict:
    """Fast Downward's translator and search on copies of the user's files, byte for byte, started as genplan
    starts them (engine/fast_downward.py: the driver's command lines, limits and exit codes without the
    driver's own Python start, 75 ms a run; tests/test_fast_downward_components.py holds that runner to the
    driver). What differs from genplan's side is the input: the files as written, not genplan's rewrite."""
    assert DRIVER is not None
    with tempfile.TemporaryDirectory(prefix="genplan-conformance-") as tmp:
        work = Path(tmp)
        shutil.copyfile(case.domain, work / "domain.pddl")
        shutil.copyfile(case.problem, work / "problem.pddl")
        start = time.monotonic()
        returncode, output = run_fast_downward_files(
            DRIVER, work, "domain.pddl", "problem.pddl", search=["--search", search], time_limit=SECONDS,
            memory_mb=MEMORY_MB, wall_limit=SECONDS + 60)
        seconds = time.monotonic() - start
        plan_file = work / "plan.txt"
        if returncode == 0 and plan_file.exists():
            return Verdict(SOLVED, [s.pddl() for s in parse_plan_text(plan_file.read_text())], seconds=seconds)
        if returncode in (10, 11):
            return Verdict(UNSOLVABLE, None)
        if returncode in (12, 22, 23, 24):
            return Verdict(LIMIT, None)
        return Verdict("error", None, output[-800:])


def val_says_valid(case: Case, plan: list[str]) -> tuple[bool, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".plan", delete=False) as handle:
        handle.write("\n".join(plan) + "\n")
    try:
        done = subprocess.run([str(VAL), str(case.domain), str(case.problem), handle.name],
                              capture_output=True, text=True, timeout=120, check=False)
    finally:
        Path(handle.name).unlink()
    return "Plan valid" in done.stdout, done.stdout[-600:]


# Legal PDDL that Fast Downward's own parser refuses (what it says): genplan plans these through its
# translation; the plan must then be as short as the built-in breadth-first search's and valid under VAL.
FAST_DOWNWARD_REFUSES = {
    "quirks/constants-either-equality": "Type value is expected to be a single word",  # (either crate)
    "quirks/name-mismatch": "does not match the name specified by the domain file",
}


def check(case: Case) -> None:
    original = fast_downward_on_the_original_files(case)
    domain = load_domain(case.domain)
    problem = load_problem(case.problem, domain)
    ours = solve(domain, problem, optimal=True, timeout=SECONDS, planner="fast-downward")
    if case.label in FAST_DOWNWARD_REFUSES:
        assert original.status == "error" and FAST_DOWNWARD_REFUSES[case.label] in original.output, original
        second = builtin_search(domain, problem, optimal=True, timeout=SECONDS)
        assert second.status == SOLVED and second.plan is not None, second
        original = Verdict(SOLVED, second.plan)
    assert original.status in (SOLVED, UNSOLVABLE, LIMIT), f"{case.label}: Fast Downward on the files: {original}"
    assert ours.status in (SOLVED, UNSOLVABLE, LIMIT), f"{case.label}: genplan says {ours.summary()}"
    if LIMIT in (original.status, ours.status):  # a busy machine: no verdict to compare, but no contradiction
        assert original.status != SOLVED or original.seconds > SECONDS / 4, (
            f"{case.label}: Fast Downward solved the files in {original.seconds:.1f} s, genplan: {ours.summary()}"
        )
        if ours.plan is not None:
            assert validate_plan(domain, problem, ours.plan).valid
        return
    assert ours.status == original.status, f"{case.label}: genplan says {ours.summary()}, Fast Downward {original.status}"
    if original.plan is None:
        return
    assert ours.plan is not None
    assert len(ours.plan) == len(original.plan), (
        f"{case.label}: optimal length {len(ours.plan)} through genplan, {len(original.plan)} on the files"
    )
    for plan in (ours.plan, original.plan):
        verdict = validate_plan(domain, problem, plan)
        assert verdict.valid, f"{case.label}: genplan's validator refuses {plan}: {verdict}"
    if VAL.exists():
        valid, output = val_says_valid(case, ours.plan)
        assert valid, f"{case.label}: VAL refuses genplan's plan {ours.plan}: {output}"


LIBRARY = library_cases()
QUIRK_CASES = quirk_cases()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("case", LIBRARY, ids=[c.label for c in LIBRARY])
def test_library_domains(case: Case) -> None:
    check(case)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", QUIRK_CASES, ids=[c.label for c in QUIRK_CASES])
def test_quirky_domains(case: Case) -> None:
    check(case)


BENCHMARK_DOMAINS = sorted(p.name for p in BENCHMARKS.iterdir() if (p / "domain.pddl").is_file()) if BENCHMARKS.is_dir() else []


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", BENCHMARK_DOMAINS or ["(absent)"])
def test_shared_benchmarks(name: str) -> None:
    if not BENCHMARKS.is_dir():
        pytest.skip(f"../shared/benchmarks not found beside the checkout ({BENCHMARKS}): no benchmark tasks to compare")
    cases = [c for c in benchmark_cases() if c.label.startswith(f"shared/{name}/")]
    assert len(cases) == 6
    for case in cases:
        check(case)


def test_the_suite_covers_every_kind_of_domain() -> None:
    labels = [c.label for c in LIBRARY]
    assert any("-costumed/" in label for label in labels) and any("anonymized" in label for label in labels)
    assert len({label.split("/")[1] for label in labels}) == len(
        [p for p in (ROOT / "domains").iterdir() if (p / "domain.toml").is_file()]
    )
    quirks = {c.label for c in QUIRK_CASES}
    assert {"quirks/object-in-types", "quirks/planner/unsolvable-object-in-types"} <= quirks
    if not VAL.exists():
        pytest.skip(f"VAL not found at {VAL}: plans were checked by genplan's validator only")
