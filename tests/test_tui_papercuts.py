"""Papercuts a teacher in front of a class or a researcher at 80x24 meets at once (issue 28), each through the
app: no `x Rerun` on a PDDLego+ trial, the status column at 80x24, the open run's preset in the totals, tokens
that imported runs do not record, runs outside the domain watched, a short note for an unpriced model."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import (  # noqa: F401
    config_for,
    ferry_copy,
    isolated,
    make_app,
    ready,
    record_run,
    wait_for,
)

from genplan.cli.main import main
from genplan.engine.events import RequestSent, ResponseReceived, RunFinished, RunStarted
from genplan.engine.runs.store import RunStore
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.totals_bar import UNPRICED_NOTE, UNPRICED_TOAST

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
TRIAL = (SHARED / "pddlego-plus" / "output" / "CoinCollector" / "CC_PDDLego+_4o"
         / "2025-04-30_gpt-4o-2024-05-13_PDDL_detailed_11_102.txt")


def logged_run(domain: Path, preset: str, responses: list[dict], model: str = "some-model") -> Path:
    """A run directory with an event log as the engine writes it (requests answered as ``responses`` say)."""
    store = RunStore.create(RunStore.runs_dir(domain), {"config": {"preset": preset}, "model": {"model": model}})
    start = time.time()
    store.append_event(RunStarted(preset=preset, time=start, seq=1))
    seq = 2
    for number, response in enumerate(responses, start=1):
        store.append_event(RequestSent(request_id=number, step="strategy.generate", time=start + number, seq=seq))
        store.append_event(ResponseReceived(request_id=number, step="strategy.generate", time=start + number + 0.5,
                                            seq=seq + 1, **response))
        seq += 2
    store.append_event(RunFinished(status="finished", time=start + len(responses) + 1, seq=seq))
    store.update_meta(status="finished")
    return store.path


def key_bar_text(app) -> str:  # noqa: ANN001
    return str(app.screen.query_one(KeyBar).render())


def totals_text(app) -> str:  # noqa: ANN001
    return str(app.query_one("#totals").render())


def import_trial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    if not TRIAL.is_file():
        pytest.skip(f"the PDDLego+ release is not beside the checkout ({TRIAL})")
    assert main(["import", "pddlego", str(TRIAL), "--env", "logged", "--out", str(tmp_path / "out"), "--json"]) == 0
    return Path(json.loads(capsys.readouterr().out)["run_dir"])


async def test_a_trial_offers_no_rerun_and_shows_its_preset_and_unknown_tokens(
        tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    run = import_trial(tmp_path, capsys)
    preset = json.loads((run / "run.json").read_text())["config"]["preset"]
    assert preset and preset != "F5-3"  # the trial's own (PDDLego+), not the app's default
    app = make_app(run.parent, config_for(isolated, None), runs_dir=run.parent, no_domain=True, run=run.name)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done"
                       and app.query_one("#run-timeline").row_count > 3, what="the trial's timeline")
        await pilot.press("4")
        await pilot.pause(0.2)
        bar = key_bar_text(app)
        assert "Show" in bar and "Rerun" not in bar  # the timeline's keys, without x
        await pilot.press("x")  # and x does nothing (no hint meant for programs)
        await pilot.pause(0.2)
        assert not any("rerun" in n.message.lower() for n in app.messages)
        await pilot.press("5")
        await wait_for(pilot, lambda: app.query_one("#versions-panel").versions, what="the trial's versions")
        panel = app.query_one("#versions-panel")
        assert panel.select(app.ctx.version_index.of_run(run.name)[0].key)
        await pilot.pause(0.2)
        assert "Rerun" not in key_bar_text(app) and "Compare" in key_bar_text(app)
        # the totals: the trial's own preset (not the app's F5-3), and its tokens unknown, not 0
        await wait_for(pilot, lambda: f"· {preset} ·" in totals_text(app), what="the trial's preset in the totals")
        full = app.query_one("#totals").full_text  # at 80 columns the state, run, preset and model come first
        assert "tokens n/a" in full and "tokens 0" not in full


async def test_a_program_run_keeps_rerun_and_a_replay_shows_the_runs_tokens(
        tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        run = record_run(domain, server, FerryModel(), preset="F3-6", initial_programs=1)
    recorded = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    tokens = sum((e["data"].get("tokens_in") or 0) + (e["data"].get("tokens_out") or 0) for e in recorded
                 if e["type"] == "response.received")
    assert tokens > 0
    app = make_app(domain, config_for(isolated, None), replay=run.name, speed=64.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.replay.replayer is not None and app.replay.replayer.finished, timeout=60,
                       what="the replay to end")
        await wait_for(pilot, lambda: app.runner.state.totals.tokens == tokens, what="the replayed tokens")
        assert app.runner.state.totals.tokens_known
        # the totals bar's own tick (every second) shows the run's preset, not the app's
        await wait_for(pilot, lambda: "· F3-6 ·" in totals_text(app), what="the run's preset in the totals")
        assert "F5-3" not in totals_text(app)
        assert "Rerun" in key_bar_text(app)  # a program run's timeline keeps x


async def test_the_status_column_keeps_answered_whole_at_80x24(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    answers = [{"human": n % 3 == 1, "tokens_in": 100, "tokens_out": 20, "cost_usd": 0.001} for n in range(30)]
    run = logged_run(domain, "F3-6", answers)
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        timeline = app.query_one("#run-timeline")
        await wait_for(pilot, lambda: timeline.row_count == 32, what="the run's rows")
        await pilot.pause(0.3)
        timeline.move_cursor(row=1)  # a human answer's row near the top, with the scroll bar shown
        await pilot.pause(0.3)
        lines = ["".join(s.text for s in timeline.render_line(y)) for y in range(timeline.size.height)]
        shown = [line for line in lines if "strategy.generate" in line]
        assert shown and any(line.rstrip().endswith("answered") for line in shown)
        assert not any("answer…" in line or "answere" in line.replace("answered", "") for line in lines)
        assert all(len(line) <= timeline.scrollable_content_region.width for line in lines)


async def test_an_unpriced_model_gets_one_short_note(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    run = logged_run(domain, "F3-6", [{"tokens_in": 10, "tokens_out": 5}] * 3, model="a-model-without-price")
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.totals.calls == 3,
                       what="the run's calls")
        await wait_for(pilot, lambda: app.messages, what="the note")
        notes = [n for n in app.messages if "price" in n.message or "cost" in n.message.lower()]
        assert [n.message for n in notes] == [UNPRICED_TOAST]
        assert len(UNPRICED_TOAST) <= 60 and notes[0].timeout <= 5 and not notes[0].title
        assert not any(UNPRICED_NOTE[:30] in n.message for n in app.messages)
        # the totals still say it (whole at 110 columns, beside the run's own model name, which the bar names now
        # where it said "you answer"; at 80 the state, run, preset and model come first), and their tooltip
        # explains it
        assert "+3 unpriced" in app.query_one("#totals").full_text
        await pilot.resize_terminal(110, 24)
        await pilot.pause(1.2)
        assert "+3 unpriced" in totals_text(app)
        assert UNPRICED_NOTE.split("—")[0].strip() in str(app.query_one("#totals").tooltip)


async def test_runs_in_a_directory_outside_the_domain_are_watched(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        recorded = record_run(domain, server, FerryModel(), preset="F3-6", initial_programs=1)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    first = outside / recorded.name
    shutil.copytree(recorded, first)
    app = make_app(domain, config_for(isolated, None), runs_dir=outside, watch_files=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: [r.run_id for r in app.ctx.runs] == [first.name], what="the first run")
        await wait_for(pilot, lambda: app.versions.watcher is not None, what="the watcher")
        await pilot.pause(0.5)
        # a new version in the run (a program written by another process)
        (first / "programs" / "c1-v07.py").write_text("def generate_solution(objects, init, goal):\n    return []\n")
        await wait_for(pilot, lambda: app.ctx.version_index.get(f"{first.name}/program/c1-v07") is not None,
                       timeout=10, what="the new program indexed")
        # a new run made by another genplan process
        second = outside / "20990101-000000-abcd"
        shutil.copytree(recorded, second)
        await wait_for(pilot, lambda: second.name in [r.run_id for r in app.ctx.runs], timeout=10,
                       what="the new run listed")
        await wait_for(pilot, lambda: app.ctx.version_index.of_run(second.name), timeout=10,
                       what="the new run's versions")
