"""Anonymized and costumed variants of ADL domains reveal nothing of the original vocabulary.

The variables that ``forall``/``exists``/``when`` quantify over (in actions and in tasks' goals) and the cost
functions of ``:action-costs`` are renamed like every other name; the variant stays the same task (solvable,
same optimal plan length or cost).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from genplan.engine.pddl import Domain, Problem, load_domain, load_problem
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import builtin_search
from genplan.engine.variants.build import build_anonymized_dir
from genplan.engine.variants.costume import Costume
from genplan.engine.variants.renaming import (
    anonymize_renaming,
    domain_text,
    rename_domain,
    rename_plan,
    rename_problem,
    variable_names,
)

ROOT = Path(__file__).resolve().parents[1]
ADL = ROOT / "tests" / "data" / "adl"
ADL_TASKS = sorted(p.name.removesuffix("-domain.pddl") for p in ADL.glob("*-domain.pddl"))
# What a written variant may show: PDDL's own words, and the numbered names.
PDDL_WORDS = {
    "define", "domain", "problem", "and", "or", "not", "imply", "forall", "exists", "when", "either", "object",
    "increase", "total-cost", "number", "minimize", "=",
}
NUMBERED = re.compile(r"^(domain|action|predicate|type|var|function|object)\d+(-[0-9a-f]{8})?$")
TOKEN = re.compile(r"(?<![:\w-])[?]?[a-z][a-z0-9_-]*")


def _vocabulary(domain: Domain, problems: list[Problem]) -> set[str]:
    """Every name the original files chose: domain, actions, predicates, types, variables, functions, objects."""
    words = {domain.name, *domain.actions, *domain.predicates, *domain.type_parents, *domain.functions}
    for problem in problems:
        words |= set(variable_names(domain, problem)) | {o for o, _ in problem.objects} | {problem.name}
    words |= set(variable_names(domain)) | {c for c, _ in domain.constants}
    return words - PDDL_WORDS


def _shown(text: str) -> set[str]:
    """The names a PDDL text shows (``?x`` as ``x``; requirement flags and comments left out)."""
    text = "\n".join(line.split(";", 1)[0] for line in text.splitlines())
    return {token.lstrip("?") for token in TOKEN.findall(text.lower())}


def _optimal(domain: Domain, problem: Problem) -> tuple[int, float | None, list[str]]:
    result = builtin_search(domain, problem, optimal=True, timeout=60)
    assert result.solved, result.summary()
    plan = list(result.plan or [])
    return len(plan), validate_plan(domain, problem, plan).cost, plan


@pytest.mark.parametrize("name", ["briefcase", "recycling"])
def test_anonymized_adl_domain_dirs_reveal_nothing_and_plan_alike(name: str, tmp_path: Path) -> None:
    base = ROOT / "domains" / name
    out = tmp_path / "anon"
    build_anonymized_dir(base, out)
    domain = load_domain(base / "domain.pddl")
    debug = sorted((base / "debug").glob("*.pddl"))
    originals = [load_problem(p, domain) for p in debug]
    vocabulary = _vocabulary(domain, originals)
    written = [out / "domain.pddl", *sorted((out / "debug").glob("*.pddl")), *sorted((out / "eval").glob("*.pddl"))]
    for path in written:
        shown = _shown(path.read_text(encoding="utf-8"))
        assert not shown & vocabulary, f"{path.name} shows {sorted(shown & vocabulary)}"
        assert all(NUMBERED.match(word) or word in PDDL_WORDS for word in shown), sorted(
            w for w in shown if not NUMBERED.match(w) and w not in PDDL_WORDS)
    variant = load_domain(out / "domain.pddl")
    for path, original in list(zip(debug, originals))[:2]:
        renamed = load_problem(out / "debug" / path.name, variant)
        length, cost, plan = _optimal(domain, original)
        variant_length, variant_cost, variant_plan = _optimal(variant, renamed)
        assert (variant_length, variant_cost) == (length, cost)
        # the variant's plan, renamed back, is a valid plan of the original task
        back = anonymize_renaming(domain, original).inverse()
        assert validate_plan(domain, original, rename_plan(variant_plan, back)).valid


@pytest.mark.parametrize("name", ADL_TASKS)
def test_anonymized_adl_tasks_reveal_nothing_and_plan_alike(name: str) -> None:
    domain = load_domain(ADL / f"{name}-domain.pddl")
    problem = load_problem(ADL / f"{name}-problem.pddl", domain)
    renaming = anonymize_renaming(domain, problem)
    new_domain, new_problem = rename_domain(domain, renaming), rename_problem(problem, renaming)
    vocabulary = _vocabulary(domain, [problem])
    for text in (domain_text(new_domain), new_problem.source):
        shown = _shown(text)
        assert not shown & vocabulary, f"{name} shows {sorted(shown & vocabulary)}"
    length, cost, _ = _optimal(domain, problem)
    assert _optimal(new_domain, new_problem)[:2] == (length, cost)
    plan = [line for line in (ADL / f"{name}-plan.txt").read_text().splitlines() if line.strip() and not line.startswith(";")]
    assert validate_plan(new_domain, new_problem, rename_plan(plan, renaming)).valid


def test_quantified_variables_and_cost_functions_get_numbers() -> None:
    found = []
    for name in ADL_TASKS:
        domain = load_domain(ADL / f"{name}-domain.pddl")
        problem = load_problem(ADL / f"{name}-problem.pddl", domain)
        quantified = set(variable_names(domain, problem)) - {
            p.name.lstrip("?") for a in [*domain.actions.values(), *domain.predicates.values()] for p in a.parameters}
        renaming = anonymize_renaming(domain, problem)
        assert all(re.fullmatch(r"var\d+", renaming.variables[v]) for v in quantified)
        found += [(name, v) for v in quantified]
    assert ("courier-exists", "z") in found and ("courier-forall", "z") in found  # named by no parameter
    roads = load_domain(ADL / "roads-domain.pddl")
    roads_problem = load_problem(ADL / "roads-problem.pddl", roads)
    renaming = anonymize_renaming(roads, roads_problem)
    assert renaming.functions == {"length": "function1"}
    new_domain, new_problem = rename_domain(roads, renaming), rename_problem(roads_problem, renaming)
    assert {a.cost.function for a in new_domain.actions.values() if a.cost and a.cost.function} == {"function1"}
    assert {key[0] for key in new_problem.function_values} <= {"function1", "total-cost"}
    assert "(increase (total-cost) (function1 " in domain_text(new_domain)


def _costume(tables: dict[str, dict[str, str]], keep: dict[str, set[str]]) -> Costume:
    categories = ("actions", "predicates", "types", "variables", "functions", "objects", "object-words")
    return Costume(path=Path("costume.toml"), domain="recycling", name="sorting", description="d", notes="",
                   tables={c: tables.get(c, {}) for c in categories}, keep={c: keep.get(c, set()) for c in categories})


def test_a_costume_must_cover_quantified_variables() -> None:
    base = ROOT / "domains" / "recycling"
    domain = load_domain(base / "domain.pddl")
    tasks = [load_problem(p, domain) for p in sorted((base / "debug").glob("*.pddl"))]
    keep = {"actions": set(domain.actions), "predicates": set(domain.predicates),
            "types": {t for t in domain.type_parents if t != "object"}, "object-words": {"loc", "item", "bin", "m", "l", "i", "b"}}
    parameters = {p.name.lstrip("?") for a in [*domain.actions.values(), *domain.predicates.values()] for p in a.parameters}
    quantified = set(variable_names(domain)) - parameters  # ?j of pick and take
    assert quantified
    problems = _costume({}, {**keep, "variables": parameters}).check(domain, tasks)
    for variable in quantified:
        assert any(f"variable '{variable}' is neither renamed" in line for line in problems), problems
    words = {w for t in tasks for o, _ in t.objects for w in re.findall(r"[a-z]+", o)}
    keep["object-words"] = words
    goal_variables = {v for t in tasks for v in variable_names(domain, t)} - set(variable_names(domain))
    costume = _costume({"variables": {v: f"{v}{v}" for v in quantified | goal_variables}},
                       {**keep, "variables": parameters})
    assert costume.check(domain, tasks) == []
    renaming = costume.renaming_for(domain, tasks[0])
    renamed = rename_domain(domain, renaming)
    assert not _shown(domain_text(renamed)) & {f"{v}" for v in quantified}
    goal = rename_problem(tasks[0], renaming).source
    assert not _shown(goal) & goal_variables
