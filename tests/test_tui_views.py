"""Reading what the TUI shows: word-level marks and wrapping in the diff, wrapping in text views, one glyph per
outcome (failed checks never look like passes), the plan stepper's static facts and removed facts, stepping a
replay one event forward and back and to the next model answer, and footers that fit 80 columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from test_tui_support import (  # noqa: F401
    config_for,
    ferry_copy,
    isolated,
    make_app,
    ready,
    recorded_ferry,
    wait_for,
)

from genplan.engine.events import ValidationResult
from genplan.tui.diffing import word_changes
from genplan.tui.run_state import TimelineEntry
from genplan.tui.screens.compare import CompareScreen
from genplan.tui.screens.feedback import FeedbackScreen
from genplan.tui.screens.plan_stepper import PlanStepperScreen
from genplan.tui.widgets.diff_view import DiffView
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.panels import VersionsPanel
from genplan.tui.widgets.text_view import TextView
from genplan.tui.widgets.timeline import entry_cells

LONG = ("For every car that is not yet at its goal location, sail the ferry to the car, board it, sail to the "
        "goal location and debark it there; repeat until no car is left.")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> tuple[Path, Path]:
    return recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("views"))


def test_changed_lines_mark_whole_words() -> None:
    left, right = word_changes("sail the ferry to l1 and stop", "sail the ferry to l12 and stop")
    assert left == ((18, 20),) and right == ((18, 21),)  # "l1" / "l12", not the one character that differs


def test_failed_checks_never_look_like_passes() -> None:
    passed = TimelineEntry("a", "check", "check program c1-v00", "task-00", "pass", event=ValidationResult(valid=True))
    failed = TimelineEntry("b", "check", "check program c1-v00", "task-02", "fail",
                           event=ValidationResult(valid=False, kind="unsatisfied-precondition"))
    crashed = TimelineEntry("c", "check", "check program c1-v00", "task-03", "fail",
                            event=ValidationResult(valid=False, kind="exception"))
    titles = [entry_cells(e)[0].plain.strip() for e in (passed, failed, crashed)]
    statuses = [entry_cells(e)[1].plain for e in (passed, failed, crashed)]
    assert titles[0].startswith("✓") and not titles[1].startswith("✓") and not titles[2].startswith("✓")
    assert titles[1][0] != titles[2][0]  # an invalid action and an exception look different
    assert statuses == ["pass", "action", "exc"]


async def test_strategy_compare_wraps_words_and_toggles(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    (run / "strategies" / "v02.md").write_text(LONG + "\n")
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("5")
        await wait_for(pilot, lambda: app.query_one(VersionsPanel).versions, what="the versions")
        assert app.query_one(VersionsPanel).select(f"{run.name}/strategy/v02")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the history")
        view = app.screen.query_one(DiffView)
        await pilot.pause()
        assert view.wrap  # prose wraps from the start
        lines = [view.render_line(y).text for y in range(min(view.size.height, len(view._lines)))]
        right = "".join(line.split("│", 1)[1][5:].rstrip() + " " for line in lines if "│" in line)
        assert " ".join(LONG.split()) in " ".join(right.split())  # nothing cut off
        assert len(view._lines) > len(view.rows)
        await pilot.press("w")
        assert not view.wrap and len(view._lines) == len(view.rows)


async def test_text_views_wrap_at_words(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        app.push_screen(FeedbackScreen("feedback", LONG))
        await wait_for(pilot, lambda: isinstance(app.screen, FeedbackScreen) and app.screen.query(TextView),
                       what="the feedback")
        view = app.screen.query_one(TextView)
        await pilot.pause()
        rows = [view.render_line(y).text.rstrip() for y in range(len(view._rows))]
        assert len(rows) > 1 and " ".join(rows).split() == LONG.split()  # no word split across rows
        await pilot.press("w")
        assert not view.wrap and view.virtual_size.height == 1


async def test_plan_stepper_hides_static_facts_and_lists_removed_ones(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        app.plans.open_plan_stepper(domain / "debug" / "task-00.pddl", ["(board c0 l0)", "(sail l0 l1)"], "a plan")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen) and app.screen.query("#plan-effects"),
                       what="the stepper")
        await pilot.pause()
        screen = app.screen
        static = sorted(screen.trace.static)
        assert static  # ferry's (car ...) and (location ...) facts never change
        screen.show_row(1)
        shown = str(screen.query_one("#plan-effects").render())
        assert static[0] not in shown and "static facts hidden" in shown
        assert "No longer true after this step:" in shown and "- (at c0 l0)" in shown
        await pilot.press("s")
        assert static[0] in str(screen.query_one("#plan-effects").render())


async def test_replay_steps_one_event_forward_back_and_to_the_next_answer(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=0.125)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None, what="the replay")
        await pilot.press("full_stop")
        replayer = app.replay.replayer
        assert replayer.paused
        at = replayer.position
        await wait_for(pilot, lambda: not app.runner.events, what="the events up to the pause shown")

        def timeline() -> list[tuple[str, str, str]]:
            return [(e.key, e.title, str(e.status)) for e in app.runner.state.entries]

        # Step until the timeline shows a change (where the pause fell decides which event comes next, and not
        # every event adds or changes a row), then as many steps back: the view at `at` again, rebuilt.
        before = timeline()
        steps = 0
        while timeline() == before and steps < 30:
            await pilot.press("full_stop")
            steps += 1
            assert replayer.position == at + steps
            await wait_for(pilot, lambda: not app.runner.events, what="the events shown")
        assert timeline() != before, "30 events changed nothing in the timeline"
        for _ in range(steps):
            await pilot.press("comma")
        assert replayer.position == at
        await wait_for(pilot, lambda: not app.runner.events, what="the rebuilt view")
        assert timeline() == before
        await pilot.press("n")  # up to and including the next model answer
        last = replayer.events[replayer.position - 1]
        assert last.type == "response.received"
        rid = str(last.data["request_id"])
        await wait_for(pilot, lambda: not app.runner.events, what="the answer shown")
        answer = (run / "responses" / Path(last.data["file"]).with_suffix(".md").name).read_text()
        assert app.runner.state.stream_text(rid) == answer  # the whole recorded answer, at once
        assert any(n.message.startswith("Event ") for n in app.messages)


@pytest.mark.parametrize("where", ["domain", "versions", "results", "run"])
async def test_footers_fit_80_columns_with_whole_keys(where: str, isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        app.main.show_tab(where)
        await pilot.pause(0.2)
        bar = app.screen.query_one(KeyBar)
        text = str(bar.render())
        assert len(text.rstrip()) <= 80
        assert text.rstrip().endswith("palette") and "? Help" in text  # help and the palette always show


async def test_r_pressed_while_loading_starts_the_run_once_loaded(isolated: Path,  # noqa: F811
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from genplan.tui import config
    from genplan.tui.screens.step import RequestScreen

    slow = config.load_tui_settings
    key_handled = threading.Event()

    def slow_load(*args, **kwargs):  # a slow disk or a slow first import: the settings arrive after the key
        key_handled.wait(timeout=60)  # (a fixed sleep raced with the key on a loaded machine)
        return slow(*args, **kwargs)

    monkeypatch.setattr(config, "load_tui_settings", slow_load)
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        try:
            assert app.ctx.settings is None  # the settings load in a worker after the first frame
            await pilot.press("r")
            # remembered, not refused
            assert any(n.message.startswith("Starting as soon as") for n in app.messages)
            assert not any(n.severity == "warning" for n in app.messages)
        finally:
            key_handled.set()
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the run to start")
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")


async def test_an_outside_change_never_pops_a_rerun_over_the_editor(recorded, isolated: Path) -> None:  # noqa: F811
    from support.ferry_model import CORRECT_PROGRAM

    from genplan.tui.screens.editor import EditorScreen
    from genplan.tui.screens.rerun import RerunScreen

    domain, run = recorded
    app = make_app(domain, config_for(isolated, None), watch_files=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.versions.watcher is not None and app.query_one(VersionsPanel).versions,
                       what="watching")
        await pilot.press("5")
        assert app.query_one(VersionsPanel).select(f"{run.name}/strategy/v01")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        editor = app.screen
        await pilot.pause(0.3)
        program = run / "programs" / "c1-v00.py"
        original = program.read_text()
        try:
            program.write_text(CORRECT_PROGRAM)
            key = f"{run.name}/program/c1-v00+1"
            await wait_for(pilot, lambda: app.ctx.version_index.get(key) is not None, what="the outside edit")
            await pilot.pause(0.5)
            assert app.screen is editor and not any(isinstance(s, RerunScreen) for s in app.screen_stack)
            assert any("changed outside the TUI" in n.message for n in app.messages)
        finally:
            program.write_text(original)


def test_unpriced_calls_are_counted_and_explained() -> None:
    from rich.text import Text

    from genplan.engine.events import ResponseReceived
    from genplan.tui.run_state import RunState
    from genplan.tui.widgets.totals_bar import UNPRICED_NOTE, UNPRICED_NOTE_MARKUP, format_cost

    state = RunState()
    state.apply(ResponseReceived(request_id=1, tokens_in=10, tokens_out=5, cost_usd=0.001, seq=1, time=1.0))
    assert format_cost(state) == "$0.0010"
    state.apply(ResponseReceived(request_id=2, tokens_in=10, tokens_out=5, seq=2, time=2.0))
    assert format_cost(state) == "$0.0010 +1 unpriced" and "[prices" in UNPRICED_NOTE
    assert Text.from_markup(UNPRICED_NOTE_MARKUP).plain == UNPRICED_NOTE  # shown as written, "[prices]" included


def _options(parser) -> dict[str, object]:
    import argparse

    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        for flag in action.option_strings:
            if flag.startswith("--"):
                found[flag] = action
    return found


def test_flags_mean_the_same_in_genplan_run_and_genplan_tui() -> None:
    from genplan.cli.main import build_parser as cli_parser
    from genplan.tui.main import build_parser as tui_parser

    run_parser = cli_parser("run")._subparsers._group_actions[0].choices["run"]
    run, tui = _options(run_parser), _options(tui_parser())
    shared = set(run) & set(tui)
    assert {"--model", "--base-url", "--api-key-env", "--temperature", "--reasoning", "--max-tokens", "--seed",
            "--no-cache", "--max-concurrency", "--preset", "--config-file"} <= shared
    for flag in shared - {"--help", "--preset", "--config-file"}:
        a, b = run[flag], tui[flag]
        assert (a.dest, a.type, a.choices, a.nargs, a.const) == (b.dest, b.type, b.choices, b.nargs, b.const), flag
        assert a.help == b.help, flag  # one meaning, said the same way


async def test_seed_and_no_cache_reach_the_run(isolated: Path) -> None:  # noqa: F811
    from genplan.tui.main import build_parser

    args = build_parser().parse_args(["x", "--seed", "2", "--no-cache"])
    assert args.seed == 2 and args.no_cache
    app = make_app(ferry_copy(isolated), config_for(isolated, None), pipeline_changes={"split_seed": 2}, no_cache=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.runner.session is not None and app.runner.session.store is not None, what="the run")
        import json

        meta = json.loads((app.runner.session.store.path / "run.json").read_text())
        assert meta["config"]["split_seed"] == 2 and app.runner.session.no_cache
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")


async def test_requests_and_the_step_header_name_their_task(scripted_server: ScriptedServer,
                                                             isolated: Path) -> None:  # noqa: F811
    from support.ferry_model import FerryModel

    from genplan.tui.screens.step import RequestScreen

    scripted_server.respond_with(FerryModel())
    app = make_app(ferry_copy(isolated), config_for(isolated, scripted_server), step=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen), what="the first request")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, RequestScreen) and app.screen.request.step == "nl.task",
                       what="an nl.task request")
        screen = app.screen
        assert screen.about.startswith("task-0")
        assert f"nl.task for {screen.about}" in str(screen.query_one("#request-title").render())
        await pilot.press("w")  # the rest goes out: every nl.task row names its task
        await wait_for(pilot, lambda: sum(1 for e in app.runner.state.entries if e.step == "nl.task"
                                          and e.status == "done") == 6, timeout=60, what="the descriptions")
        tasks = {e.detail for e in app.runner.state.entries if e.step == "nl.task"}
        assert tasks == {f"task-0{i}" for i in range(6)}
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")


async def test_the_editor_wraps_prose_and_toggles(isolated: Path) -> None:  # noqa: F811
    from genplan.tui.screens.editor import EditorScreen

    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        app.push_screen(EditorScreen("a reflection", LONG, "markdown", can_continue=False))
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.query("#editor-text"),
                       what="the editor")
        await pilot.pause()
        editor = app.screen.editor
        assert editor.soft_wrap and editor.wrapped_document.height > 1  # one line of text, several on screen
        await pilot.press("f2")
        assert not editor.soft_wrap
        await pilot.press("escape")
        app.push_screen(EditorScreen("a program", "x = 1\n", "python", can_continue=False))
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen) and app.screen.query("#editor-text"),
                       what="the program editor")
        assert not app.screen.editor.soft_wrap


async def test_p_on_a_failed_check_row_opens_its_plan(recorded, isolated: Path) -> None:  # noqa: F811
    from genplan.tui.widgets.panels import RunTimeline

    domain, run = recorded
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done" and not app.runner.events,
                       what="the run")
        timeline = app.query_one(RunTimeline)
        await wait_for(pilot, lambda: timeline.row_count == len(app.runner.state.entries), what="the timeline")
        failed = next(i for i, e in enumerate(app.runner.state.entries) if e.kind == "check" and e.status == "fail")
        timeline.focus()
        timeline.move_cursor(row=failed)
        await pilot.pause()
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanStepperScreen), what="the plan stepper")
        assert app.screen.trace.failing_step is not None
