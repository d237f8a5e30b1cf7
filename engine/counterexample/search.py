"""The counterexample search and the shrinker (see the package docstring)."""

from __future__ import annotations

import heapq
import itertools
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from genplan.engine.counterexample.invariants import Invariants, find_invariants
from genplan.engine.domainlib import DomainDir, DomainDirError
from genplan.engine.errors import GenplanError
from genplan.engine.evaluation import EvalTask, Evaluator, OrderingResult, hash_seed_for
from genplan.engine.pddl import Domain, PddlError, Problem, load_domain, load_problem, parse_problem_text
from genplan.engine.pddl.encoding import encode_task, render_task, shuffled_task
from genplan.engine.pddl.model import Fact
from genplan.engine.pddl.writer import problem_to_pddl
from genplan.engine.planner import LIMIT, SOLVED, solve
from genplan.engine.sandbox import Limits, Program, Sandbox

SEED_BASE = 70_000  # far from the debug (1..), eval (1000..) and generalize (50 000..) seeds
BUILTIN_PLANNER_SECONDS = 1.0  # the built-in search decides small tasks at once; beyond, Fast Downward
INVARIANT_SOURCES = 3  # debug tasks whose translator groups give the invariants (each takes a fraction of a second)
TASK_SETS = ("auto", "debug", "eval")  # auto: the generator where there is one, else tasks derived from debug/


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

    def describe(self) -> str:
        """``up to 5 s per program run, 120 s in all: 60 s to search, 60 s to shrink, at most 200 tasks``."""
        return (f"up to {self.time_limit:g} s per program run, {self.seconds + self.shrink_seconds:g} s in all: "
                f"{self.seconds:g} s to search, {self.shrink_seconds:g} s to shrink, at most {self.max_tasks} tasks")


def person_budget(*, seconds: float | None = None, max_tasks: int | None = None, tasks_per_size: int | None = None,
                  orderings: int | None = None, time_limit: float | None = None,
                  shrink_seconds: float | None = None) -> SearchBudget:
    """The budget of a search a person starts: ``genplan counterexample`` (with its flags) and the app's ``k``
    (with none) both take it from here, so the same program gets the same search in both. What is not given is
    :class:`SearchBudget`'s default. (The F5-3+CE loop has its own: the run's settings.)"""
    defaults = SearchBudget()
    return SearchBudget(
        seconds=defaults.seconds if seconds is None else seconds,
        max_tasks=defaults.max_tasks if max_tasks is None else max_tasks,
        tasks_per_size=defaults.tasks_per_size if tasks_per_size is None else tasks_per_size,
        orderings=defaults.orderings if orderings is None else orderings,
        time_limit=defaults.time_limit if time_limit is None else time_limit,
        shrink_seconds=defaults.shrink_seconds if shrink_seconds is None else shrink_seconds,
    )


@dataclass
class Failure:
    """How a program fails on a task: the first failing ordering."""

    category: str
    kind: str
    message: str
    ordering: int
    plan: list[str] | None
    python_input: str
    signature: str = ""  # what must stay the same while shrinking (failure_signature)
    hash_seed: int = 0  # PYTHONHASHSEED of the failing run

    @classmethod
    def of(cls, run: OrderingResult, task: EvalTask, domain: Domain | None = None) -> Failure:
        return cls(
            run.category or run.kind, run.kind, run.message, run.ordering, run.outcome.plan,
            render_task(task.ordering(run.ordering)), failure_signature(run, domain), run.outcome.hash_seed,
        )

    def same_as(self, other: Failure) -> bool:
        """``other`` is the same failure: the same exception type on the same line, the same action schema with
        the same unsatisfied precondition, or goals of the same predicates (a subset of them) left unmet."""
        if self.kind != other.kind:
            return False
        if self.kind == "goal-not-reached":
            mine, theirs = set(self.signature.split(" ")[1:]), set(other.signature.split(" ")[1:])
            return bool(theirs) and theirs <= mine
        return self.signature == other.signature

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


_LINE = re.compile(r"line (\d+), in ")


def failure_signature(run: OrderingResult, domain: Domain | None) -> str:
    """What identifies a failure beyond its kind: ``exception KeyError line 12``, ``unsatisfied-precondition
    stack (clear ?y)``, ``goal-not-reached on ontable`` (the predicates of the unmet goals), ``timeout``."""
    outcome, validation = run.outcome, run.validation
    if validation is None or validation.valid:
        if run.kind != "exception":
            return run.kind
        name = (outcome.exception or "").split(":")[0].strip() or "exception"
        lines = _LINE.findall(outcome.traceback or "")
        return f"exception {name} line {lines[-1] if lines else '?'}"
    if run.kind == "goal-not-reached":
        unmet = [*(_predicate(text) for text in validation.goal_missing),
                 *(f"not-{_predicate(text)}" for text in validation.goal_violated),
                 *("condition:" + "_".join(text.split()) for text, _why in validation.goal_unsatisfied)]
        return " ".join([run.kind, *sorted(set(unmet))])
    if run.kind == "unsatisfied-precondition":
        schema, lifted = _lifted_preconditions(validation.action_pddl or validation.action or "", validation.unsatisfied,
                                               domain)
        conditions = [text for text, _why in validation.unsatisfied_conditions]
        return " ".join([run.kind, schema, *lifted, *conditions])
    return " ".join(filter(None, [run.kind, validation.operator]))


