"""Continuing a PDDLego+ trial from a person's edit of one of its PDDL files (engine/pddlego/fork.py), through
the front-end API as every front end calls it (api.fork, then api.resume): the answers before the edited call are replayed from disk
(nothing is sent again), the edit is that call's answer, the model is asked from the next call on. Real
CoinCollector (the game of test_pddlego_loop.py), real openai client against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY, WRONG_TO_BACKYARD, problem

from genplan.engine import api
from genplan.engine.llm import ModelSettings
from genplan.engine.pddlego.environment import java_available
from genplan.engine.pddlego.fork import CannotContinue, edited_answer
from genplan.engine.runs.store import RunStore

pytestmark = pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")


def play(server: ScriptedServer, runs: Path, continue_from: dict | None = None) -> dict:
    """A trial of seed 1 in 5 rooms (or, ``continue_from`` {"run", "file", "text"}: a fork of one from an edit)."""
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005)
    if continue_from is not None:
        fork = api.fork(Path(continue_from["run"]), continue_from["file"], "pddl", continue_from["text"])
        return api.report(api.resume(fork, settings, no_cache=True)).to_json()
    request = api.StartRequest("pddlego-detailed", "coincollector", runs, parameters={"seed": 1, "locations": 5})
    return api.report(api.start(request, settings, no_cache=True)).to_json()


def fork_trial(run: Path, relative: str, text: str) -> Path:
    return api.fork(run, relative, "pddl", text)


def test_an_edited_problem_file_replaces_the_call_that_wrote_it(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, WRONG_TO_BACKYARD, TO_BACKYARD)
    source = play(scripted_server, tmp_path)
    assert (source["outcome"], source["calls"], source["simulation_errors"]) == ("success", 3, 1)
    run = Path(source["run_dir"])
    # the person corrects the wrong belief of step 1 (the backyard door is closed): the right problem file
    right = json.loads(TO_BACKYARD)["pf"]
    sent = len(scripted_server.requests)
    fork = play(scripted_server, tmp_path, continue_from={"run": str(run), "file": "pddl/s01-a0-r0-problem.pddl",
                                                          "text": right})
    assert len(scripted_server.requests) == sent  # call 1 replayed from disk, call 2 was the person's
    assert (fork["outcome"], fork["calls"], fork["steps"], fork["simulation_errors"]) == ("success", 2, 2, 0)
    forked = Path(fork["run_dir"])
    assert forked != run and forked.parent == run.parent
    meta = json.loads((forked / "run.json").read_text())
    assert (meta["forked_from"], meta["forked_at"], meta["edited_version"]) == (str(run), 2, "pddl/s01-a0-r0-problem.pddl")
    assert (forked / "pddl" / "s01-a0-r0-problem.pddl").read_text() == right
    assert (forked / "pddl" / "s00-a0-r0-domain.pddl").read_text() == (run / "pddl" / "s00-a0-r0-domain.pddl").read_text()
    record = json.loads((forked / "responses" / "0002-pddlego.pddl.json").read_text())
    assert record["human"] is True and json.loads(record["response"]["text"])["pf"] == right
    assert (run / "pddl" / "s01-a0-r0-problem.pddl").read_text() != right  # the source run is untouched


def test_after_the_edit_the_model_is_asked_with_the_games_feedback(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    run = Path(play(scripted_server, tmp_path)["run_dir"])
    # an edit that walks west through the closed door in step 0: the game refuses, the model is asked next
    wrong = problem("kitchen", "backyard", ["(open kitchen backyard west)"])
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    fork = play(scripted_server, tmp_path, continue_from={"run": str(run), "file": "pddl/s00-a0-r0-problem.pddl",
                                                          "text": wrong})
    asked = [r.body["messages"][-1]["content"] for r in scripted_server.requests[2:]]
    assert len(asked) == 2 and "move west' failed: the door in that direction is closed" in asked[0]
    assert (fork["outcome"], fork["calls"], fork["simulation_errors"], fork["simulation_fixed"]) == ("success", 3, 1, 1)


def test_what_cannot_be_continued_says_why(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    run = Path(play(scripted_server, tmp_path)["run_dir"])
    answer = json.loads(edited_answer(run, "pddl/s01-a0-r0-domain.pddl", "(define (domain edited))"))
    assert answer == {"df": "(define (domain edited))", "pf": (run / "pddl" / "s01-a0-r0-problem.pddl").read_text()}
    with pytest.raises(CannotContinue, match="not a domain or problem file"):
        fork_trial(run, "observations.md", "x")
    with pytest.raises(api.NotResumable, match="no answer of this run wrote this file"):
        fork_trial(run, "pddl/s07-a0-r0-problem.pddl", "x")
    store = RunStore.open(run)
    store.update_meta(environment={**store.meta()["environment"], "kind": "logged"})
    with pytest.raises(CannotContinue, match="played in a logged environment; continuing needs the real"):
        fork_trial(run, "pddl/s01-a0-r0-problem.pddl", "x")
    store.update_meta(environment={**store.meta()["environment"], "kind": "real"},
                      config={**store.meta()["config"], "fixed_domain": "(define (domain given))"})
    with pytest.raises(CannotContinue, match="domain file is fixed"):
        fork_trial(run, "pddl/s01-a0-r0-domain.pddl", "x")
    store.update_meta(approach="plangen")
    with pytest.raises(api.NotResumable, match="a run of plangen does not continue from an edited file"):
        fork_trial(run, "pddl/s01-a0-r0-problem.pddl", "x")


def test_genplan_fork_continues_a_trial_from_a_text_given_for_one_of_its_files(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    """The command line's way to the same: `genplan fork RUN --from pddl/FILE --text FILE` (a trial keeps no edits
    of its own, so the text goes with the fork); api.check_fork says beforehand what cannot go on."""
    from support.cli_process import genplan

    scripted_server.enqueue(TO_PANTRY, WRONG_TO_BACKYARD, TO_BACKYARD)
    run = Path(play(scripted_server, tmp_path)["run_dir"])
    right = tmp_path / "right-problem.pddl"
    right.write_text(json.loads(TO_BACKYARD)["pf"])
    api.check_fork(run, "pddl/s01-a0-r0-problem.pddl", "pddl")  # nothing in the way
    sent = len(scripted_server.requests)
    done = genplan("fork", str(run), "--from", "pddl/s01-a0-r0-problem.pddl", "--text", str(right), "--model",
                   scripted_server.model, "--base-url", scripted_server.base_url, "--json", "--quiet", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(scripted_server.requests) == sent  # call 1 replayed from disk, call 2 was the person's text
    report = json.loads(done.stdout)
    assert (report["outcome"], report["calls"], report["simulation_errors"]) == ("success", 2, 0)
    forked = Path(report["run_dir"])
    assert (forked / "pddl" / "s01-a0-r0-problem.pddl").read_text() == right.read_text()
    store = RunStore.open(run)
    store.update_meta(environment={**store.meta()["environment"], "kind": "logged"})
    with pytest.raises(CannotContinue, match="played in a logged environment"):
        api.check_fork(run, "pddl/s01-a0-r0-problem.pddl", "pddl")


SHARED_TRIAL = (Path(__file__).resolve().parents[2] / "shared" / "pddlego-plus" / "output" / "CoinCollector"
                / "CC_PDDLego+_4o" / "2025-04-30_gpt-4o-2024-05-13_PDDL_detailed_11_88.txt")


@pytest.mark.skipif(not SHARED_TRIAL.is_file(), reason="needs ../shared/pddlego-plus (the PDDLego+ release's trials)")
def test_an_imported_trial_continues_from_an_edit_of_its_last_file(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    """A published trial imported into the real game continues from a person's text for one of its files (the
    docs' "what if the model had written this"): the calls before it replay from disk, the fork is a run of its
    own (no import), and going on with the import itself is still refused."""
    from support.cli_process import genplan

    imported = genplan("import", "pddlego", str(SHARED_TRIAL), "--env", "real", "--out", str(tmp_path / "out"),
                       "--json", home=tmp_path)
    assert imported.returncode == 0, imported.stderr
    source = json.loads(imported.stdout)
    run = Path(source["run_dir"])
    assert (source["outcome"], source["calls"]) == ("failure", 7)
    last = "pddl/s01-a0-r5-problem.pddl"  # the file the seventh and last call wrote
    text = tmp_path / "same.pddl"
    text.write_text((run / last).read_text())
    with pytest.raises(api.NotResumable, match="an imported run; it opens and replays"):
        api.resume_target(run)
    done = genplan("fork", str(run), "--from", last, "--text", str(text), "--model", scripted_server.model,
                   "--base-url", scripted_server.base_url, "--json", "--quiet", home=tmp_path)
    assert done.returncode == 0, done.stderr
    fork = json.loads(done.stdout)
    # six calls replayed in the same game, the seventh the person's: nothing asked, the trial ends as logged
    assert scripted_server.requests == [] and (fork["outcome"], fork["calls"]) == ("failure", 7)
    meta = json.loads((Path(fork["run_dir"]) / "run.json").read_text())
    assert meta["forked_from"] == str(run) and "imported_from" not in meta and meta["edited_version"] == last
