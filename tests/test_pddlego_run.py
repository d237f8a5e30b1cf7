"""PDDLego+ and PlanGen on the one Run context (engine/approaches/pddlego.py): the typed trial parameters, what a
new trial's run.json records and how it is read back, and a fork from an edited PDDL file made the generic way
(``edited_answer``, ``store.fork_run`` at the artefact's request, then the fork run as a resume): the scripted
server's log shows that the answers before the edit are not asked again. Real CoinCollector, real openai client."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY, WRONG_TO_BACKYARD

from genplan.engine.approaches.pddlego import (
    ParameterError,
    TrialParameters,
    edited_answer,
    new_run,
    parameters,
    plangen_parameters,
    reopen,
    run,
)
from genplan.engine.llm import ModelSettings, OpenAIProvider
from genplan.engine.pddlego.environment import java_available
from genplan.engine.pddlego.fork import CannotContinue
from genplan.engine.runs import RunStatus, create
from genplan.engine.runs.run import Run, RunSetup, execute
from genplan.engine.runs.store import RunStore, artifact_request_id, fork_run

needs_java = pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")


# ----------------------------------------------------------------------------------------- typed parameters
def test_parameters_are_typed_with_the_defaults_of_a_trial() -> None:
    assert parameters({}) == TrialParameters(approach="pddlego", preset="pddlego", style="detailed", fixed_domain=None,
                                             max_steps=None, locations=11, seed=0, prompts=None)
    given = parameters({"style": "simple", "preset": "pddlego-simple", "seed": 4, "locations": 5, "max_steps": 7,
                        "prompts": Path("my-prompts")})
    assert (given.style, given.preset, given.seed, given.locations, given.max_steps, given.prompts) == (
        "simple", "pddlego-simple", 4, 5, 7, "my-prompts")
    assert plangen_parameters({"preset": "plangen"}).approach == "plangen"
    # None is "not given" (the CLI passes prompts=None); a domain file given to another preset names the ablation
    assert parameters({"prompts": None, "seed": None}).seed == 0
    assert parameters({"preset": "pddlego-detailed", "fixed_domain": "(define (domain d))"}).preset == \
        "pddlego-detailed-fixed-domain"
    assert parameters({"preset": "pddlego-fixed-domain", "fixed_domain": "genplan"}).preset == "pddlego-fixed-domain"


@pytest.mark.parametrize(("values", "message"), [
    ({"rooms": 5}, r"^pddlego: unknown parameter 'rooms' \(known: preset, style, fixed_domain, max_steps, "),
    ({"continue_from": {}}, "unknown parameter 'continue_from'"),
    ({"seed": "3"}, r"^pddlego parameter 'seed': expected an integer, not '3'$"),
    ({"locations": True}, "parameter 'locations': expected an integer, not True"),
    ({"max_steps": 0}, "parameter 'max_steps': at least 1, not 0"),
    ({"style": "short"}, "parameter 'style': 'short' is not one of detailed, simple"),
    ({"fixed_domain": 3}, "parameter 'fixed_domain': expected a string, not 3"),
])
def test_an_unknown_parameter_or_a_wrong_type_is_one_clear_line(values: dict, message: str) -> None:
    with pytest.raises(ParameterError, match=message) as caught:
        parameters(values)
    assert "\n" not in str(caught.value)


@needs_java
def test_new_run_records_what_a_resume_reads_back() -> None:
    params = parameters({"style": "detailed", "preset": "pddlego-fixed-domain", "fixed_domain": "genplan", "seed": 2,
                         "locations": 5})
    meta = dict(new_run("coincollector", params).meta)
    assert list(meta) == ["approach", "config", "environment", "trial", "target", "parameters"]
    assert meta["approach"] == "pddlego" and meta["trial"] == 2 and meta["target"] == "coincollector"
    assert meta["environment"] == {"name": "coincollector", "kind": "real", "seed": 2, "num_locations": 5, "group": "5"}
    assert meta["config"]["preset"] == "pddlego-fixed-domain" and meta["config"]["max_steps"] == 20
    assert meta["config"]["fixed_domain"].startswith(";; CoinCollector as genplan models it")  # the file's text
    assert meta["parameters"]["fixed_domain"] == "genplan"  # what was asked for, as given
    assert reopen(meta) == ("coincollector", params)
    with pytest.raises(Exception, match="alfworld: not an environment pddlego plays"):
        new_run("alfworld", params)


def test_reopen_reads_a_trial_recorded_before_its_parameters_were() -> None:
    """An import of a real game (and a trial of an earlier genplan) records its game and config only."""
    meta = {"approach": "pddlego", "environment": {"name": "coincollector", "kind": "real", "seed": 3,
                                                   "num_locations": 7, "group": "7"},
            "config": {"preset": "PDDLego+", "style": "simple", "fixed_domain": None, "max_steps": 20}}
    target, params = reopen(meta)
    assert (target, params.seed, params.locations, params.style, params.preset) == ("coincollector", 3, 7, "simple",
                                                                                   "PDDLego+")
    with pytest.raises(CannotContinue, match="played in a logged environment"):
        reopen({**meta, "environment": {"name": "alfworld", "kind": "logged"}})
    with pytest.raises(CannotContinue, match="not a PDDLego\\+ or PlanGen trial"):
        reopen({"approach": "stein"})


# ----------------------------------------------------------------------------------------- on the Run
def provider(server: ScriptedServer) -> OpenAIProvider:
    return OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005))


def start(server: ScriptedServer, root: Path, **given: object) -> Run:
    """As the front-end API starts a trial: typed parameters, new_run's record, a Run on a new directory."""
    params = parameters({"style": "detailed", "preset": "pddlego-detailed", "seed": 1, "locations": 5, **given})
    store = create(root, {**new_run("coincollector", params).meta, "model": {"model": server.model}})
    return Run(store, RunSetup(provider(server)), target="coincollector", parameters=params)


