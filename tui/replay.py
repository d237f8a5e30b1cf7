"""Playing a recorded run back, event by event, at a chosen speed, pausable.

The log holds no streamed text (it is live-only), so while a recorded request is "in flight" the
recorded answer (``responses/NNNN-<step>.md``) is handed out in pieces, as the model once sent it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .run_state import RESPONSE_RECEIVED, TEXT_DELTA

MAX_GAP_S = 2.0  # a long wait in the recording (a slow model, a person thinking) plays as at most this
MIN_GAP_S = 0.02
STREAM_PIECES = 12


def load_events(run_dir: Path) -> list[Any]:
    from genplan.engine.pipeline import RunStore

    return list(RunStore.open(run_dir).events())


def recorded_answer(run_dir: Path, data: dict[str, Any]) -> str:
    file = data.get("file")
    if not file:
        return ""
    path = Path(str(file))
    if not path.is_absolute():
        path = run_dir / path
    try:
        return path.with_suffix(".md").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


@dataclass
class ReplayClock:
    speed: float = 1.0
    paused: bool = False


class Replayer:
    """Feeds ``sink`` with the run's events; ``toggle_pause`` and ``speed`` can change while it plays."""

    def __init__(self, run_dir: Path, events: list[Any], sink: Callable[[Any], Any], speed: float = 1.0) -> None:
        self.run_dir = run_dir
        self.events = events
        self.sink = sink
        self.clock = ReplayClock(speed=max(speed, 0.01))
        self.position = 0
        self._resume = asyncio.Event()
        self._resume.set()
        self.finished = False

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
        while self.position < len(self.events):
            index = self.position
            event = self.events[index]
            wait = self.gap(index)
            if event.type == RESPONSE_RECEIVED:
                await self._stream_answer(event, wait)
            else:
                await self._wait(wait)
            self.sink(event)
            self.position += 1
        self.finished = True

    async def _stream_answer(self, event: Any, wait: float) -> None:
        """Spread the recorded answer over the time the request took in the recording."""
        text = recorded_answer(self.run_dir, event.data)
        if not text:
            await self._wait(wait)
            return
        size = max(1, len(text) // STREAM_PIECES + 1)
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        for piece in pieces:
            await self._wait(wait / len(pieces))
            self.sink(type(event)(TEXT_DELTA, {"request_id": event.data.get("request_id"), "text": piece},
                                  event.seq, event.time))
