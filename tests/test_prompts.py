"""Prompt templates: rendering, strictness, overrides, variants and the content the papers prescribe."""

from __future__ import annotations

import importlib.resources
import re
from pathlib import Path

import jinja2
import jinja2.meta
import pytest

from genplan.engine.llm.types import STEPS
from genplan.engine.prompts import STEP_TEMPLATES, PromptError, PromptLibrary, known_variants

PROMPTS_DIR = Path(importlib.resources.files("genplan.prompts"))  # type: ignore[arg-type]

TASK_PY = "objects = {'c0', 'l0', 'l1'}\ninit = {('at', 'c0', 'l0'), ('at-ferry', 'l0')}\ngoal = {('at', 'c0', 'l1')}"
SOLVED_PY = "objects = {'c9', 'l5'}\ninit = {('at', 'c9', 'l5')}\ngoal = {('at', 'c9', 'l5')}"

# One example value for every variable any template uses.
EXAMPLE = {
    "domain_pddl": "(define (domain ferry) (:predicates (at ?c ?l)))",
    "task_pddl": "(define (problem ferry-1) (:domain ferry))",
    "tasks": ["(define (problem ferry-1) (:domain ferry))", "(define (problem ferry-2) (:domain ferry))"],
    "anonymized": False,
    "domain_nl": "DOMAIN-NL: a ferry carries one car at a time.",
    "example_tasks": ["EXAMPLE-TASK-ONE", "EXAMPLE-TASK-TWO"],
    "task_nl": "TASK-NL: car c0 is at l0 and must get to l1.",
    "pseudocode": "1. For each goal (at c l):\n   a. sail to c, board, sail to l, debark",
    "actions": ["(sail ?from ?to)", "(board ?car ?loc)", "(debark ?car ?loc)"],
    "plan": ["(board c0 l0)", "(debark c0 l1)"],
    "feedback": "FEEDBACK-MESSAGE: the action (debark c0 l1) at step 1 is not executable",
    "typed_objects": False,
    "predicates": ["(at ?car ?loc)", "(at-ferry ?loc)"],
    "example_task": TASK_PY,
    "example_plan": ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"],
    "solved": [{"task": SOLVED_PY, "plan": ["(noop-solved)"]}],
    "failed_task": TASK_PY,
    "output": ["(board c0 l0)", "(debark c0 l1)"],
    "kind": "exception",
    "time_limit": 45,
    "traceback": "Traceback (most recent call last):\nKeyError: ('at', 't0')",
    "expected": "code",
    "reason": "REASON-TEXT",
    "summary": "SUMMARY-TEXT",
    "strategy": "STRATEGY-TEXT",
    "training_tasks": ["(define (problem a))", "(define (problem b))"],
    "message": "the action walk r0_c0 r0_c1 is invalid at step 0",
    "operators": ["(walk ?from ?to)", "(climb ?from ?to)"],
    # PDDLego+ / PlanGen
    "environment": "coincollector",
    "style": "detailed",
    "task": "Find the coin and take it.",
    "observation": "Action: look around\nYou are in the kitchen. To the South you see a closed wood door.",
    "commands": ["move south", "open door to south"],
    "fixed_domain": None,
    "previous_domain": "(define (domain house))",
    "previous_problem": "(define (problem walk))",
    "history": "Action: look around\nYou are in the kitchen.",
    "solver_error": "problem.pddl:3: object 'hall' is used in (at hall) but not declared in :objects",
    "simulation_error": "The action 'move south' failed: the door in that direction is closed.",
    "repeating": True,
    "part": "world",
}

FEEDBACK_KINDS = {
    "execution_feedback": ["timeout", "exception", "not-a-plan"],
    "fix": ["exception", "timeout", "plan-syntax", "plan-semantics"],
}


@pytest.fixture(scope="module")
def lib() -> PromptLibrary:
    return PromptLibrary()


def all_template_paths() -> list[str]:
    return sorted(p.relative_to(PROMPTS_DIR).as_posix() for p in PROMPTS_DIR.rglob("*.j2"))


# --------------------------------------------------------------------------- package data, names


