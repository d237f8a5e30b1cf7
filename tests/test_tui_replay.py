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

    def footer_word(key: str) -> str:
        """The word the footer shows beside KEY ('' when it does not show it)."""
        words = str(app.screen.query_one("KeyBar").render()).split("\n")[-1].split()  # the keys, not a message
        return words[words.index(key) + 1] if key in words else ""

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
        assert footer_word("space") == "Pause"
        await pilot.press("space")
        held = app.replay.replayer.position
        # paused: where the replay stands stays in the totals bar (the position's message goes after a moment),
        # and the footer's space says what it does now
        assert app.replay.replayer.paused
        assert app.runner.mode == f"replay (paused) event {held}/{len(app.replay.replayer.events)}"
        await pilot.pause(0.6)
        assert app.replay.replayer.position == held  # nothing moves while paused
        assert footer_word("space") == "Play"
        await pilot.press("full_stop")
        await pilot.pause(3.5)
        assert f"event {held + 1}/" in str(app.query_one("#totals").render())
        await pilot.press("space")
        assert footer_word("space") == "Pause"
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


async def test_the_editor_opened_during_a_replay_offers_no_replay_keys(recorded, isolated: Path) -> None:  # noqa: F811
    """space, + and - type into the editor: its footer shows its own keys, not Pause, Fast and Slow; back on the
    main screen the replay's keys lead the footer again."""
    from genplan.tui.screens.editor import EditorScreen
    from genplan.tui.widgets.panels import VersionsPanel

    domain, run = recorded
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=0.05)

    def footer() -> str:
        return str(app.screen.query_one("KeyBar").render())

    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replaying, what="the replay")
        await wait_for(pilot, lambda: " Fast " in footer() and " Pause " in footer(), what="the replay's keys")
        await pilot.press("5")
        await wait_for(pilot, lambda: app.query_one(VersionsPanel).versions, what="the versions")
        version = next(v for v in app.query_one(VersionsPanel).versions if "/program/" in v.key)
        assert app.query_one(VersionsPanel).select(version.key)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        await pilot.pause(0.3)
        assert app.replay.replaying
        assert " Fast " not in footer() and " Slow " not in footer() and " Pause " not in footer(), footer()
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, EditorScreen), what="back")
        await wait_for(pilot, lambda: " Fast " in footer(), what="the replay's keys again")
