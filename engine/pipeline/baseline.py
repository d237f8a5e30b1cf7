"""The baselines: Bas (the paper's re-implementation of Silver et al., separate steps, selection on the
debug tasks) and Sil (Silver et al.: one conversation, four feedback types, the last program counts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import SelectionMade, StepStarted
from ..extract import Extraction, extract_nl, extract_strategy
from ..feedback.silver import fix_variables
from ..pddl.encoding import render_problem_abbreviated
from .checks import ProgramChecker
from .runner import assistant, code_extractor, user

if TYPE_CHECKING:
    from .runner import Pipeline


def bas_strategy(text: str) -> Extraction[str]:
    """Bas's strategy may be plain prose: a labelled or fenced strategy if there is one, else the answer."""
    return extract_strategy(text, fallback_to_text=True)


def run_bas(p: Pipeline, checker: ProgramChecker) -> None:
    """Stein et al.'s Bas: NL descriptions of the domain and the debug tasks (as in the main pipeline) ->
    an NL strategy from those -> validated once, never refined -> code whose example task has no plan ->
    direct fixes with Silver's feedback; the program is selected on the debug tasks."""
    p.nl_phase()
    p.bus.publish(StepStarted(phase="baseline-strategy"))
    strategy_msgs = [
        p.system(),
        user(p.render("strategy", domain_nl=p.domain_nl, example_tasks=[t.nl for t in p.prompt_tasks()])),
    ]
    strategy_text, history, _ = p.ask_extract("baseline.strategy", strategy_msgs, bas_strategy, "strategy")
    if strategy_text is None:
        return
    strategy = p.add_strategy(strategy_text, history[-1].content)
    if p.config.validate_unrefined_strategy:
        p.validate_strategy(strategy)  # Table 8: Bas's 15 calls at least include one validation round
    p.select_strategy()
    if p.config.bas_example_plan:
        example_task, example_plan = p.example()
        spec = p.code_spec(example_task.python, example_plan)
    else:
        spec = p.code_spec(p.prompt_tasks()[0].python, None)
    functions = (p.config.function_name,)
    base = [p.system(), user(p.render("code", domain_nl=p.domain_nl, strategy=strategy.text, **spec))]
    p.bus.publish(StepStarted(phase="code", candidate=1))
    code, history, _ = p.ask_extract("baseline.code", base, code_extractor(functions), "code")
    if code is None:
        return
    current = p.add_program(1, code, history[-1].content, checker)
    selector = p.failure_selector(1)
    conversation = history
    for _ in range(p.config.code_rounds):
        failed = selector.choose(current.checks)
        if failed is None:
            break
        task = next(t for t in p.tasks if t.name == failed.task)
        if p.config.code_history == "latest":
            conversation = [*base, assistant(current.response_text)]
        failed_input = str(failed.details.get("python_input") or task.python_text)
        fix = [*conversation, user(p.render("fix", failed_task=failed_input, output=failed.output, feedback=failed.message))]
        code, history, _ = p.ask_extract("baseline.fix", fix, code_extractor(functions, current.text), "code")
        if code is None:
            break
        conversation = history
        current = p.add_program(1, code, history[-1].content, checker)
    best = p.best(p.programs)
    if best is not None:
        p.bus.publish(SelectionMade(kind="program", version=best.label, solved=best.solved, total=len(p.tasks), file=best.file))


def run_sil(p: Pipeline, checker: ProgramChecker) -> None:
    """One conversation; training tasks checked in order (the two prompt tasks first), stopping at the first
    failure; up to four fixes; each answer extends the previous program; the last program is the result."""
    prompt_names = {t.name for t in p.prompt_tasks()}
    checker.tasks = [t for t in p.tasks if t.name in prompt_names] + [t for t in p.tasks if t.name not in prompt_names]
    training = [render_problem_abbreviated(t.problem) for t in p.prompt_tasks()]
    messages = [p.system(), user(p.render("summary", domain_pddl=p.domain.source, training_tasks=training))]
    p.bus.publish(StepStarted(phase="baseline-summary"))
    summary, messages, _ = p.ask_extract("baseline.summary", messages, extract_nl, "nl")
    p.artifact("nl_domain", "nl/summary.md", summary or messages[-1].content)
    p.bus.publish(StepStarted(phase="baseline-strategy"))
    strategy, messages, _ = p.ask_extract(
        "baseline.strategy", [*messages, user(p.render("strategy"))], extract_nl, "strategy"
    )
    if strategy is not None:
        p.add_strategy(strategy, messages[-1].content)
    functions = (p.config.function_name,)
    p.bus.publish(StepStarted(phase="code", candidate=1))
    messages = [*messages, user(p.render("code", typed_objects=p.domain_dir.typed_objects))]
    code, messages, _ = p.ask_extract("baseline.code", messages, code_extractor(functions), "code")
    if code is None:
        return
    current = p.add_program(1, code, messages[-1].content, checker, stop_at_first_failure=True)
    for _ in range(p.config.silver_fixes):
        failed = next((c for c in current.checks if not c.solved), None)
        if failed is None:
            break
        task = next(t for t in p.tasks if t.name == failed.task)
        operators = [a.lifted() for a in p.domain.actions.values()]
        fix = [*messages, user(p.render("fix", **fix_variables(failed, task.pddl, operators)))]
        code, messages, _ = p.ask_extract("baseline.fix", fix, code_extractor(functions, current.text), "code")
        if code is None:
            break
        current = p.add_program(1, code, messages[-1].content, checker, stop_at_first_failure=True)
    # Silver et al. keep the last program; check it on all debug tasks for the record
    final = p.programs[-1]
    final.checks = checker.check(final.text)
    p.store.write_json(f"results/program-{final.label}-all.json", [c.to_dict() for c in final.checks])
    p.bus.publish(SelectionMade(kind="program", version=final.label, solved=final.solved, total=len(p.tasks), file=final.file))
