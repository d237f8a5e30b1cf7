"""Classical planners: Fast Downward (a separate GPL process, never imported) and a small built-in search.

Fast Downward comes as a binary inside the `up-fast-downward` wheel (x86-64 Linux). We locate its driver
script without importing the package and run it in a subprocess with time and memory limits. Where it is
not available, a compact breadth-first (optimal, unit cost) / greedy best-first search over our own lazy
grounding serves small tasks. Every result says which planner ran.

No verdict is taken on trust. Every plan a planner returns is checked by genplan's own validator on the task
read from the user's files before anyone sees it; a plan that fails is a planner/translation fault (status
FAULT), never a plan. Fast Downward reads the task as genplan wrote it back (engine/pddl/writer.py); when that
translation changed anything (engine/pddl/translation.py: a declared ``object`` type, lenient repairs, dropped
action costs, written files that read back differently), its "unsolvable" is confirmed by the built-in search
within what is left of the time limit, or reported as UNKNOWN ("unknown (translation rewrote: ...)").
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import re
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from genplan.engine.fast_downward import fast_downward_driver, run_fast_downward_files
from genplan.engine.pddl import Domain, Problem, Task, load_domain, load_problem
from genplan.engine.pddl.budget import CHUNK, Budget, BudgetExceeded
from genplan.engine.pddl.loader import FAST_DOWNWARD_RESERVED_TYPES
from genplan.engine.pddl.model import Action, Fact, Junction, Literal
from genplan.engine.pddl.plans import parse_plan_text
from genplan.engine.pddl.translation import translation_rewrites
from genplan.engine.pddl.validate import GOAL_NOT_REACHED, PlanValidator, validate_plan
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl, single_types_goal

SOLVED, UNSOLVABLE, LIMIT, ERROR = "solved", "unsolvable", "limit", "error"
# A planner's plan genplan's validator refuses, or "unsolvable" refuted by a plan the built-in search found:
FAULT = "fault"
# "unsolvable" after a rewrite of the task that the built-in search could not confirm within the limit:
UNKNOWN = "unknown"

# Optimal: A* with LM-cut (the paper's "lm"), maxed with an exact-bisimulation merge-and-shrink heuristic.
# Both are admissible, so plans stay optimal; merge-and-shrink sees the dead ends LM-cut's delete relaxation
# misses (spanner: a spanner is used up), which takes spanner's debug tasks from minutes to about a second,
# at the price of about a second of extra set-up on other small tasks (benchmarks/bench_planner.py). Labels are
# reduced on the two systems being merged: reducing them on all systems at once did not return within a minute on
# tasks with many ground actions (heavy's evaluation tasks, 17,391), and the main-loop time limit is only checked
# between merges.
OPTIMAL_SEARCH = (
    "astar(max([lmcut(),merge_and_shrink(shrink_strategy=shrink_bisimulation(greedy=false),"
    "merge_strategy=merge_precomputed(merge_tree=linear(variable_order=cg_goal_level)),"
    "label_reduction=exact(before_shrinking=true,before_merging=false,method=two_transition_systems),"
    "max_states=200k,threshold_before_merge=1,main_loop_max_time=1)]))"
)
# The paper's "lm" as the reference runs it: A* with LM-cut alone (--faithful, lm_search = "lmcut").
LMCUT_SEARCH = "astar(lmcut())"
SATISFICING_SEARCH = "eager_greedy([ff()])"  # greedy best-first search with the FF heuristic ("ff")
# The paper's "ff" as the reference runs it (utils/helper.py, run_symbolic_planner_on_file): lazy greedy
# best-first search with FF, FF's preferred operators too (--faithful, ff_search = "lazy-preferred").
LAZY_SATISFICING_OPTIONS = ["--evaluator", "h=ff()", "--search", "lazy_greedy([h], preferred=[h])"]

# Fast Downward's documented exit codes
_FD_UNSOLVABLE = {10, 11}
_FD_LIMIT = {12, 20, 21, 22, 23, 24}
_FD_UNSUPPORTED = 34  # SEARCH_UNSUPPORTED: the search does not support a feature of the translated task
# A component killed by its CPU-time limit (or the kernel) makes the driver exit with -signal, i.e. 256 - signal.
_FD_KILLED = {code for sig in (signal.SIGXCPU, signal.SIGKILL) for code in (256 - sig, -sig)}
# A driver hands the translator the remaining whole seconds, rounded down, after its own start-up; with a
# 1 s overall limit that is 0 s and the translator is killed at once (genplan's own start of the components,
# engine/fast_downward.py, would give it the whole second; the floor stays for both ways alike).
_FD_MIN_SECONDS = 2
# Fast Downward's driver limits each component's CPU time; on a shared machine a component gets a fraction of a
# core, so the wall-clock time of a run within its limit can be a multiple of it. Only a run past this many
# times its limit (plus start-up) is ended from outside: one that will not end by itself (a grounding that never
# finishes gets no CPU-time check from the driver until its component's limit), not one the machine slowed down.
_FD_WALL_FACTOR = 2
_FD_WALL_SLACK_SECONDS = 10


@dataclass
class PlannerResult:
    status: str
    plan: list[str] | None
    planner: str
    seconds: float
    message: str = ""
    expanded: int | None = None
    rewrites: tuple[str, ...] = ()  # what the translation for the planner changed (engine/pddl/translation.py)
    rejected_plan: list[str] | None = None  # FAULT: the plan the validator refused (never to be used)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def summary(self) -> str:
        if self.solved:
            return f"plan of length {len(self.plan or [])} found by {self.planner} in {self.seconds:.2f} s"
        return f"{self.planner}: {self.message or self.status} ({self.seconds:.2f} s)"


def check_plan(result: PlannerResult, domain: Domain, problem: Problem) -> PlannerResult:
    """A planner's plan checked by genplan's validator on the task as read from the user's files: a plan that
    fails becomes a FAULT result without a plan (the refused plan stays in ``rejected_plan``)."""
    if result.status != SOLVED or result.plan is None:
        return result
    verdict = validate_plan(domain, problem, result.plan)
    if verdict.valid:
        return result
    if verdict.kind == GOAL_NOT_REACHED or verdict.step is None:
        where = "the goal is not reached"
    else:
        where = f"step {verdict.step + 1} {verdict.action} fails"
    detail = ", ".join([*verdict.unsatisfied, *verdict.unsatisfied_static, *verdict.goal_missing,
                        *verdict.goal_violated]) or (verdict.reason or verdict.kind or "")
    message = f"planner/translation fault: its plan fails genplan's validator ({where}: {detail})"
    if result.rewrites:
        message += f"; the translation rewrote: {'; '.join(result.rewrites)}"
    return dataclasses.replace(result, status=FAULT, plan=None, message=message, rejected_plan=list(result.plan))


def fast_downward_input(domain: Domain, problem: Problem) -> tuple[str, str]:
    """The domain and problem files Fast Downward is given: the task genplan read, written back (a problem
    naming another domain, which genplan reads with a warning, names this one: Fast Downward refuses it; ``either``
    types, which it cannot read, are written without ``either``: engine/pddl/writer.py)."""
    if problem.domain_name != domain.name:
        problem = dataclasses.replace(problem, domain_name=domain.name)
    return domain_to_pddl(domain), problem_to_pddl(single_types_goal(domain, problem), domain.typed)


def reserved_types_renamed(domain: Domain, texts: tuple[str, str]) -> tuple[tuple[str, str], list[str]]:
    """The written files with each type Fast Downward reserves renamed (a type never appears in a plan, so the
    plan needs no translation back), and one line per renamed type. The writer puts every type after ' - '
    and declares it in the ':types' line as 'NAME - PARENT', which is all there is to rename."""
    notes: list[str] = []
    domain_text, problem_text = texts
    for reserved in FAST_DOWNWARD_RESERVED_TYPES:
        if reserved not in domain.type_parents:
            continue
        new = next(n for n in (f"{reserved}-type{i or ''}" for i in range(len(domain.type_parents) + 1))
                   if n not in domain.type_parents)
        # not after ')': '(len ?a ?b) - number' is a cost function's own type, which stays
        as_type = re.compile(rf"(?<=[^)] - ){re.escape(reserved)}(?=[\s)])")
        declared = re.compile(rf"(?<=[\s(]){re.escape(reserved)}(?= - )")
        lines = [declared.sub(new, line) if line.lstrip().startswith("(:types") else line
                 for line in domain_text.splitlines()]
        domain_text = as_type.sub(new, "\n".join(lines) + "\n")
        problem_text = as_type.sub(new, problem_text)
        notes.append(f"type '{reserved}' renamed '{new}' (a name Fast Downward reserves)")
    return (domain_text, problem_text), notes


def find_plan(
    domain_path: str | Path,
    problem_path: str | Path,
    optimal: bool = True,
    timeout: float = 60.0,
    memory_mb: int = 4096,
    planner: str = "auto",
) -> PlannerResult:
    domain = load_domain(domain_path)
    problem = load_problem(problem_path, domain)
    return solve(domain, problem, optimal, timeout, memory_mb, planner)


def solve(
    domain: Domain,
    problem: Problem,
    optimal: bool = True,
    timeout: float = 60.0,
    memory_mb: int = 4096,
    planner: str = "auto",
    rewrites: tuple[str, ...] = (),
    lm_search: str = "lmcut-max-ms",
    ff_search: str = "eager",
    fallback: bool = True,
) -> PlannerResult:
    """planner: "auto" (Fast Downward if present), "fast-downward" or "builtin". ``rewrites``: changes the
    caller made to the user's task before this call (one line each), added to the translation's own.
    lm_search: the optimal search, "lmcut-max-ms" (genplan's A* + max(LM-cut, merge-and-shrink)) or "lmcut"
    (A* + LM-cut, the paper's and --faithful's); ff_search: the satisficing search, "eager" (genplan's eager
    GBFS + FF) or "lazy-preferred" (lazy GBFS + FF with preferred operators, the reference's and --faithful's).
    ``fallback`` False (--faithful's no-fallback): that search alone, on every task (the reference runs A* +
    LM-cut whatever the task holds), and a refusal is an ERROR, not solved. Every plan in the result has passed
    genplan's validator (module docstring)."""
    driver = fast_downward_driver() if planner in ("auto", "fast-downward") else None
    if planner == "fast-downward" and driver is None:
        return PlannerResult(ERROR, None, "fast-downward", 0.0, "Fast Downward is not installed (pip install up-fast-downward)")
    if driver is None:
        return check_plan(builtin_search(domain, problem, optimal, timeout, memory_mb), domain, problem)
    start = time.monotonic()
    texts = fast_downward_input(domain, problem)
    notes_read = translation_rewrites(domain, problem, *texts)
    texts, renamed = reserved_types_renamed(domain, texts)
    notes = (*notes_read, *renamed, *rewrites)
    result = run_fast_downward(driver, domain, problem, optimal, timeout, memory_mb, texts, lm_search, ff_search,
                               fallback)
    result = check_plan(dataclasses.replace(result, rewrites=notes), domain, problem)
    if result.status == UNSOLVABLE and notes:
        return confirm_unsolvable(result, domain, problem, timeout - (time.monotonic() - start))
    return result


def confirm_unsolvable(result: PlannerResult, domain: Domain, problem: Problem, seconds: float) -> PlannerResult:
    """Fast Downward's "unsolvable" on a rewritten task, put to the built-in search (on genplan's own reading
    of the task, no translation) for ``seconds``: confirmed, refuted by a valid plan (FAULT), or UNKNOWN."""
    rewrote = "; ".join(result.rewrites)
    check = builtin_search(domain, problem, optimal=False, timeout=max(seconds, 0.0)) if seconds > 0 else None
    total = result.seconds + (check.seconds if check else 0.0)
    if check is not None and check.status == UNSOLVABLE:
        message = f"the task is unsolvable (confirmed by the built-in search; the translation rewrote: {rewrote})"
        return dataclasses.replace(result, message=message, seconds=total)
    if check is not None and check.status == SOLVED:
        checked = check_plan(dataclasses.replace(check, rewrites=result.rewrites), domain, problem)
        if checked.status == FAULT:
            return dataclasses.replace(checked, seconds=total)
        message = (f"planner/translation fault: Fast Downward called the task unsolvable, but the built-in search "
                   f"found a valid plan of length {len(check.plan or [])} (the translation rewrote: {rewrote})")
        return dataclasses.replace(result, status=FAULT, message=message, seconds=total)
    return dataclasses.replace(result, status=UNKNOWN, message=f"unknown (translation rewrote: {rewrote})", seconds=total)


# LM-cut knows neither conditional effects nor the axioms Fast Downward's translator makes of quantified and
# disjunctive conditions; merge-and-shrink and h^max support conditional effects and are admissible with them
# (not with axioms). Blind A* is optimal for every ADL task (small tasks only).
OPTIMAL_SEARCH_CONDITIONAL = OPTIMAL_SEARCH.replace("astar(max([lmcut(),", "astar(max([hmax(),")
OPTIMAL_SEARCH_ADL = "astar(blind())"
# the optimal searches beyond the STRIPS ones: label and Fast Downward options
_CONDITIONAL_SEARCH = ("fast-downward A* + max(h^max, merge-and-shrink) (conditional effects)",
                       ["--search", OPTIMAL_SEARCH_CONDITIONAL])
_ADL_SEARCH = ("fast-downward A* + blind (ADL)", ["--search", OPTIMAL_SEARCH_ADL])


def _plain_conditions(domain: Domain, problem: Problem) -> bool:
    """Only conditional effects whose conditions are conjunctions of literals: no axioms in Fast Downward."""
    def plain(condition: object) -> bool:
        return isinstance(condition, Literal) or (
            isinstance(condition, Junction) and condition.kind == "and" and all(isinstance(p, Literal) for p in condition.parts))

    return not problem.goal_conditions and all(
        not a.conditions and all(e.condition is None or plain(e.condition) for e in a.conditional_effects)
        for a in domain.actions.values()
    )


def _fast_downward_search(
    domain: Domain, problem: Problem, optimal: bool, lm_search: str = "lmcut-max-ms", ff_search: str = "eager",
    fallback: bool = True,
) -> tuple[str, list[str]]:
    """The planner's label and its search option: the paper's configurations for STRIPS, blind A* for ADL
    (without ``fallback``, A* + LM-cut on every task, as the reference runs it)."""
    if not optimal:
        if ff_search == "lazy-preferred":
            return "fast-downward lazy GBFS + FF, preferred operators (ff)", list(LAZY_SATISFICING_OPTIONS)
        return "fast-downward GBFS + FF (ff)", ["--search", SATISFICING_SEARCH]
    if (domain.is_strips and not problem.goal_conditions) or (lm_search == "lmcut" and not fallback):
        if lm_search == "lmcut":
            return "fast-downward A* + LM-cut (lm)", ["--search", LMCUT_SEARCH]
        return "fast-downward A* + max(LM-cut, merge-and-shrink) (lm)", ["--search", OPTIMAL_SEARCH]
    label, options = _CONDITIONAL_SEARCH if _plain_conditions(domain, problem) else _ADL_SEARCH
    return label, list(options)


def plan_cost(domain: Domain, problem: Problem, plan: list[str]) -> float | None:
    """The cost of an executable plan where the task minimizes total-cost (None where plans count steps)."""
    validator = PlanValidator(domain, problem)
    return validator.plan_cost(plan) if validator.task.uses_costs else None


def _searches(
    domain: Domain, problem: Problem, optimal: bool, lm_search: str, ff_search: str = "eager", fallback: bool = True
) -> list[tuple[str, list[str]]]:
    """The search :func:`_fast_downward_search` picks, then the optimal ones that support more of what Fast
    Downward's translator may make of the task, tried in turn when a search refuses it (exit code 34): the
    translator itself turns a STRIPS delete of an atom the action does not require into a conditional effect
    where the atom is part of a multi-valued variable (the IPC Beluga domain), which LM-cut cannot handle."""
    chosen = _fast_downward_search(domain, problem, optimal, lm_search, ff_search, fallback)
    if not optimal or not fallback:
        return [chosen]
    fallbacks = [_CONDITIONAL_SEARCH, _ADL_SEARCH]
    searches = [f[1] for f in fallbacks]
    first = searches.index(chosen[1]) + 1 if chosen[1] in searches else 0
    return [chosen, *fallbacks[first:]]


def run_fast_downward(
    driver: Path,
    domain: Domain,
    problem: Problem,
    optimal: bool,
    timeout: float,
    memory_mb: int,
    texts: tuple[str, str] | None = None,
    lm_search: str = "lmcut-max-ms",
    ff_search: str = "eager",
    fallback: bool = True,
) -> PlannerResult:
    """Fast Downward on ``texts`` (domain and problem file; default: :func:`fast_downward_input`). The plan is
    returned as the planner wrote it: :func:`solve` checks it. A search that does not support the translated
    task (exit code 34) is followed by one that does (:func:`_searches`); the planner's name says which found
    the answer and which refused."""
    domain_text, problem_text = texts or fast_downward_input(domain, problem)
    start = time.monotonic()
    refused: list[str] = []
    for name, search in _searches(domain, problem, optimal, lm_search, ff_search, fallback):
        left = timeout - (time.monotonic() - start)
        if refused and left <= 0:  # the refused searches used up the time: no run that could only overrun
            break
        label = name + (f" ({', '.join(refused)} does not support the translated task)" if refused else "")
        result = _run_once(driver, label, search, domain_text, problem_text, left, memory_mb, start, timeout)
        if result is not None:
            return result
        refused.append(name.removeprefix("fast-downward "))
    if len(refused) < len(_searches(domain, problem, optimal, lm_search, ff_search, fallback)):
        return PlannerResult(LIMIT, None, f"fast-downward ({', '.join(refused)} does not support the translated task)",
                             time.monotonic() - start, f"no plan within the limit of {timeout:g} s")
    if not fallback:
        return PlannerResult(ERROR, None, f"fast-downward ({', '.join(refused)})", time.monotonic() - start,
                             f"not solved: {', '.join(refused)} does not support the translated task (Fast Downward "
                             "exit 34), and no other search is tried (no-fallback: the reference counts any planner "
                             "failure as unsolved)")
    return PlannerResult(ERROR, None, f"fast-downward ({', '.join(refused)})", time.monotonic() - start,
                         "Fast Downward failed (exit 34): no search genplan tries supports the translated task")


def _run_once(driver: Path, name: str, search: list[str], domain_text: str, problem_text: str, timeout: float,
              memory_mb: int, start: float, limit: float) -> PlannerResult | None:
    """One run of Fast Downward for ``timeout`` seconds (what is left of the caller's ``limit``); None where its
    search does not support the task (exit code 34)."""
    with tempfile.TemporaryDirectory(prefix="genplan-fd-") as tmp:
        work = Path(tmp)
        (work / "domain.pddl").write_text(domain_text)
        (work / "problem.pddl").write_text(problem_text)
        try:
            returncode, output = run_fast_downward_files(
                driver, work, "domain.pddl", "problem.pddl", search=search,
                time_limit=max(_FD_MIN_SECONDS, math.ceil(timeout)), memory_mb=memory_mb,
                wall_limit=fast_downward_wall_limit(timeout))
        except subprocess.TimeoutExpired:
            return PlannerResult(LIMIT, None, name, time.monotonic() - start, f"no plan within the limit of {limit:g} s")
        seconds = time.monotonic() - start
        plan_file = work / "plan.txt"
        if returncode == 0 and plan_file.exists():
            steps = [s.pddl() for s in parse_plan_text(plan_file.read_text())]
            return PlannerResult(SOLVED, steps, name, seconds)
        if returncode == _FD_UNSUPPORTED:
            return None
        if returncode in _FD_UNSOLVABLE:
            return PlannerResult(UNSOLVABLE, None, name, seconds, "the task is unsolvable")
        if fast_downward_hit_limit(returncode):
            return PlannerResult(
                LIMIT, None, name, seconds, f"no plan within the limit ({limit:g} s, {memory_mb} MB)"
            )
        return PlannerResult(ERROR, None, name, seconds,
                             f"Fast Downward failed (exit {returncode}): {fast_downward_reason(output)}")


# A component's exit line, and the driver's and components' progress lines, which say nothing about a failure:
# "INFO ..." (the driver), "Parsing...", indented progress ("\t->Parsing action 'step'") and stack lines,
# timings ("Done! [0.000s CPU, 0.006s wall-clock]"), the search's "[t=0.0003s, 10156 KB] reading input...".
_FD_EXIT_LINE = re.compile(r"^(translate|search|validate) exit code: (-?\d+)")
_FD_PROGRESS = re.compile(
    r"^(INFO\b|WARNING\s{2,}|Parsing|Traceback|Peak memory|Remove intermediate|Driver aborting|Planner time"
    r"|Search code revision|reading input|done reading input|\s)|s CPU, [^\]]*wall-clock\]$"
)
_FD_SEARCH_PREFIX = re.compile(r"^\[t=[^\]]*\] ")  # the search's "[t=0.0003s, 10156 KB] " before each line
_FD_REASON_LINES = 3


def fast_downward_reason(output: str) -> str:
    """Why Fast Downward stopped, from its output: the last few lines the failing component (translator or
    search) wrote before its exit-code line, without progress and timing lines (the driver's last line is only
    "INFO Planner time: 0.08s")."""
    lines = output.splitlines()
    end = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        match = _FD_EXIT_LINE.match(lines[i])
        if match and match.group(2) != "0":
            end = i
            break
    begin = 0
    for i in range(end - 1, -1, -1):  # the failing component's own output starts after the driver starts it
        if lines[i].startswith("INFO") and " command line string:" in lines[i]:
            begin = i + 1
            break
    unprefixed = (_FD_SEARCH_PREFIX.sub("", line) for line in lines[begin:end])
    reason = [line.strip() for line in unprefixed if line.strip() and not _FD_PROGRESS.search(line)]
    return " ".join(reason[-_FD_REASON_LINES:]) or "no reason in its output"


def fast_downward_hit_limit(returncode: int) -> bool:
    """The exit code of a run that ran out of time or memory (its own limits, or killed by them)."""
    return returncode in _FD_LIMIT or returncode in _FD_KILLED


def fast_downward_wall_limit(timeout: float) -> float:
    """When a Fast Downward run given ``timeout`` seconds is ended from outside, whatever it is doing (the
    driver's own limits are CPU time, which a busy machine stretches in wall-clock time)."""
    return max(timeout, _FD_MIN_SECONDS) * _FD_WALL_FACTOR + _FD_WALL_SLACK_SECONDS


# ---------------------------------------------------------------- built-in search


@dataclass
class _Node:
    state: frozenset[Fact]
    parent: _Node | None = None
    action: str | None = None
    depth: int = 0
    order: int = field(default=0)


class Successors:
    """Lazy grounding: bindings are found by joining positive preconditions with the current state."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.domain = task.domain
        self._objects_by_param: dict[tuple[str, ...], list[str]] = {}
        # what the states of one task share: per action, the preconditions the join does not already ensure and
        # the join's order for each count of facts of its predicates; whether an object is of a parameter's type
        self._joined = {name: [lit for lit in action.preconditions if _joined(lit)]
                        for name, action in self.domain.actions.items()}
        self._left_to_check = {name: [lit for lit in action.preconditions if not _joined(lit)]
                               for name, action in self.domain.actions.items()}
        self._orders: dict[tuple[str, tuple[int, ...]], list[tuple[Literal, bool]]] = {}
        self._fits: dict[tuple[str, tuple[str, ...]], bool] = {}

    def _objects(self, types: tuple[str, ...]) -> list[str]:
        if types not in self._objects_by_param:
            self._objects_by_param[types] = self.task.objects_of(types)
        return self._objects_by_param[types]

    def applicable(self, state: frozenset[Fact]) -> Iterator[tuple[str, frozenset[Fact]]]:
        by_pred: dict[str, list[Fact]] = {}
        for fact in state:
            by_pred.setdefault(fact[0], []).append(fact)
        for action in self.domain.actions.values():
            left_to_check = self._left_to_check[action.name]
            for binding in self._bindings(action, by_pred, state):
                if not all(self._holds(lit, binding, state) for lit in left_to_check):
                    continue
                args = [binding[p.name] for p in action.parameters]
                if not all(self._fits_type(a, p.types) for a, p in zip(args, action.parameters)):
                    continue
                if action.conditions and not all(self.task.holds(c, binding, state) for c in action.conditions):
                    continue
                if action.cost is not None and self.task.undefined_cost(action, binding) is not None:
                    continue  # no value for its cost: not executable (validate.py, UNDEFINED_COST)
                deleted = {lit.ground(binding) for lit in action.del_effects}
                added = {lit.ground(binding) for lit in action.add_effects}
                if action.conditional_effects:
                    _conditional(self.task, action, binding, state, added, deleted)
                yield "(" + " ".join([action.name, *args]) + ")", frozenset((state - deleted) | added)

    def _fits_type(self, name: str, types: tuple[str, ...]) -> bool:
        key = (name, types)
        fits = self._fits.get(key)
        if fits is None:
            fits = self._fits[key] = self.domain.is_subtype(self.task.object_types[name], types)
        return fits

    def _join_order(self, action: Action, by_pred: dict[str, list[Fact]]) -> list[tuple[Literal, bool]]:
        positives = self._joined[action.name]
        key = (action.name, tuple(len(by_pred.get(lit.predicate, ())) for lit in positives))
        order = self._orders.get(key)
        if order is None:
            order = self._orders[key] = _join_order(positives, by_pred)
        return order

    def cost(self, label: str) -> float:
        """The cost of a step this class produced (1 where the task counts steps)."""
        name, *args = label[1:-1].split()
        action = self.domain.actions[name]
        return self.task.action_cost(action, {p.name: a for p, a in zip(action.parameters, args)})

    @staticmethod
    def _holds(lit: Literal, binding: dict[str, str], state: frozenset[Fact]) -> bool:
        if lit.predicate == "=":
            left, right = (binding.get(a, a) for a in lit.args)
            return bool((left == right) == lit.positive)
        return bool((lit.ground(binding) in state) == lit.positive)

    def _bindings(self, action: Action, by_pred: dict[str, list[Fact]],
                  state: frozenset[Fact]) -> Iterator[dict[str, str]]:
        positives = self._join_order(action, by_pred)
        budget = self.task.budget  # read for each call: a caller may give every call a budget of its own

        def extend(i: int, binding: dict[str, str]) -> Iterator[dict[str, str]]:
            if i == len(positives):
                yield from self._complete(action, binding)
                return
            lit, all_known = positives[i]
            if all_known:
                # every term known: one look in the state, where scanning the predicate's facts would find the
                # same one fact (or none) in more time
                if budget is not None:
                    budget.tick(1)
                if lit.ground(binding) in state:
                    yield from extend(i + 1, binding)
                return
            facts = by_pred.get(lit.predicate, ())
            if budget is not None:
                budget.tick(len(facts))  # candidates for this literal (an action may have billions of bindings)
            for fact in facts:
                new: dict[str, str] | None = None  # copied only once the fact agrees with the binding so far
                for term, value in zip(lit.args, fact[1:]):
                    if term.startswith("?"):
                        known = binding.get(term) if new is None else new.get(term)
                        if known is None:
                            if new is None:
                                new = dict(binding)
                            new[term] = value
                        elif known != value:
                            break
                    elif term != value:
                        break
                else:
                    yield from extend(i + 1, binding if new is None else new)

        yield from extend(0, {})

    def _complete(self, action: Action, binding: dict[str, str]) -> Iterator[dict[str, str]]:
        free = [p for p in action.parameters if p.name not in binding]
        if not free:
            yield binding
            return
        budget = self.task.budget
        count = 0
        for values in product(*(self._objects(p.types) for p in free)):
            count += 1
            if count == CHUNK and budget is not None:  # counted in chunks: a call per binding costs too much
                budget.tick(count)
                count = 0
            yield {**binding, **{p.name: v for p, v in zip(free, values)}}
        if budget is not None:
            budget.tick(count)


def _joined(lit: Literal) -> bool:
    """Whether the join of `Successors` finds bindings by this precondition (and so ensures it holds)."""
    return lit.positive and lit.predicate != "="


def _join_order(positives: list[Literal], by_pred: dict[str, list[Fact]]) -> list[tuple[Literal, bool]]:
    """The positive preconditions in the order the join looks them up in a state, each with whether all its
    terms are known by then: next, always, one whose terms are all known (one look in the state), else the one
    with the fewest facts in the state. The bindings found are the same in any order; a good one finds them with
    far fewer candidates (ferry's `sail` binds its `?from` by the one `at-ferry` fact instead of trying every
    pair of locations)."""
    order: list[tuple[Literal, bool]] = []
    known: set[str] = set()
    left = list(positives)
    while left:
        def candidates(lit: Literal) -> int:
            if all(not term.startswith("?") or term in known for term in lit.args):
                return 0
            return len(by_pred.get(lit.predicate, ()))

        best = min(left, key=candidates)  # the first of equals: the domain's own order breaks ties
        left.remove(best)
        order.append((best, all(not term.startswith("?") or term in known for term in best.args)))
        known.update(term for term in best.args if term.startswith("?"))
    return order


def _conditional(task: Task, action: Action, binding: dict[str, str], state: frozenset[Fact],
                 added: set[Fact], deleted: set[Fact]) -> None:
    """ADL: the conditional and quantified effects of a step, their conditions read in the state before it."""
    for effect in action.conditional_effects:
        for _, inner, fires in task.effect_bindings(effect, binding, state):
            if fires:
                added.update(lit.ground(inner) for lit in effect.add)
                deleted.update(lit.ground(inner) for lit in effect.delete)


def builtin_search(domain: Domain, problem: Problem, optimal: bool = True, timeout: float = 60.0,
                   memory_mb: int | None = 4096) -> PlannerResult:
    """genplan's own search on its reading of the task, within ``timeout`` seconds and ``memory_mb`` MB more
    memory than the process holds at the start: both are checked inside successor generation too (budget.py),
    so a domain whose actions have billions of bindings ends at its limit like any other."""
    budget = Budget(timeout, memory_mb)
    task = Task(domain, problem, budget=budget)
    search = _uniform_cost_search if optimal and task.uses_costs else _builtin_search
    name = _search_name(optimal, task.uses_costs)
    try:
        return search(task, optimal, budget, name)
    except BudgetExceeded as exceeded:
        return PlannerResult(LIMIT, None, name, budget.elapsed(), _limit_message(exceeded.what, budget))


def _search_name(optimal: bool, uses_costs: bool) -> str:
    if optimal and uses_costs:
        return "builtin uniform-cost search (optimal)"
    return "builtin " + ("breadth-first search (optimal)" if optimal else "greedy best-first search")


def _limit_message(what: str, budget: Budget) -> str:
    if what == "memory":
        return f"no plan within the memory limit of {budget.memory_mb} MB"
    return f"no plan within the limit of {budget.seconds:g} s"


def _uniform_cost_search(task: Task, optimal: bool, budget: Budget, name: str) -> PlannerResult:
    """Dijkstra's search over states: optimal for action costs (the task minimizes total-cost)."""
    succ = Successors(task)
    root = _Node(task.init_state)
    best: dict[frozenset[Fact], float] = {root.state: 0.0}
    frontier: list[tuple[float, int, _Node]] = [(0.0, 0, root)]
    counter = expanded = 0
    while frontier:
        budget.check()  # cheap: the clock, and the memory at most every 50 ms
        cost, _, node = heapq.heappop(frontier)
        if cost > best.get(node.state, math.inf):
            continue
        if task.goal_reached(node.state):
            return PlannerResult(SOLVED, _extract(node), name, budget.elapsed(), expanded=expanded)
        expanded += 1
        for label, state in succ.applicable(node.state):
            new_cost = cost + succ.cost(label)
            if new_cost < best.get(state, math.inf):
                best[state] = new_cost
                counter += 1
                heapq.heappush(frontier, (new_cost, counter, _Node(state, node, label, node.depth + 1)))
    return PlannerResult(UNSOLVABLE, None, name, budget.elapsed(), "the task is unsolvable", expanded)


def _builtin_search(task: Task, optimal: bool, budget: Budget, name: str) -> PlannerResult:
    """Breadth-first search (optimal for unit costs) or greedy best-first search with the goal-count heuristic."""
    problem = task.problem
    succ = Successors(task)
    root = _Node(task.init_state)
    seen = {root.state}
    expanded = 0

    def goal_count(state: frozenset[Fact]) -> int:
        return (sum(f not in state for f in problem.goal_pos) + sum(f in state for f in problem.goal_neg)
                + sum(not task.holds(c, {}, state) for c in problem.goal_conditions))

    frontier: deque[_Node] | list[tuple[int, int, _Node]]
    if task.goal_reached(root.state):
        return PlannerResult(SOLVED, [], name, 0.0, expanded=0)
    counter = 0
    frontier = deque([root]) if optimal else [(goal_count(root.state), 0, root)]
    while frontier:
        budget.check()  # cheap: the clock, and the memory at most every 50 ms
        node = frontier.popleft() if isinstance(frontier, deque) else heapq.heappop(frontier)[2]
        expanded += 1
        for label, state in succ.applicable(node.state):
            if state in seen:
                continue
            seen.add(state)
            child = _Node(state, node, label, node.depth + 1)
            if task.goal_reached(state):
                return PlannerResult(SOLVED, _extract(child), name, budget.elapsed(), expanded=expanded)
            counter += 1
            if isinstance(frontier, deque):
                frontier.append(child)
            else:
                heapq.heappush(frontier, (goal_count(state), counter, child))
    return PlannerResult(UNSOLVABLE, None, name, budget.elapsed(), "the task is unsolvable", expanded)


def _extract(node: _Node) -> list[str]:
    steps: list[str] = []
    current: _Node | None = node
    while current is not None and current.action is not None:
        steps.append(current.action)
        current = current.parent
    return steps[::-1]
