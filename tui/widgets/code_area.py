"""A TextArea highlighted with Pygments (Textual's own highlighting needs tree-sitter, which we do not ship)."""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.widgets import TextArea
from textual.widgets.text_area import TextAreaTheme

from ..highlight import SYNTAX_STYLES, line_highlights

# Above this size highlighting runs in a thread and arrives a moment later, so typing and loading
# large files (long program output, big tasks) never block the UI.
SYNC_HIGHLIGHT_CHARS = 60_000

THEME = TextAreaTheme(
    name="genplan",
    cursor_line_style=Style(bgcolor="#2b2b2b"),
    bracket_matching_style=Style(bold=True, underline=True),
    syntax_styles=dict(SYNTAX_STYLES),
)


class CodeArea(TextArea):
    """A code editor or viewer; ``syntax`` is one of highlight.LANGUAGES (or None for plain text)."""

    DEFAULT_CSS = """
    CodeArea { height: 1fr; }
    """

    def __init__(
        self,
        text: str = "",
        *,
        syntax: str | None = None,
        read_only: bool = False,
        show_line_numbers: bool = True,
        soft_wrap: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self.syntax = syntax
        self._highlight_generation = 0
        super().__init__(
            text,
            read_only=read_only,
            show_line_numbers=show_line_numbers,
            soft_wrap=soft_wrap,
            tab_behavior="indent" if not read_only else "focus",
            name=name,
            id=id,
            classes=classes,
        )
        self.register_theme(THEME)
        self.theme = "genplan"

    async def _on_key(self, event: events.Key) -> None:
        # TextArea in indent mode turns escape into "focus next"; an editor that is the only focusable widget
        # gets focus straight back and the screen never sees the key. Let escape reach the screen's binding
        # (cancel / back) instead: escape always leaves an editor without side effects.
        # (Textual calls each class's _on_key in turn; prevent_default ends that walk, and the key still
        # bubbles up to the screen and app, where the bindings are.)
        if event.key == "escape":
            event.prevent_default()

    def set_syntax(self, syntax: str | None) -> None:
        self.syntax = syntax
        self._build_highlight_map()
        self.refresh()

    def show(self, text: str, syntax: str | None = None) -> None:
        """Replace the whole text (and, if given, the language)."""
        if syntax is not None:
            self.syntax = syntax
        self.load_text(text)

    def _build_highlight_map(self) -> None:
        """Called by TextArea whenever the document changes: recompute highlights with Pygments."""
        self._line_cache.clear()
        highlights = self._highlights
        highlights.clear()
        syntax = getattr(self, "syntax", None)
        self._highlight_generation = getattr(self, "_highlight_generation", 0) + 1
        if not syntax or syntax == "text":
            return
        text = self.text
        if len(text) <= SYNC_HIGHLIGHT_CHARS or not self.is_attached:
            for row, spans in line_highlights(text, syntax).items():
                highlights[row].extend(spans)
            return
        generation = self._highlight_generation
        self.run_worker(lambda: self._highlight_in_thread(text, syntax, generation), thread=True,
                        group="highlight", exclusive=True)

    def _highlight_in_thread(self, text: str, syntax: str, generation: int) -> None:
        spans = line_highlights(text, syntax)
        try:
            self.app.call_from_thread(self._apply_highlights, spans, generation)
        except RuntimeError:  # the app is shutting down
            pass

    def _apply_highlights(self, spans: dict, generation: int) -> None:
        if generation != self._highlight_generation:
            return  # the text changed meanwhile; a newer pass is on its way
        self._line_cache.clear()
        self._highlights.clear()
        for row, row_spans in spans.items():
            self._highlights[row].extend(row_spans)
        self.refresh()
