"""A replay of an AutoToS run and of a PDDLego+ trial streams the answers the model really gave (the gateway's
``responses/NNNN-<step>.md``), and an AutoToS run made before AutoToS asked through the gateway (its answers only
in ``versions/succ-N.answer.txt``) replays its answers too. The runs are made here against the scripted server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry
from test_autotos_pddl import FERRY, FERRY_BOARD_KEEPS_EMPTY, GOAL

from genplan.engine.events import ResponseReceived, TextDelta
from genplan.engine.llm import ModelSettings, OpenAIProvider
from genplan.engine.pddlego.environment import java_available
from genplan.tui.replay import Replayer, load_events, recorded_answer


def _streamed(run_dir: Path) -> tuple[dict[int, str], list[ResponseReceived]]:
    """Every event of the run handed out by the replayer, one step at a time: the text streamed per request."""
    events = load_events(run_dir)
    deltas: dict[int, str] = {}

    def sink(event) -> None:
        if isinstance(event, TextDelta):
            deltas[event.request_id] = deltas.get(event.request_id, "") + event.text

    replayer = Replayer(run_dir, events, sink)
    while replayer.step() is not None:
        pass
    return deltas, [e for e in events if isinstance(e, ResponseReceived)]


def _provider(server: ScriptedServer) -> OpenAIProvider:
    return OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005))


@pytest.fixture(scope="module")
def recorded_autotos_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """One AutoToS run made against a scripted server, shared by the tests of this module (each test that
    changes it works on a copy): its run directory and the requests the server received."""
    from genplan.engine import api

    with ScriptedServer() as server:
        server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY])
        server.on_step("autotos.goal", [GOAL])
        request = api.StartRequest("AutoToS", str(small_ferry()), tmp_path_factory.mktemp("autotos") / "runs",
                                   parameters={"evaluate": False})
        settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005)
        summary = api.report(api.start(request, settings, no_cache=True)).to_json()
        assert summary["status"] == "finished" and summary["calls"] == 3
        return Path(summary["run_dir"]), list(server.requests)


@pytest.fixture
def autotos_run(recorded_autotos_run: tuple[Path, list], tmp_path: Path) -> Path:
    """A copy of the recorded run of this module that a test may change."""
    copy = tmp_path / "runs" / recorded_autotos_run[0].name
    shutil.copytree(recorded_autotos_run[0], copy)
    return copy


def test_a_replayed_autotos_run_streams_the_models_answers(recorded_autotos_run: tuple[Path, list]) -> None:
    autotos_run, requests = recorded_autotos_run
    deltas, responses = _streamed(autotos_run)
    answers = [FERRY_BOARD_KEEPS_EMPTY, GOAL, FERRY]
    assert [r.file for r in responses] == ["responses/0001-autotos.succ.md", "responses/0002-autotos.goal.md",
                                           "responses/0003-autotos.succ.md"]
    assert [deltas[r.request_id] for r in responses] == answers
    # the requests on disk are the conversations sent
    sent = json.loads((autotos_run / "requests" / "0003-autotos.succ.json").read_text())
    assert sent["messages"] == requests[2].messages


def test_an_autotos_run_of_before_replays_its_answers_from_its_versions(autotos_run: Path) -> None:
    # the layout AutoToS runs had before they asked through the gateway: answers named by versions/*.answer.txt
    log = autotos_run / "events.jsonl"
    text = log.read_text()
    for old, new in (("responses/0001-autotos.succ.md", "versions/succ-1.answer.txt"),
                     ("responses/0002-autotos.goal.md", "versions/goal-1.answer.txt"),
                     ("responses/0003-autotos.succ.md", "versions/succ-2.answer.txt")):
        text = text.replace(old, new)
    log.write_text(text)
    shutil.rmtree(autotos_run / "responses")
    deltas, responses = _streamed(autotos_run)
    assert recorded_answer(autotos_run, responses[0]) == FERRY_BOARD_KEEPS_EMPTY
    assert [deltas[r.request_id] for r in responses] == [FERRY_BOARD_KEEPS_EMPTY, GOAL, FERRY]


@pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")
def test_a_replayed_pddlego_trial_streams_the_models_answers(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    from test_pddlego_loop import TO_BACKYARD, TO_PANTRY
    from test_pddlego_loop import run as run_trial

    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    store, result = run_trial(scripted_server, tmp_path)
    assert result.outcome == "success"
    deltas, responses = _streamed(Path(store.path))
    assert [deltas[r.request_id] for r in responses] == [TO_PANTRY, TO_BACKYARD]
