"""Costumed and anonymized variants: renaming keeps the structure, mappings are checked, shipped dirs are current.

Plans are found once per original task (Fast Downward A* + LM-cut when installed) and carried across:
mapped forward they must be valid on the renamed task, mapped back they must be the original plan again,
and broken copies of them must fail the same way (same error kind, same step) on both sides.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from functools import cache
from pathlib import Path

import pytest

from genplan.cli.main import main
from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import Domain, Problem, load_domain, load_problem, parse_domain_text, parse_problem_text
from genplan.engine.pddl.plans import parse_action
from genplan.engine.pddl.validate import SYNTAX_KINDS, validate_plan
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl
from genplan.engine.planner import solve
from genplan.engine.variants.build import build_costume_dir
from genplan.engine.variants.mapping import load_mapping
from genplan.engine.variants.renaming import (
    VariantError,
    anonymize_renaming,
    domain_text,
    rename_domain,
    rename_literal_text,
    rename_plan,
    rename_problem,
)

DOMAINS_ROOT = Path(__file__).resolve().parents[1] / "domains"


def _meta(path: Path) -> dict:
    return tomllib.loads((path / "domain.toml").read_text(encoding="utf-8"))


ALL_DIRS = sorted(p for p in DOMAINS_ROOT.iterdir() if p.is_dir() and (p / "domain.toml").is_file())
BASE_DIRS = [p for p in ALL_DIRS if "costume_of" not in _meta(p)]
COSTUMED_DIRS = [p for p in ALL_DIRS if _meta(p).get("variant") == "costume"]
COSTUMED_NAMES = [p.name for p in COSTUMED_DIRS]


@cache
def base_domain(name: str) -> Domain:
    return load_domain(DOMAINS_ROOT / name / "domain.pddl")


@cache
def task(name: str, relative: str) -> Problem:
    return load_problem(DOMAINS_ROOT / name / relative, base_domain(name))


@cache
def optimal_plan(name: str, relative: str) -> tuple[str, ...]:
    result = solve(base_domain(name), task(name, relative), optimal=True, timeout=60)
    assert result.solved, f"{name}/{relative}: {result.summary()}"
    return tuple(result.plan or [])


def _costume(name: str):
    return load_mapping(DOMAINS_ROOT / f"{name}-costumed" / "costume.toml")


def _renamings(name: str, problem: Problem) -> dict:
    """Every way the tests rename a task of ``name``: anonymized, and costumed when a costume ships."""
    domain = base_domain(name)
    found = {"anonymized": anonymize_renaming(domain, problem)}
    if (DOMAINS_ROOT / f"{name}-costumed").is_dir():
        found["costumed"] = _costume(name).renaming_for(domain, problem, f"{name}-costumed")
    return found


def _same_problem(a: Problem, b: Problem) -> bool:
    return (a.name, a.domain_name, a.objects, a.init, a.goal_pos, a.goal_neg) == (
        b.name,
        b.domain_name,
        b.objects,
        b.init,
        b.goal_pos,
        b.goal_neg,
    )


def test_the_paper_costumes_are_shipped() -> None:
    assert {"ferry-costumed", "gripper-costumed", "delivery-costumed"} <= set(COSTUMED_NAMES)
    for path in COSTUMED_DIRS:
        meta = _meta(path)
        assert (DOMAINS_ROOT / meta["costume_of"]).is_dir()
        assert meta["typed_objects"] == _meta(DOMAINS_ROOT / meta["costume_of"])["typed_objects"]


# ------------------------------------------------------------------------------------ structure round trip
@pytest.mark.parametrize("base", BASE_DIRS, ids=[p.name for p in BASE_DIRS])
def test_every_task_maps_there_and_back(base: Path) -> None:
    """All tasks (debug, eval, probes): renaming and renaming back gives the task again, facts map 1:1."""
    domain = base_domain(base.name)
    directory = DomainDir.open(base)
    for path in [*directory.debug_tasks(), *directory.eval_tasks(), *directory.probe_tasks()]:
        problem = load_problem(path, domain)
        for kind, renaming in _renamings(base.name, problem).items():
            renamed = rename_problem(problem, renaming)
            assert len(set(renamed.init)) == len(problem.init), f"{path} {kind}: two facts became one"
            assert len({o for o, _ in renamed.objects}) == len(problem.objects)
            assert _same_problem(rename_problem(renamed, renaming.inverse()), problem), f"{path} {kind}"
            assert rename_domain(rename_domain(domain, renaming), renaming.inverse()).source == domain_text(domain)


@pytest.mark.parametrize("base", BASE_DIRS, ids=[p.name for p in BASE_DIRS])
def test_renamed_domain_and_tasks_parse(base: Path) -> None:
    """The written variant parses with the full loader and means the same as the renamed model."""
    domain = base_domain(base.name)
    directory = DomainDir.open(base)
    for path in [*directory.debug_tasks(), *directory.probe_tasks(), directory.eval_tasks()[0]]:
        problem = task(base.name, str(path.relative_to(base)))
        for kind, renaming in _renamings(base.name, problem).items():
            new_domain = parse_domain_text(domain_text(rename_domain(domain, renaming)))
            assert list(new_domain.actions) == [renaming.actions[a] for a in domain.actions]
            assert list(new_domain.predicates) == [renaming.predicates[p] for p in domain.predicates]
            text = problem_to_pddl(rename_problem(problem, renaming))
            reparsed = parse_problem_text(text, new_domain)
            assert not reparsed.warnings, f"{path} {kind}: {reparsed.warnings}"
            assert _same_problem(reparsed, rename_problem(problem, renaming))


def test_inverse_of_inverse_is_identity() -> None:
    problem = task("ferry", "debug/task-03.pddl")
    for renaming in _renamings("ferry", problem).values():
        assert renaming.inverse().inverse() == renaming
        assert renaming.inverse() != renaming


def test_anonymized_names_are_numbered_in_file_order() -> None:
    domain = base_domain("delivery")
    problem = task("delivery", "debug/task-01.pddl")
    renamed_domain = rename_domain(domain, anonymize_renaming(domain, problem))
    renamed = rename_problem(problem, anonymize_renaming(domain, problem))
    assert list(renamed_domain.actions) == [f"action{i}" for i in range(1, len(domain.actions) + 1)]
    assert list(renamed_domain.predicates) == [f"predicate{i}" for i in range(1, len(domain.predicates) + 1)]
    assert [t for t in renamed_domain.type_parents if t != "object"] == ["type1", "type2"]
    assert [o for o, _ in renamed.objects] == [f"object{i}" for i in range(1, len(problem.objects) + 1)]
    words = set(re.findall(r"[a-z][a-z0-9_-]*", domain_to_pddl(renamed_domain) + problem_to_pddl(renamed)))
    originals = set(domain.actions) | set(domain.predicates) | {"loc", "paper", "delivery"}
    assert not words & originals, words & originals


def test_costumed_domains_show_no_original_name() -> None:
    for path in COSTUMED_DIRS:
        original = base_domain(_meta(path)["costume_of"])
        text = (path / "domain.pddl").read_text(encoding="utf-8")
        mapping = load_mapping(path / "costume.toml")
        hidden = (set(original.actions) - mapping.keep["actions"]) | (set(original.predicates) - mapping.keep["predicates"])
        hidden |= {t for t in original.type_parents if t != "object"} - mapping.keep["types"]
        renamed = set(mapping.tables["actions"].values()) | set(mapping.tables["predicates"].values())
        tokens = set(re.findall(r"[a-z][a-z0-9_-]*", text))
        assert not (tokens & hidden) - renamed, f"{path.name} shows {(tokens & hidden) - renamed}"


# --------------------------------------------------------------------------------------------- plans
def _plan_cases(names: list[str], debug_tasks: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(n, f"debug/{t}") for n in names for t in debug_tasks]


COSTUME_BASES = [_meta(p)["costume_of"] for p in COSTUMED_DIRS]
PLAN_CASES = _plan_cases(COSTUME_BASES, tuple(f"task-{i:02d}.pddl" for i in range(6))) + _plan_cases(
    [p.name for p in BASE_DIRS if p.name not in COSTUME_BASES], ("task-01.pddl", "task-04.pddl")
)


@pytest.mark.parametrize(("name", "relative"), PLAN_CASES, ids=[f"{n}-{r}" for n, r in PLAN_CASES])
def test_optimal_plans_stay_valid_both_ways(name: str, relative: str) -> None:
    domain, problem = base_domain(name), task(name, relative)
    plan = list(optimal_plan(name, relative))
    assert validate_plan(domain, problem, plan).valid
    for kind, renaming in _renamings(name, problem).items():
        new_domain, new_problem = rename_domain(domain, renaming), rename_problem(problem, renaming)
        forward = rename_plan(plan, renaming)
        assert validate_plan(new_domain, new_problem, forward).valid, f"{kind}: {forward}"
        back = rename_plan(forward, renaming.inverse())
        assert back == plan
        assert validate_plan(domain, problem, back).valid


@pytest.mark.parametrize("variant", COSTUMED_NAMES)
def test_plans_found_on_the_costumed_side_are_valid_on_the_original(variant: str) -> None:
    """The other direction: plan the shipped costumed task itself, map the plan back."""
    path = DOMAINS_ROOT / variant
    name = _meta(path)["costume_of"]
    costumed_domain = load_domain(path / "domain.pddl")
    for relative in ("debug/task-02.pddl", "debug/task-03.pddl"):
        costumed = load_problem(path / relative, costumed_domain)
        result = solve(costumed_domain, costumed, optimal=True, timeout=60)
        assert result.solved and result.plan
        original = task(name, relative)
        renaming = _costume(name).renaming_for(base_domain(name), original, variant)
        assert _same_problem(rename_problem(original, renaming), costumed)
        back = rename_plan(result.plan, renaming.inverse())
        assert validate_plan(base_domain(name), original, back).valid
        assert len(back) == len(optimal_plan(name, relative))  # optimal on both sides: same length


def _broken_plans(plan: list[str], other_side_action: str, other_side_object: str) -> dict[str, list[str]]:
    """Invalid copies of a valid plan, each breaking it in one way."""
    first = parse_action(plan[0])
    broken = {
        "drop first step": plan[1:],
        "drop last step": plan[:-1],
        "swap first steps": [plan[1], plan[0], *plan[2:]] if len(plan) > 1 else plan[:0],
        "unknown action": [f"(fly {' '.join(first.args)})", *plan[1:]],
        "action of the other side": [f"({other_side_action} {' '.join(first.args)})", *plan[1:]],
        "unknown object": [f"({first.name} {' '.join(['nowhere', *first.args[1:]])})", *plan[1:]],
        "object of the other side": [f"({first.name} {' '.join([other_side_object, *first.args[1:]])})", *plan[1:]],
        "extra argument": [plan[0][:-1] + " " + first.args[0] + ")", *plan[1:]],
        "no parentheses": [plan[0][1:-1], *plan[1:]],
        "nested parentheses": ["(" + plan[0] + ")", *plan[1:]],
        "arguments reversed": [f"({first.name} {' '.join(reversed(first.args))})", *plan[1:]],
    }
    return broken


@pytest.mark.parametrize("name", COSTUME_BASES + ["transport"])
def test_invalid_plans_fail_the_same_way_on_both_sides(name: str) -> None:
    domain = base_domain(name)
    checked_kinds: set[str] = set()
    for relative in ("debug/task-02.pddl", "debug/task-04.pddl"):
        problem = task(name, relative)
        plan = list(optimal_plan(name, relative))
        for kind, renaming in _renamings(name, problem).items():
            new_domain, new_problem = rename_domain(domain, renaming), rename_problem(problem, renaming)
            other_action = next(iter(new_domain.actions))
            other_object = new_problem.objects[0][0]
            for label, broken in _broken_plans(plan, other_action, other_object).items():
                before = validate_plan(domain, problem, broken)
                after = validate_plan(new_domain, new_problem, rename_plan(broken, renaming))
                # (swapping two independent steps may keep a plan valid: then it must stay valid)
                assert (after.valid, after.kind, after.step) == (before.valid, before.kind, before.step), f"{kind} {label}"
                assert after.unsatisfied == [rename_literal_text(t, renaming) for t in before.unsatisfied]
                assert after.unsatisfied_static == [rename_literal_text(t, renaming) for t in before.unsatisfied_static]
                assert after.goal_missing == [rename_literal_text(t, renaming) for t in before.goal_missing]
                back = validate_plan(domain, problem, rename_plan(rename_plan(broken, renaming), renaming.inverse()))
                assert (back.kind, back.step) == (before.kind, before.step)
                checked_kinds.add(before.kind or "")
    assert {"unknown-action", "unknown-object", "wrong-arity", "malformed", "goal-not-reached"} <= checked_kinds
    assert checked_kinds - SYNTAX_KINDS, "no broken plan reached the semantic checks"


def test_rename_plan_keeps_the_form_of_each_step() -> None:
    problem = task("ferry", "debug/task-01.pddl")
    renaming = _costume("ferry").renaming_for(base_domain("ferry"), problem)
    assert rename_plan(["(sail l0 l1)", "board c0 l1", "((debark c0 l1))", ""], renaming) == [
        "(leap tree0 tree1)",
        "grab nut0 tree1",
        "((debark c0 l1))",
        "",
    ]
    # a name that exists only on the renamed side stays unknown after renaming
    assert rename_plan(["(leap l0 tree1)"], renaming) == ["(leap' tree0 tree1')"]


# ------------------------------------------------------------------------------------------ mappings
FERRY_MAPPING = DOMAINS_ROOT / "ferry-costumed" / "costume.toml"


def _write_mapping(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "map.toml"
    path.write_text(text, encoding="utf-8")
    return path


BAD_MAPPING = """
domain = "ferry"
description = "a squirrel"
colour = "red"
[actions]
sail = "leap"
board = "leap"
fly = "soar"
[predicates]
not-eq = "different trees"
car = "nut"
location = "tree"
at-ferry = "in-tree"
at = "lies-in"
empty-ferry = "and"
[variables]
c = "n"
l = "t"
car = "nut"
loc = "tree"
[object-words]
c = "nut"
l = "nut"
[objects]
volvo = "acorn"
harbour = "beech"
island = "willow"
mainland = "oak"
saab = "acorn"
[keep]
predicates = ["on", "at"]
variables = ["x", "y", "from", "to"]
"""


def test_a_bad_mapping_lists_every_problem_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mapping = _write_mapping(tmp_path, BAD_MAPPING)
    out = tmp_path / "out"
    code = main(["costume", str(DOMAINS_ROOT / "ferry"), "--mapping", str(mapping), "--out", str(out)])
    assert code == 2
    assert not out.exists()  # rejected before anything was written
    lines = capsys.readouterr().err.strip().splitlines()
    expected = [
        "unknown key 'colour'",
        "'different trees' is not a valid PDDL name",
        "empty-ferry = 'and' is not a valid PDDL name",
        "unknown action 'fly'",
        "action 'debark' is neither renamed",
        "actions 'sail' and 'board' would both be called 'leap'",
        "predicate 'at' is both renamed in [predicates] and kept",
        "[object-words] 'c' and 'l' are both renamed to 'nut'",
        "[objects] 'volvo' and 'saab' are both renamed to 'acorn'",
    ]
    for fragment in expected:
        assert sum(fragment in line for line in lines) == 1, f"{fragment!r} not reported once in {lines}"
    assert all(line.startswith(f"genplan: {mapping}: ") for line in lines)
    assert len(lines) == len(set(lines))


def test_every_object_must_be_covered(tmp_path: Path) -> None:
    text = FERRY_MAPPING.read_text(encoding="utf-8").replace('c = "nut"\n\n', "\n").replace('saab = "hazelnut"\n', "")
    with pytest.raises(VariantError) as info:
        build_costume_dir(DOMAINS_ROOT / "ferry", _write_mapping(tmp_path, text), tmp_path / "out")
    problems = info.value.problems
    assert any("the word 'c' is neither renamed" in p for p in problems)
    assert any("the word 'saab' is neither renamed" in p for p in problems)
    assert not (tmp_path / "out").exists()


def test_a_mapping_for_another_domain_is_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mapping = DOMAINS_ROOT / "gripper-costumed" / "costume.toml"
    assert main(["costume", str(DOMAINS_ROOT / "ferry"), "--mapping", str(mapping), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"genplan: {mapping}: the mapping is for domain 'gripper' but the domain directory holds 'ferry'"]


def test_missing_inputs_are_listed_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    code = main(["costume", str(tmp_path / "nope"), "--mapping", str(tmp_path / "nomap.toml"), "--out", str(tmp_path / "full")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3
    assert "nope: not a directory" in err[0] and "not an empty directory" in err[1] and "no such mapping file" in err[2]


def test_kept_names_stay_and_may_not_be_taken(tmp_path: Path) -> None:
    text = FERRY_MAPPING.read_text(encoding="utf-8").replace('at = "lies-in"\n', "")
    text = text.replace('variables = ["x", "y", "from", "to"]', 'variables = ["x", "y", "from", "to"]\npredicates = ["at"]')
    costume = load_mapping(_write_mapping(tmp_path, text))
    domain = base_domain("ferry")
    renaming = costume.renaming_for(domain, task("ferry", "debug/task-00.pddl"))
    assert renaming.predicates["at"] == "at"
    assert "(at nut0 tree" in problem_to_pddl(rename_problem(task("ferry", "debug/task-00.pddl"), renaming))
    clash = _write_mapping(tmp_path, text.replace('on = "in-paws"', 'on = "at"'))
    with pytest.raises(VariantError) as info:
        load_mapping(clash).renaming_for(domain)
    assert any("'at' and 'on' would both be called 'at'" in p for p in info.value.problems)


def test_new_object_names_from_the_generator_must_be_covered(tmp_path: Path) -> None:
    costume = _costume("ferry")
    problem = task("ferry", "debug/task-00.pddl")
    objects = [("q0", "object"), *problem.objects]
    odd = Problem(problem.name, problem.domain_name, None, objects, problem.init, problem.goal_pos, problem.goal_neg)
    with pytest.raises(VariantError, match="the word 'q' is neither renamed"):
        costume.renaming_for(base_domain("ferry"), odd)


# ------------------------------------------------------------------------------------ variant dirs
@pytest.mark.parametrize("variant", COSTUMED_NAMES)
def test_shipped_costumed_dirs_are_what_the_command_writes(variant: str, tmp_path: Path) -> None:
    shipped = DOMAINS_ROOT / variant
    base_name = _meta(shipped)["costume_of"]
    shutil.copytree(DOMAINS_ROOT / base_name, tmp_path / base_name)
    out = tmp_path / variant
    code = main(["costume", str(tmp_path / base_name), "--mapping", str(shipped / "costume.toml"), "--out", str(out)])
    assert code == 0
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    shipped_files = sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert files == shipped_files
    for relative in files:
        assert (out / relative).read_bytes() == (shipped / relative).read_bytes(), relative


def test_regenerating_in_place_needs_force_and_drops_stale_tasks(tmp_path: Path) -> None:
    shutil.copytree(DOMAINS_ROOT / "ferry", tmp_path / "ferry")
    shutil.copytree(DOMAINS_ROOT / "ferry-costumed", tmp_path / "ferry-costumed")
    out = tmp_path / "ferry-costumed"
    (out / "eval" / "task-999.pddl").write_text("stale\n")
    (out / "debug" / "task-00.pddl").write_text("edited\n")
    args = ["costume", str(tmp_path / "ferry"), "--mapping", str(out / "costume.toml"), "--out", str(out)]
    assert main(args) == 2
    assert main([*args, "--force"]) == 0
    assert not (out / "eval" / "task-999.pddl").exists()
    assert (out / "debug" / "task-00.pddl").read_bytes() == (DOMAINS_ROOT / "ferry-costumed" / "debug" / "task-00.pddl").read_bytes()


def test_anonymize_writes_a_working_domain_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(DOMAINS_ROOT / "gripper", tmp_path / "gripper")
    (tmp_path / "gripper" / "debug" / "task-01.plan").write_text(
        "; a reference plan\n" + "\n".join(optimal_plan("gripper", "debug/task-01.pddl")) + "\n"
    )
    out = tmp_path / "anon"
    assert main(["anonymize", str(tmp_path / "gripper"), "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    variant = DomainDir.open(out)
    assert variant.name == "domain1" and variant.typed_objects is False
    assert [p.name for p in variant.debug_tasks()] == [p.name for p in DomainDir.open(DOMAINS_ROOT / "gripper").debug_tasks()]
    domain = load_domain(variant.domain_file)
    assert list(domain.actions) == ["action1", "action2", "action3"]
    # the generator wraps the original one and reproduces the renamed task files
    for index, (seed, sizes) in enumerate(variant.task_specs("debug")):
        assert variant.generate(seed, **sizes) == variant.task_file("debug", index).read_text()
    assert variant.generate(5, rooms=3, balls=2, grippers=2).startswith("(define (problem domain1-")
    # the reference plan came along, renamed, and is valid for the renamed task
    plan = [line for line in (out / "debug" / "task-01.plan").read_text().splitlines() if line]
    problem = load_problem(out / "debug" / "task-01.pddl", domain)
    assert plan[0].startswith("(action") and validate_plan(domain, problem, plan).valid
    for probe in variant.probe_tasks():
        load_problem(probe, domain)


def test_anonymize_rejects_a_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["anonymize", str(DOMAINS_ROOT / "ferry"), "--out", str(tmp_path / "a"), "--name", "9 lives"]) == 2
    assert "not a valid PDDL name" in capsys.readouterr().err


# ------------------------------------------------------------------ constants, type hierarchy, equality
TOY_DOMAIN = """(define (domain lamps)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types lamp switch - device device room - object)
  (:predicates (lit ?l - lamp) (wired ?s - switch ?l - lamp) (in ?d - device ?r - room) (here ?r - room)
               (is-hall ?r - room))
  (:action walk
    :parameters (?from ?to - room)
    :precondition (and (here ?from) (not (= ?from ?to)))
    :effect (and (here ?to) (not (here ?from))))
  (:action flip
    :parameters (?s - switch ?l - lamp ?r - room)
    :precondition (and (here ?r) (in ?s ?r) (wired ?s ?l) (not (lit ?l)))
    :effect (lit ?l))
  (:action unplug-in-hall
    :parameters (?l - lamp ?r - room)
    :precondition (and (here ?r) (is-hall ?r) (in ?l ?r) (lit ?l))
    :effect (not (lit ?l))))
