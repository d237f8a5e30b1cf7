"""Capability 10: replaying a recorded run event by event, pausable, with the views working on it;
and reopening a run (--run) shows the same state at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, recorded_ferry, wait_for  # noqa: F401

from genplan.tui.widgets.panels import RunResults, RunTimeline
from genplan.tui.widgets.stream_view import StreamView


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> tuple[Path, Path]:
    return recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("replay"))


async def test_replay_plays_pauses_and_ends_like_the_run(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    from genplan.engine.runs.store import RunStore

    logged = list(RunStore.open(run).events())
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=4.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None and app.replay.replayer.position > 3, what="the replay")
        assert app.runner.mode.startswith("replay")
        # the recorded answer text streams into view while a request is "in flight"
        stream = app.query_one(StreamView)
        # (which answer depends on how far the replay got on a busy machine: any recorded one will do)
        recorded_answers = [p.read_text() for p in (run / "responses").glob("*.md")]

        def shows_a_recorded_answer() -> bool:
            shown = stream.text.strip()
            return bool(shown) and any(shown[:40] in answer for answer in recorded_answers)

        await wait_for(pilot, shows_a_recorded_answer, what="recorded text in the answer view")
        await pilot.press("space")
        assert app.replay.replayer.paused and app.runner.mode == "replay (paused)"
        held = app.replay.replayer.position
        await pilot.pause(0.6)
        assert app.replay.replayer.position == held  # nothing moves while paused
        await pilot.press("space")
        app.replay.replayer.clock.speed = 1000.0  # play the rest quickly
        await wait_for(pilot, lambda: app.replay.replayer.finished, timeout=60, what="the end of the replay")
        assert app.runner.mode == "replay (finished)"
        await pilot.press("space")  # nothing left to pause: it says so instead of claiming to pause
        assert app.runner.mode == "replay (finished)" and not app.replay.replayer.paused
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "done"
                       and app.query_one(RunTimeline).row_count == len(state.entries), what="the last events shown")
        assert sum(1 for e in state.entries if e.kind == "request") == sum(1 for e in logged if e.type == "request.sent")
        assert all(r.valid for r in app.query_one(RunResults).results)
        # the views work on the replayed run: choose the reflection and read it
        index = next(i for i, e in enumerate(state.entries) if e.kind == "artifact" and e.title.startswith("reflection"))
        app.query_one(RunTimeline).move_cursor(row=index)
        app.query_one(RunTimeline).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "SYNTHETIC reflection" in stream.text, what="the reflection")


async def test_reopening_a_run_shows_it_whole(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done", what="the run")
        assert app.replay.replayer is None and app.runner.run_dir == run
        assert "6/6 debug tasks solved by c1-v01" in app.runner.state.entries[-1].detail
