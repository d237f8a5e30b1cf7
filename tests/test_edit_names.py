"""A person's edit and the pipeline's next version never share a name.

The pipeline numbers its versions by its own count (strategies/v02.md after v01, programs/c1-v01.py after
c1-v00); an edit takes the next free name. An edit made while the run waits for its next answer (the TUI in step
mode), or made on a stopped run that is then resumed, takes the name the run's count gives its next version: the
run then writes its version under the next name after it, and the person's file stays the person's text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, CRASHING_PROGRAM, FERRY, FerryModel
from support.scripted_server import RecordedRequest, Reply, ScriptedServer

from genplan.engine import api
from genplan.engine.api import pipeline as pipeline_on
from genplan.engine.approaches.presets import load_preset
from genplan.engine.domainlib import DomainDir
from genplan.engine.events import ArtifactCreated, ArtifactEdited
from genplan.engine.llm import ModelAccessError, ModelSettings, make_provider
from genplan.engine.pipeline import Pipeline
from genplan.engine.runs.edits import next_version_name
from genplan.engine.runs.store import RunStore

PERSON_STRATEGY = "1. The person's own strategy: carry every car straight to its goal.\n"
PERSON_PROGRAM = CORRECT_PROGRAM.replace("plan = []", "plan = []  # the person's edit")


def _pipeline(server: ScriptedServer, store: RunStore) -> Pipeline:
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    return pipeline_on(DomainDir.open(FERRY), load_preset("F5-3"), make_provider(settings, no_cache=True), store)


def _created(store: RunStore, directory: str) -> list[str]:
    return [e.file for e in store.events() if isinstance(e, ArtifactCreated) and e.file.startswith(directory)]


def _edits(store: RunStore) -> list[tuple[str, str]]:
    return [(e.edited, e.file) for e in store.events() if isinstance(e, ArtifactEdited)]


def test_an_edit_made_while_the_run_waits_keeps_its_name_and_the_run_writes_the_next(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    store = RunStore.create(tmp_path, {"config": load_preset("F5-3").to_dict()})
    saved: dict[str, str] = {}

    def edit_while_waiting(request: RecordedRequest) -> Reply | str | None:
        # the run has written the version the reflection is about and waits for this answer
        if request.step == "strategy.reflect" and "strategy" not in saved:
            saved["strategy"] = api.edit(store.path, "strategies/v01.md", PERSON_STRATEGY).file
        if request.step == "code.reflect" and "program" not in saved:
            saved["program"] = api.edit(store.path, "programs/c1-v00.py", PERSON_PROGRAM).file
        return None

    scripted_server.respond_with(FerryModel(strategy_plan_mistakes=1, programs=[CRASHING_PROGRAM, CORRECT_PROGRAM],
                                            extra=edit_while_waiting))
    result = _pipeline(scripted_server, store).run()

    assert saved == {"strategy": "strategies/v02.md", "program": "programs/c1-v01.py"}
    assert (store.path / "strategies/v02.md").read_text() == PERSON_STRATEGY
    assert (store.path / "programs/c1-v01.py").read_text() == PERSON_PROGRAM
    # the run's revisions: the next names after the person's
    assert _created(store, "strategies/") == ["strategies/v01.md", "strategies/v03.md"]
    assert _created(store, "programs/") == ["programs/c1-v00.py", "programs/c1-v02.py"]
    assert "version 2" in (store.path / "strategies/v03.md").read_text()
    assert result.strategy_versions == 2 and result.debug_solved == 6
    # the run's records name its own versions: results, the selection, the summary
    assert (store.path / "results/strategy-v03.json").is_file()
    assert not (store.path / "results/strategy-v02.json").exists()
    assert any(e.type == "selection.made" and e.data["version"] == "v03" for e in store.events())
    summary = json.loads((store.path / "summary.json").read_text())
    assert summary["selected_program"].endswith("programs/c1-v02.py")
    assert _edits(store) == [("strategies/v01.md", "strategies/v02.md"), ("programs/c1-v00.py", "programs/c1-v01.py")]
    # the next edit takes a name neither has
    assert next_version_name(store.path, "strategies/v01.md") == "strategies/v04.md"

    # a fork from the run's program names the versions before it as the source does: the run's revision is v03
    # there too (it was "v02", which in the source is the person's different text), and v02 is no name of its own
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url, retry_base_delay_s=0.01)
    fork = api.fork(store.path, "programs/c1-v00.py", "program", CORRECT_PROGRAM)
    api.resume(fork, settings, no_cache=True, domain_dir=FERRY)
    forked = RunStore(fork)
    assert _created(forked, "strategies/") == ["strategies/v01.md", "strategies/v03.md"]
    assert (fork / "strategies/v03.md").read_text() == (store.path / "strategies/v03.md").read_text()
    assert not (fork / "strategies/v02.md").exists()


def test_a_stopped_run_edited_then_resumed_writes_past_the_edit_and_again_on_a_second_resume(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    store = RunStore.create(tmp_path, {"config": load_preset("F5-3").to_dict()})
    model = FerryModel(strategy_plan_mistakes=1)
    fail_reflection = {"on": True}

    def reflection_fails(request: RecordedRequest) -> Reply | str | None:
        if request.step == "strategy.reflect" and fail_reflection["on"]:
            return Reply.error(400, "the scripted server refuses the reflection")
        return None

    model.extra = reflection_fails
    scripted_server.respond_with(model)
    with pytest.raises(ModelAccessError, match="refuses the reflection"):
        _pipeline(scripted_server, store).run()
    assert store.meta()["status"] == "failed"
    assert _created(store, "strategies/") == ["strategies/v01.md"]
    record = api.edit(store.path, "strategies/v01.md", PERSON_STRATEGY)  # no process runs it now
    assert record is not None and record.file == "strategies/v02.md" and not record.published

    fail_reflection["on"] = False
    _pipeline(scripted_server, RunStore.open(store.path)).run()
    assert (store.path / "strategies/v02.md").read_text() == PERSON_STRATEGY
    assert _created(store, "strategies/") == ["strategies/v01.md", "strategies/v03.md"]
    assert _edits(store) == [("strategies/v01.md", "strategies/v02.md")]

    # resumed once more (nothing left to ask): the same names again, the person's file untouched
    asked = len(scripted_server.requests)
    _pipeline(scripted_server, RunStore.open(store.path)).run()
    assert len(scripted_server.requests) == asked
    assert (store.path / "strategies/v02.md").read_text() == PERSON_STRATEGY
    assert sorted(p.name for p in (store.path / "strategies").iterdir()) == ["v01.md", "v02.md", "v03.md"]


def test_an_edit_takes_the_next_free_name_and_none_the_run_has_chosen(tmp_path: Path) -> None:
    for name in ("strategies/v01.md", "strategies/v03.md", "programs/c2-v00.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    assert next_version_name(tmp_path, "strategies/v01.md") == "strategies/v04.md"
    assert next_version_name(tmp_path, "programs/c2-v00.py") == "programs/c2-v01.py"
    assert next_version_name(tmp_path, "reflections/code-c1-v00.md") == "reflections/code-c1-v00-edit1.md"
    # names the run going on has chosen, written or not, are not free either
    taken = {"strategies/v04.md", "programs/c2-v01.py", "reflections/code-c1-v00-edit1.md"}
    assert next_version_name(tmp_path, "strategies/v01.md", taken) == "strategies/v05.md"
    assert next_version_name(tmp_path, "programs/c2-v00.py", taken) == "programs/c2-v02.py"
    assert next_version_name(tmp_path, "reflections/code-c1-v00.md", taken) == "reflections/code-c1-v00-edit2.md"