"""
TOY_GENERATOR = '''
PARAMETERS = {"rooms": (2, "rooms besides the hall")}
DEBUG_SPECS = [(1, {"rooms": 1}), (2, {"rooms": 2})]
EVAL_SPECS = [(3, {"rooms": 3})]

def generate(seed, rooms=2):
    names = [f"room{i}" for i in range(rooms)]
    objs = "hall " + " ".join(names) + " - room lamp0 lamp1 - lamp sw0 sw1 - switch"
    init = [f"(here {names[-1]})", "(is-hall hall)", "(in lamp0 hall)", f"(in lamp1 {names[0]})", "(in sw0 hall)",
            f"(in sw1 {names[seed % rooms]})", "(wired sw0 lamp0)", "(wired sw1 lamp1)", "(lit lamp0)"]
    return (f"(define (problem lamps-{rooms}-s{seed}) (:domain lamps) (:objects {objs})\\n"
            f"  (:init {' '.join(init)})\\n  (:goal (and (lit lamp1) (not (lit lamp0)) (here hall))))\\n")
'''
TOY_MAPPING = """
domain = "lamps"
name = "candles"
description = "Candles in chambers are lit by tapers and snuffed in the great hall."
[types]
lamp = "candle"
switch = "taper"
device = "thing"
room = "chamber"
[actions]
walk = "stride"
flip = "kindle"
unplug-in-hall = "snuff"
[predicates]
lit = "burning"
wired = "lights"
in = "kept-in"
here = "present-in"
is-hall = "is-great-hall"
[variables]
l = "c"
s = "t"
d = "th"
r = "ch"
[object-words]
room = "chamber"
lamp = "candle"
sw = "taper"
[objects]
hall = "great-hall"
[keep]
variables = ["from", "to"]
"""


def _toy_dir(root: Path) -> Path:
    base = root / "lamps"
    for sub in ("debug", "eval"):
        (base / sub).mkdir(parents=True)
    (base / "domain.pddl").write_text(TOY_DOMAIN)
    (base / "domain.toml").write_text('name = "lamps"\ntyped_objects = true\ndescription = "lamps"\n')
    (base / "generator.py").write_text(TOY_GENERATOR)
    directory = DomainDir.open(base)
    for task_set in ("debug", "eval"):
        for index, (seed, sizes) in enumerate(directory.task_specs(task_set)):
            directory.task_file(task_set, index).write_text(directory.generate(seed, **sizes))
    return base


def test_type_hierarchy_equality_and_negation_survive_renaming(tmp_path: Path) -> None:
    base = _toy_dir(tmp_path)
    mapping = _write_mapping(tmp_path, TOY_MAPPING)
    assert main(["costume", str(base), "--mapping", str(mapping), "--out", str(tmp_path / "candles")]) == 0
    assert main(["anonymize", str(base), "--out", str(tmp_path / "anon")]) == 0
    domain = load_domain(base / "domain.pddl")
    for variant_name in ("candles", "anon"):
        variant = DomainDir.open(tmp_path / variant_name)
        new_domain = load_domain(variant.domain_file)
        parents = {t: p for t, p in new_domain.type_parents.items() if p not in (None, "object")}
        assert len(parents) == 2 and len(set(parents.values())) == 1  # lamp and switch below device
        for index, path in enumerate(variant.debug_tasks()):
            original = load_problem(base / "debug" / path.name, domain)
            renamed = load_problem(path, new_domain)
            plan = solve(new_domain, renamed, optimal=True, planner="builtin", timeout=20).plan
            assert plan, f"{variant_name} {path.name}"
            costume = load_mapping(mapping)
            renaming = (
                costume.renaming_for(domain, original, "candles")
                if variant_name == "candles"
                else anonymize_renaming(domain, original)
            )
            assert validate_plan(domain, original, rename_plan(plan, renaming.inverse())).valid
            seed, sizes = variant.task_specs("debug")[index]
            assert variant.generate(seed, **sizes) == path.read_text()
    text = (tmp_path / "candles" / "domain.pddl").read_text()
    assert "(is-great-hall ?ch)" in text and "(not (= ?from ?to))" in text and "(not (burning ?c))" in text


def test_constants_are_renamed_like_objects(tmp_path: Path) -> None:
    """A domain constant is covered by [objects] / object words and renamed in actions and tasks."""
    domain = parse_domain_text(
        "(define (domain lamps) (:requirements :strips :typing) (:types room) (:constants hall - room)"
        " (:predicates (here ?r - room)) (:action go-hall :parameters (?r - room)"
        " :precondition (here ?r) :effect (and (here hall) (not (here ?r)))))"
    )
    problem = parse_problem_text("(define (problem p) (:domain lamps) (:objects room0 - room)"
                                 " (:init (here room0)) (:goal (here hall)))", domain)
    mapping = _write_mapping(tmp_path, 'domain = "lamps"\n[types]\nroom = "chamber"\n[actions]\ngo-hall = "enter"\n'
                             '[predicates]\nhere = "inside"\n[variables]\nr = "c"\n[object-words]\nroom = "chamber"\n'
                             '[objects]\nhall = "great-hall"\n')
    costume = load_mapping(mapping)
    assert costume.check(domain, [problem]) == []
    for renaming in (costume.renaming_for(domain, problem), anonymize_renaming(domain, problem)):
        new_domain = parse_domain_text(domain_text(rename_domain(domain, renaming)))
        new_problem = parse_problem_text(problem_to_pddl(rename_problem(problem, renaming)), new_domain)
        assert new_domain.constants == [(renaming.objects["hall"], renaming.types["room"])]
        plan = rename_plan(["(go-hall room0)"], renaming)
        assert validate_plan(new_domain, new_problem, plan).valid
    assert anonymize_renaming(domain, problem).objects == {"hall": "object1", "room0": "object2"}
