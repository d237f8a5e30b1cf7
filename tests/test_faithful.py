"""--faithful (#29): every preset as the reference code of Stein et al. runs it, point by point, against the
scripted server; genplan's own behaviour stays the default (docs/reproduction.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.cli_process import genplan
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel, fenced
from support.scripted_server import RecordedRequest, ScriptedServer
from test_pipeline_stein import make_pipeline
from test_tui_support import isolated  # noqa: F401

from genplan.engine.approaches.presets import load_preset
from genplan.engine.pddl.encoding import render_task
from genplan.engine.pipeline.config import ConfigError
from genplan.engine.pipeline.failures import FailureSelector
from genplan.engine.pipeline.faithful import TOGGLES, parse_spec
from genplan.engine.pipeline.orderings import sorted_task


def _last_user(request: RecordedRequest) -> str:
    return [m["content"] for m in request.messages if m["role"] == "user"][-1]


# ----------------------------------------------------------------------------------------------- the switch
def test_faithful_sets_every_toggle_and_records_them() -> None:
    config = load_preset("F3-6").with_changes(faithful="all")
    assert config.faithful == ",".join(TOGGLES)
    assert config.reference_prompts and config.import_check and config.sorted_presentation
    assert config.code_extraction == "first-block" and config.failure_selection == "reference-code"
    assert config.ordering_style == "ordered-sets" and config.final_check_prompt == "fresh"
    assert config.lm_search == "lmcut"
    # faithful except lenient extraction
    lenient = load_preset("F3-6").with_changes(faithful="all,-extraction")
    assert lenient.code_extraction == "lenient" and lenient.import_check and "extraction" not in lenient.faithful
    assert parse_spec("-extraction,-sil") == [t for t in TOGGLES if t not in ("extraction", "sil")]
    assert parse_spec("prompts,imports") == ["prompts", "imports"]
    with pytest.raises(ConfigError, match="unknown --faithful toggle 'nope'"):
        load_preset("F3-6").with_changes(faithful="all,-nope")
    # approach-specific toggles touch only their preset
    assert load_preset("Sil").with_changes(faithful="all").silver_fixes == 6
    assert load_preset("F5-3").with_changes(faithful="all").silver_fixes == load_preset("F5-3").silver_fixes
    bas = load_preset("Bas").with_changes(faithful="all")
    assert bas.bas_style == "reference" and bas.final_strategy_check
    # the default presets are untouched
    default = load_preset("F3-6")
    assert (default.faithful, default.code_extraction, default.failure_selection) == ("", "lenient", "reference")


def test_cli_faithful_except_is_recorded_in_run_json(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel())
    done = genplan("run", str(FERRY), "--model", scripted_server.model, "--base-url", scripted_server.base_url,
                   "--preset", "F3-6-MC", "--faithful-except", "extraction,orderings", "--out", str(tmp_path / "runs"),
                   "--json", "--quiet", home=tmp_path)
    assert done.returncode == 0, done.stderr
    config = json.loads((Path(json.loads(done.stdout)["run_dir"]) / "run.json").read_text())["config"]
    assert config["faithful"] == ",".join(t for t in TOGGLES if t not in ("extraction", "orderings"))
    assert config["code_extraction"] == "lenient" and config["import_check"] is True
    bad = genplan("run", str(FERRY), "--faithful-except", "nope", "--out", str(tmp_path / "x"), home=tmp_path)
    assert bad.returncode == 2 and "unknown --faithful toggle 'nope'" in bad.stderr


# ----------------------------------------------------------------------------------------------- prompts
def test_prompts_carry_the_reference_restrictions(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    config = load_preset("F3-6").with_changes(initial_programs=1, code_rounds=1, strategy_rounds=1)
    for name, spec in (("default", None), ("faithful", "prompts")):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM], strategy_plan_mistakes=1))
        make_pipeline(scripted_server, tmp_path / name, config.with_changes(faithful=spec)).run()
        code = _last_user(scripted_server.requests_for("code.generate")[0])
        revise = _last_user(scripted_server.requests_for("code.revise")[0])
        strategy_revise = _last_user(scripted_server.requests_for("strategy.revise")[0])
        if spec is None:
            assert "standard library" in code and "search" not in code
            assert "search" not in strategy_revise and "librar" not in revise
        else:
            assert "must not search for a plan" in code and "no external libraries or modules" in code
            assert "standard library" not in code
            assert "no external libraries or modules" in revise
            assert "must not rely on search" in strategy_revise


# ----------------------------------------------------------------------------------------------- import check
IMPORTING_PROGRAM = "import os\n" + CORRECT_PROGRAM


def test_import_os_is_refused_with_feedback(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    config = load_preset("F3-6").with_changes(initial_programs=1, code_rounds=1)
    scripted_server.respond_with(FerryModel(programs=[IMPORTING_PROGRAM, CORRECT_PROGRAM]))
    default = make_pipeline(scripted_server, tmp_path / "default", config).run()
    assert default.debug_solved == 6 and default.programs_generated == 1  # genplan runs it
    scripted_server.clear()
    scripted_server.respond_with(FerryModel(programs=[IMPORTING_PROGRAM, CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path / "faithful", config.with_changes(faithful="imports"))
    result = pipeline.run()
    first = json.loads((pipeline.store.path / "results" / "program-c1-v00.json").read_text())
    assert not any(c["solved"] for c in first) and all(c["kind"] == "exception" for c in first)
    feedback = _last_user(scripted_server.requests_for("code.reflect")[0])
    assert "import os" in feedback and "not run" in feedback
    assert result.debug_solved == 6 and result.selected_program.name == "c1-v01.py"


# ----------------------------------------------------------------------------------------------- extraction
def test_first_block_taken_and_no_retry(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    config = load_preset("F3-6").with_changes(initial_programs=1, code_rounds=0)
    two_blocks = fenced(BUGGY_PROGRAM) + "\nOr better:\n\n" + fenced(CORRECT_PROGRAM)

    def answer(request: RecordedRequest) -> str | None:
        return two_blocks if request.step == "code.generate" else None

    scripted_server.respond_with(FerryModel(extra=answer))
    lenient = make_pipeline(scripted_server, tmp_path / "default", config).run()
    assert lenient.debug_solved == 6  # genplan: the last block that parses
    scripted_server.clear()
    scripted_server.respond_with(FerryModel(extra=answer))
    first = make_pipeline(scripted_server, tmp_path / "faithful", config.with_changes(faithful="extraction")).run()
    assert first.debug_solved < 6  # the reference: the first ```python block

    def prose(request: RecordedRequest) -> str | None:
        return "I would rather describe it in words." if request.step == "code.generate" else None

    for name, spec, asked in (("prose-default", None, 2), ("prose-faithful", "extraction", 1)):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(extra=prose))
        pipeline = make_pipeline(scripted_server, tmp_path / name, config.with_changes(faithful=spec))
        pipeline.run()
        assert scripted_server.steps().count("code.generate") == asked
    # the reference runs the whole answer; its error is the program's
    checks = json.loads((pipeline.store.path / "results" / "program-c1-v00.json").read_text())
    assert all(c["kind"] == "syntax-error" for c in checks)


# ----------------------------------------------------------------------------------------------- failure choice
@dataclass
class Fake:
    task: str
    kind: str | None
    solved: bool = False
    details: dict = field(default_factory=dict)


def _choose(rule: str, previous: tuple[str, str], checks: list[Fake]) -> str:
    selector = FailureSelector(rule, seed=3)
    selector.previous_task, selector.previous_group = previous
    chosen = selector.choose(checks)
    assert chosen is not None
    return chosen.task


def test_reference_failure_choice_on_the_three_cases() -> None:
    # 1) the previous task still fails with a plan error, another task raises: the reference takes the exception
    checks = [Fake("t1", "unsatisfied-precondition"), Fake("t2", "exception")]
    assert _choose("reference", ("t1", "plan"), checks) == "t1"
    assert _choose("reference-code", ("t1", "plan"), checks) == "t2"
    # 2) the previous task still fails in the same group: genplan's rule keeps it; the reference's code agents
    # never record the previous task (last_failed_task_name stays ''), so it draws afresh among the group
    checks = [Fake(f"t{i}", "exception") for i in range(1, 7)]
    assert all(_choose("reference", ("t4", "python"), checks) == "t4" for _ in range(5))
    drawn = set()
    for seed in range(20):
        selector = FailureSelector("reference-code", seed=seed)
        selector.previous_task, selector.previous_group = "t4", "python"
        drawn.add(selector.choose(checks).task)  # type: ignore[union-attr]
    assert len(drawn) > 1
    # ... while the reference's strategy debugging does keep a task that still fails
    strategy = FailureSelector("reference-code-strategy", seed=1)
    strategy.previous_task = "t4"
    assert all(strategy.choose(checks).task == "t4" for _ in range(5))  # type: ignore[union-attr]
    # 3) unknown objects, unknown actions, wrong arity and type mismatches are plan errors in the reference
    for kind in ("unknown-object", "unknown-action", "wrong-arity", "type-mismatch"):
        checks = [Fake("t1", kind, details={"syntax": True}), Fake("t2", "exception")]
        assert _choose("reference", ("t1", "python"), checks) == "t1"  # genplan: a Python-level error, sticky
        assert _choose("reference-code", ("t1", "python"), checks) == "t2"  # reference: a plan error; Python first


# ----------------------------------------------------------------------------------------------- sorting
def test_feedback_and_single_example_are_sorted(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    config = load_preset("F3-6-MC").with_changes(code_rounds=1, faithful="sorting")
    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, config)
    pipeline.run()
    reflect = _last_user(scripted_server.requests_for("code.reflect")[0])
    failed = re.search(r"fails:\s*```python\n(.*?)```", reflect, re.S).group(1).strip()
    task = next(t for t in pipeline.tasks if render_task(sorted_task(t.python)) == failed)
    assert failed != render_task(task.python) or task.python == sorted_task(task.python)
    code = _last_user(scripted_server.requests_for("code.generate")[0])
    assert any(render_task(sorted_task(t.python)) in code for t in pipeline.prompt_tasks())


# ----------------------------------------------------------------------------------------------- final check
def test_final_check_is_a_fresh_request(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    config = load_preset("F3-6").with_changes(initial_programs=1, code_rounds=0)
    for name, spec in (("default", None), ("faithful", "final-check")):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel())
        make_pipeline(scripted_server, tmp_path / name, config.with_changes(faithful=spec)).run()
        plans = scripted_server.requests_for("strategy.plan")
        assert len(plans) == 8  # 6 validations + 2 final checks
        validation = [r.messages for r in plans[:6]]
        final = [r.messages for r in plans[6:]]
        if spec is None:
            assert all(m in validation for m in final)  # the same request again (a cache hit with the cache on)
        else:
            assert not any(m in validation for m in final)
            assert all("Derive the plan by carrying out this strategy" in msgs[-1]["content"] for msgs in final)


# ----------------------------------------------------------------------------------------------- Bas
def _basic_descriptions(request: RecordedRequest) -> str | None:
    last = request.messages[-1]["content"]
    if request.step != "nl.domain" or "Problem 2 description" not in last:
        return None
    names = re.findall(r"\(problem\s+([^\s)]+)", last, re.I)
    parts = ["Domain description:\nSYNTHETIC: a ferry carries one car at a time."]
    parts += [f"Problem {i} description:\nSYNTHETIC description of task [[{n.lower()}]]." for i, n in enumerate(names, 1)]
    return "\n\n".join(parts)


def test_bas_as_baseline_json_with_a_get_plan_program(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    get_plan_only = CORRECT_PROGRAM.replace("def generate_solution(", "def get_plan(")
    scripted_server.respond_with(FerryModel(programs=[get_plan_only], extra=_basic_descriptions))
    default = make_pipeline(scripted_server, tmp_path / "default", load_preset("Bas").with_changes(code_rounds=0)).run()
    assert default.debug_solved == 0  # genplan's Bas wants generate_solution
    scripted_server.clear()
    scripted_server.respond_with(FerryModel(programs=[get_plan_only], extra=_basic_descriptions))
    config = load_preset("Bas").with_changes(faithful="all")
    pipeline = make_pipeline(scripted_server, tmp_path / "faithful", config)
    result = pipeline.run()
    steps = scripted_server.steps()
    # its own NL step: domain + the two prompt tasks in one request, then one request per further debug task;
    # one validation round, the final check (2), the program: Table 8's minimum of 15 calls
    assert steps == ["nl.domain", *["nl.task"] * 4, "baseline.strategy", *["strategy.plan"] * 8, "baseline.code"]
    first = scripted_server.requests_for("nl.domain")[0].messages[-1]["content"]
    assert first.count("(define (problem") == 2 and "Problem 2 description" in first
    assert (pipeline.store.path / "nl" / "domain.md").read_text().startswith("SYNTHETIC: a ferry")
    for task in pipeline.tasks:
        assert f"[[{task.problem.name.lower()}]]" in (task.nl or "")
    # the example is chosen as the pipeline does (a task planned correctly, prompt tasks first), sorted, no plan
    code = _last_user(scripted_server.requests_for("baseline.code")[0])
    assert render_task(sorted_task(pipeline.prompt_tasks()[0].python)) in code and "A correct output" not in code
    assert result.debug_solved == 6  # the get_plan program runs


# ----------------------------------------------------------------------------------------------- Sil
def test_sil_has_the_papers_fix_budget(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    for name, spec, fixes in (("default", None, 4), ("faithful", "sil", 6)):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM]))
        make_pipeline(scripted_server, tmp_path / name, load_preset("Sil").with_changes(faithful=spec)).run()
        assert scripted_server.steps().count("baseline.fix") == fixes
        assert len(scripted_server.requests) == 3 + fixes  # Table 9: 9 calls need 6 fixes


# ----------------------------------------------------------------------------------------------- orderings
def test_ordered_set_orderings_as_the_reference_builds_them(tmp_path: Path) -> None:
    from genplan.engine.pddl import load_domain
    from genplan.engine.pddl.encoding import reference_orderings
    from genplan.engine.pipeline.checks import ProgramChecker, load_debug_tasks

    domain = load_domain(FERRY / "domain.pddl")
    tasks = load_debug_tasks(domain, sorted((FERRY / "debug").glob("*.pddl"))[:2], False)
    # 4 orderings, distinct where the task allows it, reproducible
    orders = reference_orderings(tasks[1].python, 4, tasks[1].name)
    assert orders == reference_orderings(tasks[1].python, 4, tasks[1].name)
    assert len({tuple(o.init) for o in orders}) == 4
    program = ("def generate_solution(objects, init, goal):\n"
               "    assert not isinstance(init, set) and init[0] == next(iter(init))\n"
               "    raise ValueError(type(init).__name__ + ' ' + repr(list(objects)))\n")
    checker = ProgramChecker(domain, tasks, 10.0, "generate_solution", "stein", orderings=4, ordered_sets=True)
    try:
        checks = checker.check(program)
    finally:
        checker.close()
    for task, check in zip(tasks, checks):
        first = reference_orderings(task.python, 4, task.name)[0]
        assert f"ValueError: OrderedSet {list(first.objects)!r}" in check.message
        assert check.details["python_input"] == render_task(first)  # feedback shows the ordering that failed
    plain = ProgramChecker(domain, tasks, 10.0, "generate_solution", "stein", orderings=4)
    try:
        assert all("AssertionError" in c.message for c in plain.check(program))  # genplan: builtin sets
    finally:
        plain.close()


# ----------------------------------------------------------------------------------------------- the TUI
async def test_tui_settings_take_the_faithful_toggles(isolated: Path) -> None:  # noqa: F811
    import tomllib

    from test_tui_support import ferry_copy, ready, wait_for
    from textual.widgets import Input, Select

    from genplan.tui.app import GenplanApp, LaunchOptions
    from genplan.tui.screens.settings import SettingsScreen

    app = GenplanApp(LaunchOptions(ferry_copy(isolated), watch_files=False))
    path = isolated / "xdg-config" / "genplan" / "config.toml"
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings screen")
        screen = app.screen
        screen.query_one("#set-preset", Select).value = "Sil"
        await pilot.pause()
        screen.query_one("#set-faithful", Input).value = "all,-nope"
        await pilot.press("ctrl+s")  # an unknown toggle: one line, nothing saved
        assert isinstance(app.screen, SettingsScreen) and not path.exists()
        assert "unknown --faithful toggle 'nope'" in str(screen.query_one("#settings-error").render())
        screen.query_one("#set-faithful", Input).value = "all,-extraction"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), what="saving")
        assert tomllib.loads(path.read_text())["pipeline"] == {"preset": "Sil", "faithful": "all,-extraction"}
        config = app.ctx.prefs.to_config()
        assert config.silver_fixes == 6 and config.code_extraction == "lenient" and config.import_check
        assert "extraction" not in config.faithful.split(",")


# ----------------------------------------------------------------------------------------------- experiments
def test_experiment_files_and_batch_take_faithful(tmp_path: Path) -> None:
    from genplan.engine.batch import load_experiment
    from genplan.engine.batch.experiment import with_faithful

    def experiment(pipeline: str) -> Path:
        path = tmp_path / f"e{len(list(tmp_path.iterdir()))}.toml"
        path.write_text(f'[experiment]\ndomains = ["{FERRY}"]\npresets = ["F3-6", "Bas", "Sil"]\nseeds = [1]\n'
                        f'{pipeline}\n[[models]]\nname = "m"\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n', encoding="utf-8")
        return path

    plain = load_experiment(experiment(""))
    assert plain.evaluation.lm_search == "lmcut-max-ms" and all(p.config.faithful == "" for p in plain.presets)
    # the toggles first, the other [pipeline] settings after them
    loaded = load_experiment(experiment('[pipeline]\nfaithful = "all"\ncode_extraction = "lenient"\n'))
    configs = {p.label: p.config for p in loaded.presets}
    assert configs["Sil"].silver_fixes == 6 and configs["Bas"].bas_style == "reference"
    assert configs["F3-6"].code_extraction == "lenient" and configs["F3-6"].import_check
    assert loaded.evaluation.lm_search == "lmcut"  # the batch's optimal planner: A* + LM-cut
    # genplan batch --faithful-except planner
    batch = with_faithful(plain, "all,-planner")
    assert all(p.config.import_check for p in batch.presets) and batch.evaluation.lm_search == "lmcut-max-ms"
    assert with_faithful(plain, "all").evaluation.lm_search == "lmcut"
    # no-fallback reaches the batch's planners, and the coverage table records the search it ran
    from genplan.engine.batch.planner_coverage import _search

    assert plain.evaluation.planner_fallback and not loaded.evaluation.planner_fallback
    assert with_faithful(plain, "all,-no-fallback").evaluation.planner_fallback
    assert _search(loaded, "lm") == "lmcut,alone" and _search(plain, "lm") == ""


def test_pipeline_config_file_takes_faithful(tmp_path: Path) -> None:
    from genplan.engine.approaches.presets import load_config_file

    path = tmp_path / "mine.toml"
    path.write_text('preset = "F3-6"\nfaithful = "all,-sorting"\ncode_extraction = "lenient"\n', encoding="utf-8")
    config = load_config_file(path)
    assert config.import_check and not config.sorted_presentation and config.code_extraction == "lenient"
    assert config.faithful == ",".join(t for t in TOGGLES if t != "sorting")
    path.write_text('preset = "F3-6"\nfaithful = "everything"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown --faithful toggle 'everything'"):
        load_config_file(path)


def test_bas_example_is_the_first_task_whose_latest_plan_is_correct() -> None:
    # the reference keeps one generated plan per task and overwrites it: a prompt task that validation solved but
    # the final check failed has no plan left, so the next task with a correct latest plan is the example
    from functools import partial
    from types import SimpleNamespace

    from genplan.engine.approaches.bas import _example_task, example_plan_of
    from genplan.engine.pipeline.runner import Pipeline

    tasks = [SimpleNamespace(name=f"t{i}") for i in range(1, 5)]
    validation = [Fake("t1", None, solved=True), Fake("t2", None, solved=True), Fake("t3", None, solved=True),
                  Fake("t4", "goal-not-reached")]
    for check in validation:
        check.output = [f"(plan-of {check.task})"]  # type: ignore[attr-defined]
    ctx = SimpleNamespace(tasks=tasks, prompt_tasks=lambda: tasks[:2], strategies=[SimpleNamespace(checks=validation)])
    ctx.latest_plans = partial(Pipeline.latest_plans, ctx)
    failed = Fake("t1", "goal-not-reached")
    final = {"t1": failed, "t2": Fake("t2", "unsatisfied-precondition")}
    assert _example_task(ctx, final).name == "t3"  # type: ignore[arg-type]
    assert example_plan_of(ctx, final) == ["(plan-of t3)"]  # type: ignore[arg-type]
    assert _example_task(ctx, {}).name == "t1"  # type: ignore[arg-type]  # no final check: validation's verdict


# ----------------------------------------------------------------------------------------------- issue 38
def test_the_last_five_points_are_toggles_recorded_in_the_config() -> None:
    config = load_preset("F3-6").with_changes(faithful="all")
    assert not config.planner_fallback and config.extraction_retries == 0
    assert config.answer_extraction == "reference" and config.ordering_draws == "per-check"
    assert config.get_plan_accepted and not config.bas_nl_conversation  # bas-nl is Bas's only
    assert {"no-fallback", "answers", "redraw", "bas-nl", "get-plan"} <= set(config.faithful.split(","))
    assert load_preset("Bas").with_changes(faithful="all").bas_nl_conversation
    default = load_preset("F3-6")
    assert default.planner_fallback and default.extraction_retries == 1 and default.answer_extraction == "lenient"
    assert default.ordering_draws == "per-task" and not default.get_plan_accepted


def _numbered_plans(request: RecordedRequest) -> str | None:
    """The FerryModel's plans as a numbered list after "Solution:" (lines that do not start with "(")."""
    if request.step != "strategy.plan":
        return None
    text = FerryModel()(request)
    assert isinstance(text, str)
    actions = re.findall(r"^\(.*\)$", text, re.M)
    return "Solution:\n" + "\n".join(f"{i}. {action}" for i, action in enumerate(actions, 1))


