"""A TextArea highlighted with Pygments (Textual's own highlighting needs tree-sitter, which we do not ship).

As an editor (``code_keys``) it behaves like one for programs, PDDL and prose: enter keeps the line's indentation
(and deepens it after a Python line ending in ``:`` or a PDDL line that opens more parentheses than it closes),
tab and shift+tab indent and dedent the selected lines by 4 spaces (tab inserts spaces to the next stop without
a selection), home goes to the first non-blank character and from there to column 0 (and back); ctrl+z and
ctrl+y undo and redo (Textual's own); each of these is one step of undo.
"""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.widgets import TextArea
from textual.widgets.text_area import Selection, TextAreaTheme

from genplan.tui.highlight import SYNTAX_STYLES, line_highlights

INDENT = 4
# ctrl+home / ctrl+end: to the start / end of the whole text, as in other editors (TextArea binds neither)
TEXT_ENDS = {"ctrl+home": False, "ctrl+end": True, "ctrl+shift+home": False, "ctrl+shift+end": True}

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
        code_keys: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self.syntax = syntax
        self.code_keys = code_keys and not read_only
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
            return
        if event.key in TEXT_ENDS:  # the start or end of the whole text (shift: selecting up to it)
            event.stop()
            event.prevent_default()
            self.to_text_end(at_end=TEXT_ENDS[event.key], select="shift" in event.key)
            return
        if self.code_keys and not self.read_only:
            handled = {"enter": self.newline_and_indent, "tab": self.indent_block,
                       "shift+tab": self.dedent_block}.get(event.key)
            if handled is not None and (event.key != "tab" or self._selected_rows() is not None):
                event.stop()
                event.prevent_default()  # TextArea's own handling of the key is not run
                handled()

    def to_text_end(self, *, at_end: bool, select: bool = False) -> None:
        """The cursor to the start (or end) of the text; with ``select`` the selection grows up to it."""
        last = self.document.line_count - 1
        target = (last, len(self.document[last])) if at_end else (0, 0)
        self.move_cursor(target, select=select)
        self.scroll_cursor_visible()

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        if self.code_keys and not self.read_only and key == "shift+tab":
            return True  # dedent, not the screen's "focus previous"
        return super().check_consume_key(key, character)

    # ------------------------------------------------------------------ editing code
    def newline_and_indent(self) -> None:
        """A line break that keeps the indentation of the line it breaks, one step deeper after a block opener."""
        start, end = self.selection
        first, last = sorted((start, end))
        line = self.document[first[0]]
        before = line[: first[1]]
        indent = before[: len(before) - len(before.lstrip(" \t"))]
        if self._opens_block(before):
            indent += " " * INDENT
        self.replace("\n" + indent, first, last, maintain_selection_offset=False)

    def _opens_block(self, before: str) -> bool:
        code = before.split("#", 1)[0] if self.syntax == "python" else before.split(";", 1)[0]
        if self.syntax == "python":
            return code.rstrip().endswith(":")
        if self.syntax == "pddl":
            return code.count("(") > code.count(")")
        return False

    def _selected_rows(self) -> tuple[int, int] | None:
        """The rows a selection covers (a selection ending at column 0 leaves that row out); None: no selection."""
        start, end = sorted(self.selection)
        if start == end:
            return None
        last = end[0] - 1 if end[1] == 0 and end[0] > start[0] else end[0]
        return start[0], last

    def _rewrite_rows(self, rows: tuple[int, int], change: int) -> None:
        """Add (``change`` > 0) or remove up to -``change`` leading spaces on each row, as one edit (one undo)."""
        first, last = rows
        old_lines = [self.document[row] for row in range(first, last + 1)]
        new_lines = []
        removed: list[int] = []
        for text in old_lines:
            if change > 0:
                new_lines.append(" " * change + text if text.strip() else text)
                removed.append(-change if text.strip() else 0)
            else:
                width = len(text) - len(text.lstrip(" "))
                cut = min(width, -change)
                if cut == 0 and text.startswith("\t"):
                    new_lines.append(text[1:])
                    removed.append(1)
                    continue
                new_lines.append(text[cut:])
                removed.append(cut)
        if new_lines == old_lines:
            return
        start, end = self.selection
        self.replace("\n".join(new_lines), (first, 0), (last, len(old_lines[-1])), maintain_selection_offset=False)

        def moved(location: tuple[int, int]) -> tuple[int, int]:
            row, column = location
            if first <= row <= last:
                return row, max(0, column - removed[row - first])
            return location

        self.selection = Selection(moved(start), moved(end))

    def indent_block(self) -> None:
        rows = self._selected_rows()
        row = self.cursor_location[0]
        self._rewrite_rows(rows if rows is not None else (row, row), INDENT)

    def dedent_block(self) -> None:
        rows = self._selected_rows()
        row = self.cursor_location[0]
        self._rewrite_rows(rows if rows is not None else (row, row), -INDENT)

    def action_cursor_line_start(self, select: bool = False) -> None:
        """Home: the first non-blank character of the line, and from there (or from before it) column 0."""
        if not self.code_keys:
            super().action_cursor_line_start(select)
            return
        row, column = self.cursor_location
        line = self.document[row]
        first = len(line) - len(line.lstrip(" \t"))
        self.move_cursor((row, 0 if column == first and first > 0 else first), select=select)

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
