"""The settings screen: model, base URL, key variable, preset and limits; saved as TOML (mode 600)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, Select, Static

from genplan.tui.actions import bindings
from genplan.tui.config import FAITHFUL_FIELD, LIMIT_FIELDS, RunPrefs, limits_apply, save_tui_settings
from genplan.tui.widgets.key_bar import KeyBar

MODEL_FIELDS = (
    ("model", "Model", "none: a person answers (manual provider)"),
    ("base_url", "Base URL", "e.g. http://127.0.0.1:8000/v1; empty: OpenAI"),
    ("api_key_env", "API key variable", "environment variable holding the key"),
    ("temperature", "Temperature", "0-2, or none"),
    ("max_tokens", "Max tokens", "answer length limit, or none"),
)
LIMIT_LABELS = {
    "strategy_rounds": "Strategy rounds (K_S)",
    "code_rounds": "Code rounds (K_C)",
    "initial_programs": "Initial programs (N)",
    "program_timeout_s": "Program time limit (s)",
}
NULLABLE = {"model", "base_url", "temperature", "max_tokens"}
NO_LIMITS_HINT = "not used by {preset} (its own loop)"


@dataclass
class SettingsResult:
    settings: Any
    prefs: RunPrefs
    path: Path


def _shown(value: Any) -> str:
    return "" if value is None else str(value)


class SettingsScreen(ModalScreen[SettingsResult | None]):
    BINDINGS = bindings("settings")
    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical { width: 96%; max-width: 110; height: 96%; border: thick $accent;
                                background: $surface; }
    SettingsScreen Grid { grid-size: 2; grid-columns: 26 1fr; grid-rows: 3; height: auto; padding: 0 1; }
    SettingsScreen Grid Label { padding: 1 0 0 0; }
    SettingsScreen #settings-error { color: $error; padding: 0 1; height: auto; }
    SettingsScreen #settings-path { color: $text-muted; padding: 0 1; height: auto; }
    SettingsScreen Checkbox { margin: 0 1; }
    """

    def __init__(self, settings: Any, prefs: RunPrefs, path: Path, presets: list[str]) -> None:
        super().__init__()
        self.settings = settings
        self.prefs = prefs
        self.path = path
        self.presets = presets
        self._shown_preset = prefs.preset

    def compose(self) -> ComposeResult:
        config = self.prefs.to_config()
        with Vertical():
            yield Static(f"Settings — saved to {self.path} (readable by you only)", id="settings-path")
            with VerticalScroll():
                with Grid():
                    for name, label, hint in MODEL_FIELDS:
                        yield Label(label)
                        yield Input(_shown(getattr(self.settings, name)), placeholder=hint, id=f"set-{name}")
                    yield Label("Preset")
                    yield Select([(p, p) for p in self.presets], value=self.prefs.preset, allow_blank=False,
                                 id="set-preset")
                    own = not limits_apply(self.prefs.preset)
                    for name in LIMIT_FIELDS:
                        yield Label(LIMIT_LABELS[name])
                        value = self.prefs.overrides.get(name, getattr(config, name))
                        yield Input("" if own else _shown(value), id=f"set-{name}", disabled=own,
                                    placeholder=NO_LIMITS_HINT.format(preset=self.prefs.preset) if own else "")
                    yield Label("Reference-faithful")
                    yield Input(str(self.prefs.overrides.get(FAITHFUL_FIELD, "")), id=f"set-{FAITHFUL_FIELD}",
                                disabled=own, placeholder="all, all,-extraction, ... (empty: genplan's own)")
                yield Checkbox("Store the API key itself in the file (otherwise only the variable name)",
                               value=self.settings.api_key is not None, id="set-store-key")
                yield Static("", id="settings-error")
        yield KeyBar()

    def value(self, name: str) -> str:
        return self.query_one(f"#set-{name}", Input).value.strip()

    def build(self) -> tuple[Any, RunPrefs]:
        """Validated settings and preferences from the form; raises ValueError with one line."""
        from genplan.engine.api.presets import ConfigError, load_preset
        from genplan.engine.api.settings import NONE_WORD, SettingsError, settings_with

        given: dict[str, str] = {}
        for name, _label, _hint in MODEL_FIELDS:
            text = self.value(name)
            if not text:
                if name in NULLABLE:
                    given[name] = NONE_WORD
                continue
            given[name] = text
        # The engine validates: the form's values as command-line text over the current settings.
        try:
            settings = settings_with(self.settings, given)
        except SettingsError as exc:
            raise ValueError(str(exc).replace("command line option --", "setting ")) from None
        settings.api_key = self.settings.api_key
        preset = str(self.query_one("#set-preset", Select).value)
        if not limits_apply(preset):  # AutoToS, a trial: the pipeline's limits do not apply
            return settings, RunPrefs(preset=preset)
        base_config = load_preset(preset)
        overrides: dict[str, Any] = {}
        for name in LIMIT_FIELDS:
            text = self.value(name)
            if not text:
                continue
            kind = float if name == "program_timeout_s" else int
            try:
                value = kind(text)
            except ValueError:
                raise ValueError(f"{LIMIT_LABELS[name]}: not a number: {text!r}") from None
            if value != getattr(base_config, name):
                overrides[name] = value
        faithful = self.value(FAITHFUL_FIELD)
        if faithful:  # the toggles first (RunPrefs.to_config); the limits typed above win over them
            overrides = {FAITHFUL_FIELD: faithful, **overrides}
        prefs = RunPrefs(preset=preset, overrides=overrides)
        try:
            prefs.to_config()
        except ConfigError as exc:
            raise ValueError(str(exc)) from None
        return settings, prefs

    def action_save(self) -> None:
        from genplan.engine.api.settings import SettingsError

        error = self.query_one("#settings-error", Static)
        try:
            settings, prefs = self.build()
            store_key = self.query_one("#set-store-key", Checkbox).value
            save_tui_settings(self.path, settings, prefs, store_key=store_key)
        except (ValueError, SettingsError, OSError) as exc:
            error.update(str(exc))
            return
        self.dismiss(SettingsResult(settings, prefs, self.path))

    def on_select_changed(self, event: Select.Changed) -> None:
        """A new preset brings its own limits."""
        from genplan.engine.api.presets import ConfigError, load_preset

        if str(event.value) == self._shown_preset:
            return
        self._shown_preset = str(event.value)
        own = not limits_apply(str(event.value))
        for name in LIMIT_FIELDS:
            field = self.query_one(f"#set-{name}", Input)
            field.disabled = own
            field.placeholder = NO_LIMITS_HINT.format(preset=event.value) if own else ""
            if own:
                field.value = ""
        self.query_one(f"#set-{FAITHFUL_FIELD}", Input).disabled = own  # nor its faithful toggles
        if own:
            return
        try:
            config = load_preset(str(event.value))
        except ConfigError:
            return
        for name in LIMIT_FIELDS:
            self.query_one(f"#set-{name}", Input).value = _shown(getattr(config, name))

    def action_cancel(self) -> None:
        self.dismiss(None)
