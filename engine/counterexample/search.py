"""The counterexample search and the shrinker (see the package docstring)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..domainlib import DomainDir, DomainDirError
from ..errors import GenplanError
from ..evaluation import EvalTask, Evaluator, OrderingResult, hash_seed_for
from ..pddl import Domain, PddlError, Problem, load_domain, load_problem, parse_problem_text
from ..pddl.encoding import encode_task, render_task, shuffled_task
from ..pddl.model import Fact
from ..pddl.writer import problem_to_pddl
from ..planner import LIMIT, SOLVED, solve
from ..sandbox import Limits, Program, Sandbox

SEED_BASE = 70_000  # far from the debug (1..), eval (1000..) and generalize (50 000..) seeds
BUILTIN_PLANNER_SECONDS = 1.0  # the built-in search decides small tasks at once; beyond, Fast Downward


class CounterexampleError(GenplanError):
    """An unusable domain or budget (one line)."""


@dataclass(frozen=True)
class TaskSize:
    objects: int
    init: int
    goal: int

    @classmethod
    def of(cls, problem: Problem) -> TaskSize:
        return cls(len(problem.objects), len(problem.init), len(problem.goal_pos) + len(problem.goal_neg))

    def text(self) -> str:
        return f"{self.objects} objects, {self.init} initial facts, {self.goal} goal facts"

    def to_dict(self) -> dict[str, int]:
        return {"objects": self.objects, "init": self.init, "goal": self.goal}


@dataclass(frozen=True)
class SearchBudget:
    seconds: float = 60.0  # for the search (the shrinking has its own)
    max_tasks: int = 200
    tasks_per_size: int = 5  # small sizes get several seeds before the next size: smaller tasks are found first
    orderings: int = 4
    time_limit: float = 5.0  # per program run
    shrink_seconds: float = 60.0
    planner_timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.seconds <= 0 or self.shrink_seconds < 0 or self.time_limit <= 0:
            raise CounterexampleError("the budget's seconds and time limit must be positive")
        if self.max_tasks < 1 or self.tasks_per_size < 1 or self.orderings < 1:
            raise CounterexampleError("the budget's task count, tasks per size and orderings must be at least 1")


@dataclass
class Failure:
    """How a program fails on a task: the first failing ordering."""

    category: str
    kind: str
    message: str
    ordering: int
    plan: list[str] | None
    python_input: str

    @classmethod
    def of(cls, run: OrderingResult, task: EvalTask) -> Failure:
        return cls(
            run.category or run.kind, run.kind, run.message, run.ordering, run.outcome.plan,
            render_task(task.ordering(run.ordering)),
        )

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Shrunk:
    problem: Problem
    failure: Failure
    steps: list[str] = field(default_factory=list)  # each accepted change, in order
    tries: int = 0  # changes tried (program runs)
    seconds: float = 0.0
    minimal: bool = True  # False: the budget ran out before no single removal kept the failure

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": TaskSize.of(self.problem).to_dict(),
            "failure": self.failure.to_dict(),
            "steps": len(self.steps),
            "changes": self.steps,
            "tries": self.tries,
            "seconds": self.seconds,
            "minimal": self.minimal,
        }


@dataclass
class Counterexample:
    program: str
    domain: str
    seed: int
    found: bool = False
    tasks_tried: int = 0
    search_seconds: float = 0.0
    source: str = ""  # where the failing task came from
    original: Problem | None = None
    failure: Failure | None = None  # on the original task
    shrunk: Shrunk | None = None
    path: str | None = None  # the written PDDL file
    skipped_unsolvable: int = 0

    @property
    def task(self) -> Problem | None:
        """The smallest failing task (the original when it was not shrunk)."""
        return self.shrunk.problem if self.shrunk else self.original

    @property
    def final_failure(self) -> Failure | None:
        return self.shrunk.failure if self.shrunk else self.failure

    def to_dict(self) -> dict[str, Any]:
        return {
            "program": self.program,
            "domain": self.domain,
            "seed": self.seed,
            "found": self.found,
            "tasks_tried": self.tasks_tried,
            "search_seconds": self.search_seconds,
            "source": self.source,
            "original_size": TaskSize.of(self.original).to_dict() if self.original else None,
            "failure": self.failure.to_dict() if self.failure else None,
            "shrunk": self.shrunk.to_dict() if self.shrunk else None,
            "path": self.path,
            "skipped_unsolvable": self.skipped_unsolvable,
        }

    def summary(self) -> str:
        if not self.found or self.original is None or self.failure is None:
            return (f"no counterexample: the program solved all {self.tasks_tried} tasks tried "
                    f"({self.search_seconds:.1f} s)")
        lines = [f"counterexample after {self.tasks_tried} tasks ({self.search_seconds:.1f} s): {self.source}",
                 f"  fails: {self.failure.category} ({self.failure.kind}), ordering {self.failure.ordering}",
                 f"  original size: {TaskSize.of(self.original).text()}"]
        if self.shrunk is not None:
            state = "minimal" if self.shrunk.minimal else "budget spent"
            lines.append(f"  shrunk size:   {TaskSize.of(self.shrunk.problem).text()} "
                         f"({_count(len(self.shrunk.steps), 'step')}, {self.shrunk.tries} tries, {self.shrunk.seconds:.1f} s, {state})")
            final = self.shrunk.failure
            lines.append(f"  still fails:   {final.category} ({final.kind}), ordering {final.ordering}")
        if self.path:
            lines.append(f"  written to {self.path}")
        return "\n".join(lines)


def _count(number: int, word: str) -> str:
    return f"{number} {word}" + ("" if number == 1 else "s")


# ------------------------------------------------------------------------------- running and planning


class _Runner:
    """Runs the program on a problem under the orderings; the first failing ordering, or None."""

    def __init__(self, program: Program, domain: Domain, typed: bool, sandbox: Sandbox, limits: Limits,
                 orderings: int) -> None:
        self.program, self.domain, self.typed = program, domain, typed
        self.sandbox, self.limits, self.orderings = sandbox, limits, orderings
        self.runs = 0

    def task(self, problem: Problem) -> EvalTask:
        return EvalTask(problem.name, Path(problem.path or f"{problem.name}.pddl"), problem,
                        encode_task(problem, self.typed, self.domain))

    def failure(self, problem: Problem, orderings: int | None = None) -> Failure | None:
        task = self.task(problem)
        # a fresh Evaluator per task: its validator cache is keyed by the task object's id
        evaluator = Evaluator(self.domain, [task], limits=self.limits, sandbox=self.sandbox)
        self.runs += 1
        result = evaluator.run_task(self.program, task, orderings or self.orderings)
        run = result.failure
        return Failure.of(run, task) if run is not None else None


class _Solvability:
    """Is a task solvable? The built-in search for small tasks, Fast Downward beyond; remembered per task."""

    def __init__(self, domain: Domain, timeout: float) -> None:
        self.domain, self.timeout = domain, timeout
        self.known: dict[Any, bool | None] = {}

    def __call__(self, problem: Problem) -> bool | None:
        key = (frozenset(problem.objects), frozenset(problem.init), frozenset(problem.goal_pos),
               frozenset(problem.goal_neg))
        if key not in self.known:
            # through solve, so that the built-in search's plan is checked like every planner's
            result = solve(self.domain, problem, optimal=False, timeout=BUILTIN_PLANNER_SECONDS, planner="builtin")
            if result.status == LIMIT:
                result = solve(self.domain, problem, optimal=False, timeout=self.timeout)
            self.known[key] = True if result.status == SOLVED else (None if result.status == LIMIT else False)
        return self.known[key]


def _goal_open(problem: Problem) -> bool:
    """At least one goal fact does not hold initially (a task whose goal already holds shows nothing)."""
    init = set(problem.init)
    return any(f not in init for f in problem.goal_pos) or any(f in init for f in problem.goal_neg)


# ------------------------------------------------------------------------------------- shrinking


def _without_objects(problem: Problem, names: set[str]) -> Problem:
    def keep(fact: Fact) -> bool:
        return not any(arg in names for arg in fact[1:])

    return replace(
        problem,
        objects=[o for o in problem.objects if o[0] not in names],
        init=[f for f in problem.init if keep(f)],
        goal_pos=[f for f in problem.goal_pos if keep(f)],
        goal_neg=[f for f in problem.goal_neg if keep(f)],
    )


def _changes(problem: Problem, static: frozenset[str] = frozenset()) -> Iterator[tuple[str, Problem]]:
    """Every single-step removal of ``problem``, larger ones first: chunks of objects (halves, quarters, ...),
    then single objects, goal facts and initial facts. Facts of the ``static`` predicates (no action changes
    them: types, ``not-eq``, road maps) go only with their objects, so the task keeps the domain's
    structure (a ferry task stays one where every two locations are ``not-eq``)."""
    names = [name for name, _type in problem.objects]
    size = len(names) // 2
    while size > 1:
        for start in range(0, len(names), size):
            chunk = names[start:start + size]
            yield f"removed objects {' '.join(chunk)}", _without_objects(problem, set(chunk))
        size //= 2
    for name in names:
        yield f"removed object {name}", _without_objects(problem, {name})
    for index, fact in enumerate(problem.goal_pos):
        yield f"removed goal ({' '.join(fact)})", replace(problem, goal_pos=problem.goal_pos[:index] + problem.goal_pos[index + 1:])
    for index, fact in enumerate(problem.goal_neg):
        yield (f"removed goal (not ({' '.join(fact)}))",
               replace(problem, goal_neg=problem.goal_neg[:index] + problem.goal_neg[index + 1:]))
    for index, fact in enumerate(problem.init):
        if fact[0] in static:
            continue
        yield f"removed initial fact ({' '.join(fact)})", replace(problem, init=problem.init[:index] + problem.init[index + 1:])


def _reordered(problem: Problem, ordering: int, typed: bool, domain: Domain) -> Problem:
    """The problem with its objects, init and goal written in the order ordering ``ordering`` gives them."""
    shuffled = shuffled_task(encode_task(problem, typed, domain), seed=ordering)
    own = {name for name, _type in problem.objects}
    types = dict(problem.objects)
    objects = []
    for item in shuffled.objects:
        name = item[0] if isinstance(item, tuple) else item
        if name in own:
            objects.append((name, types[name]))
    goal_pos = [g for g in shuffled.goal if not (g and g[0] == "not" and isinstance(g[1], tuple))]
    goal_neg = [g[1] for g in shuffled.goal if g and g[0] == "not" and isinstance(g[1], tuple)]
    return replace(problem, objects=objects, init=list(shuffled.init), goal_pos=goal_pos, goal_neg=goal_neg)


def shrink_problem(problem: Problem, failure: Failure, fails: Callable[[Problem], Failure | None],
                   solvable: Callable[[Problem], bool | None], deadline: float,
                   reorder: Callable[[Problem, Failure], tuple[Problem, Failure] | None] | None = None,
                   static: frozenset[str] = frozenset()) -> Shrunk:
    """Greedy one-step shrinking: take the first removal under which the task still fails the same way and
    stays solvable, repeat until none does (or ``deadline``, a time.monotonic() value, passes)."""
    started = time.monotonic()
    result = Shrunk(problem, failure)
    changed = True
    while changed:
        changed = False
        for description, candidate in _changes(result.problem, static):
            if time.monotonic() > deadline:
                result.minimal = False
                break
            if not _goal_open(candidate):
                continue
            result.tries += 1
            found = fails(candidate)
            if found is None or found.kind != failure.kind:
                continue
            if solvable(candidate) is not True:
                continue
            result.problem, result.failure = candidate, found
            result.steps.append(description)
            changed = True
            break
    if reorder is not None and result.failure.ordering != 0 and time.monotonic() <= deadline:
        result.tries += 1
        ordering = result.failure.ordering
        reordered = reorder(result.problem, result.failure)
        if reordered is not None:
            result.problem, result.failure = reordered
            result.steps.append(f"wrote the input in the order of ordering {ordering} (it fails in file order)")
    result.seconds = time.monotonic() - started
    return result


# ------------------------------------------------------------------------------------- searching


def size_plan(domain_dir: DomainDir) -> list[dict[str, int]]:
    """The generator's sizes, smallest first: those of its debug and eval specs (defaults when it has none)."""
    sizes: list[dict[str, int]] = []
    for task_set in ("debug", "eval"):
        try:
            specs = domain_dir.task_specs(task_set)
        except (DomainDirError, ValueError):
            specs = []
        for _seed, spec in specs:
            complete = domain_dir.check_sizes(spec)
            if complete not in sizes:
                sizes.append(complete)
    if not sizes:
        sizes.append(domain_dir.check_sizes({}))
    return sorted(sizes, key=lambda s: (sum(s.values()), sorted(s.items())))