@needs_java
def test_a_trial_runs_on_the_run_and_its_outcome_is_recorded_once(scripted_server: ScriptedServer,
                                                                   tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    trial = start(scripted_server, tmp_path)
    outcome = execute(trial, run)
    assert outcome.status == RunStatus.FINISHED and outcome.trial and outcome.meta == {"outcome": "success"}
    assert outcome.value.commands[-1] == "move west"
    record = json.loads((trial.path / "trial.json").read_text())
    assert record == json.loads((trial.path / "summary.json").read_text()) == dict(outcome.summary or {})
    assert (record["outcome"], record["calls"], record["steps"]) == ("success", 2, 2)
    info = json.loads((trial.path / "run.json").read_text())
    assert (info["status"], info["outcome"], info["model"]) == ("finished", "success", {"model": scripted_server.model})
    types = [e.type for e in RunStore.open(trial.path).events()]
    assert types[0] == "run.started" and types[-1] == "run.finished" and types.count("run.finished") == 1


@needs_java
def test_a_fork_from_an_edited_problem_file_asks_only_after_the_edit(scripted_server: ScriptedServer,
                                                                     tmp_path: Path) -> None:
    # the model believes in step 1 that the backyard door is open: the game refuses, the model corrects itself
    scripted_server.enqueue(TO_PANTRY, WRONG_TO_BACKYARD, TO_BACKYARD)
    source = start(scripted_server, tmp_path)
    assert execute(source, run).value.calls == 3
    sent = len(scripted_server.requests)
    # the person edits the wrong problem file of step 1 into the right one: the generic fork from that answer
    relative = "pddl/s01-a0-r0-problem.pddl"
    right = json.loads(TO_BACKYARD)["pf"]
    answer = edited_answer(source.path, relative, "problem", right)
    assert json.loads(answer) == {"df": (source.path / "pddl/s01-a0-r0-domain.pddl").read_text(), "pf": right}
    store = RunStore.open(source.path)
    request_id = artifact_request_id(store, relative)
    assert request_id == 2
    fork = fork_run(store, tmp_path, request_id, answer, {"edited_version": relative})
    target, params = reopen(fork.meta())
    assert (target, params) == ("coincollector", source.parameters)
    outcome = execute(Run(fork, RunSetup(provider(scripted_server)), target=target, parameters=params), run)
    # call 1 came from disk, call 2 was the person's: the scripted server heard nothing more
    assert len(scripted_server.requests) == sent
    assert (outcome.value.outcome, outcome.value.calls, outcome.value.steps) == ("success", 2, 2)
    assert outcome.summary is not None and outcome.summary["resumed_responses"] == 2
    assert (fork.path / relative).read_text() == right
    assert (source.path / relative).read_text() != right  # the source trial is untouched
    meta = fork.meta()
    assert (meta["status"], meta["forked_from"], meta["forked_at"], meta["edited_version"]) == (
        "finished", str(source.path), 2, relative)


@needs_java
def test_edited_answer_refuses_what_cannot_go_on(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    # a problem file for genplan's own domain (the fixed-domain ablation): the coin is behind the west door
    scripted_server.enqueue(json.dumps({"pf": (
        "(define (problem coin) (:domain coincollector)\n"
        "  (:objects kitchen pantry backyard - location south west - direction)\n"
        "  (:init (at kitchen) (closed-door kitchen pantry south) (closed-door kitchen backyard west))\n"
        "  (:goal (at backyard)))")}))
    trial = start(scripted_server, tmp_path, preset="pddlego-fixed-domain", fixed_domain="genplan")
    assert execute(trial, run).meta == {"outcome": "success"}
    with pytest.raises(CannotContinue, match="not a domain or problem file"):
        edited_answer(trial.path, "observations.md", "text", "x")
    with pytest.raises(CannotContinue, match="domain file is fixed"):
        edited_answer(trial.path, "pddl/s00-a0-r0-domain.pddl", "domain", "x")
    trial.update_meta(approach="plangen")
    with pytest.raises(CannotContinue, match="only a PDDLego\\+ trial continues"):
        edited_answer(trial.path, "pddl/s00-a0-r0-problem.pddl", "problem", "x")


@needs_java
def test_a_stopped_trial_ends_stopped_and_its_resume_asks_only_the_rest(scripted_server: ScriptedServer,
                                                                       tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    trial = start(scripted_server, tmp_path)
    trial.setup.stop_requested = lambda: len(scripted_server.requests) >= 1  # the person stops after one answer
    outcome = execute(trial, run)
    assert (outcome.status, outcome.value.reason, outcome.value.calls) == (RunStatus.STOPPED, "stopped", 1)
    assert json.loads((trial.path / "run.json").read_text())["status"] == "stopped"
    assert json.loads((trial.path / "trial.json").read_text())["reason"] == "stopped"
    target, params = reopen(RunStore.open(trial.path).meta())
    again = execute(Run(RunStore.open(trial.path), RunSetup(provider(scripted_server)), target=target,
                        parameters=params), run)
    assert (again.status, again.value.outcome, again.value.calls) == (RunStatus.FINISHED, "success", 2)
    assert len(scripted_server.requests) == 2  # the first answer came from disk
    seqs = [e.seq for e in RunStore.open(trial.path).events()]
    assert seqs == list(range(1, len(seqs) + 1))
