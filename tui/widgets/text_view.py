"""A read-only view of a long text (program output, feedback), drawn line by line.

TextArea re-wraps the whole document on load, which takes a noticeable moment for 10,000 lines;
this view only splits the text and draws what is on screen. Highlighting (optional) is computed in a
worker thread and arrives a moment later.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from genplan.tui.actions import bindings
from genplan.tui.highlight import SYNTAX_STYLES, line_highlights

GUTTER_STYLE = Style(color="#6E7681")


def wrap_line(index: int, line: str, width: int) -> list[tuple[int, int, int]]:
    """Screen rows of one line at ``width`` cells: broken after a space where one is near, never mid-word
    unless a word is longer than the row."""
    if len(line) <= width:
        return [(index, 0, len(line))]
    rows = []
    start = 0
    while len(line) - start > width:
        cut = line.rfind(" ", start + 1, start + width + 1)
        end = cut + 1 if cut > start + width // 3 else start + width
        rows.append((index, start, end))
        start = end
    rows.append((index, start, len(line)))
    return rows


class TextView(ScrollView, can_focus=True):
    BINDINGS = bindings("text")
    DEFAULT_CSS = """
    TextView { height: 1fr; background: $surface; }
    TextView:focus { background-tint: $foreground 3%; }
    """

    def __init__(self, text: str = "", *, syntax: str | None = None, line_numbers: bool = False,
                 wrap: bool = True, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.wrap = wrap
        # With wrap on: one (line index, start, end) per screen row, for the current width.
        self._rows: list[tuple[int, int, int]] = []
        self._rows_width = -1
        self.syntax = syntax
        self.line_numbers = line_numbers
        self.text = ""
        self.lines: list[str] = []
        self._spans: dict[int, list[tuple[int, int | None, str]]] = {}
        self._cache: dict[int, Text] = {}
        self._generation = 0
        if text:
            self.load_text(text)

    def load_text(self, text: str, syntax: str | None = None) -> None:
        if syntax is not None:
            self.syntax = syntax
        self.text = text
        self.lines = text.split("\n")
        self._spans = {}
        self._cache = {}
        self._generation += 1
        self._rows_width = -1
        self._layout()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()
        if self.syntax and self.syntax != "text" and text and self.is_attached:
            generation = self._generation
            self.run_worker(lambda: self._highlight(text, self.syntax, generation), thread=True,
                            group="text-view-highlight", exclusive=True)

    def _layout(self) -> None:
        """The virtual size: the longest line (no wrap), or the rows the lines wrap into at this width."""
        if not self.wrap:
            width = max((len(line) for line in self.lines), default=0) + self._gutter_width() + 1
            self.virtual_size = Size(width, len(self.lines))
            return
        width = max(10, (self.scrollable_content_region.width or 80) - self._gutter_width())
        if width != self._rows_width:
            self._rows_width = width
            self._rows = [row for index, line in enumerate(self.lines) for row in wrap_line(index, line, width)]
        self.virtual_size = Size(width + self._gutter_width(), len(self._rows))

    def on_resize(self) -> None:
        if self.wrap:
            self._layout()
            self.refresh()

    def action_toggle_wrap(self) -> None:
        self.wrap = not self.wrap
        self._rows_width = -1
        self._layout()
        self.scroll_to(0, self.scroll_offset.y if not self.wrap else 0, animate=False)
        self.refresh()
        self.notify("Long lines wrap." if self.wrap else "Long lines run on (left/right scroll).")

    def _highlight(self, text: str, syntax: str | None, generation: int) -> None:
        spans = line_highlights(text, syntax)
        try:
            self.app.call_from_thread(self._apply, spans, generation)
        except RuntimeError:
            pass

    def _apply(self, spans: dict, generation: int) -> None:
        if generation == self._generation:
            self._spans = spans
            self._cache = {}
            self.refresh()

    def _gutter_width(self) -> int:
        return len(str(len(self.lines))) + 2 if self.line_numbers else 0

    def _line_text(self, index: int) -> Text:
        cached = self._cache.get(index)
        if cached is not None:
            return cached
        line = self.lines[index]
        text = Text(line, no_wrap=True, end="")
        spans = self._spans.get(index)
        if spans:
            encoded = line.encode("utf-8")
            for start, end, name in spans:
                style = SYNTAX_STYLES.get(name)
                if style is not None:
                    begin = len(encoded[:start].decode("utf-8", errors="ignore"))
                    finish = len(encoded[:end].decode("utf-8", errors="ignore")) if end is not None else len(line)
                    text.stylize(style, begin, finish)
        if len(self._cache) > 2000:
            self._cache.clear()
        self._cache[index] = text
        return text

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if self.wrap:
            if not 0 <= scroll_y + y < len(self._rows):
                return Strip.blank(width, self.rich_style)
            index, start, end = self._rows[scroll_y + y]
            first = start == 0
            body = self._line_text(index)[start:end]
            scroll_x = 0
        else:
            index = scroll_y + y
            if not 0 <= index < len(self.lines):
                return Strip.blank(width, self.rich_style)
            first = True
            body = self._line_text(index)
        text = Text(no_wrap=True, end="")
        if self.line_numbers:
            number = f"{index + 1}" if first else ""
            text.append(f"{number:>{self._gutter_width() - 1}} ", style=GUTTER_STYLE)
        text.append_text(body)
        segments = [Segment(s.text, self.rich_style + s.style if s.style else self.rich_style)
                    for s in text.render(self.app.console)]
        return Strip(segments).crop_extend(scroll_x, scroll_x + width, self.rich_style)