def candidate_tasks(domain_dir: DomainDir, domain: Domain, seed: int, tasks_per_size: int, probes: bool = True
                    ) -> Iterator[tuple[str, Problem]]:
    """Probes, then generated tasks of growing size (round after round with new seeds); without a generator
    the domain's own tasks, smallest file first."""
    for path in domain_dir.probe_tasks() if probes else []:
        try:
            yield f"probe {path.name}", load_problem(path, domain)
        except PddlError:
            continue
    if not domain_dir.has_generator:
        paths = sorted({*domain_dir.debug_tasks(), *domain_dir.eval_tasks()}, key=lambda p: (p.stat().st_size, str(p)))
        for path in paths:
            try:
                yield f"task {path.name}", load_problem(path, domain)
            except PddlError:
                continue
        return
    plan = size_plan(domain_dir)
    for round_number in range(1_000):
        for index, sizes in enumerate(plan):
            for k in range(tasks_per_size):
                task_seed = SEED_BASE + 100_000 * seed + 10_000 * round_number + 10 * index + k
                if 10 * index + k >= 10_000:
                    continue
                label = " ".join(f"{name}={value}" for name, value in sizes.items())
                try:
                    text = domain_dir.generate(task_seed, **sizes)
                    problem = parse_problem_text(text, domain)
                except (DomainDirError, PddlError):
                    continue
                yield f"generated with seed {task_seed}, {label}", problem


