"""AutoToS on any PDDL domain genplan opens: the tests come from genplan's own simulator.

State: the set of fact tuples of genplan's Python encoding (a frozenset). The model writes
``succ(state, objects)`` returning (action string, next state) pairs and ``is_goal(state, goal)`` with
``goal`` the set of goal facts (an ADL goal also holds ``('not', fact)`` and its compound conditions as nested
tuples, as generated programs receive them: ``genplan.engine.pddl.encoding``). Checks: every transition the
soundness search sees is replayed by the simulator in the parent (the action must be applicable and the next state exact); completeness on
states along optimal planner plans and random walks of the debug tasks; goal states from plan ends and
non-goal states with all goal facts but one. Evaluation: BFS (or greedy best-first with the goal-count
heuristic) on the eval tasks, every plan validated by genplan's validator and compared with the optimal
planner's length.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from genplan.engine.autotos.domains import DataError, Instance, SearchDomain
from genplan.engine.autotos.harness import normalize_action
from genplan.engine.domainlib import DomainDir
from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.budget import Budget, BudgetExceeded
from genplan.engine.pddl.encoding import encode_task
from genplan.engine.pddl.model import Domain, Fact, Problem, Task
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import Successors, solve

# The simulator's limits for listing one state's successors: far beyond what any real domain needs (a
# thousand-object task lists its steps in milliseconds), short enough that a grounding bomb ends the run soon.
SIMULATOR_SECONDS = 10.0
SIMULATOR_MEMORY_MB = 2048


def _facts(state: frozenset[Fact] | set[Fact]) -> list[list[str]]:
    return sorted([list(f) for f in state])


def _listed(value: Any) -> Any:
    return [_listed(v) for v in value] if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def _goal(domain: Domain, problem: Problem) -> list[Any]:
    """The goal as is_goal receives it (JSON lists here): the encoding's goal, compound conditions included."""
    return [_listed(g) for g in encode_task(problem, False, domain).goal]


def _objects(domain: Domain, problem: Problem, typed: bool) -> list[Any]:
    pairs = list(domain.constants) + list(problem.objects)
    return [[n, t] for n, t in pairs] if typed else [n for n, _ in pairs]


class PddlTasks:
    """One domain's tasks with the simulator and optimal plans the tests are made of."""

    def __init__(self, domain_file: Path, debug: list[Path], evaluation: list[Path], typed: bool,
                 planner: str = "auto", planner_timeout: float = 60.0) -> None:
        self.domain = load_domain(domain_file)
        self.typed = typed
        self.debug = [load_problem(p, self.domain) for p in debug]
        self.evaluation = [load_problem(p, self.domain) for p in evaluation]
        self.planner = planner
        self.planner_timeout = planner_timeout
        self._simulators: dict[int, Successors] = {}
        self._transitions: dict[tuple[int, frozenset[Fact]], dict[str, frozenset[Fact]]] = {}

    def simulator(self, problem: Problem) -> Successors:
        key = id(problem)
        if key not in self._simulators:
            self._simulators[key] = Successors(Task(self.domain, problem))
        return self._simulators[key]

    def successors(self, problem: Problem, state: frozenset[Fact]) -> list[tuple[str, frozenset[Fact]]]:
        """Every step from ``state`` and where it leads, listed within ``SIMULATOR_SECONDS``: a domain whose
        actions have billions of bindings is a DataError, not a run that never ends."""
        simulator = self.simulator(problem)
        simulator.task.budget = Budget(SIMULATOR_SECONDS, SIMULATOR_MEMORY_MB)
        try:
            return list(simulator.applicable(state))
        except BudgetExceeded as exceeded:
            limit = f"{SIMULATOR_SECONDS:g} s" if exceeded.what == "time" else f"{SIMULATOR_MEMORY_MB} MB"
            raise DataError(f"genplan's simulator could not list the successors of one state of {problem.name} "
                            f"within {limit}: an action of {self.domain.name} has too many bindings "
                            "(parameters that no precondition ties to the state)") from None
        finally:
            simulator.task.budget = None

    def transitions(self, problem: Problem, state: frozenset[Fact]) -> dict[str, frozenset[Fact]]:
        """The simulator's successors (cached: every soundness round replays many of the same states)."""
        key = (id(problem), state)
        found = self._transitions.get(key)
        if found is None:
            found = {normalize_action(a): s for a, s in self.successors(problem, state)}
            if len(self._transitions) < 200_000:
                self._transitions[key] = found
        return found

    def optimal_plan(self, problem: Problem) -> list[str] | None:
        result = solve(self.domain, problem, optimal=True, timeout=self.planner_timeout, planner=self.planner)
        return result.plan if result.solved else None

    def instance(self, problem: Problem, name: str) -> Instance:
        goal = _goal(self.domain, problem)
        return Instance(name, _facts(frozenset(problem.init)), extra=[_objects(self.domain, problem, self.typed)],
                        goal_extra=[goal], info={"problem": problem})


def _walk(tasks: PddlTasks, problem: Problem, rng: random.Random, steps: int) -> list[frozenset[Fact]]:
    state = frozenset(problem.init)
    states = [state]
    for _ in range(steps):
        options = tasks.successors(problem, state)
        if not options:
            break
        state = rng.choice(options)[1]
        states.append(state)
    return states