def _predicate(text: str) -> str:
    words = text.replace("(", " ").replace(")", " ").split()
    words = words[1:] if words and words[0] == "not" else words
    return words[0] if words else ""


def _lifted_preconditions(step: str, unsatisfied: list[str], domain: Domain | None) -> tuple[str, list[str]]:
    """The action schema of a failing step and its unsatisfied preconditions as the schema writes them."""
    words = step.strip().strip("()").split()
    schema = words[0].lower() if words else "?"
    action = domain.actions.get(schema) if domain is not None else None
    wanted = {" ".join(text.replace("(", " ( ").replace(")", " ) ").split()) for text in unsatisfied}
    if action is None or len(words) - 1 != len(action.parameters):
        return schema, sorted(_predicate(text) for text in unsatisfied)
    binding = {p.name: arg.lower() for p, arg in zip(action.parameters, words[1:])}
    lifted = []
    for literal in action.preconditions:
        ground = "( " + " ".join(literal.ground(binding)) + " )"
        ground = ground if literal.positive else f"( not {ground} )"
        if ground in wanted:
            lifted.append(literal.pddl())
    return schema, sorted(lifted) or sorted(_predicate(text) for text in unsatisfied)


@dataclass
class Shrunk:
    problem: Problem
    failure: Failure
    steps: list[str] = field(default_factory=list)  # each accepted change, in order
    tries: int = 0  # changes tried (program runs)
    seconds: float = 0.0
    minimal: bool = True  # False: the budget ran out before no single removal kept the failure
    refused: int = 0  # changes refused because the candidate broke an invariant or failed differently
    # per accepted step: its stage (STAGES) and the objects before and after it, in order
    step_stages: list[tuple[str, int, int]] = field(default_factory=list)
    larger_tried: bool = False  # the larger steps were tried (single removals stopped within the budget)
    stage_tries: dict[str, int] = field(default_factory=dict)  # program runs per stage

    def stages(self) -> list[dict[str, Any]]:
        """How far each stage took the task, consecutive steps of one stage together: ``[{"stage": "single
        removals", "from": 14, "to": 9, "steps": 5}, {"stage": "pairs", "from": 9, "to": 7, "steps": 1}, ...]``."""
        merged: list[dict[str, Any]] = []
        for stage, before, after in self.step_stages:
            if merged and merged[-1]["stage"] == stage:
                merged[-1]["to"], merged[-1]["steps"] = after, merged[-1]["steps"] + 1
            else:
                merged.append({"stage": stage, "from": before, "to": after, "steps": 1})
        return merged

    def stages_text(self) -> str:
        """``single removals 14→9 objects, pairs 9→7, generator 7→5`` (and what the larger steps did not find)."""
        parts = [f"{s['stage']} {s['from']}→{s['to']}" for s in self.stages()]
        if parts:
            parts[0] += " objects"
        used = {stage for stage, _before, _after in self.step_stages}
        if self.larger_tried and self.minimal:
            idle = [stage for stage in LARGER_STAGES if stage not in used]
            if idle:
                parts.append(f"no smaller task from {', '.join(idle)}")
        return ", ".join(parts) or "no step kept the failure"

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": TaskSize.of(self.problem).to_dict(),
            "stages": self.stages(),
            "stages_text": self.stages_text(),
            "stage_tries": self.stage_tries,
            "refused": self.refused,
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
    skipped_invariants: int = 0  # tasks of the search that broke an invariant (never run)
    tasks: str = "auto"  # the task set searched (TASK_SETS)
    invariants: str = ""  # what the invariants are, or why none could be proven

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
            "skipped_invariants": self.skipped_invariants,
            "tasks": self.tasks,
            "invariants": self.invariants,
        }

    def final_failure_signature(self) -> str:
        failure = self.final_failure
        return failure.signature if failure is not None else ""

    def reproduce_note(self) -> str:
        """How the written file fails: in file order, and under which hash seed when it is not 0."""
        failure = self.final_failure
        if failure is None:
            return ""
        if failure.ordering == 0 and failure.hash_seed == 0:
            return "in file order (ordering 0, PYTHONHASHSEED=0)"
        if failure.ordering == 0:
            return f"in file order with PYTHONHASHSEED={failure.hash_seed} (not with 0)"
        return (f"under ordering {failure.ordering} (a seeded shuffle of the file order, "
                f"PYTHONHASHSEED={failure.hash_seed}); not in file order")

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
            lines.append(f"  stages:        {self.shrunk.stages_text()}")
            lines.extend(f"  step {number}: {step}" for number, step in enumerate(self.shrunk.steps, 1))
        if self.failure.signature:
            lines.append(f"  the same failure throughout: {self.final_failure_signature()}")
        lines.append(f"  invariants: {self.invariants}")
        if self.skipped_invariants:
            lines.append(f"  left out: {_count(self.skipped_invariants, 'task')} that broke an invariant")
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
        return Failure.of(run, task, self.domain) if run is not None else None

    def file_order_failure(self, problem: Problem, hash_seed: int) -> Failure | None:
        """The failure of the task in file order under PYTHONHASHSEED ``hash_seed``, or None."""
        task = self.task(problem)
        evaluator = Evaluator(self.domain, [task], limits=self.limits, sandbox=self.sandbox)
        self.runs += 1
        run = evaluator.run_one(self.program, task, 0, hash_seed=hash_seed)
        return None if run.valid else Failure.of(run, task, self.domain)


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


