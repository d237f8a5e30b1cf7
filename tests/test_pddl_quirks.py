"""IPC-grade reading: legal but unusual PDDL is read (tests/data/quirks/), and constructs outside the supported
fragment get one line naming the construct, the file and the line (tests/data/unsupported/).

Where `../shared/tools/val/validate` exists, VAL confirms that each quirky task and its plan are legal and
valid, so the corpus cannot drift into PDDL that only genplan accepts.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from genplan.engine.pddl import (
    Domain,
    Problem,
    UnsupportedPddlError,
    load_domain,
    load_problem,
)
from genplan.engine.pddl.plans import load_plan
from genplan.engine.pddl.validate import validate_plan

DATA = Path(__file__).resolve().parent / "data"
QUIRKS = DATA / "quirks"
UNSUPPORTED = DATA / "unsupported"
VAL = Path(__file__).resolve().parents[1].parent / "shared" / "tools" / "val" / "validate"
QUIRK_NAMES = sorted(p.name.removesuffix("-domain.pddl") for p in QUIRKS.glob("*-domain.pddl"))


def read(name: str) -> tuple[Domain, Problem]:
    domain = load_domain(QUIRKS / f"{name}-domain.pddl")
    return domain, load_problem(QUIRKS / f"{name}-problem.pddl", domain)


def test_the_corpus_has_every_quirk_of_the_issue() -> None:
    assert QUIRK_NAMES == [
        "constants-either-equality",
        "extra-requirements",
        "late-types",
        "mixed-case-comments",
        "name-mismatch",
        "object-in-types",
        "type-listed-twice",
        "type-two-parents",
        "undeclared-parent-type",
        "untyped-object-keyword",
    ]


@pytest.mark.parametrize("name", QUIRK_NAMES)
def test_each_quirky_task_is_read_and_its_plan_is_valid(name: str) -> None:
    domain, problem = read(name)
    result = validate_plan(domain, problem, load_plan(QUIRKS / f"{name}-plan.txt"))
    assert result.valid, result


@pytest.mark.parametrize("name", QUIRK_NAMES)
def test_val_agrees_that_each_quirky_task_is_legal_and_its_plan_valid(name: str) -> None:
    if not VAL.exists():
        pytest.skip(f"VAL not found at {VAL} (../shared beside the checkout)")
    files = [QUIRKS / f"{name}-{part}" for part in ("domain.pddl", "problem.pddl", "plan.txt")]
    output = subprocess.run([str(VAL), *map(str, files)], capture_output=True, text=True, timeout=60, check=False).stdout
    assert "Plan valid" in output, output[-500:]


def test_object_declared_among_the_types() -> None:
    domain, problem = read("object-in-types")
    assert domain.type_parents == {"object": None, "room": "object", "robot": "object", "gripper": "object"}
    assert ("ball1", "object") in problem.objects and domain.actions["pick"].parameters[1].types == ("object",)


def test_a_parent_type_declared_nowhere_is_a_subtype_of_object_and_said() -> None:
    domain, problem = read("undeclared-parent-type")
    assert domain.type_parents == {"object": None, "disc": "place", "peg": "place", "place": "object"}
    assert domain.is_subtype("peg", ("place",)) and ("left", "peg") in domain.constants
    assert [w for w in domain.warnings if "type 'place' is used as a parent type but not declared" in w]
    assert ("right", "peg") in problem.objects


def test_types_declared_after_use() -> None:
    domain, _ = read("late-types")
    assert domain.type_parents["truck"] == "vehicle" and domain.type_parents["vehicle"] == "object"
    assert domain.is_subtype("truck", ("vehicle",))


def test_constants_either_and_equality() -> None:
    domain, problem = read("constants-either-equality")
    assert domain.constants == [("depot", "place"), ("main-hoist", "hoist")]
    assert domain.predicates["at"].parameters[0].types == ("crate", "truck", "hoist")
    assert domain.actions["put"].parameters[0].types == ("crate",)
    assert [lit.pddl() for lit in domain.actions["drive"].preconditions][-1] == "(not (= ?from ?to))"
    assert ("at", "c1", "depot") in problem.init and "depot" not in dict(problem.objects)


def test_mixed_case_and_comments() -> None:
    domain, problem = read("mixed-case-comments")
    assert domain.name == "switches" and list(domain.actions) == ["switch-on"]
    assert problem.objects == [("s1", "object"), ("s2", "object")] and problem.warnings == []
    assert [s.pddl() for s in load_plan(QUIRKS / "mixed-case-comments-plan.txt")] == ["(switch-on s1)", "(switch-on s2)"]


def test_requirements_genplan_does_not_need_are_accepted() -> None:
    domain, _problem = read("extra-requirements")
    assert list(domain.actions) == ["drive"] and domain.actions["drive"].add_effects[0].pddl() == "(at ?to)"
    # action costs are kept (not dropped with a warning as before the ADL subset)
    assert domain.warnings == [] and domain.action_costs and domain.actions["drive"].cost is not None
    assert domain.actions["drive"].cost.value == 1


def test_a_problem_naming_another_domain_is_one_warning_line() -> None:
    _, problem = read("name-mismatch")
    assert problem.warnings == ["the problem names domain 'lamps' but the domain file is 'lights'"]


def test_explicit_object_types_mixed_with_others() -> None:
    domain, problem = read("untyped-object-keyword")
    assert [p.types for p in domain.actions["stack"].parameters] == [("object",), ("box",), ("object",)]
    assert domain.constants == [("floor", "object")]
    assert problem.objects == [("a", "object"), ("b1", "box"), ("c", "object")]


def test_a_type_listed_again_under_another_parent_is_its_subtype_and_said() -> None:
    """IPC-2006 storage's shape: ``bay`` under object, then under ``spot``: a bay is a spot (VAL refuses the
    plan when the second listing is removed, so the reading matters)."""
    domain, problem = read("type-listed-twice")
    assert domain.type_parents["bay"] == "spot" and domain.more_parents == {}
    assert domain.ancestors("bay") == ("bay", "spot", "object")
    assert domain.warnings == [
        "line 6: type 'bay' is listed under more than one parent ('object', 'spot'); read as a subtype of 'spot', "
        "as VAL and Fast Downward do"
    ]


def test_a_type_under_two_parents_is_a_subtype_of_both_and_written_under_both() -> None:
    from genplan.engine.pddl import parse_domain_text
    from genplan.engine.pddl.writer import domain_to_pddl

    domain, _ = read("type-two-parents")
    assert domain.type_parents["crate"] == "load" and domain.more_parents == {"crate": ("surface",)}
    assert domain.ancestors("crate") == ("crate", "load", "surface", "object")
    assert domain.is_subtype("crate", ("surface",)) and domain.is_subtype("crate", ("load",))
    assert not domain.is_subtype("pallet", ("load",))
    assert any("type 'crate' is listed under more than one parent ('load', 'surface'); read as a subtype of "
               "'load' and of 'surface'" in w for w in domain.warnings)
    written = domain_to_pddl(domain)
    assert "crate - load" in written and "crate - surface" in written  # the form VAL and Fast Downward read
    again = parse_domain_text(written, "written")
    assert again.type_parents == domain.type_parents and again.more_parents == domain.more_parents


def test_a_cycle_through_a_second_parent_is_refused_at_its_line() -> None:
    from genplan.engine.pddl import PddlError, parse_domain_text

    text = "(define (domain loop)\n (:types a - b\n b - c\n c - a)\n (:predicates (p ?x - a)))"
    with pytest.raises(PddlError, match="is its own supertype"):
        parse_domain_text(text, "loop.pddl")
    text = "(define (domain loop)\n (:types a - b\n b - c\n b - a)\n (:predicates (p ?x - a)))"
    with pytest.raises(PddlError, match="is its own supertype"):
        parse_domain_text(text, "loop.pddl")


# ------------------------------------------------------------------ unsupported constructs

UNSUPPORTED_CASES = [
    ("numeric-precondition-domain.pddl", 5, "numeric fluents (':functions')"),
    ("numeric-comparison-domain.pddl", 7, "numeric comparisons ('>=')"),
    ("durative-domain.pddl", 4, "durative actions"),
    ("preferences-problem.pddl", 6, "preferences ('preference')"),
    ("timed-initial-literal-problem.pddl", 5, "timed initial literals"),
    ("numeric-metric-problem.pddl", 7, "plan metrics other than '(total-cost)'"),
    ("constraints-problem.pddl", 6, "constraints"),
]


def test_every_unsupported_file_is_a_case() -> None:
    files = {p.name for p in UNSUPPORTED.glob("*.pddl")} - {"domain.pddl"}
    assert files == {name for name, _, _ in UNSUPPORTED_CASES}


@pytest.mark.parametrize(("file_name", "line", "construct"), UNSUPPORTED_CASES)
def test_unsupported_constructs_get_one_line_naming_construct_and_place(file_name: str, line: int, construct: str) -> None:
    path = UNSUPPORTED / file_name
    with pytest.raises(UnsupportedPddlError) as info:
        if file_name.endswith("-domain.pddl"):
            load_domain(path)
        else:
            load_problem(path, load_domain(UNSUPPORTED / "domain.pddl"))
    message = str(info.value)
    assert "\n" not in message and info.value.line == line
    assert message.startswith(f"{path}:{line}: unsupported PDDL construct: {construct}"), message
    assert re.search(rf"\bline {line}\b", path.read_text().splitlines()[0]), "the file's comment names the line"
