"""The footer: the message line (while there is a message) above the keys that work here.

Textual's Footer rebuilds a widget per key whenever focus or the screen changes, which costs a
noticeable moment on a slow machine; this bar only redraws its text. Messages (what Textual shows as toasts,
which lay over the content: diff lines, the matrix header, the answer) take a line of their own here: the
content above gives way by a line while one shows, and nothing is covered.
"""

from __future__ import annotations

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

# The app's own keys that matter only in a situation (a replay, a waiting request, a run going on): while they
# apply they lead the footer, before the place's keys, so a room reading along sees space . , n + - at 80 columns.
SITUATION_ACTIONS = ("answer_pending", "stop_run", "pause_replay", "replay_step", "replay_back",
                     "replay_next_answer", "replay_speed(2.0)", "replay_speed(0.5)")
MESSAGE_STYLES = {"information": "bold", "warning": "bold black on yellow", "error": "bold white on red"}
MESSAGE_LINES = 2  # a longer message is cut with an ellipsis (the message log keeps all of it)


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: auto; max-height: 3; background: $footer-background; color: $footer-foreground; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.message: Text | None = None
        self.keys = Text()
        self._clear_timer: Timer | None = None

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

    # ------------------------------------------------------------------ the message line
    def say(self, message: Text, severity: str, timeout: float) -> None:
        """Show ``message`` above the keys for ``timeout`` seconds (a newer message replaces it)."""
        line = Text(" ", no_wrap=False, overflow="ellipsis")
        line.append_text(message)
        line.stylize(MESSAGE_STYLES.get(severity, "bold"))
        self.message = line
        if self._clear_timer is not None:
            self._clear_timer.stop()
        self._clear_timer = self.set_timer(timeout, self.clear_message)
        self._draw()

    def clear_message(self) -> None:
        self.message = None
        self._clear_timer = None
        if self.is_attached:
            self._draw()

    @property
    def message_text(self) -> str:
        return self.message.plain.strip() if self.message is not None else ""

    def _draw(self) -> None:
        if self.message is None:
            self.update(self.keys)
            return
        width = max(10, self.size.width or 80)
        lines = list(self.message.wrap(self.app.console, width, overflow="ellipsis"))
        if len(lines) > MESSAGE_LINES:
            kept = lines[MESSAGE_LINES - 1]
            kept.truncate(width - 1)
            kept.append("…")
            lines = lines[: MESSAGE_LINES - 1]
            lines.append(kept)
        shown = Text("\n").join([*lines, self.keys])
        self.update(shown)

    # ------------------------------------------------------------------ the keys
    def show_keys(self) -> None:
        """The situation's keys (a replay, a waiting request) and the focused place's keys first, then the
        screen's, then the app's; whole keys only. A key of the place or the screen that does not fit with its
        whole description shows its first word; the app's keys fill what is left. Help and the palette (which
        list everything) always show."""
        from genplan.tui.actions import ACTIONS

        order = {action.id: index for index, action in enumerate(ACTIONS)}
        focused = self.app.focused

        def rank(entry: tuple) -> tuple[int, int]:
            node, binding = entry[1][0], entry[1][1]
            if node is self.app and binding.action in SITUATION_ACTIONS:
                where = 0
            else:
                where = 1 if node is focused else (3 if node is self.app else 2)
            return where, order.get(binding.id or "", len(order))

        items: list[tuple[str, str, bool, bool]] = []  # key, description, enabled, the app's own
        seen: set[str] = set()
        palette = None
        help_item = None
        for key, entry in sorted(self.screen.active_bindings.items(), key=rank):
            node, binding, enabled = entry[0], entry[1], entry[2]
            if key == self.app.COMMAND_PALETTE_BINDING:
                palette = binding
                continue
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            general = node is self.app and binding.action not in SITUATION_ACTIONS
            describe = getattr(self.app, "key_description", None)  # a key whose word follows the situation
            description = describe(binding) if describe is not None else binding.description
            item = (self.app.get_key_display(binding), description, enabled, general)
            if binding.action in ("help", "app.help"):
                help_item = item
            else:
                items.append(item)
        tail: list[tuple[str, str, bool, bool]] = [help_item] if help_item else []
        if palette is not None:
            tail.append((self.app.get_key_display(palette), "palette", True, True))
        width = self.size.width or 80
        budget = width - sum(len(k) + len(d) + 3 for k, d, _, _ in tail)
        shown: list[tuple[str, str, bool, bool]] = []
        for key_name, description, enabled, general in items:
            if len(key_name) + len(description) + 3 > budget and not general:
                description = description.split(" ")[0]  # "c Continue": the place's own key stays
            cost = len(key_name) + len(description) + 3
            if cost > budget:
                continue  # a shorter key further on may still fit
            shown.append((key_name, description, enabled, general))
            budget -= cost
        text = Text(no_wrap=True, overflow="crop")
        for key_name, description, enabled, _general in shown + tail:
            style = "" if enabled else "dim"
            text.append(f" {key_name} ", style=f"bold {style}".strip())
            text.append(f"{description} ", style=style or "")
        self.keys = text
        self._draw()
