"""Playing a recorded run back, event by event, at a chosen speed, pausable.

The log holds no streamed text (it is live-only), so while a recorded request is "in flight" the
recorded answer (engine.runs.answers) is handed out in pieces, as the model once sent it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.events import Event, ResponseReceived, TextDelta

MAX_GAP_S = 2.0  # a long wait in the recording (a slow model, a person thinking) plays as at most this
MIN_GAP_S = 0.02
STREAM_PIECES = 12


def load_events(run_dir: Path) -> list[Event]:
    from genplan.engine.api import runs as run_files  # not before the first screen: it loads every approach

    return run_files.run_events(run_dir)


def recorded_answer(run_dir: Path, event: ResponseReceived) -> str:
    """The answer a ResponseReceived names (engine.runs.answers reads it: the gateway's answer file, or the
    answer file of an AutoToS run of before); ``''`` when there is none."""
    from genplan.engine.api import runs as run_files

    return run_files.recorded_answer(run_dir, str(event.file)) if event.file else ""


@dataclass
class ReplayClock:
    speed: float = 1.0
    paused: bool = False


class Replayer:
    """Feeds ``sink`` with the run's events; ``toggle_pause`` and ``speed`` can change while it plays."""

    def __init__(self, run_dir: Path, events: list[Event], sink: Callable[[Event], Any], speed: float = 1.0,
                 stops_before: Callable[[Event], bool] | None = None,
                 on_stop: Callable[[Event], Any] | None = None) -> None:
        self.run_dir = run_dir
        self.events = events
        self.sink = sink
        self.clock = ReplayClock(speed=max(speed, 0.01))
        self.position = 0
        self._resume = asyncio.Event()
        self._resume.set()
        self.finished = False
        self._streamed: dict[str, int] = {}  # request id -> characters of its answer handed out so far
        # classroom mode: playing pauses before each event this says yes to (a new stage), until resumed
        self.stops_before = stops_before
        self.on_stop = on_stop
        self._stopped_at = -1

    @property
    def paused(self) -> bool:
        return self.clock.paused

    def toggle_pause(self) -> bool:
        self.clock.paused = not self.clock.paused
        if self.clock.paused:
            self._resume.clear()
        else:
            self._resume.set()
        return self.clock.paused

    def gap(self, index: int) -> float:
        if index == 0:
            return 0.0
        raw = max(0.0, self.events[index].time - self.events[index - 1].time)
        return min(MAX_GAP_S, max(MIN_GAP_S / self.clock.speed, raw / self.clock.speed))

    async def _wait(self, seconds: float) -> None:
        await self._resume.wait()
        await asyncio.sleep(seconds)
        await self._resume.wait()

    async def play(self) -> None:
        self.finished = False
        while self.position < len(self.events):
            index = self.position
            event = self.events[index]
            if (self.stops_before is not None and index > 0 and index != self._stopped_at
                    and self.stops_before(event)):
                self._stopped_at = index
                self.pause()
                if self.on_stop is not None:
                    self.on_stop(event)
            wait = self.gap(index)
            if isinstance(event, ResponseReceived):
                await self._stream_answer(event, wait)
            else:
                await self._wait(wait)
            if self.position != index:
                continue  # the person stepped meanwhile
            self._emit(event)
        self.finished = True

    def _emit(self, event: Event) -> None:
        """Hand out one event (the rest of its recorded answer first, for a response) and move on."""
        if isinstance(event, ResponseReceived):
            rid = str(event.request_id)
            text = recorded_answer(self.run_dir, event)
            rest = text[self._streamed.get(rid, 0):]
            if rest:
                self.sink(TextDelta(request_id=event.request_id, text=rest, seq=event.seq, time=event.time))
            self._streamed[rid] = len(text)
        self.sink(event)
        self.position += 1

    def pause(self) -> None:
        if not self.clock.paused:
            self.toggle_pause()

    def step(self) -> Event | None:
        """Pause, and hand out the next event at once; returns it (None at the end)."""
        self.pause()
        if self.position >= len(self.events):
            return None
        event = self.events[self.position]
        self._emit(event)
        if self.position >= len(self.events):
            self.finished = True
        return event

    def step_to_answer(self) -> int:
        """Pause, and hand out events up to and including the next model answer; how many were handed out."""
        count = 0
        while (event := self.step()) is not None:
            count += 1
            if isinstance(event, ResponseReceived):
                break
        return count

    def rewind_to(self, position: int) -> list[Event]:
        """Pause, and go back so that only the first ``position`` events have happened: returns them, for the
        consumer to rebuild its state from (answers already given count as fully streamed)."""
        self.pause()
        self.position = max(0, min(position, len(self.events)))
        self.finished = False
        before = self.events[: self.position]
        self._streamed = {str(e.request_id): 10**9 for e in before if isinstance(e, ResponseReceived)}
        return before

    async def _stream_answer(self, event: ResponseReceived, wait: float) -> None:
        """Spread the recorded answer over the time the request took in the recording."""
        text = recorded_answer(self.run_dir, event)
        if not text:
            await self._wait(wait)
            return
        size = max(1, len(text) // STREAM_PIECES + 1)
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        rid = str(event.request_id)
        self._streamed[rid] = 0
        for piece in pieces:
            await self._wait(wait / len(pieces))
            if self.position >= len(self.events) or self.events[self.position] is not event:
                return  # the person stepped meanwhile
            self._streamed[rid] += len(piece)
            self.sink(TextDelta(request_id=event.request_id, text=piece, seq=event.seq, time=event.time))
