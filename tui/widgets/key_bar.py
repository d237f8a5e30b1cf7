"""The footer: the keys that work here, as one line of text.

Textual's Footer rebuilds a widget per key whenever focus or the screen changes, which costs a
noticeable moment on a slow machine; this bar only redraws its text.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; color: $footer-foreground; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self.show_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:  # noqa: ANN001 - Textual's signal passes the screen
        if self.is_attached and screen is self.screen:
            self.show_keys()

    def show_keys(self) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        seen: set[str] = set()
        palette = None
        for key, (_node, binding, enabled, _tooltip) in self.screen.active_bindings.items():
            if key == self.app.COMMAND_PALETTE_BINDING:
                palette = binding
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            style = "" if enabled else "dim"
            text.append(f" {self.app.get_key_display(binding)} ", style=f"bold {style}".strip())
            text.append(f"{binding.description} ", style=style or "")
        if palette is not None:
            text.append(f" {self.app.get_key_display(palette)} palette", style="bold")
        self.update(text)
