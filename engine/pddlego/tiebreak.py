"""Replaying a trial: among plans as short as genplan's own, the one the original planner chose.

Optimal planners break ties between equally short plans in their own ways, and the model's next answers were
written after the original planner's choice. When genplan's plan of the model's files differs from the plan the
trial log records, genplan checks the logged commands against the same files with its own parser and
simulator: one applicable action per command, in order, ending in the goal, and no longer than genplan's own
plan. Only a logged plan that passes that check is executed instead; genplan's checks still decide. Every such
choice is recorded (``TieBreakingSolver.decisions``), and a live run never uses this (it has no log).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from genplan.engine.pddl.budget import Budget, BudgetExceeded
from genplan.engine.pddl.errors import PddlError
from genplan.engine.pddl.loader import parse_task_text
from genplan.engine.pddl.model import Domain, Fact, Problem, Task
from genplan.engine.pddlego.solver import DOMAIN_NAME, PROBLEM_NAME, CommandMapper, PddlSolver, SolverOutcome, _goal_alternatives
from genplan.engine.pddlego.trial_log import TrialLog
from genplan.engine.planner import Successors

# How long following the logged commands through the model's files may take (milliseconds for real trials).
REALIZE_SECONDS = 10.0


def realize(domain_text: str, problem_text: str, commands: list[str], mapper: CommandMapper, *,
            lenient: bool = True, max_length: int) -> list[str] | None:
    """A valid plan of the files whose game commands are ``commands`` (at most ``max_length`` actions), or None."""
    if len(commands) > max_length:
        return None
    try:
        domain, problem = parse_task_text(domain_text, problem_text, DOMAIN_NAME, PROBLEM_NAME, lenient=lenient)
    except PddlError:
        return None
    return realize_task(domain, problem, commands, mapper)


def realize_task(domain: Domain, problem: Problem, commands: list[str], mapper: CommandMapper) -> list[str] | None:
    """A valid plan of the task whose game commands are ``commands`` (one action each, in order), or None."""
    task = Task(domain, problem, budget=Budget(REALIZE_SECONDS))
    successors = Successors(task)
    origins = domain.action_origins

    def command_of(action: str) -> str | None:
        words = action.strip("()").split()
        return mapper(origins.get(words[0], words[0]), words[1:])

    def search(state: frozenset[Fact], done: int, plan: list[str]) -> list[str] | None:
        if done == len(commands):
            return plan if task.goal_reached(state) else None  # ADL goal conditions included
        for action, following in successors.applicable(state):
            if command_of(action) == commands[done]:
                found = search(following, done + 1, [*plan, action])
                if found is not None:
                    return found
        return None

    try:
        return search(frozenset(problem.init), 0, [])
    except BudgetExceeded:  # files whose actions have too many bindings to follow: genplan's own plan stands
        return None


class TieBreakingSolver(PddlSolver):
    """genplan's solver, preferring the logged plan of a replayed trial where it is an equally good plan."""

    def __init__(self, mapper: CommandMapper, log: TrialLog, answered: Callable[[], int], **options: Any) -> None:
        super().__init__(mapper, **options)
        self.log = log
        self.answered = answered  # how many logged answers the replay has used (the call these files came from)
        self.decisions: list[dict[str, Any]] = []
        self._inside = False  # solving one alternative of an (or ...) goal: the whole goal is compared once

    def solve(self, domain_text: str | None, problem_text: str | None) -> SolverOutcome:
        if self._inside:
            return super().solve(domain_text, problem_text)
        self._inside = True
        try:
            outcome = super().solve(domain_text, problem_text)
        finally:
            self._inside = False
        index = self.answered() - 1
        if not outcome.ok or not outcome.plan or not domain_text or not problem_text:
            return outcome
        logged = self.log.calls[index].solver_plan if 0 <= index < len(self.log.calls) else None
        if not logged or logged == outcome.commands:
            return outcome
        # a goal (or g1 g2 ...) is reached when one alternative is
        plan = None
        for goal_text in _goal_alternatives(problem_text) or [problem_text]:
            plan = realize(domain_text, goal_text, logged, self.mapper, lenient=self.lenient,
                           max_length=len(outcome.plan))
            if plan is not None:
                break
        decision = {"call": index + 1, "genplan": outcome.commands, "logged": logged, "used": plan is not None}
        self.decisions.append(decision)
        if plan is None:
            return outcome
        return dataclasses.replace(outcome, commands=list(logged), plan=plan,
                                   planner=f"{outcome.planner} (tie broken as logged)")
