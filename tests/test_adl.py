"""The ADL subset (docs/pddl.md): reading, validation with feedback, the built-in search, Fast Downward's input,
the Python encoding and the plan stepper, on the small tasks of tests/data/adl/.

Every task there is ``NAME-domain.pddl`` / ``NAME-problem.pddl`` / ``NAME-plan.txt`` (a valid plan). Where VAL
is at ``../shared/tools/val/validate``, every verdict of genplan's validator on the valid plans and on mutated
ones (a step dropped, two steps swapped, a step duplicated, a conditional effect that no longer fires) is
compared with VAL's; where Fast Downward is installed, the built-in search and Fast Downward agree on each task
(solvable, optimal length or cost).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from genplan.engine.feedback.plans import plan_feedback
from genplan.engine.pddl import UnsupportedPddlError, load_domain, load_problem, parse_domain_text, parse_problem_text
from genplan.engine.pddl.encoding import encode_task
from genplan.engine.pddl.model import ConditionalEffect, Implication, Junction, Quantified, Task
from genplan.engine.pddl.plans import load_plan
from genplan.engine.pddl.validate import GOAL_NOT_REACHED, PRECONDITION, PlanValidator, validate_plan
from genplan.engine.pddl.writer import domain_to_pddl, problem_to_pddl
from genplan.engine.planner import builtin_search, fast_downward_driver, run_fast_downward
from genplan.tui.plan_trace import trace_plan

ADL = Path(__file__).resolve().parent / "data" / "adl"
VAL = Path(__file__).resolve().parents[1].parent / "shared" / "tools" / "val" / "validate"
TASKS = sorted(p.name[: -len("-domain.pddl")] for p in ADL.glob("*-domain.pddl"))


def task(name: str) -> tuple[object, object, list[str]]:
    domain = load_domain(ADL / f"{name}-domain.pddl")
    problem = load_problem(ADL / f"{name}-problem.pddl", domain)
    plan = [s.raw.strip() for s in load_plan(ADL / f"{name}-plan.txt")]
    return domain, problem, plan


def test_every_task_has_its_three_files() -> None:
    assert len(TASKS) >= 10
    for name in TASKS:
        assert (ADL / f"{name}-problem.pddl").exists() and (ADL / f"{name}-plan.txt").exists(), name


# ------------------------------------------------------------------ reading


def test_conditional_quantified_effects_are_read() -> None:
    domain, _, _ = task("briefcase")
    move = domain.actions["move"]
    (effect,) = move.conditional_effects
    assert isinstance(effect, ConditionalEffect) and effect.number == 1
    assert [v.name for v in effect.variables] == ["?p"] and effect.condition.pddl() == "(in ?p)"
    assert [lit.pddl() for lit in effect.add] == ["(at ?p ?to)"] and [lit.pddl() for lit in effect.delete] == ["(at ?p ?from)"]
    assert not move.is_strips and domain.actions["put-in"].is_strips and not domain.is_strips
    # a `when` nested in a `forall` without its own variables list in the action (lamps)
    lamps, _, _ = task("lamps")
    (flip,) = lamps.actions["flip"].conditional_effects
    assert flip.condition.pddl() == "(wired ?x ?y)" and [lit.pddl() for lit in flip.add] == ["(on ?y)"]


def test_or_imply_exists_forall_and_either_are_read() -> None:
    domain, problem, _ = task("rooms")
    go = domain.actions["go"]
    assert go.parameters[0].types == ("robot", "human")  # either
    assert isinstance(go.conditions[0], Junction) and go.conditions[0].kind == "or"
    assert isinstance(go.conditions[1], Implication) and isinstance(go.conditions[1].consequent, Quantified)
    alarm = domain.actions["raise-alarm"].conditions[0]
    assert isinstance(alarm, Quantified) and alarm.kind == "forall"
    assert [c.pddl() for c in problem.goal_conditions] == [
        "(exists (?a - agent) (in ?a vault))",
        "(or (visited hall) (not (in ann lab)))",
        "(imply (alarm) (visited lab))",
    ]


def test_action_costs_are_kept() -> None:
    domain, problem, plan = task("roads")
    assert domain.action_costs and domain.warnings == []
    assert domain.actions["drive"].cost.function == "length" and domain.actions["pay-toll"].cost.value == 1
    assert problem.metric and problem.function_values[("length", "s", "t")] == 10
    result = validate_plan(domain, problem, plan)
    assert result.valid and result.cost == 5
    assert validate_plan(domain, problem, ["(pay-toll)", "(drive s t)"]).cost == 11


def test_numeric_fluents_durative_actions_and_derived_predicates_stay_refused() -> None:
    numeric = """(define (domain d) (:requirements :fluents) (:functions (fuel))
      (:action a :parameters () :precondition (> (fuel) 1) :effect (decrease (fuel) 1)))"""
    with pytest.raises(UnsupportedPddlError, match="numeric fluents"):
        parse_domain_text(numeric, "d.pddl")
    derived = """(define (domain d) (:predicates (p) (q)) (:derived (q) (p))
      (:action a :parameters () :precondition (q) :effect (p)))"""
    with pytest.raises(UnsupportedPddlError, match="derived predicates") as info:
        parse_domain_text(derived, "d.pddl")
    assert "\n" not in str(info.value)
    # a cost function used in a precondition is a numeric fluent, not an action cost
    misuse = """(define (domain d) (:requirements :action-costs) (:predicates (p)) (:functions (w) - number)
      (:action a :parameters () :precondition (> (w) 1) :effect (and (p) (increase (total-cost) (w)))))"""
    with pytest.raises(UnsupportedPddlError, match="numeric comparisons"):
        parse_domain_text(misuse, "d.pddl")


def test_undeclared_names_inside_adl_constructs_are_errors_with_a_line() -> None:
    text = (ADL / "briefcase-domain.pddl").read_text().replace("(when (in ?p)", "(when (inside ?p)")
    with pytest.raises(Exception, match="unknown predicate 'inside'") as info:
        parse_domain_text(text, "d.pddl")
    assert info.value.line == 11  # type: ignore[attr-defined]
    unbound = (ADL / "briefcase-domain.pddl").read_text().replace("(at ?p ?to)", "(at ?q ?to)")
    with pytest.raises(Exception, match=r"variable \?q is not a parameter"):
        parse_domain_text(unbound, "d.pddl")
    domain = load_domain(ADL / "briefcase-domain.pddl")
    goal = (ADL / "briefcase-problem.pddl").read_text().replace("(not (in ?p))", "(not (in ?x))")
    with pytest.raises(Exception, match=r"variable \?x in the goal is not bound"):
        parse_problem_text(goal, domain, "p.pddl")


# ------------------------------------------------------------------ validation and feedback


@pytest.mark.parametrize("name", TASKS)
def test_valid_plans_are_valid(name: str) -> None:
    domain, problem, plan = task(name)
    result = validate_plan(domain, problem, plan)
    assert result.valid, plan_feedback(result, domain)


def test_strips_domains_keep_the_compiled_fast_path_and_adl_goes_step_by_step() -> None:
    strips, problem, _ = task("trucks-or")  # STRIPS domain, ADL goal
    assert PlanValidator(strips, problem)._fast is None
    courier = load_domain(ADL.parent / "broken" / "domain.pddl")
    assert courier.is_strips
    assert PlanValidator(courier, load_problem(ADL.parent / "broken" / "problem.pddl", courier))._fast is not None
    briefcase, problem, _ = task("briefcase")
    assert PlanValidator(briefcase, problem)._fast is None


def test_feedback_names_the_failing_forall_of_the_goal_and_the_when_that_did_not_fire() -> None:
    domain, problem, _ = task("briefcase")
    # (put-in paper home) left out: the briefcase's conditional effect does not move the paper
    plan = ["(put-in dict home)", "(move home office)", "(take-out dict)", "(move office home)"]
    result = validate_plan(domain, problem, plan)
    assert result.kind == GOAL_NOT_REACHED and result.goal_missing == ["(at paper office)"]
    message = plan_feedback(result, domain)
    assert message.startswith("The generated plan does not reach the goal:")
    assert ("the conditional effect (when (in ?p) (and (at ?p office) (not (at ?p home)))) of (move home office) at "
            "step 1 did not fire for ?p = paper because it is not the case that (in paper)") in message
    # the dict left in the briefcase: the goal's forall names the object that breaks it
    result = validate_plan(domain, problem, ["(put-in dict home)", "(put-in paper home)", "(move home office)",
                                             "(take-out paper)", "(move office home)"])
    message = plan_feedback(result, domain)
    assert ("the condition (forall (?p - portable) (not (in ?p))) is false: for ?p = dict, (in dict) is true"
            in message)


def test_feedback_names_the_failing_compound_precondition_at_its_step() -> None:
    domain, problem, _ = task("rooms")
    result = validate_plan(domain, problem, ["(go ann lab vault)"])
    assert result.kind == PRECONDITION and result.step == 0
    assert plan_feedback(result, domain) == (
        "The action (go ann lab vault) at step 0 is not executable because the preconditions of the action are not "
        "satisfied: At that specific step – the condition (imply (locked vault) (exists (?k - key) (and (key-for ?k "
        "vault) (holding ann ?k)))) is false: (locked vault) holds but no object for ?k makes (and (key-for ?k vault) "
        "(holding ann ?k)) true"
    )
    result = validate_plan(domain, problem, ["(go ann lab lab)"])
    assert "the condition (or (door lab lab) (door lab lab)) is false: none of" in plan_feedback(result, domain)
    assert "(Make (or (door lab lab) (door lab lab)) true)" in plan_feedback(result, domain, "silver")
    # either: a key is neither a robot nor a human
    result = validate_plan(domain, problem, ["(go k1 lab vault)"])
    assert plan_feedback(result, domain) == (
        "The action (go k1 lab vault) at step 0 is not executable because k1 is of type key but the parameter ?a of "
        "go needs an object of type robot or human."
    )
    # universal precondition: a robot is in the locked vault... not yet; the alarm needs no one in locked rooms
    result = validate_plan(domain, problem, ["(take ann k1 lab)", "(go ann lab vault)", "(raise-alarm ann)"])
    assert ("the condition (forall (?r - room) (imply (locked ?r) (not (exists (?a - agent) (in ?a ?r))))) is false: "
            "for ?r = vault, (locked vault) holds but (exists (?a - agent) (in ?a vault)) holds") in plan_feedback(result, domain)


def test_the_plan_stepper_shows_fired_effects_and_goal_conditions() -> None:
    domain, problem, plan = task("briefcase")
    trace = trace_plan(domain, problem, plan)
    assert trace.result.valid
    assert trace.steps[2].fired == [
        "when (in dict) (?p = dict): (at dict office) (not (at dict home))",
        "when (in paper) (?p = paper): (at paper office) (not (at paper home))",
    ]
    assert ("(forall (?p - portable) (not (in ?p)))", True) in trace.goal_status()
    assert ("(forall (?p - portable) (not (in ?p)))", False) in trace.goal_status(0)
    failing = trace_plan(*task("rooms")[:2], ["(go ann lab vault)"])
    assert failing.steps[0].unsatisfied[0].startswith("(imply (locked vault)")


def test_the_python_encoding_carries_compound_goals() -> None:
    _, problem, _ = task("briefcase")
    encoded = encode_task(problem, typed=True)
    assert ("forall", (("?p", "portable"),), ("not", ("in", "?p"))) in encoded.goal
    _, rooms, _ = task("rooms")
    assert ("or", ("visited", "hall"), ("not", ("in", "ann", "lab"))) in encode_task(rooms, typed=False).goal


@pytest.mark.parametrize("name", TASKS)
def test_written_pddl_reads_back_as_the_same_task(name: str) -> None:
    domain, problem, _ = task(name)
    written = parse_domain_text(domain_to_pddl(domain), "written.pddl")
    again = parse_problem_text(problem_to_pddl(problem, domain.typed), written, "written-problem.pddl")
    assert again.goal_conditions == problem.goal_conditions and again.function_values == problem.function_values
    for action in domain.actions.values():
        other = written.actions[action.name]
        assert (other.conditions, other.conditional_effects, other.cost) == (
            action.conditions, action.conditional_effects, action.cost), action.name
        if all(len(p.types) == 1 for p in action.parameters):  # either is written as a new type for FD
            assert other == action


# ------------------------------------------------------------------ VAL conformance


def mutations(plan: list[str]) -> list[tuple[str, list[str]]]:
    out = [("valid", plan)]
    out += [(f"drop {i}", plan[:i] + plan[i + 1:]) for i in range(len(plan))]
    out += [(f"swap {i}", plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2:]) for i in range(len(plan) - 1)]
    out += [(f"duplicate {i}", plan[: i + 1] + plan[i:]) for i in range(len(plan))]
    return out


# plans where a conditional effect no longer fires (the rest of the plan unchanged)
NOT_FIRING = {
    "briefcase": ["(put-in dict home)", "(move home office)", "(take-out dict)", "(move office home)"],
    "courier-when": ["(drive a b)", "(drive b c)"],  # checked against a problem without (lit a) below
    "lamps": ["(flip l1)", "(flip l3)"],
}


def val_says_valid(domain: Path, problem: Path, plan: list[str], tmp_path: Path, tag: str) -> bool:
    plan_file = tmp_path / f"{tag.replace(' ', '-')}.txt"
    plan_file.write_text("".join(step + "\n" for step in plan))
    done = subprocess.run([str(VAL), str(domain), str(problem), str(plan_file)], capture_output=True, text=True,
                          timeout=60, check=False)
    return "Plan valid" in done.stdout


@pytest.mark.parametrize("name", TASKS)
def test_validator_verdicts_equal_vals_on_valid_and_mutated_plans(name: str, tmp_path: Path) -> None:
    if not VAL.exists():
        pytest.skip(f"VAL not found at {VAL} (../shared beside the checkout)")
    domain, problem, plan = task(name)
    domain_file, problem_file = ADL / f"{name}-domain.pddl", ADL / f"{name}-problem.pddl"
    cases = mutations(plan)
    if name in NOT_FIRING:
        cases.append(("not firing", NOT_FIRING[name]))
    invalid = 0
    for tag, steps in cases:
        ours = validate_plan(domain, problem, steps)
        assert ours.valid == val_says_valid(domain_file, problem_file, steps, tmp_path, tag), (tag, steps)
        if not ours.valid:
            invalid += 1
            message = plan_feedback(ours, domain)
            named = [*ours.unsatisfied, *ours.unsatisfied_static, *ours.goal_missing, *ours.goal_violated,
                     *(c for c, _ in ours.unsatisfied_conditions), *(c for c, _ in ours.goal_unsatisfied)]
            assert named and all(n in message for n in named), (tag, message)
    assert invalid or name == "trucks-or"


def test_a_conditional_effect_that_no_longer_fires_val_agrees(tmp_path: Path) -> None:
    if not VAL.exists():
        pytest.skip(f"VAL not found at {VAL} (../shared beside the checkout)")
    domain = load_domain(ADL / "courier-when-domain.pddl")
    text = (ADL / "courier-when-problem.pddl").read_text().replace("(lit a)", "")
    problem_file = tmp_path / "dark.pddl"
    problem_file.write_text(text)
    problem = load_problem(problem_file, domain)
    plan = NOT_FIRING["courier-when"]
    ours = validate_plan(domain, problem, plan)
    assert not ours.valid and not val_says_valid(ADL / "courier-when-domain.pddl", problem_file, plan, tmp_path, "dark")
    assert ours.goal_missing == ["(lit c)"]
    assert ("the conditional effect (when (lit b) (lit c)) of (drive b c) at step 1 did not fire because it is not "
            "the case that (lit b)") in plan_feedback(ours, domain)


# ------------------------------------------------------------------ search: built-in against Fast Downward


def length_and_cost(domain: object, problem: object, plan: list[str]) -> tuple[int, float | None]:
    result = validate_plan(domain, problem, plan)  # type: ignore[arg-type]
    assert result.valid, plan
    return len(plan), result.cost


# optimal plan length (cost where the task minimizes total-cost) of each task
OPTIMAL = {"briefcase": 6, "courier-exists": 1, "courier-forall": 1, "courier-goal": 3, "courier-or": 2,
           "courier-when": 2, "lamps": 2, "roads": 5, "rooms": 2, "trucks-or": 0}


@pytest.mark.parametrize("name", TASKS)
def test_builtin_search_finds_optimal_plans(name: str) -> None:
    domain, problem, _ = task(name)
    result = builtin_search(domain, problem, optimal=True, timeout=30)
    assert result.solved, result.summary()
    length, cost = length_and_cost(domain, problem, result.plan or [])
    assert (cost if cost is not None else length) == OPTIMAL[name]
    satisficing = builtin_search(domain, problem, optimal=False, timeout=30)
    assert satisficing.solved and validate_plan(domain, problem, satisficing.plan or []).valid


@pytest.mark.parametrize("name", TASKS)
def test_fast_downward_agrees_with_the_builtin_search(name: str, tmp_path: Path) -> None:
    driver = fast_downward_driver()
    if driver is None:
        pytest.skip("Fast Downward is not installed (pip install up-fast-downward)")
    domain, problem, _ = task(name)
    ours = builtin_search(domain, problem, optimal=True, timeout=30)
    theirs = run_fast_downward(driver, domain, problem, True, 30, 2048)
    assert theirs.solved, theirs.summary()
    assert length_and_cost(domain, problem, theirs.plan or []) == length_and_cost(domain, problem, ours.plan or [])
    if not Task(domain, problem).uses_costs:
        assert len(theirs.plan or []) == OPTIMAL[name]
    if VAL.exists():
        assert val_says_valid(ADL / f"{name}-domain.pddl", ADL / f"{name}-problem.pddl", theirs.plan or [], tmp_path, name)
    satisficing = run_fast_downward(driver, domain, problem, False, 30, 2048)
    assert satisficing.solved and validate_plan(domain, problem, satisficing.plan or []).valid


def test_unsolvable_adl_task_is_unsolvable_for_both(tmp_path: Path) -> None:
    domain = load_domain(ADL / "courier-forall-domain.pddl")
    text = (ADL / "courier-forall-problem.pddl").read_text().replace("(open b)", "")
    problem = parse_problem_text(text, domain, "closed.pddl")
    assert builtin_search(domain, problem, optimal=True, timeout=10).status == "unsolvable"
    driver = fast_downward_driver()
    if driver is not None:
        assert run_fast_downward(driver, domain, problem, True, 30, 2048).status == "unsolvable"


def test_renamed_variants_keep_the_adl_parts() -> None:
    """Costumed/anonymized variants (engine/variants) rename conditions, conditional effects, costs and goals."""
    from genplan.engine.variants.renaming import Renaming, rename_domain, rename_plan, rename_problem

    domain, problem, plan = task("briefcase")
    r = Renaming(actions={"move": "carry"}, predicates={"in": "inside", "at": "where"}, types={"portable": "item"},
                 objects={"dict": "book"}, variables={"p": "thing"})
    renamed, renamed_problem = rename_domain(domain, r), rename_problem(problem, r)
    (effect,) = renamed.actions["carry"].conditional_effects
    assert effect.pddl() == "(when (inside ?thing) (and (where ?thing ?to) (not (where ?thing ?from))))"
    assert [c.pddl() for c in renamed_problem.goal_conditions] == ["(forall (?thing - item) (not (inside ?thing)))"]
    assert validate_plan(renamed, renamed_problem, rename_plan(plan, r)).valid
    broken = rename_plan(["(put-in dict home)", "(move home office)", "(take-out dict)", "(move office home)"], r)
    message = plan_feedback(validate_plan(renamed, renamed_problem, broken), renamed)
    assert "(when (inside ?thing)" in message and "(in ?p)" not in message
    roads, roads_problem, roads_plan = task("roads")
    r = Renaming(predicates={"at": "located"}, objects={"s": "start"})
    result = validate_plan(rename_domain(roads, r), rename_problem(roads_problem, r), rename_plan(roads_plan, r))
    assert result.valid and result.cost == 5


def test_cli_show_validate_and_plan_on_adl_files(tmp_path: Path) -> None:
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from genplan.cli.main import main

    def cli(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(argv))
        return code, out.getvalue(), err.getvalue()

    d, p = str(ADL / "briefcase-domain.pddl"), str(ADL / "briefcase-problem.pddl")
    code, out, _ = cli("show", d, p)
    assert code == 0 and "('forall', (('?p', 'portable'),), ('not', ('in', '?p')))" in out
    plan = tmp_path / "plan.txt"
    plan.write_text("(put-in dict home)\n(move home office)\n(take-out dict)\n(move office home)\n")
    code, out, _ = cli("validate", d, p, str(plan))
    assert code == 1 and "did not fire for ?p = paper" in out
    code, out, _ = cli("validate", str(ADL / "roads-domain.pddl"), str(ADL / "roads-problem.pddl"),
                       str(ADL / "roads-plan.txt"))
    assert code == 0 and out.splitlines() == ["The plan is valid.", "Plan cost: 5"]
    code, out, err = cli("plan", str(ADL / "roads-domain.pddl"), str(ADL / "roads-problem.pddl"), "--planner", "builtin")
    assert code == 0 and "plan cost: 5" in err and len(out.splitlines()) == 5
