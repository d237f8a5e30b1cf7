"""The bridge between the TUI and the engine: a run of any approach in a worker thread (RunSession, over
engine/api/), step mode, manual answers.

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
from typing import TYPE_CHECKING, Any

from textual.message import Message

from genplan.tui.messages import AnswerRequested, RunCreated, RunProgress, StepRequested

if TYPE_CHECKING:
    from genplan.engine.api import RunReport

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
    released: bool = False  # the session stopped: a question asked from now on is answered at once

    def add(self, future: Future, on_stop: Any) -> bool:
        """Wait on ``future`` until the person decides; False (and ``on_stop`` set as its result) when the
        session stopped meanwhile (between the asking thread's check and here), so nobody is asked."""
        with self.lock:
            if not self.released:
                self.futures.append((future, on_stop))
                return True
        future.set_result(on_stop)
        return False

    def release_all(self) -> None:
        with self.lock:
            pending, self.futures, self.released = self.futures, [], True
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
        if self.pending.add(future, Decision.stop()):
            self.post(StepRequested(request_id, request, future))
        return future.result()


def manual_answerer(post: Post, pending: PendingQuestions, controller: StepController) -> Callable[[Any], str | None]:
    """The ManualProvider's answerer: the TUI shows the prompt and waits for the typed or pasted answer."""

    def answer(request: Any) -> str | None:
        if controller.stopped.is_set():
            return None
        future: Future = Future()
        if pending.add(future, None):
            post(AnswerRequested(request, future, controller.current_request()))
        return future.result()

    return answer


@dataclass(frozen=True)
class Fork:
    """A new run that continues ``run_dir`` from a person's edit of its file ``relative`` (a strategy, a
    reflection, a program, a trial's PDDL file, an AutoToS function): every answer before it is kept."""

    run_dir: Path
    relative: str
    kind: str
    text: str


class RunSession:
    """One run driven from the TUI, of any approach, through engine/api/: a new run (``start``), an unfinished
    one gone on with (``resume``), a fork from an edit (``fork``), or a strategy's plan validation
    (``strategy_check``: source run, strategy file relative to it, text). ``run()`` blocks (call it in a thread
    worker) and returns the run's report. The events go to ``sink`` as the run publishes them; the run directory
    is announced (RunCreated) before the first; ``stop()`` ends the run before its next request. Step mode
    (``stepping`` set) holds each request for the person to send, edit, answer or stop; with no model configured
    the person answers every request."""

    def __init__(self, domain_path: Path, settings: Any, post: Post, sink: Callable[[Any], None],
                 stepping: threading.Event, *, start: Any = None, resume: Path | None = None, fork: Fork | None = None,
                 strategy_check: tuple[Path, str, str] | None = None, no_cache: bool = False,
                 label: str = "the run", memory_gib: float | None = None, budget: Any = None) -> None:
        if sum(x is not None for x in (start, resume, fork, strategy_check)) != 1:
            raise ValueError("a session starts, resumes, forks or checks a strategy: exactly one of them")
        self.domain_path = domain_path
        self.settings = settings
        self.post = post
        self.sink = sink
        self.start = start  # an api.StartRequest
        self.resume = resume
        self.fork = fork
        self.strategy_check = strategy_check
        self.no_cache = no_cache
        self.memory_gib = memory_gib  # for a run that goes on: its sandboxed searches' memory (AutoToS)
        self.budget = budget  # caps on the run's model spend (engine/api/budget.Budget), or None
        self.label = label  # what the run is, for the person (its preset)
        self.approach = self._approach()  # the registry's record: what the TUI may offer for this run
        self.pending = PendingQuestions()
        # its ``stopped`` is the run's stop request, and the manual answerer asks it too
        self.controller = StepController(post, stepping, self.pending)
        self.controller.manual = not settings.is_configured
        self.store: Any = None

    @property
    def manual(self) -> bool:
        return not self.settings.is_configured

    @property
    def writes_programs(self) -> bool:
        """Its approach writes programs checked on the debug tasks (so a version can be rerun)."""
        from genplan.engine.api.presets import reruns_versions

        return reruns_versions(self.approach)

    def _approach(self) -> Any:
        from genplan.engine import api

        if self.start is not None:
            return api.approach_of_request(self.start)
        source = self.resume or (self.fork.run_dir if self.fork else None) or (
            self.strategy_check[0] if self.strategy_check else None)
        return api.approach_of_run(source) if source is not None else None

    def run(self) -> RunReport:
        from genplan.engine import api

        watch = api.Watch(subscriber=self.sink, controller=self.controller, run_created=self._created,
                          progress=lambda line: self.post(RunProgress(line)),
                          stop_requested=self.controller.stopped.is_set,
                          manual_answer=manual_answerer(self.post, self.pending, self.controller),
                          manual_queues=True)  # the runs controller asks them in the pipeline's order
        if self.strategy_check is not None:
            source_run, relative, text = self.strategy_check
            return api.check_strategy(source_run, relative, text, self.domain_path, self.settings, watch,
                                      no_cache=self.no_cache)
        if self.start is not None:
            return api.report(api.start(self.start, self.settings, watch, no_cache=self.no_cache, budget=self.budget))
        run_dir = self.resume
        if self.fork is not None:
            run_dir = api.fork(self.fork.run_dir, self.fork.relative, self.fork.kind, self.fork.text)
        assert run_dir is not None  # __init__ checked that one of them is given
        return api.report(api.resume(run_dir, self.settings, watch, no_cache=self.no_cache,
                                     domain_dir=self.domain_path, memory_gib=self.memory_gib, budget=self.budget))

    def _created(self, run_dir: Path) -> None:
        from genplan.engine.api.runs import open_run

        self.store = open_run(run_dir)
        self.post(RunCreated(run_dir))

    def stop(self) -> None:
        """Stop before the next request; the questions waited for are answered with "stop"."""
        self.controller.stopped.set()
        self.pending.release_all()
