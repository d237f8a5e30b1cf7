"""Fast Downward's own reason when it refuses a task, names it reserves, and the PDDL 1.0 forms all refuse.

The reasons are taken from real runs of the installed driver (skipped without Fast Downward): the translator's
error lines and the search's, never the driver's closing "INFO Planner time" line. VAL
(``../shared/tools/val/validate``, skipped when absent) backs what genplan's messages claim about it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from genplan.engine import planner
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import ERROR, SOLVED, fast_downward_driver, fast_downward_reason, solve

DATA = Path(__file__).resolve().parent / "data"
RESERVED = DATA / "reserved"
BROKEN = DATA / "broken"
VAL = Path(__file__).resolve().parents[1].parent / "shared" / "tools" / "val" / "validate"
DRIVER = fast_downward_driver()
needs_fast_downward = pytest.mark.skipif(DRIVER is None, reason="Fast Downward not installed (up-fast-downward)")
needs_val = pytest.mark.skipif(not VAL.exists(), reason=f"VAL not found at {VAL} (../shared beside the checkout)")
NUMBER = (RESERVED / "number-domain.pddl", RESERVED / "number-problem.pddl")


def fast_downward(domain: Path, problem: Path, cwd: Path, search: str = "astar(blind())") -> tuple[int, str]:
    assert DRIVER is not None
    done = subprocess.run([sys.executable, str(DRIVER), "--plan-file", "plan.txt", str(domain), str(problem),
                           "--search", search], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120, check=False)  # one stream, in order, as genplan reads it
    return done.returncode, done.stdout


def val(domain: Path, problem: Path, plan: Path) -> str:
    return subprocess.run([str(VAL), str(domain), str(problem), str(plan)], capture_output=True, text=True,
                          timeout=60, check=False).stdout


@needs_fast_downward
def test_the_translators_reason_for_a_reserved_type_name(tmp_path: Path) -> None:
    code, output = fast_downward(*NUMBER, tmp_path)
    assert code == 31 and output.strip().splitlines()[-1].startswith("INFO")  # what genplan used to show
    assert fast_downward_reason(output) == (
        'Encountered declaration of type "number", which is a reserved type that cannot be redeclared.')


@needs_fast_downward
def test_the_translators_reason_for_an_undefined_predicate_keeps_both_its_lines(tmp_path: Path) -> None:
    domain = tmp_path / "domain.pddl"
    domain.write_text((BROKEN / "domain.pddl").read_text().replace("(in ?x ?v)))", "(inside ?x ?v)))"))
    code, output = fast_downward(domain, BROKEN / "problem.pddl", tmp_path)
    assert code == 31
    assert fast_downward_reason(output) == "Undefined predicate Got: inside"


@needs_fast_downward
def test_the_searchs_reason_without_its_progress_lines(tmp_path: Path) -> None:
    code, output = fast_downward(BROKEN / "domain.pddl", BROKEN / "problem.pddl", tmp_path, "astar(no_such())")
    assert code != 0 and "reading input" in output
    assert fast_downward_reason(output) == "No feature defined for FunctionCallNode 'no_such'. Usage error occurred."


@needs_fast_downward
def test_a_refusal_reaches_the_user_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without genplan's renaming, Fast Downward refuses the promela shape: the message carries why."""
    monkeypatch.setattr(planner, "reserved_types_renamed", lambda domain, texts: (texts, []))
    domain = load_domain(NUMBER[0])
    result = solve(domain, load_problem(NUMBER[1], domain), timeout=60, planner="fast-downward")
    assert result.status == ERROR
    assert result.message == ('Fast Downward failed (exit 31): Encountered declaration of type "number", which is '
                              "a reserved type that cannot be redeclared.")


def test_the_reader_warns_about_a_name_fast_downward_reserves() -> None:
    domain = load_domain(NUMBER[0])
    assert domain.warnings == [
        "line 5: type 'number' is a name Fast Downward reserves (for numbers; VAL refuses it too): genplan reads "
        "it, and renames it in the files it gives Fast Downward"
    ]


@needs_fast_downward
@pytest.mark.parametrize("planner_name", ["fast-downward", "builtin"])
def test_genplan_plans_a_domain_with_a_reserved_type_name(planner_name: str) -> None:
    domain = load_domain(NUMBER[0])
    problem = load_problem(NUMBER[1], domain)
    result = solve(domain, problem, timeout=60, planner=planner_name)
    assert result.status == SOLVED and result.plan is not None and len(result.plan) == 3, result
    assert validate_plan(domain, problem, result.plan).valid
    if planner_name == "fast-downward":
        assert "type 'number' renamed 'number-type' (a name Fast Downward reserves)" in result.rewrites


@needs_val
def test_val_refuses_the_reserved_name_and_accepts_genplans_plan_once_renamed(tmp_path: Path) -> None:
    domain = load_domain(NUMBER[0])
    problem = load_problem(NUMBER[1], domain)
    result = solve(domain, problem, timeout=60, planner="builtin")
    assert result.plan is not None
    plan = tmp_path / "plan.txt"
    plan.write_text("\n".join(result.plan) + "\n")
    assert "Plan valid" not in val(*NUMBER, plan)
    renamed = []
    for path in NUMBER:
        copy = tmp_path / path.name
        copy.write_text(re.sub(r"\bnumber\b", "digit", path.read_text()))
        renamed.append(copy)
    assert "Plan valid" in val(renamed[0], renamed[1], plan)


# PDDL 1.0 forms genplan refuses at their own line (tests/test_bad_input.py): its messages say that VAL and Fast
# Downward refuse them too, which these runs check.
OLD_FORMS = [
    ("in-package", BROKEN / "domain_in_package.pddl", BROKEN / "problem.pddl"),
    ("vars", BROKEN / "domain_pddl1_vars.pddl", BROKEN / "problem.pddl"),
    ("length", BROKEN / "domain.pddl", BROKEN / "problem_pddl1_length.pddl"),
]


@needs_val
@pytest.mark.parametrize(("form", "domain", "problem"), OLD_FORMS, ids=[f[0] for f in OLD_FORMS])
def test_val_refuses_the_pddl1_forms_too(form: str, domain: Path, problem: Path) -> None:
    assert "Plan valid" not in val(domain, problem, BROKEN / "plan.txt")
    assert "Plan valid" in val(BROKEN / "domain.pddl", BROKEN / "problem.pddl", BROKEN / "plan.txt")


@needs_fast_downward
@pytest.mark.parametrize(("form", "domain", "problem"), OLD_FORMS, ids=[f[0] for f in OLD_FORMS])
def test_fast_downward_refuses_the_pddl1_forms_too(form: str, domain: Path, problem: Path, tmp_path: Path) -> None:
    code, output = fast_downward(domain, problem, tmp_path)
    assert code == 31, output[-500:]
    assert fast_downward_reason(output) != "no reason in its output"
