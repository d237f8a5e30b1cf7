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

    def on_resize(self) -> None:
        if self.is_attached and self.app.screen_stack:
            self.show_keys()

    def show_keys(self) -> None:
        """The keys of the focused place first, then the screen's and the app's; whole keys only: what does not
        fit is left out (never cut mid-word), and help and the palette (which list everything) always show."""
        from genplan.tui.actions import ACTIONS

        order = {action.id: index for index, action in enumerate(ACTIONS)}
        focused = self.app.focused

        def rank(entry: tuple) -> tuple[int, int]:
            """The focused widget's keys first, then the screen's, then the app's; each in the table's order."""
            node, binding = entry[1][0], entry[1][1]
            where = 0 if node is focused else (2 if node is self.app else 1)
            return where, order.get(binding.id or "", len(order))

        items: list[tuple[str, str, bool]] = []
        seen: set[str] = set()
        palette = None
        help_item = None
        for key, (_node, binding, enabled, _tooltip) in sorted(self.screen.active_bindings.items(), key=rank):
            if key == self.app.COMMAND_PALETTE_BINDING:
                palette = binding
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            item = (self.app.get_key_display(binding), binding.description, enabled)
            if binding.action in ("help", "app.help"):
                help_item = item
            else:
                items.append(item)
        tail: list[tuple[str, str, bool]] = [help_item] if help_item else []
        if palette is not None:
            tail.append((self.app.get_key_display(palette), "palette", True))
        width = self.size.width or 80
        budget = width - sum(len(k) + len(d) + 3 for k, d, _ in tail)
        shown: list[tuple[str, str, bool]] = []
        for item in items:
            cost = len(item[0]) + len(item[1]) + 3
            if cost > budget:
                continue  # a shorter key further on may still fit
            shown.append(item)
            budget -= cost
        text = Text(no_wrap=True, overflow="crop")
        for key_name, description, enabled in shown + tail:
            style = "" if enabled else "dim"
            text.append(f" {key_name} ", style=f"bold {style}".strip())
            text.append(f"{description} ", style=style or "")
        self.update(text)
