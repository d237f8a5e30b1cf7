"""Run directories made by genplan's code of commit 6a70564 -- before the one ``Run`` context and the front-end
API (engine/api.py) -- still open, replay and resume with today's code (migrate on read).

The fixtures (tests/data/runs/*-6a70564, described in its README) were made by
tests/data/runs/make_old_runs.py with that commit's code against the scripted server: synthetic answers, not
model output. Each test works on a copy in tmp_path. An unfinished run resumes through ``api.resume`` against a
scripted server that has only the answers still missing: its request log shows that no request answered on disk
was sent again, and the run ends finished.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from support.ferry_model import FerryModel
from support.scripted_server import Reply, ScriptedServer
from support.small_ferry import small_ferry, small_ferry_copy
from test_autotos_pddl import FERRY, GOAL
from test_pddlego_loop import TO_BACKYARD

from genplan.engine import api
from genplan.engine.events import Event, RequestSent, ResponseReceived, TextDelta
from genplan.engine.llm import ModelSettings
from genplan.engine.pddlego.environment import java_available
from genplan.engine.runs import RunStatus, layout, read_meta
from genplan.engine.runs.answers import answers
from genplan.engine.runs.store import read_events
from genplan.tui.replay import Replayer, load_events, recorded_answer

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "runs"
# the checkout the fixtures were made in: their run.json names its domain directory by this path, which a copy
# names by this checkout's (as legacy-bas's copies do in tests/test_run_service.py)
MADE_IN = "/work/wt-old6a70564"
KINDS = {"stein": "stein", "autotos": "autotos", "pddlego": "pddlego", "import": "autotos"}
NEEDS_JAVA = pytest.mark.skipif(not java_available(), reason="the PDDLego+ trial's game needs a Java runtime")


def old_copy(kind: str, root: Path, checkout: Path = ROOT) -> Path:
    """A copy of the fixture ``<kind>-6a70564`` under ``root``, its paths those of ``checkout`` (this one)."""
    target = root / f"{kind}-6a70564"
    shutil.copytree(DATA / target.name, target)
    meta_file = layout.meta_file(target)
    meta_file.write_text(meta_file.read_text(encoding="utf-8").replace(MADE_IN, str(checkout)), encoding="utf-8")
    return target


def small_checkout(root: Path) -> Path:
    """A checkout for ``old_copy`` whose domains/ferry has only ferry's small debug tasks: an AutoToS run resumed on
    it searches them in seconds (tests/support/small_ferry.py)."""
    small_ferry_copy(root / "checkout" / "domains")
    return root / "checkout"


def answered_on_disk(run_dir: Path) -> list[list[dict[str, Any]]]:
    """The messages of every request whose answer is on disk."""
    kept = []
    for request in sorted(layout.requests_dir(run_dir).glob("*.json")):
        if (layout.responses_dir(run_dir) / request.name).exists():
            kept.append(json.loads(request.read_text(encoding="utf-8"))["messages"])
    return kept


def resume_against(server: ScriptedServer, run_dir: Path) -> api.RunOutcome:
    before = answered_on_disk(run_dir)
    assert before, "the fixture has answers on disk"
    outcome = api.resume(run_dir, ModelSettings(model=server.model, base_url=server.base_url,
                                                retry_base_delay_s=0.005), no_cache=True)
    sent = [request.messages for request in server.requests]
    assert sent, "the resumed run asked the model for what was missing"
    assert not [messages for messages in sent if messages in before], "an answer on disk was asked for again"
    assert outcome.status == RunStatus.FINISHED, api.message(outcome)
    assert read_meta(run_dir).status == RunStatus.FINISHED
    # the log reads as one run: every line an event, numbered on from the old ones, each request once
    events = list(read_events(run_dir))
    assert len(events) == len(layout.events_file(run_dir).read_text(encoding="utf-8").splitlines())
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    requested = [e.request_id for e in events if isinstance(e, RequestSent)]
    assert requested == sorted(set(requested)), requested
    # every answer kept, and those asked now beside them
    assert len(answered_on_disk(run_dir)) == len(before) + len(sent)
    return outcome


@pytest.mark.parametrize("kind", [pytest.param(k, marks=NEEDS_JAVA) if k == "pddlego" else k for k in KINDS])
def test_an_old_run_opens_lists_and_replays_its_answers(kind: str, tmp_path: Path) -> None:
    run_dir = old_copy(kind, tmp_path)
    meta = read_meta(run_dir)
    assert meta.approach == KINDS[kind] or (kind == "stein" and meta.config.get("approach") == "stein")
    # a run killed mid-call (its process gone) reads as interrupted; the one a controller stopped as stopped
    assert meta.status == {"stein": RunStatus.STOPPED, "import": RunStatus.FINISHED}.get(kind, RunStatus.INTERRUPTED)
    assert meta.model_name == ("synthetic" if kind == "import" else "scripted-model")
    (info,) = api.list_runs(tmp_path)
    assert (info.path, info.status) == (run_dir, meta.status)
    assert api.approach_of_run(run_dir) is not None and api.approach_of_run(run_dir).name == KINDS[kind]
    events = list(read_events(run_dir))
    assert len(events) == len(layout.events_file(run_dir).read_text(encoding="utf-8").splitlines())  # all decode
    assert events and [e.seq for e in events] == list(range(1, len(events) + 1))
    received = [e for e in events if isinstance(e, ResponseReceived)]
    assert len([e for e in events if isinstance(e, RequestSent)]) >= len(received) >= 1
    recorded = answers(run_dir)
    assert [a.request_id for a in recorded] == [e.request_id for e in received]
    # a replay streams each recorded answer, as the gateway wrote it
    for event, answer in zip(received, recorded, strict=True):
        assert recorded_answer(run_dir, event) == answer.text != ""
    streamed: dict[int, str] = {}

    def sink(event: Event) -> None:
        if isinstance(event, TextDelta):
            streamed[event.request_id] = streamed.get(event.request_id, "") + event.text

    replayer = Replayer(run_dir, load_events(run_dir), sink, speed=1000.0)
    while replayer.step() is not None:
        pass
    assert streamed == {answer.request_id: answer.text for answer in recorded}
    overview = api.overview(run_dir)
    assert (overview.run_id, overview.status, overview.meta) == (run_dir.name, meta.status, meta)


def test_an_old_import_opens_with_its_evaluation_and_is_not_resumed(tmp_path: Path) -> None:
    run_dir = old_copy("import", tmp_path)
    meta = read_meta(run_dir)
    assert meta.own_evaluation == (2, 2) and meta.preset == "AutoToS+PST"
    assert sorted(p.name for p in (run_dir / "versions").glob("*.py")) == ["goal-1.py", "succ-1.py"]
    with pytest.raises(api.NotResumable) as refused:
        api.resume(run_dir, ModelSettings(model="m", base_url="http://127.0.0.1:9/v1"), no_cache=True)
    assert "imported" in str(refused.value) and "\n" not in str(refused.value)
    assert read_meta(run_dir).status == RunStatus.FINISHED  # left as it was


@pytest.mark.parametrize("kind", [pytest.param("pddlego", marks=NEEDS_JAVA), "stein", "autotos"])
def test_an_unfinished_old_run_can_be_resumed(kind: str, tmp_path: Path) -> None:
    assert api.resumable(old_copy(kind, tmp_path))[0].name == KINDS[kind]


def test_an_old_stein_run_stopped_in_step_mode_resumes_to_its_end(tmp_path: Path) -> None:
    run_dir = old_copy("stein", tmp_path)
    with ScriptedServer() as server:
        server.respond_with(FerryModel())
        outcome = resume_against(server, run_dir)
    report = api.report(outcome).to_json()
    assert report["debug_solved"] == report["debug_total"] > 0


def test_an_old_autotos_run_killed_mid_call_resumes_to_its_end(tmp_path: Path) -> None:
    run_dir = old_copy("autotos", tmp_path, checkout=small_checkout(tmp_path))
    # the fixture's one answer is a successor function that keeps the ferry empty after boarding (unsound): the
    # goal test is asked next, then the successor function again with the feedback
    replies = {4: GOAL, 6: FERRY}
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(replies[len(request.messages)]))
        resume_against(server, run_dir)
        assert server.steps() == ["autotos.goal", "autotos.succ"]
    assert sorted(p.name for p in (run_dir / "versions").glob("*.py")) == ["goal-1.py", "succ-1.py", "succ-2.py"]


def test_an_old_autotos_run_whose_domain_moved_says_so_and_resumes_on_the_one_given(tmp_path: Path) -> None:
    run_dir = old_copy("autotos", tmp_path, checkout=tmp_path / "gone")
    replies = {4: GOAL, 6: FERRY}
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(replies[len(request.messages)]))
        settings = ModelSettings(model=server.model, base_url=server.base_url)
        with pytest.raises(api.GenplanError, match="gone/domains/ferry"):
            api.resume(run_dir, settings, no_cache=True)
        assert not server.requests
        outcome = api.resume(run_dir, settings, no_cache=True, domain_dir=small_ferry())
        assert server.steps() == ["autotos.goal", "autotos.succ"]
    assert outcome.status == RunStatus.FINISHED


def test_a_fork_of_an_old_autotos_run_from_an_edited_version_goes_on(tmp_path: Path) -> None:
    """The person edits the old run's unsound successor function into the right one: the fork asks only the goal
    test, and ends finished with the edit as its one successor function."""
    run_dir = old_copy("autotos", tmp_path, checkout=small_checkout(tmp_path))
    edited = FERRY.split("```python\n")[1].split("```")[0]
    fork = api.fork(run_dir, "versions/succ-1.py", "program", edited)
    assert read_meta(fork).forked_from is not None
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(GOAL))
        outcome = api.resume(fork, ModelSettings(model=server.model, base_url=server.base_url), no_cache=True)
        assert server.steps() == ["autotos.goal"]
    assert outcome.status == RunStatus.FINISHED
    assert (fork / "versions" / "succ-1.py").read_text(encoding="utf-8").strip() == edited.strip()


@NEEDS_JAVA
def test_an_old_pddlego_trial_killed_mid_call_resumes_to_its_end(tmp_path: Path) -> None:
    run_dir = old_copy("pddlego", tmp_path)
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(TO_BACKYARD))
        outcome = resume_against(server, run_dir)
        assert len(server.requests) == 1
    assert api.report(outcome).to_json()["outcome"] == "success"
    assert read_meta(run_dir).extra["outcome"] == "success"


@NEEDS_JAVA
def test_a_fork_of_an_old_pddlego_trial_from_its_edited_problem_file_goes_on(tmp_path: Path) -> None:
    """The trial's first problem file, edited (a comment added), becomes the first answer of a fork; the fork asks
    the one answer still missing and wins the game."""
    run_dir = old_copy("pddlego", tmp_path)
    problem = "pddl/s00-a0-r0-problem.pddl"
    edited = "; edited by a person\n" + (run_dir / problem).read_text(encoding="utf-8")
    fork = api.fork(run_dir, problem, "problem", edited)
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(TO_BACKYARD))
        outcome = api.resume(fork, ModelSettings(model=server.model, base_url=server.base_url), no_cache=True)
        assert len(server.requests) == 1
    assert (outcome.status, api.report(outcome).to_json()["outcome"]) == (RunStatus.FINISHED, "success")
    assert (fork / problem).read_text(encoding="utf-8").startswith("; edited by a person")
