"""The run timeline widget on its own: rows and columns, a change redraws only its row, the cursor (keys,
mouse, following the newest row) and the message the app listens to."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.app import App, ComposeResult

from genplan.engine.events import RequestSent, ValidationResult
from genplan.tui.run_state import TimelineEntry, Update
from genplan.tui.widgets.timeline import Timeline, entry_cells, row_text


@dataclass
class FakeState:
    entries: list[TimelineEntry] = field(default_factory=list)


def entries(count: int) -> list[TimelineEntry]:
    return [TimelineEntry(f"e{i}", "request", f"step {i}", status="done", tokens=100 * i, seconds=0.5 * i)
            for i in range(count)]


class TimelineApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[str] = []

    def compose(self) -> ComposeResult:
        yield Timeline(id="timeline")

    def on_timeline_highlighted(self, event: Timeline.Highlighted) -> None:
        self.highlighted.append(event.key)


def test_row_text_lays_out_the_columns() -> None:
    entry = TimelineEntry("k", "request", "strategy.plan", detail="task-03", status="running", tokens=1234, seconds=2.5)
    line = row_text(entry_cells(entry), 60).plain
    assert len(line) == 60
    assert line.startswith("  ⇄ strategy.plan task-03")
    assert line.endswith("running    1.2k   2.5s")
    answered = TimelineEntry("k", "request", "code.generate", status="answered")
    assert "answered" in row_text(entry_cells(answered), 44).plain  # the longest status fits whole
    long = TimelineEntry("k", "check", "check program c1-v01", detail="task-05 (a long note)", status="pass",
                         event=ValidationResult(task="task-05 (a long note)", version="c1-v01", valid=True))
    narrow = row_text(entry_cells(long), 56).plain
    # the step gives way: in short, the task and the version first ("check program" goes)
    assert len(narrow) == 56 and narrow.startswith("✓ task-05 (a long note) c1-v01") and narrow.rstrip().endswith("pass")
    narrower = row_text(entry_cells(long), 30).plain
    assert len(narrower) == 30 and narrower.startswith("✓ task-05 (a long") and "…" in narrower
    # a request too long even in short puts its task and version before the verb: the verb is what is cut
    request = TimelineEntry("k", "request", "strategy.reflect", detail="task-00 v01", status="done",
                            step="strategy.reflect", event=RequestSent(task="task-00", version="v01"))
    assert row_text(entry_cells(request), 30).plain.startswith("⇄ reflect task-00 v01 ")
    assert row_text(entry_cells(request), 26).plain.startswith("⇄ task-00 v01 re…")
    # narrower (the timeline at 80 columns): the step keeps its room, only the status follows it
    small = row_text(entry_cells(entry), 44).plain
    assert len(small) == 44 and small.startswith("  ⇄ strategy.plan task-03") and small.rstrip().endswith("running")


async def test_rows_that_arrive_at_once_after_a_few_scroll_the_newest_into_view() -> None:
    """A fork's copied rows come in one batch after its first ones: the view outgrows its height before Textual has
    shown a scrollbar, and the cursor's row (the held request) must still be scrolled into view."""
    app = TimelineApp()
    async with app.run_test(size=(60, 12)) as pilot:
        timeline = app.query_one(Timeline)
        state = FakeState(entries(2))
        timeline.sync(state)
        await pilot.pause()
        assert timeline.scroll_offset.y == 0
        state.entries = entries(30)
        timeline.sync(state, Update(entries=list(range(2, 30))))
        # under load the scroll that follows the cursor can run before the layout that shows the scrollbar
        assert not timeline.show_vertical_scrollbar
        timeline._keep_cursor_in_view()
        assert timeline.scroll_offset.y == 29 - (timeline.size.height - 1) + 1  # the last row at the bottom
        await pilot.pause()
        assert timeline.cursor_row == 29
        last_line = "".join(s.text for s in timeline.render_line(timeline.size.height - 1))
        assert "step 29" in last_line, last_line


async def test_rows_cursor_and_messages() -> None:
    app = TimelineApp()
    async with app.run_test(size=(60, 12)) as pilot:
        timeline = app.query_one(Timeline)
        state = FakeState(entries(30))
        timeline.sync(state)
        await pilot.pause()
        assert timeline.row_count == 30
        assert timeline.cursor_row == 29 and timeline.selected_key() == "e29"  # follows the newest row
        assert app.highlighted[-1] == "e29"
        header = "".join(s.text for s in timeline.render_line(0))
        assert header.split() == ["step", "status", "tokens", "time"]
        last_line = "".join(s.text for s in timeline.render_line(timeline.size.height - 1))
        assert "step 29" in last_line  # scrolled so that the cursor is in view

        timeline.focus()
        await pilot.press("home")
        assert timeline.cursor_row == 0 and app.highlighted[-1] == "e0"
        await pilot.press("down", "down")
        assert timeline.selected_key() == "e2"
        await pilot.press("pagedown")
        assert timeline.cursor_row > 2
        await pilot.press("end")
        assert timeline.cursor_row == 29
        await pilot.press("home")
        await pilot.click(Timeline, offset=(5, 4))  # line 0 is the header: line 4 is the fourth row
        assert timeline.cursor_row == 3

        # new rows while the cursor is not on the last one: it stays where the reader put it
        state.entries.append(TimelineEntry("e30", "check", "check 30", status="pass"))
        timeline.sync(state, Update(entries=[30]))
        await pilot.pause()
        assert timeline.row_count == 31 and timeline.cursor_row == 3


async def test_a_change_redraws_only_its_row() -> None:
    app = TimelineApp()
    async with app.run_test(size=(60, 12)) as pilot:
        timeline = app.query_one(Timeline)
        state = FakeState(entries(5))
        timeline.sync(state)
        timeline.move_cursor(row=0)
        await pilot.pause()
        for y in range(1, 6):
            timeline.render_line(y)
        cached = dict(timeline._strips)
        assert set(cached) == {0, 1, 2, 3, 4}
        state.entries[2].status = "failed"
        timeline.sync(state, Update(entries=[2]))
        await pilot.pause()
        assert 2 not in timeline._strips or timeline._strips[2] is not cached[2]
        assert all(timeline._strips.get(i) is cached[i] for i in (0, 1, 3, 4))
        assert "failed" in "".join(s.text for s in timeline.render_line(3))

        timeline.reset()
        await pilot.pause()
        assert timeline.row_count == 0 and timeline.selected_key() is None


async def test_the_first_row_is_announced_and_a_theme_change_redraws_the_rows() -> None:
    app = TimelineApp()
    async with app.run_test(size=(60, 12)) as pilot:
        timeline = app.query_one(Timeline)
        state = FakeState(entries(1))
        timeline.sync(state)
        await pilot.pause()
        assert app.highlighted == ["e0"]  # the cursor was already on row 0: announced all the same
        state.entries.extend(entries(2)[1:])
        timeline.sync(state, Update(entries=[1]))
        await pilot.pause()
        assert timeline.cursor_row == 1  # row 0 (screen line 1) is drawn from the cache, without the cursor
        before = {s.style.bgcolor for s in timeline.render_line(1) if s.style}
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        after = {s.style.bgcolor for s in timeline.render_line(1) if s.style}
        assert after == {timeline.rich_style.bgcolor} and after != before
