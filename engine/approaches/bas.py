"""Bas, the paper's re-implementation of the baseline: summary, strategy and code as separate steps, Silver
et al.'s feedback, no reflection and no strategy debugging; the program is selected on the debug tasks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from genplan.engine.approaches import Approach, register
from genplan.engine.approaches.context import pipeline_fields
from genplan.engine.approaches.stein import final_strategy_check
from genplan.engine.events import SelectionMade, StepStarted
from genplan.engine.extract import Extraction, extract_strategy
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.pddl.encoding import render_task
from genplan.engine.pipeline.checks import best_version
from genplan.engine.pipeline.config import made_before_reproduction
from genplan.engine.pipeline.conversation import assistant, code_extractor, user
from genplan.engine.pipeline.orderings import sorted_task

if TYPE_CHECKING:
    from genplan.engine.approaches.context import PipelineContext
    from genplan.engine.pddl.encoding import PythonTask
    from genplan.engine.pipeline.checks import DebugTask, ProgramChecker, TaskCheck


def bas_strategy(text: str) -> Extraction[str]:
    """Bas's strategy may be plain prose: a labelled or fenced strategy if there is one, else the answer."""
    return extract_strategy(text, fallback_to_text=True)


def run(ctx: PipelineContext, checker: ProgramChecker) -> None:
    """NL descriptions of the domain and the debug tasks (as in the main pipeline) -> an NL strategy from those
    -> validated once, never refined -> code whose example task has no plan -> direct fixes with Silver's
    feedback; the program is selected on the debug tasks."""
    config = ctx.config
    reference = config.bas_style == "reference"
    if reference:  # baseline.json's basic description agent (--faithful)
        ctx.basic_nl_phase()
    else:
        ctx.nl_phase()
    ctx.publish(StepStarted(phase="baseline-strategy"))
    strategy_msgs = [
        ctx.system(),
        user(ctx.render("strategy", domain_nl=ctx.domain_nl, example_tasks=[t.nl for t in ctx.prompt_tasks()])),
    ]
    strategy_text, history, _ = ctx.ask_extract("baseline.strategy", strategy_msgs, bas_strategy, "strategy")
    if strategy_text is None:
        return
    strategy = ctx.add_strategy(strategy_text, history[-1].content)
    if config.validate_unrefined_strategy:
        ctx.validate_strategy(strategy)  # Table 8: Bas's 15 calls at least include one validation round
    ctx.select_strategy()
    final_check = final_strategy_check(ctx, strategy) if config.final_strategy_check else {}
    if reference:
        plan = example_plan_of(ctx, final_check) if config.bas_example_plan else None
        spec = ctx.code_spec(_pipeline_example(ctx, final_check), plan)
    elif config.bas_example_plan:
        example_task, example_plan = ctx.example()
        spec = ctx.code_spec(_shown(ctx, example_task.python), example_plan)
    else:
        spec = ctx.code_spec(_shown(ctx, ctx.prompt_tasks()[0].python), None)
    # the reference runs a program that defines get_plan but no generate_solution (agents/gen_plan_execution.py)
    functions = (config.function_name, "get_plan") if reference or config.get_plan_accepted else (config.function_name,)
    checker.also_accepted = functions[1:]
    base = [ctx.system(), user(ctx.render("code", domain_nl=ctx.domain_nl, strategy=strategy.text, **spec))]
    ctx.publish(StepStarted(phase="code", candidate=1))
    code, history, _ = ctx.ask_extract("baseline.code", base, code_extractor(functions), "code")
    if code is None:
        return
    current = ctx.add_program(1, code, history[-1].content, checker)
    selector = ctx.failure_selector(1)
    conversation = history
    for _ in range(config.code_rounds):
        failed = selector.choose(current.checks)
        if failed is None:
            break
        task = next(t for t in ctx.tasks if t.name == failed.task)
        if config.code_history == "latest":
            conversation = [*base, assistant(current.response_text)]
        if config.sorted_presentation:  # the reference shows the failed task sorted, not in the failing ordering
            failed_input = render_task(sorted_task(task.python))
        else:
            failed_input = str(failed.details.get("python_input") or task.python_text)
        fix = [*conversation, user(ctx.render("fix", failed_task=failed_input, output=failed.output, feedback=failed.message))]
        code, history, _ = ctx.ask_extract("baseline.fix", fix, code_extractor(functions, current.text), "code")
        if code is None:
            break
        conversation = history
        current = ctx.add_program(1, code, history[-1].content, checker)
    best = best_version(ctx.programs)
    if best is not None:
        ctx.publish(SelectionMade(kind="program", version=best.label, solved=best.solved, total=len(ctx.tasks), file=best.file))


def _example_task(ctx: PipelineContext, final_check: Mapping[str, TaskCheck]) -> DebugTask:
    """The example task as the reference pipeline picks it (agents/agent_code_gen_basic.py,
    select_initial_prompt_examples): the first task, prompt tasks first, whose latest plan from the strategy
    (final check, else validation) is correct; else the first prompt task."""
    prompt = ctx.prompt_tasks()
    ordered = [*prompt, *(t for t in ctx.tasks if t not in prompt)]
    latest = ctx.latest_plans(final_check)
    return next((t for t in ordered if t.name in latest and latest[t.name].solved), prompt[0])


def _shown(ctx: PipelineContext, task: PythonTask) -> PythonTask:
    """The example task as the code prompt shows it: sorted with --faithful (as the reference does), else in
    file order."""
    return sorted_task(task) if ctx.config.sorted_presentation else task


def _pipeline_example(ctx: PipelineContext, final_check: Mapping[str, TaskCheck]) -> PythonTask:
    return _shown(ctx, _example_task(ctx, final_check).python)


def example_plan_of(ctx: PipelineContext, final_check: Mapping[str, TaskCheck]) -> list[str] | None:
    """A correct plan of the chosen example task, when Bas is asked to show one (bas_example_plan)."""
    check = ctx.latest_plans(final_check).get(_example_task(ctx, final_check).name)
    return check.output if check is not None and check.solved and check.output else None


def refuse_resume(meta: Mapping[str, Any]) -> str | None:
    """Bas changed its steps to the paper's (NL descriptions, no PDDL summary): an earlier Bas run's answers
    belong to steps today's Bas never asks, so continuing it would silently start over."""
    config = meta.get("config")
    if isinstance(config, Mapping) and made_before_reproduction(config):
        return ("made by genplan's earlier Bas (a PDDL summary, no NL descriptions); Bas now follows the paper "
                "(docs/reproduction.md), so this run opens and replays but cannot be continued; start a new run")
    return None


APPROACH = register(Approach(
    name="bas",
    title="Bas: the paper's re-implemented baseline (summary, strategy, code; Silver's feedback)",
    prompt_variant="baseline",
    feedback_style=FeedbackStyle.SILVER,
    function_name="generate_solution",
    **pipeline_fields("bas", "generate_solution", run),
    refuse_resume=refuse_resume,
    # 5 fix rounds as in the reference configuration (Table 8's maximum of 21 calls implies 6); the strategy is
    # validated once and never refined, and no final strategy check re-plans the prompt tasks
    baseline=True,  # the paper compares genplan's presets with it
    presets={"Bas": {"strategy_rounds": 0, "code_rounds": 5, "initial_programs": 1, "code_reflection": False,
                     "final_strategy_check": False}},
))
