"""Stein et al.'s strategy-refinement pipeline: NL descriptions, a pseudocode strategy debugged with the plan
validator and reflection, N code candidates debugged with reflection, the best program on the debug tasks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from genplan.engine.approaches import Approach, register
from genplan.engine.approaches.context import pipeline_fields
from genplan.engine.events import Notice, SelectionMade, StepFinished, StepStarted
from genplan.engine.extract import extract_nl, extract_strategy
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.pddl.encoding import render_task
from genplan.engine.pipeline.checks import Version, best_version
from genplan.engine.pipeline.conversation import assistant, code_extractor, user
from genplan.engine.pipeline.orderings import candidate_examples, sorted_task

if TYPE_CHECKING:
    from genplan.engine.approaches.context import PipelineContext
    from genplan.engine.llm import ChatMessage
    from genplan.engine.pddl.encoding import PythonTask
    from genplan.engine.pipeline.checks import DebugTask, ProgramChecker, TaskCheck


def run(ctx: PipelineContext, checker: ProgramChecker) -> None:
    ctx.nl_phase()
    if ctx.config.strategy_rounds > 0:
        strategy = strategy_phase(ctx)
    else:
        strategy = first_strategy(ctx)
        if strategy is not None and ctx.config.validate_unrefined_strategy:
            ctx.validate_strategy(strategy)  # -SD: checked once, never refined; its plans may be the example
        ctx.select_strategy()
    if strategy is None:
        ctx.publish(Notice(level="error", message="no strategy could be obtained; the run stops"))
        return
    final_check = final_strategy_check(ctx, strategy) if ctx.config.final_strategy_check else {}
    code_phase(ctx, checker, strategy, final_check)


def reflect(ctx: PipelineContext, step: str, messages: list[ChatMessage], path: str, *, about: str, version: str,
            task: str) -> list[ChatMessage]:
    """Ask for a reflection on a failed check, keep it as an artefact; the conversation after it."""
    reflection, after, _ = ctx.ask_extract(step, messages, extract_nl, "nl", task=task, version=version)
    ctx.artifact("reflection", path, reflection or after[-1].content, about=about, version=version, task=task)
    return after


# ---------------------------------------------------------------- 2) strategy
def first_strategy(ctx: PipelineContext) -> Version | None:
    ctx.publish(StepStarted(phase="strategy", round=0))
    messages = [
        ctx.system(),
        user(ctx.render("strategy_generate", domain_nl=ctx.domain_nl, example_tasks=[t.nl for t in ctx.prompt_tasks()])),
    ]
    text, history, _ = ctx.ask_extract("strategy.generate", messages, extract_strategy, "strategy")
    if text is None:
        return None
    return ctx.add_strategy(text, history[-1].content)


def strategy_phase(ctx: PipelineContext) -> Version | None:
    """2.2-2.3: validate the strategy; on a failed task, reflect on it and revise, up to K_S rounds."""
    current = first_strategy(ctx)
    selector = ctx.failure_selector(0)
    for round_number in range(ctx.config.strategy_rounds + 1):
        if current is None:
            break
        conversations = ctx.validate_strategy(current)
        if current.solved == len(ctx.tasks) or round_number == ctx.config.strategy_rounds:
            break
        failed = selector.choose(current.checks)
        assert failed is not None
        ctx.publish(StepStarted(phase="strategy", round=round_number + 1, task=failed.task))
        reflect_messages = [
            *conversations[failed.task],
            user(ctx.render("strategy_reflect", plan=failed.output or [], feedback=failed.message)),
        ]
        after = reflect(ctx, "strategy.reflect", reflect_messages, f"reflections/strategy-{current.label}-{failed.task}.md",
                        about="strategy", version=current.label, task=failed.task)
        revise = [*after, user(ctx.render("strategy_revise"))]
        text, history_after, _ = ctx.ask_extract("strategy.revise", revise, extract_strategy, "strategy", version=current.label)
        if text is None:
            break
        current = ctx.add_strategy(text, history_after[-1].content)
    return ctx.select_strategy()


def final_strategy_check(ctx: PipelineContext, strategy: Version) -> dict[str, TaskCheck]:
    """The reference code re-plans the two prompt tasks with the chosen strategy; a correct plan from this
    check is the code prompt's example (2 calls: Table 8's minimum of 17)."""
    ctx.publish(StepStarted(phase="strategy-final-check", version=strategy.label))
    template = "strategy_final_check" if ctx.config.final_check_prompt == "fresh" else "strategy_plan"
    outcomes = ctx.plan_with_strategy(strategy, ctx.prompt_tasks(), "strategy.plan", template)
    ctx.publish_checks("strategy-final", strategy.label, [check for check, _ in outcomes])
    ctx.write_result(f"results/strategy-{strategy.label}-final.json", [c.to_dict() for c, _ in outcomes])
    ctx.publish(StepFinished(phase="strategy-final-check", version=strategy.label, solved=sum(c.solved for c, _ in outcomes)))
    return {check.task: check for check, _ in outcomes}


# ---------------------------------------------------------------- 3) code
def example_encodings(ctx: PipelineContext, task: DebugTask) -> list[PythonTask]:
    """The example input of each candidate (see orderings.candidate_examples)."""
    config = ctx.config
    if config.initial_programs == 1 and config.sorted_presentation:
        return [sorted_task(task.python)]  # the reference's single-program agent shows its example sorted
    if config.initial_programs == 1 and not config.shuffle_all_candidates:
        return [task.python]
    return candidate_examples(task.python, config.initial_programs, config.split_seed, config.shuffle_all_candidates)


def feedback_variables(ctx: PipelineContext, version: Version, failed: TaskCheck) -> dict[str, Any]:
    """Table 13's feedback on a program: the tasks it solved (with their plans) and the one it failed."""
    by_name = {t.name: t for t in ctx.tasks}
    shown = (lambda t: render_task(sorted_task(t.python))) if ctx.config.sorted_presentation else (lambda t: t.python_text)
    solved = [{"task": shown(by_name[c.task]), "plan": c.output} for c in version.checks if c.solved]
    failed_task = shown(by_name[failed.task]) if ctx.config.sorted_presentation else None
    return {
        "solved": solved,
        "failed_task": failed_task or failed.details.get("python_input") or by_name[failed.task].python_text,
        "output": failed.output,
        "feedback": failed.message,
    }