def test_package_resources_see_templates_in_subdirectories(lib):
    paths = lib.list_templates()
    assert "stein/code_reflect.j2" in paths and "silver/fix.j2" in paths and "baseline/fix.j2" in paths
    assert set(paths) == set(all_template_paths())


def test_every_pipeline_step_has_a_template(lib):
    # AutoToS steps have their own templates (prompts/autotos/, engine/autotos/messages.py).
    pipeline_steps = [s for s in STEPS if not s.startswith("autotos.")]
    assert set(STEP_TEMPLATES) == set(pipeline_steps)
    for step in pipeline_steps:
        variants = ["baseline", "silver"] if step.startswith("baseline.") else ["stein"]
        variants = ["pddlego"] if step.startswith("pddlego.") else variants
        for variant in variants:
            assert lib.resolve(step, variant).endswith(f"/{STEP_TEMPLATES[step]}.j2")


def test_variant_fallback_chain(lib):
    assert lib.resolve("system", "stein-reasoning") == "stein/system.j2"
    assert lib.resolve("system", "baseline") == "stein/system.j2"
    assert lib.resolve("extraction_failed", "baseline") == "baseline/extraction_failed.j2"
    assert lib.resolve("fix", "silver-reasoning") == "silver/fix.j2"
    with pytest.raises(PromptError, match="no prompt template code_reflect.j2 for variant 'silver'"):
        lib.resolve("code_reflect", "silver")
    with pytest.raises(PromptError, match="unknown prompt variant 'nope'"):
        lib.render("system", "nope")
    assert lib.function_name("stein") == "generate_solution"
    assert lib.function_name("silver-reasoning") == "get_plan"


def test_partials_are_not_listed_as_prompts(lib):
    names = lib.list_templates("stein")
    assert "code_reflect" in names and not any(n.startswith("_") for n in names)


# --------------------------------------------------------------------------- rendering everything


def render_cases() -> list[tuple[str, str, dict]]:
    cases = []
    for variant in known_variants():
        for name in PromptLibrary().list_templates(variant):
            for kind in FEEDBACK_KINDS.get(name, [EXAMPLE["kind"]]):
                expected = ["code"] if variant.startswith("silver") else ["nl", "strategy", "plan", "code"]
                for exp in expected if name == "extraction_failed" else ["code"]:
                    cases.append((variant, name, {**EXAMPLE, "kind": kind, "expected": exp}))
    return cases


