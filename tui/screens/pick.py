"""Small modal dialogs: pick one of several choices; enter a block of text."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from genplan.tui.actions import bindings
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.key_bar import KeyBar


class PickScreen(ModalScreen[str | None]):
    """Choose one option (enter) or cancel (escape). Returns the option id."""

    BINDINGS = bindings("pick")
    DEFAULT_CSS = """
    PickScreen { align: center middle; }
    PickScreen > Vertical { width: 80%; max-width: 100; height: auto; max-height: 80%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    PickScreen OptionList { height: auto; max-height: 20; }
    """

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield OptionList(*[Option(label, id=key) for key, label in self.choices], id="pick-options")
        yield KeyBar()

    def on_mount(self) -> None:
        options = self.query_one("#pick-options", OptionList)
        options.highlighted = 0 if self.choices else None  # enter picks the first choice
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextEntryScreen(ModalScreen[str | None]):
    """Type or paste a block of text (a plan, an answer); ctrl+s accepts, escape cancels."""

    BINDINGS = bindings("entry")
    DEFAULT_CSS = """
    TextEntryScreen { align: center middle; }
    TextEntryScreen > Vertical { width: 90%; height: 80%; border: thick $accent; background: $surface; }
    TextEntryScreen Label { padding: 0 1; }
    """

    def __init__(self, title: str, text: str = "", syntax: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.initial = text
        self.syntax = syntax

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield CodeArea(self.initial, syntax=self.syntax, soft_wrap=self.syntax != "python", id="entry-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#entry-text", CodeArea).focus()

    def action_toggle_wrap(self) -> None:
        area = self.query_one("#entry-text", CodeArea)
        area.soft_wrap = not area.soft_wrap

    def action_accept(self) -> None:
        self.dismiss(self.query_one("#entry-text", CodeArea).text)

    def action_cancel(self) -> None:
        self.dismiss(None)
