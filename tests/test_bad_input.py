"""Bad input: every broken domain, problem and plan gets one line naming the file (and line), exit code 2.

The corpus is `tests/data/broken/` (one problem per file, see its README). Every case runs the CLI's
`main()` in this process (a separate process spends about a second importing, which for ~50 cases would
dominate the suite), and a representative subset also runs as a real `python -m genplan.cli.main` process,
started together in one fixture, to check real exit codes and that no traceback reaches the user.
The positive cases (legal PDDL that the `pddl` 0.5.1 package alone would mishandle) are written to a
temporary directory by the tests themselves.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from genplan.cli.main import main as cli_main
from genplan.engine.pddl import PddlError, load_domain, load_problem, parse_domain_text, parse_problem_text
from genplan.engine.pddl.encoding import encode_task
from genplan.engine.pddl.validate import validate_plan

BROKEN = Path(__file__).resolve().parent / "data" / "broken"
EXIT_BAD_INPUT = 2


@dataclass(frozen=True)
class Case:
    """One CLI run on broken input: the file the message must name, its line (if any), and a key phrase."""

    id: str
    argv: tuple[str, ...]
    names: str
    line: int | None
    phrase: str


def _show(domain: str, problem: str = "problem.pddl") -> tuple[str, ...]:
    return ("show", domain, problem)


def _validate(domain: str = "domain.pddl", problem: str = "problem.pddl", plan: str = "plan.txt") -> tuple[str, ...]:
    return ("validate", domain, problem, plan)


def _plan(domain: str = "domain.pddl", problem: str = "problem.pddl") -> tuple[str, ...]:
    return ("plan", "--planner", "builtin", domain, problem)


WHAT_TO_DO = "compile the construct away"

CASES = [
    # ---- domains: syntax and semantics
    Case("domain-unclosed-paren", _show("domain_unclosed_paren.pddl"), "domain_unclosed_paren.pddl", 1, "is never closed"),
    Case("domain-extra-close-paren", _validate("domain_extra_close_paren.pddl"), "domain_extra_close_paren.pddl", 7, "')' without a matching '('"),
    Case("domain-unknown-predicate", _plan("domain_unknown_predicate.pddl"), "domain_unknown_predicate.pddl", 6, "unknown predicate 'street'"),
    Case("domain-wrong-arity", _show("domain_wrong_arity.pddl"), "domain_wrong_arity.pddl", 8, "'at' takes 1 argument(s) but 2 are given"),
    Case("domain-undeclared-type", _validate("domain_undeclared_type.pddl"), "domain_undeclared_type.pddl", 5, "undeclared type 'parcel'"),
    Case("domain-either-parent-type", _plan("domain_either_parent_type.pddl"), "domain_either_parent_type.pddl", 4, "a type's parent is one type name"),
    Case("domain-undeclared-parameter-type", _show("domain_undeclared_parameter_type.pddl"), "domain_undeclared_parameter_type.pddl", 7, "undeclared type 'vehicle' of parameter ?v"),
    Case("domain-unknown-constant", _validate("domain_unknown_constant.pddl"), "domain_unknown_constant.pddl", 7, "unknown constant 'home'"),
    Case("domain-syntax-error", _show("domain_syntax_error.pddl"), "domain_syntax_error.pddl", 8, "unexpected ':effect'"),
    Case("domain-duplicate-predicate", _validate("domain_duplicate_predicate.pddl"), "domain_duplicate_predicate.pddl", 6, "predicate 'at' is declared twice"),
    Case("domain-repeated-parameter", _plan("domain_repeated_parameter.pddl"), "domain_repeated_parameter.pddl", 6, "parameter ?from of action 'drive' is declared twice"),
    Case("domain-empty", _show("empty.pddl"), "empty.pddl", None, "the file is empty"),
    Case("domain-only-comment", _plan("comment_only.pddl"), "comment_only.pddl", None, "the file is empty"),
    Case("domain-not-utf8", _validate("not_utf8.pddl"), "not_utf8.pddl", None, "not a UTF-8 text file"),
    Case("problem-given-as-domain", _show("problem.pddl"), "problem.pddl", 2, "this is a problem file, expected a domain file"),
    # ---- domains: unsupported constructs, refused with what to do
    Case("durative-action", _validate("domain_durative_action.pddl"), "domain_durative_action.pddl", 4, "durative actions"),
    Case("derived", _plan("domain_derived.pddl"), "domain_derived.pddl", 4, "derived predicates"),
    Case("functions", _show("domain_numeric_fluent.pddl"), "domain_numeric_fluent.pddl", 4, "numeric fluents (':functions')"),
    Case("numeric-requirement", _validate("domain_numeric_requirement.pddl"), "domain_numeric_requirement.pddl", 3, "numeric fluents"),
    # ---- problems
    Case("problem-unclosed-paren", _validate(problem="problem_unclosed_paren.pddl"), "problem_unclosed_paren.pddl", 1, "is never closed"),
    Case("init-unknown-predicate", _show("domain.pddl", "problem_unknown_predicate_init.pddl"), "problem_unknown_predicate_init.pddl", 6, "unknown predicate 'street' in (street a b) in the init"),
    Case("goal-unknown-predicate", _plan(problem="problem_unknown_predicate_goal.pddl"), "problem_unknown_predicate_goal.pddl", 7, "unknown predicate 'delivered' in (delivered p1) in the goal"),
    Case("init-wrong-arity", _validate(problem="problem_wrong_arity.pddl"), "problem_wrong_arity.pddl", 6, "'road' takes 2 argument(s) but (road a) in the init has 1"),
    Case("init-undeclared-object", _show("domain.pddl", "problem_undeclared_object.pddl"), "problem_undeclared_object.pddl", 6, "undeclared object 'd'"),
    Case("goal-undeclared-object", _plan(problem="problem_undeclared_object_goal.pddl"), "problem_undeclared_object_goal.pddl", 6, "undeclared object 'p9' in (parcel-at p9 b) in the goal"),
    Case("init-wrong-type", _validate(problem="problem_wrong_type.pddl"), "problem_wrong_type.pddl", 5, "object 'a' has type 'place' but 'parcel-at' expects parcel"),
    Case("object-undeclared-type", _show("domain.pddl", "problem_undeclared_type.pddl"), "problem_undeclared_type.pddl", 5, "undeclared type 'box'"),
    Case("object-declared-twice", _plan(problem="problem_duplicate_object.pddl"), "problem_duplicate_object.pddl", 5, "object 'a' is declared twice"),
    Case("missing-goal", _validate(problem="problem_missing_goal.pddl"), "problem_missing_goal.pddl", 1, "missing '(:goal ...)'"),
    Case("domain-given-as-problem", _validate(problem="domain.pddl"), "domain.pddl", 2, "this is a domain file, expected a problem file"),
    # ---- PDDL 1.0 forms (the IPC-1998 files), at their own line with what to do (VAL and Fast Downward refuse
    # them too: tests/test_fast_downward_reasons.py)
    Case("in-package-first", _show("domain_in_package.pddl"), "domain_in_package.pddl", 1, "'(in-package ...)' before '(define ...)' is Common Lisp, not PDDL (VAL and Fast Downward refuse it too): delete that form"),
    Case("pddl1-vars", _plan("domain_pddl1_vars.pddl"), "domain_pddl1_vars.pddl", 9, "move its variables into ':parameters'"),
    Case("pddl1-length", _validate(problem="problem_pddl1_length.pddl"), "problem_pddl1_length.pddl", 10, "'(:length ...)' is PDDL 1.0 (1998), a hint for planners that later PDDL dropped: delete it"),
    # ---- plans
    Case("plan-without-parentheses", _validate(plan="plan_no_parentheses.txt"), "plan_no_parentheses.txt", 2, "expected '(action arg ...)' but found 'drive t1 a b'"),
    Case("plan-unbalanced", _validate(plan="plan_unbalanced.txt"), "plan_unbalanced.txt", 2, "'(drive t1 a b'"),
    Case("plan-nested", _validate(plan="plan_nested.txt"), "plan_nested.txt", 2, "nested parentheses"),
    Case("plan-not-utf8", _validate(plan="plan_not_utf8.txt"), "plan_not_utf8.txt", None, "UTF-8"),
    # ---- missing files and directories
    Case("missing-domain", _show("no_such_domain.pddl"), "no_such_domain.pddl", None, "no such file"),
    Case("missing-problem", _plan(problem="no_such_problem.pddl"), "no_such_problem.pddl", None, "no such file"),
    Case("missing-plan", _validate(plan="no_such_plan.txt"), "no_such_plan.txt", None, "no such file"),
    # a directory as DOMAIN is a domain source (see test_domain_sources.py); one that is none says what it expected
    Case("directory-as-domain", _plan(".."), "..", None, "missing domain.pddl (expected a domain directory"),
    Case("directory-as-problem", _show("domain.pddl", "."), ".", None, "is a directory"),
    Case("directory-as-plan", _validate(plan="."), ".", None, "is a directory"),
]

# Each unsupported construct also goes through the two other commands: the refusal is the loader's, not a command's.
for _file, _line, _phrase in [
    ("domain_derived.pddl", 4, "derived predicates"),
    ("domain_durative_action.pddl", 4, "durative actions"),
]:
    CASES += [
        Case(f"{_file}-via-{argv[0]}", argv, _file, _line, _phrase)
        for argv in (_show(_file), _validate(_file), _plan(_file))
    ]

# These also run as real processes: each command, each kind of file, parse errors and missing files.
IN_A_PROCESS = ["domain-unclosed-paren", "derived", "init-wrong-type", "goal-undeclared-object", "plan-without-parentheses", "missing-plan"]


@dataclass(frozen=True)
class Outcome:
    returncode: int
    stdout: str
    stderr: str


def run_cli(argv: tuple[str, ...] | list[str], cwd: Path) -> Outcome:
    """`python -m genplan.cli.main ARGV` as a separate process."""
    proc = subprocess.run(
        [sys.executable, "-m", "genplan.cli.main", *argv], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    return Outcome(proc.returncode, proc.stdout, proc.stderr)


def run_main(argv: tuple[str, ...] | list[str], cwd: Path) -> Outcome:
    """The CLI's `main(argv)` in this process, with the working directory and output streams of a real run."""
    out, err = io.StringIO(), io.StringIO()
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli_main(list(argv))
            except SystemExit as exc:  # argparse errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(previous)
    return Outcome(code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def process_results() -> dict[str, Outcome]:
    by_id = {case.id: case for case in CASES}
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {case_id: pool.submit(run_cli, by_id[case_id].argv, BROKEN) for case_id in IN_A_PROCESS}
        futures["good-task"] = pool.submit(run_cli, _validate(), BROKEN)
        return {case_id: future.result() for case_id, future in futures.items()}


def test_the_corpus_task_itself_is_fine(process_results: dict[str, Outcome]) -> None:
    """The broken problems and plans differ from a good task in one point only; that task must pass."""
    for result in (process_results["good-task"], run_main(_validate(), BROKEN)):
        assert (result.returncode, result.stdout.strip(), result.stderr) == (0, "The plan is valid.", "")


def test_every_broken_file_is_used() -> None:
    used = {arg for case in CASES for arg in case.argv}
    corpus = {p.name for p in BROKEN.iterdir() if p.suffix in (".pddl", ".txt")}
    assert corpus <= used


def check_one_line(case: Case, result: Outcome) -> None:
    assert "Traceback" not in result.stderr + result.stdout
    assert result.returncode == EXIT_BAD_INPUT, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    where = case.names if case.line is None else f"{case.names}:{case.line}"
    assert line.startswith(f"genplan: {where}: "), line
    assert case.phrase in line, line


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_broken_input_gets_one_line(case: Case) -> None:
    check_one_line(case, run_main(case.argv, BROKEN))


@pytest.mark.parametrize("case_id", IN_A_PROCESS)
def test_broken_input_gets_one_line_in_a_real_process(case_id: str, process_results: dict[str, Outcome]) -> None:
    check_one_line(next(c for c in CASES if c.id == case_id), process_results[case_id])


def test_unsupported_constructs_say_what_to_do() -> None:
    for case in CASES:
        if case.id in ("when", "forall", "exists", "or", "durative-action", "derived", "functions", "numeric-requirement", "goal-forall"):
            message = run_main(case.argv, BROKEN).stderr
            assert "unsupported PDDL construct" in message and WHAT_TO_DO in message, message


def test_syntax_errors_of_the_package_carry_the_file_line() -> None:
    """Lark's own 'line 1, column N' refers to our re-rendered text; the message must use the file's line."""
    with pytest.raises(PddlError) as info:
        load_domain(BROKEN / "domain_syntax_error.pddl")
    assert info.value.line == 8
    assert "column" not in str(info.value)


# ------------------------------------------------------------------ positive cases

NO_PRECONDITION_DOMAIN = """\
(define (domain switches)
  (:requirements :strips)
  (:predicates (on ?s) (off ?s))
  (:action switch-on
    :parameters (?s)
    :effect (and (on ?s) (not (off ?s))))
  (:action switch-off
    :parameters (?s)
    :precondition (on ?s)
    :effect (and (off ?s) (not (on ?s)))))
"""
NO_PRECONDITION_PROBLEM = """\
(define (problem switches-1)
  (:domain switches)
  (:objects s1 s2)
  (:init (off s1) (off s2))
  (:goal (and (on s1) (on s2))))
"""
OBJECT_TYPE_DOMAIN = """\
(define (domain boxes)
  (:requirements :strips :typing)
  (:predicates (in ?x - object ?y - object) (free ?x - object))
  (:action put
    :parameters (?x - object ?y - object)
    :precondition (and (free ?x) (free ?y))
    :effect (and (in ?x ?y) (not (free ?x)))))
"""
OBJECT_TYPE_PROBLEM = """\
(define (problem boxes-1)
  (:domain boxes)
  (:objects b1 b2 - object)
  (:init (free b1) (free b2))
  (:goal (in b1 b2)))
"""
COST_DOMAIN = """\
(define (domain roads)
  (:requirements :strips :typing :action-costs)
  (:types place)
  (:predicates (at ?p - place) (road ?from ?to - place))
  (:functions (total-cost) - number)
  (:action drive
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to) (increase (total-cost) 3))))
"""
COST_PROBLEM = """\
(define (problem roads-1)
  (:domain roads)
  (:objects a b c - place)
  (:init (= (total-cost) 0) (at a) (road a b) (road b c))
  (:goal (at c))
  (:metric minimize (total-cost)))
"""
ORDER_DOMAIN = """\
(define (domain order)
  (:requirements :strips)
  (:predicates (p ?x) (q ?x ?y) (done ?x))
  (:action finish
    :parameters (?x ?y)
    :precondition (and (p ?x) (q ?x ?y))
    :effect (done ?x)))
"""
ORDER_PROBLEM = """\
(define (problem order-1)
  (:domain order)
  (:objects zeta alpha mike bravo)
  (:init (q mike zeta) (p zeta) (q alpha bravo) (p mike) (p alpha))
  (:goal (and (done mike) (done alpha) (done zeta))))
"""


def _write(directory: Path, **files: str) -> dict[str, Path]:
    paths = {}
    for name, text in files.items():
        paths[name] = directory / f"{name}.pddl"
        paths[name].write_text(text)
    return paths


def test_action_without_precondition_parses_and_plans(tmp_path: Path) -> None:
    files = _write(tmp_path, domain=NO_PRECONDITION_DOMAIN, problem=NO_PRECONDITION_PROBLEM)
    domain = load_domain(files["domain"])
    assert domain.actions["switch-on"].preconditions == ()
    assert [lit.pddl() for lit in domain.actions["switch-off"].preconditions] == ["(on ?s)"]
    problem = load_problem(files["problem"], domain)
    assert validate_plan(domain, problem, ["(switch-on s2)", "(switch-on s1)"]).valid
    result = run_main(("plan", "--planner", "builtin", str(files["domain"]), str(files["problem"])), tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.split("\n")[:2]) == ["(switch-on s1)", "(switch-on s2)"]


def test_explicit_object_type_parses(tmp_path: Path) -> None:
    files = _write(tmp_path, domain=OBJECT_TYPE_DOMAIN, problem=OBJECT_TYPE_PROBLEM)
    domain = load_domain(files["domain"])
    assert [p.types for p in domain.actions["put"].parameters] == [("object",), ("object",)]
    problem = load_problem(files["problem"], domain)
    assert problem.objects == [("b1", "object"), ("b2", "object")]
    assert validate_plan(domain, problem, ["(put b1 b2)"]).valid


def test_action_costs_are_kept_and_the_plan_cost_reported(tmp_path: Path) -> None:
    files = _write(tmp_path, domain=COST_DOMAIN, problem=COST_PROBLEM)
    plan = tmp_path / "plan.txt"
    plan.write_text("(drive a b)\n(drive b c)\n")
    result = run_cli(("validate", str(files["domain"]), str(files["problem"]), str(plan)), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines() == ["The plan is valid.", "Plan cost: 6"]
    assert "action costs" not in result.stderr
    domain = load_domain(files["domain"])
    assert [lit.pddl() for lit in domain.actions["drive"].add_effects] == ["(at ?to)"]
    assert domain.warnings == [] and domain.action_costs and domain.actions["drive"].cost is not None


def test_file_order_of_objects_init_and_goal_is_kept(tmp_path: Path) -> None:
    files = _write(tmp_path, domain=ORDER_DOMAIN, problem=ORDER_PROBLEM)
    domain = load_domain(files["domain"])
    assert list(domain.predicates) == ["p", "q", "done"]
    task = encode_task(load_problem(files["problem"], domain), typed=False)
    assert task.objects == ["zeta", "alpha", "mike", "bravo"]
    assert task.init == [("q", "mike", "zeta"), ("p", "zeta"), ("q", "alpha", "bravo"), ("p", "mike"), ("p", "alpha")]
    assert task.goal == [("done", "mike"), ("done", "alpha"), ("done", "zeta")]
    result = run_main(("show", "--json", str(files["domain"]), str(files["problem"])), tmp_path)
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["objects"] == ["zeta", "alpha", "mike", "bravo"]
    assert shown["init"][0] == ["q", "mike", "zeta"]


def test_byte_order_mark_and_windows_line_ends_are_accepted(tmp_path: Path) -> None:
    """Editors on Windows write a UTF-8 byte-order mark and CRLF line ends; neither is part of the PDDL."""
    bom = "\ufeff"
    (tmp_path / "domain.pddl").write_text(bom + (BROKEN / "domain.pddl").read_text().replace("\n", "\r\n"), encoding="utf-8")
    (tmp_path / "problem.pddl").write_text(bom + (BROKEN / "problem.pddl").read_text().replace("\n", "\r\n"), encoding="utf-8")
    (tmp_path / "plan.txt").write_text(bom + (BROKEN / "plan.txt").read_text().replace("\n", "\r\n"), encoding="utf-8")
    result = run_main(("validate", "domain.pddl", "problem.pddl", "plan.txt"), tmp_path)
    assert (result.returncode, result.stdout.strip(), result.stderr) == (0, "The plan is valid.", "")
    assert load_domain(tmp_path / "domain.pddl").name == "courier"


def test_actions_keep_file_order() -> None:
    assert list(load_domain(BROKEN / "domain.pddl").actions) == ["drive", "load", "unload"]


@pytest.mark.parametrize("preset", [None, 7])
def test_failed_parse_leaves_tracebacklimit_alone_and_the_parser_usable(preset: int | None) -> None:
    """pddl 0.5.1 sets sys.tracebacklimit = 0 on a failed parse and its parser objects keep state."""
    had, saved = hasattr(sys, "tracebacklimit"), getattr(sys, "tracebacklimit", None)
    try:
        if preset is None:
            if had:
                del sys.tracebacklimit
        else:
            sys.tracebacklimit = preset
        good_domain = (BROKEN / "domain.pddl").read_text()
        good_problem = (BROKEN / "problem.pddl").read_text()
        for bad in ("domain_syntax_error.pddl", "domain_unknown_constant.pddl", "domain_extra_close_paren.pddl"):
            with pytest.raises(PddlError):
                parse_domain_text((BROKEN / bad).read_text(), bad)
            assert hasattr(sys, "tracebacklimit") == (preset is not None)
            assert getattr(sys, "tracebacklimit", None) == preset
        domain = parse_domain_text(good_domain, "domain.pddl")
        with pytest.raises(PddlError):
            parse_problem_text(good_problem.replace("(:init", "(:bogus 1) (:init"), domain)
        assert getattr(sys, "tracebacklimit", None) == preset
        # a later parse works and does not see the objects of earlier ones
        problem = parse_problem_text(good_problem, domain, "problem.pddl")
        other = parse_problem_text(good_problem.replace("p1 p2 - parcel", "p2 - parcel").replace("(parcel-at p1 a)", "").replace("(parcel-at p1 c) ", ""), domain)
        assert [o for o, _ in problem.objects] == ["t1", "a", "b", "c", "p1", "p2"]
        assert [o for o, _ in other.objects] == ["t1", "a", "b", "c", "p2"]
        assert other.goal_pos == [("parcel-at", "p2", "c")]
    finally:
        if had:
            sys.tracebacklimit = saved  # type: ignore[assignment]
        elif hasattr(sys, "tracebacklimit"):
            del sys.tracebacklimit
