"""Running AutoToS on one :class:`~genplan.engine.runs.run.Run` and recording it as plain files.

The run (made and carried out by ``engine.runs``: ``execute``) asks every model call through its gateway
(``requests/NNNN-autotos.<succ|goal>.json``, ``responses/NNNN-autotos.<succ|goal>.{json,md}``: an answer on disk
is not asked again, a run can be stepped, it replays with its answers). :func:`run_loop` adds what AutoToS
itself records: the typed events of ``engine/events.py`` (each unit-test round with its failing test and
feedback, the checks that passed, the evaluation's progress) and ``versions/{succ,goal}-N.py`` with
``versions/{succ,goal}-N.answer.txt`` (every version of both functions and the answer it came from, announced
with the request it came from, so that an edited version forks the run), so that the TUI opens, replays and
compares an AutoToS run as any other. ``run.json`` gets the loop's ``result``, ``error`` and ``totals``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from genplan.engine.autotos import messages
from genplan.engine.autotos.domains import SearchDomain
from genplan.engine.autotos.executor import Executor
from genplan.engine.autotos.logfile import AutoToSLog
from genplan.engine.autotos.loop import AutoToS, EvaluationStopped, LoopObserver, Outcome, Round, Settings, Version
from genplan.engine.autotos.replay import ReplayProvider
from genplan.engine.events import (
    ArtifactCreated,
    ChecksPassed,
    EvaluationProgress,
    Event,
    FeedbackLimit,
    FeedbackRound,
    RequestSent,
    RunFailed,
    RunFinished,
    RunStarted,
)
from genplan.engine.llm.budget import BUDGET_REASON
from genplan.engine.llm.types import ChatMessage, ChatResponse, ModelAccessError
from genplan.engine.runs import create_named, layout
from genplan.engine.runs.outcome import self_evaluation_record, write_import_record
from genplan.engine.runs.run import Run, RunOutcome, RunSetup, RunStopped, execute
from genplan.engine.runs.status import RunStatus

Watcher = Callable[[Event], None]


class Conversation:
    """One chat with the model: every prompt and answer stays in the history (the feedback refers back).
    Every request goes through the run (``Run.ask``: request and response files, an answer on disk is not
    asked again, step mode, a stop). ``request_id``: the request the last answer came from."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.messages = [ChatMessage("system", messages.system_prompt())]
        self.last_response: ChatResponse | None = None
        self.request_id: int | None = None
        self.context: dict[str, Any] = {}  # what the next request is about (its version), for watchers

    def ask(self, target: str, prompt: str) -> str:
        request_id = self.run.next_id()
        response = self.run.ask(f"autotos.{target}", [*self.messages, ChatMessage("user", prompt)],
                                request_id=request_id, **self.context)
        self.request_id = request_id
        self.last_response = response
        self.messages += [ChatMessage("user", prompt), ChatMessage("assistant", response.text)]
        return response.text


