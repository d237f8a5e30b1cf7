"""A check's full feedback (the message the model got), wrapped, in a screen of its own."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from genplan.tui.actions import bindings
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.text_view import TextView


class FeedbackScreen(Screen[None]):
    BINDINGS = bindings("feedback")
    AUTO_FOCUS = "TextView"
    DEFAULT_CSS = """
    FeedbackScreen #feedback-title { height: auto; background: $boost; padding: 0 1; text-style: bold; }
    """

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="feedback-title")
            yield TextView(self.text, id="feedback-text")
        yield KeyBar()

    def action_close(self) -> None:
        self.dismiss(None)
