"""A plan traced once, for every front end that steps through it (the app's plan stepper, the exported page's):
each action with the facts it adds and removes, the state before each step, the failing step with the
preconditions that did not hold, the steps not run, and the goal's facts in every state. Steps are numbered as
the validator's feedback to the model numbers them (Stein et al.'s "at step 0", Silver et al.'s "at time 1"), so a
stepper and the feedback beside it name the same step alike. Validation itself is ``validate_plan(..., trace=True)``;
a front end shows this trace and computes none of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from genplan.engine.feedback import FeedbackStyle
from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.pddl import Domain, Problem
from genplan.engine.pddl.model import Task
from genplan.engine.pddl.validate import GOAL_NOT_REACHED, ValidationResult, fact_text, validate_plan

__all__ = ["FAILED", "NOT_RUN", "OK", "PlanTrace", "StepView", "first_step_number", "trace_plan"]

OK, FAILED, NOT_RUN = "ok", "failed", "not run"


def first_step_number(style: FeedbackStyle | str | None) -> int:
    """The number the feedback of ``style`` gives a plan's first step: Silver et al.'s "at time 1"; Stein et
    al.'s (and the others') "at step 0"."""
    return 1 if style is not None and FeedbackStyle(style) == FeedbackStyle.SILVER else 0


@dataclass
class StepView:
    index: int  # 0-based position in the plan
    action: str
    status: str  # ok / failed / not run
    added: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unsatisfied: list[str] = field(default_factory=list)  # preconditions that do not hold (failing step)
    fired: list[str] = field(default_factory=list)  # ADL: the conditional effects that fired, ground
    number: int = 0  # as the feedback numbers it


@dataclass
class PlanTrace:
    steps: list[StepView]
    initial_state: list[str]
    goal: list[str]
    result: ValidationResult
    states: list[frozenset[str]]  # states[i] = the state before step i; one more entry after the last executed
    static: frozenset[str] = frozenset()  # facts of static predicates (the engine's Problem.static_facts)
    message: str = ""  # the engine's feedback for an invalid plan, as a model would read it
    task: Task | None = None  # for the goal's ADL conditions (forall, or, ...), evaluated on each state

    @property
    def failing_step(self) -> int | None:
        """Index of the failing action; ``len(steps)`` when all actions ran but the goal is not reached."""
        if self.result.valid:
            return None
        return self.result.step

    @property
    def failed_at_step(self) -> StepView | None:
        """The action that could not be executed (None: every action ran)."""
        return next((s for s in self.steps if s.status == FAILED), None)

    @property
    def not_run(self) -> list[StepView]:
        return [s for s in self.steps if s.status == NOT_RUN]

    def state_before(self, index: int) -> frozenset[str]:
        return self.states[min(index, len(self.states) - 1)]

    def state_after(self, index: int) -> frozenset[str]:
        return self.states[min(index + 1, len(self.states) - 1)]

    def goal_in(self, state: frozenset[str]) -> list[tuple[str, bool]]:
        """Each goal fact (or ADL condition) and whether it holds in ``state``."""
        out = []
        conditions = {c.pddl(): c for c in self.task.problem.goal_conditions} if self.task else {}
        for fact in self.goal:
            if fact in conditions and self.task is not None:
                facts = {tuple(f[1:-1].split()) for f in state}
                out.append((fact, self.task.holds(conditions[fact], {}, facts)))
            elif fact.startswith("(not "):
                out.append((fact, fact[5:-1] not in state))
            else:
                out.append((fact, fact in state))
        return out

    def goal_status(self, index: int | None = None) -> list[tuple[str, bool]]:
        """Each goal fact and whether it holds after step ``index`` (default: after the last executed)."""
        return self.goal_in(self.states[-1] if index is None else self.state_after(index))

    @property
    def summary(self) -> str:
        if self.result.valid:
            return f"valid plan of {len(self.steps)} actions"
        if self.result.kind == GOAL_NOT_REACHED:
            return f"all {len(self.steps)} actions run, but the goal is not reached"
        failed = self.failed_at_step
        number = failed.number if failed is not None else self.result.step
        rest = len(self.not_run)
        after = f"; {rest} later step{'' if rest == 1 else 's'} not run" if rest else ""
        return f"fails at step {number} ({self.result.kind}){after}"

    def to_page(self, task: str) -> dict[str, Any]:
        """The trace as the exported page's stepper shows it: every position's state and goal facts, each step's
        number, status and effects, the failing step; the page's script only displays it."""
        positions = list(self.states)
        return {
            "task": task,
            "valid": self.result.valid,
            "summary": self.summary,
            "message": self.message,
            "static": sorted(self.static),
            "goal": list(self.goal),
            "steps": [{"number": s.number, "action": s.action, "status": s.status, "added": s.added,
                       "deleted": s.deleted, "unsatisfied": s.unsatisfied} for s in self.steps],
            # states[p]: the state before step p (p = number of steps run: the state at the end)
            "states": [sorted(state) for state in positions],
            "goal_holds": [[holds for _fact, holds in self.goal_in(state)] for state in positions],
            "failing": None if self.failed_at_step is None else self.failed_at_step.index,
        }


def trace_plan(domain: Domain, problem: Problem, plan: list[str],
               style: FeedbackStyle | str | None = FeedbackStyle.STEIN) -> PlanTrace:
    """``plan`` traced on the task, numbered as the feedback of ``style`` numbers steps."""
    first = first_step_number(style)
    result = validate_plan(domain, problem, plan, trace=True)
    effects = result.trace or []
    initial = sorted(fact_text(f) for f in problem.init)
    goal = problem.goal_text()
    states = [frozenset(initial)]
    steps: list[StepView] = []
    for effect in effects:
        steps.append(StepView(effect.step, plan[effect.step].strip(), OK, list(effect.added), list(effect.deleted),
                              fired=list(effect.fired), number=effect.step + first))
        states.append((states[-1] - set(effect.deleted)) | set(effect.added))
    for index in range(len(effects), len(plan)):
        failed = not result.valid and result.step == index
        unsatisfied = [*result.unsatisfied_static, *result.unsatisfied] if failed else []
        if failed:
            unsatisfied += [f"{condition}: {why}" for condition, why in result.unsatisfied_conditions]
        steps.append(StepView(index, plan[index].strip(), FAILED if failed else NOT_RUN, unsatisfied=unsatisfied,
                              number=index + first))
    static = frozenset(fact_text(f) for f in Task(domain, problem).static_facts)
    message = "" if result.valid else plan_feedback(result, domain, style=FeedbackStyle(style or FeedbackStyle.STEIN))
    return PlanTrace(steps=steps, initial_state=initial, goal=goal, result=result, states=states, static=static,
                     message=message, task=Task(domain, problem))
