"""Running AutoToS against a model provider and recording the run as plain files.

A run directory holds ``run.json`` (what was run: approach ``autotos``, preset, settings, model; then the status
and the result), ``events.jsonl`` (the typed events of ``engine/events.py``, as every approach writes them:
each model call, each unit-test round with its failing test and feedback, the checks that passed, the
evaluation's progress), ``requests/NNNN-<succ|goal>.md`` (each prompt) and ``versions/{succ,goal}-N.py`` with
``versions/{succ,goal}-N.answer.txt`` (every version of both functions and the answer it came from), so that
the TUI opens, replays and compares an AutoToS run as any other.
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
    RequestRetry,
    RequestSent,
    ResponseReceived,
    RunFailed,
    RunFinished,
    RunStarted,
    TextDelta,
)
from ..llm.manual import AnswerCancelled
from ..llm.types import ChatMessage, ChatRequest, ChatResponse, ModelAccessError, Provider, RetryNotice
from ..pipeline.runlock import owner
from ..pipeline.store import RunStore, write_text_atomic
from ..runs import create, create_named, layout
from ..runs.status import RunStatus
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
    ``stop_requested`` is asked before each call: True ends the run there (RunHalted)."""

    def __init__(self, provider: Provider, stop_requested: Callable[[], bool] | None = None) -> None:
        self.provider = provider
        self.messages = [ChatMessage("system", messages.system_prompt())]
        self.last_response: ChatResponse | None = None
        self.stop_requested = stop_requested
        # the answer's text as it arrives and the provider's retries (the recorder publishes them, live only)
        self.on_delta: Callable[[str], None] | None = None
        self.on_retry: Callable[[RetryNotice], None] | None = None

    def check_stop(self, target: str) -> None:
        if self.stop_requested is not None and self.stop_requested():
            raise RunHalted(f"stopped before asking for {target}")

    def ask(self, target: str, prompt: str) -> str:
        self.check_stop(target)
        self.messages.append(ChatMessage("user", prompt))
        response = self.provider.complete(ChatRequest(f"autotos.{target}", list(self.messages)),
                                          on_delta=self.on_delta, on_retry=self.on_retry)
        self.last_response = response
        self.messages.append(ChatMessage("assistant", response.text))
        return response.text


class RunRecorder:
    """Turns what the loop observes into the run's typed events and files, as they happen.

    The loop reports ``(kind, data)``: ``prompt`` (a request), ``version`` (the answer and the function found
    in it), ``round`` (a failed unit test and its feedback), ``passed``, ``stopped`` (the feedback limit) and
    ``evaluation`` (progress). Each becomes one or two events on the run's bus; the log gets them first, then
    the watchers (e.g. the CLI's progress lines)."""

    def __init__(self, run_dir: Path, watcher: Watcher | None = None,
                 conversation: Conversation | None = None) -> None:
        self.run_dir = run_dir
        self.store = RunStore(run_dir)
        (run_dir / "versions").mkdir(parents=True, exist_ok=True)
        layout.events_file(run_dir).touch()
        self.bus = EventBus(self.store.append_event)
        if watcher is not None:
            self.bus.subscribe(watcher)
        self.conversation = conversation
        if conversation is not None:
            conversation.on_delta, conversation.on_retry = self.delta, self.retry
        self._call: int | None = None  # the request whose answer comes next
        self._step = ""
        self._sent = 0.0

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

    def delta(self, text: str) -> None:
        """Answer text as it streams in (live only: watchers see it, the log does not keep it)."""
        if text:
            self.publish(TextDelta(request_id=self._call, step=self._step, text=text))

    def retry(self, notice: RetryNotice) -> None:
        self.publish(RequestRetry(request_id=self._call, step=self._step, attempt=notice.attempt,
                                  delay_s=round(notice.delay_s, 3), reason=notice.reason))

    def _prompt(self, data: dict[str, Any]) -> None:
        call, target = int(data["call"]), str(data["target"])
        if self.conversation is not None:
            self.conversation.check_stop(target)  # a stopped run announces no request it does not send
        self._call, self._step, self._sent = call, f"autotos.{target}", time.monotonic()
        relative = f"requests/{call:04d}-{target}.md"
        self.store.write_text(relative, str(data["prompt"]))
        number = 1 + sum(1 for p in (self.run_dir / "versions").glob(f"{target}-*.py"))
        self.publish(RequestSent(request_id=call, step=self._step, file=relative, version=f"{target}-{number}",
                                 messages=len(self.conversation.messages) + 1 if self.conversation else None))

    def _version(self, data: dict[str, Any]) -> None:
        name = f"{data['target']}-{data['number']}"
        body = data["source"] if data["source"] is not None else "# no function could be extracted\n"
        self.store.write_text(f"versions/{name}.py", body)
        self.store.write_text(f"versions/{name}.answer.txt", data["answer"])
        response = self.conversation.last_response if self.conversation is not None else None
        usage = response.usage if response is not None else None
        self.publish(ResponseReceived(
            request_id=self._call, step=self._step, file=f"versions/{name}.answer.txt",
            cached=response.cached if response is not None else None,
            truncated=response.truncated or None if response is not None else None,
            latency_s=round(response.latency_s, 3) if response is not None and response.latency_s else
            round(time.monotonic() - self._sent, 3),
            tokens_in=usage.input_tokens if usage is not None else None,
            tokens_out=usage.output_tokens if usage is not None else None,
            cost_usd=response.cost_usd if response is not None else None))
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
    return text


def run_autotos(domain: SearchDomain, provider: Provider, executor: Executor, settings: Settings, run_dir: Path,
                extra_info: dict[str, Any] | None = None, watcher: Watcher | None = None,
                stop_requested: Callable[[], bool] | None = None) -> Outcome:
    """One AutoToS run into ``run_dir`` (which exists). When the model cannot be used (a replay out of answers,
    an endpoint still failing after the provider's retries) the run ends there and ``outcome.error`` says why;
    when ``stop_requested()`` is true before a model call the run ends there with status "stopped"
    (``outcome.halted``)."""
    info = dict(extra_info or {})
    model = info.pop("model", None)
    preset = info.get("preset") or preset_of(settings)
    fields: dict[str, Any] = {
        "approach": "autotos", "domain": domain.name, "preset": preset,
        "config": {"approach": "autotos", "preset": preset, **asdict(settings)},
        "model": dict(model) if isinstance(model, dict) else {"model": model} if model else {},
        **{k: v for k, v in info.items() if k != "preset"}}
    if layout.is_run_dir(run_dir):  # made by new_run_dir (or runs.create): it gets what is run
        store = RunStore(run_dir)
        store.update_meta(status=RunStatus.RUNNING, **fields, **owner())
    else:  # a directory the caller made
        store = create(run_dir.parent, fields, run_id=run_dir.name, existing_dir_ok=True)
    conversation = Conversation(provider, stop_requested)
    recorder = RunRecorder(run_dir, watcher, conversation)
    recorder.publish(RunStarted(approach="autotos", preset=preset, domain=domain.name))
    loop = AutoToS(domain, conversation.ask, executor, settings, observer=recorder, stop_requested=stop_requested)
    error = None
    stopped_where = ""
    started = time.monotonic()
    try:
        outcome = loop.run()
    except (RunHalted, AnswerCancelled):  # stopped before a call, or instead of answering one by hand
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
        store.update_meta(status=RunStatus.FAILED, result=loop.outcome.to_dict(), error=f"{type(exc).__name__}: {exc}")
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
    store.update_meta(status=status, result=outcome.to_dict(), error=error)
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