def find_counterexample(
    program: Program,
    domain_dir: DomainDir,
    *,
    seed: int = 0,
    budget: SearchBudget | None = None,
    shrink: bool = True,
    probes: bool = True,
    sandbox: Sandbox | None = None,
    on_task: Callable[[int, str, bool], None] | None = None,
) -> Counterexample:
    """Search for a task ``program`` fails on, within ``budget``; shrink it (unless ``shrink`` is False)."""
    budget = budget or SearchBudget()
    domain = load_domain(domain_dir.domain_file)
    limits = Limits(time_limit=budget.time_limit)
    report = Counterexample(program.path or "<program>", domain_dir.name, seed)
    own = sandbox is None
    box = sandbox or Sandbox(limits)
    try:
        box.start(hash_seed_for(k) for k in range(budget.orderings))
        runner = _Runner(program, domain, domain_dir.typed_objects, box, limits, budget.orderings)
        solvable = _Solvability(domain, budget.planner_timeout)
        started = time.monotonic()
        for source, problem in candidate_tasks(domain_dir, domain, seed, budget.tasks_per_size, probes):
            if report.tasks_tried >= budget.max_tasks or time.monotonic() - started > budget.seconds:
                break
            report.tasks_tried += 1
            failure = runner.failure(problem)
            if on_task is not None:
                on_task(report.tasks_tried, source, failure is not None)
            if failure is None:
                continue
            if solvable(problem) is False:
                report.skipped_unsolvable += 1
                continue
            report.found, report.source, report.original, report.failure = True, source, problem, failure
            break
        report.search_seconds = time.monotonic() - started
        if report.found and shrink and report.original is not None and report.failure is not None:
            report.shrunk = shrink_found(report.original, report.failure, runner, solvable, budget.shrink_seconds)
    finally:
        if own:
            box.close()
    return report