def code_phase(ctx: PipelineContext, checker: ProgramChecker, strategy: Version,
               final_check: Mapping[str, TaskCheck]) -> None:
    """3: N candidates from the strategy, each debugged for up to K_C rounds (reflection, then revision); the
    best program on the debug tasks is selected. A candidate that solves every task ends the phase."""
    config = ctx.config
    example_task, example_plan = ctx.example(final_check)
    encodings = example_encodings(ctx, example_task)
    functions = (config.function_name, *checker.also_accepted)  # --faithful's get-plan: get_plan too
    for candidate in range(1, config.initial_programs + 1):
        ctx.publish(StepStarted(phase="code", candidate=candidate))
        spec = ctx.code_spec(encodings[candidate - 1], example_plan)
        base = [ctx.system(), user(ctx.render("code_generate", domain_nl=ctx.domain_nl, pseudocode=strategy.text, **spec))]
        code, history, _ = ctx.ask_extract("code.generate", base, code_extractor(functions), "code", candidate=candidate)
        if code is None:
            continue
        current = ctx.add_program(candidate, code, history[-1].content, checker)
        selector = ctx.failure_selector(candidate)
        # "conversation" (reference code): every earlier reflection, feedback and program stays in context
        conversation = history
        for _ in range(config.code_rounds):
            failed = selector.choose(current.checks)
            if failed is None and config.counterexample_search and ctx.add_counterexample(current, checker):
                failed = selector.choose(current.checks)  # the shrunk counterexample is a debug task now
            if failed is None:
                break
            variables = feedback_variables(ctx, current, failed)
            if config.code_history == "latest":
                conversation = [*base, assistant(current.response_text)]
            if config.code_reflection:
                reflect_messages = [*conversation, user(ctx.render("code_reflect", **variables))]
                after = reflect(ctx, "code.reflect", reflect_messages, f"reflections/code-{current.label}.md",
                                about="program", version=current.label, task=failed.task)
                revise = [*after, user(ctx.render("code_revise"))]
            else:
                revise = [*conversation, user(ctx.render("code_revise_direct", **variables))]
            code, history, _ = ctx.ask_extract(
                "code.revise", revise, code_extractor(functions, current.text), "code",
                task=failed.task, version=current.label,
            )
            if code is None:
                break
            conversation = history
            current = ctx.add_program(candidate, code, history[-1].content, checker)
        if any(p.solved == len(ctx.tasks) for p in ctx.programs):
            break
    best = best_version(ctx.programs)
    if best is not None:
        ctx.publish(SelectionMade(kind="program", version=best.label, solved=best.solved, total=len(ctx.tasks), file=best.file))


# The paper's numbers: F5-3 (N=5 initial programs, K_C=3 code rounds), F3-6 (N=3, K_C=6), both with K_S=5
# strategy rounds and a 45 s program limit; the ablations of F3-6 drop one part each.
_F36 = {"strategy_rounds": 5, "code_rounds": 6, "initial_programs": 3}

APPROACH = register(Approach(
    name="stein",
    title="Stein et al.: strategy debugging and code debugging with reflection",
    prompt_variant="stein",
    feedback_style=FeedbackStyle.STEIN,
    function_name="generate_solution",
    **pipeline_fields("stein", "generate_solution", run),
    presets={
        "F5-3": {"strategy_rounds": 5, "code_rounds": 3, "initial_programs": 5},
        "F3-6": _F36,
        "F3-6-MC": {**_F36, "initial_programs": 1},  # one initial program
        "F3-6-SD": {**_F36, "strategy_rounds": 0},  # no strategy debugging
        "F3-6-CR": {**_F36, "code_reflection": False},  # code revised without reflection
        # beyond the paper: F5-3, plus a counterexample search when a program solves every debug task
        "F5-3+CE": {"strategy_rounds": 5, "code_rounds": 3, "initial_programs": 5, "counterexample_search": True},
    },
))
