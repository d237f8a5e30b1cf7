"""The event loop's guard against long garbage-collector pauses (tui/responsiveness.py): after the first
frame the app warms up the modules and lexers a session needs and freezes its long-lived heap; when it
exits, everything is given back to the collector."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui import responsiveness


async def test_app_freezes_its_long_lived_heap_and_gives_it_back(isolated: Path) -> None:  # noqa: F811
    thresholds = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        assert app.heap_freezes >= 1
        assert gc.get_freeze_count() > 10_000  # Textual and the views were loaded when the app mounted
        assert gc.get_threshold() == responsiveness.GC_THRESHOLDS
        # after the warm-up the session's modules are loaded, and what they created is frozen too
        await wait_for(pilot, lambda: app.heap_freezes == 2, what="the freeze after the warm-up")
        assert all(name in sys.modules for name in responsiveness.WARM_MODULES)
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == thresholds


async def test_tuning_can_be_switched_off(isolated: Path) -> None:  # noqa: F811
    thresholds = gc.get_threshold()
    app = make_app(ferry_copy(isolated), config_for(isolated, None), tune_gc=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.pause(0.3)
        assert app.heap_freezes == 0
        assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


def test_warm_up_loads_every_listed_module_and_lexer() -> None:
    assert responsiveness.warm_up() == []
    from genplan.tui.highlight import lexer_for

    assert lexer_for("pddl") is not None and lexer_for("python") is not None


async def test_timeline_is_redrawn_at_most_every_interval_and_catches_up(isolated: Path, monkeypatch) -> None:  # noqa: F811
    """Opening a recorded run drains hundreds of events over several ticks; the timeline (a DataTable that
    redraws every visible row on any change) is synced at most every TIMELINE_INTERVAL_S meanwhile."""
    import time

    from support.scripted_server import ScriptedServer
    from test_tui_support import buggy_then_fixed, record_run

    from genplan.tui.controllers import runs as runs_module
    from genplan.tui.widgets import panels
    from genplan.tui.widgets.panels import RunTimeline
    from genplan.tui.widgets.timeline import Timeline

    domain = ferry_copy(isolated)
    with ScriptedServer() as server:
        run = record_run(domain, server, buggy_then_fixed())
    monkeypatch.setattr(runs_module, "DRAIN_BATCH", 5)  # a long stream of small batches
    syncs: list[float] = []
    original = Timeline.sync
    monkeypatch.setattr(Timeline, "sync", lambda self, *a, **k: (syncs.append(time.monotonic()), original(self, *a, **k))[1])
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done" and not app.runner.events,
                       what="the run's events")
        timeline = app.query_one(RunTimeline)
        await wait_for(pilot, lambda: timeline.row_count == len(app.runner.state.entries), timeout=2, what="the timeline")
    assert len(syncs) >= 2
    gaps = [b - a for a, b in zip(syncs, syncs[1:])]
    assert min(gaps) >= panels.TIMELINE_INTERVAL_S * 0.9