def shrink_found(problem: Problem, failure: Failure, runner: _Runner, solvable: _Solvability,
                 seconds: float) -> Shrunk:
    def reorder(current: Problem, failed: Failure) -> tuple[Problem, Failure] | None:
        candidate = _reordered(current, failed.ordering, runner.typed, runner.domain)
        found = runner.failure(candidate, orderings=1)
        if found is not None and found.kind == failed.kind:
            return candidate, found
        return None

    return shrink_problem(problem, failure, runner.failure, solvable, time.monotonic() + seconds, reorder,
                          runner.domain.static_predicates)


def shrink(program: Program, domain_dir: DomainDir, problem: Problem, *, budget: SearchBudget | None = None) -> Shrunk:
    """Shrink a task ``program`` is known to fail on (CounterexampleError when it does not fail on it)."""
    budget = budget or SearchBudget()
    domain = load_domain(domain_dir.domain_file)
    limits = Limits(time_limit=budget.time_limit)
    with Sandbox(limits) as box:
        box.start(hash_seed_for(k) for k in range(budget.orderings))
        runner = _Runner(program, domain, domain_dir.typed_objects, box, limits, budget.orderings)
        failure = runner.failure(problem)
        if failure is None:
            raise CounterexampleError(f"the program solves {problem.name} under {budget.orderings} orderings: nothing to shrink")
        return shrink_found(problem, failure, runner, _Solvability(domain, budget.planner_timeout), budget.shrink_seconds)


def counterexample_pddl(report: Counterexample, typed: bool) -> str:
    """The smallest failing task as a normal PDDL problem file, with a comment saying how it was found."""
    task, failure = report.task, report.final_failure
    if task is None or failure is None or report.original is None:
        raise CounterexampleError("no counterexample to write")
    name = f"{report.original.name}-counterexample"
    lines = [
        f"; counterexample found by genplan for {report.program} (search seed {report.seed})",
        f"; source: {report.source}, after {report.tasks_tried} tasks ({report.search_seconds:.1f} s)",
        f"; original size: {TaskSize.of(report.original).text()}",
    ]
    if report.shrunk is not None:
        lines.append(f"; shrunk size: {TaskSize.of(report.shrunk.problem).text()}, in {_count(len(report.shrunk.steps), 'step')} "
                     f"({report.shrunk.tries} tries, {report.shrunk.seconds:.1f} s)")
    message = next((line.strip() for line in failure.message.splitlines() if line.strip()), "")
    lines.append(f"; the program fails with: {failure.category} ({failure.kind}) under ordering {failure.ordering}"
                 + (f": {message[:200]}" if message else ""))
    return "\n".join(lines) + "\n" + problem_to_pddl(replace(task, name=name), typed)


def write_counterexample(report: Counterexample, domain: Domain, path: Path | str) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(counterexample_pddl(report, domain.typed), encoding="utf-8")
    report.path = str(target)
    return target
