"""Replaying a recorded run: the Replayer (tui/replay.py) feeds the run's events to the run view at the
recorded pace; this controller starts, pauses, steps and rewinds it, and stops at each stage in classroom mode."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from genplan.engine.events import Event
from genplan.tui.classroom import PHASES, STEPS, stage_starts
from genplan.tui.controllers.base import Host, Views
from genplan.tui.replay import Replayer


class ReplayController:
    def __init__(self, host: Host, views: Views, speed: float, sink: Callable[[Event], None],
                 rewind: Callable[[list[Event]], None]) -> None:
        self.host, self.views = host, views
        self.speed = speed  # the pace a replay starts at (--speed)
        self.sink = sink  # where the replayed events go (the runs controller's queue)
        self.rewind = rewind  # shows the run again from the start with these events
        self.replayer: Replayer | None = None
        self.playing = False  # the replay worker's loop is running
        self.classroom = False  # stop before each stage of the method

    @property
    def replaying(self) -> bool:
        return self.replayer is not None and not self.replayer.finished

    def mode(self) -> str | None:
        """The replay's mode for the totals bar, None when nothing is replayed."""
        if self.replayer is None:
            return None
        if self.replayer.finished:
            return "replay (finished)"
        if self.replayer.paused:  # where it stands stays in view (the position's note on the message line goes)
            return f"replay (paused) event {self.replayer.position}/{len(self.replayer.events)}"
        return f"replay ×{self.replayer.clock.speed:g}"

    def key_word(self, action: str) -> str | None:
        """The footer's word for a replay key where it is not the key's own: space plays a paused replay."""
        paused = self.replayer is not None and self.replayer.paused
        return "Play" if action == "pause_replay" and paused else None

    def start(self, run_dir: Path, events: list[Event]) -> None:
        self.replayer = Replayer(run_dir, events, self.sink, self.speed)
        self.stop_at_stages(self.classroom)
        self.play()
        self.say(f"Replaying {run_dir.name}: space pauses, + and - change the speed.")
        self.views.refresh_totals()

    def play(self) -> None:
        replayer = self.replayer

        async def run() -> None:
            if replayer is None:
                return
            self.playing = True
            try:
                await replayer.play()
            finally:
                self.playing = False
            if replayer is self.replayer:
                self.say("Replay finished: , steps back.")
                self.views.refresh_totals()

        self.host.in_task(run, "replay")

    def stop(self) -> None:
        if self.replayer is not None:
            self.host.cancel_group("replay")
            self.replayer = None

    def say(self, note: str, *, timeout: float | None = None) -> None:
        """A replay's note: in classroom mode in the caption (a message would cover what the room reads),
        else on the message line."""
        if self.classroom:
            self.views.show_replay_note(note)
        else:
            self.host.notify(note, timeout=timeout)

    def position_note(self) -> None:
        replayer = self.replayer
        if replayer is None:
            return
        event = replayer.events[replayer.position - 1] if replayer.position else None
        self.say(f"Event {replayer.position} of {len(replayer.events)}: {describe(event)}", timeout=2)
        self.views.refresh_totals()

    def step(self) -> None:
        if self.replayer is None:
            return
        if self.replayer.step() is None:
            self.say("The replay is at its last event; , steps back.")
            return
        self.position_note()

    def next_answer(self) -> None:
        if self.replayer is None:
            return
        if not self.replayer.step_to_answer():
            self.say("No more answers in this run.")
            return
        self.position_note()

    def back(self) -> None:
        """One event back: the run's view is rebuilt from the events before it (instant: no waiting)."""
        replayer = self.replayer
        if replayer is None or replayer.position == 0:
            self.say("The replay is at its start.")
            return
        self.rewind(replayer.rewind_to(replayer.position - 1))
        self.position_note()

    def toggle_pause(self) -> None:
        if self.replayer is None:
            return
        if self.replayer.finished:
            self.say("The replay is over: , steps back; to watch it again, choose the run in 3 Runs and press y.")
            return
        paused = self.replayer.toggle_pause()
        if not paused and not self.playing:
            self.play()  # it had reached the end, and was stepped back since
        if self.classroom:  # the totals bar says "replay (paused)"; a note would cover what the room reads
            self.views.show_replay_note("Paused: space goes on." if paused else "")
        else:
            self.host.notify("Replay paused." if paused else "Replay resumed.")
        self.views.refresh_totals()

    def change_speed(self, factor: float) -> None:
        if self.replayer is None:
            return
        self.replayer.clock.speed = min(64.0, max(0.125, self.replayer.clock.speed * factor))
        self.views.refresh_totals()

    def stop_at_stages(self, on: bool) -> None:
        """Classroom mode: a replay pauses before each new stage of the method until space is pressed."""
        self.classroom = on
        replayer = self.replayer
        if replayer is None:
            return
        starts = {id(replayer.events[index]): note for index, note in stage_starts(replayer.events).items()}
        replayer.stops_before = (lambda event: id(event) in starts) if on else None
        replayer.on_stop = (lambda event: self.stage_reached(starts[id(event)])) if on else None

    def stage_reached(self, note: str) -> None:
        self.views.show_replay_note(f"Next: {note.rstrip('.')}. space goes on.")
        self.views.refresh_totals()


