"""Running AutoToS against a model provider and recording the run as plain files.

A run directory holds ``run.json`` (what was run: approach ``autotos``, preset, settings, model, the entry's
parameters; then the status and the result), ``events.jsonl`` (the typed events of ``engine/events.py``, as every
approach writes them: each model call, each unit-test round with its failing test and feedback, the checks that
passed, the evaluation's progress), ``requests/NNNN-autotos.<succ|goal>.json`` and
``responses/NNNN-autotos.<succ|goal>.{json,md}`` (every model call, written by the pipeline's ``ModelGateway``,
so that a run resumes without asking again what it has on disk, can be stepped, and replays with its answers)
and ``versions/{succ,goal}-N.py`` with ``versions/{succ,goal}-N.answer.txt`` (every version of both functions and
the answer it came from), so that the TUI opens, replays and compares an AutoToS run as any other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from ..events import (
    ArtifactCreated,
    ChecksPassed,
    EvaluationProgress,
    Event,
    EventBus,
    FeedbackLimit,
    FeedbackRound,
    RunFailed,
    RunFinished,
    RunStarted,
)
from ..llm.manual import AnswerCancelled
from ..llm.types import ChatMessage, ChatRequest, ChatResponse, ModelAccessError, Provider
from ..runs import create, create_named, layout
from ..runs.gateway import Controller, ModelGateway, RunStopped
from ..runs.lock import RunLock, owner
from ..runs.status import RunStatus
from ..runs.store import RunStore, write_text_atomic
from . import messages
from .domains import SearchDomain
from .executor import Executor
from .logfile import AutoToSLog
from .loop import AutoToS, EvaluationStopped, Outcome, Settings
from .replay import ReplayProvider

Watcher = Callable[[Event], None]


class RunHalted(Exception):
    """The person asked to stop the run; raised before the next model call."""


class Conversation:
    """One chat with the model: every prompt and answer stays in the history (the feedback refers back).
    Every request goes through the run's ``ModelGateway`` (request and response files, an answer on disk is
    not asked again, step mode, events). ``stop_requested`` is asked before each call: True ends the run
    there (RunHalted)."""

    def __init__(self, gateway: ModelGateway, stop_requested: Callable[[], bool] | None = None) -> None:
        self.gateway = gateway
        self.messages = [ChatMessage("system", messages.system_prompt())]
        self.last_response: ChatResponse | None = None
        self.stop_requested = stop_requested
        self.context: dict[str, Any] = {}  # what the next request is about (its version), for watchers

    def check_stop(self, target: str) -> None:
        if self.stop_requested is not None and self.stop_requested():
            raise RunHalted(f"stopped before asking for {target}")

    def ask(self, target: str, prompt: str) -> str:
        self.check_stop(target)
        request = ChatRequest(f"autotos.{target}", [*self.messages, ChatMessage("user", prompt)])
        response = self.gateway.ask(self.gateway.next_id(), request, context=dict(self.context))
        self.last_response = response
        self.messages += [ChatMessage("user", prompt), ChatMessage("assistant", response.text)]
        return response.text


class RunRecorder:
    """Turns what the loop observes into the run's typed events and files, as they happen.

    The loop reports ``(kind, data)``: ``prompt`` (a request is about to be asked), ``version`` (the answer and
    the function found in it), ``round`` (a failed unit test and its feedback), ``passed``, ``stopped`` (the
    feedback limit) and ``evaluation`` (progress). Each becomes an event on the run's bus (the requests and
    answers themselves are the gateway's: RequestSent, ResponseReceived, TextDelta); the log gets them first,
    then the watchers (e.g. the CLI's progress lines). A resumed run publishes its events again from the
    start: those already in the log go to the watchers only."""

    def __init__(self, run_dir: Path, watcher: Watcher | None = None,
                 conversation: Conversation | None = None, bus: EventBus | None = None) -> None:
        self.run_dir = run_dir
        self.store = RunStore(run_dir)
        (run_dir / "versions").mkdir(parents=True, exist_ok=True)
        layout.events_file(run_dir).touch()
        self.bus = bus if bus is not None else EventBus(self.store.append_event, already_logged=self.store.last_seq())
        if watcher is not None:
            self.bus.subscribe(watcher)
        self.conversation = conversation
        self._call: int | None = None  # the request whose answer comes next
        self._asked: dict[str, int] = {}  # prompts per function so far

    def publish(self, event: Event) -> Event:
        return self.bus.publish(event)

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "prompt":
            self._prompt(data)
        elif kind == "version":
            self._version(data)
        elif kind == "round":
            self.publish(FeedbackRound(number=data.get("number"), phase=data.get("phase"), target=data.get("target"),
                                       check=data.get("check"), category=data.get("category"),
                                       failure=data.get("failure"), feedback=data.get("feedback")))
        elif kind == "passed":
            self.publish(ChecksPassed(check=data.get("check")))
        elif kind == "stopped":
            self.publish(FeedbackLimit(target=data.get("target"), rounds=data.get("rounds")))
        elif kind == "evaluation":
            self.publish(EvaluationProgress(done=data.get("done"), total=data.get("total"), solved=data.get("solved"),
                                            seconds=round(float(data.get("seconds") or 0.0), 3)))

    def _prompt(self, data: dict[str, Any]) -> None:
        call, target = int(data["call"]), str(data["target"])
        if self.conversation is not None:
            self.conversation.check_stop(target)  # a stopped run announces no request it does not send
        self._call = call
        self._asked[target] = self._asked.get(target, 0) + 1
        if self.conversation is not None:
            self.conversation.context = {"version": f"{target}-{self._asked[target]}"}

    def _version(self, data: dict[str, Any]) -> None:
        name = f"{data['target']}-{data['number']}"
        body = data["source"] if data["source"] is not None else "# no function could be extracted\n"
        self.store.write_text(f"versions/{name}.py", body)
        self.store.write_text(f"versions/{name}.answer.txt", data["answer"])
        artifact = ArtifactCreated(kind="function", file=f"versions/{name}.py", version=name, request_id=self._call)
        artifact.extra["function"] = data.get("name")  # None: no function of that name in the answer
        self.publish(artifact)

    def close(self) -> None:
        pass


# The release's PrOntoQA runs of DeepSeek and Llama (made through a chat interface, 8-9 Aug) let a successor
# equal to an already seen state pass the PST, which its GPT runs (API, 4 Aug) caught; the crossword runs of
# the same models did check such successors. So only those logs are replayed without it (docs/autotos.md).
PST_SKIPS_SEEN_STATES = {"prontoqa": ("deepseek", "llama")}


# The instances the release's runs evaluated where they differ from its data folder's: the grids and
# optimal costs its Sokoban logs print are those of p01-p04, p06, p07, p10, p13, p14, p17 and p20, that is
# its three unit-test instances in place of p05, p08 and p09 of test_instances/ (docs/autotos.md).
RELEASE_EVAL_INSTANCES = {"sokoban": ("p01.pddl", "p02.pddl", "p03.pddl", "p04.pddl", "p06.pddl", "p07.pddl",
                                      "p10.pddl", "p13.pddl", "p14.pddl", "p17.pddl", "p20.pddl")}


def as_released(domain: SearchDomain) -> SearchDomain:
    """``domain`` with the evaluation instances the release's runs used (unchanged when the data folder lacks
    one of them, or the release used its folder's own)."""
    names = RELEASE_EVAL_INSTANCES.get(domain.name)
    if names is None:
        return domain
    pool = {instance.name: instance for instance in domain.unit_instances + domain.eval_instances}
    if not set(names) <= set(pool):
        return domain
    return replace(domain, eval_instances=[pool[name] for name in names])


def log_settings(log: AutoToSLog, **changes: Any) -> Settings:
    """The settings a published log was made with (PST as its folder says), with ``changes`` on top."""
    skips_seen = (log.model or "").lower().startswith(PST_SKIPS_SEEN_STATES.get(log.domain or "", ()))
    made_with: dict[str, Any] = {"partial_soundness": bool(log.partial_soundness), "pst_on_seen_states": not skips_seen,
                                 "release_validation": True}
    return Settings(**{**made_with, **changes})


def new_run_dir(runs_dir: Path, stem: str) -> Path:
    """A new run directory ``autotos-<stem>-<date>-<time>``, made as every run's is (``runs.create``)."""
    return create_named(runs_dir, f"autotos-{stem}", {"approach": "autotos"}).path


def preset_of(settings: Settings) -> str:
    return "AutoToS+PST" if settings.partial_soundness else "AutoToS"


def outcome_text(outcome: Outcome) -> str:
    """One line: how the unit tests ended and how the evaluation went."""
    if outcome.stopped:
        text = f"feedback rounds of {outcome.stopped} spent after {outcome.calls} calls"
    else:
        text = f"unit tests passed after {outcome.calls} calls"
    evaluation = outcome.evaluation
    if evaluation is not None:
        text += f"; {evaluation.solved}/{evaluation.solved + evaluation.failed} solved"
        if evaluation.release_only:  # an import validating as the release did: what genplan's own rejects
            text += f" ({evaluation.release_only} of them by the release's validation only)"
    return text


def run_autotos(domain: SearchDomain, provider: Provider, executor: Executor, settings: Settings, run_dir: Path,
                extra_info: dict[str, Any] | None = None, watcher: Watcher | None = None,
                stop_requested: Callable[[], bool] | None = None, controller: Controller | None = None,
                resume: bool = False) -> Outcome:
    """One AutoToS run into ``run_dir`` (which exists). When the model cannot be used (a replay out of answers,
    an endpoint still failing after the provider's retries) the run ends there and ``outcome.error`` says why;
    when ``stop_requested()`` is true before a model call, or ``controller`` (step mode) says stop, the run ends
    there with status "stopped" (``outcome.halted``).

    ``resume``: ``run_dir`` holds a run that did not finish (killed, stopped, failed); the loop runs again from the
    start and every answer on disk is taken from there instead of being asked again (the gateway's responses,
    matched by request id and the hash of the messages). While the run works, it holds ``run.lock`` (RunBusy for a
    second process)."""
    with RunLock(run_dir):
        return _run_autotos(domain, provider, executor, settings, run_dir, extra_info, watcher, stop_requested,
                            controller, resume)


def _run_autotos(domain: SearchDomain, provider: Provider, executor: Executor, settings: Settings, run_dir: Path,
                 extra_info: dict[str, Any] | None, watcher: Watcher | None,
                 stop_requested: Callable[[], bool] | None, controller: Controller | None, resume: bool) -> Outcome:
    info = dict(extra_info or {})
    model = info.pop("model", None)
    preset = info.get("preset") or preset_of(settings)
    fields: dict[str, Any] = {
        "approach": "autotos", "domain": domain.name, "preset": preset,
        "config": {"approach": "autotos", "preset": preset, **asdict(settings)},
        "model": dict(model) if isinstance(model, dict) else {"model": model} if model else {},
        **{k: v for k, v in info.items() if k != "preset"}}
    if layout.is_run_dir(run_dir):  # made by new_run_dir (or runs.create), or a run resumed: it gets what is run
        store = RunStore(run_dir)
        store.update_meta(status=RunStatus.RUNNING, **fields, **owner())
    else:  # a directory the caller made
        store = create(run_dir.parent, fields, run_id=run_dir.name, existing_dir_ok=True)
    bus = EventBus(store.append_event, already_logged=store.last_seq() if resume else 0)
    gateway = ModelGateway(provider, store, bus, controller)
    conversation = Conversation(gateway, stop_requested)
    recorder = RunRecorder(run_dir, watcher, conversation, bus)
    recorder.publish(RunStarted(approach="autotos", preset=preset, domain=domain.name))
    loop = AutoToS(domain, conversation.ask, executor, settings, observer=recorder, stop_requested=stop_requested)
    error = None
    stopped_where = ""
    started = time.monotonic()
    try:
        outcome = loop.run()
    except (RunHalted, RunStopped, AnswerCancelled):  # stopped before a call, in step mode, or instead of an answer
        outcome = loop.outcome
        outcome.halted = True
    except EvaluationStopped as stop:  # stopped between evaluation chunks: no evaluation is reported
        outcome = loop.outcome
        outcome.halted = True
        stopped_where = f" ({stop})"
    except ModelAccessError as exc:
        outcome, error = loop.outcome, str(exc)
        outcome.error = error
    except BaseException as exc:  # a broken sandbox, ctrl+c: the run says how it ended, then the error goes on
        recorder.publish(RunFailed(error=f"{type(exc).__name__}: {exc}"))
        store.update_meta(status=RunStatus.FAILED, result=loop.outcome.to_dict(), error=f"{type(exc).__name__}: {exc}",
                          totals=gateway.totals.to_dict())
        raise
    wall = round(time.monotonic() - started, 3)
    if error is not None:
        recorder.publish(RunFailed(error=error, message=f"the run ended early: {error}"))
    elif outcome.halted:
        recorder.publish(RunFinished(status=RunStatus.STOPPED,
                                     message=f"stopped by the person after {_calls(outcome.calls)}{stopped_where}",
                                     calls=outcome.calls, wall_seconds=wall))
    else:
        recorder.publish(RunFinished(status=RunStatus.FINISHED, outcome="stopped" if outcome.stopped else "passed",
                                     message=outcome_text(outcome), calls=outcome.calls, wall_seconds=wall))
    recorder.close()
    status = RunStatus.FAILED if error is not None else RunStatus.STOPPED if outcome.halted else RunStatus.FINISHED
    outcome.resumed = gateway.totals.resumed
    store.update_meta(status=status, result=outcome.to_dict(), error=error, totals=gateway.totals.to_dict())
    return outcome


def _calls(n: int) -> str:
    return f"{n} call" if n == 1 else f"{n} calls"


def summary_of(run_dir: Path, outcome: Outcome) -> dict[str, Any]:
    """The summary ``genplan import autotos --json`` and ``genplan autotos --json`` print."""
    evaluation = outcome.evaluation
    return {
        "run_dir": str(run_dir),
        "calls": outcome.calls,
        "success": evaluation.solved if evaluation else None,
        "failure": evaluation.failed if evaluation else None,
        "categories": outcome.categories,
        "expanded": evaluation.expanded if evaluation else None,
        "generated": evaluation.generated if evaluation else None,
        "release_only": evaluation.release_only if evaluation else None,
        "resumed_responses": outcome.resumed,
    }


def import_log(log: AutoToSLog, domain: SearchDomain, executor: Executor, runs_dir: Path,
               settings: Settings | None = None, watcher: Watcher | None = None,
               released_instances: bool = True) -> dict[str, Any]:
    """Replay one published log as a genplan run; the summary ``genplan import autotos`` prints. The
    evaluation uses the instances the release's runs used (``released_instances=False``: the data folder's)."""
    if settings is None:
        settings = log_settings(log)
    if released_instances:
        domain = as_released(domain)
    provider = ReplayProvider(log)
    run_dir = new_run_dir(runs_dir, f"{domain.name}-{Path(log.path).stem}")
    outcome = run_autotos(domain, provider, executor, settings, run_dir,
                          {"imported_from": str(log.path), "model": log.model,
                           "eval_instances": [instance.name for instance in domain.eval_instances]}, watcher)
    summary = {
        **summary_of(run_dir, outcome),
        "log_calls": log.calls,
        "log_success": log.success,
        "log_failure": log.failure,
        "log_expanded": log.expanded,
        "log_generated": log.generated,
        "stopped": outcome.stopped,
        "divergences": provider.divergences,
        # genplan asked for more answers than the log holds (the replay ended with ReplayExhausted): its checks
        # failed where the original run's passed
        "wanted_more": outcome.error is not None,
    }
    write_text_atomic(layout.import_file(run_dir), json.dumps(summary, indent=2))
    return summary
