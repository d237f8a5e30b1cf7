"""Two versions side by side, aligned, syntax-highlighted, with changed lines and characters marked."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..diffing import DiffRow, change_indices, side_by_side
from ..highlight import highlight_lines

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

    BINDINGS = [
        Binding("n", "next_change", "Next change"),
        Binding("p", "previous_change", "Prev change", show=False),
        Binding("right", "shift(8)", "Scroll right", show=False),
        Binding("left", "shift(-8)", "Scroll left", show=False),
    ]
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

    def show(self, left_text: str, right_text: str, syntax: str | None) -> None:
        self.rows = side_by_side(left_text, right_text)
        self._left_lines = highlight_lines(left_text, syntax) if left_text else []
        self._right_lines = highlight_lines(right_text, syntax) if right_text else []
        self._change_starts = change_indices(self.rows)
        self.shift_x = 0
        self.virtual_size = Size(self.size.width, len(self.rows))
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    @property
    def change_count(self) -> int:
        return len(self._change_starts)

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.rows))

    def watch_shift_x(self) -> None:
        self.refresh()

    def action_shift(self, amount: int) -> None:
        self.shift_x = max(0, self.shift_x + amount)

    def action_next_change(self) -> None:
        top = round(self.scroll_offset.y)
        for start in self._change_starts:
            if start > top:
                self.scroll_to(y=start, animate=False)
                return
        self.app.bell()

    def action_previous_change(self) -> None:
        top = round(self.scroll_offset.y)
        for start in reversed(self._change_starts):
            if start < top:
                self.scroll_to(y=start, animate=False)
                return
        self.app.bell()

    # ----------------------------------------------------------------- rendering
    def _side(self, row: DiffRow, side: str, width: int) -> Text:
        number = row.left_no if side == "left" else row.right_no
        gutter_width = 5
        if number is None:
            return Text("╱" * (width), style=FILLER_STYLE, end="")
        lines = self._left_lines if side == "left" else self._right_lines
        body = lines[number - 1].copy() if number - 1 < len(lines) else Text("")
        row_style = ROW_STYLES.get(row.tag)
        if row_style is not None:
            body.stylize(row_style)
        changes = row.left_changes if side == "left" else row.right_changes
        if row.tag == "replace":
            for start, end in changes:
                body.stylize(CHAR_STYLES[side], start, end)
        body = body[self.shift_x :] if self.shift_x else body
        text = Text(f"{number:>4}", style=GUTTER_STYLE, end="")
        text.append(MARKS[row.tag], style=GUTTER_STYLE)
        text.append_text(body)
        text.truncate(width, pad=True)
        if row_style is not None:
            text.stylize(row_style, gutter_width + len(body.plain), width)
        return text

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_offset.y) + y
        width = self.size.width
        if index >= len(self.rows) or width <= 3:
            return Strip.blank(width, self.rich_style)
        half = (width - 1) // 2
        row = self.rows[index]
        line = Text(end="", no_wrap=True)
        line.append_text(self._side(row, "left", half))
        line.append(SEPARATOR, style=GUTTER_STYLE)
        line.append_text(self._side(row, "right", width - half - 1))
        segments = [Segment(s.text, self.rich_style + s.style if s.style else self.rich_style)
                    for s in line.render(self.app.console)]
        return Strip(segments).crop_extend(0, width, self.rich_style)
