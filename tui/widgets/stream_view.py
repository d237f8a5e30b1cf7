"""The model's answer as it arrives, rendered as Markdown (code blocks highlighted).

Rendering runs in a worker thread (MarkdownView), so a fast stream or a very long answer never blocks
the event loop; fragments arriving meanwhile are rendered together in the next pass.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from genplan.tui.widgets.markdown_view import MarkdownView


class StreamView(Vertical):
    DEFAULT_CSS = """
    StreamView { height: 1fr; }
    StreamView > #stream-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.request_id: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("no answer yet", id="stream-title")
        yield MarkdownView(id="stream-markdown")

    @property
    def view(self) -> MarkdownView:
        return self.query_one("#stream-markdown", MarkdownView)

    @property
    def text(self) -> str:
        return self.view.text

    def set_title(self, title: str) -> None:
        self.query_one("#stream-title", Static).update(title, layout=False)

    def show(self, request_id: str | None, title: str, text: str, *, prose: bool = False) -> None:
        """Show a whole text (a finished answer, or what has arrived so far) and follow ``request_id``;
        ``prose``: a description or strategy written line by line, whose lines are kept."""
        self.request_id = request_id
        self.view.prose = prose
        self.set_title(title)
        self.view.scroll_home(animate=False, immediate=True)
        self.view.update(text, follow=request_id is not None)

    def append(self, request_id: str, fragment: str) -> None:
        """Add streamed text of ``request_id`` (ignored unless that request is followed)."""
        if request_id == self.request_id and fragment:
            self.view.append(fragment)
