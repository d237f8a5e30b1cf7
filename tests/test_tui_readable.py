"""Every screen readable at 80x24 (issue 36, items 3-8), each through the app: classroom mode names every row's
task and version and lists the replay keys, says events in plain words and keeps the lines of a strategy; messages
take a line of their own instead of lying over the content; the answer box sits under the question; the prose
diff wraps inside the visible width; the bars keep what matters at 80 columns; labels count as the totals do;
editors name their own action, go to the start and end of the text, and keys never fall through when an editor
could not open."""

from __future__ import annotations

import shutil
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_papercuts import key_bar_text, logged_run, totals_text
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, record_run, wait_for  # noqa: F401
from textual.pilot import Pilot

from genplan.engine.events import RequestSent, ResponseReceived, RunFinished, RunStarted, ValidationResult
from genplan.engine.runs.outcome import RunReport
from genplan.engine.runs.status import RunStatus
from genplan.engine.runs.store import RunStore
from genplan.tui.app import GenplanApp
from genplan.tui.controllers.replay import describe
from genplan.tui.controllers.runs import run_note
from genplan.tui.run_state import RunState
from genplan.tui.screens.counterexample import CounterexampleScreen
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.feedback import FeedbackScreen
from genplan.tui.screens.pick import NoticeScreen
from genplan.tui.screens.settings import SettingsScreen
from genplan.tui.screens.step import RequestScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.diff_view import DiffView
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.markdown_view import keep_lines, render_markdown
from genplan.tui.widgets.timeline import entry_cells, row_text

# A strategy written as a model writes one: numbered steps, nested ones indented under them.
STRATEGY = """Reasoning about the ferry.

Pseudocode:
1. While some car is not at its goal:
   1.1 Sail to the car's location.
   1.2 Board the car.
   1.3 Sail to its goal and debark it.
2. Stop when every car is in place. (version {version})"""


