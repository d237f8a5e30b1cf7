"""An AutoToS run in the TUI: made by replaying a published 24 Game log through `genplan import autotos`, it is
listed, opens and replays; the timeline shows each model call, each unit-test round (check, category, the
failing test) with the feedback the engine wrote, the checks that passed and the evaluation; the Versions panel
lists succ-N and goal-N, and two of them compare side by side like program versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tui_support import config_for, isolated, make_app, ready, wait_for  # noqa: F401
from textual.coordinate import Coordinate

from genplan.cli.main import main as genplan_main
from genplan.engine.api import NotResumable, resumable
from genplan.engine.events import EvaluationProgress, FeedbackRound, RequestSent, UnknownEvent
from genplan.tui import run_state
from genplan.tui.main import runs_of
from genplan.tui.replay import load_events
from genplan.tui.screens.compare import CompareScreen
from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.pick import NoticeScreen
from genplan.tui.widgets.diff_view import DiffView
from genplan.tui.widgets.panels import RunsPanel, RunsTable, RunTimeline, VersionsPanel
from genplan.tui.widgets.stream_view import StreamView

AUTOTOS = Path(__file__).resolve().parents[1].parent / "shared" / "autotos"
# six calls: four soundness rounds (succ exceptions) before succ-5 passes every check
LOG = AUTOTOS / "clean_logs" / "24game" / "gpt4-mini-val_logs" / "script_log_20240802_234857.txt"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The runs directory and the import's summary."""
    if not LOG.is_file():
        pytest.skip(f"the AutoToS release is not beside the checkout ({LOG} not found)")
    runs = tmp_path_factory.mktemp("autotos") / "runs"
    code = genplan_main(["import", "autotos", str(LOG), "--data", str(AUTOTOS), "--runs", str(runs),
                         "--eval-limit", "10", "--quiet", "--json"])
    assert code == 0
    (run_dir,) = runs.iterdir()
    return runs, json.loads((run_dir / "import.json").read_text())  # what the import printed, and more


def _state(run_dir: Path) -> run_state.RunState:
    state = run_state.RunState(run_dir)
    for event in load_events(run_dir):
        state.apply(event)
    return state


def test_the_run_reads_as_calls_rounds_checks_and_evaluation(imported) -> None:
    runs, summary = imported
    run_dir = Path(summary["run_dir"])
    events = load_events(run_dir)
    assert events and not any(isinstance(e, UnknownEvent) for e in events)
    state = _state(run_dir)
    requests = [e for e in state.entries if e.kind == "request"]
    assert len(requests) == summary["calls"] == sum(isinstance(e, RequestSent) for e in events) == 6
    assert all(e.status == "done" and e.response_file is not None for e in requests)
    assert state.response_text(requests[0].request_id).strip() == \
        (run_dir / "versions" / "succ-1.answer.txt").read_text().strip()  # the answer, as the model gave it
    logged_rounds = [e for e in events if isinstance(e, FeedbackRound)]
    rounds = [e for e in state.entries if e.kind == "round"]
    assert len(rounds) == len(logged_rounds) == sum(summary["categories"].values()) == 4
    for entry, logged in zip(rounds, logged_rounds):
        assert entry.status == "fail" and entry.title == f"round {logged.number}: {logged.phase} failed"
        assert logged.category in entry.detail and f"on {run_state.failure_value(logged.failure['state'])}" in entry.detail
        text = run_state.round_text(entry)
        # the feedback as the engine wrote it (not recomputed), the check and the failing test
        assert logged.feedback.rstrip("\n") in text and logged.check in text
        assert f"state: {json.dumps(logged.failure['state'])}" in text
    passed = [e.title for e in state.entries if e.kind == "passed"]
    assert passed[-3:] == ["goal tests passed", "soundness tests passed", "completeness tests passed"]
    (evaluation,) = [e for e in state.entries if e.kind == "evaluation"]
    last = [e for e in events if isinstance(e, EvaluationProgress)][-1]
    assert evaluation.status == "done" and evaluation.detail == f"10/10 instances searched, {last.solved} solved"
    assert state.status == "done" and state.entries[-1].title == "run finished"
    assert state.entries[-1].detail == f"unit tests passed after 6 calls; {last.solved}/10 solved"
    functions = [e for e in state.entries if e.kind == "artifact"]
    assert [e.title for e in functions] == ["function succ-1", "function goal-1", *(f"function succ-{k}" for k in range(2, 6))]


def test_an_imported_autotos_run_is_not_continued(imported) -> None:
    _runs, summary = imported
    with pytest.raises(NotResumable, match="an imported run"):
        resumable(Path(summary["run_dir"]))


