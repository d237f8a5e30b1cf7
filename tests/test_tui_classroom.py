"""Classroom mode: under the timeline, one line names the chosen row's stage of the method and, for a failed
check, why this feedback was produced and what the model is told (--classroom, or L to toggle)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, record_run, wait_for  # noqa: F401

from genplan.engine.events import RequestSent, SelectionMade, StepStarted, ValidationResult
from genplan.engine.runs.store import RunStore
from genplan.tui.classroom import stage_caption, stage_starts
from genplan.tui.main import build_parser
from genplan.tui.run_state import TimelineEntry


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ferry domain with one finished run in it (a wrong strategy plan, then a fix), made once for this module;
    each test works on its own copy (copy_of)."""
    domain = ferry_copy(tmp_path_factory.mktemp("classroom"))
    with ScriptedServer() as server:
        record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
    return domain


def copy_of(domain: Path, root: Path) -> tuple[Path, Path]:
    """A copy of the recorded domain under ``root`` and its run directory."""
    target = root / "ferry"
    shutil.copytree(domain, target)
    (run,) = [path for path in RunStore.runs_dir(target).iterdir() if path.is_dir()]
    return target, run


def test_captions_name_the_stage() -> None:
    assert stage_caption(TimelineEntry("k", "request", "strategy.plan", step="strategy.plan")).startswith(
        "Strategy debugging: the model follows the strategy by hand")
    assert stage_caption(TimelineEntry("k", "request", "code.revise", step="code.revise")).startswith("Code debugging")
    assert stage_caption(TimelineEntry("k", "request", "autotos.succ", step="autotos.succ")).startswith("AutoToS")
    assert stage_caption(TimelineEntry("k", "phase", "strategy-validation")).startswith("Strategy debugging")
    passed = TimelineEntry("k", "check", "check plan v01", "task-02", event=ValidationResult(what="strategy", valid=True,
                                                                                                 task="task-02"))
    assert stage_caption(passed) == "Strategy debugging: the plan for task-02 is valid; nothing is fed back."
    assert stage_caption(None).startswith("Classroom:")
    assert build_parser().parse_args(["d", "--classroom"]).classroom


