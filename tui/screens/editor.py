"""Editing a strategy, reflection, program or PDDLego+ file version inline (or in $EDITOR)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..actions import bindings
from ..external_editor import edit_text, editor_command
from ..widgets.code_area import CodeArea
from ..widgets.key_bar import KeyBar


@dataclass
class EditResult:
    text: str
    action: str  # "save": a new version; "continue": a new version and resume the pipeline from it


class EditorScreen(Screen[EditResult | None]):
    BINDINGS = bindings("editor")
    DEFAULT_CSS = """
    EditorScreen #editor-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    EditorScreen #editor-hint { height: 1; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, title: str, text: str, syntax: str, *, can_continue: bool, hint: str = "",
                 can_save: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.initial = text
        self.syntax = syntax
        self.can_continue = can_continue
        self.can_save = can_save  # False: the edit only continues (a PDDLego+ file becomes a call's answer)
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="editor-title")
            yield Static(self.hint, id="editor-hint")
            # prose (strategies, reflections, prompts) wraps; code keeps its lines (f2 toggles)
            yield CodeArea(self.initial, syntax=self.syntax, soft_wrap=self.syntax != "python", id="editor-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#editor-text", CodeArea).focus()

    @property
    def editor(self) -> CodeArea:
        return self.query_one("#editor-text", CodeArea)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (action == "continue" and not self.can_continue) or (action == "save" and not self.can_save):
            return None  # shown disabled
        return True

    def action_save(self) -> None:
        if self.can_save:
            self.dismiss(EditResult(self.editor.text, "save"))

    def action_continue(self) -> None:
        if self.can_continue:
            self.dismiss(EditResult(self.editor.text, "continue"))

    def action_toggle_wrap(self) -> None:
        self.editor.soft_wrap = not self.editor.soft_wrap

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_external(self) -> None:
        if editor_command() is None:
            self.notify("Set $EDITOR (or $VISUAL) to edit in your own editor.", severity="warning")
            return
        suffix = {"python": ".py", "pddl": ".pddl"}.get(self.syntax, ".md")
        try:
            with self.app.suspend():
                edited = edit_text(self.editor.text, suffix)
        except Exception as exc:  # noqa: BLE001 - e.g. SuspendNotSupported in a headless session
            self.notify(f"cannot suspend the TUI here: {exc}", severity="error")
            return
        if edited is None:
            self.notify("The editor exited with an error; the text is unchanged.", severity="warning")
            return
        self.editor.load_text(edited)
        self.app.refresh()
