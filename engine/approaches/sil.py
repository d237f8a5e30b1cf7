"""Sil, Silver et al.'s approach: one conversation, a get_plan program, four fixes with their four feedback
types and a 30 s limit; the last program is the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from genplan.engine.approaches import Approach, register
from genplan.engine.approaches.context import pipeline_fields
from genplan.engine.events import SelectionMade, StepStarted
from genplan.engine.extract import extract_nl
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.feedback.silver import fix_variables
from genplan.engine.pddl.encoding import render_problem_abbreviated
from genplan.engine.pipeline.conversation import code_extractor, user

if TYPE_CHECKING:
    from genplan.engine.approaches.context import PipelineContext
    from genplan.engine.pipeline.checks import ProgramChecker


def run(ctx: PipelineContext, checker: ProgramChecker) -> None:
    """One conversation; training tasks checked in order (the two prompt tasks first), stopping at the first
    failure; up to four fixes; each answer extends the previous program; the last program is the result."""
    prompt_names = {t.name for t in ctx.prompt_tasks()}
    checker.tasks = [t for t in ctx.tasks if t.name in prompt_names] + [t for t in ctx.tasks if t.name not in prompt_names]
    training = [render_problem_abbreviated(t.problem) for t in ctx.prompt_tasks()]
    messages = [ctx.system(), user(ctx.render("summary", domain_pddl=ctx.domain.source, training_tasks=training))]
    ctx.publish(StepStarted(phase="baseline-summary"))
    summary, messages, _ = ctx.ask_extract("baseline.summary", messages, extract_nl, "nl")
    ctx.artifact("nl_domain", "nl/summary.md", summary or messages[-1].content)
    ctx.publish(StepStarted(phase="baseline-strategy"))
    strategy, messages, _ = ctx.ask_extract(
        "baseline.strategy", [*messages, user(ctx.render("strategy"))], extract_nl, "strategy"
    )
    if strategy is not None:
        ctx.add_strategy(strategy, messages[-1].content)
    functions = (ctx.config.function_name,)
    ctx.publish(StepStarted(phase="code", candidate=1))
    messages = [*messages, user(ctx.render("code", typed_objects=ctx.domain_dir.typed_objects))]
    code, messages, _ = ctx.ask_extract("baseline.code", messages, code_extractor(functions), "code")
    if code is None:
        return
    current = ctx.add_program(1, code, messages[-1].content, checker, stop_at_first_failure=True)
    for _ in range(ctx.config.silver_fixes):
        failed = next((c for c in current.checks if not c.solved), None)
        if failed is None:
            break
        task = next(t for t in ctx.tasks if t.name == failed.task)
        operators = [a.lifted() for a in ctx.domain.actions.values()]
        fix = [*messages, user(ctx.render("fix", **fix_variables(failed, task.pddl, operators)))]
        code, messages, _ = ctx.ask_extract("baseline.fix", fix, code_extractor(functions, current.text), "code")
        if code is None:
            break
        current = ctx.add_program(1, code, messages[-1].content, checker, stop_at_first_failure=True)
    # Silver et al. keep the last program; check it on all debug tasks for the record
    final = ctx.programs[-1]
    final.checks = checker.check(final.text)
    ctx.write_result(f"results/program-{final.label}-all.json", [c.to_dict() for c in final.checks])
    ctx.publish(SelectionMade(kind="program", version=final.label, solved=final.solved, total=len(ctx.tasks), file=final.file))


APPROACH = register(Approach(
    name="sil",
    title="Sil: Silver et al. (one conversation, four feedback types, the last program counts)",
    prompt_variant="silver",
    feedback_style=FeedbackStyle.SILVER,
    function_name="get_plan",
    **pipeline_fields("sil", "get_plan", run),
    select_last=True,
    baseline=True,  # the paper compares genplan's presets with it
    presets={"Sil": {"strategy_rounds": 0, "code_rounds": 4, "initial_programs": 1, "code_reflection": False,
                     "program_timeout_s": 30.0, "debug_orderings": 1,  # Silver et al. debug on one ordering
                     "final_strategy_check": False}},
))
