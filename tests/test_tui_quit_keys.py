"""Keys typed right after ``q`` (issue #51: ``q`` then ``?`` typed quickly printed a Textual traceback on exit: the
help screen was pushed onto an app taking its screens down). Reproduced in tmux with the real genplan-tui (the
traceback: NoMatches for the help's MarkdownView in HelpScreen.on_mount); here both keys are queued before the app
handles either, as quick typing does."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tui_support import config_for, ferry_copy, make_app, ready


@pytest.mark.parametrize("then", ["question_mark", "3", "ctrl+p"])
async def test_a_key_typed_right_after_q_opens_nothing_and_the_app_ends_cleanly(tmp_path: Path, then: str) -> None:
    app = make_app(ferry_copy(tmp_path), config_for(tmp_path, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        app.simulate_key("q")
        app.simulate_key(then)
        await pilot.pause()
    assert app.return_code in (0, None) and app._exception is None
