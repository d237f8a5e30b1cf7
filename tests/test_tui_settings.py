"""Capability 9: the settings screen — model, base URL, key variable, preset and limits, saved as TOML
(mode 600) in the config directory; the key itself only when asked."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

from test_tui_support import ferry_copy, isolated, ready, wait_for  # noqa: F401
from textual.widgets import Checkbox, Input, Select

from genplan.tui.app import GenplanApp, LaunchOptions
from genplan.tui.screens.settings import SettingsScreen


async def test_settings_screen_saves_the_config_file(isolated: Path, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("MY_TEST_KEY", "sk-test-not-real")
    domain = ferry_copy(isolated)
    app = GenplanApp(LaunchOptions(domain, watch_files=False))  # the default config path (in XDG_CONFIG_HOME)
    path = isolated / "xdg-config" / "genplan" / "config.toml"
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        assert not app.ctx.settings.is_configured
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings screen")
        screen = app.screen
        screen.query_one("#set-model", Input).value = "my-model"
        screen.query_one("#set-base_url", Input).value = "http://127.0.0.1:8000/v1"
        screen.query_one("#set-api_key_env", Input).value = "MY_TEST_KEY"
        screen.query_one("#set-temperature", Input).value = "hot"
        await pilot.press("ctrl+s")  # a bad value: one line saying what is wrong, nothing saved
        assert isinstance(app.screen, SettingsScreen) and not path.exists()
        assert "temperature" in str(screen.query_one("#settings-error").render())
        screen.query_one("#set-temperature", Input).value = "0.5"
        screen.query_one("#set-preset", Select).value = "F3-6"
        await pilot.pause()
        assert screen.query_one("#set-initial_programs", Input).value == "3"  # the preset's own limits
        screen.query_one("#set-code_rounds", Input).value = "2"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), what="saving")
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        data = tomllib.loads(path.read_text())
        assert data["llm"]["model"] == "my-model" and data["llm"]["base_url"] == "http://127.0.0.1:8000/v1"
        assert data["llm"]["api_key_env"] == "MY_TEST_KEY" and data["llm"]["temperature"] == 0.5
        assert data["pipeline"] == {"preset": "F3-6", "code_rounds": 2}
        assert "sk-test-not-real" not in path.read_text()
        assert app.ctx.settings.model == "my-model" and app.ctx.prefs.to_config().code_rounds == 2
        assert "my-model" in app.runner.source_label()

        # storing the key itself only when asked
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings screen")
        app.screen.query_one("#set-store-key", Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), what="saving")
        assert tomllib.loads(path.read_text())["secrets"] == {"api_key": "sk-test-not-real"}
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