def _fact_text(fact: Fact) -> str:
    return f"({' '.join(fact)})"


def _removed_objects(problem: Problem, names: list[str], invariants: Invariants) -> tuple[str, Problem] | None:
    """``problem`` without the objects (and every fact naming them), mended where an exactly-one group lost its
    true atom (the block that stood on a removed block goes to the table); None when it cannot be mended."""
    repaired = invariants.repair(_without_objects(problem, set(names)))
    if repaired is None:
        return None
    candidate, added = repaired
    word = "object" if len(names) == 1 else "objects"
    description = f"removed {word} {' '.join(names)}"
    if added:
        description += f" (added {' '.join(_fact_text(a) for a in added)} in its place)"
    return description, candidate


def _static_relations(problem: Problem, static: frozenset[str]) -> dict[str, set[Fact]]:
    relations: dict[str, set[Fact]] = {}
    for fact in problem.init:
        if fact[0] in static and len(fact) >= 3:
            relations.setdefault(fact[0], set()).add(fact)
    return relations


def _complete_relations(relations: dict[str, set[Fact]]) -> set[str]:
    """The binary static relations that relate every two of their objects (``not-eq``, miconic's ``above``):
    definitions, not maps."""
    complete = set()
    for predicate, facts in relations.items():
        pairs = {fact[1:] for fact in facts}
        members = {name for pair in pairs for name in pair}
        if all(len(pair) == 2 for pair in pairs) and len(members) > 1 and all(
                (a, b) in pairs or (b, a) in pairs for a in members for b in members if a != b):
            complete.add(predicate)
    return complete


def _removable_static(problem: Problem, static: frozenset[str]) -> list[list[Fact]]:
    """The static facts that may go one at a time: those relating objects (a road, ``next``), a symmetric
    relation's two directions together. A relation that holds between every two of its objects, in both
    directions (``not-eq``) or in one (``above`` as an order of all floors), is a definition, not a map: removing
    one of its facts makes a task no generator writes (two floors neither above nor below each other), so it goes
    only with its objects, and so do unary facts (an object's type)."""
    relations = _static_relations(problem, static)
    complete = _complete_relations(relations)
    removable: list[list[Fact]] = []
    for predicate, facts in relations.items():
        if predicate in complete:
            continue
        pairs = {fact[1:] for fact in facts}
        binary = all(len(pair) == 2 for pair in pairs)
        symmetric = binary and all((b, a) in pairs for a, b in pairs)
        done: set[Fact] = set()
        for fact in (f for f in problem.init if f in facts):
            if fact in done:
                continue
            group = [fact, (predicate, fact[2], fact[1])] if symmetric and fact[1] != fact[2] else [fact]
            done.update(group)
            removable.append(group)
    return removable