def _prose_plans(request: RecordedRequest) -> str | None:
    return "I would rather not write the plan down." if request.step == "strategy.plan" else None


def test_answers_are_asked_once_and_plans_taken_as_the_reference_does(scripted_server: ScriptedServer,
                                                                     tmp_path: Path) -> None:
    config = load_preset("F3-6").with_changes(initial_programs=1, code_rounds=0, strategy_rounds=0)
    asked = {}
    for name, spec in (("default", None), ("faithful", "answers")):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(extra=_prose_plans))
        make_pipeline(scripted_server, tmp_path / f"prose-{name}", config.with_changes(faithful=spec)).run()
        asked[name] = scripted_server.steps().count("strategy.plan")
    assert asked == {"default": 16, "faithful": 8}  # 6 validations + 2 final checks, each re-asked once by default
    solved = {}
    for name, spec in (("default", None), ("faithful", "answers")):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(extra=_numbered_plans))
        pipeline = make_pipeline(scripted_server, tmp_path / f"numbered-{name}", config.with_changes(faithful=spec))
        pipeline.run()
        checks = json.loads((pipeline.store.path / "results" / "strategy-v01.json").read_text())
        solved[name] = sum(c["solved"] for c in checks)
    assert solved == {"default": 6, "faithful": 0}  # "1. (sail ...)" does not start with "(": an empty plan


