"""One run of any approach, as the approach sees it: :class:`Run`.

Every approach (Stein's pipeline, Bas, Sil, AutoToS, PDDLego+, PlanGen, a test's toy) gets the same context:

- ``ask(step, messages)`` sends one request through the run's :class:`~.gateway.ModelGateway`, so every answer
  is a file under ``requests/``/``responses/``, an answer on disk is given back instead of asked again (resume,
  fork), a step-mode controller may hold, edit, answer or stop it, and the watchers hear of it;
- ``artifact(...)`` writes a file of the run and announces it; ``publish(event)`` tells the watchers and the log;
- ``progress(line)`` says something to the person; ``check_stop()`` ends the run where a person asked;
- one stop exception, :class:`~genplan.engine.errors.RunStopped` (a cancelled manual answer is one too).

:func:`execute` is the one way a run is carried out: it holds the run's lock, marks it running, hands the run to
the approach, and records how it ended (:meth:`Run.finish`, or the failure), so that every approach's run
directory ends the same way. What a run is about (``target``) and with which settings (``parameters``, the
approach's typed parameter class) come with it.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from genplan.engine.errors import RunStopped, is_internal
from genplan.engine.events import ArtifactCreated, Event, EventBus, Publish, RunFailed, RunFinished, RunResumed
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.llm import ChatMessage, ChatRequest, ChatResponse, Provider
from genplan.engine.llm.budget import BUDGET_REASON, BudgetMeter
from genplan.engine.runs import layout
from genplan.engine.runs.edits import VersionNames
from genplan.engine.runs.gateway import Controller, ModelGateway, Totals
from genplan.engine.runs.lock import LiveRun, RunLock, running_here
from genplan.engine.runs.outcome import write_outcome
from genplan.engine.runs.status import RunStatus
from genplan.engine.runs.store import RunStore

if TYPE_CHECKING:
    from genplan.engine.prompts import PromptLibrary

__all__ = ["ApproachInfo", "ApproachParameters", "NewRun", "Run", "RunOutcome", "RunSetup", "RunStopped", "execute", "stopped_outcome"]


class ApproachInfo(Protocol):
    """What a run knows of its approach (the registry's record, engine/approaches, which this package does not
    import)."""

    @property
    def name(self) -> str: ...
    @property
    def prompt_variant(self) -> str: ...
    @property
    def feedback_style(self) -> FeedbackStyle: ...
    @property
    def function_name(self) -> str: ...
    @property
    def select_last(self) -> bool: ...


class ApproachParameters(Protocol):
    """An approach's typed parameters (a frozen dataclass: PipelineConfig, AutoToSParameters, TrialParameters),
    made from a preset's dict with the user's options over it by the registry's ``parameters`` (an unknown key or
    a value of the wrong type is a GenplanError of one line) and recorded in run.json by its ``new_run``."""

    def to_dict(self) -> dict[str, Any]: ...


def _say_nothing(_line: str) -> None:
    pass


@dataclass
class RunSetup:
    """What a front end gives a run: the model, and how the run is watched and driven."""

    provider: Provider
    # the model settings as run.json records them (never the key)
    model: Mapping[str, Any] = field(default_factory=dict)
    controller: Controller | None = None  # step mode: decides on each request before it is sent
    subscribers: tuple[Callable[[Event], None], ...] = ()  # every event as it is published
    progress: Callable[[str], None] = _say_nothing  # one line per step worth telling a person
    stop_requested: Callable[[], bool] | None = None  # True: the run ends before its next model call
    run_created: Callable[[Path], None] | None = None  # the run directory, before the run's first event
    prompts: PromptLibrary | None = None  # None: the prompts shipped with genplan
    reasoning: bool = False  # a reasoning model: the approach's "-reasoning" prompt variant
    # the run's caps and what it spent (its provider checks every model request against it); None: no cap
    budget: BudgetMeter | None = None


@dataclass(frozen=True)
class NewRun:
    """How an approach's new run directory is made: what its ``run.json`` records (besides the id, status, time
    and model, which every run has) and the stem of its name (``<stem>-<date>-<time>``; None: a plain run id)."""

    meta: Mapping[str, Any]
    stem: str | None = None


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended, written one way by :meth:`Run.finish`.

    ``event`` is what the watchers are told (``RunFinished``, or ``RunFailed`` for a run the model could not
    finish); ``summary`` is ``summary.json`` (None: the approach records its result in ``run.json`` only, as
    AutoToS's runs always have), written also as ``trial.json`` for a game trial; ``meta`` are further ``run.json``
    fields; ``value`` is the approach's own result for its caller (the pipeline's ``RunResult``, a trial's result,
    AutoToS's outcome; an exception: the run ended because the model could not be used, and the front end is
    told so); ``report`` is what a front end prints of it (None: the summary); ``run_dir`` is set by
    :func:`execute`."""

    status: RunStatus
    event: Event
    summary: Mapping[str, Any] | None = None
    trial: bool = False
    meta: Mapping[str, Any] = field(default_factory=dict)
    value: Any = None
    report: Mapping[str, Any] | None = None
    run_dir: Path | None = None


