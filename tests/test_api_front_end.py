"""The front-end API checks a run before it claims it: a run whose domain directory is gone is refused in one line
that names the directory and how to give another (``domain_dir=``, ``genplan run DOMAIN_DIR --resume RUN``), and
its run.json keeps its status; given another copy of the domain, the run goes on. What ``--json`` prints of a
run is the same for a run started and a run resumed, for every approach (AutoToS, a PDDLego+ trial). A fork of an
AutoToS run is named as its source (``autotos-<domain>-<time>``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.ferry_model import FERRY
from support.scripted_server import Reply, ScriptedServer
from support.small_ferry import small_ferry
from test_approaches import toy, toy_server  # noqa: F401

from genplan.cli.main import main
from genplan.engine import api
from genplan.engine.api.runs import open_run
from genplan.engine.approaches import Approach
from genplan.engine.llm import ModelSettings
from genplan.engine.pddlego.environment import java_available


def status_of(run_dir: Path) -> str:
    return str(json.loads((run_dir / "run.json").read_text(encoding="utf-8"))["status"])


def stopped_run(preset: str, target: str, runs: Path, **parameters: object) -> Path:
    """A run of ``preset`` on ``target`` that was made and then stopped before its first request."""
    store, _, _ = api.new_run(api.StartRequest(preset, target, runs, parameters=parameters), ModelSettings(model="m"))
    open_run(store.path).update_meta(status=api.RunStatus.STOPPED)
    return store.path


def test_a_run_whose_domain_is_gone_is_refused_untouched_and_goes_on_elsewhere(
        toy: Approach, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    gone, other = tmp_path / "ferry-gone", tmp_path / "ferry-other"
    shutil.copytree(FERRY, gone)
    shutil.copytree(FERRY, other)
    run_dir = stopped_run("Toy", str(gone), tmp_path / "runs")
    shutil.rmtree(gone)
    with ScriptedServer() as server:
        toy_server(server)
        settings = ModelSettings(model=server.model, base_url=server.base_url)
        with pytest.raises(api.NotResumable) as refused:
            api.resume(run_dir, settings, no_cache=True)
        assert str(gone.resolve()) in str(refused.value) and "domain_dir=" in str(refused.value)
        assert "genplan run DOMAIN_DIR --resume RUN" in str(refused.value)
        assert status_of(run_dir) == "stopped"  # not claimed: neither running nor failed
        # the CLI says the same, and leaves the run as it was
        capsys.readouterr()
        assert main(["run", "--resume", str(run_dir), "--model", server.model, "--base-url", server.base_url,
                     "--quiet", "--no-cache"]) == 2
        assert str(gone.resolve()) in capsys.readouterr().err
        assert status_of(run_dir) == "stopped" and not server.requests

        # on another copy of the domain it goes on (the API's domain_dir=)
        outcome = api.resume(run_dir, settings, domain_dir=other, no_cache=True)
        assert outcome.status == api.RunStatus.FINISHED and status_of(run_dir) == "finished"
        assert len(server.requests) == 1
        assert api.report(outcome).to_json()["debug_solved"] == 6

        # and from the command line: DOMAIN_DIR given with --resume
        second = stopped_run("Toy", str(other), tmp_path / "runs")
        shutil.rmtree(other)
        moved = tmp_path / "ferry-moved"
        shutil.copytree(FERRY, moved)
        capsys.readouterr()
        assert main(["run", str(moved), "--resume", str(second), "--model", server.model, "--base-url",
                     server.base_url, "--quiet", "--no-cache", "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["status"] == "finished" and summary["debug_solved"] == 6 and len(server.requests) == 2


def test_an_autotos_run_on_a_domain_directory_that_is_gone_is_refused_untouched(tmp_path: Path) -> None:
    gone = tmp_path / "ferry-gone"
    shutil.copytree(FERRY, gone)
    run_dir = stopped_run("AutoToS", str(gone), tmp_path / "runs")
    shutil.rmtree(gone)
    with pytest.raises(api.NotResumable, match="ferry-gone does not exist; resume the run on a domain directory"):
        api.resume(run_dir, ModelSettings(model="m", base_url="http://127.0.0.1:9/v1"))
    assert status_of(run_dir) == "stopped"
    # one of AutoToS's own domains is a name, no directory: nothing to refuse there
    named = stopped_run("AutoToS", "24game", tmp_path / "runs")
    assert api.resume_target(named) == "24game"


def test_an_autotos_run_started_on_a_relative_directory_resumes_from_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(FERRY, tmp_path / "work" / "ferry")
    monkeypatch.chdir(tmp_path / "work")
    run_dir = stopped_run("AutoToS", "ferry", tmp_path / "runs")
    monkeypatch.chdir(tmp_path)  # elsewhere: "ferry" names nothing here
    assert api.resume_target(run_dir) == str((tmp_path / "work" / "ferry").resolve())


# ------------------------------------------------- --json: the same report for a run started and a run resumed
def json_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> object:
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_an_autotos_run_reports_the_same_keys_started_and_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from test_own_loop_resume import AUTOTOS_ANSWERS

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ferry = str(small_ferry())  # its unit-test searches take seconds (tests/support/small_ferry.py)
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(AUTOTOS_ANSWERS[len(request.messages)]))
        model = ["--model", server.model, "--base-url", server.base_url, "--no-cache", "--quiet", "--json"]
        started = json_of(capsys, ["run", ferry, "--preset", "AutoToS", "--out", str(tmp_path / "a"), *model])
        # made, never asked: resumed from its start (no evaluation, as `genplan run` without --eval)
        waiting = stopped_run("AutoToS", ferry, tmp_path / "b", evaluate=False)
        resumed = json_of(capsys, ["run", "--resume", str(waiting), *model])
    assert isinstance(started, dict) and isinstance(resumed, dict)
    assert started["status"] == resumed["status"] == "finished" and started["calls"] == resumed["calls"] == 4
    assert sorted(started) == sorted(resumed)
    assert resumed["run_dir"] == str(waiting)


@pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")
def test_a_pddlego_trial_reports_the_same_keys_started_and_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from test_pddlego_loop import TO_BACKYARD, TO_PANTRY

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer([TO_PANTRY, TO_BACKYARD][(len(server.requests) - 1) % 2]))
        model = ["--model", server.model, "--base-url", server.base_url, "--no-cache", "--json"]
        (started,) = json_of(capsys, ["pddlego", "--preset", "pddlego-detailed", "--locations", "5", "--seeds", "1",
                                      "--out", str(tmp_path / "a"), *model])
        waiting = stopped_run("pddlego-detailed", "coincollector", tmp_path / "b", seed=1, locations=5)
        resumed = json_of(capsys, ["run", "--resume", str(waiting), *model])
    assert isinstance(started, dict) and isinstance(resumed, dict)
    assert (started["status"], started["outcome"], started["seed"]) == ("finished", "success", 1)
    assert (resumed["status"], resumed["outcome"], resumed["seed"]) == ("finished", "success", 1)
    assert sorted(started) == sorted(resumed) and "record" not in resumed  # the bulky record stays in trial.json


# ------------------------------------------------------------------------- a fork is named as its source
def test_a_fork_of_an_autotos_run_is_named_as_its_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_autotos_pddl import FERRY as RIGHT_SUCC
    from test_own_loop_resume import AUTOTOS_ANSWERS

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.answer(AUTOTOS_ANSWERS[len(request.messages)]))
        settings = ModelSettings(model=server.model, base_url=server.base_url)
        request = api.StartRequest("AutoToS", str(small_ferry()), tmp_path / "runs", parameters={"evaluate": False})
        source = api.start(request, settings, no_cache=True).run_dir
        assert source.name.startswith("autotos-pddl-ferry-")
        # the person edits the first (unsound) successor function into the right one
        edited = RIGHT_SUCC.strip().removeprefix("```python").removesuffix("```")
        fork = api.fork(source, "versions/succ-1.py", "succ", edited)
        assert fork.parent == source.parent and fork != source
        assert fork.name.startswith("autotos-pddl-ferry-")  # not a plain run id
        assert json.loads((fork / "run.json").read_text())["forked_from"] == str(source)
        server.clear()
        outcome = api.resume(fork, settings, no_cache=True)
        assert outcome.status == api.RunStatus.FINISHED
        assert [len(r.messages) for r in server.requests] == [4]  # only the goal test after the edit is asked
