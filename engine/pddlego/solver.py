"""From the model's two PDDL files to game commands: genplan's parser, then Fast Downward, then the mapping.

Every failure comes back as one precise message for the model (the inner loop's feedback): a parse error
with file and line, "the goal cannot be reached", an empty plan, or a plan with no command the game knows.
Files genplan's STRIPS model refuses only because they use ADL constructs (``or``, ``exists``, ``forall``,
``when``) go to Fast Downward as written, which handles them; its translator then has the last word.
"""

from __future__ import annotations

import dataclasses
import math
import re
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from genplan.engine.fast_downward import fast_downward_driver, run_fast_downward_files
from genplan.engine.feedback import pddlego as feedback
from genplan.engine.pddl import Domain, Problem
from genplan.engine.pddl.errors import PddlError, UnsupportedPddlError
from genplan.engine.pddl.lenient import (
    DECLARED_CONSTANT,
    DECLARED_OBJECT,
    DECLARED_TYPE,
    DROPPED_DUPLICATE,
    MERGED_SECTION,
    SPLIT_DISJUNCTION,
    Repair,
)
from genplan.engine.pddl.loader import parse_task_text
from genplan.engine.pddl.plans import parse_plan_text
from genplan.engine.pddl.sexpr import SList, read_sexpr, render_keeping_lines
from genplan.engine.planner import (
    LIMIT,
    SOLVED,
    UNSOLVABLE,
    PlannerResult,
    builtin_search,
    check_plan,
    fast_downward_hit_limit,
    fast_downward_reason,
    fast_downward_wall_limit,
    solve,
)

DOMAIN_NAME = "domain.pddl"
PROBLEM_NAME = "problem.pddl"

# Repairs of lenient reading the solver accepts silently. Names used but never declared (objects, predicates,
# constants) are mistakes in the model's picture of the world, worth telling it: they stay errors — as they
# were for the release's planner, which failed on every such file of its CoinCollector logs and planned
# with undeclared types, disjunctive preconditions, a :predicates section written twice and objects declared
# twice (Fast Downward gives such an object both types; lenient mode keeps the one its uses ask for) —
# docs/pddlego.md has the counts. A constant of an action that the problem file declares as an object is
# accepted too (that planner did).
ACCEPTED_REPAIRS = frozenset({DECLARED_TYPE, SPLIT_DISJUNCTION, MERGED_SECTION, DROPPED_DUPLICATE})
_NAME = re.compile(r"'([^']+)'")
# LM-cut and merge-and-shrink refuse the axioms Fast Downward makes of 'or' and 'exists'; blind A* is optimal
# too and fast enough for the small worlds models write (the time limit guards the rest).
ADL_OPTIMAL_SEARCH = "astar(blind())"

# Fast Downward's memory on files as written (what genplan plan gives it by default)
FAST_DOWNWARD_MEMORY_MB = 4096

# (action name, arguments) -> the game's command, or None when the game has no such command
CommandMapper = Callable[[str, list[str]], "str | None"]


@dataclass(frozen=True)
class SolverOutcome:
    commands: list[str] | None  # None: no usable plan; ``error`` says why
    error: str | None
    plan: list[str] | None = None  # the planner's actions, as PDDL
    planner: str = ""
    seconds: float = 0.0
    repairs: tuple[str, ...] = ()  # what lenient reading repaired (one line each)
    warnings: tuple[str, ...] = ()  # what the reader accepted with a warning (a type listed as its own parent)

    @property
    def ok(self) -> bool:
        return self.commands is not None


def coin_command(action: str, args: list[str]) -> str | None:
    """CoinCollector: any door-opening action opens the door towards its last argument (the direction);
    any moving action moves that way. Other actions (bookkeeping the model invented) are not game commands."""
    name = action.lower()
    if not args:
        return None
    direction = args[-1].lower()
    if "open" in name and "door" in name:
        return f"open door to {direction}"
    if "move" in name:
        return f"move {direction}"
    return None