def describe(event: Event | None) -> str:
    """An event in plain words, as the replay's position note says it (a room reads along)."""
    if event is None:
        return "the start, before anything happened"
    words = PLAIN_WORDS.get(event.type)
    if words is None:  # an event type this version does not know: its name, without the dots
        about = next((value for value in (field_of(event, name) for name in ("step", "phase", "kind")) if value), "")
        return f"{event.type.replace('.', ' ')} {about}".strip()
    values = {name: _plain(field_of(event, name)) for name in PLAIN_FIELDS}
    values["doing"] = STEPS.get(values["step"], ("", "a question to the model"))[1]
    values["stage"] = PHASES.get(values["phase"] or values["step"], values["phase"] or values["step"] or "a stage")
    values["outcome"] = "is valid" if field_of(event, "valid") else "fails"
    about = " ".join(v for v in (values["task"], values["version"]) if v)
    values["about"] = f"({about})" if about else ""
    return " ".join(words.format(**values).split())


def _plain(value: object) -> str:
    return "" if value is None else str(value).replace("_", " ")


PLAIN_FIELDS = ("step", "phase", "kind", "version", "task", "what", "message", "command", "check", "number")
# event type -> what happened (``str.format`` with PLAIN_FIELDS, ``doing``, ``stage`` and ``outcome``)
PLAIN_WORDS = {
    "run.started": "the run starts",
    "run.finished": "the run ends",
    "run.failed": "the run fails: {message}",
    "step.started": "a new stage begins: {stage}",
    "step.finished": "the stage is over: {stage}",
    "request.sent": "a question goes to the model {about}: {doing}",
    "request.paused": "a question waits before it is sent {about}: {doing}",
    "request.retry": "the question is sent again (the model's service failed)",
    "request.edited": "a person edited the question before it was sent",
    "text.delta": "the model's answer streams in",
    "response.received": "the model's answer is complete",
    "validation.result": "{what} check of {version} on {task}: the plan {outcome}",
    "artifact.created": "a new version is written: {kind} {version}",
    "artifact.edited": "a person edited the {kind}",
    "selection.made": "the best {kind} is selected: {version}",
    "notice": "a notice: {message}",
    "attempt.started": "the game starts over (a new attempt)",
    "command.executed": "a command runs in the game: {command}",
    "feedback.round": "a unit test fails ({check}); the model gets feedback",
    "checks.passed": "the {check} unit tests pass",
    "feedback.limit": "the feedback rounds are spent",
    "evaluation.progress": "the evaluation goes on",
}


def field_of(event: Event, name: str) -> object:
    """A typed event's field, else (an event type this version does not know) the same key of its payload."""
    return getattr(event, name) if hasattr(event, name) else event.extra.get(name)
