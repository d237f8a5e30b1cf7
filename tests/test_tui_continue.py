"""Capability 4, "continue from here": an edited strategy becomes a new run that keeps every earlier
answer and continues with validation of the edit; rerunning a strategy revalidates it the same way."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import (  # noqa: F401
    config_for,
    ferry_copy,
    isolated,
    make_app,
    ready,
    record_run,
    wait_for,
)
from test_tui_versions import select_version

from genplan.tui.screens.editor import EditorScreen


def _leaves_of(tree, run_id: str) -> list:
    """Every row under a run's node of the Versions tree."""
    node = next(n for n in tree.root.children if str(n.label).startswith(run_id))
    found, todo = [], list(node.children)
    while todo:
        child = todo.pop(0)
        found.append(child)
        todo.extend(child.children)
    return found


def _forks(domain: Path) -> list[Path]:
    runs = domain / ".genplan" / "runs"
    return [p for p in runs.iterdir() if "forked_from" in json.loads((p / "run.json").read_text())]


async def test_continue_from_an_edited_strategy(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        model = FerryModel(strategy_plan_mistakes=1)
        first = record_run(domain, server, model, initial_programs=1)
        asked_before = len(server.requests)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await select_version(pilot, app, f"{first.name}/strategy/v01")
            await pilot.press("e")
            await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
            app.screen.editor.load_text("1. my own strategy (version 7)")
            await pilot.press("ctrl+r")
            await wait_for(pilot, lambda: _forks(domain), what="the continued run")
            fork = _forks(domain)[0]
            await wait_for(
                pilot, lambda: json.loads((fork / "run.json").read_text())["status"] == "finished",
                timeout=90, what="the continued run to finish",
            )
            # the fork names its parent and the edited version: run header, Runs list, Versions tree
            await wait_for(pilot, lambda: app.runner.session is None and fork.name in app.ctx.overviews, what="the fork listed")
            header = str(app.query_one("#run-header").render())
            # the edit was saved as v03 (after the run's v01, v02) and the fork continues from it under that name
            assert f"run {fork.name}" in header and f"fork of {first.name}, edited strategies/v03.md" in header
            row = app.query_one("#runs-table").get_row(fork.name)
            # (the Runs column keeps the parent's time and suffix and the version's name: it fits at 80 columns)
            from genplan.tui.run_labels import short_run_id

            assert str(row[-1]) == f"⑂ {short_run_id(first.name)} v03.md"
            from genplan.tui.widgets.panels import VersionsPanel

            # the edited strategy's request shows as answered by a person; kept answers are not counted as calls
            answered = [e for e in app.runner.state.entries if e.kind == "request" and e.status == "answered"]
            assert [e.step for e in answered] == ["strategy.generate"]
            kept = [e for e in app.runner.state.entries if e.kind == "request" and e.status == "kept"]
            assert kept and app.runner.state.totals.calls == len(server.requests) - asked_before
            tree = app.query_one(VersionsPanel).versions_tree
            label = next(str(n.label) for n in tree.root.children if str(n.label).startswith(fork.name))
            assert f"⑂ {short_run_id(first.name)} v03.md" in label
            fork_rows = [str(n.label) for n in _leaves_of(tree, fork.name)]
            assert any(row.startswith("v03") and "✎ edit of v01" in row for row in fork_rows), fork_rows
        assert (fork / "strategies" / "v03.md").read_text().strip() == "1. my own strategy (version 7)"
        assert not (fork / "strategies" / "v01.md").exists()
        new_steps = [r.step for r in server.requests[asked_before:]]
        # nothing before the strategy was asked again; the edit went straight to plan validation
        assert "nl.domain" not in new_steps and "strategy.generate" not in new_steps
        assert new_steps[:6] == ["strategy.plan"] * 6


async def test_rerun_a_strategy_is_plan_validation_only_after_a_confirm(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    from genplan.tui.screens.pick import PickScreen

    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        first = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        asked_before = len(server.requests)
        app = make_app(domain, config_for(isolated, server))
        async with app.run_test(size=(100, 30)) as pilot:
            await ready(pilot, app)
            await select_version(pilot, app, f"{first.name}/strategy/v01")
            await pilot.press("x")
            await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the confirmation")
            assert "6 model requests" in app.screen.title_text and "paid" in app.screen.title_text
            assert len(server.requests) == asked_before  # nothing is sent before the yes
            await pilot.press("escape")  # no: nothing happens
            await pilot.pause(0.3)
            assert app.runner.session is None and len(server.requests) == asked_before
            await pilot.press("x")
            await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the confirmation again")
            await pilot.press("enter")  # yes
            await wait_for(pilot, lambda: app.runner.session is None and app.runner.run_dir is not None and app.runner.run_dir != first
                           and (app.runner.run_dir / "summary.json").exists(), timeout=90, what="the check to end")
            new_steps = [r.step for r in server.requests[asked_before:]]
            assert new_steps == ["strategy.plan"] * 6  # the NL descriptions were reused; nothing follows
            check = app.runner.run_dir
            meta = json.loads((check / "run.json").read_text())
            assert meta["purpose"] == "strategy-check" and meta["checks_strategy_of"] == first.name
            assert (check / "strategies" / "v01.md").read_text() == (first / "strategies" / "v01.md").read_text()
            results = json.loads((check / "results" / "strategy-v01.json").read_text())
            assert [r["solved"] for r in results].count(False) == 1  # the same mistake as in the source run
            assert not (check / "programs").exists()
            # the header follows once the check's overview is read (a moment after the run's end)
            await wait_for(pilot, lambda: f"fork of {first.name}, edited strategies/v01.md"
                           in str(app.query_one("#run-header").render()), what="the check's header")