def _changes(problem: Problem, static: frozenset[str] = frozenset(),
             invariants: Invariants | None = None) -> Iterator[tuple[str, Problem]]:
    """Every single-step removal of ``problem``, larger ones first: chunks of objects (halves, quarters, ...),
    then single objects, goal facts and initial facts of predicates some action changes; then facts of the
    ``static`` predicates that relate objects (road maps, ``above``, ``not-eq``: unary ones are the objects'
    types), then single objects with every object whose place depends on them (a tower with its base). Objects
    go with the facts naming them, mended by ``invariants``; a candidate that breaks an invariant is left out."""
    invariants = invariants or Invariants([])
    names = [name for name, _type in problem.objects]

    def valid(change: tuple[str, Problem] | None) -> Iterator[tuple[str, Problem]]:
        if change is not None and not invariants.violations(change[1]):
            yield change

    size = len(names) // 2
    while size > 1:
        for start in range(0, len(names), size):
            yield from valid(_removed_objects(problem, names[start:start + size], invariants))
        size //= 2
    for name in names:
        yield from valid(_removed_objects(problem, [name], invariants))
    for index, fact in enumerate(problem.goal_pos):
        yield f"removed goal {_fact_text(fact)}", replace(problem, goal_pos=problem.goal_pos[:index] + problem.goal_pos[index + 1:])
    for index, fact in enumerate(problem.goal_neg):
        yield (f"removed goal (not {_fact_text(fact)})",
               replace(problem, goal_neg=problem.goal_neg[:index] + problem.goal_neg[index + 1:]))
    for index, fact in enumerate(problem.init):
        if fact[0] not in static:
            yield from valid((f"removed initial fact {_fact_text(fact)}",
                              replace(problem, init=problem.init[:index] + problem.init[index + 1:])))
    for facts in _removable_static(problem, static):
        gone = set(facts)
        yield from valid((f"removed static {'fact' if len(facts) == 1 else 'facts'} "
                          f"{' '.join(_fact_text(f) for f in facts)}",
                          replace(problem, init=[f for f in problem.init if f not in gone])))
    for name in names:
        dependents = invariants.dependents(problem, name)
        if dependents:
            group = [name, *(n for n in names if n in dependents)]
            change = _removed_objects(problem, group, invariants)
            if change is not None:
                yield from valid((f"removed object {name} with the objects that depend on it: "
                                  f"{' '.join(group[1:])}", change[1]))


SINGLE_STAGE = "single removals"  # today's one-at-a-time changes (_changes), chunks of objects among them
LARGER_STAGES = ("goal subsets", "pairs", "chains", "moves", "generator")  # tried, in this order, where single removals stop
MAX_CHAIN = 6  # objects in a chain (a pair is a chain of two: the pairs stage tries those)
FULL_RANGE = 12  # a size parameter's bound up to which the generator stage tries every value below it
GENERATOR_SEEDS = 3  # seeds per size when the generator makes smaller tasks afresh
GENERATOR_SIZES = 300  # size vectors the generator is asked for at most (many are refused: a size of 0)
GENERATOR_RUNS = 100  # generated tasks the program is run on at most, in all (a bound on this stage's time)
GENERATOR_SEED_OFFSET = 99_000  # the generator stage's seeds, apart from the search's rounds


def _object_graph(problem: Problem, static: frozenset[str]) -> dict[str, list[str]]:
    """Objects linked by an initial fact naming both (a car and its location, two linked cells), in the order
    the task lists them; a relation between every two of its objects (``not-eq``) links nothing."""
    complete = _complete_relations(_static_relations(problem, static))
    order = {name: index for index, (name, _type) in enumerate(problem.objects)}
    links: dict[str, set[str]] = {name: set() for name in order}
    for fact in problem.init:
        if fact[0] in complete:
            continue
        named = [arg for arg in fact[1:] if arg in order]
        for a in named:
            links[a].update(b for b in named if b != a)
    return {name: sorted(links[name], key=order.__getitem__) for name in order}


def _chains(problem: Problem, static: frozenset[str], longest: int = MAX_CHAIN) -> list[list[str]]:
    """Connected sets of three objects or more: from each object, the first k objects a breadth-first walk
    over the object graph reaches (k = 3 .. ``longest``, never every object), each set once."""
    graph = _object_graph(problem, static)
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()
    limit = min(longest, len(graph) - 1)
    for start in graph:
        walk, todo = [start], [start]
        while todo and len(walk) < limit:
            for neighbour in graph[todo.pop(0)]:
                if neighbour not in walk and len(walk) < limit:
                    walk.append(neighbour)
                    todo.append(neighbour)
        for size in range(3, len(walk) + 1):
            key = frozenset(walk[:size])
            if key not in seen:
                seen.add(key)
                found.append(walk[:size])
    return found


def _larger_changes(problem: Problem, static: frozenset[str] = frozenset(), invariants: Invariants | None = None,
                    parents: dict[str, str | None] | None = None) -> Iterator[tuple[str, str, Problem]]:
    """The steps tried where no single removal keeps the failure, as (stage, description, candidate): goal
    subsets (one goal kept, two goals removed), pairs of objects, chains of connected objects, each object with
    every fact naming it, mended by ``invariants``; then an object removed with what stands on it moved (the
    types' ``parents`` say which objects are of one kind); a candidate that breaks an invariant is left out."""
    invariants = invariants or Invariants([])
    goals = problem.goal_pos
    if len(goals) >= 3:
        for fact in goals:
            yield "goal subsets", f"kept only the goal {_fact_text(fact)}", replace(problem, goal_pos=[fact],
                                                                                     goal_neg=[])
        for first, second in itertools.combinations(range(len(goals)), 2):
            kept = [g for k, g in enumerate(goals) if k not in (first, second)]
            yield ("goal subsets", f"removed goals {_fact_text(goals[first])} {_fact_text(goals[second])}",
                   replace(problem, goal_pos=kept))
    names = [name for name, _type in problem.objects]
    groups = [("pairs", list(pair)) for pair in itertools.combinations(names, 2)]
    groups += [("chains", chain) for chain in _chains(problem, static)]
    for stage, group in groups:
        change = _removed_objects(problem, group, invariants)
        if change is not None and not invariants.violations(change[1]):
            description = change[0] if stage == "pairs" else change[0].replace("removed objects",
                                                                               "removed the chain", 1)
            yield stage, description, change[1]
    yield from _moves(problem, invariants, parents or {})


