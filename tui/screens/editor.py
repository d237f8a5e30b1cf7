"""Editing a strategy, reflection, program or PDDLego+ file version inline (or in $EDITOR).

The editor keys of CodeArea (indentation, home, undo/redo) apply; before a run continues from an edited program
or PDDL file, the text is checked (code_check.py): each problem is listed with its line and column, the cursor
goes to the first, and a choice follows: back to the editor, or continue anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from genplan.tui.actions import bindings
from genplan.tui.code_check import Problem, check_text
from genplan.tui.external_editor import edit_text, editor_command
from genplan.tui.screens.pick import PickScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.key_bar import KeyBar


@dataclass
class EditResult:
    text: str
    action: str  # "save": a new version; "continue": a new version and resume the pipeline from it


class EditorScreen(Screen[EditResult | None]):
    BINDINGS = bindings("editor")
    DEFAULT_CSS = """
    EditorScreen #editor-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    EditorScreen #editor-hint { height: 1; color: $text-muted; padding: 0 1; }
    EditorScreen #editor-problems { height: auto; max-height: 4; color: $error; padding: 0 1; display: none; }
    EditorScreen #editor-problems.shown { display: block; }
    """

    def __init__(self, title: str, text: str, syntax: str, *, can_continue: bool, hint: str = "",
                 can_save: bool = True, path: Path | None = None, save_label: str = "") -> None:
        super().__init__()
        if save_label:  # the footer names what ctrl+s does here ("Keep the edit" of a prompt, not a new version)
            for key, found in list(self._bindings.key_to_bindings.items()):
                self._bindings.key_to_bindings[key] = [
                    replace(b, description=save_label) if b.action == "save" else b for b in found]
        self.path = path  # the version's file (a PDDLego+ file is checked together with its call's other file)
        self.problems: list[Problem] = []
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
            yield CodeArea(self.initial, syntax=self.syntax, soft_wrap=self.syntax != "python",
                           code_keys=True, id="editor-text")
            yield Static("", id="editor-problems")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#editor-text", CodeArea).focus()

    @property
    def editor(self) -> CodeArea:
        return self.query_one("#editor-text", CodeArea)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # what this editor cannot do is not offered (the footer names only its own actions)
        return not ((action == "continue" and not self.can_continue) or (action == "save" and not self.can_save))

    def action_save(self) -> None:
        if self.can_save:
            self.dismiss(EditResult(self.editor.text, "save"))

    def action_continue(self) -> None:
        if not self.can_continue:
            return
        text = self.editor.text
        self.show_problems(check_text(text, self.syntax, self.path))
        if not self.problems:
            self.dismiss(EditResult(text, "continue"))
            return
        first = self.problems[0]
        count = f"{len(self.problems)} problems" if len(self.problems) > 1 else "A problem"

        def chosen(choice: str | None) -> None:
            if choice == "anyway":
                self.dismiss(EditResult(self.editor.text, "continue"))
            else:
                self.editor.focus()

        what = "program" if self.syntax == "python" else "PDDL file"
        self.app.push_screen(PickScreen(
            f"{count} in the edited {what}: {first.describe()}. The run would read it as it is.",
            [("back", "Back to the editor (the cursor is on the problem)"), ("anyway", "Continue anyway")]), chosen)

    def show_problems(self, problems: list[Problem]) -> None:
        """List the problems under the text and put the cursor on the first one (none: the list goes away)."""
        self.problems = problems
        panel = self.query_one("#editor-problems", Static)
        panel.update("\n".join(f"✗ {problem.describe()}" for problem in problems))
        panel.set_class(bool(problems), "shown")
        if problems and not problems[0].where:
            editor = self.editor
            row = min(max(0, problems[0].line - 1), editor.document.line_count - 1)
            column = min(max(0, problems[0].column - 1), len(editor.document[row]))
            editor.move_cursor((row, column))
            editor.scroll_cursor_visible()

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
