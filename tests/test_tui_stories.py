"""User stories of issue 28 that had no Pilot test of their own: correct a wrong strategy by hand and continue to
a run that solves every debug task (at 80x24, where the fork's header and the notifications must not hide what
matters), and edit a reflection and continue."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, record_run, wait_for  # noqa: F401
from test_tui_versions import select_version
from textual.widgets._toast import Toast

from genplan.engine.runs.edits import edits_of
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.widgets.key_bar import KeyBar


def _forks(domain: Path) -> list[Path]:
    runs = domain / ".genplan" / "runs"
    return [p for p in runs.iterdir() if "forked_from" in json.loads((p / "run.json").read_text())]


def _shown_lines(widget) -> list[str]:
    """The lines a widget shows in its region (wrapped, cut where the region ends), as drawn."""
    return [strip.text.strip() for strip in widget.render_lines(widget.region.reset_offset)]


async def _finished_fork(pilot, app, domain: Path) -> Path:
    await wait_for(pilot, lambda: _forks(domain), what="the continued run")
    fork = _forks(domain)[0]
    await wait_for(pilot, lambda: json.loads((fork / "run.json").read_text())["status"] == "finished",
                   timeout=120, what="the continued run to finish")
    await wait_for(pilot, lambda: app.runner.session is None and fork.name in app.ctx.overviews, what="the fork listed")
    return fork


async def test_correct_a_wrong_strategy_and_continue_to_a_run_that_solves_every_debug_task_at_80x24(
        tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        first = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        wrong = json.loads((first / "results" / "strategy-v01.json").read_text())
        assert [r["solved"] for r in wrong].count(False) == 1  # the model's strategy was wrong on one task
        asked_before = len(server.requests)
        app = make_app(domain, config_for(isolated, server), run=first.name)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await ready(pilot, app)
            await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done",
                           what="the run to open")
            await pilot.press("4")
            row = next(i for i, e in enumerate(app.runner.state.entries) if e.key == "art:strategy:v01")
            timeline = app.query_one("#run-timeline")
            timeline.focus()
            timeline.move_cursor(row=row)
            await pilot.pause(0.2)
            await pilot.press("e")  # the wrong strategy, from its timeline row
            await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
            assert "(version 1)" in app.screen.editor.text
            app.screen.editor.load_text("1. for every car not at its goal: sail to it, board, sail, debark (version 7)")
            await pilot.press("ctrl+r")
            fork = await _finished_fork(pilot, app, domain)
            summary = json.loads((fork / "summary.json").read_text())
            assert summary["debug_solved"] == summary["debug_total"] == 6  # every debug task solved
            new_steps = [r.step for r in server.requests[asked_before:]]
            assert new_steps[:6] == ["strategy.plan"] * 6 and "strategy.revise" not in new_steps
            # the run's last events are applied a batch per tick after it ended
            await wait_for(pilot, lambda: "6/6 passed" in str(app.query_one("#results-title").render()),
                           what="the fork's debug results")

            # the edit of v01 is a new version of the first run, v03 (v02 is the model's revision); the fork calls
            # it what its source does, and its header keeps that name whole at 80 columns (it wraps, never cuts)
            assert [(r.edited, r.file) for r in edits_of(first)] == [("strategies/v01.md", "strategies/v03.md")]
            assert json.loads((fork / "run.json").read_text())["edited_version"] == "strategies/v03.md"
            header = app.query_one("#run-header")
            await wait_for(pilot, lambda: "(from call" in " ".join(_shown_lines(header)), what="the fork's account")
            shown = " ".join(_shown_lines(header))
            # the call numbered as every screen numbers calls (its place among the run's calls), not its request id
            at = json.loads((fork / "run.json").read_text())["forked_at"]
            asked = [e["data"]["request_id"] for e in map(json.loads, (first / "events.jsonl").read_text().splitlines())
                     if e["type"] == "request.sent"]
            assert f"run {fork.name}" in shown and f"edited strategies/v03.md (from call {asked.index(at) + 1} on)" in shown
            assert f"fork of {first.name}" in shown

            # a message covers neither the debug results nor the totals bar nor the header: it has a line of its own
            app.notify("SYNTHETIC note: a message long enough to take two lines of the message line at 80 columns, "
                       "or more.", title="Note", timeout=30)
            bar = app.screen.query_one(KeyBar)
            await wait_for(pilot, lambda: "SYNTHETIC note" in bar.message_text and bar.region.height >= 2,
                           what="the note laid out")
            assert not app.screen.query(Toast)
            kept = [app.query_one(selector) for selector in ("#run-results", "#results-title", "#totals",
                                                               "#run-header")]
            assert all(widget.region.height > 0 for widget in kept)
            for widget in kept:
                assert not bar.region.overlaps(widget.region), (bar.region, widget.id, widget.region)


async def test_edit_a_reflection_and_continue(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        first = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        reflections = sorted((first / "reflections").rglob("*.md"))
        assert reflections, "the first run reflected on its wrong strategy"
        asked_before = len(server.requests)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await pilot.press("5")
            await wait_for(pilot, lambda: app.query_one("#versions-panel").versions, what="the versions")
            version = next(v for v in app.query_one("#versions-panel").versions
                           if v.run_id == first.name and v.kind == "reflection")
            await select_version(pilot, app, version.key)
            await pilot.press("e")
            await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
            assert "SYNTHETIC reflection" in app.screen.editor.text
            edited = "SYNTHETIC edited reflection: the ferry must sail to the car before it boards (teacher's note)."
            app.screen.editor.load_text(edited)
            await pilot.press("ctrl+r")
            fork = await _finished_fork(pilot, app, domain)
            relative = str(version.path.relative_to(first))
            assert Path(json.loads((fork / "run.json").read_text())["forked_from"]).name == first.name
            new = server.requests[asked_before:]
            # the run went on with the revision the reflection is for, and the model read the edited reflection
            assert new[0].step == "strategy.revise"
            assert any(edited in m["content"] for m in new[0].messages)
            assert not any(r.step in ("nl.domain", "strategy.generate", "strategy.reflect") for r in new)
            # the edit is a version of the first run of its own (-edit1); the fork calls it what its source does
            saved = relative.removesuffix(".md") + "-edit1.md"
            assert [(r.edited, r.file) for r in edits_of(first)] == [(relative, saved)]
            assert json.loads((fork / "run.json").read_text())["edited_version"] == saved
            await wait_for(pilot, lambda: "(from call" in str(app.query_one("#run-header").render()),
                           what="the fork's account")
            header = str(app.query_one("#run-header").render())
            assert f"run {fork.name}" in header and f"edited {saved} (from call" in header
            summary = json.loads((fork / "summary.json").read_text())
            assert summary["debug_solved"] == summary["debug_total"] == 6