def _moves(problem: Problem, invariants: Invariants,
           parents: dict[str, str | None]) -> Iterator[tuple[str, str, Problem]]:
    """An object removed with what stands on it, and the goals naming it, moved to another object of its kind (the
    truck at a removed location, and a package's goal there, go to an airport: another kind of place): a removal
    that the mending cannot do alone (every atom of a truck's place names a place) and that the removal with
    dependents overdoes."""
    for name, kind in problem.objects:
        dependents = invariants.dependents(problem, name)
        goals = [fact for fact in problem.goal_pos if name in fact[1:]]
        if not dependents and not goals:
            continue
        for other, other_kind in problem.objects:
            if other == name or other in dependents or not (
                    other_kind == kind or (parents.get(kind) is not None and parents.get(kind) == parents.get(other_kind))):
                continue
            moved = [tuple(other if arg == name else arg for arg in fact) if fact[1:2] and fact[1] in dependents else fact
                     for fact in problem.init]
            aimed = [tuple(other if arg == name else arg for arg in fact) for fact in problem.goal_pos]
            candidate = _without_objects(replace(problem, init=list(dict.fromkeys(moved)),
                                                 goal_pos=list(dict.fromkeys(aimed))), {name})
            if not invariants.violations(candidate):
                what = " and ".join(filter(None, [" ".join(sorted(dependents)), "its goals" if goals else ""]))
                yield "moves", f"removed object {name}, moving {what} to {other}", candidate