async def test_classroom_mode_through_a_replay(recorded: Path, tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain, run = copy_of(recorded, tmp_path)
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=64.0, classroom=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        caption = app.query_one("#classroom-caption")
        assert caption.display
        await wait_for(pilot, lambda: app.replay.replayer is not None, what="the replay")
        for _ in range(600):  # it pauses at each stage (the next test): go on at once
            if app.replay.replayer.finished:
                break
            if app.replay.replayer.paused:
                await pilot.press("space")
            await pilot.pause(0.1)
        assert app.replay.replayer.finished
        # the last row, followed (once the last events are applied and the timeline synced)
        await wait_for(pilot, lambda: str(caption.render()).startswith("The run itself"), what="the last row's caption")
        entries = app.runner.state.entries
        failed = next(i for i, e in enumerate(entries) if e.kind == "check" and e.status == "fail")
        check = entries[failed].event
        assert isinstance(check, ValidationResult)
        message = str(check.message).strip().splitlines()[0]
        timeline = app.query_one("#run-timeline")
        timeline.focus()
        timeline.move_cursor(row=failed)
        await pilot.pause(0.2)
        text = str(caption.render())
        assert text.startswith(f"Strategy debugging: the plan for {check.task} failed (")
        assert "the model is told: " + " ".join(message.split()) in " ".join(text.split())
        request = next(i for i, e in enumerate(entries) if e.kind == "request" and e.step == "strategy.reflect")
        timeline.move_cursor(row=request)
        await pilot.pause(0.2)
        assert str(caption.render()).startswith("Reflection: the model explains why the strategy's plan failed")
        await pilot.press("L")  # off: the caption goes away
        await pilot.pause(0.2)
        assert not caption.display and not app.replay.classroom
        await pilot.press("L")
        await pilot.pause(0.2)
        assert caption.display and str(caption.render()).startswith("Reflection")


async def test_a_classroom_replay_pauses_at_each_stage(recorded: Path, tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain, run = copy_of(recorded, tmp_path)
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=64.0, classroom=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None, what="the replay")
        replayer = app.replay.replayer
        stages = sorted(stage_starts(replayer.events))
        assert len(stages) >= 4
        stops, notes = [], []
        while not replayer.finished:
            await wait_for(pilot, lambda: replayer.finished or (replayer.paused and replayer.position in stages
                                                                and replayer.position not in stops),
                           timeout=60, what="the next stage's pause")
            if replayer.finished:
                break
            stops.append(replayer.position)
            await pilot.pause(0.3)
            assert replayer.position == stops[-1]  # it waits for a key
            assert "replay (paused)" in str(app.query_one("#totals").render())
            # the next stage is named above the caption, where the room reads, not in a message over the content
            note = app.query_one("#replay-note")
            assert note.display and str(note.render()).startswith("Next: ") and "space goes on" in str(note.render())
            notes.append(str(note.render()))
            assert not any(n.message.startswith("Next: ") for n in app.messages)
            await pilot.press("space")
        assert stops == stages  # every stage, in order, once
        assert app.runner.state.status == "done"
    # the stages as the method has them: the reflection announced before the reflection, never "Strategy" before it
    reflection = next(i for i, e in enumerate(replayer.events)
                      if isinstance(e, RequestSent) and e.step == "strategy.reflect")
    assert reflection in stops
    assert notes[stops.index(reflection)].startswith("Next: Reflection: the model explains why the strategy's plan")
    assert [n.split(":")[1].strip() for n in notes] == [
        "NL description", "Strategy", "Strategy debugging", "Reflection", "Strategy debugging", "Code candidates",
        "Code debugging"]


def test_stages_follow_the_method_reflections_included() -> None:
    """The events of a run with a strategy revision and a program revision: a replay stops before each new stage,
    the reflections included, and not before a revision round's own phase (it is announced by its requests)."""
    events = [
        StepStarted(phase="nl"), RequestSent(step="nl.domain"), RequestSent(step="nl.task"),
        StepStarted(phase="strategy", round=0), RequestSent(step="strategy.generate"),
        StepStarted(phase="strategy-validation"), RequestSent(step="strategy.plan"), ValidationResult(valid=False),
        StepStarted(phase="strategy", round=1), RequestSent(step="strategy.reflect"), RequestSent(step="strategy.revise"),
        StepStarted(phase="strategy-validation"), RequestSent(step="strategy.plan"),
        StepStarted(phase="code"), RequestSent(step="code.generate"), StepStarted(phase="program-check"),
        RequestSent(step="code.reflect"), RequestSent(step="code.revise"), StepStarted(phase="program-check"),
    ]
    starts = stage_starts(events)
    assert [(i, note.split(":")[0]) for i, note in starts.items()] == [
        (3, "Strategy"), (5, "Strategy debugging"), (9, "Reflection"), (10, "Strategy debugging"),
        (13, "Code candidates"), (15, "Code debugging"), (16, "Reflection"), (17, "Code debugging")]


def test_the_model_is_told_only_of_the_failed_task_whose_feedback_was_sent() -> None:
    """A program fails on two tasks; the pipeline reflects on the first: the caption of the second does not say
    the model will be told (it never is), the first's does, whole (the unmet precondition is at the end)."""
    message = ("The action (debark c0 l1) at step 1 is not executable because the preconditions of the action are not "
               "satisfied: At that specific step - it is not the case that (on c0)")

    def check(task: str) -> TimelineEntry:
        return TimelineEntry(task, "check", "check", task, status="fail", event=ValidationResult(
            what="program", version="c1-v00", task=task, valid=False, kind="unsatisfied-precondition", message=message))

    first, second = check("task-02"), check("task-03")
    reflect = TimelineEntry("r", "request", "code.reflect", step="code.reflect",
                            event=RequestSent(step="code.reflect", task="task-02", version="c1-v00"))
    timeline = [first, second, reflect]
    assert stage_caption(first, timeline).endswith("the model is told: " + message)
    assert "(on c0)" in stage_caption(first, timeline)
    assert stage_caption(second, timeline).endswith(
        "not fed back: the model is told of task-02 instead (one failed task per round).")
    assert "will be told" not in stage_caption(second, timeline)
    # while the run goes on and nothing was sent yet: it may be
    assert "if the pipeline picks this task, the model will be told: " in stage_caption(second, [first, second], live=True)
    # a finished run that never sent it
    assert stage_caption(second, [first, second]).endswith("not fed back: the run went on without it.")


def test_a_selection_caption_names_the_artefact_it_keeps() -> None:
    strategy = TimelineEntry("s", "selection", "select", event=SelectionMade(kind="strategy", version="v02"))
    program = TimelineEntry("p", "selection", "select", event=SelectionMade(kind="program", version="c1-v01"))
    assert stage_caption(strategy).startswith("Selection: the strategy (v02) that passed the debug tasks is kept")
    assert "program" not in stage_caption(strategy).split(";")[0]
    assert stage_caption(program) == "Selection: the program (c1-v01) that solves the most debug tasks is kept."


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_classroom_mode_is_a_calmer_layout_with_the_caption_in_view(size: tuple[int, int], recorded: Path,
                                                                          tmp_path: Path,
                                                                          isolated: Path) -> None:  # noqa: F811
    """--classroom puts a class on the app: the timeline narrows so the answer gets the width (with more room
    around it), the debug results table steps back behind its one-line summary, and the caption wraps in full
    under the timeline. L takes all of it away and brings it back."""
    domain, run = copy_of(recorded, tmp_path)
    app = make_app(domain, config_for(isolated, None), run=run.name, classroom=True)
    async with app.run_test(size=size) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done", what="the run")
        await pilot.press("4")
        await pilot.pause(0.3)
        width, height = size
        timeline, results = app.query_one("#run-timeline"), app.query_one("#run-results")
        caption, stream = app.query_one("#classroom-caption"), app.query_one("#stream-markdown")
        assert app.has_class("classroom")
        assert not results.display and app.query_one("#results-title").display
        assert timeline.region.width <= width * 0.4 and stream.region.width >= width * 0.5
        assert stream.styles.padding.left == 3
        entries = app.runner.state.entries
        failed = next(i for i, e in enumerate(entries) if e.kind == "check" and e.status == "fail")
        timeline.focus()
        timeline.move_cursor(row=failed)
        await pilot.pause(0.3)
        # the whole caption is on screen: wrapped, not cut, and inside the window
        text = str(caption.render())
        assert text.startswith("Strategy debugging: the plan for") and "the model is told: " in text
        assert caption.display and caption.region.height >= 1 and caption.region.bottom <= height - 2
        shown = "".join(strip.text for strip in caption.render_lines(caption.region.reset_offset))
        if width == 80:
            assert caption.region.height >= 2  # wrapped
        # whole: the unmet precondition, at the end of the message, is on screen
        check = entries[failed].event
        assert isinstance(check, ValidationResult) and check.message
        assert " ".join(shown.split()).endswith(" ".join(str(check.message).split()))
        assert " ".join(shown.split()).startswith("Strategy debugging: the plan for")
        await pilot.press("L")
        await pilot.pause(0.3)
        assert not app.has_class("classroom") and not caption.display and results.display
        assert timeline.region.width > width * 0.5 and stream.styles.padding.left == 1
        await pilot.press("L")
        await pilot.pause(0.3)
        assert app.has_class("classroom") and caption.display and not results.display
