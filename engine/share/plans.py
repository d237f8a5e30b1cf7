"""A recorded plan as the page's plan stepper shows it: the engine's trace (engine/plan_trace.py), the same the
app's stepper shows: the state before each step, the failing step and the preconditions that did not hold, the
steps not run, the goal's facts in every state, each step numbered as the run's feedback numbers steps. The page's
script displays it and computes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.domainlib import DomainDir, DomainDirError
from genplan.engine.errors import GenplanError
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.pddl import Domain, PddlError, load_domain, load_problem
from genplan.engine.plan_trace import trace_plan

PlanSteps = dict[str, Any]  # PlanTrace.to_page(): what the page's JSON block holds of one plan


@dataclass
class TaskFiles:
    domain: Domain
    source: DomainDir
    style: FeedbackStyle = FeedbackStyle.STEIN  # whose feedback (and so whose step numbers) the run's checks used


def task_files(domain_dir: object, notes: list[str], style: FeedbackStyle = FeedbackStyle.STEIN) -> TaskFiles | None:
    """The run's domain, for stepping through its plans (None, with a note saying why, when it cannot be read)."""
    if not isinstance(domain_dir, str) or not domain_dir:
        notes.append("the run names no domain directory: its plans are shown without the states they lead to")
        return None
    try:
        source = DomainDir.open(Path(domain_dir))
        return TaskFiles(load_domain(source.domain_file), source, style)
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
        return trace_plan(files.domain, problem, plan, files.style).to_page(task)
    except GenplanError:
        return None
