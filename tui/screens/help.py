"""The help screen: what the panels are, and every key binding, read from the bindings themselves."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from ..widgets.key_bar import KeyBar
from ..widgets.markdown_view import MarkdownView

INTRO = """\
# genplan TUI

genplan develops *generalized plans*: Python programs that solve every task of a PDDL domain. The
pipeline describes the domain and debug tasks in natural language, writes a pseudocode strategy,
debugs it by letting the model plan the debug tasks and checking those plans, then writes programs,
runs them on the debug tasks and repairs them after a reflection on what went wrong.

**Panels** (keys 1-5): *Domain* (the PDDL domain), *Tasks* (each task's PDDL, its natural-language
description once a run wrote one, and its Python encoding), *Runs* (the runs of this domain), *Run*
(timeline, the model's answer as it arrives, the debug results), *Versions* (every strategy,
reflection and program of all runs: edit, compare, history, rerun).

**Modes**: *watch* sends every request as the pipeline makes it; *step* pauses before each request so
you can send it, edit the prompt, answer it yourself or stop. With no model configured, you answer
every request (the manual provider). `ctrl+p` opens the command palette: every action is there.
"""


def _key(binding: Binding) -> str:
    return binding.key_display or binding.key.replace("ctrl+", "ctrl+").replace(",", " / ")


def bindings_markdown(sections: list[tuple[str, list[Binding]]]) -> str:
    lines = []
    for title, bindings in sections:
        rows = [b for b in bindings if b.description]
        if not rows:
            continue
        lines += [f"## {title}", "", "| key | action |", "|---|---|"]
        lines += [f"| `{_key(b)}` | {b.description} |" for b in rows]
        lines.append("")
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "close", "Close help")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > MarkdownView { width: 96%; max-width: 110; height: 94%; border: thick $accent;
                                background: $surface; }
    """

    def __init__(self, sections: list[tuple[str, list[Binding]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        yield MarkdownView(id="help-text")
        yield KeyBar()

    def on_mount(self) -> None:
        view = self.query_one(MarkdownView)
        view.update(INTRO + "\n" + bindings_markdown(self.sections), follow=False)
        view.focus()

    def action_close(self) -> None:
        self.dismiss(None)
