"""A recorded plan as the page's plan stepper shows it: the initial state, then each step's action with the facts
it adds and deletes (the page's script rebuilds the state after any step from these), the failing step and the
preconditions that did not hold, and the feedback a model read for it. Validation is the engine's own
(``validate_plan(..., trace=True)``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from genplan.engine.domainlib import DomainDir, DomainDirError
from genplan.engine.errors import GenplanError
from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.pddl import Domain, PddlError, load_domain, load_problem
from genplan.engine.pddl.model import Task
from genplan.engine.pddl.validate import fact_text, validate_plan


@dataclass
class PlanStep:
    action: str
    status: str  # ok, failed, not run
    added: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unsatisfied: list[str] = field(default_factory=list)


@dataclass
class PlanSteps:
    task: str
    initial: list[str]
    static: list[str]  # facts no action changes (the page can hide them)
    goal: list[str]
    steps: list[PlanStep]
    valid: bool
    failing_step: int | None  # len(steps): every action ran but the goal does not hold
    message: str


@dataclass
class TaskFiles:
    domain: Domain
    source: DomainDir


def task_files(domain_dir: object, notes: list[str]) -> TaskFiles | None:
    """The run's domain, for stepping through its plans (None, with a note saying why, when it cannot be read)."""
    if not isinstance(domain_dir, str) or not domain_dir:
        notes.append("the run names no domain directory: its plans are shown without the states they lead to")
        return None
    try:
        source = DomainDir.open(Path(domain_dir))
        return TaskFiles(load_domain(source.domain_file), source)
    except (DomainDirError, PddlError, OSError) as exc:
        notes.append(f"the run's domain directory cannot be read ({exc}): its plans are shown without their states")
        return None


def plan_steps(files: TaskFiles, task: str, plan: list[str]) -> PlanSteps | None:
    """The steps of ``plan`` on the task named ``task`` (None when the domain directory has no such task)."""
    path = files.source.find_task(task)
    return None if path is None else steps_on(files, path, plan, task)


def steps_on(files: TaskFiles, path: Path, plan: list[str], task: str) -> PlanSteps | None:
    """The steps of ``plan`` on the problem file ``path`` (None when it does not parse)."""
    try:
        problem = load_problem(path, files.domain)
        result = validate_plan(files.domain, problem, plan, trace=True)
    except GenplanError:
        return None
    steps = [PlanStep(plan[e.step].strip(), "ok", list(e.added), list(e.deleted)) for e in result.trace or []]
    for index in range(len(steps), len(plan)):
        failed = not result.valid and result.step == index
        unsatisfied = [*result.unsatisfied_static, *result.unsatisfied,
                       *(f"{condition}: {why}" for condition, why in result.unsatisfied_conditions)] if failed else []
        steps.append(PlanStep(plan[index].strip(), "failed" if failed else "not run", unsatisfied=unsatisfied))
    static = sorted(fact_text(f) for f in Task(files.domain, problem).static_facts)
    return PlanSteps(task, sorted(fact_text(f) for f in problem.init), static, problem.goal_text(), steps,
                     result.valid, None if result.valid else result.step,
                     "" if result.valid else plan_feedback(result, files.domain))
