"""Capability 2: watching a run — timeline with status, tokens and time; the answer streaming in as
Markdown; the debug results table; the totals always visible. Against the scripted server."""

from __future__ import annotations

from pathlib import Path

from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FerryModel
from support.scripted_server import Reply, ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui.widgets.panels import RunResults, RunTimeline
from genplan.tui.widgets.stream_view import StreamView
from genplan.tui.widgets.totals_bar import TotalsBar, format_tokens

SLOW_TEXT = "SYNTHETIC domain description, streamed slowly. " * 12


def slow_domain_description(request):
    if request.step == "nl.domain":
        return Reply.answer(SLOW_TEXT, chunk_chars=8, chunk_delay_s=0.03)
    return None


async def test_a_run_streams_into_the_views(scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    scripted_server.respond_with(FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM],
                                            extra=slow_domain_description))
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        stream = app.query_one(StreamView)
        # mid-stream: part of the answer is on screen while the request is still running
        await wait_for(pilot, lambda: 0 < len(stream.text) < len(SLOW_TEXT) and "streamed slowly" in stream.text,
                       what="the answer to start streaming")
        assert app.runner.state.entry(f"req:{stream.request_id}").status == "running"
        assert "nl.domain" in str(app.query_one("#stream-title").render())
        await wait_for(pilot, lambda: "streamed slowly" in stream.view.rendered_text(), what="markdown to render")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the run to finish")
        await wait_for(pilot, lambda: not app.runner.events and app.runner.state.status == "done", what="the last events")

        state = app.runner.state
        requests = [e for e in state.entries if e.kind == "request"]
        answered = [e for e in requests if e.status == "done"]
        assert len(answered) == len(scripted_server.requests)
        assert all(e.tokens and e.seconds is not None for e in answered)
        # the final strategy check asks what validation asked for the 2 prompt tasks: cache hits
        assert [e.status for e in requests if e not in answered] == ["cached", "cached"]
        kinds = {e.kind for e in state.entries}
        assert {"phase", "request", "check", "artifact", "selection", "run"} <= kinds
        timeline = app.query_one(RunTimeline)
        # the timeline is redrawn at most every TIMELINE_INTERVAL_S: it catches up right after
        await wait_for(pilot, lambda: timeline.row_count == len(state.entries), timeout=2, what="the timeline")
        # the debug results of the selected program, with feedback for failures of earlier versions
        table = app.query_one(RunResults)
        assert [r.task for r in table.results] == [f"task-0{i}" for i in range(6)]
        assert all(r.valid for r in table.results)
        assert "program c1-v01 — 6/6 passed" in str(app.query_one("#results-title").render())
        failing = state.results[("program", "c1-v00")]
        assert any(not r.valid and "not executable" in r.message for r in failing.values())
        # totals: calls (the cached ones shown as such), tokens, cost, time
        bar = app.query_one(TotalsBar)
        calls = f"calls {len(scripted_server.requests)} +2 cached"
        assert state.totals.cached_calls == 2 and state.totals.kept_calls == 0
        # at 100 columns the bar shortens the tokens and leaves out the cost and the time ...
        assert str(bar.render()).endswith(f" │ {calls} · {format_tokens(state.totals.tokens)} tok")
        # ... which the full line (the tooltip's) keeps
        assert f" │ {calls} · tokens {format_tokens(state.totals.tokens)} · cost $" in bar.full_text
        assert " · time " in bar.full_text
        assert state.totals.tokens > 0 and state.elapsed(live=False) > 0

        # choosing a code answer shows it as Markdown with a highlighted code block
        index = next(i for i, e in enumerate(state.entries) if e.step == "code.generate")
        timeline.focus()
        timeline.move_cursor(row=index)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "def generate_solution" in stream.view.rendered_text(), what="the code answer")
        # rendered, not shown as source: the fence marks are gone and the code is highlighted
        assert "```" not in stream.view.rendered_text() and "```" in stream.text
        backgrounds = {str(style.bgcolor.triplet.hex) for style in stream.view.rendered_styles()
                       if style.bgcolor is not None and style.bgcolor.triplet is not None}
        assert "#272822" in backgrounds  # the code block's syntax theme
