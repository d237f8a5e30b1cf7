"""One PDDLego+ or PlanGen trial on a genplan :class:`~genplan.engine.runs.run.Run`: the loop's model calls go
through ``run.ask`` (request files, resume by hash, step mode, stop), what it reports becomes events and files
of the run, and the trial's end is a :class:`~genplan.engine.runs.run.RunOutcome` the run records.

The run directory itself (made, locked, claimed, its status written) is the Run's business, not this module's.

Layout added to the ordinary run directory (see ``engine/runs/store.py``):
    pddl/sNN-aN-rN-domain.pddl, -problem.pddl   every file version the model wrote (step, attempt, retry)
    observations.md                             the game transcript: every command and the game's answer
    trial.json                                  outcome, calls, steps, the per-step attempt record, metrics
    summary.json                                the same, where other consumers look for a run's result
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from genplan.engine.events import (
    AttemptStarted,
    CommandExecuted,
    Notice,
    RunFailed,
    RunFinished,
    RunStarted,
    StepStarted,
    ValidationResult,
)
from genplan.engine.llm import ChatMessage, ModelAccessError
from genplan.engine.llm.budget import BUDGET_REASON
from genplan.engine.llm.replay import OUT_OF_ANSWERS, RecordedAnswers
from genplan.engine.pddlego.environment import StepResult, TextEnvironment
from genplan.engine.pddlego.loop import (
    CallInfo,
    PddlegoConfig,
    run_pddlego,
    run_plangen,
)
from genplan.engine.pddlego.solver import PddlSolver, SolverOutcome
from genplan.engine.prompts import PromptLibrary
from genplan.engine.runs import layout
from genplan.engine.runs.run import Run, RunOutcome, RunStopped
from genplan.engine.runs.status import RunStatus

STOPPED = RunStopped().reason  # the reason of a trial the person stopped (the TUI's ctrl+b): "stopped"
OBSERVATIONS = layout.OBSERVATIONS


def file_stem(where: CallInfo) -> str:
    return layout.trial_call_stem(where.step, where.attempt, where.retry)


class TrialEvents:
    """The loop's listener on a run: what the loop reports becomes the run's events and files."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.last_request: int | None = None  # the request whose answer the next files come from
        self._transcript: list[str] = []

    def step_started(self, step: int) -> None:
        self.run.publish(StepStarted(phase="time-step", step=step))
        self._append(f"\n## Step {step}\n")

    def attempt_started(self, step: int, attempt: int, replayed: list[str]) -> None:
        self.run.publish(AttemptStarted(step=step, attempt=attempt, replayed=len(replayed)))
        if attempt:
            self._append(f"\n(reset; replayed {len(replayed)} commands; attempt {attempt + 1})\n")

    def files_written(self, where: CallInfo, domain: str | None, problem: str | None) -> None:
        stem = file_stem(where)
        for kind, text in (("domain", domain), ("problem", problem)):
            if text is None:
                continue
            self.run.artifact(kind, f"{stem}-{kind}.pddl", text if text.endswith("\n") else text + "\n",
                              request_id=self.last_request, step=where.step, attempt=where.attempt,
                              retry=where.retry)

    def solver_result(self, where: CallInfo, outcome: SolverOutcome) -> None:
        self.run.publish(ValidationResult(what="pddl", step=where.step, attempt=where.attempt, retry=where.retry,
                         valid=outcome.ok, kind="plan" if outcome.ok else "solver-error",
                         message=outcome.error or " ; ".join(outcome.commands or []), planner=outcome.planner,
                         plan=list(outcome.plan) if outcome.ok and outcome.plan else None,
                         warnings=list(outcome.warnings) or None))

    def command_executed(self, step: int, attempt: int, result: StepResult) -> None:
        self.run.publish(CommandExecuted(step=step, attempt=attempt, command=result.command,
                         observation=result.observation, error=result.error, goal_reached=result.goal_reached))
        self._append(f"> {result.command}\n{result.observation.strip()}\n")
        if result.goal_reached:
            self._append("(goal reached)\n")

    def warning(self, step: int, message: str) -> None:
        self.run.publish(Notice(level="warning", message=message, step=step))

    def _append(self, text: str) -> None:
        self._transcript.append(text)
        self.run.write_text(OBSERVATIONS, "# Observations\n" + "".join(self._transcript))


