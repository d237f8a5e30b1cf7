"""Debug tasks drawn as the paper does: seeded, at random among the smallest tasks of the domain."""

from __future__ import annotations

from pathlib import Path

from genplan.engine.domainlib import DomainDir, draw_debug_tasks
from genplan.engine.pddl.loader import load_domain, load_problem

DOMAINS = Path(__file__).resolve().parents[1] / "domains"


def objects_of(domain: DomainDir, task: Path) -> int:
    return len(load_problem(task, load_domain(domain.domain_file)).objects)


def test_same_seed_same_draw_other_seed_other_draw() -> None:
    ferry = DomainDir.open(DOMAINS / "ferry")

    def by_length(task: Path) -> int:
        return objects_of(ferry, task)

    first = draw_debug_tasks(ferry, 1, plan_length=by_length)
    assert first == draw_debug_tasks(ferry, 1, plan_length=by_length)
    assert len(first) == 6 and len(set(first)) == 6
    others = [draw_debug_tasks(ferry, seed, plan_length=by_length) for seed in (2, 3, 4)]
    assert any(other != first for other in others)
    # not simply the debug/ directory in index order
    assert first != ferry.debug_tasks()


def test_only_small_solved_tasks_qualify(tmp_path: Path) -> None:
    ferry = DomainDir.open(DOMAINS / "ferry")
    pool = [*ferry.debug_tasks(), *ferry.eval_tasks()]
    sizes = {task: objects_of(ferry, task) for task in pool}
    unsolved = pool[0]
    lengths = {task: None if task == unsolved else index for index, task in enumerate(pool)}
    drawn = {t for seed in range(1, 30) for t in draw_debug_tasks(ferry, seed, plan_length=lengths.__getitem__)}
    assert unsolved not in drawn
    # each drawn length is among the 16 smallest plan lengths, each object number among the 16 smallest
    assert all(lengths[task] is not None and lengths[task] <= 16 for task in drawn)
    smallest_sizes = sorted(set(sizes.values()))[:16]
    assert all(sizes[task] in smallest_sizes for task in drawn)
    # the big tasks never show up
    biggest = max(pool, key=lambda t: (sizes[t], lengths[t] or 0))
    assert biggest not in drawn


def test_default_measure_uses_the_optimal_planner(tmp_path: Path) -> None:
    (tmp_path / "domain.pddl").write_bytes((DOMAINS / "gripper" / "domain.pddl").read_bytes())
    for task in DomainDir.open(DOMAINS / "gripper").debug_tasks()[:3]:
        (tmp_path / task.name).write_bytes(task.read_bytes())
    drawn = draw_debug_tasks(DomainDir.open(tmp_path), 1, count=2)
    assert len(drawn) == 2 and all(t.parent == tmp_path for t in drawn)
