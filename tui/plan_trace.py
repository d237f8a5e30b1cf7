"""What the plan stepper shows: each action of a plan with the facts it adds and removes, the state
before and after it, and where and why the plan fails. Validation itself is the engine's
(``validate_plan(..., trace=True)``); this module only arranges its result for display."""

from __future__ import annotations

from dataclasses import dataclass, field

from genplan.engine.api.pddl import (
    GOAL_NOT_REACHED,
    Domain,
    Problem,
    Task,
    ValidationResult,
    fact_text,
    plan_feedback,
    validate_plan,
)

OK, FAILED, NOT_RUN = "ok", "failed", "not run"


@dataclass
class StepView:
    index: int  # 0-based, as in the feedback messages
    action: str
    status: str  # ok / failed / not run
    added: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unsatisfied: list[str] = field(default_factory=list)  # preconditions that do not hold (failing step)
    fired: list[str] = field(default_factory=list)  # ADL: the conditional effects that fired, ground


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

    def state_before(self, index: int) -> frozenset[str]:
        return self.states[min(index, len(self.states) - 1)]

    def state_after(self, index: int) -> frozenset[str]:
        return self.states[min(index + 1, len(self.states) - 1)]

    def goal_status(self, index: int | None = None) -> list[tuple[str, bool]]:
        """Each goal fact and whether it holds after step ``index`` (default: after the last executed)."""
        state = self.states[-1] if index is None else self.state_after(index)
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

    @property
    def summary(self) -> str:
        if self.result.valid:
            return f"valid plan of {len(self.steps)} actions"
        if self.result.kind == GOAL_NOT_REACHED:
            return f"all {len(self.steps)} actions run, but the goal is not reached"
        return f"fails at step {self.result.step} ({self.result.kind})"


def trace_plan(domain: Domain, problem: Problem, plan: list[str]) -> PlanTrace:
    result = validate_plan(domain, problem, plan, trace=True)
    effects = result.trace or []
    initial = sorted(fact_text(f) for f in problem.init)
    goal = problem.goal_text()
    states = [frozenset(initial)]
    steps: list[StepView] = []
    for effect in effects:
        steps.append(StepView(effect.step, plan[effect.step].strip(), OK, list(effect.added), list(effect.deleted),
                              fired=list(effect.fired)))
        states.append((states[-1] - set(effect.deleted)) | set(effect.added))
    for index in range(len(effects), len(plan)):
        failed = not result.valid and result.step == index
        unsatisfied = [*result.unsatisfied_static, *result.unsatisfied] if failed else []
        if failed:
            unsatisfied += [f"{condition}: {why}" for condition, why in result.unsatisfied_conditions]
        steps.append(StepView(index, plan[index].strip(), FAILED if failed else NOT_RUN, unsatisfied=unsatisfied))
    static = frozenset(fact_text(f) for f in Task(domain, problem).static_facts)
    message = "" if result.valid else plan_feedback(result, domain)
    return PlanTrace(steps=steps, initial_state=initial, goal=goal, result=result, states=states, static=static,
                     message=message, task=Task(domain, problem))


def parse_plan_lines(text: str) -> list[str]:
    """Actions from pasted text: one per line; blank lines, ``;`` comments and ``N:`` prefixes are ignored."""
    actions = []
    for line in text.splitlines():
        content = line.split(";", 1)[0].strip()
        if not content:
            continue
        if ":" in content and content.split(":", 1)[0].strip().isdigit():
            content = content.split(":", 1)[1].strip()
        actions.append(content)
    return actions
