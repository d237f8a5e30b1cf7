"""The domains library: every directory below domains/ with a domain.toml keeps the domain contract."""

from __future__ import annotations

import functools
import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import Problem, load_domain, load_problem
from genplan.engine.pddl.model import Task

DOMAINS_ROOT = Path(__file__).resolve().parents[1] / "domains"
DOMAIN_DIRS = sorted(p for p in DOMAINS_ROOT.iterdir() if p.is_dir() and (p / "domain.toml").is_file())
MAX_TASK_BYTES = 300_000


@functools.cache
def parsed_tasks(domain_path: Path) -> list[tuple[Path, Problem]]:
    """Every task of a domain directory, parsed once per test session (parsing dominates this file's time)."""
    domain = DomainDir.open(domain_path)
    parsed_domain = load_domain(domain.domain_file)
    tasks = [*domain.debug_tasks(), *domain.eval_tasks(), *domain.probe_tasks()]
    return [(task, load_problem(task, parsed_domain)) for task in tasks]


def load_make_tasks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_genplan_make_tasks", DOMAINS_ROOT / "make_tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_library_has_the_core_domains() -> None:
    names = {p.name for p in DOMAIN_DIRS}
    assert {"ferry", "gripper", "grippers", "logistics", "blocksworld", "miconic", "spanner"} <= names


# The 17 domains Stein et al. evaluate on (their Table 10), each with a generator in the library.
PAPER_DOMAINS = (
    "delivery", "ferry", "gripper", "heavy", "hiking", "miconic", "spanner",
    "beluga", "blocksworld", "goldminer", "grippers", "logistics", "minigrid", "rovers", "satellite",
    "transport", "visitall",
)


def test_library_has_all_17_domains_of_the_paper_with_generators() -> None:
    for name in PAPER_DOMAINS:
        domain = DomainDir.open(DOMAINS_ROOT / name)
        assert domain.load_generator() is not None, name
        assert f"`{name}`" in (DOMAINS_ROOT / "README.md").read_text(encoding="utf-8"), f"{name} missing in the table"


@pytest.fixture(params=DOMAIN_DIRS, ids=[p.name for p in DOMAIN_DIRS])
def domain(request: pytest.FixtureRequest) -> DomainDir:
    return DomainDir.open(request.param)


def test_metadata_matches_directory(domain: DomainDir) -> None:
    assert domain.name == domain.path.name
    assert domain.description.strip()
    assert (domain.path / "README.md").is_file()
    assert load_domain(domain.domain_file).name == domain.name


def test_task_counts(domain: DomainDir) -> None:
    assert [p.name for p in domain.debug_tasks()] == [f"task-{i:02d}.pddl" for i in range(6)]
    evals = domain.eval_tasks()
    assert len(evals) >= 30
    assert [p.name for p in evals] == [f"task-{i:03d}.pddl" for i in range(len(evals))]


def test_every_task_parses(domain: DomainDir) -> None:
    tasks = parsed_tasks(domain.path)
    assert len(tasks) >= 36
    for task, problem in tasks:
        assert task.stat().st_size < MAX_TASK_BYTES, f"{task} is too large"
        assert problem.objects, f"{task} has no objects"


def test_no_task_is_solved_by_the_empty_plan(domain: DomainDir) -> None:
    generated = set(domain.debug_tasks()) | set(domain.eval_tasks())
    parsed_domain = load_domain(domain.domain_file)
    for task, problem in parsed_tasks(domain.path):
        if task not in generated:
            continue  # probes may test corner cases on purpose
        # the whole goal, quantified parts included (recycling's goal is a forall)
        holds = Task(parsed_domain, problem).goal_reached(frozenset(problem.init))
        assert not holds, f"{task}: the goal already holds in the initial state"


def test_eval_tasks_grow(domain: DomainDir) -> None:
    sizes = [p.stat().st_size for p in domain.eval_tasks()]
    assert sizes[-1] > 4 * sizes[0]
    debug_largest = max(p.stat().st_size for p in domain.debug_tasks())
    assert sizes[-1] > debug_largest


def test_generator_is_deterministic(domain: DomainDir) -> None:
    seed, sizes = domain.task_specs("eval")[len(domain.task_specs("eval")) // 2]
    text = domain.generate(seed, **sizes)
    assert text == domain.generate(seed, **sizes)
    assert text != domain.generate(seed + 1, **sizes)
    default_text = domain.generate(7)
    assert default_text == domain.generate(7)


def test_committed_tasks_are_reproduced_byte_for_byte(domain: DomainDir) -> None:
    make_tasks = load_make_tasks()
    assert make_tasks.sync_domain(domain, check_only=True) == []
    # The same check spelled out for the debug tasks, independent of the script.
    for index, (seed, sizes) in enumerate(domain.task_specs("debug")):
        path = domain.task_file("debug", index)
        assert path.read_text(encoding="utf-8") == domain.generate(seed, **sizes), path


def test_make_tasks_writes_checks_and_cleans(tmp_path: Path) -> None:
    make_tasks = load_make_tasks()
    copy = tmp_path / "ferry"
    shutil.copytree(DOMAINS_ROOT / "ferry", copy)
    domain = DomainDir.open(copy)
    first_debug = domain.task_file("debug", 0)
    first_debug.write_text("edited\n", encoding="utf-8")
    (copy / "eval" / "task-999.pddl").write_text("stale\n", encoding="utf-8")
    readme = copy / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("| 1000 |", "| 1 |"), encoding="utf-8")

    problems = make_tasks.sync_domain(domain, check_only=True)
    assert len(problems) == 3
    assert first_debug.read_text(encoding="utf-8") == "edited\n"  # --check never writes

    make_tasks.sync_domain(domain, check_only=False)
    assert make_tasks.sync_domain(domain, check_only=True) == []
    assert not (copy / "eval" / "task-999.pddl").exists()
    assert first_debug.read_text(encoding="utf-8") == (DOMAINS_ROOT / "ferry" / "debug" / "task-00.pddl").read_text(
        encoding="utf-8"
    )
    assert readme.read_text(encoding="utf-8") == (DOMAINS_ROOT / "ferry" / "README.md").read_text(encoding="utf-8")