def test_the_reference_plan_extraction_point_by_point() -> None:
    from genplan.engine.extract import extract_plan_as_reference

    answer = "Solution: first try\n(a x)\nSolution:\n(Board C1 L0)\n  (sail l0 l1)\n1. (debark c1 l1)\n(sail l1 l0)"
    assert extract_plan_as_reference(answer).value == ["(board c1 l0)", "(sail l1 l0)"]  # after the last label
    assert extract_plan_as_reference("(a x)\nthen\n(b y)").value == ["(a x)", "(b y)"]  # no label: the whole answer
    assert extract_plan_as_reference("no plan").value == []  # never a failure


def test_orderings_are_drawn_afresh_at_every_check_and_reproducibly(tmp_path: Path) -> None:
    from genplan.engine.pddl import load_domain
    from genplan.engine.pipeline.checks import ProgramChecker, load_debug_tasks

    domain = load_domain(FERRY / "domain.pddl")
    tasks = load_debug_tasks(domain, sorted((FERRY / "debug").glob("*.pddl"))[-1:], False)
    program = ("def generate_solution(objects, init, goal):\n"
               "    raise ValueError(repr(list(init)))\n")

    def messages(redraw_seed: int | None) -> list[str]:
        checker = ProgramChecker(domain, tasks, 10.0, "generate_solution", "stein", orderings=4, ordered_sets=True,
                                 redraw_seed=redraw_seed)
        try:
            return [checker.check(program)[0].message for _ in range(3)]
        finally:
            checker.close()

    fixed = messages(None)
    assert len(set(fixed)) == 1  # genplan's default: the same orderings at every check of a task
    drawn = messages(1)
    assert len(set(drawn)) == 3  # the reference: new orderings at every check
    assert messages(1) == drawn  # from the run's seed: the same run draws the same