def alfworld_command(action: str, args: list[str]) -> str | None:
    """ALFWorld: the paper's seven action templates, objects written without their number's space
    (``cabinet1`` -> ``cabinet 1``)."""
    import re

    def spaced(name: str) -> str:
        return re.sub(r"(?<=[a-z])_?(\d+)$", r" \1", name.lower())

    name, a = action.lower(), [spaced(x) for x in args]
    templates = {
        "gotolocation": lambda: f"go to {a[-1]}",
        "openobject": lambda: f"open {a[-1]}",
        "closeobject": lambda: f"close {a[-1]}",
        "pickupobject": lambda: f"take {a[0]} from {a[1]}",
        "putobject": lambda: f"move {a[0]} to {a[1]}",
        "useobject": lambda: f"use {a[0]}",
        "heatobject": lambda: f"heat {a[0]} with {a[1]}",
        "cleanobject": lambda: f"clean {a[0]} with {a[1]}",
        "coolobject": lambda: f"cool {a[0]} with {a[1]}",
        "sliceobject": lambda: f"slice {a[0]} with {a[1]}",
    }
    make = templates.get(name)
    try:
        return make() if make else None
    except IndexError:
        return None


def commands_for(plan: list[str], mapper: CommandMapper, origins: dict[str, str] | None = None) -> list[str]:
    """Game commands for a plan; ``origins`` maps actions lenient reading split back to the model's names."""
    commands = []
    for step in plan:
        words = step.strip().strip("()").split()
        if not words:
            continue
        name = (origins or {}).get(words[0], words[0])
        command = mapper(name, words[1:])
        if command is not None:
            commands.append(command)
    return commands