class Regenerator:
    """The generator's smaller sizes: tasks made afresh (``GENERATOR_SEEDS`` seeds a size) with fewer objects
    than the task being shrunk, smallest first; each candidate offered once (the program's verdict on a task
    does not change)."""

    def __init__(self, domain_dir: DomainDir, domain: Domain, seed: int, invariants: Invariants,
                 bounds: dict[str, int] | None = None) -> None:
        self.domain_dir, self.domain, self.invariants = domain_dir, domain, invariants
        self.seeds = [SEED_BASE + 100_000 * seed + GENERATOR_SEED_OFFSET + k for k in range(GENERATOR_SEEDS)]
        self.bounds = bounds
        self.made: list[tuple[int, int, str, Problem]] | None = None
        self.offered: set[str] = set()

    def _size_vectors(self) -> list[dict[str, int]]:
        """Size vectors up to the bounds (the failing task's sizes where known, else the debug tasks' largest
        sizes), fewest in sum first: each parameter at every value up to its bound when that is at most
        ``FULL_RANGE``, else at 0, half the bound and the bound (a percentage, mostly)."""
        bounds = self.bounds or debug_bounds(self.domain_dir)
        # from 1, or 0 where a debug task has 0: most generators refuse a size of 0 (no rover), and with eight
        # parameters the vectors of zeros would fill the stage
        lows = debug_bounds(self.domain_dir, smallest=True)
        names = sorted(bounds)
        values = []
        for name in names:
            low = min(lows.get(name, 0), bounds[name], 1)
            values.append(list(range(low, bounds[name] + 1)) if bounds[name] - low <= FULL_RANGE
                          else sorted({low, (low + bounds[name]) // 2, bounds[name]}))
        return [dict(zip(names, vector)) for vector in _fewest_first(values, GENERATOR_SIZES)]

    def _make(self, objects: int, deadline: float) -> list[tuple[int, int, str, Problem]]:
        """The generated tasks with fewer than ``objects`` objects (a size whose first task has as many or more
        is not tried with the other seeds)."""
        made = []
        known: set[Any] = set()  # a small grid at 0 % and at 2 % water is often the same task
        for sizes in self._size_vectors():
            if time.monotonic() > deadline:
                break
            label = " ".join(f"{name}={value}" for name, value in sizes.items())
            for task_seed in self.seeds:
                try:
                    text = self.domain_dir.generate(task_seed, **sizes)
                    count = object_count(text)
                    if count is not None and count >= objects:
                        break  # not smaller: neither are the other seeds' (parsing is the slow part)
                    problem = parse_problem_text(text, self.domain)
                except (DomainDirError, PddlError):
                    break  # a size the generator refuses: the other seeds too
                key = (frozenset(problem.objects), frozenset(problem.init), frozenset(problem.goal_pos),
                       frozenset(problem.goal_neg))
                if len(problem.objects) >= objects:
                    break
                if key in known or self.invariants.violations(problem) or not _goal_open(problem):
                    continue
                known.add(key)
                size = TaskSize.of(problem)
                made.append((size.objects, size.init + size.goal, f"seed {task_seed}, {label}", problem))
        made.sort(key=lambda item: (item[0], item[1], item[2]))
        return made

    def __call__(self, current: Problem, deadline: float = float("inf")) -> Iterator[tuple[str, str, Problem]]:
        objects = len(current.objects)
        if self.made is None:  # made once: the task only gets smaller
            self.made = self._make(objects, deadline)
        for count, _facts, label, problem in self.made:
            if count >= objects or len(self.offered) >= GENERATOR_RUNS:
                break
            if label in self.offered:
                continue
            self.offered.add(label)
            yield "generator", f"generated afresh with {label} ({count} objects) in place of the task", problem


def _fewest_first(values: list[list[int]], limit: int) -> list[tuple[int, ...]]:
    """Up to ``limit`` vectors, one value from each list (each ascending), smallest sum first (best-first over
    the grid: a generator with eight size parameters has too many vectors to list them all)."""
    start = (0,) * len(values)
    heap = [(sum(v[0] for v in values), start)]
    seen = {start}
    found: list[tuple[int, ...]] = []
    while heap and len(found) < limit:
        total, index = heapq.heappop(heap)
        found.append(tuple(v[i] for v, i in zip(values, index)))
        for k, i in enumerate(index):
            if i + 1 < len(values[k]):
                step = (*index[:k], i + 1, *index[k + 1:])
                if step not in seen:
                    seen.add(step)
                    heapq.heappush(heap, (total - values[k][i] + values[k][i + 1], step))
    return found


def debug_bounds(domain_dir: DomainDir, smallest: bool = False) -> dict[str, int]:
    """Each size parameter's largest value (``smallest``: its smallest) among the generator's debug sizes (a
    probe, or a task derived from the debug tasks, is about as large); the search's smallest size where there
    are none."""
    bounds: dict[str, int] = {}
    try:
        specs = domain_dir.task_specs("debug")
    except (DomainDirError, ValueError):
        specs = []
    pick = min if smallest else max
    for _seed, spec in specs:
        for name, value in domain_dir.check_sizes(spec).items():
            bounds[name] = pick(bounds.get(name, value), value)
    return bounds or size_plan(domain_dir)[0]


def object_count(text: str) -> int | None:
    """The objects a problem's text declares, without parsing it (None when there is no :objects section)."""
    match = re.search(r"\(:objects\b([^)]*)\)", text, re.IGNORECASE)
    if match is None:
        return None
    words = re.sub(r";[^\n]*", " ", match.group(1)).split()
    return sum(1 for k, word in enumerate(words) if word != "-" and (k == 0 or words[k - 1] != "-"))


def generated_sizes(source: str) -> dict[str, int] | None:
    """The sizes of a task the search generated, from its source (``generated with seed 70013, locations=2
    cars=2``); None for any other source."""
    if not source.startswith("generated with seed"):
        return None
    pairs = re.findall(r"(\w+)=(-?\d+)", source)
    return {name: int(value) for name, value in pairs} or None


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
                   reorder: Callable[[Problem, Failure], tuple[Problem, Failure, str] | None] | None = None,
                   static: frozenset[str] = frozenset(), invariants: Invariants | None = None,
                   regenerate: Callable[[Problem, float], Iterator[tuple[str, str, Problem]]] | None = None,
                   parents: dict[str, str | None] | None = None) -> Shrunk:
    """Greedy shrinking: take the first single removal under which the task still fails the same way (the same
    exception on the same line, the same precondition of the same action, goals of the same kind unmet),
    satisfies the invariants and stays solvable; repeat until none does. Then the larger steps
    (:func:`_larger_changes`: goal subsets, pairs, chains; then ``regenerate``'s smaller tasks made afresh by the
    generator): the first that keeps the failure is taken and single removals start again. All within
    ``deadline`` (a time.monotonic() value). Last, ``reorder`` writes the task in the order it failed in."""
    started = time.monotonic()
    result = Shrunk(problem, failure)

    def accept(stage: str, description: str, candidate: Problem) -> bool | None:
        """Take ``candidate`` if it keeps the failure; None once the deadline has passed."""
        if time.monotonic() > deadline:
            return None
        if not _goal_open(candidate):
            return False
        result.tries += 1
        result.stage_tries[stage] = result.stage_tries.get(stage, 0) + 1
        found = fails(candidate)
        if found is None:
            return False
        if not failure.same_as(found):
            result.refused += 1
            return False
        if solvable(candidate) is not True:
            return False
        result.step_stages.append((stage, len(result.problem.objects), len(candidate.objects)))
        result.problem, result.failure = candidate, found
        result.steps.append(description)
        return True

    def first_kept(changes: Iterator[tuple[str, str, Problem]]) -> bool | None:
        for stage, description, candidate in changes:
            taken = accept(stage, description, candidate)
            if taken is not False:
                return taken
        return False

    while True:
        taken = first_kept((SINGLE_STAGE, d, c) for d, c in _changes(result.problem, static, invariants))
        if taken:
            continue
        if taken is None:
            result.minimal = False
            break
        result.larger_tried = True
        taken = first_kept(_larger_changes(result.problem, static, invariants, parents))
        if not taken and taken is not None and regenerate is not None:
            taken = first_kept(regenerate(result.problem, deadline))
        if taken is None:
            result.minimal = False
        if not taken:
            break
    if reorder is not None and result.failure.ordering != 0 and time.monotonic() <= deadline:
        result.tries += 1
        reordered = reorder(result.problem, result.failure)
        if reordered is not None:
            result.problem, result.failure, description = reordered
            result.steps.append(description)
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


def _task_label(domain_dir: DomainDir, task_set: str, path: Path) -> str:
    """``debug task debug/task-00.pddl``: the set and the file with its folder (task-00.pddl is in both)."""
    try:
        shown = path.relative_to(domain_dir.path)
    except ValueError:
        shown = Path(path.name)
    return f"{task_set} task {shown.as_posix()}"


def _load_set(domain_dir: DomainDir, domain: Domain, task_set: str) -> list[tuple[str, Problem]]:
    paths = domain_dir.debug_tasks() if task_set == "debug" else domain_dir.eval_tasks()
    loaded = []
    for path in sorted(paths, key=lambda p: (p.stat().st_size, str(p))):
        try:
            loaded.append((_task_label(domain_dir, task_set, path), load_problem(path, domain)))
        except PddlError:
            continue
    return loaded


def _combined(first: Problem, second: Problem, invariants: Invariants) -> Problem:
    """Two tasks in one: objects of the same name are one object; the second task's initial facts and goals
    that would break an invariant of the first's (a second ferry position) are left out."""
    objects = dict(first.objects)
    objects.update((name, kind) for name, kind in second.objects if name not in objects)
    combined = replace(first, name=f"{first.name}-and-{second.name}", path=None, objects=list(objects.items()),
                       init=list(first.init), goal_pos=list(first.goal_pos))
    for fact in second.init:
        if fact not in combined.init:
            trial = replace(combined, init=[*combined.init, fact])
            if not invariants.violations(trial, only_at_most_one=True):
                combined = trial
    for fact in second.goal_pos:
        goal = replace(combined, init=[*combined.goal_pos, fact])
        if fact not in combined.goal_pos and not invariants.violations(goal, only_at_most_one=True):
            combined = replace(combined, goal_pos=[*combined.goal_pos, fact])
    return combined


def debug_variants(domain_dir: DomainDir, domain: Domain, invariants: Invariants) -> Iterator[tuple[str, Problem]]:
    """Tasks derived from the debug tasks only (never an evaluation task): the tasks themselves, each with one
    object removed (mended, or with its dependents), then every two combined into a larger one."""
    tasks = _load_set(domain_dir, domain, "debug")
    yield from tasks
    for label, problem in tasks:
        for name, _type in problem.objects:
            change = _removed_objects(problem, [name], invariants)
            dependents = invariants.dependents(problem, name)
            if change is None and dependents:
                change = _removed_objects(problem, [name, *sorted(dependents)], invariants)
            if change is not None and _goal_open(change[1]):
                yield f"{label}, {change[0]}", change[1]
    for first_label, first in tasks:
        for second_label, second in tasks:
            if first is not second:
                yield f"{first_label} combined with {second_label}", _combined(first, second, invariants)


def candidate_tasks(domain_dir: DomainDir, domain: Domain, seed: int, tasks_per_size: int, probes: bool = True,
                    tasks: str = "auto", invariants: Invariants | None = None) -> Iterator[tuple[str, Problem]]:
    """Probes, then, by ``tasks``: generated tasks of growing size (round after round with new seeds; "auto"
    with a generator), tasks derived from the debug tasks ("debug", and "auto" without a generator), or the
    evaluation tasks, smallest file first ("eval": only when a person asks for them)."""
    if tasks not in TASK_SETS:
        raise CounterexampleError(f"unknown task set {tasks!r} (one of {', '.join(TASK_SETS)})")
    for path in domain_dir.probe_tasks() if probes else []:
        try:
            yield f"probe {path.name}", load_problem(path, domain)
        except PddlError:
            continue
    if tasks == "eval":
        yield from _load_set(domain_dir, domain, "eval")
        return
    if tasks == "debug" or not domain_dir.has_generator:
        yield from debug_variants(domain_dir, domain, invariants or Invariants([]))
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
    tasks: str = "auto",
    sandbox: Sandbox | None = None,
    on_task: Callable[[int, str, bool], None] | None = None,
) -> Counterexample:
    """Search for a task ``program`` fails on, within ``budget``; shrink it (unless ``shrink`` is False). Every
    task tried satisfies the domain's invariants (:mod:`.invariants`); ``tasks`` picks the task set
    (:func:`candidate_tasks`)."""
    budget = budget or SearchBudget()
    domain = load_domain(domain_dir.domain_file)
    limits = Limits(time_limit=budget.time_limit)
    report = Counterexample(program.path or "<program>", domain_dir.name, seed, tasks=tasks)
    invariants = domain_invariants(domain_dir, domain)
    report.invariants = invariants.describe()
    own = sandbox is None
    box = sandbox or Sandbox(limits)
    try:
        box.start(hash_seed_for(k) for k in range(budget.orderings))
        runner = _Runner(program, domain, domain_dir.typed_objects, box, limits, budget.orderings)
        solvable = _Solvability(domain, budget.planner_timeout)
        started = time.monotonic()
        for source, problem in candidate_tasks(domain_dir, domain, seed, budget.tasks_per_size, probes, tasks,
                                               invariants):
            if report.tasks_tried >= budget.max_tasks or time.monotonic() - started > budget.seconds:
                break
            if invariants.violations(problem):
                report.skipped_invariants += 1
                continue
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
            # the found task's own groups join the debug tasks' (it may have objects of kinds they lack)
            invariants = domain_invariants(domain_dir, domain, [report.original])
            report.invariants = invariants.describe()
            regenerate = (Regenerator(domain_dir, domain, seed, invariants, generated_sizes(report.source))
                          if domain_dir.has_generator else None)
            report.shrunk = shrink_found(report.original, report.failure, runner, solvable, budget.shrink_seconds,
                                         invariants, regenerate)
    finally:
        if own:
            box.close()
    return report


def shrink_found(problem: Problem, failure: Failure, runner: _Runner, solvable: _Solvability,
                 seconds: float, invariants: Invariants, regenerate: Regenerator | None = None) -> Shrunk:
    def reorder(current: Problem, failed: Failure) -> tuple[Problem, Failure, str] | None:
        """The task written in the order it failed in, when it fails so in file order: under PYTHONHASHSEED 0
        if it can, else under the failing run's seed (recorded in the file's comment)."""
        candidate = _reordered(current, failed.ordering, runner.typed, runner.domain)
        for seed in dict.fromkeys((0, failed.hash_seed)):
            found = runner.file_order_failure(candidate, seed)
            if found is not None and failed.same_as(found):
                where = "" if seed == 0 else f" with PYTHONHASHSEED={seed}"
                return (candidate, found,
                        f"wrote the input in the order of ordering {failed.ordering} (it fails in file order{where})")
        return None

    return shrink_problem(problem, failure, runner.failure, solvable, time.monotonic() + seconds, reorder,
                          runner.domain.static_predicates, invariants, regenerate, dict(runner.domain.type_parents))


def domain_invariants(domain_dir: DomainDir, domain: Domain, extra: Sequence[Problem] = ()) -> Invariants:
    """The invariants proven on the largest debug tasks (and on ``extra`` tasks, e.g. the one being shrunk): with
    more objects a group's parameters are less often named by every atom by chance. Every debug task and probe
    must satisfy them too (a group they break is dropped, or kept as at-most-one)."""
    debug = _load_paths(domain, sorted(domain_dir.debug_tasks(), key=lambda p: (-p.stat().st_size, str(p))))
    probes = _load_paths(domain, domain_dir.probe_tasks())
    return find_invariants(domain, [*debug[:INVARIANT_SOURCES], *extra], [*debug[INVARIANT_SOURCES:], *probes])


def _load_paths(domain: Domain, paths: Sequence[Path]) -> list[Problem]:
    loaded = []
    for path in paths:
        try:
            loaded.append(load_problem(path, domain))
        except PddlError:
            continue
    return loaded


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
        invariants = domain_invariants(domain_dir, domain, [problem])
        regenerate = Regenerator(domain_dir, domain, 0, invariants) if domain_dir.has_generator else None
        return shrink_found(problem, failure, runner, _Solvability(domain, budget.planner_timeout), budget.shrink_seconds,
                            invariants, regenerate)


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
        lines.append(f"; stages: {report.shrunk.stages_text()}")
        lines.extend(f";   step {number}: {step}" for number, step in enumerate(report.shrunk.steps, 1))
    message = next((line.strip() for line in failure.message.splitlines() if line.strip()), "")
    lines.append(f"; the program fails with: {failure.category} ({failure.kind}) under ordering {failure.ordering}"
                 + (f": {message[:200]}" if message else ""))
    lines.append(f"; the same failure throughout: {failure.signature}")
    lines.append(f"; it fails {report.reproduce_note()}")
    lines.append(f"; invariants: {report.invariants}")
    return "\n".join(lines) + "\n" + problem_to_pddl(replace(task, name=name), typed)


def write_counterexample(report: Counterexample, domain: Domain, path: Path | str) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(counterexample_pddl(report, domain.typed), encoding="utf-8")
    report.path = str(target)
    return target
