"""Edits on the record: an edit in the TUI or on disk becomes a new version file (the original untouched),
an ``artifact.edited`` event with the old and new text's hashes, and a visible mark (tree, timeline)."""

from __future__ import annotations

from pathlib import Path

from support.held_lock import lock_held_elsewhere, release
from test_tui_snapshots import fixed_run
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.engine.runs.edits import edits_of, text_hash
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.widgets.panels import VersionsPanel


async def test_an_edit_in_the_tui_is_on_the_record(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    run = fixed_run(domain)
    original = (run / "programs" / "c1-v00.py").read_text()
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_editor(pilot, app, "run-a/program/c1-v00")
        panel = app.query_one(VersionsPanel)
        edited = "# edited by hand\n" + original
        app.screen.editor.load_text(edited)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.ctx.version_index.get("run-a/program/c1-v02") is not None, what="the new version")
        [record] = edits_of(run)
        assert (record.edited, record.file, record.origin) == ("programs/c1-v00.py", "programs/c1-v02.py", "tui")
        assert (record.old_hash, record.new_hash) == (text_hash(original), text_hash(edited))
        assert (run / "programs" / "c1-v00.py").read_text() == original  # never overwritten
        assert (run / "programs" / "c1-v02.py").read_text() == edited
        if app.screen is not app.screen_stack[0]:
            await pilot.press("escape")  # the rerun an edited program gets
        await wait_for(pilot, lambda: any("edit of c1-v00" in str(n.label) for n in _leaves(panel)),
                       what="the mark in the tree")
        # reopened, the run's timeline shows the edit with its hashes
        app.runner.open_run(run)
        await wait_for(pilot, lambda: app.runner.state is not None and any(e.kind == "edit" for e in app.runner.state.entries),
                       what="the edit in the timeline")
        entry = next(e for e in app.runner.state.entries if e.kind == "edit")
        assert entry.title == "edited program c1-v00" and "c1-v02.py" in entry.detail
        assert record.old_hash[:8] in entry.detail and record.new_hash[:8] in entry.detail


def _leaves(panel: VersionsPanel) -> list:
    found, stack = [], list(panel.versions_tree.root.children)
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


async def test_a_save_refused_while_another_process_runs_the_run_gives_the_text_back(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    run = fixed_run(domain)
    app = make_app(domain, config_for(isolated, None))
    with lock_held_elsewhere(run) as holder:  # another genplan process working on the run
        async with app.run_test(size=(80, 24)) as pilot:
            await open_editor(pilot, app, "run-a/program/c1-v00")
            edited = "# checked by hand\n" + (run / "programs" / "c1-v00.py").read_text()
            app.screen.editor.load_text(edited)
            await pilot.press("ctrl+s")
            # refused: the editor is open again with the person's text, and says why
            await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.editor.text == edited
                           and any("another process runs it" in str(n.message) for n in app.messages),
                           what="the editor back with the text")
            assert edits_of(run) == [] and not (run / "programs" / "c1-v02.py").exists()
            release(holder)
            await pilot.press("ctrl+s")  # that process has stopped: saved
            await wait_for(pilot, lambda: (run / "programs" / "c1-v02.py").is_file(), what="the saved version")
            assert (run / "programs" / "c1-v02.py").read_text() == edited
            assert [(r.edited, r.file) for r in edits_of(run)] == [("programs/c1-v00.py", "programs/c1-v02.py")]


async def open_editor(pilot, app, key: str) -> None:
    """The editor on version ``key`` of the Versions view (5, select, e)."""
    await ready(pilot, app)
    await pilot.press("5")
    panel = app.query_one(VersionsPanel)
    await wait_for(pilot, lambda: panel.versions, what="the versions")
    assert panel.select(key)
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")


async def test_an_edited_programs_rerun_is_on_the_record_with_its_count_in_the_tree(isolated: Path) -> None:  # noqa: F811
    """Saving an edited program reruns it on the debug tasks; its results go on the run's record as a version's
    do (results/program-c1-v02.json), so the Versions tree shows its count (it showed none, ever)."""
    import json

    domain = ferry_copy(isolated)
    run = fixed_run(domain)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_editor(pilot, app, "run-a/program/c1-v00")
        panel = app.query_one(VersionsPanel)
        app.screen.editor.load_text("# edited by hand\n" + (run / "programs" / "c1-v00.py").read_text())
        await pilot.press("ctrl+s")
        results = run / "results" / "program-c1-v02.json"
        await wait_for(pilot, results.is_file, timeout=120, what="the edit's results on the record")
        checks = json.loads(results.read_text())
        solved = sum(check["solved"] for check in checks)
        assert len(checks) == 6 and {check["task"] for check in checks} == {f"task-{n:02d}" for n in range(6)}
        if app.screen is not app.screen_stack[0]:
            await pilot.press("escape")  # the rerun's screen
        await wait_for(pilot, lambda: any("c1-v02" in str(n.label) and f"{solved}/6" in str(n.label)
                                          for n in _leaves(panel)), what="the edit's count in the tree")
    # the run's own results are untouched; a second rerun does not write over the first
    assert json.loads(results.read_text()) == checks
