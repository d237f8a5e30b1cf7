"""The bridge between the TUI and the engine: a run in a worker thread, step mode, manual answers. A pipeline
run (PipelineSession) or one of an approach with its own loop, e.g. AutoToS (OwnLoopSession).

The pipeline calls back from its own threads. Events go into a queue the app drains on a timer (so a
fast stream never floods the event loop); questions for the person (step mode, manual answers) are
posted as messages carrying a Future, and the pipeline thread waits on that Future.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.message import Message

from .messages import AnswerRequested, RunCreated, RunProgress, StepRequested

Post = Callable[[Message], Any]


class EventQueue:
    """Thread-safe hand-over of engine events to the UI; the UI takes them in batches."""

    def __init__(self) -> None:
        self._items: deque[Any] = deque()

    def put(self, event: Any) -> None:
        self._items.append(event)  # deque.append is atomic

    def take(self, limit: int) -> list[Any]:
        items: list[Any] = []
        while self._items and len(items) < limit:
            items.append(self._items.popleft())
        return items

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class PendingQuestions:
    """Futures the pipeline waits on; all are released when the session stops."""

    futures: list[tuple[Future, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, future: Future, on_stop: Any) -> None:
        with self.lock:
            self.futures.append((future, on_stop))

    def release_all(self) -> None:
        with self.lock:
            pending, self.futures = self.futures, []
        for future, on_stop in pending:
            if not future.done():
                future.set_result(on_stop)


class StepController:
    """Implements the engine's Controller: in watch mode requests go out at once; in step mode the
    person decides (send, edit, answer, stop) on a screen, and the pipeline thread waits for it."""

    def __init__(self, post: Post, stepping: threading.Event, pending: PendingQuestions) -> None:
        self.post = post
        self.stepping = stepping
        self.pending = pending
        self.stopped = threading.Event()
        self.manual = False  # with the manual provider the person decides on the answer screen instead
        self._sending = threading.local()  # the request id each engine thread is about to send

    def current_request(self) -> int | None:
        """The id of the request this thread is sending (the manual answerer names it: requests run in
        parallel while the person only watches, so "the last one announced" may be another task's)."""
        return getattr(self._sending, "request_id", None)

    def wants_to_pause(self) -> bool:
        """While the person only watches, the engine may send independent requests concurrently."""
        return self.stepping.is_set() or self.stopped.is_set()

    def before_request(self, request_id: int, request: Any):
        from genplan.engine.api import Decision

        self._sending.request_id = request_id
        if self.stopped.is_set():
            return Decision.stop()
        if self.manual or not self.stepping.is_set():
            return Decision.send()
        future: Future = Future()
        self.pending.add(future, Decision.stop())
        self.post(StepRequested(request_id, request, future))
        return future.result()


def manual_answerer(post: Post, pending: PendingQuestions, controller: StepController) -> Callable[[Any], str | None]:
    """The ManualProvider's answerer: the TUI shows the prompt and waits for the typed or pasted answer."""

    def answer(request: Any) -> str | None:
        if controller.stopped.is_set():
            return None
        future: Future = Future()
        pending.add(future, None)
        post(AnswerRequested(request, future, controller.current_request()))
        return future.result()

    return answer


class PipelineSession:
    """One pipeline run (new or resumed) driven from the TUI. ``run()`` blocks: call it in a thread worker."""

    def __init__(
        self,
        domain_path: Path,
        config: Any,  # PipelineConfig
        settings: Any,  # ModelSettings
        post: Post,
        sink: Callable[[Any], None],
        stepping: threading.Event,
        run_dir: Path | None = None,
        start_from: tuple[str, Path, str] | None = None,
        no_cache: bool = False,
        strategy_check: tuple[Path, str, str] | None = None,
    ) -> None:
        self.domain_path = domain_path
        self.config = config
        self.settings = settings
        self.post = post
        self.sink = sink
        self.pending = PendingQuestions()
        self.controller = StepController(post, stepping, self.pending)
        self.controller.manual = not settings.is_configured
        self.run_dir = run_dir
        self.start_from = start_from
        self.no_cache = no_cache
        # (source run, strategy file relative to it, text): plan validation of that strategy only
        self.strategy_check = strategy_check
        self.store: Any = None

    @property
    def manual(self) -> bool:
        return not self.settings.is_configured

    def run(self) -> Any:
        from genplan.engine import api
        from genplan.engine.runs.store import RunStore

        watch = api.Watch(subscriber=self.sink, controller=self.controller, run_created=self._created,
                          manual_answer=manual_answerer(self.post, self.pending, self.controller))
        if self.strategy_check is not None:
            from genplan.engine import strategy_check

            provider = api.provider_for(self.settings, no_cache=self.no_cache, watch=watch)
            source_run, relative, text = self.strategy_check
            self.store = strategy_check.prepare(source_run, relative, self.domain_path)
            self.post(RunCreated(self.store.path))
            check = strategy_check.run_check(self.store, text, provider, controller=self.controller,
                                             subscriber=self.sink,
                                             reasoning=bool(getattr(self.settings, "reasoning", False)))
            return {"run_dir": str(check.run_dir), "status": check.status, "debug_solved": check.solved,
                    "debug_total": check.total}
        if self.run_dir is not None and self.start_from is not None:
            # "continue from here": a new run that keeps every answer before the edited version
            kind, path, text = self.start_from
            source = RunStore.open(self.run_dir).path
            fork = api.fork(source, str(Path(path).relative_to(source)), kind, text)
            outcome = api.resume(fork, self.settings, watch, no_cache=self.no_cache, target=str(self.domain_path))
        elif self.run_dir is not None:
            outcome = api.resume(self.run_dir, self.settings, watch, no_cache=self.no_cache,
                                 target=str(self.domain_path))
        else:
            request = api.StartRequest(self.config.preset, str(self.domain_path), RunStore.runs_dir(self.domain_path),
                                       config=self.config, source="genplan-tui")
            outcome = api.start(request, self.settings, watch, no_cache=self.no_cache)
        return api.report(outcome)

    def _created(self, run_dir: Path) -> None:
        from genplan.engine.runs.store import RunStore

        self.store = RunStore.open(run_dir)
        self.post(RunCreated(run_dir))

    def stop(self) -> None:
        """Stop at the next request: waiting questions are answered with "stop"."""
        self.controller.stopped.set()
        self.pending.release_all()


class OwnLoopSession:
    """One run of an approach with its own loop (AutoToS on the domain directory, PDDLego+ in its game), through the approach registry's
    entry. ``run()`` blocks (call it in a thread worker) and returns the entry's summary. The events go to ``sink``
    as the run publishes them; the run directory is announced (RunCreated) before the first; ``stop()`` ends the
    run before its next model call. Its requests go through the run's gateway with this session's controller, so
    step mode (``stepping`` set) holds each one for the person to send, edit, answer or stop, as in a pipeline
    run."""

    def __init__(self, domain_path: Path, preset: str, settings: Any, post: Post, sink: Callable[[Any], None],
                 runs_dir: Path, parameters: dict[str, Any] | None = None, no_cache: bool = False,
                 stepping: threading.Event | None = None, resume: Path | None = None) -> None:
        from genplan.engine.approaches import Capability, preset_owner, start_target

        owner = preset_owner(preset)
        # ``resume``: an unfinished run of this approach, gone on with (its answers on disk are not asked again)
        self.resume = resume
        if owner is None or owner[0].can(Capability.PROGRAMS) or (
                resume is None and start_target(owner[0], domain_path) is None):
            raise ValueError(f"preset {preset}: not an approach with its own loop that the TUI can start")
        self.approach, self.preset = owner
        self.domain_path = domain_path
        self.settings = settings
        self.post = post
        self.sink = sink
        self.runs_dir = runs_dir
        self.parameters = dict(parameters or {})  # over the preset's, e.g. eval_limit
        self.no_cache = no_cache
        self.pending = PendingQuestions()
        # its ``stopped`` is the run's stop request, and the manual answerer asks it too
        self.controller = StepController(post, stepping or threading.Event(), self.pending)
        self.controller.manual = not settings.is_configured
        self.store: Any = None

    @property
    def manual(self) -> bool:
        return not self.settings.is_configured

    def run(self) -> dict[str, Any]:
        from genplan.engine import api
        from genplan.engine.approaches import start_target

        watch = api.Watch(subscriber=self.sink, controller=self.controller,
                          progress=lambda line: self.post(RunProgress(line)),
                          run_created=lambda run_dir: self.post(RunCreated(run_dir)),
                          stop_requested=self.controller.stopped.is_set,
                          manual_answer=manual_answerer(self.post, self.pending, self.controller))
        edit = self.parameters.get("continue_from")  # {"run", "file", "text"}: a person's edit of a trial's file
        if self.resume is not None:
            outcome = api.resume(self.resume, self.settings, watch, no_cache=self.no_cache)
        elif edit:
            fork = api.fork(Path(edit["run"]), str(edit["file"]), "pddl", str(edit["text"]))
            outcome = api.resume(fork, self.settings, watch, no_cache=self.no_cache)
        else:
            target = start_target(self.approach, self.domain_path)
            assert target is not None  # checked in __init__
            request = api.StartRequest(self.preset, target, self.runs_dir, parameters=self.parameters,
                                       source="genplan-tui")
            outcome = api.start(request, self.settings, watch, no_cache=self.no_cache)
        return api.report(outcome)

    def stop(self) -> None:
        """Stop before the next model call; a manual answer being waited for is cancelled."""
        self.controller.stopped.set()
        self.pending.release_all()


def resumable_own_loop_run(run_dir: Path) -> tuple[str, str, dict[str, Any]] | None:
    """(preset, target, parameters) of an unfinished run of an approach that writes no programs (an AutoToS run, a
    PDDLego+ or PlanGen trial); None for anything else (a pipeline run, an import, a finished run)."""
    from genplan.engine import api
    from genplan.engine.approaches import Capability

    try:
        approach, meta = api.resumable(Path(run_dir))
    except api.NotResumable:
        return None
    if approach.can(Capability.PROGRAMS) or meta.status == api.RunStatus.FINISHED:
        return None
    target, parameters = meta.extra.get("target"), meta.extra.get("parameters")
    if not isinstance(target, str) or not isinstance(parameters, dict):
        return None
    preset = str(parameters.get("preset") or "")
    if preset not in approach.presets:  # e.g. a fixed domain given to another preset: the parameters say all
        preset = next(iter(approach.presets))
    return preset, target, parameters
