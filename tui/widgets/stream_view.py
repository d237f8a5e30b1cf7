"""The model's answer as it arrives, rendered as Markdown (code blocks highlighted).

Fragments are buffered and appended in batches, at most one append at a time, so a fast stream never
queues up work on the event loop. Very long answers switch to a plain, virtualised view.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Log, Markdown, Static

# Beyond this many characters Markdown re-rendering gets slow; the answer is shown as plain text instead.
MARKDOWN_LIMIT = 60_000


class StreamView(Vertical):
    DEFAULT_CSS = """
    StreamView { height: 1fr; }
    StreamView > #stream-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    StreamView > VerticalScroll { height: 1fr; }
    StreamView Markdown { margin: 0 1; }
    StreamView > Log { height: 1fr; display: none; }
    StreamView.plain > VerticalScroll { display: none; }
    StreamView.plain > Log { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.request_id: str | None = None
        self.text = ""
        self._pending: list[str] = []
        self._appending = False
        self._plain = False

    def compose(self) -> ComposeResult:
        yield Static("no answer yet", id="stream-title")
        with VerticalScroll(id="stream-scroll"):
            yield Markdown("", id="stream-markdown")
        yield Log(id="stream-log", max_lines=None, auto_scroll=True)

    @property
    def markdown(self) -> Markdown:
        return self.query_one("#stream-markdown", Markdown)

    def set_title(self, title: str) -> None:
        self.query_one("#stream-title", Static).update(title)

    def show(self, request_id: str | None, title: str, text: str) -> None:
        """Show a whole text (a finished answer, or what has arrived so far) and follow ``request_id``."""
        self.request_id = request_id
        self.text = text
        self._pending.clear()
        self.set_title(title)
        self._set_plain(len(text) > MARKDOWN_LIMIT)
        if self._plain:
            log = self.query_one("#stream-log", Log)
            log.clear()
            log.write(text)
        else:
            self.markdown.update(text)
            self.query_one("#stream-scroll", VerticalScroll).scroll_home(animate=False)

    def append(self, request_id: str, fragment: str) -> None:
        """Add streamed text of ``request_id`` (ignored unless that request is followed)."""
        if request_id != self.request_id or not fragment:
            return
        self.text += fragment
        if not self._plain and len(self.text) > MARKDOWN_LIMIT:
            self._set_plain(True)
            log = self.query_one("#stream-log", Log)
            log.clear()
            log.write(self.text)
            self._pending.clear()
            return
        if self._plain:
            self.query_one("#stream-log", Log).write(fragment)
            return
        self._pending.append(fragment)
        if not self._appending:
            self._appending = True
            self.run_worker(self._flush(), group="stream-flush")

    async def _flush(self) -> None:
        scroll = self.query_one("#stream-scroll", VerticalScroll)
        try:
            while self._pending and not self._plain:
                batch = "".join(self._pending)
                self._pending.clear()
                at_end = scroll.scroll_y >= scroll.max_scroll_y - 1
                await self.markdown.append(batch)
                if at_end:
                    scroll.scroll_end(animate=False)
        finally:
            self._appending = False

    def _set_plain(self, plain: bool) -> None:
        self._plain = plain
        self.set_class(plain, "plain")
