"""Two versions side by side, aligned, syntax-highlighted, with changed lines and words marked; ``w`` wraps."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from genplan.tui.actions import bindings
from genplan.tui.diffing import DiffRow, change_indices, side_by_side
from genplan.tui.highlight import highlight_lines
from genplan.tui.widgets.text_view import wrap_line

ROW_STYLES = {
    "replace": Style(bgcolor="#2d2a12"),
    "delete": Style(bgcolor="#3b1d1d"),
    "insert": Style(bgcolor="#1b3321"),
}
CHAR_STYLES = {
    "left": Style(bgcolor="#8b2c2c", bold=True),
    "right": Style(bgcolor="#2e6b3a", bold=True),
}
FILLER_STYLE = Style(color="#444444")
GUTTER_STYLE = Style(color="#6E7681")
SEPARATOR = "│"
MARKS = {"equal": " ", "replace": "~", "delete": "-", "insert": "+"}


class DiffView(ScrollView, can_focus=True):
    """Scrollable side-by-side diff; ``n``/``p`` jump to the next/previous change."""

    BINDINGS = bindings("diff")
    DEFAULT_CSS = """
    DiffView { height: 1fr; background: $surface; }
    DiffView:focus { background-tint: $foreground 3%; }
    """

    shift_x: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[DiffRow] = []
        self._left_lines: list[Text] = []
        self._right_lines: list[Text] = []
        self._change_starts: list[int] = []
        self.wrap = False
        # With wrap on: (diff row, part) per screen line at _lines_width; the first line of each diff row.
        self._lines: list[tuple[int, int]] = []
        self._parts: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}  # row -> each side's pieces
        self._first_line: list[int] = []
        self._lines_width = -1

    def show(self, left_text: str, right_text: str, syntax: str | None) -> None:
        self.rows = side_by_side(left_text, right_text)
        self._left_lines = highlight_lines(left_text, syntax) if left_text else []
        self._right_lines = highlight_lines(right_text, syntax) if right_text else []
        self._change_starts = change_indices(self.rows)
        self.shift_x = 0
        self._lines_width = -1
        self._layout()
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    @property
    def text_width(self) -> int:
        """The width the lines are laid out in: without the vertical scrollbar (once one shows, wrapping to the
        whole width would lose the right side's last characters under it)."""
        return self.scrollable_content_region.width or self.size.width

    def _side_width(self) -> int:
        return max(1, (self.text_width - 1) // 2 - 5)  # a side's text, after its 5-cell gutter

    def _layout(self) -> None:
        width = self.text_width
        if not self.wrap:
            self._lines = [(index, 0) for index in range(len(self.rows))]
            self._first_line = list(range(len(self.rows)))
        elif width != self._lines_width:
            left_width = self._side_width()
            right_width = max(1, width - (width - 1) // 2 - 1 - 5)
            self._lines, self._first_line, self._parts = [], [], {}
            for index, row in enumerate(self.rows):
                left = [(a, b) for _i, a, b in wrap_line(0, row.left or "", left_width)]
                right = [(a, b) for _i, a, b in wrap_line(0, row.right or "", right_width)]
                if len(left) > 1 or len(right) > 1:
                    self._parts[index] = (left, right)
                self._first_line.append(len(self._lines))
                self._lines.extend((index, part) for part in range(max(len(left), len(right))))
        self._lines_width = width if self.wrap else -1
        self.virtual_size = Size(width, len(self._lines))

    def action_toggle_wrap(self) -> None:
        top = self._lines[round(self.scroll_offset.y)][0] if self._lines else 0
        self.wrap = not self.wrap
        self.shift_x = 0
        self._lines_width = -1
        self._layout()
        self.scroll_to(y=self._first_line[top] if self._first_line else 0, animate=False)
        self.refresh()
        self.notify("Long lines wrap." if self.wrap else "Long lines run on (left/right scroll).")

    @property
    def change_count(self) -> int:
        return len(self._change_starts)

    def on_resize(self) -> None:
        self._layout()

    def watch_shift_x(self) -> None:
        self.refresh()

    def action_shift(self, amount: int) -> None:
        if not self.wrap:
            self.shift_x = max(0, self.shift_x + amount)

    def action_next_change(self) -> None:
        top = round(self.scroll_offset.y)
        for start in self._change_starts:
            if self._first_line[start] > top:
                self.scroll_to(y=self._first_line[start], animate=False)
                return
        self.app.bell()

    def action_previous_change(self) -> None:
        top = round(self.scroll_offset.y)
        for start in reversed(self._change_starts):
            if self._first_line[start] < top:
                self.scroll_to(y=self._first_line[start], animate=False)
                return
        self.app.bell()

    # ----------------------------------------------------------------- rendering
    def _side(self, row: DiffRow, side: str, width: int, part: int = 0, index: int = 0) -> Text:
        """One side of screen line ``part`` of diff row ``index`` (parts > 0 only when wrapping)."""
        number = row.left_no if side == "left" else row.right_no
        gutter_width = 5
        if number is None:
            return Text(("╱" if not part else " ") * width, style=FILLER_STYLE, end="")
        pieces = self._parts.get(index, ([], []))[side == "right"]
        if part and self.wrap:
            if part >= len(pieces):
                return Text(" " * width, end="")
            start, end = pieces[part]
            text = self._body(row, side, number)[start:end]
            line = Text(" " * gutter_width, style=GUTTER_STYLE, end="")
            line.append_text(text)
            line.truncate(width, pad=True)
            row_style = ROW_STYLES.get(row.tag)
            if row_style is not None:
                line.stylize(row_style, gutter_width + len(text.plain), width)
            return line
        row_style = ROW_STYLES.get(row.tag)
        body = self._body(row, side, number)
        if self.wrap and pieces:
            body = body[: pieces[0][1]]
        elif self.shift_x:
            body = body[self.shift_x :]
        text = Text(f"{number:>4}", style=GUTTER_STYLE, end="")
        text.append(MARKS[row.tag], style=GUTTER_STYLE)
        text.append_text(body)
        text.truncate(width, pad=True)
        if row_style is not None:
            text.stylize(row_style, gutter_width + len(body.plain), width)
        return text

    def _body(self, row: DiffRow, side: str, number: int) -> Text:
        """A side's line, highlighted, tinted by the row's change, its changed words marked."""
        lines = self._left_lines if side == "left" else self._right_lines
        body = lines[number - 1].copy() if number - 1 < len(lines) else Text("")
        row_style = ROW_STYLES.get(row.tag)
        if row_style is not None:
            body.stylize(row_style)
        changes = row.left_changes if side == "left" else row.right_changes
        if row.tag == "replace":
            for start, end in changes:
                body.stylize(CHAR_STYLES[side], start, end)
        return body

    def render_line(self, y: int) -> Strip:
        position = round(self.scroll_offset.y) + y
        width = self.text_width
        if self.wrap and width != self._lines_width:
            self._layout()
        if position >= len(self._lines) or width <= 3:
            return Strip.blank(width, self.rich_style)
        index, part = self._lines[position]
        half = (width - 1) // 2
        row = self.rows[index]
        line = Text(end="", no_wrap=True)
        line.append_text(self._side(row, "left", half, part, index))
        line.append(SEPARATOR, style=GUTTER_STYLE)
        line.append_text(self._side(row, "right", width - half - 1, part, index))
        segments = [Segment(s.text, self.rich_style + s.style if s.style else self.rich_style)
                    for s in line.render(self.app.console)]
        return Strip(segments).crop_extend(0, width, self.rich_style)
