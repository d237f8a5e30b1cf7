"""The fast path for problem files agrees with the full loader (the `pddl` package) on every task."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.engine.domainlib import list_domains
from genplan.engine.pddl import load_domain, parse_problem_text
from genplan.engine.pddl.fastproblem import parse_problem_fast

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "benchmarks"


def _same(domain_file: Path, task_files: list[Path]) -> int:
    domain = load_domain(domain_file)
    fast_count = 0
    for path in task_files:
        text = path.read_text()
        full = parse_problem_text(text, domain, path)
        fast = parse_problem_fast(text, domain, path)
        if fast is None:
            continue
        fast_count += 1
        for field in ("name", "domain_name", "objects", "init", "goal_pos", "goal_neg", "goal_conditions", "warnings"):
            assert getattr(fast, field) == getattr(full, field), (path, field)
    return fast_count


@pytest.mark.parametrize("domain_dir", list_domains(ROOT / "domains"), ids=lambda d: d.name)
def test_fast_path_equals_full_loader_on_our_domains(domain_dir) -> None:
    tasks = domain_dir.debug_tasks() + domain_dir.eval_tasks()[:8] + domain_dir.probe_tasks()
    domain = load_domain(domain_dir.domain_file)
    # goals with compound conditions (recycling's forall) are left to the full loader
    plain = [p for p in domain_dir.debug_tasks() if not parse_problem_text(p.read_text(), domain, p).goal_conditions]
    assert _same(domain_dir.domain_file, tasks) >= len(plain)


def test_fast_path_equals_full_loader_on_the_shared_benchmarks() -> None:
    if not SHARED.is_dir():
        pytest.skip(f"../shared/benchmarks not found beside the checkout ({SHARED}): benchmark data is absent")
    for domain_dir in sorted(SHARED.iterdir()):
        if (domain_dir / "domain.pddl").exists():
            tasks = sorted((domain_dir / "problems_pddl").glob("instance-[0-9].pddl"))
            assert _same(domain_dir / "domain.pddl", tasks) == len(tasks), domain_dir.name


def test_unusual_or_broken_files_fall_back_to_the_full_loader() -> None:
    domain = load_domain(ROOT / "domains" / "ferry" / "domain.pddl")
    plain = "(define (problem p) (:domain ferry) (:objects a b) (:init (location a) (location b) (at-ferry a)) (:goal (at-ferry b)))"
    assert parse_problem_fast(plain, domain) is not None
    for odd in (
        plain.replace("(:goal (at-ferry b))", "(:goal (or (at-ferry b) (at-ferry a)))"),  # unsupported
        plain.replace("(location b)", "(location c)"),  # undeclared object
        plain.replace("(at-ferry a))", "(at-ferry a b))"),  # wrong arity
        plain.replace("(:domain ferry)", "(:domain ferry) (:requirements :strips)"),
        plain[:-1],  # unbalanced
    ):
        assert parse_problem_fast(odd, domain) is None


def test_runs_of_atoms_are_checked_atom_by_atom() -> None:
    """The reader takes the atoms of one predicate that follow each other as one run (a stride through the
    tokens): an atom with one argument too few or too many, a nested one, or one of another type in the middle
    of a run sends the file to the full loader, which reports it; duplicates, runs of several predicates, a
    negated goal and a single goal atom are read as the full loader reads them."""
    domain = load_domain(ROOT / "domains" / "ferry" / "domain.pddl")
    atoms = " ".join(f"(not-eq l{i} l{j})" for i in range(4) for j in range(4) if i != j)
    plain = (f"(define (problem p) (:domain ferry) (:objects l0 l1 l2 l3 c0) (:init (location l0) (location l1) "
             f"(location l2) (location l3) (car c0) {atoms} (at c0 l0) (at-ferry l1) (empty-ferry)) "
             f"(:goal (and (at c0 l3) (at-ferry l2))))")
    for good in (
        plain,
        plain.replace("(at c0 l0)", "(at c0 l0) (not-eq l0 l1) (at c0 l0)"),  # duplicates, a predicate's second run
        plain.replace("(at-ferry l2))", "(not (at-ferry l0)))"),  # a negated goal
        plain.replace("(:goal (and (at c0 l3) (at-ferry l2)))", "(:goal (at c0 l3))"),  # a single goal atom
    ):
        fast = parse_problem_fast(good, domain)
        assert fast is not None, good
        full = parse_problem_text(good, domain)
        for field in ("objects", "init", "goal_pos", "goal_neg"):
            assert getattr(fast, field) == getattr(full, field), (good, field)
    for odd in (
        plain.replace("(not-eq l1 l2)", "(not-eq l1)"),  # one argument too few, in the middle of a run
        plain.replace("(not-eq l1 l2)", "(not-eq l1 l2 l3)"),  # one too many
        plain.replace("(not-eq l1 l2)", "(not-eq l1 (l2))"),  # nested
        plain.replace("(not-eq l1 l2)", "(not-eq l1 l9)"),  # an undeclared object
        plain.replace("(location l3)", "(location l3) l3"),  # a bare symbol among the atoms
        plain.replace("(at-ferry l2))", "(at-ferry l2 l3))"),  # a goal atom of the wrong arity
        # sections out of the grammar's order (the full loader rejects the file)
        plain.replace("(:domain ferry) (:objects l0 l1 l2 l3 c0)", "(:domain ferry)").replace(
            "(:goal", "(:objects l0 l1 l2 l3 c0) (:goal"),
    ):
        assert parse_problem_fast(odd, domain) is None, odd
