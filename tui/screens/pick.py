"""Small modal dialogs: pick one of several choices; enter a block of text."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
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
    PickScreen Label { width: 100%; }  /* a long question wraps instead of running off the dialog's edge */
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


class KeyTrap(Static, can_focus=True):
    """Takes every key but enter and escape (which close its screen): nothing typed reaches the app."""

    def on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "escape"):
            return
        event.stop()
        event.prevent_default()


class NoticeScreen(ModalScreen[None]):
    """Why what was asked for did not open (an editor, ...): the text typed next, meant for the editor, goes
    nowhere instead of running as commands (``r`` would start a run, ``s`` open the settings). enter or
    escape closes it."""

    BINDINGS = bindings("notice")
    DEFAULT_CSS = """
    NoticeScreen { align: center middle; }
    NoticeScreen > Vertical { width: 80%; max-width: 90; height: auto; border: thick $warning; background: $surface;
                              padding: 0 1; }
    NoticeScreen KeyTrap { height: auto; }
    """

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, id="notice-title")
            yield KeyTrap(self.text, id="notice-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(KeyTrap).focus()

    def action_close(self) -> None:
        self.dismiss(None)