def test_bas_nl_is_one_growing_conversation(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    lengths = {}
    for name, spec in (("separate", "all,-bas-nl"), ("faithful", "all")):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(extra=_basic_descriptions))
        config = load_preset("Bas").with_changes(faithful=spec, code_rounds=0)
        pipeline = make_pipeline(scripted_server, tmp_path / name, config)
        pipeline.run()
        requests = scripted_server.requests_for("nl.task")
        lengths[name] = [len(r.messages) for r in requests]
        if name == "faithful":
            first = scripted_server.requests_for("nl.domain")[0].messages
            assert requests[0].messages[:len(first)] == first  # the domain request and its answer come first
            for task in pipeline.tasks:
                assert f"[[{task.problem.name.lower()}]]" in (task.nl or "")
    assert lengths == {"separate": [2, 2, 2, 2], "faithful": [4, 6, 8, 10]}


def test_a_get_plan_program_is_run_by_every_approach(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    get_plan_only = CORRECT_PROGRAM.replace("def generate_solution(", "def get_plan(")
    config = load_preset("F3-6").with_changes(initial_programs=1, code_rounds=0)
    solved = {}
    for name, spec in (("default", None), ("faithful", "get-plan")):
        scripted_server.clear()
        scripted_server.respond_with(FerryModel(programs=[get_plan_only]))
        solved[name] = make_pipeline(scripted_server, tmp_path / name, config.with_changes(faithful=spec)).run().debug_solved
    assert solved == {"default": 0, "faithful": 6}
