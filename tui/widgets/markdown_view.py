"""Markdown rendered off the event loop: Rich renders the text to lines in a worker thread, the widget
only shows the lines that are on screen. Textual's Markdown widget builds a widget per block, which is
far too slow for long answers that change many times a second while they stream in."""

from __future__ import annotations

import io
import re
import threading
import time

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

# Rendering a long answer takes a while; while one render runs, newer text waits for the next one.
MIN_RENDER_INTERVAL_S = 0.15
# Beyond this many characters only the end of the text is rendered (the whole text is kept).
MAX_RENDER_CHARS = 200_000
# While text streams in, only its end is rendered again and again: cost per pass stays bounded. The whole
# text is rendered once the stream is over (``update``) or when the reader scrolls up.
STREAM_TAIL_CHARS = 12_000
CODE_THEME = "monokai"


def tail(text: str, limit: int) -> str:
    """The end of ``text`` from a line start, with a note of what is left out. Keeps an open code fence open."""
    if len(text) <= limit:
        return text
    cut = text.find("\n", len(text) - limit)
    kept = text[cut + 1 :] if cut >= 0 else text[-limit:]
    skipped = text[: len(text) - len(kept)]
    note = f"*… {len(skipped)} earlier characters …*\n\n"
    if skipped.count("```") % 2 == 1:  # the cut falls inside a code block
        fence_line = skipped[skipped.rfind("```"):].split("\n", 1)[0]
        note += fence_line + "\n"
    return note + kept


LIST_ITEM = re.compile(r"(\d+[.)]|[-*+])\s")


def keep_lines(text: str) -> str:
    """Prose a model wrote line by line (a strategy's numbered steps, an NL description) as Markdown that keeps
    its lines: Markdown joins the lines of a paragraph ("...goal. 2.2 Grab N. 2.3 If..."), so every line outside
    a code block ends in a hard break (two spaces), and its indentation is kept (no-break spaces, which Markdown does not
    strip), so "   2.2" stays under "2.". Code blocks are left as they are."""
    out: list[str] = []
    fenced = False
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            out.append(line)
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if fenced or not line.strip():
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if indent and not LIST_ITEM.match(body):
            body = "\u00a0" * indent + body  # indented prose; a nested list item keeps Markdown's indentation
        else:
            body = line
        # two trailing spaces: a hard break inside a paragraph, nothing where a paragraph or list item ends
        out.append(body if not following.strip() else body.rstrip() + "  ")
    return "\n".join(out)


def render_markdown(text: str, width: int, limit: int = MAX_RENDER_CHARS, *, plain: bool = False) -> list[list[Segment]]:
    """The lines of ``text`` rendered as Markdown (``plain``: as plain text) at ``width`` columns (pure: safe in a
    thread)."""
    console = Console(file=io.StringIO(), width=width, color_system="truecolor", force_terminal=True,
                      legacy_windows=False, emoji=False)
    shown = tail(text, limit)
    if plain:
        return console.render_lines(Text(shown), console.options.update(width=width), pad=False)
    # (Rich's Markdown loads markdown-it, a tenth of a second: with the first Markdown text, not before the app's
    # first screen, whose only text is a plain note)
    from rich.markdown import Markdown as RichMarkdown

    markdown = RichMarkdown(shown, code_theme=CODE_THEME, hyperlinks=False)
    return console.render_lines(markdown, console.options.update(width=width), pad=False)


class MarkdownView(ScrollView, can_focus=True):
    """Call ``update(text)`` as often as you like; rendering follows in the background."""

    DEFAULT_CSS = """
    MarkdownView { height: 1fr; padding: 0 1; scrollbar-gutter: stable; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = ""
        self._lines: list[Strip] = []
        self._generation = 0  # bumps on every update; a finished render of an older text is redone
        self._rendering = False
        self._lock = threading.Lock()
        self._last_render = 0.0
        self.follow = True  # keep the end in view while text arrives (unless the user scrolled up)
        self.streaming = False  # appends since the last update(): render only the end
        self.prose = False  # the text is prose written line by line: its lines are kept (keep_lines)
        self.plain = False  # the text is a plain note, not Markdown (update(..., plain=True))

    # ------------------------------------------------------------------ text in
    def update(self, text: str, *, follow: bool | None = None, plain: bool = False) -> None:
        self.text = text
        self.plain = plain
        self.streaming = False
        if follow is not None:
            self.follow = follow
        self._generation += 1
        self._schedule()

    def append(self, fragment: str) -> None:
        if fragment:
            self.text += fragment
            self.plain = False
            self.streaming = True
            self._generation += 1
            self._schedule()

    def finish(self) -> None:
        """The stream is over: render the whole text once."""
        if self.streaming:
            self.update(self.text)

    def _schedule(self) -> None:
        if self._rendering or not self.is_attached:
            return
        width = max(10, self.scrollable_content_region.width or self.size.width or 80)
        self._rendering = True
        delay = max(0.0, MIN_RENDER_INTERVAL_S - (time.monotonic() - self._last_render))
        generation, text = self._generation, self.text
        self.run_worker(lambda: self._render_in_thread(text, width, generation, delay), thread=True,
                        group="markdown-render")

    def _render_in_thread(self, text: str, width: int, generation: int, delay: float) -> None:
        if delay:
            time.sleep(delay)
            text, generation = self.text, self._generation  # take the newest text after waiting
        limit = STREAM_TAIL_CHARS if self.streaming else MAX_RENDER_CHARS
        if self.prose:
            text = keep_lines(text)
        lines = [Strip(line) for line in render_markdown(text, width, limit, plain=self.plain)] if text else []
        try:
            self.app.call_from_thread(self._show_lines, lines, generation, width)
        except RuntimeError:  # the app is closing
            pass

    def _show_lines(self, lines: list[Strip], generation: int, width: int) -> None:
        self._rendering = False
        self._last_render = time.monotonic()
        at_end = self.scroll_offset.y >= self.max_scroll_y - 1
        self._lines = lines
        self.virtual_size = Size(width, len(lines))
        if self.follow and at_end:
            self.scroll_to(y=max(0, len(lines) - self.scrollable_content_region.height), animate=False,
                           immediate=True)
        self.refresh()
        current_width = max(10, self.scrollable_content_region.width or width)
        if generation != self._generation or current_width != width:
            self._schedule()

    # ------------------------------------------------------------------ display
    def on_resize(self) -> None:
        self._schedule()

    @property
    def pending(self) -> bool:
        """Whether the shown lines lag behind the text."""
        return self._rendering

    def rendered_text(self) -> str:
        return "\n".join(strip.text for strip in self._lines)

    def rendered_styles(self) -> list[Style]:
        return [segment.style for strip in self._lines for segment in strip if segment.style]

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self._lines):
            return Strip.blank(width, self.rich_style)
        return self._lines[index].crop_extend(0, width, self.rich_style).apply_style(self.rich_style)
