"""A person's edit of a run that is going on: one log, one numbering.

The run's bus numbers its events; an edit appended beside it would take the number of the bus's next event.
So an edit of a run going on in this process is logged by that run's bus, one of a run another process runs is
refused before anything is written, and a resumed run's replay goes on past an edit made in the middle of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cli_process import genplan
from support.held_lock import lock_held_elsewhere
from support.scripted_server import ScriptedServer

from genplan.engine import api
from genplan.engine.events import ArtifactEdited, Event, Notice, StepFinished, StepStarted
from genplan.engine.llm import ModelSettings, make_provider
from genplan.engine.runs.edits import EditRefused
from genplan.engine.runs.run import Run, RunOutcome, RunSetup, execute, stopped_outcome
from genplan.engine.runs.store import RunStore

STRATEGY = "strategies/v01.md"


def _logged(run_dir: Path) -> list[tuple[int, str]]:
    lines = (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return [(entry["seq"], entry["type"]) for entry in map(json.loads, lines)]


def _store(root: Path) -> RunStore:
    store = RunStore.create(root, {"approach": "stein"})
    store.write_text(STRATEGY, "1. Board the car.\n2. Sail.\n")
    return store


def _run(store: RunStore, server: ScriptedServer, seen: list[Event]) -> Run:
    settings = ModelSettings(model=server.model, base_url=server.base_url)
    return Run(store, RunSetup(make_provider(settings, no_cache=True), subscribers=(seen.append,)))


def _body(*steps: Callable[[Run], object]) -> Callable[[Run], RunOutcome]:
    def body(run: Run) -> RunOutcome:
        for step in steps:
            step(run)
        return stopped_outcome("stopped by the test")
    return body


def test_an_edit_of_a_run_going_on_here_is_numbered_by_its_bus(tmp_path: Path) -> None:
    store, seen, records = _store(tmp_path / "runs"), [], []
    with ScriptedServer() as server:
        execute(_run(store, server, seen), _body(
            lambda run: run.publish(StepStarted(phase="strategy")),
            lambda run: records.append(api.edit(run.path, STRATEGY, "1. Board the car.\n2. Sail back.\n")),
            lambda run: run.publish(StepFinished(phase="strategy")),
        ))
    logged = _logged(store.path)
    assert [seq for seq, _ in logged] == list(range(1, len(logged) + 1))  # each number once, in order
    assert [kind for _, kind in logged] == ["step.started", "artifact.edited", "step.finished", "run.finished"]
    record = records[0]
    assert record is not None and record.published and record.seq == 2 and record.file == "strategies/v02.md"
    edits = [event for event in seen if isinstance(event, ArtifactEdited)]
    assert [(event.seq, event.file) for event in edits] == [(2, "strategies/v02.md")]  # the watchers, once
    assert api.edit(store.path, STRATEGY, "3. Sail.\n").seq == 5  # not running: appended after the log's last


def test_a_resumed_run_replays_on_past_an_edit_made_during_its_replay(tmp_path: Path) -> None:
    store, seen = _store(tmp_path / "runs"), []
    first = (lambda run: run.publish(StepStarted(phase="strategy")),
             lambda run: run.publish(Notice(message="the first part")))
    with ScriptedServer() as server:
        execute(_run(store, server, []), _body(*first))
        assert [kind for _, kind in _logged(store.path)] == ["step.started", "notice", "run.finished"]
        execute(_run(store, server, seen), _body(
            first[0],
            lambda run: api.edit(run.path, STRATEGY, "edited while the run replays\n"),
            first[1],
            lambda run: run.publish(Notice(message="new")),
        ))
    logged = _logged(store.path)
    # the two events published again are not logged again; the edit and what is new follow the log's end, the
    # new part after the mark of the resume
    assert logged == [(1, "step.started"), (2, "notice"), (3, "run.finished"), (4, "artifact.edited"),
                      (5, "run.resumed"), (6, "notice"), (7, "run.finished")]
    assert [(type(event).__name__, event.seq) for event in seen][:3] == [
        ("StepStarted", 1), ("ArtifactEdited", 4), ("Notice", 2)]


def test_an_edit_of_a_run_another_process_runs_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    store = _store(tmp_path / "runs")
    with lock_held_elsewhere(store.path) as holder:
        before = sorted(p.name for p in (store.path / "strategies").iterdir())
        with pytest.raises(EditRefused, match=rf"another process runs it \(pid {holder.pid}\); edit it once"):
            api.edit(store.path, STRATEGY, "an edit\n")
        new_text = tmp_path / "new.md"
        new_text.write_text("an edit by the command line\n", encoding="utf-8")
        cli = genplan("edit", str(store.path), STRATEGY, str(new_text), home=tmp_path)
        assert cli.returncode == 2 and cli.stdout == ""
        assert cli.stderr.splitlines() == [f"genplan: {store.path.name}: another process runs it (pid {holder.pid}); "
                                           "edit it once that run has stopped"]
        assert sorted(p.name for p in (store.path / "strategies").iterdir()) == before == ["v01.md"]
        assert _logged(store.path) == []
    record = api.edit(store.path, STRATEGY, "an edit\n")  # the run has stopped: the edit is kept
    assert record is not None and (record.file, record.seq, record.published) == ("strategies/v02.md", 1, False)
