"""Capability 11: every action reachable from the command palette and from keys shown in the footer;
the help screen; working at 80x24 and when resized."""

from __future__ import annotations

from pathlib import Path

from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401
from textual.binding import Binding
from textual.command import CommandPalette

from genplan.tui.app import GenplanApp
from genplan.tui.screens.help import HelpScreen
from genplan.tui.widgets.panels import RunTimeline, TasksPanel
from genplan.tui.widgets.totals_bar import TotalsBar
from genplan.tui.widgets.versions_tree import VersionsTree


def action_names(bindings) -> set[str]:
    return {(b.action if hasattr(b, "action") else b[1]).removeprefix("app.").split("(")[0] for b in bindings}


async def test_every_action_has_a_key_and_a_palette_entry(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        from genplan.tui.actions import ACTIONS

        keyed = action_names(Binding(a.keys, a.action) for a in ACTIONS)
        # the app's own actions (each runs a controller's method) all have a key, and every app action of the
        # table has a handler (or is Textual's own)
        own_actions = set(app.handlers) | {name[len("action_"):] for name in vars(GenplanApp) if name.startswith("action_")}
        assert own_actions - {"quit"} <= keyed, own_actions - keyed
        table = {a.action.removeprefix("app.").split("(")[0] for a in ACTIONS if a.place == "app" or a.action.startswith("app.")}
        assert table - {"quit", "command_palette"} <= set(app.handlers), table - set(app.handlers)
        # the palette lists every app action that applies now (pause/answer/stop only when they apply)
        titles = {c.title: c for c in app.get_system_commands(app.screen)}
        assert {"Help", "Settings", "Run the pipeline", "Compare with marked version", "Plan stepper",
                "History of selected artefact", "Rerun selected version", "Edit selected version"} <= set(titles)
        assert "Pause / resume replay" not in titles
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        await pilot.press(*"show versions")
        await wait_for(pilot, lambda: any(
            "Show versions" in str(results.get_option_at_index(0).prompt)
            for results in app.screen.query("CommandList") if results.option_count), what="the palette's match")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.query_one("#tabs").active == "versions", what="the palette command")
        assert isinstance(app.focused, VersionsTree)
        # the footer shows the keys of the focused panel and the app
        shown = {active.binding.action for active in app.screen.active_bindings.values()
                 if active.binding.show and active.enabled}
        assert {"app.compare_selected", "app.edit_selected", "app.history_selected", "help", "settings",
                "start_run", "toggle_step"} <= shown


async def test_help_screen_lists_the_keys(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        view = app.screen.query_one("#help-text")
        await wait_for(pilot, lambda: "Command palette" in view.rendered_text(), what="the help text")
        text = view.text
        for expected in ("Command palette", "Watch/Step", "Compare", "Plan stepper", "Continue from here",
                         "Next version", "Failing step", "Answer instead", "Edit prompt", "Replay"):
            assert expected in text, expected
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_small_terminal_and_resizing(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        for tab in "12345":
            await pilot.press(tab)
            await pilot.pause()
            assert app.query_one(TotalsBar).region.height == 1  # the totals stay visible
        await pilot.press("4")
        timeline = app.query_one(RunTimeline)
        assert timeline.region.width >= 40 and timeline.region.height >= 5
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert app.query_one(RunTimeline).region.height > timeline.region.height - 1
        await pilot.resize_terminal(80, 24)
        await pilot.press("2")
        await pilot.pause()
        tasks = app.query_one(TasksPanel)
        assert tasks.query_one("#task-list").region.width > 10 and tasks.query_one("#task-tabs").region.width > 40


async def test_user_keymap_from_the_settings_file(isolated: Path) -> None:  # noqa: F811
    from test_tui_snapshots import fixed_run

    from genplan.tui.screens.editor import EditorScreen
    from genplan.tui.widgets.panels import VersionsPanel

    domain = ferry_copy(isolated)
    fixed_run(domain)
    config = config_for(isolated, None)
    config.write_text(config.read_text() + '\n[keymap]\n"versions.edit" = "E"\n"app.settings" = "ctrl+t"\n')
    app = make_app(domain, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        assert app.ctx.keymap == {"versions.edit": "E", "app.settings": "ctrl+t"}
        await pilot.press("5")
        await wait_for(pilot, lambda: app.query_one(VersionsPanel).versions, what="the versions")
        assert app.query_one(VersionsPanel).select("run-a/program/c1-v00")
        await pilot.press("e")  # the old key does nothing now
        await pilot.pause(0.2)
        assert not isinstance(app.screen, EditorScreen)
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor by the new key")
        await pilot.press("escape")
        # the footer and the help show the user's keys
        assert " E Edit " in str(app.screen.query_one("KeyBar").render())
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        assert "| `E` | **Edit**: Edit the version; saving makes a new version | `versions.edit` |" in app.screen.keys_markdown


async def test_unknown_keymap_id_is_one_clear_error_and_the_other_bindings_still_apply(isolated: Path) -> None:  # noqa: F811
    config = config_for(isolated, None)
    config.write_text(config.read_text() + '\n[keymap]\n"version.edit" = "E"\n"versions.rerun" = "R"\n')
    app = make_app(ferry_copy(isolated), config)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        error = app.ctx.settings_error
        assert error is not None and "unknown binding id 'version.edit'" in error
        assert "did you mean versions.edit?" in error
        assert "the other 1 bindings apply" in error
        assert app.ctx.keymap == {"versions.rerun": "R"}  # the known binding is not dropped with the unknown one


def test_a_misspelt_keymap_id_names_the_closest_id() -> None:
    from genplan.tui.actions import check_keymap

    kept, error = check_keymap({"versions.edti": "E", "app.quit": "ctrl+q", "versions.rerun": " "}, "cfg.toml")
    assert kept == {"app.quit": "ctrl+q"}
    assert error == ("cfg.toml: [keymap] unknown binding id 'versions.edti' (did you mean versions.edit?); "
                     "'versions.rerun' must be keys such as \"ctrl+e\"; the other 1 bindings apply")
    assert check_keymap({"zzz": "x"}, "cfg.toml")[1] == (
        "cfg.toml: [keymap] unknown binding id 'zzz' (see the ids on the help screen, ?)")
    assert check_keymap({"app.quit": "ctrl+q"}, "cfg.toml") == ({"app.quit": "ctrl+q"}, None)


def test_the_help_names_every_panel_and_its_key() -> None:
    from genplan.tui.actions import ACTIONS
    from genplan.tui.screens.help import INTRO

    tabs = [a for a in ACTIONS if a.id.startswith("app.tab-")]
    assert len(tabs) >= 6
    assert f"(keys 1-{len(tabs)})" in INTRO
    for tab in tabs:
        assert f"*{tab.description}*" in INTRO, tab.description


def test_the_read_only_palette_offers_only_what_looks() -> None:
    from genplan.tui.actions import palette_actions

    everything = {a.id for a in palette_actions()}
    looking = {a.id for a in palette_actions(read_only=True)}
    assert "versions.edit" in everything and "app.run" in everything
    assert looking < everything
    assert not looking & {"versions.edit", "app.run", "app.settings", "versions.rerun", "app.export", "runs.resume"}
