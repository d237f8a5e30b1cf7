"""What a front end needs of PDDL: loading a domain and its problems, a task as programs receive it, checking
that an edited file still parses (the code editor), validating a plan step by step with the feedback a model
would read (the plan stepper: the engine's trace, engine/plan_trace.py)."""

from __future__ import annotations

from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.pddl import Domain, PddlError, Problem, load_domain, load_problem
from genplan.engine.pddl.encoding import encode_task, render_task, render_task_abbreviated, shuffled_task
from genplan.engine.pddl.model import Task
from genplan.engine.pddl.plans import load_plan
from genplan.engine.pddl.validate import GOAL_NOT_REACHED, ValidationResult, fact_text, validate_plan
from genplan.engine.plan_trace import FAILED, NOT_RUN, OK, PlanTrace, StepView, first_step_number, trace_plan
from genplan.engine.planner import ERROR, SOLVED, PlannerResult, check_plan, plan_cost, solve

__all__ = [
    "DOMAIN_FILE", "Domain", "ERROR", "FAILED", "GOAL_NOT_REACHED", "NOT_RUN", "OK", "PROBLEM_FILE", "PddlError",
    "PlanTrace", "PlannerResult", "Problem", "SOLVED", "StepView", "Task", "ValidationResult", "check_plan",
    "encode_task", "fact_text", "first_step_number", "load_domain", "load_plan", "trace_plan",
    "load_problem", "parse_error", "plan_cost", "plan_feedback", "planned_task", "program_input", "render_task",
    "render_task_abbreviated", "shuffled_task", "solve", "validate_plan",
]

DOMAIN_FILE, PROBLEM_FILE = "domain.pddl", "problem.pddl"  # the names parse_error's errors carry


def program_input(problem: Problem, domain: Domain, *, typed: bool) -> str:
    """A task as a program receives it (objects, init, goal), as Python text."""
    return render_task(encode_task(problem, typed=typed, domain=domain))


def parse_error(text: str, role: str = "domain", other: str | None = None) -> PddlError | None:
    """Why genplan's parser rejects a PDDL ``role`` ("domain" or "problem") file, None when it reads it.
    ``other`` is the file it is read with (a problem file's domain, a domain file's problem, as a PDDLego+ call
    wrote them), read leniently as the trial's solver does; without it a domain is read alone and a problem is
    checked no further than its parentheses. The error's ``path`` is :data:`DOMAIN_FILE` or :data:`PROBLEM_FILE`."""
    from genplan.engine.pddl.loader import parse_domain_text, parse_task_text
    from genplan.engine.pddl.sexpr import read_sexpr

    try:
        if other is not None:
            domain, problem = (text, other) if role == "domain" else (other, text)
            parse_task_text(domain, problem, DOMAIN_FILE, PROBLEM_FILE, lenient=True)
        elif role == "domain":
            parse_domain_text(text, DOMAIN_FILE)
        else:
            read_sexpr(text, PROBLEM_FILE)
    except PddlError as exc:
        return exc
    return None


def planned_task(domain_text: str, problem_text: str, plan: list[str]) -> tuple[Domain, Problem]:
    """The domain and problem of a PDDLego+ solver call, read as the trial's solver read them for ``plan``."""
    from genplan.engine.pddlego.solver import planned_task as planned

    return planned(domain_text, problem_text, plan)