class PddlSolver:
    """Parses the model's files with genplan's parser — by default in its lenient mode for model-written PDDL,
    which repairs undeclared types, predicates and objects and splits disjunctive preconditions — and plans
    with Fast Downward (or genplan's own search where Fast Downward is missing)."""

    def __init__(
        self,
        mapper: CommandMapper,
        *,
        timeout: float = 30.0,
        optimal: bool = True,
        planner: str = "auto",
        lenient: bool = True,
        accepted_repairs: frozenset[str] = ACCEPTED_REPAIRS,
        quick_seconds: float = 2.0,
    ) -> None:
        self.mapper = mapper
        self.timeout = timeout
        self.optimal = optimal
        self.planner = planner
        self.lenient = lenient
        self.accepted_repairs = accepted_repairs
        self.quick_seconds = quick_seconds

    def solve(self, domain_text: str | None, problem_text: str | None) -> SolverOutcome:
        if not domain_text or not domain_text.strip():
            return SolverOutcome(None, feedback.missing_file("df"))
        if not problem_text or not problem_text.strip():
            return SolverOutcome(None, feedback.missing_file("pf"))
        try:
            negated = _negated_init(problem_text)
            if negated:
                return SolverOutcome(None, negated)
            alternatives = _goal_alternatives(problem_text)
            if alternatives:
                return self._solve_alternatives(domain_text, problem_text, alternatives)
            domain, problem = parse_task_text(domain_text, problem_text, DOMAIN_NAME, PROBLEM_NAME,
                                              lenient=self.lenient)
        except UnsupportedPddlError:
            return self._finish(*self._fast_downward_raw(domain_text, problem_text))
        except PddlError as err:
            return SolverOutcome(None, str(err))
        invented = {m.group(1) for r in problem.repairs if r.kind == DECLARED_OBJECT for m in [_NAME.search(r.message)] if m}
        # the names the problem file declares: its objects, and those that repeat a constant of the domain with
        # the same type, which the loader reads once, as the constant (not in problem.objects)
        declared = ({name for name, _ in problem.objects} | set(problem.repeated_constants)) - invented

        def accepted(repair: Repair) -> bool:
            if repair.kind == DECLARED_CONSTANT:
                match = _NAME.search(repair.message)
                return match is not None and match.group(1) in declared
            return repair.kind in self.accepted_repairs or self.accepts(repair, domain, problem)

        warnings = tuple([*domain.warnings, *problem.warnings])  # recorded in the run with the verdict
        refused = [r for r in (*domain.repairs, *problem.repairs) if not accepted(r)]
        if refused:
            return SolverOutcome(None, feedback.refused_repairs(refused[:5]), warnings=warnings)
        refusal = self.refusal(domain, problem)
        if refusal is not None:
            return SolverOutcome(None, refusal, warnings=warnings)
        repairs = tuple(str(r) for r in (*domain.repairs, *problem.repairs))
        constants = {name for name, _ in domain.constants}
        dropped = tuple(f"object '{name}' left out: the domain declares it as a constant"
                        for name in [*problem.repeated_constants, *(n for n, _ in problem.objects if n in constants)])
        if dropped:  # Fast Downward refuses the duplicate
            problem = dataclasses.replace(problem, objects=[o for o in problem.objects if o[0] not in constants])
        result = self._plan(domain, problem, dropped)
        message = None if result.status == SOLVED else feedback.planner_failed(result.status, result.message)
        outcome = self._finish(result.plan if result.status == SOLVED else None, message, result.planner,
                               result.seconds, domain.action_origins, repairs)
        return dataclasses.replace(outcome, warnings=warnings)

    def accepts(self, repair: Repair, domain: Domain, problem: Problem) -> bool:
        """Whether a repair genplan would refuse is accepted all the same (an import under the release's rules)."""
        return False

    def refusal(self, domain: Domain, problem: Problem) -> str | None:
        """Why files genplan reads are refused all the same (None: they are not). genplan refuses nothing more; an
        import under the release's rules refuses what the release's planner refused (release.py)."""
        return None

    def _solve_alternatives(self, domain_text: str, problem_text: str, alternatives: list[str]) -> SolverOutcome:
        """A goal ``(or g1 g2 ...)``: plan for each alternative, keep the shortest plan (the first listed
        alternative on ties) — optimal for the whole goal, and the choice the model put first. When one
        alternative holds in the initial state the whole goal does, and the plan is empty (as a planner
        given the disjunction finds)."""
        best: SolverOutcome | None = None
        first_failure: SolverOutcome | None = None
        for alternative in alternatives:
            outcome = self.solve(domain_text, alternative)
            if outcome.plan == []:  # this alternative holds already, so the whole goal does: the plan is empty
                return outcome
            if outcome.ok and (best is None or len(outcome.plan or []) < len(best.plan or [])):
                best = outcome
            elif not outcome.ok and first_failure is None:
                first_failure = outcome
        if best is not None:
            return best
        assert first_failure is not None
        return first_failure

    def _plan(self, domain: Domain, problem: Problem, rewrites: tuple[str, ...] = ()) -> PlannerResult:
        """"auto": the model's small worlds first with genplan's own optimal search (no process to start,
        milliseconds for a house of rooms); what it cannot finish in ``quick_seconds`` goes to Fast Downward.
        Either way the plan has passed genplan's validator (a plan that fails is a FAULT, never used)."""
        if self.planner == "auto":
            quick = check_plan(builtin_search(domain, problem, optimal=self.optimal, timeout=self.quick_seconds),
                               domain, problem)
            if quick.status != LIMIT:
                return quick
        return solve(domain, problem, optimal=self.optimal, timeout=self.timeout, planner=self.planner,
                     rewrites=rewrites)

    def _finish(self, plan: list[str] | None, error: str | None, planner: str, seconds: float,
                origins: dict[str, str] | None = None, repairs: tuple[str, ...] = ()) -> SolverOutcome:
        if plan is None:
            return SolverOutcome(None, error, None, planner, seconds, repairs)
        if not plan:
            return SolverOutcome(None, feedback.empty_plan(), plan, planner, seconds, repairs)
        commands = commands_for(plan, self.mapper, origins)
        if not commands:
            return SolverOutcome(None, feedback.no_executable_action(plan), plan, planner, seconds, repairs)
        return SolverOutcome(commands, None, plan, planner, seconds, repairs)

    def _fast_downward_raw(self, domain_text: str, problem_text: str) -> tuple[list[str] | None, str | None, str, float]:
        """Fast Downward on the files as written (for ADL that genplan's STRIPS model does not hold)."""
        from genplan.engine.planner import SATISFICING_SEARCH

        driver = fast_downward_driver()
        name = "fast-downward (files as written)"
        if driver is None:
            return None, feedback.no_adl_planner(), name, 0.0
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="genplan-pddlego-") as tmp:
            work = Path(tmp)
            (work / DOMAIN_NAME).write_text(domain_text)
            (work / PROBLEM_NAME).write_text(problem_text)
            try:
                code, output = run_fast_downward_files(
                    driver, work, DOMAIN_NAME, PROBLEM_NAME,
                    search=["--search", ADL_OPTIMAL_SEARCH if self.optimal else SATISFICING_SEARCH],
                    time_limit=max(2, math.ceil(self.timeout)), memory_mb=FAST_DOWNWARD_MEMORY_MB,
                    wall_limit=fast_downward_wall_limit(self.timeout))
            except subprocess.TimeoutExpired:  # still grounding or searching past the limit: ended from outside
                return (None, feedback.planner_failed(LIMIT, f"no plan within the limit of {self.timeout:g} s"), name,
                        time.monotonic() - start)
            seconds = time.monotonic() - start
            plan_file = work / "plan.txt"
            if code == 0 and plan_file.exists():
                plan = [s.pddl() for s in parse_plan_text(plan_file.read_text())]
                fault = _check_as_written(domain_text, problem_text, plan, name)
                if fault is not None:
                    return None, feedback.planner_failed(fault.status, fault.message), name, seconds
                return plan, None, name, seconds
            if code in (10, 11):
                return None, feedback.planner_failed(UNSOLVABLE, ""), name, seconds
            if fast_downward_hit_limit(code):
                return (None, feedback.planner_failed(LIMIT, f"no plan within the limit of {self.timeout:g} s"), name,
                        seconds)
            return None, feedback.planner_rejected(fast_downward_reason(output)), name, seconds