class RunEvents(LoopObserver):
    """What the loop observes, as the run's typed events and files, as it happens: a version of a function
    (its file, its answer, ArtifactCreated naming the request it came from), a failed unit test and its
    feedback (FeedbackRound), a check passed (ChecksPassed), the feedback limit (FeedbackLimit), the
    evaluation's progress (EvaluationProgress). The requests and answers themselves are the gateway's
    (RequestSent, ResponseReceived, TextDelta)."""

    def __init__(self, run: Run, conversation: Conversation) -> None:
        self.run = run
        self.conversation = conversation
        self._asked: dict[str, int] = {}  # prompts per function so far
        layout.versions_dir(run.store.path).mkdir(parents=True, exist_ok=True)

    def prompt(self, target: str, call: int) -> None:
        self.run.check_stop(f"before asking for {target}")  # a stopped run announces no request it does not send
        self._asked[target] = self._asked.get(target, 0) + 1
        self.conversation.context = {"version": f"{target}-{self._asked[target]}"}

    def version(self, version: Version) -> None:
        name = f"{version.target}-{version.number}"
        body = version.source if version.source is not None else "# no function could be extracted\n"
        self.run.write_text(f"versions/{name}.py", body)
        self.run.write_text(f"versions/{name}.answer.txt", version.answer)
        artifact = ArtifactCreated(kind="function", file=f"versions/{name}.py", version=name,
                                   request_id=self.conversation.request_id)
        artifact.extra["function"] = version.name  # None: no function of that name in the answer
        self.run.publish(artifact)

    def round(self, round_: Round) -> None:
        self.run.publish(FeedbackRound(number=round_.number, phase=round_.phase, target=round_.target,
                                       check=round_.check, category=round_.category, failure=round_.failure,
                                       feedback=round_.feedback))

    def passed(self, check: str) -> None:
        self.run.publish(ChecksPassed(check=check))

    def limit(self, target: str, rounds: int) -> None:
        self.run.publish(FeedbackLimit(target=target, rounds=rounds))

    def evaluation(self, done: int, total: int, solved: int, seconds: float) -> None:
        self.run.publish(EvaluationProgress(done=done, total=total, solved=solved, seconds=round(float(seconds), 3)))


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
    """The settings a published log was made with (PST as its folder says; the release's extraction and
    soundness test), with ``changes`` on top."""
    skips_seen = (log.model or "").lower().startswith(PST_SKIPS_SEEN_STATES.get(log.domain or "", ()))
    # the limits count CPU seconds: a search the release finished in time on its machine is not cut short by
    # a busy one here (a wall clock made 17 of 33 crossword replays time out beside a test suite)
    made_with: dict[str, Any] = {"partial_soundness": bool(log.partial_soundness), "pst_on_seen_states": not skips_seen,
                                 "release_validation": True, "extraction": "release", "goal_reached_check": False,
                                 "memory_as_timeout": True, "clock": "cpu"}
    return Settings(**{**made_with, **changes})


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
        if evaluation.out_of_memory:  # genplan's limit, not the release's: say how to lift it
            text += (f"; {evaluation.out_of_memory} failed out of the sandbox's memory "
                     "(--memory GIB gives it more)")
    return text


def describe(event: Event) -> str | None:
    """One progress line for an event of an AutoToS run (None: nothing worth a line)."""
    data = event.data
    if isinstance(event, RequestSent):
        return f"call {event.request_id}: asking for {str(event.step or '').removeprefix('autotos.')}"
    if isinstance(event, ArtifactCreated) and event.kind == "function":
        function = data.get("function", data.get("name"))
        found = f"function {function}" if function else "no function found in the answer"
        return f"   {event.version}: {found}"
    if isinstance(event, FeedbackRound):
        return (f"   round {event.number} ({event.phase} check failed: {event.category}); "
                f"feedback to {event.target}")
    if isinstance(event, ChecksPassed):
        return f"   {event.check} tests passed"
    if isinstance(event, FeedbackLimit):
        return f"   stopped: {event.rounds} feedback rounds for {event.target} spent"
    if isinstance(event, EvaluationProgress):
        return (f"evaluation: {event.done}/{event.total} instances searched, {event.solved} solved "
                f"({float(event.seconds or 0):.1f} s)")
    if isinstance(event, RunFailed):
        return f"   the run ended early: {event.error or event.message}"
    return None