REPORT_OMITS = ("record", "commands")  # in trial.json, not in what a front end prints of a trial


@dataclass
class TrialSpec:
    """What a trial is: the approach, its settings, and where the game comes from (for run.json)."""

    approach: str  # "pddlego" | "plangen"
    config: PddlegoConfig
    environment: dict[str, Any]
    preset: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  # further run.json fields (trial, target, parameters)

    def meta(self) -> dict[str, Any]:
        """What a new trial's ``run.json`` records besides the id, status, time and model."""
        return {"approach": self.approach, "config": {"preset": self.preset or self.approach, **asdict(self.config)},
                "environment": self.environment, **self.extra}


def play(run: Run, env: TextEnvironment, spec: TrialSpec, solver: PddlSolver | None = None,
         prompts: PromptLibrary | None = None) -> RunOutcome:
    """Play one trial in ``env`` on ``run``; its outcome (``value``: the loop's TrialResult) for the run to record.

    The game is played from its start every time: on a resumed run or a fork every answer on disk is given back
    by the run's gateway instead of being asked again (the game is deterministic for a seed, so the prompts and
    their hashes are the same). A stop (the person's, or step mode's) ends the trial where it is, with the
    reason "stopped" and the status stopped; a replay that runs out of recorded answers ends it with the reason
    "out-of-answers"; a model that cannot be reached ends the run failed (``value``: the error)."""
    events = TrialEvents(run)

    def ask(step_name: str, prompt: str, where: CallInfo) -> str:
        try:
            run.check_stop()
            request_id = run.next_id()
            events.last_request = request_id
            response = run.ask(step_name, [ChatMessage("user", prompt)], request_id=request_id,
                               time_step=where.step, attempt=where.attempt, retry=where.retry)
        except ModelAccessError as err:
            if err.kind == OUT_OF_ANSWERS:
                raise RunStopped(str(err), reason=OUT_OF_ANSWERS) from None
            raise
        # a RunStopped (the person stopped the trial, in step mode or instead of answering) ends it as "stopped"
        return response.text

    run.publish(RunStarted(approach=spec.approach, preset=spec.preset, environment=spec.environment))
    started = time.monotonic()
    prompts = prompts or PromptLibrary()
    try:
        if spec.approach == "plangen":
            result = run_plangen(env, ask, prompts, spec.config, events)
        else:
            if solver is None:
                raise ValueError("PDDLego+ needs a solver")
            result = run_pddlego(env, ask, solver, prompts, spec.config, events)
    except ModelAccessError as err:  # the model could not be used: the run failed, as it ended
        return RunOutcome(RunStatus.FAILED, RunFailed(error=str(err)), meta={"error": str(err)}, value=err)
    summary = {**result.to_dict(), "wall_seconds": round(time.monotonic() - started, 3),
               "totals": run.totals.to_dict(), "resumed_responses": run.totals.resumed}
    # a stop, the person's or at the budget's cap: the trial goes on when resumed
    status = RunStatus.STOPPED if result.reason in (STOPPED, BUDGET_REASON) else RunStatus.FINISHED
    # what a front end prints (the same for a new trial and a resumed one): the summary but for the bulky record
    # and commands (the trial's files hold them), and the game's seed
    report = {**{k: v for k, v in summary.items() if k not in REPORT_OMITS}, "seed": spec.environment.get("seed")}
    return RunOutcome(status, RunFinished(status=status, outcome=result.outcome, reason=result.reason,
                                          calls=result.calls, steps=result.steps),
                      summary=summary, report=report, trial=True, meta={"outcome": result.outcome}, value=result)


class ReplayProvider(RecordedAnswers):
    """Answers with a recorded trial's answers, in order; one more request is an error of kind
    ``out-of-answers`` (the replay asked more than the original run did)."""

    source = "recorded trial"

    @property
    def used(self) -> int:
        return self.position
