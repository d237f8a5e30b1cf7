"""Continuing from any version without traps (issue 36, item 1), as a person correcting a strategy meets them:
ctrl+r while another run waits for an answer offers to stop it and continue; an edit of an edit continues; an
unchanged save makes no version; a fork keeps its source's version names and ✎ marks; the timeline shows an edit
as a row; `h` (history) follows the edit lineage, not the numbering."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_continue import _forks, _leaves_of
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, record_run, wait_for  # noqa: F401
from test_tui_versions import select_version

from genplan.engine.api import edit
from genplan.tui.screens.compare import CompareScreen
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.pick import PickScreen
from genplan.tui.screens.step import RequestScreen
from genplan.tui.widgets.panels import VersionsPanel
from genplan.tui.widgets.timeline import Timeline

FIRST = "1. sail to each car not at its goal, board it, sail to its goal, debark it (version 7)\n"
SECOND = "1. MARKER-second: for each car not at its goal: sail there, board, sail to its goal, debark (version 8)\n"


def _status(run_dir: Path) -> str:
    return str(json.loads((run_dir / "run.json").read_text())["status"])


def _meta(run_dir: Path) -> dict:
    return json.loads((run_dir / "run.json").read_text())


async def _edit_in_editor(pilot, app, key: str, text: str, keys: str) -> None:
    await select_version(pilot, app, key)
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
    app.screen.editor.load_text(text)
    await pilot.press(keys)


async def test_ctrl_r_while_a_run_waits_offers_to_stop_it_and_continue(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        app = make_app(domain, config_for(isolated, server), step=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await pilot.press("r")  # a new run, held before its first request (step mode)
            await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the held request")
            waiting_run = app.runner.run_dir
            await pilot.press("escape")  # later: the run waits for the person
            await wait_for(pilot, lambda: app.runner.pending and app.screen is app.screen_stack[0], what="the wait")
            await _edit_in_editor(pilot, app, f"{source.name}/strategy/v01", FIRST, "ctrl+r")
            await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the offer to stop")
            title = str(app.screen.title_text)
            assert "waits for your answer" in title and "Stop it and continue" in title and "strategies/v03.md" in title
            assert (source / "strategies/v03.md").read_text() == FIRST  # saved before anything is asked
            await pilot.press("enter")  # the first choice: stop the run and continue from the edit
            await wait_for(pilot, lambda: _forks(domain), what="the continued run")
            fork = _forks(domain)[0]
            assert waiting_run is not None and _status(waiting_run) == "stopped"
            # the stop is over: the message line says so, not "Stopping at the next request…" while the fork runs
            messages = [n.message for n in app.messages]
            stopping = messages.index("Stopping at the next request…")
            assert any(m.endswith("stopped; the new run continues from your edit.") for m in messages[stopping + 1:])
            # the fork runs in step mode as well: send everything
            await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the fork's first request")
            await pilot.press("w")
            await wait_for(pilot, lambda: _status(fork) == "finished", timeout=90, what="the fork to finish")
        meta = _meta(fork)
        assert meta["forked_from"] == str(source) and meta["edited_version"] == "strategies/v03.md"
        assert (fork / "strategies/v03.md").read_text().strip() == FIRST.strip()


async def test_keep_the_waiting_run_saves_the_edit_only(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(), initial_programs=1)
        app = make_app(domain, config_for(isolated, server), step=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the held request")
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is app.screen_stack[0], what="the main screen")
            await _edit_in_editor(pilot, app, f"{source.name}/strategy/v01", FIRST, "ctrl+r")
            await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the offer to stop")
            await pilot.press("down", "enter")  # keep the run going
            await pilot.pause()
            assert app.runner.session is not None and app.runner.pending  # still there, still waiting
            assert not _forks(domain)
            assert (source / "strategies/v02.md").read_text() == FIRST  # the edit is kept


async def test_an_edit_of_an_edit_continues_and_the_fork_keeps_names_and_marks(tmp_path: Path,
                                                                                isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        first = edit(source, "strategies/v01.md", FIRST)  # v03, an edit of v01 (made as genplan edit makes it)
        assert first is not None and first.file == "strategies/v03.md"
        asked_before = len(server.requests)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await wait_for(pilot, lambda: app.ctx.version_index.get(f"{source.name}/strategy/v03") is not None,
                           what="the first edit")
            await _edit_in_editor(pilot, app, f"{source.name}/strategy/v03", SECOND, "ctrl+r")
            await wait_for(pilot, lambda: _forks(domain), what="the continued run")
            fork = _forks(domain)[0]
            await wait_for(pilot, lambda: _status(fork) == "finished", timeout=90, what="the fork to finish")
            await wait_for(pilot, lambda: app.runner.session is None and fork.name in app.ctx.overviews,
                           what="the fork listed")
            # the edit of the edit is v04, and the fork calls it v04 with the same mark
            tree = app.query_one(VersionsPanel).versions_tree
            rows = [str(n.label) for n in _leaves_of(tree, fork.name)]
            assert any(row.startswith("v04") and "✎ edit of v03" in row for row in rows), rows
            assert not any(row.startswith("v01") for row in rows), rows
            # the fork's timeline has the edit as a row where the version was written
            edits = [e for e in app.runner.state.entries if e.kind == "edit"]
            assert [e.title for e in edits] == ["edited strategy v03"] and "v04.md" in edits[0].detail
        assert (source / "strategies/v04.md").read_text() == SECOND
        assert (fork / "strategies/v04.md").read_text().strip() == SECOND.strip()
        assert _meta(fork)["edit_lineage"] == ["strategies/v01.md", "strategies/v03.md", "strategies/v04.md"]
        new = server.requests[asked_before:]
        assert "strategy.generate" not in [r.step for r in new]
        plans = [r for r in new if r.step == "strategy.plan"]
        assert plans and all("MARKER-second" in r.messages[-1]["content"] for r in plans)


async def test_an_unchanged_save_makes_no_version(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(), initial_programs=1)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            original = (source / "strategies/v01.md").read_text()
            notes: list[str] = []
            app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
            await _edit_in_editor(pilot, app, f"{source.name}/strategy/v01", original, "ctrl+s")
            await wait_for(pilot, lambda: app.screen is app.screen_stack[0], what="the editor closed")
            await pilot.pause()
            assert sorted(p.name for p in (source / "strategies").iterdir()) == ["v01.md"]
            assert any("unchanged: no new version" in note for note in notes), notes
        assert "artifact.edited" not in (source / "events.jsonl").read_text()


async def test_an_edit_shows_in_the_open_runs_timeline(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(), initial_programs=1)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            app.runner.open_run(source)
            await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.entries, what="the run")
            await _edit_in_editor(pilot, app, f"{source.name}/strategy/v01", FIRST, "ctrl+s")
            await wait_for(pilot, lambda: any(e.kind == "edit" for e in app.runner.state.entries),
                           what="the edit's row")
            row = next(e for e in app.runner.state.entries if e.kind == "edit")
            assert row.title == "edited strategy v01" and "v02.md" in row.detail and "in the TUI" in row.detail
            await pilot.press("4")
            timeline = app.query_one(Timeline)
            await wait_for(pilot, lambda: timeline.row_count == len(app.runner.state.entries), what="the rows")
            timeline.move_cursor(row=timeline.row_count - 1)  # the edit is the newest row
            await pilot.pause()
            shown = [timeline.render_line(y).text for y in range(timeline.size.height)]
            # the timeline is narrow here: the edit's row in short (the ✎ marks the edit, it keeps version and file)
            assert any(line.strip().startswith("✎ strategy v01 → v02.md ") for line in shown), "\n".join(shown)
            # ... and only the edit: a file the run wrote has a row of another mark
            timeline.move_cursor(row=0)
            await pilot.pause()
            top = [timeline.render_line(y).text.strip() for y in range(timeline.size.height)]
            written = [line for line in top if line.startswith("+ ")]  # the NL descriptions, the strategy
            assert written and not any(line.startswith("✎") for line in top), "\n".join(top)


async def test_history_follows_the_edit_lineage(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        # v01, v02 (the model's revision), v03 (another revision): then v04, an edit of v01
        source = record_run(domain, server, FerryModel(strategy_plan_mistakes=2), initial_programs=1)
        assert sorted(p.name for p in (source / "strategies").iterdir()) == ["v01.md", "v02.md", "v03.md"]
        assert edit(source, "strategies/v01.md", FIRST) is not None
        assert edit(source, "strategies/v04.md", SECOND) is not None  # v05, an edit of v04
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            index = app.ctx.version_index
            await wait_for(pilot, lambda: index.get(f"{source.name}/strategy/v05") is not None, what="the edits")
            names = [v.name for v in index.history(index.get(f"{source.name}/strategy/v04"))]
            assert names == ["v01", "v04"]
            assert [v.name for v in index.history(index.get(f"{source.name}/strategy/v05"))] == ["v01", "v04", "v05"]
            assert [v.name for v in index.history(index.get(f"{source.name}/strategy/v03"))] == ["v01", "v02", "v03"]
            await select_version(pilot, app, f"{source.name}/strategy/v04")
            await pilot.press("h")
            await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the history")
            screen = app.screen
            shown = [screen.versions[screen.left].name, screen.versions[screen.right].name]
            assert shown == ["v01", "v04"]  # v04 is an edit of v01, not a step after v03


async def test_an_nl_description_is_edited_and_continued_from_its_timeline_row(tmp_path: Path,
                                                                              isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(), initial_programs=1)
        asked_before = len(server.requests)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            app.runner.open_run(source)
            await wait_for(pilot, lambda: app.runner.state is not None and any(
                e.file is not None and e.file.name == "domain.md" for e in app.runner.state.entries), what="the run")
            await pilot.press("4")
            timeline = app.query_one(Timeline)
            await wait_for(pilot, lambda: timeline.row_count == len(app.runner.state.entries), what="the rows")
            row = next(i for i, e in enumerate(app.runner.state.entries) if e.file is not None and e.file.name == "domain.md")
            timeline.focus()
            timeline.move_cursor(row=row)
            await pilot.pause()
            await pilot.press("e")
            await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor on the description")
            app.screen.editor.load_text("MARKER-nl: a ferry takes one car at a time across.\n")
            await pilot.press("ctrl+r")
            await wait_for(pilot, lambda: _forks(domain), what="the continued run")
            fork = _forks(domain)[0]
            await wait_for(pilot, lambda: _status(fork) == "finished", timeout=90, what="the fork to finish")
        assert (source / "nl/domain-edit1.md").read_text().startswith("MARKER-nl")
        assert _meta(fork)["edited_version"] == "nl/domain-edit1.md"
        assert (fork / "nl/domain.md").read_text().startswith("MARKER-nl")
        new = server.requests[asked_before:]
        assert "nl.domain" not in [r.step for r in new]
        assert any("MARKER-nl" in m["content"] for m in next(r for r in new if r.step == "strategy.generate").messages)