def run_loop(run: Run, domain: SearchDomain, executor: Executor, settings: Settings, preset: str) -> RunOutcome:
    """The AutoToS loop on ``run``, for ``domain``: how it ended (``meta``: run.json's ``result``, ``error`` and
    ``totals``; ``value``: the loop's :class:`~.loop.Outcome`).

    When the model cannot be used (a replay out of answers, an endpoint still failing after the provider's
    retries) the run ends there ("failed", ``outcome.error`` says why); when the person asks to stop (before a
    model call, in step mode, instead of answering, between evaluation chunks) it ends there, "stopped"
    (``outcome.halted``). A resumed run (or a fork) runs the loop again from the start: every answer on disk is
    taken from there instead of being asked again."""
    conversation = Conversation(run)
    events = RunEvents(run, conversation)

    def narrate(event: Event) -> None:  # one line per event worth one, to the person watching (run.progress)
        line = describe(event)
        if line:
            run.progress(line)

    run.bus.subscribe(narrate)
    run.publish(RunStarted(approach="autotos", preset=preset, domain=domain.name))
    loop = AutoToS(domain, conversation.ask, executor, settings, observer=events, stop_requested=run.stop_requested)
    error = None
    stopped_where = ""
    stopped_by = "stopped by the person"
    started = time.monotonic()
    try:
        outcome = loop.run()
    except EvaluationStopped as stop:  # stopped between evaluation chunks: no evaluation is reported
        outcome = loop.outcome
        outcome.halted = True
        stopped_where = f" ({stop})"
    except RunStopped as stop:  # stopped before a call, in step mode, instead of an answer, or at the budget's cap
        outcome = loop.outcome
        outcome.halted = True
        stopped_by = str(stop) if stop.reason == BUDGET_REASON else stopped_by
    except ModelAccessError as exc:
        outcome, error = loop.outcome, str(exc)
        outcome.error = error
    except BaseException:  # a broken sandbox, ctrl+c: what the loop got so far, then the run fails (execute)
        run.update_meta(result=loop.outcome.to_dict(), totals=run.totals.to_dict())
        raise
    wall = round(time.monotonic() - started, 3)
    outcome.resumed = run.totals.resumed
    event: Event
    if error is not None:
        status, event = RunStatus.FAILED, RunFailed(error=error, message=f"the run ended early: {error}")
    elif outcome.halted:
        status = RunStatus.STOPPED
        event = RunFinished(status=RunStatus.STOPPED,
                            message=f"{stopped_by} after {_calls(outcome.calls)}{stopped_where}",
                            calls=outcome.calls, wall_seconds=wall)
    else:
        status = RunStatus.FINISHED
        event = RunFinished(status=RunStatus.FINISHED, outcome="stopped" if outcome.stopped else "passed",
                            message=outcome_text(outcome), calls=outcome.calls, wall_seconds=wall)
    report = {**summary_of(run.path, outcome), "stopped": outcome.stopped, "error": error}
    # the outcome record every approach writes (summary.json): what the front end prints, the status, the time,
    # and how the run evaluated itself, in the words every reader takes (engine/runs/outcome.py)
    record = {**{k: v for k, v in report.items() if k != "run_dir"}, "status": status, "wall_seconds": wall}
    # the feedback limit named once, apart from the run's status ("stopped" is the key of before, kept for readers)
    record["feedback_limit"] = outcome.stopped
    if status == RunStatus.FINISHED and outcome.evaluation is not None:
        evaluation = outcome.evaluation
        record["self_evaluation"] = self_evaluation_record(evaluation.solved, evaluation.solved + evaluation.failed)
    elif status == RunStatus.FINISHED and outcome.stopped:  # its feedback rounds ran out: nothing to evaluate
        record["self_evaluation"] = self_evaluation_record(0, 0)
    return RunOutcome(status, event, meta={"result": outcome.to_dict(), "error": error, "totals": run.totals.to_dict()},
                      value=outcome, summary=record, report=report)


def run_meta(domain: str, settings: Settings, preset: str | None = None) -> dict[str, Any]:
    """What every AutoToS run's run.json records of what is run (an import's, a live run's): ``domain`` is the
    search domain's name."""
    preset = preset or preset_of(settings)
    return {"approach": "autotos", "domain": domain, "preset": preset,
            "config": {"approach": "autotos", "preset": preset, **asdict(settings)}}


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
        # what genplan's stricter checks found without steering the run (goal_reached_check off)
        "findings": outcome.findings,
    }


def import_log(log: AutoToSLog, domain: SearchDomain, executor: Executor, runs_dir: Path,
               settings: Settings | None = None, watcher: Watcher | None = None,
               released_instances: bool = True, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Replay one published log as a genplan run (a Run whose model is the log: ``ReplayProvider``); the summary
    ``genplan import autotos`` prints. The evaluation uses the instances the release's runs used
    (``released_instances=False``: the data folder's)."""
    if settings is None:
        settings = log_settings(log)
    if released_instances:
        domain = as_released(domain)
    provider = ReplayProvider(log)
    store = create_named(runs_dir, f"autotos-{domain.name}-{Path(log.path).stem}", {
        **run_meta(domain.name, settings), "model": {"model": log.model} if log.model else {},
        "imported_from": str(log.path), "eval_instances": [instance.name for instance in domain.eval_instances]})
    setup = RunSetup(provider, subscribers=(watcher,) if watcher is not None else ())
    if progress is not None:
        setup.progress = progress
    run = Run(store, setup, target=domain.name)
    ended = execute(run, lambda run: run_loop(run, domain, executor, settings, preset_of(settings)))
    outcome: Outcome = ended.value
    summary = {
        **summary_of(store.path, outcome),
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
    write_import_record(store.path, summary)
    return summary
