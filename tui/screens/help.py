"""The help screen: what the panels are, and every key, from the action table (actions.py)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen

from genplan.tui.actions import bindings
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.markdown_view import MarkdownView

INTRO = """\
# genplan TUI

genplan develops *generalized plans*: Python programs that solve every task of a PDDL domain. The
pipeline describes the domain and debug tasks in natural language, writes a pseudocode strategy,
debugs it by letting the model plan the debug tasks and checking those plans, then writes programs,
runs them on the debug tasks and repairs them after a reflection on what went wrong.

**Panels** (keys 1-6): *Domain* (the PDDL domain), *Tasks* (each task's PDDL, its natural-language
description once a run wrote one, and its Python encoding), *Runs* (the runs of this domain), *Run*
(timeline, the model's answer as it arrives, the debug results), *Versions* (every strategy,
reflection and program of all runs, as a tree per run: edit, compare, history, rerun), *Results* (the
matrix of versions × debug tasks; enter on a cell opens that plan or that feedback).
"""

WRITING_INTRO = """\
**Modes**: *watch* sends every request as the pipeline makes it; *step* pauses before each request so
you can send it, edit the prompt, answer it yourself or stop. With no model configured, you answer
every request (the manual provider). `ctrl+p` opens the command palette: every action is there.

**Your own keys**: give any action other keys in the settings file, by its id (the last column below):

```toml
[keymap]
"versions.edit" = "E"
"app.quit" = "ctrl+q"
```
"""

READ_ONLY_INTRO = """\
**Read-only**: this app is served for watching and replaying the runs of this domain. You can open, replay
and browse runs, versions, results and plans; nothing is started, edited or saved here, so the keys below are
only those that look.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = bindings("help")
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > MarkdownView { width: 96%; max-width: 110; height: 94%; border: thick $accent;
                                background: $surface; }
    """

    def __init__(self, keys_markdown: str, *, read_only: bool = False) -> None:
        super().__init__()
        self.keys_markdown = keys_markdown  # actions.help_markdown(...): every key, from the action table
        self.intro = INTRO + "\n" + (READ_ONLY_INTRO if read_only else WRITING_INTRO)

    def compose(self) -> ComposeResult:
        yield MarkdownView(id="help-text")
        yield KeyBar()

    def on_mount(self) -> None:
        view = self.query_one(MarkdownView)
        view.update(self.intro + "\n" + self.keys_markdown, follow=False)
        view.focus()

    def action_close(self) -> None:
        self.dismiss(None)
