"""One PDDLego+ or PlanGen trial as a genplan run: a run directory, its event log, every model call on disk.

Layout added to the ordinary run directory (see ``engine/runs/store.py``):
    pddl/sNN-aN-rN-domain.pddl, -problem.pddl   every file version the model wrote (step, attempt, retry)
    observations.md                             the game transcript: every command and the game's answer
    trial.json                                  outcome, calls, steps, the per-step attempt record, metrics
    summary.json                                the same, where other consumers look for a run's result
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..events import (
    ArtifactCreated,
    AttemptStarted,
    CommandExecuted,
    EventBus,
    Notice,
    RunFailed,
    RunFinished,
    RunStarted,
    StepStarted,
    ValidationResult,
)
from ..llm import ChatMessage, ChatRequest, ChatResponse, ModelAccessError, Provider
from ..llm.manual import AnswerCancelled
from ..llm.replay import OUT_OF_ANSWERS, RecordedAnswers
from ..prompts import PromptLibrary
from ..runs import create
from ..runs.gateway import Controller, ModelGateway, RunStopped
from ..runs.lock import RunLock
from ..runs.outcome import write_outcome
from ..runs.status import RunStatus
from ..runs.store import RunStore
from .environment import StepResult, TextEnvironment
from .loop import (
    CallInfo,
    PddlegoConfig,
    StopTrial,
    TrialResult,
    run_pddlego,
    run_plangen,
)
from .solver import PddlSolver, SolverOutcome

STOPPED = "stopped"  # the reason of a trial the person stopped (the TUI's ctrl+b)


def file_stem(where: CallInfo) -> str:
    return f"pddl/s{where.step:02d}-a{where.attempt}-r{where.retry}"


class RunListener:
    """Turns what the loop reports into events and files of the run."""

    def __init__(self, store: RunStore, bus: EventBus) -> None:
        self.store = store
        self.bus = bus
        self.last_request: int | None = None  # the request whose answer the next files come from
        self._transcript: list[str] = []

    def step_started(self, step: int) -> None:
        self.bus.publish(StepStarted(phase="time-step", step=step))
        self._append(f"\n## Step {step}\n")

    def attempt_started(self, step: int, attempt: int, replayed: list[str]) -> None:
        self.bus.publish(AttemptStarted(step=step, attempt=attempt, replayed=len(replayed)))
        if attempt:
            self._append(f"\n(reset; replayed {len(replayed)} commands; attempt {attempt + 1})\n")

    def files_written(self, where: CallInfo, domain: str | None, problem: str | None) -> None:
        stem = file_stem(where)
        for kind, text in (("domain", domain), ("problem", problem)):
            if text is None:
                continue
            relative = f"{stem}-{kind}.pddl"
            self.store.write_text(relative, text if text.endswith("\n") else text + "\n")
            self.bus.publish(ArtifactCreated(kind=kind, file=relative, request_id=self.last_request,
                             step=where.step, attempt=where.attempt, retry=where.retry))

    def solver_result(self, where: CallInfo, outcome: SolverOutcome) -> None:
        self.bus.publish(ValidationResult(what="pddl", step=where.step, attempt=where.attempt, retry=where.retry,
                         valid=outcome.ok, kind="plan" if outcome.ok else "solver-error",
                         message=outcome.error or " ; ".join(outcome.commands or []), planner=outcome.planner,
                         plan=list(outcome.plan) if outcome.ok and outcome.plan else None))

    def command_executed(self, step: int, attempt: int, result: StepResult) -> None:
        self.bus.publish(CommandExecuted(step=step, attempt=attempt, command=result.command,
                         observation=result.observation, error=result.error, goal_reached=result.goal_reached))
        self._append(f"> {result.command}\n{result.observation.strip()}\n")
        if result.goal_reached:
            self._append("(goal reached)\n")

    def warning(self, step: int, message: str) -> None:
        self.bus.publish(Notice(level="warning", message=message, step=step))

    def _append(self, text: str) -> None:
        self._transcript.append(text)
        self.store.write_text("observations.md", "# Observations\n" + "".join(self._transcript))


@dataclass
class TrialSpec:
    """What a trial is: the approach, its settings, and where the game comes from (for run.json)."""

    approach: str  # "pddlego" | "plangen"
    config: PddlegoConfig
    environment: dict[str, Any]
    preset: str = ""
    model: str = ""
    extra: dict[str, Any] | None = None


def run_trial(env: TextEnvironment, provider: Provider, spec: TrialSpec, root: Path, solver: PddlSolver | None = None,
              prompts: PromptLibrary | None = None, run_id: str | None = None,
              subscribers: list[Any] | None = None, run_created: Callable[[Path], None] | None = None,
              stop_requested: Callable[[], bool] | None = None,
              store: RunStore | None = None, controller: Controller | None = None,
              resume: bool = False) -> tuple[RunStore, TrialResult]:
    """Run one trial into a new run directory under ``root`` (or into ``store``, a run prepared with its
    record, e.g. a fork that keeps earlier answers: ``fork.fork_trial``); returns the store and the result.

    ``run_created`` hears of the run directory before its first event; ``stop_requested`` is asked before each
    model call, and True ends the trial there (a failure for the reason "stopped", the run's status "stopped");
    ``controller`` decides on each request before it is sent (step mode: send, edit, answer, stop).
    ``resume``: ``store`` is this trial's own unfinished run (killed, stopped): the game is played again from the
    start (it is deterministic for a seed) and every answer on disk is taken from there, not asked again; its
    events already in the log go to the subscribers only. While the trial runs it holds ``run.lock``."""
    meta = {"approach": spec.approach, "config": {"preset": spec.preset or spec.approach, **asdict(spec.config)},
            "environment": spec.environment, "model": {"model": spec.model}, **(spec.extra or {})}
    if store is None:
        store = create(root, meta, run_id=run_id)
    elif not resume:  # a fork: the model that goes on is this one
        store.update_meta(model=meta["model"], **(spec.extra or {}))
    with RunLock(store.path):
        if resume:
            store.claim()
        return _run_trial(env, provider, spec, store, solver, prompts, subscribers, run_created, stop_requested,
                          controller, resume)


def _run_trial(env: TextEnvironment, provider: Provider, spec: TrialSpec, store: RunStore, solver: PddlSolver | None,
               prompts: PromptLibrary | None, subscribers: list[Any] | None,
               run_created: Callable[[Path], None] | None, stop_requested: Callable[[], bool] | None,
               controller: Controller | None, resume: bool) -> tuple[RunStore, TrialResult]:
    if run_created is not None:
        run_created(Path(store.path))
    bus = EventBus(store.append_event, already_logged=store.last_seq() if resume else 0)
    for subscriber in subscribers or []:
        bus.subscribe(subscriber)
    gateway = ModelGateway(provider, store, bus, controller)
    listener = RunListener(store, bus)
    lock = threading.Lock()

    def ask(step_name: str, prompt: str, where: CallInfo) -> str:
        if stop_requested is not None and stop_requested():
            raise StopTrial(STOPPED)
        with lock:
            request_id = gateway.next_id()
        listener.last_request = request_id
        request = ChatRequest(step_name, [ChatMessage("user", prompt)])
        try:
            response: ChatResponse = gateway.ask(request_id, request, context={
                "time_step": where.step, "attempt": where.attempt, "retry": where.retry})
        except ModelAccessError as err:
            if err.kind == OUT_OF_ANSWERS:
                raise StopTrial(OUT_OF_ANSWERS) from None
            raise
        except (RunStopped, AnswerCancelled):  # the person stopped the trial in step mode, or instead of answering
            raise StopTrial(STOPPED) from None
        return response.text

    bus.publish(RunStarted(approach=spec.approach, preset=spec.preset, environment=spec.environment))
    started = time.monotonic()
    prompts = prompts or PromptLibrary()
    try:
        if spec.approach == "plangen":
            result = run_plangen(env, ask, prompts, spec.config, listener)
        else:
            if solver is None:
                raise ValueError("PDDLego+ needs a solver")
            result = run_pddlego(env, ask, solver, prompts, spec.config, listener)
    except ModelAccessError as err:
        bus.publish(RunFailed(error=str(err)))
        store.update_meta(status=RunStatus.FAILED, error=str(err))
        raise
    summary = {**result.to_dict(), "wall_seconds": round(time.monotonic() - started, 3), "totals": gateway.totals.to_dict(),
               "resumed_responses": gateway.totals.resumed}
    write_outcome(store.path, summary, trial=True)
    status = RunStatus.STOPPED if result.reason == STOPPED else RunStatus.FINISHED
    bus.publish(RunFinished(status=status, outcome=result.outcome, reason=result.reason, calls=result.calls,
                            steps=result.steps))
    store.update_meta(status=status, outcome=result.outcome)
    return store, result


class ReplayProvider(RecordedAnswers):
    """Answers with a recorded trial's answers, in order; one more request is an error of kind
    ``out-of-answers`` (the replay asked more than the original run did)."""

    source = "recorded trial"

    @property
    def used(self) -> int:
        return self.position
