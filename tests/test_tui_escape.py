"""Escape always leaves an editor or an answer box, with no side effect: one test per screen that has one.

The editors are TextAreas in indent mode, which by themselves turn escape into "focus next" (and, being the
only focusable widget, get the focus straight back): these tests type into the box first, so that focus
is in the text area when escape is pressed.
"""

from __future__ import annotations

from pathlib import Path

from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_snapshots import fixed_run
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.pick import PickScreen, TextEntryScreen
from genplan.tui.screens.settings import SettingsScreen
from genplan.tui.screens.step import RequestScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.panels import VersionsPanel


def files_of(run: Path) -> set[str]:
    return {str(p.relative_to(run)) for p in run.rglob("*") if p.is_file()}


async def type_into_focused(pilot, app, text: str = "junk") -> None:
    assert isinstance(app.focused, CodeArea), f"focus is on {app.focused!r}, not in the text box"
    await pilot.press(*text)
    assert text in app.focused.text


async def test_escape_leaves_the_version_editor_without_a_new_version(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    run = fixed_run(domain)
    before = files_of(run)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("5")
        await wait_for(pilot, lambda: app.query_one(VersionsPanel).versions, what="the versions")
        assert app.query_one(VersionsPanel).select("run-a/program/c1-v00")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        await type_into_focused(pilot, app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, EditorScreen), what="the editor to close")
        await pilot.pause(0.2)
    assert files_of(run) == before  # no junk version, nothing rerun


async def test_escape_in_the_manual_answer_box_leaves_the_request_waiting(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the answer screen")
        await type_into_focused(pilot, app)
        await pilot.press("escape")  # one escape: the screen closes, nothing is answered
        await wait_for(pilot, lambda: not isinstance(app.screen, RequestScreen), what="the screen to close")
        assert app.runner.pending and not app.runner.pending[0].future.done()
        assert not (app.runner.run_dir / "nl" / "domain.md").exists()
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")


async def test_escape_in_step_mode_prompt_editor_and_answer_box(scripted_server: ScriptedServer,
                                                               isolated: Path) -> None:  # noqa: F811
    scripted_server.respond_with(FerryModel())
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), step=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the step screen")
        screen = app.screen
        original = [m.content for m in screen.messages]
        # the prompt editor: escape drops the edit
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the prompt editor")
        await type_into_focused(pilot, app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="back on the step screen")
        assert not screen.edited and [m.content for m in screen.messages] == original
        # "answer instead": escape gives no answer, the model's answer is still to come
        await pilot.press("a")  # the answer box opens under the prompt, on the step screen
        await wait_for(pilot, lambda: screen.answering, what="the answer box")
        await type_into_focused(pilot, app)
        await pilot.press("escape")  # closes the box, the request still waits on the step screen
        await wait_for(pilot, lambda: app.screen is screen and not screen.answering, what="the box closed")
        assert scripted_server.requests == [] and not app.runner.pending[0].future.done()
        await pilot.press("ctrl+s")  # the request goes out as it was
        await wait_for(pilot, lambda: len(scripted_server.requests) == 1, what="the request")
        assert scripted_server.requests[0].messages[-1]["content"] == original[-1]
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")


async def test_escape_in_the_paste_a_plan_box(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("2", "p")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the plan choice")
        await pilot.press("end", "enter")  # "Type or paste a plan…"
        await wait_for(pilot, lambda: isinstance(app.screen, TextEntryScreen), what="the paste box")
        await type_into_focused(pilot, app, "(board c0 l0)")
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1, what="back on the main screen")


async def test_escape_leaves_the_settings_without_saving(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    config = config_for(isolated, None)
    text = config.read_text()
    app = make_app(domain, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings")
        await pilot.press(*"junk")
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1, what="back on the main screen")
    assert config.read_text() == text