def _check_as_written(domain_text: str, problem_text: str, plan: list[str], name: str) -> PlannerResult | None:
    """Fast Downward's plan for files as written, checked by genplan's validator where genplan's parser reads
    the files (strictly, so that action names are the model's): the FAULT result when it fails, else None.
    Files with constructs genplan does not read yet cannot be checked here; Fast Downward has the last word."""
    try:
        domain, problem = parse_task_text(domain_text, problem_text, DOMAIN_NAME, PROBLEM_NAME)
    except PddlError:
        return None
    checked = check_plan(PlannerResult(SOLVED, plan, name, 0.0), domain, problem)
    return checked if checked.status != SOLVED else None


def _negated_init(problem_text: str) -> str | None:
    """A ``(not ...)`` in :init: an initial state lists the facts that hold, nothing else. (PDDL parsers
    differ — genplan's would drop it, the release's planner crashed on most such files — so say so.)"""
    tree = read_sexpr(problem_text, PROBLEM_NAME)
    for section in tree.items:
        if isinstance(section, SList) and section.head() == ":init":
            for fact in section.items[1:]:
                if isinstance(fact, SList) and fact.head() == "not":
                    return feedback.negated_init_fact(PROBLEM_NAME, fact.line)
    return None


def planned_task(domain_text: str, problem_text: str, plan: list[str]) -> tuple[Domain, Problem]:
    """The task a plan of the solver was made for: the files read as the solver reads them (lenient, split
    actions by their split names); for an ``(or ...)`` goal, the first alternative the plan reaches. Raises
    PddlError for files the solver could not have planned."""
    from genplan.engine.pddl.validate import validate_plan

    first: tuple[Domain, Problem] | None = None
    for text in _goal_alternatives(problem_text) or [problem_text]:
        domain, problem = parse_task_text(domain_text, text, DOMAIN_NAME, PROBLEM_NAME, lenient=True)
        first = first or (domain, problem)
        if validate_plan(domain, problem, plan).valid:
            return domain, problem
    assert first is not None
    return first


def _goal_alternatives(problem_text: str) -> list[str]:
    """For a goal that is a plain ``(or ...)`` of conjunctions, one problem text per alternative."""
    tree = read_sexpr(problem_text, PROBLEM_NAME)
    for section in tree.items:
        if isinstance(section, SList) and section.head() == ":goal" and len(section.items) == 2:
            goal = section.items[1]
            if isinstance(goal, SList) and goal.head() == "or" and len(goal.items) > 2:
                texts = []
                for alternative in goal.items[1:]:
                    section.items[1] = alternative
                    texts.append(render_keeping_lines(tree))
                section.items[1] = goal
                return texts
    return []