class Run:
    """One run directory being worked on by one approach."""

    def __init__(self, store: RunStore, setup: RunSetup, *, approach: ApproachInfo | None = None, target: str = "",
                 parameters: ApproachParameters | None = None) -> None:
        self.store = store
        self.setup = setup
        self.approach = approach  # the registry's record (None: a replay or an import, which needs none)
        self.target = target  # a domain directory, an AutoToS domain's name, a game
        self.parameters = parameters  # the approach's typed parameters
        logged = list(store.events())
        meta = store.meta()
        # the names of its versions: past a person's edits; in a fork from an edit, as its source names the edit
        self.names = VersionNames(meta, logged)
        # a resumed run publishes its events again; those already in the log go to the watchers only, and the
        # log marks where the run went on
        resumed = RunResumed(previous_status=str(meta.get("status") or "") or None)
        self.bus = EventBus(store.append_event, logged=logged, resumed=resumed)
        for subscriber in setup.subscribers:
            self.bus.subscribe(subscriber)
        self.gateway = ModelGateway(setup.provider, store, self.bus, setup.controller)

    # ------------------------------------------------------------------ what the run is
    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def controller(self) -> Controller | None:
        return self.setup.controller

    @property
    def totals(self) -> Totals:
        return self.gateway.totals

    def meta(self) -> dict[str, Any]:
        return self.store.meta()

    def update_meta(self, **changes: Any) -> None:
        self.store.update_meta(**changes)

    # ------------------------------------------------------------------ the model
    def next_id(self) -> int:
        """The next request id (ids follow the approach's own order, so a resumed run asks the same ids)."""
        return self.gateway.next_id()

    def ask(self, step: str, messages: list[ChatMessage], *, request_id: int | None = None,
            params: dict[str, Any] | None = None, publish: Publish | None = None, **context: Any) -> ChatResponse:
        """One request through the gateway (``context``: what it is about, for the watchers). RunStopped when the
        person asked to stop, in step mode or instead of answering."""
        self.check_stop(f"before {step}")
        request = ChatRequest(step, list(messages), dict(params or {}))
        # a person declining to answer (AnswerCancelled) is a RunStopped too
        return self.gateway.ask(request_id if request_id is not None else self.next_id(), request,
                                publish=publish, context=context)

    def stop_requested(self) -> bool:
        return self.setup.stop_requested is not None and self.setup.stop_requested()

    def check_stop(self, where: str = "") -> None:
        if self.stop_requested():
            raise RunStopped("stopped by the person" + (f" {where}" if where else ""))

    # ------------------------------------------------------------------ files, events, words
    def version_name(self, relative: str) -> str:
        """The name the run's next version ``relative`` (as the approach's count names it) is written under: the
        next free one after any a person's edit holds; in a fork from an edit, the source's name of that edit."""
        return self.names.for_run(relative)

    def artifact(self, kind: str, relative: str, text: str, request_id: int | None = None, **data: Any) -> str:
        """Write a file of the run and announce it; ``request_id`` names the answer it came from (what a fork
        from an edit of it starts after). Returns the file's name (:meth:`version_name`): never one a person's
        edit holds; in a fork from an edited version, the file the edited answer writes is named as the source
        names the edit, and marked as that edit (``ForkNames``)."""
        relative = self.version_name(relative)
        self.store.write_text(relative, text)
        self.bus.publish(ArtifactCreated(kind=kind, file=relative, request_id=request_id, **data))
        mark = self.names.fork.written(relative)
        if mark is not None:
            self.bus.publish(mark)
        return relative

    def write_text(self, relative: str, text: str) -> Path:
        return self.store.write_text(relative, text)

    def write_json(self, relative: str, data: Any) -> Path:
        return self.store.write_json(relative, data)

    def publish(self, event: Event) -> None:
        self.bus.publish(event)

    def progress(self, line: str) -> None:
        self.setup.progress(line)

    # ------------------------------------------------------------------ the end
    def finish(self, outcome: RunOutcome) -> None:
        """Record how the run ended: ``summary.json`` (and ``trial.json``), the status and the outcome's fields in
        ``run.json``, then the watchers are told (after the files, so a watcher reading them finds them)."""
        if outcome.summary is not None:
            write_outcome(self.path, outcome.summary, trial=outcome.trial)
        self.store.update_meta(status=outcome.status, **outcome.meta, **self.budget_record(outcome.status))
        self.bus.publish(outcome.event)

    def budget_record(self, status: RunStatus) -> dict[str, Any]:
        """What run.json keeps of the run's budget: its caps and spend (``budget``), and ``stop_reason: "budget"``
        when a request was refused at a cap and the run stopped there."""
        meter = self.setup.budget
        at_cap = meter is not None and status == RunStatus.STOPPED and bool(meter.reached)
        record: dict[str, Any] = {"budget": meter.record()} if meter is not None else {}
        if at_cap:
            record["stop_reason"] = BUDGET_REASON
        elif self.store.meta().get("stop_reason") == BUDGET_REASON:  # an earlier session's stop, now gone on
            record["stop_reason"] = None
        return record

    def fail(self, error: BaseException, **meta: Any) -> None:
        """Record a run that ended with an error no approach expected. A problem of what the person gave or of
        the machine (a GenplanError: the model cannot be used; an OSError: the disk is full) is said as it is;
        anything else is a fault in genplan, an internal error (``is_internal``), and its traceback is kept in
        the run (``failures/failure-N.txt``). Either way the run can be resumed."""
        text = f"{type(error).__name__}: {error}"
        if not is_internal(error):
            self.bus.publish(RunFailed(error=text, message=text))
            self.store.update_meta(status=RunStatus.FAILED, error=text, traceback=None, **meta)
            return
        relative = layout.failure_file(self.path)
        self.store.write_text(relative, "".join(traceback.format_exception(error)))
        message = f"internal error (a fault in genplan, not the model's): {text}; its traceback is in {relative}"
        self.bus.publish(RunFailed(error=text, message=message, traceback=relative))
        self.store.update_meta(status=RunStatus.FAILED, error=message, traceback=relative, **meta)

    def interrupted(self) -> None:
        """Record a run the person interrupted (ctrl+c in a terminal): stopped, as the app's stop key ends one."""
        self.finish(stopped_outcome(INTERRUPTED))


def execute(run: Run, body: Callable[[Run], RunOutcome]) -> RunOutcome:
    """Carry out one run: one process at a time per run directory (RunBusy otherwise), marked running with its
    owner, announced to the front end, ``body`` (the approach) run on it, and its end recorded."""
    with RunLock(run.path), running_here(run.path, LiveRun(run.bus.publish_aside, run.names)):
        run.store.claim()
        try:
            if run.setup.run_created is not None:
                run.setup.run_created(run.path)
            outcome = body(run)
        except KeyboardInterrupt:
            run.store.close()  # requests still out in other threads write nothing more into the run
            run.interrupted()
            raise
        except BaseException as exc:
            run.store.close()
            run.fail(exc)
            raise
        run.finish(outcome)
        return replace(outcome, run_dir=run.path)


INTERRUPTED = "stopped: interrupted (ctrl+c)"


def stopped_outcome(message: str, **summary: Any) -> RunOutcome:
    """The outcome of a run that a person stopped before it produced anything of its own."""
    return RunOutcome(RunStatus.STOPPED, RunFinished(status=RunStatus.STOPPED, message=message, **summary))