def _plan_states(tasks: PddlTasks, problem: Problem, plan: list[str]) -> list[frozenset[Fact]]:
    state = frozenset(problem.init)
    states = [state]
    for action in plan:
        state = tasks.transitions(problem, state)[normalize_action(action)]
        states.append(state)
    return states


def build_pddl_domain(tasks: PddlTasks, seed: int = 0, samples_per_task: int = 4, walk_steps: int = 6) -> SearchDomain:
    """The AutoToS search domain of a PDDL domain: unit tests from the debug tasks, evaluation on the eval tasks."""
    rng = random.Random(seed)
    units = [tasks.instance(p, f"debug-{k}") for k, p in enumerate(tasks.debug)]
    goal_cases: list[dict[str, Any]] = []
    completeness: list[dict[str, Any]] = []
    for problem, unit in zip(tasks.debug, units):
        plan = tasks.optimal_plan(problem)
        unit.info["optimal"] = len(plan) if plan is not None else None
        goal = _goal(tasks.domain, problem)
        along = _plan_states(tasks, problem, plan) if plan else [frozenset(problem.init)]
        end = along[-1]
        if plan is not None:
            goal_cases.append({"state": _facts(end), "extra": [goal], "expected": True})
            for fact in problem.goal_pos[:2]:  # all goal facts but one
                goal_cases.append({"state": _facts(end - {fact}), "extra": [goal], "expected": False})
        goal_cases.append({"state": _facts(frozenset(problem.init)), "extra": [goal],
                           "expected": Task(tasks.domain, problem).goal_reached(frozenset(problem.init))})
        sampled = along[:-1] + _walk(tasks, problem, rng, walk_steps)
        for state in rng.sample(sampled, min(samples_per_task, len(sampled))):
            successors = [[a, _facts(s)] for a, s in tasks.transitions(problem, state).items()]
            completeness.append({"state": _facts(state), "extra": unit.extra, "successors": successors})
    # an eval task's optimal plan is made when its solution is validated, not here: with every eval task of a
    # domain that is minutes of planning, which would keep a run from its first call (and from being stopped)
    evals = [tasks.instance(p, f"eval-{k}") for k, p in enumerate(tasks.evaluation)]

    def optimal_length(instance: Instance) -> int | None:
        if "optimal" not in instance.info:
            plan = tasks.optimal_plan(instance.info["problem"])
            instance.info["optimal"] = len(plan) if plan is not None else None
        optimal: int | None = instance.info["optimal"]
        return optimal

    def reached(instance: Instance, state: Any) -> bool:
        return Task(tasks.domain, instance.info["problem"]).goal_reached(frozenset(tuple(f) for f in state))

    def validate(instance: Instance, path: list[Any] | None) -> str | None:
        return "no solution found" if path is None else None  # plans are checked by validate_actions

    def validate_actions(instance: Instance, actions: list[str] | None) -> str | None:
        if actions is None:
            return "no solution found"
        result = validate_plan(tasks.domain, instance.info["problem"], list(actions))
        if not result.valid:
            return f"invalid plan: {plan_feedback(result, tasks.domain).splitlines()[0]}"
        optimal = optimal_length(instance)
        if optimal is not None and len(actions) != optimal:
            return f"plan of length {len(actions)}, optimal {optimal}"
        return None

    first = units[0] if units else None
    examples: dict[str, Any] = {"domain_pddl": tasks.domain.source, "typed": tasks.typed}
    if first is not None:
        examples["example_state"] = sorted(tuple(f) for f in first.init)
        examples["example_objects"] = sorted(tuple(o) if isinstance(o, list) else o for o in first.extra[0])
        examples["example_goal"] = sorted(_tupled(f) for f in first.goal_extra[0])
        examples["compound_goal"] = any(isinstance(part, list) for f in first.goal_extra[0] for part in f)
    return SearchDomain("pddl", False, goal_cases, units, completeness, evals, reached_goal=reached,
                        validate=validate, context=lambda extra: {}, validate_actions=validate_actions,
                        check_transitions=lambda index, seen: check_transitions(tasks, tasks.debug[index], seen),
                        examples=examples)


def check_transitions(tasks: PddlTasks, problem: Problem, transitions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first transition the simulator disagrees with, as a failure record, or None."""
    for record in transitions:
        state = frozenset(tuple(f) for f in record["state"])
        truth = tasks.transitions(problem, state)
        for action, added, deleted in record["successors"]:
            facts = (state - {tuple(f) for f in deleted}) | {tuple(f) for f in added}
            child = _facts(facts)
            if action not in truth:
                return {"failure": "unsound", "kind": "not-applicable", "state": record["state"], "action": action,
                        "successor": child}
            if truth[action] != facts:
                return {"failure": "unsound", "kind": "wrong-state", "state": record["state"], "action": action,
                        "successor": child, "missing": _facts(truth[action] - facts), "extra": _facts(facts - truth[action])}
    return None


def pddl_tasks_from_dir(path: str | Path, planner: str = "auto", eval_limit: int | None = None) -> PddlTasks:
    directory = DomainDir.open(path)
    evals = directory.eval_tasks()
    if eval_limit is not None:
        evals = evals[:eval_limit]
    typed = bool(getattr(directory, "typed_objects", False))
    return PddlTasks(directory.domain_file, directory.debug_tasks(), evals, typed, planner)
