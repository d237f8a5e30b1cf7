"""A toy approach with a loop of its own (it writes no programs), registered by this one module.

"Guess" asks the model once for a plan of the domain's first debug task, keeps the answer as ``plans/guess.txt``
and evaluates itself: the plan is checked by the validator on that task (1 of 1 solved, or 0). It has a preset
(``Guess``), typed parameters, resume, step mode, fork from an edited plan and a domain directory to run on;
nothing else in genplan names it. tests/test_toy_everywhere.py takes it through every front-end operation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.approaches import Approach, Capability, EvaluationSettings, register, unregister
from genplan.engine.domainlib import DomainDir
from genplan.engine.errors import GenplanError, RunStopped
from genplan.engine.events import RunFinished, RunStarted
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.llm.types import ChatMessage
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.runs.outcome import self_evaluation_record
from genplan.engine.runs.run import NewRun, Run, RunOutcome
from genplan.engine.runs.status import RunStatus

NAME = "guess"
PLAN_FILE = "plans/guess.txt"
ASK = "Write a plan for this task, one action per line, like (board car1 loc1)."


@dataclass(frozen=True)
class GuessParameters:
    preset: str = "Guess"
    evaluate: bool = True  # check the plan (its evaluation of itself)


def parameters(values: Mapping[str, Any]) -> GuessParameters:
    unknown = sorted(set(values) - {"preset", "evaluate"})
    if unknown:
        raise GenplanError(f"guess: unknown parameter {unknown[0]!r}")
    return GuessParameters(**values)


def new_run(target: str, params: GuessParameters) -> NewRun:
    return NewRun({"approach": NAME, "preset": params.preset, "domain_dir": str(Path(target).resolve()),
                   "config": {"approach": NAME, "preset": params.preset, "evaluate": params.evaluate}}, stem="guess")


def reopen(meta: Mapping[str, Any]) -> tuple[str, GuessParameters]:
    config = {k: v for k, v in dict(meta.get("config") or {}).items() if k != "approach"}
    return str(meta.get("domain_dir") or ""), parameters(config)


def edited_answer(run_dir: Path, relative: str, kind: str, text: str) -> str:
    return text  # the answer was the plan itself


def run(run: Run) -> RunOutcome:
    domain_dir = DomainDir.open(run.target)
    task_file = domain_dir.debug_tasks()[0]
    run.publish(RunStarted(approach=NAME, preset=run.parameters.preset, domain=domain_dir.name))
    messages = [ChatMessage("user", f"{ASK}\n\n{domain_dir.domain_file.read_text()}\n\n{task_file.read_text()}")]
    try:
        request_id = run.next_id()
        answer = run.ask("guess.plan", messages, request_id=request_id).text
    except RunStopped as exc:
        return RunOutcome(RunStatus.STOPPED, RunFinished(status=RunStatus.STOPPED, message=str(exc)))
    run.artifact("plan", PLAN_FILE, answer, request_id=request_id)
    summary: dict[str, Any] = {"status": RunStatus.FINISHED, "calls": 1}
    if run.parameters.evaluate:
        domain = load_domain(domain_dir.domain_file)
        task = load_problem(task_file, domain)
        lines = [line.strip() for line in answer.splitlines() if line.strip().startswith("(")]
        valid = validate_plan(domain, task, lines).valid
        summary["self_evaluation"] = self_evaluation_record(1 if valid else 0, 1)
    return RunOutcome(RunStatus.FINISHED, RunFinished(status=RunStatus.FINISHED, calls=1), summary=summary)


def self_evaluation(asked: EvaluationSettings) -> dict[str, Any]:
    if asked.task_set != "eval":
        raise GenplanError("guess checks its plan on its own task only")
    return {"evaluate": asked.enabled}


def register_guess() -> Approach[Any]:
    return register(Approach(
        name=NAME, title="guess a plan of one task and check it", prompt_variant="stein",
        feedback_style=FeedbackStyle.STEIN, function_name="", run=run, parameters=parameters, new_run=new_run,
        reopen=reopen, edited_answer=edited_answer,
        capabilities=frozenset({Capability.RESUME, Capability.STEP, Capability.FORK, Capability.DOMAIN_DIR}),
        command="genplan run DOMAIN_DIR", presets={"Guess": {}}, self_evaluation=self_evaluation,
    ))


def unregister_guess() -> None:
    unregister(NAME)