@pytest.mark.parametrize(
    ("variant", "name", "variables"), render_cases(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_template_renders(lib, variant, name, variables):
    text = lib.render(name, variant, **variables)
    assert text.strip() and text.endswith("\n")
    assert "{{" not in text and "{%" not in text and "\n\n\n" not in text


def header_variables(source: str) -> set[str] | None:
    """The variable names listed in a template's header comment."""
    header = re.match(r"\{#-?(.*?)-?#\}", source, re.S)
    assert header, "template has no header comment"
    body = header.group(1)
    listed = re.search(r"Variables:(.*)", body, re.S)
    assert listed, "header does not list the variables"
    names: set[str] = set()
    for line in listed.group(1).split("\n"):
        line = line.strip()
        if not line or line == "none":
            continue
        match = re.match(r"^([a-z_]+(?:,\s*[a-z_]+)*)(?::|\s{2,}|$)", line)
        if match:
            names.update(n.strip() for n in match.group(1).split(","))
    return names


@pytest.mark.parametrize("path", all_template_paths())
def test_header_lists_exactly_the_variables_used(path):
    """Each template's header names every variable it (and its includes) uses, and no other."""
    env = jinja2.Environment()
    env.filters["pyrepr"] = repr
    source = (PROMPTS_DIR / path).read_text()
    used: set[str] = set()
    pending, seen = [path], set()
    while pending:  # the template and everything it includes or extends, transitively
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        parsed = env.parse((PROMPTS_DIR / current).read_text())
        used |= set(jinja2.meta.find_undeclared_variables(parsed))
        pending.extend(t for t in jinja2.meta.find_referenced_templates(parsed) if t)
    used -= {"raise_error", "number_steps"} if "_failed_task" not in path else {"raise_error"}
    documented = header_variables(source)
    assert used == documented, f"{path}: uses {sorted(used)}, header lists {sorted(documented)}"


def test_readme_documents_every_template():
    readme = (PROMPTS_DIR / "README.md").read_text()
    for path in all_template_paths():
        directory, name = path.split("/")
        section = readme.split(f"### `{directory}/`")[1].split("\n### ")[0]
        assert f"`{name}`" in section, f"{path} is not documented in prompts/README.md"


# --------------------------------------------------------------------------- strictness and errors


def test_missing_variable_names_template_and_variable(lib):
    variables = dict(EXAMPLE)
    del variables["pseudocode"]
    with pytest.raises(PromptError) as err:
        lib.render("code.generate", "stein", **variables)
    message = str(err.value)
    assert "stein/code_generate.j2" in message and "'pseudocode'" in message and "\n" not in message


def test_missing_variable_inside_a_partial_names_the_partial(lib):
    variables = dict(EXAMPLE)
    del variables["example_plan"]
    with pytest.raises(PromptError, match=r"stein/_code_spec\.j2:\d+: missing variable 'example_plan'"):
        lib.render("code_generate", "stein", **variables)


def test_unknown_kind_is_rejected_by_the_template(lib):
    with pytest.raises(PromptError, match="unknown feedback kind 'oops'"):
        lib.render("execution_feedback", kind="oops")
    with pytest.raises(PromptError, match="unknown feedback kind"):
        lib.render("fix", "silver", **{**EXAMPLE, "kind": "plan-typo"})
    with pytest.raises(PromptError, match="unknown value of expected"):
        lib.render("extraction_failed", expected="poem", reason="x")


# --------------------------------------------------------------------------- overrides


def test_override_dir_wins_and_missing_files_fall_back(tmp_path):
    (tmp_path / "stein").mkdir()
    (tmp_path / "stein" / "system.j2").write_text("{# Variables: none #}MY OWN SYSTEM PROMPT")
    lib = PromptLibrary(tmp_path)
    assert lib.render("system") == "MY OWN SYSTEM PROMPT\n"
    assert lib.render("system", "stein-reasoning") == "MY OWN SYSTEM PROMPT\n"
    assert lib.source_file("system") == str(tmp_path / "stein" / "system.j2")
    assert "def generate_solution" in lib.render("code_generate", **EXAMPLE)
    assert lib.source_file("code_generate").startswith(str(PROMPTS_DIR))
    assert "stein/system.j2" in lib.list_templates()


def test_overridden_partial_reaches_including_templates(tmp_path):
    (tmp_path / "stein").mkdir()
    (tmp_path / "stein" / "_code_spec.j2").write_text("SPEC FOR {{ actions | length }} ACTIONS")
    text = PromptLibrary(tmp_path).render("code_generate", **EXAMPLE)
    assert "SPEC FOR 3 ACTIONS" in text and "def generate_solution" not in text
    assert "SPEC FOR 3 ACTIONS" in PromptLibrary(tmp_path).render("code", "baseline", **EXAMPLE)


def test_reasoning_only_override(tmp_path):
    (tmp_path / "stein-reasoning").mkdir()
    (tmp_path / "stein-reasoning" / "strategy_plan.j2").write_text("REASONING PLAN PROMPT {{ task_nl }}")
    lib = PromptLibrary(tmp_path)
    assert lib.render("strategy_plan", "stein-reasoning", **EXAMPLE).startswith("REASONING PLAN PROMPT TASK-NL")
    assert "REASONING PLAN PROMPT" not in lib.render("strategy_plan", "stein", **EXAMPLE)


def test_override_errors_are_one_line_with_the_file(tmp_path):
    (tmp_path / "stein").mkdir()
    broken = tmp_path / "stein" / "nl_task.j2"
    broken.write_text("line one\n{% if %}")
    with pytest.raises(PromptError) as err:
        PromptLibrary(tmp_path).render("nl_task", task_pddl="x")
    assert str(err.value).startswith(f"{broken}:2: template syntax error")
    with pytest.raises(PromptError, match="does not exist"):
        PromptLibrary(tmp_path / "missing")


def test_override_cannot_escape_the_directory(tmp_path):
    with pytest.raises(PromptError):
        PromptLibrary(tmp_path).render("../../etc/passwd")


# --------------------------------------------------------------------------- content the papers prescribe

THINKING = re.compile(r"step[ -]by[ -]step", re.I)


def test_reasoning_variant_has_no_step_by_step(lib):
    with_thinking = set()
    for variant in ("stein", "baseline"):
        for name in lib.list_templates(variant):
            if THINKING.search(lib.render(name, variant, **EXAMPLE)):
                with_thinking.add(name)
            assert not THINKING.search(lib.render(name, f"{variant}-reasoning", **EXAMPLE)), name
    assert {"strategy_generate", "strategy_plan", "strategy_revise", "code_revise", "strategy", "fix"} <= with_thinking


def test_code_reflection_numbers_the_returned_steps(lib):
    text = lib.render("code.reflect", **EXAMPLE)
    assert "'(board c0 l0)',  # step 0" in text and "'(debark c0 l1)',  # step 1" in text
    # order: failed task, its output, the feedback, then the reflection questions
    positions = [text.index(TASK_PY), text.index("# step 0"), text.index("FEEDBACK-MESSAGE"), text.index("1) where")]
    assert positions == sorted(positions)
    assert "Leave the code as it is for now" in text
    assert "2) why that part of the code" in text


def test_code_reflection_with_and_without_solved_tasks(lib):
    some = lib.render("code.reflect", **EXAMPLE)  # Figure 13a
    none = lib.render("code.reflect", **{**EXAMPLE, "solved": []})  # Figure 13b
    assert SOLVED_PY in some and "'(noop-solved)'" in some and "correct plan for these tasks" in some
    assert "did not produce a correct plan for any" not in some
    assert "did not produce a correct plan for any" in none
    assert SOLVED_PY not in none and "correct plan for these tasks" not in none
    # both keep the failed task, its numbered output and the feedback
    for text in (some, none):
        assert TASK_PY in text and "# step 1" in text and "FEEDBACK-MESSAGE" in text


def test_output_section_only_when_the_code_returned_something(lib):
    text = lib.render("code.reflect", **{**EXAMPLE, "output": None})
    assert "# step" not in text and "This is what the code returned" not in text
    assert "FEEDBACK-MESSAGE" in text
    assert "This is what the code returned" in lib.render("code.reflect", **EXAMPLE)


def test_direct_revision_has_the_feedback_but_no_reflection(lib):
    text = lib.render("code_revise_direct", **EXAMPLE)
    assert "# step 0" in text and "FEEDBACK-MESSAGE" in text and SOLVED_PY in text
    assert "analyse this failure" not in text and "Leave the code as it is" not in text
    assert "Fix the code so that it solves this task" in text and "```python code block" in text


def test_strategy_reflection_structure(lib):
    text = lib.render("strategy.reflect", **EXAMPLE)
    order = [text.index("(board c0 l0)\n(debark c0 l1)"), text.index("FEEDBACK-MESSAGE"), text.index("1) which step")]
    assert order == sorted(order)
    assert "pseudocode" in text.split("FEEDBACK-MESSAGE")[1] and "Do not write a revised strategy yet" in text


def test_strategy_prompts_ask_for_the_label_extraction_uses(lib):
    assert 'line that says only "Pseudocode:"' in lib.render("strategy.generate", **EXAMPLE)
    assert 'line that says only "Pseudocode:"' in lib.render("strategy.revise", **EXAMPLE)
    assert 'line that says only "Strategy:"' in lib.render("baseline.strategy", "baseline", **EXAMPLE)
    assert 'only "Strategy:"' in lib.render("extraction_failed", "baseline", **{**EXAMPLE, "expected": "strategy"})
    assert 'only "Pseudocode:"' in lib.render("extraction_failed", "stein", **{**EXAMPLE, "expected": "strategy"})


def test_strategy_generation_gets_domain_and_both_examples(lib):
    text = lib.render("strategy.generate", **EXAMPLE)
    assert "DOMAIN-NL" in text and "EXAMPLE-TASK-ONE" in text and "EXAMPLE-TASK-TWO" in text


def test_strategy_plan_lists_lifted_actions(lib):
    text = lib.render("strategy.plan", **EXAMPLE)
    for item in ("DOMAIN-NL", "TASK-NL", EXAMPLE["pseudocode"], "(sail ?from ?to)", "(debark ?car ?loc)"):
        assert item in text


def test_code_generation_prompt_content(lib):
    text = lib.render("code.generate", **EXAMPLE)
    for item in ("DOMAIN-NL", EXAMPLE["pseudocode"], "def generate_solution(objects, init, goal):",
                 "(at-ferry ?loc)", "(board ?car ?loc)", TASK_PY, "'(sail l0 l1)',", "List[str]"):
        assert item in text, item
    assert "object names (strings)" in text
    typed = lib.render("code.generate", **{**EXAMPLE, "typed_objects": True})
    assert "tuples (object_name, type_name)" in typed and "object names (strings)" not in typed


def test_nl_domain_anonymized_switch(lib):
    plain = lib.render("nl.domain", domain_pddl="(define)")
    anonymous = lib.render("nl.domain", domain_pddl="(define)", anonymized=True)
    assert "meaningless" in anonymous and "meaningless" not in plain


def test_execution_feedback_messages(lib):
    assert "(45 seconds)" in lib.render("execution_feedback", kind="timeout", time_limit=45)
    assert "KeyError" in lib.render("execution_feedback", kind="exception", traceback="KeyError: 1")
    text = lib.render("execution_feedback", kind="not-a-plan", output="None")
    assert "returned None" in text and "List[str]" in text


def test_baseline_fix_has_no_step_numbers_and_no_solved_tasks(lib):
    text = lib.render("baseline.fix", "baseline", **EXAMPLE)
    assert TASK_PY in text and "'(debark c0 l1)'," in text and "FEEDBACK-MESSAGE" in text
    assert "# step" not in text and SOLVED_PY not in text and "Fix the code" in text


def test_baseline_code_uses_nl_domain_and_strategy_and_python_task_without_plan(lib):
    text = lib.render("baseline.code", "baseline", **{**EXAMPLE, "example_plan": None})
    assert "DOMAIN-NL" in text and "STRATEGY-TEXT" in text and TASK_PY in text
    assert "(define" not in text and "A correct output" not in text and "'(sail l0 l1)'" not in text
    with_plan = lib.render("baseline.code", "baseline", **EXAMPLE)  # the bas_example_plan ablation
    assert "A correct output" in with_plan and "'(sail l0 l1)'" in with_plan


def test_baseline_strategy_uses_nl_descriptions_and_allows_prose(lib):
    text = lib.render("baseline.strategy", "baseline", **EXAMPLE)
    assert "DOMAIN-NL" in text and "EXAMPLE-TASK-ONE" in text and "EXAMPLE-TASK-TWO" in text
    assert "(define" not in text and "If it helps" in text


def test_silver_protocol(lib):
    summary = lib.render("baseline.summary", "silver", **EXAMPLE)
    assert "(define (problem a))" in summary and "(define (problem b))" in summary and "..." in summary
    strategy = lib.render("baseline.strategy", "silver")
    assert "simple strategy" in strategy and "without using search" in strategy
    code = lib.render("baseline.code", "silver", typed_objects=True)
    assert "def get_plan(objects, init, goal):" in code and "(object name, type name)" in code
    assert "(object name, type name)" not in lib.render("baseline.code", "silver", typed_objects=False)
    texts = {kind: lib.render("baseline.fix", "silver", **{**EXAMPLE, "kind": kind}) for kind in FEEDBACK_KINDS["fix"]}
    for kind, text in texts.items():
        assert EXAMPLE["task_pddl"] in text and text.rstrip().endswith("fix the code."), kind
    assert "KeyError" in texts["exception"] and "infinite loop" in texts["timeout"]
    assert "(walk ?from ?to) (climb ?from ?to)" in texts["plan-syntax"] and "invalid at step 0" in texts["plan-syntax"]
    assert "'(board c0 l0)'" in texts["plan-semantics"] and "(walk ?from" not in texts["plan-semantics"]


def test_extraction_failed_names_the_reason(lib):
    for variant in ("stein", "baseline", "silver"):
        text = lib.render("extraction_failed", variant, expected="code", reason="REASON-TEXT")
        assert "because REASON-TEXT" in text
        assert lib.function_name(variant) in text
