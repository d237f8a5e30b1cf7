"""A synthetic, scripted "model" for pipeline tests on domains/ferry.

It is test data, not model output: every answer is built by this file so the tests can steer the
pipeline down each path (a strategy bug, a program exception, a timeout, ...). Task descriptions
carry the problem name, so that later prompts (which show only the description) can be matched to
the task and answered with a plan computed by our own planner.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.planner import solve
from support.scripted_server import RecordedRequest, Reply

# Calls of a clean F5-3 run on ferry with FerryModel and no response cache: Table 8's minimum for F5-3
# (NL domain 1 + NL tasks 6 + strategy 1 + validation 6 + final strategy check 2 + program 1).
CLEAN_RUN_CALLS = 17

FERRY = Path(__file__).resolve().parents[2] / "domains" / "ferry"

CORRECT_PROGRAM = '''
def generate_solution(objects, init, goal):
    ferry_at = next(fact[1] for fact in init if fact[0] == "at-ferry")
    car_at = {fact[1]: fact[2] for fact in init if fact[0] == "at"}
    plan = []
    for fact in sorted(goal):
        if fact[0] != "at":
            continue
        car, target = fact[1], fact[2]
        start = car_at[car]
        if start == target:
            continue
        if ferry_at != start:
            plan.append(f"(sail {ferry_at} {start})")
        plan.append(f"(board {car} {start})")
        plan.append(f"(sail {start} {target})")
        plan.append(f"(debark {car} {target})")
        ferry_at = target
    return plan
'''

# forgets to sail to the car first: fails whenever the ferry is elsewhere
BUGGY_PROGRAM = CORRECT_PROGRAM.replace(
    '''        if ferry_at != start:
            plan.append(f"(sail {ferry_at} {start})")
''',
    "",
)
CRASHING_PROGRAM = CORRECT_PROGRAM.replace('car_at = {fact[1]: fact[2]', 'car_at = {fact[3]: fact[2]')
LOOPING_PROGRAM = "def generate_solution(objects, init, goal):\n    while True:\n        pass\n"


def fenced(code: str) -> str:
    return f"Here is the program.\n\n```python\n{code.strip()}\n```\n"


@functools.cache
def _solved_debug_tasks(domain_dir: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    # once per process and domain: every FerryModel (some tests make one per request) needs the same plans,
    # and solving ferry's six takes about 2 CPU s with Fast Downward
    root = Path(domain_dir)
    domain = load_domain(root / "domain.pddl")
    solved = []
    for path in sorted((root / "debug").glob("*.pddl")):
        problem = load_problem(path, domain)
        solved.append((problem.name, tuple(solve(domain, problem, optimal=True, timeout=30).plan or [])))
    return tuple(solved)


def optimal_plans(domain_dir: Path = FERRY) -> dict[str, list[str]]:
    """The optimal plans of a domain's debug tasks by problem name, a fresh copy for each caller to change."""
    return {name: list(plan) for name, plan in _solved_debug_tasks(str(domain_dir))}


@dataclass
class FerryModel:
    """Answers by step. `programs` and `strategy_plan_mistakes` steer the scenario."""

    programs: list[str] = field(default_factory=lambda: [CORRECT_PROGRAM])
    # number of strategy validation rounds in which the plan for the first task is broken
    strategy_plan_mistakes: int = 0
    plans: dict[str, list[str]] = field(default_factory=optimal_plans)
    seen: dict[str, int] = field(default_factory=dict)
    extra: Callable[[RecordedRequest], Reply | str | None] | None = None

    def count(self, step: str) -> int:
        self.seen[step] = self.seen.get(step, 0) + 1
        return self.seen[step]

    def __call__(self, request: RecordedRequest) -> Reply | str | None:
        if self.extra is not None:
            special = self.extra(request)
            if special is not None:
                return special
        step = request.step or ""
        last = request.messages[-1]["content"]
        self.count(step)  # seen[step] is read by the tests
        if step == "nl.domain":
            return "SYNTHETIC: a ferry carries one car at a time between locations."
        if step == "nl.task":
            name = re.search(r"\(problem\s+([^\s)]+)", last, re.I).group(1).lower()
            return f"SYNTHETIC description of task [[{name}]]."
        if step in ("strategy.generate", "strategy.revise"):
            version = self.seen.get("strategy.generate", 0) + self.seen.get("strategy.revise", 0)
            return f"Reasoning.\n\nPseudocode:\n1. for every car not at its goal: sail to it, board, sail, debark (version {version})"
        if step == "strategy.plan":
            name = re.search(r"\[\[([^\]]+)\]\]", last).group(1)
            plan = list(self.plans[name])
            first = sorted(self.plans)[0]
            version = re.search(r"\(version (\d+)\)", last)
            version_number = int(version.group(1)) if version else 1
            if name == first and version_number <= self.strategy_plan_mistakes and len(plan) > 1:
                plan = plan[1:]  # drop the first step: a precondition fails
            return "Following the strategy:\n```\n" + "\n".join(plan) + "\n```"
        if step in ("strategy.reflect", "code.reflect"):
            return "SYNTHETIC reflection: the first step is missing."
        if step in ("code.generate", "code.revise", "baseline.code", "baseline.fix"):
            written = sum(self.seen.get(s, 0) for s in ("code.generate", "code.revise", "baseline.code", "baseline.fix"))
            program = self.programs[min(written - 1, len(self.programs) - 1)]
            if any("get_plan" in m["content"] for m in request.messages if m["role"] == "user"):
                program = program.replace("def generate_solution(", "def get_plan(")
            return fenced(program)
        if step == "baseline.summary":
            return "SYNTHETIC summary: cars, locations and a ferry for one car."
        if step == "baseline.strategy":
            return "Strategy: move each car to its goal location one by one."
        return None