def test_the_tui_takes_a_runs_directory_or_one_run(imported, tmp_path: Path) -> None:
    runs, summary = imported
    run_dir = Path(summary["run_dir"])
    assert runs_of(runs) == (runs, None)
    assert runs_of(run_dir) == (runs, run_dir)
    assert runs_of(tmp_path) is None  # neither: the domain's error stands


async def test_the_run_is_listed_opens_and_its_versions_compare(imported, isolated: Path) -> None:  # noqa: F811
    runs, summary = imported
    run_dir = Path(summary["run_dir"])
    app = make_app(runs, config_for(isolated, None), runs_dir=runs, no_domain=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        assert app.ctx.domain_info is not None and "No domain" in app.ctx.domain_info.describe()
        assert not app.query_one("#domain-code").display  # no empty PDDL editor under the note
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one(RunsPanel).selected() == run_dir.name, what="the run in 3 Runs")
        assert str(runs) in str(app.query_one("#runs-title").render())
        solved = f"{summary['success']}/{summary['success'] + summary['failure']} solved"  # the evaluation's count
        assert str(app.query_one(RunsTable).get_cell_at(Coordinate(0, 1))) == f"finished · {solved}"
        await pilot.press("enter")
        state = app.runner.state
        await wait_for(pilot, lambda: state is not None and state.status == "done" and not app.runner.events
                       and app.query_one(RunTimeline).row_count == len(state.entries), what="the run's timeline")
        assert sum(e.kind == "round" for e in state.entries) == 4
        # a round's row shows the check, the failing test and the feedback
        index = next(i for i, e in enumerate(state.entries) if e.kind == "round")
        round_event = state.entries[index].event
        assert isinstance(round_event, FeedbackRound)
        feedback = round_event.feedback
        timeline = app.query_one(RunTimeline)
        timeline.move_cursor(row=index)
        timeline.focus()
        await pilot.press("enter")
        stream = app.query_one(StreamView)
        await wait_for(pilot, lambda: feedback.splitlines()[0] in stream.text, what="the round's feedback")
        assert "The failing test" in stream.text and "succ-exception" in stream.text
        # the versions of both functions, one group each
        panel = app.query_one(VersionsPanel)
        await pilot.press("5")
        await wait_for(pilot, lambda: panel.versions, what="the versions")
        names = sorted(v.name for v in app.ctx.version_index.of_run(run_dir.name))
        assert names == ["goal-1", *(f"succ-{k}" for k in range(1, 6))]
        assert {v.kind for v in app.ctx.version_index.of_run(run_dir.name)} == {"function"}
        assert panel.select(f"{run_dir.name}/function/succ-2")
        await pilot.pause()
        await pilot.press("c")  # no mark: the chosen version against the one before it
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="the compare screen")
        view = app.screen.query_one(DiffView)
        assert any(row.tag == "replace" for row in view.rows)
        assert "succ-1" in str(app.screen.query_one("#compare-left").render())
        assert "succ-2" in str(app.screen.query_one("#compare-right").render())
        await pilot.press("escape")
        await pilot.press("e")  # an import does not continue: a notice says so (and takes the keys meant for an editor)
        await wait_for(pilot, lambda: isinstance(app.screen, NoticeScreen), what="the notice")
        assert len(app.screen_stack) == 2 and not any(isinstance(s, EditorScreen) for s in app.screen_stack)
        assert str(app.screen.query_one("#notice-title").render()) == "No editor opened"
        notice = str(app.screen.query_one("#notice-text").render())
        assert "an imported run that cannot be continued from an edit: a run of autotos that records no parameters" \
            in notice
        assert notice.endswith("c compares the files, h shows their history.")
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1, what="the notice to close")
        assert any("an imported run" in m.message for m in app.messages)


async def test_the_run_replays_event_by_event(imported, isolated: Path) -> None:  # noqa: F811
    runs, summary = imported
    run_dir = Path(summary["run_dir"])
    logged = load_events(run_dir)
    app = make_app(runs, config_for(isolated, None), runs_dir=runs, no_domain=True, replay=run_dir.name, speed=0.1)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None, what="the replay")
        await pilot.press("space")  # pause (the run took about a second: at 0.1 it replays in ten), then step
        await wait_for(pilot, lambda: app.replay.replayer.paused, what="the pause")
        held = app.replay.replayer.position
        app.replay.step()
        assert app.replay.replayer.position == held + 1
        await pilot.press("space")
        app.replay.replayer.clock.speed = 1000.0
        await wait_for(pilot, lambda: app.replay.replayer.finished, timeout=60, what="the end of the replay")
        state = app.runner.state
        await wait_for(pilot, lambda: not app.runner.events and state.status == "done", what="the last events shown")
        assert sum(e.kind == "round" for e in state.entries) == sum(isinstance(e, FeedbackRound) for e in logged)
        assert sum(e.kind == "request" for e in state.entries) == summary["calls"]