def multi_line_strategy(request) -> str | None:  # noqa: ANN001 - the scripted server's request
    if request.step in ("strategy.generate", "strategy.revise"):
        return STRATEGY.format(version=1)
    return None


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ferry with one finished run: a strategy of numbered lines, wrong on one task, debugged; one program."""
    domain = ferry_copy(tmp_path_factory.mktemp("readable"))
    with ScriptedServer() as server:
        record_run(domain, server, FerryModel(strategy_plan_mistakes=1, extra=multi_line_strategy),
                   initial_programs=1)
    return domain


@asynccontextmanager
async def app_at_80x24(tmp_path: Path, isolated: Path) -> AsyncIterator[tuple[GenplanApp, Pilot]]:  # noqa: F811
    """The app on a copy of ferry with no model configured, at 80x24, loaded."""
    app = make_app(ferry_copy(tmp_path), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        yield app, pilot


def copy_of(domain: Path, root: Path) -> tuple[Path, Path]:
    target = root / "ferry"
    shutil.copytree(domain, target)
    (run,) = [path for path in RunStore.runs_dir(target).iterdir() if path.is_dir()]
    return target, run


def timeline_lines(app) -> list[str]:  # noqa: ANN001
    timeline = app.query_one("#run-timeline")
    return ["".join(s.text for s in timeline.render_line(y)) for y in range(timeline.size.height)]


# ------------------------------------------------------------------ 3. classroom mode at 80x24
async def test_a_classroom_replay_at_80x24_names_every_rows_task_and_lists_the_replay_keys(
        recorded: Path, tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain, run = copy_of(recorded, tmp_path)
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=64.0, classroom=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None, what="the replay")
        keys = key_bar_text(app)
        # space: Pause while it plays, Play once it stopped at the first stage (which word is test_tui_replay's)
        assert " space Pause " in keys or " space Play " in keys, keys
        for key, word in ((".", "Step"), (",", "Back"), ("n", "Next answer"), ("+", "Fast"), ("-", "Slow")):
            assert f" {key} {word} " in keys, keys
        replayer = app.replay.replayer
        while not replayer.finished:
            if replayer.paused:
                await pilot.press("space")
            await pilot.pause(0.1)
        state = app.runner.state
        await wait_for(pilot, lambda: app.query_one("#run-timeline").row_count == len(state.entries), what="all rows")
        timeline = app.query_one("#run-timeline")
        assert timeline.region.width <= 32  # the narrow timeline of classroom mode at 80 columns
        width = timeline.scrollable_content_region.width
        checked = 0
        for entry in state.entries:  # each row as the timeline draws it at this width
            about = entry.event
            if entry.kind not in ("check", "request") or not isinstance(about, (ValidationResult, RequestSent)) \
                    or not about.task:
                continue
            row = row_text(entry_cells(entry), width).plain
            assert about.task in row and "…" not in row.split(about.task)[0], row
            if entry.kind == "check":
                assert f"{about.task} {about.version}" in row, row
            checked += 1
        shown = timeline_lines(app)  # and on the screen: the last rows, followed
        last_check = next(e for e in reversed(state.entries) if e.kind == "check")
        assert isinstance(last_check.event, ValidationResult)
        assert any(f"{last_check.event.task} {last_check.event.version}" in line for line in shown), shown
        assert checked >= 12  # every plan check and every request about a task


async def test_classroom_notes_say_events_in_plain_words_above_the_caption(
        recorded: Path, tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain, run = copy_of(recorded, tmp_path)
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=64.0, classroom=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None and app.replay.replayer.paused,
                       what="the first stage's pause")
        note = app.query_one("#replay-note")
        assert str(note.render()).startswith("Next: NL description")
        for _ in range(6):
            await pilot.press(".")
        await pilot.pause(0.2)
        text = str(note.render())
        assert text.startswith("Event ") and " of " in text
        words = text.split(": ", 1)[1]
        assert not any(part.count(".") == 1 and part.strip(".").replace(".", "").isalpha() and "." in part[1:-1]
                       for part in words.split()), text  # no event type such as "request.sent"
        await pilot.press("space")  # going on: the note goes away, no "Replay resumed" over the content
        await pilot.pause(0.2)
        assert not any(n.message in ("Replay resumed.", "Replay paused.") for n in app.messages)
        assert not any(n.message.startswith(("Next: ", "Event ")) for n in app.messages)


def test_events_in_plain_words() -> None:
    started = RunStarted(time=1.0, seq=1)
    sent = RequestSent(request_id=3, step="strategy.plan", time=2.0, seq=2, task="task-01", version="v01")
    answer = ResponseReceived(request_id=3, step="strategy.plan", time=3.0, seq=3)
    check = ValidationResult(what="strategy", version="v01", task="task-01", valid=False, time=4.0, seq=4)
    assert describe(None) == "the start, before anything happened"
    assert describe(started) == "the run starts"
    assert describe(sent) == ("a question goes to the model (task-01 v01): the model follows the strategy by hand on a "
                              "debug task; the plan it writes is validated")
    assert describe(answer) == "the model's answer is complete"
    assert describe(check) == "strategy check of v01 on task-01: the plan fails"


def test_a_strategy_keeps_its_lines_when_rendered() -> None:
    text = STRATEGY.format(version=2)
    rendered = ["".join(s.text for s in line).rstrip() for line in render_markdown(keep_lines(text), 60)]
    for step in ("1.1 Sail to the car's location.", "1.2 Board the car.", "1.3 Sail to its goal and debark it."):
        line = next(line for line in rendered if step in line)
        assert line.strip() == step  # a line of its own, not run together with the one before
        assert line.index(step) > next(r for r in rendered if "While some car" in r).index("While")  # indented
    # as plain Markdown the same text runs its steps together: what keep_lines is for
    plain = ["".join(s.text for s in line).rstrip() for line in render_markdown(text, 60)]
    assert not any(line.strip() == "1.2 Board the car." for line in plain)
    code = "```python\nx = 1\ny = 2\n```"
    assert keep_lines(code) == code


async def test_the_run_view_shows_a_strategy_line_by_line(recorded: Path, tmp_path: Path,
                                                          isolated: Path) -> None:  # noqa: F811
    domain, run = copy_of(recorded, tmp_path)
    app = make_app(domain, config_for(isolated, None), run=run.name, classroom=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done", what="the run")
        await pilot.press("4")
        state = app.runner.state
        stream = app.query_one("#run-stream")
        timeline = app.query_one("#run-timeline")
        timeline.focus()
        for kind in ("artifact", "request"):  # the strategy file, and the answer that wrote it
            index = next(i for i, e in enumerate(state.entries) if (e.kind == "artifact" and e.title.startswith(
                "strategy") if kind == "artifact" else e.step == "strategy.generate"))
            timeline.move_cursor(row=index)
            await pilot.press("enter")
            await wait_for(pilot, lambda: "1.2 Board the car." in stream.view.rendered_text(), what="the strategy")
            lines = [line.strip() for line in stream.view.rendered_text().splitlines()]
            assert "1.1 Sail to the car's location." in lines and "1.2 Board the car." in lines  # one per line
            assert any(line.startswith("1.3 Sail to its goal") for line in lines)


# ------------------------------------------------------------------ 4. messages never cover content
async def test_messages_take_a_line_of_their_own_and_the_price_note_comes_once(tmp_path: Path,
                                                                               isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    first = logged_run(domain, "F3-6", [{"tokens_in": 10, "tokens_out": 5}] * 3, model="a-model-without-price")
    second = logged_run(domain, "F3-6", [{"tokens_in": 10, "tokens_out": 5}] * 2, model="a-model-without-price")
    app = make_app(domain, config_for(isolated, None), run=first.name)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.messages, what="the price note")
        bar = app.screen.query_one(KeyBar)
        await wait_for(pilot, lambda: bar.region.height == 2, what="the message line")
        assert "Unpriced calls" in bar.message_text
        assert not app.screen.query("Toast")  # no toast lies over the content
        results = app.query_one("#run-results")
        assert results.region.bottom <= app.query_one("#totals").region.y < bar.region.y  # all of it in view
        # opening runs again does not bring the note back
        for run in (second, first, second):
            app.runner.open_run(run)
            await wait_for(pilot, lambda run=run: app.runner.run_dir == run and app.runner.state is not None
                           and app.runner.state.totals.calls > 0, what="the run")
            await pilot.pause(0.2)
        assert len([n for n in app.messages if "Unpriced" in n.message]) == 1
        bar.clear_message()
        await pilot.pause(0.1)
        assert bar.region.height == 1  # the line gives the room back


async def test_a_message_on_a_screen_above_the_main_one_stays_off_its_text(tmp_path: Path,
                                                                         isolated: Path) -> None:  # noqa: F811
    async with app_at_80x24(tmp_path, isolated) as (app, pilot):
        text = "\n".join(f"line {n} of a long feedback text" for n in range(80))
        app.push_screen(FeedbackScreen("Feedback", text))
        await pilot.pause(0.2)
        app.notify("A message for the screen above")
        await pilot.pause(0.2)
        bar = app.screen.query_one(KeyBar)
        assert bar.message_text == "A message for the screen above"
        others = [w for w in app.screen.query("*") if w is not bar and w.region.height and w.display]
        assert all(not w.region.intersection(bar.region).area for w in others if bar not in w.ancestors_with_self)


# ------------------------------------------------------------------ 5. answering beside the question
async def test_at_80x24_the_prompt_and_the_answer_box_are_both_in_view(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the answer screen")
        screen = app.screen
        prompt, answer = screen.query_one("#request-view"), screen.query_one("#answer-text", CodeArea)
        await pilot.pause(0.3)
        assert prompt.region.height >= 10 and answer.region.height >= 4
        assert prompt.region.bottom <= answer.region.y  # stacked: the box is under the prompt, not over it
        assert app.focused is answer and answer.syntax is None  # plain text: nothing is re-highlighted per key
        await pilot.press(*"my answer")
        assert answer.text == "my answer" and isinstance(app.screen, RequestScreen)  # the keys went to the box


# ------------------------------------------------------------------ 6. the diff, the bars, the footers
async def test_the_prose_diff_wraps_inside_the_visible_width(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    async with app_at_80x24(tmp_path, isolated) as (app, pilot):
        words = "where the squirrel sits and waits for the nut to fall from the highest branch of the old oak tree"
        left = "\n".join(f"{n}. {words} (left)" for n in range(30))
        right = "\n".join(f"{n}. {words} (right side)" for n in range(30))
        view = DiffView()
        from textual.screen import Screen  # noqa: PLC0415

        class DiffOnly(Screen[None]):
            def compose(self):  # noqa: ANN202
                yield view
                yield KeyBar()

        app.push_screen(DiffOnly())
        await pilot.pause(0.2)
        view.wrap = True
        view.show(left, right, None)
        await pilot.pause(0.3)
        assert view.virtual_size.height > view.size.height  # a vertical scrollbar shows
        width = view.scrollable_content_region.width
        assert width < view.size.width
        shown = [view.render_line(y).text[:width] for y in range(view.size.height)]
        right_side = " ".join(line[(width - 1) // 2 + 1 + 5:].strip() for line in shown)
        for word in ("squirrel", "highest", "branch", "oak", "(right"):
            assert word in right_side, right_side  # nothing lost under the scrollbar


async def test_the_totals_bar_keeps_state_run_preset_and_model_at_80_columns(tmp_path: Path,
                                                                             isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    run = logged_run(domain, "F3-6", [{"tokens_in": 1200, "tokens_out": 3400, "cost_usd": 0.0123}] * 25,
                     model="deepseek-reasoner-long-name")
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.totals.calls == 25,
                       what="the run")
        await pilot.pause(0.2)
        text = totals_text(app)
        # the model is the run's, as recorded (the session has none configured: it said "you answer")
        for part in ("done", run.name, "F3-6", "deepseek-reasoner-long-name"):
            assert part in text, text
        assert "you answer" not in text
        assert "…" not in text  # whole parts only
        app.runner.pending.append(object())  # a request waits for the person
        app.main.refresh_totals()
        assert "waiting for you (a)" in totals_text(app)
        app.runner.pending.clear()


async def test_each_screens_footer_leads_with_its_own_keys(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    async with app_at_80x24(tmp_path, isolated) as (app, pilot):
        record = {"task": "task-00", "tasks_tried": 3, "failure": {"category": "action", "plan": ["(sail l0 l1)"]}}
        app.push_screen(CounterexampleScreen("Counterexample of c1-v00", record, "(define (problem p))"))
        await pilot.pause(0.3)
        keys = key_bar_text(app)
        assert " c Continue" in keys and " p Plan stepper " in keys and " esc Back " in keys
        assert keys.index(" c Continue") < keys.index(" ? Help ")
        assert " q Quit " not in keys or keys.index(" c Continue") < keys.index(" q Quit ")


# ------------------------------------------------------------------ 7. labels
def test_requests_are_numbered_as_calls_and_a_cached_run_says_so(tmp_path: Path) -> None:
    domain = ferry_copy(tmp_path)
    store = RunStore.create(RunStore.runs_dir(domain), {"config": {"preset": "F3-6"}, "model": {"model": "m"}})
    state = RunState(store.path)
    state.apply(RunStarted(time=1.0, seq=1))
    for seq, request_id in enumerate((1, 3, 5), start=2):  # ids skip the ones kept for extraction retries
        state.apply(RequestSent(request_id=request_id, step="strategy.generate", time=float(seq), seq=seq))
        state.apply(ResponseReceived(request_id=request_id, step="strategy.generate", time=seq + 0.5, seq=seq,
                                     cached=True))
    from genplan.tui.widgets.panels import stream_title  # noqa: PLC0415
    from genplan.tui.widgets.totals_bar import format_calls  # noqa: PLC0415

    assert [state.call_number(str(i)) for i in (1, 3, 5)] == [1, 2, 3]
    assert stream_title(state.entry("req:5"), "5").startswith("call 3 · strategy.generate")
    assert format_calls(state) == "3 calls, all from the cache" and state.totals.calls == 0


def test_a_stop_says_where_the_run_stood() -> None:
    state = RunState()
    state.apply(RunStarted(time=1.0, seq=1))
    for seq, (task, valid) in enumerate((("task-00", True), ("task-01", True), ("task-02", False)), start=2):
        state.apply(ValidationResult(what="strategy", version="v02", task=task, valid=valid, time=float(seq), seq=seq))
    state.apply(RunFinished(status="stopped", debug_solved=0, debug_total=6, time=9.0, seq=9, message="stopped"))
    assert state.standing() == "strategy v02 at 2/3"
    assert "no program yet; strategy v02 at 2/3" in state.entries[-1].detail
    assert "0/6" not in state.entries[-1].detail
    from genplan.engine.runs.account import Counts, Figure, Outcome, OutcomeFacts, RunAccount, Who, status_words

    def ended(status: RunStatus, facts: OutcomeFacts) -> RunReport:
        account = RunAccount("r", Who("stein", "F5-3", "m"), Outcome(status, status_words(status), facts),
                             Counts(model=9))
        return RunReport(Path("r"), status, {}, account)

    stopped = OutcomeFacts("no program selected (0/6 debug tasks solved)", Figure("debug tasks", 0, 6))
    note = run_note(ended(RunStatus.STOPPED, stopped), state.standing())
    assert note == "Run stopped by a person after 9 calls: nothing selected yet; strategy v02 at 2/3."
    done = OutcomeFacts("program p selected: 6/6 debug tasks solved", Figure("debug tasks", 6, 6), "programs/p.py")
    assert run_note(ended(RunStatus.FINISHED, done)) == "Run finished after 9 calls: program p selected: 6/6 debug tasks solved."


# ------------------------------------------------------------------ 8. editors
async def test_the_prompt_editor_names_its_own_action_and_goes_to_the_ends(tmp_path: Path,
                                                                          isolated: Path) -> None:  # noqa: F811
    async with app_at_80x24(tmp_path, isolated) as (app, pilot):
        text = "\n".join(f"line {n}" for n in range(60))
        app.push_screen(EditorScreen("Edit message 2 (user)", text, "markdown", can_continue=False,
                                     save_label="Keep the edit"))
        await pilot.pause(0.3)
        keys = key_bar_text(app)
        assert " ^s Keep the edit " in keys and "new version" not in keys and "Continue" not in keys
        editor = app.screen.editor
        await pilot.press("ctrl+end")
        assert editor.cursor_location == (59, len("line 59"))
        await pilot.press("ctrl+home")
        assert editor.cursor_location == (0, 0)
        await pilot.press("ctrl+shift+end")
        assert editor.selected_text == text
        app.pop_screen()
        app.push_screen(EditorScreen("Edit strategy v01", "x", "markdown", can_continue=True))
        await pilot.pause(0.3)
        keys = key_bar_text(app)
        assert " ^s Save as new version " in keys and " ^r Continue" in keys


async def test_keys_typed_after_an_edit_that_could_not_open_go_nowhere(tmp_path: Path,
                                                                       isolated: Path) -> None:  # noqa: F811
    async with app_at_80x24(tmp_path, isolated) as (app, pilot):
        await pilot.press("5")  # Versions, with nothing chosen
        await pilot.pause(0.2)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, NoticeScreen), what="the notice")
        assert "Select a strategy, reflection, program or NL description version first" in str(
            app.screen.query_one("#notice-text").render())
        started = time.monotonic()
        await pilot.press(*"1. rs for every car")  # meant for the editor: r would start a run, s the settings
        await pilot.pause(0.3)
        assert isinstance(app.screen, NoticeScreen) and app.runner.session is None
        assert not any(isinstance(s, SettingsScreen) for s in app.screen_stack)
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert app.screen is app.main and time.monotonic() - started < 60
