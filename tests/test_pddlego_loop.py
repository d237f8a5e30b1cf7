"""PDDLego+ and PlanGen loops in real CoinCollector games, the model answering from a scripted server.

The game (5 locations, seed 1): the kitchen has a closed door south (the pantry) and a closed door west
(the backyard, where the coin is). The answers below are PDDL written for these tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer

from genplan.engine.llm import ModelSettings, OpenAIProvider
from genplan.engine.pddlego.environment import (
    CoinCollector,
    CoinCollectorConfig,
    java_available,
)
from genplan.engine.pddlego.loop import PddlegoConfig, repeats_at_end
from genplan.engine.pddlego.runner import TrialSpec, play
from genplan.engine.pddlego.solver import PddlSolver, coin_command
from genplan.engine.runs import create
from genplan.engine.runs.run import Run, RunSetup, execute

pytestmark = pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")

DOMAIN = """(define (domain house)
  (:requirements :strips :typing)
  (:types location direction)
  (:predicates (at ?l - location) (closed ?a - location ?b - location ?d - direction)
               (open ?a - location ?b - location ?d - direction))
  (:action open-door
    :parameters (?loc1 - location ?loc2 - location ?dir - direction)
    :precondition (and (at ?loc1) (closed ?loc1 ?loc2 ?dir))
    :effect (and (open ?loc1 ?loc2 ?dir) (not (closed ?loc1 ?loc2 ?dir))))
  (:action move
    :parameters (?from - location ?to - location ?dir - direction)
    :precondition (and (at ?from) (open ?from ?to ?dir))
    :effect (and (at ?to) (not (at ?from)))))
"""


def problem(at: str, goal: str, facts: list[str]) -> str:
    return (f"(define (problem walk) (:domain house)\n"
            f"  (:objects kitchen pantry backyard - location north south east west - direction)\n"
            f"  (:init (at {at}) {' '.join(facts)})\n  (:goal (at {goal})))\n")


def answer(domain: str, problem_text: str) -> str:
    return json.dumps({"df": domain, "pf": problem_text})


KITCHEN = ["(closed kitchen pantry south)", "(closed kitchen backyard west)"]
TO_PANTRY = answer(DOMAIN, problem("kitchen", "pantry", KITCHEN))  # open door to south, move south
FROM_PANTRY = ["(open pantry kitchen north)", "(open kitchen pantry south)", "(closed kitchen backyard west)"]
TO_KITCHEN = answer(DOMAIN, problem("pantry", "kitchen", FROM_PANTRY))  # move north
BACK_TO_PANTRY = answer(DOMAIN, problem("kitchen", "pantry", ["(open kitchen pantry south)"]))  # move south
# wrong: believes the backyard door is open, so the plan moves west through a closed door
WRONG_TO_BACKYARD = answer(DOMAIN, problem("pantry", "backyard", ["(open pantry kitchen north)",
                                                                  "(open kitchen backyard west)"]))
TO_BACKYARD = answer(DOMAIN, problem("pantry", "backyard", FROM_PANTRY))  # move north, open west, move west


def game() -> CoinCollector:
    return CoinCollector(CoinCollectorConfig(num_locations=5, seed=1))


def run(server: ScriptedServer, tmp_path: Path, approach: str = "pddlego", **config: object):
    provider = OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.005))
    spec = TrialSpec(approach, PddlegoConfig(**config), {"name": "coincollector", "num_locations": 5, "seed": 1})
    # a trial on the one Run context, as every front end makes it
    store = create(tmp_path, {**spec.meta(), "model": {"model": server.model}})
    outcome = execute(Run(store, RunSetup(provider)), lambda run: play(run, game(), spec, PddlSolver(coin_command)))
    return store, outcome.value


def prompts(server: ScriptedServer) -> list[str]:
    return [r.body["messages"][-1]["content"] for r in server.requests]


def events(store) -> list[dict]:
    return [{"type": e.type, **e.data} for e in store.events()]


def test_success_after_two_steps_and_files_on_disk(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    store, result = run(scripted_server, tmp_path)
    assert (result.outcome, result.reason, result.calls, result.steps) == ("success", "", 2, 2)
    assert result.commands == ["open door to south", "move south", "move north", "open door to west", "move west"]
    assert scripted_server.steps() == ["pddlego.pddl", "pddlego.pddl"]
    assert (store.path / "pddl" / "s01-a0-r0-problem.pddl").read_text().startswith("(define (problem walk)")
    transcript = (store.path / "observations.md").read_text()
    assert "> move south\nYou are in the pantry." in transcript and "(goal reached)" in transcript
    second = prompts(scripted_server)[1]
    assert "Action: move south\nYou are in the pantry." in second  # the new observation
    assert "(:goal (at pantry))" not in prompts(scripted_server)[0] and "(:goal (at pantry))" in second  # previous files
    summary = json.loads((store.path / "trial.json").read_text())
    assert summary["outcome"] == "success" and summary["solver_errors"] == 0 and summary["record"] == [[[1, 0]], [[1, 0]]]


def test_solver_error_is_fixed_with_the_parser_message(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    broken = answer(DOMAIN.replace("(:types location direction)", "(:types location direction"), problem(
        "kitchen", "pantry", KITCHEN))
    scripted_server.enqueue(broken, TO_PANTRY, TO_BACKYARD)
    store, result = run(scripted_server, tmp_path)
    assert (result.outcome, result.calls) == ("success", 3)
    assert result.record[0] == [[1, 1]]  # one attempt in step 0, one solver retry
    retry_prompt = prompts(scripted_server)[1]
    assert "domain.pddl:" in retry_prompt and "could not be turned into a plan" in retry_prompt
    metrics = result.to_dict()
    assert (metrics["solver_errors"], metrics["solver_fixed"], metrics["abort_solver"]) == (1, 1, 0)
    kinds = [e["kind"] for e in events(store) if e["type"] == "validation.result"]
    assert kinds == ["solver-error", "plan", "plan"]


def test_simulation_error_resets_replays_and_is_fixed(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, WRONG_TO_BACKYARD, TO_BACKYARD)
    store, result = run(scripted_server, tmp_path)
    assert (result.outcome, result.calls, result.steps) == ("success", 3, 2)
    assert result.record == [[[1, 0]], [[1, 0], [2, 0]]]
    fix_prompt = prompts(scripted_server)[2]
    assert "move west' failed: the door in that direction is closed" in fix_prompt
    assert "reset to where this step began" in fix_prompt
    attempts = [e for e in events(store) if e["type"] == "attempt.started"]
    assert [(a["step"], a["attempt"], a["replayed"]) for a in attempts] == [(0, 0, 0), (1, 0, 2), (1, 1, 2)]
    executed = [e["command"] for e in events(store) if e["type"] == "command.executed"]
    # after the failed 'move west' the game restarts; the replayed commands are not the loop's own
    assert executed == ["open door to south", "move south", "move north", "move west",
                        "move north", "open door to west", "move west"]
    metrics = result.to_dict()
    assert (metrics["simulation_errors"], metrics["simulation_fixed"], metrics["abort_simulation"]) == (1, 1, 0)


def test_step_limit_ends_the_trial(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_KITCHEN, BACK_TO_PANTRY)
    _, result = run(scripted_server, tmp_path, max_steps=3)
    assert (result.outcome, result.reason, result.calls, result.steps) == ("failure", "step-limit", 3, 3)
    assert scripted_server.pending() == 0


def test_repetition_warning_after_three_repeats(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(TO_PANTRY, TO_KITCHEN, BACK_TO_PANTRY, TO_KITCHEN, BACK_TO_PANTRY, TO_KITCHEN,
                            BACK_TO_PANTRY, TO_KITCHEN)
    _, result = run(scripted_server, tmp_path, max_steps=8)
    assert result.reason == "step-limit" and result.calls == 8
    warned = ["same sequence of commands three times" in p for p in prompts(scripted_server)]
    # planned before the 7th call: open S, move S, N, S, N, S, N: (move south, move north) three times
    assert warned == [False] * 6 + [True, True]


def test_solver_abort_after_five_retries(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    unreachable = answer(DOMAIN, problem("kitchen", "backyard", []))  # no door known: no plan
    scripted_server.enqueue(*[unreachable] * 6)
    _, result = run(scripted_server, tmp_path)
    assert (result.outcome, result.reason, result.calls, result.record) == ("failure", "solver", 6, [[[1, 5]]])
    assert "goal cannot be reached" in prompts(scripted_server)[1]


def test_fixed_domain_ablation_asks_for_the_problem_only(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.enqueue(json.dumps({"pf": problem("kitchen", "pantry", KITCHEN)}),
                            json.dumps({"pf": problem("pantry", "backyard", FROM_PANTRY)}))
    _, result = run(scripted_server, tmp_path, fixed_domain=DOMAIN)
    assert (result.outcome, result.calls) == ("success", 2)
    first = prompts(scripted_server)[0]
    assert "The domain file is fixed" in first and '{"pf": "<problem file>"}' in first


def test_plangen_fixes_a_failed_command(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    def act(command: str) -> str:
        return json.dumps({"actions": [command]})

    scripted_server.enqueue(act("move west"), act("open door to west"), act("move west"))
    store, result = run(scripted_server, tmp_path, approach="plangen")
    assert (result.outcome, result.calls, result.record) == ("success", 3, [[[1, 0], [2, 0]], [[1, 0]]])
    assert scripted_server.steps() == ["pddlego.plangen"] * 3
    assert "door in that direction is closed" in prompts(scripted_server)[1]
    assert "simple" not in json.loads((store.path / "run.json").read_text())["approach"]


def test_repeats_at_end() -> None:
    assert repeats_at_end(["a", "b", "a", "b", "a", "b"], 3)
    assert repeats_at_end(["x", "c", "c", "c"], 3)
    assert not repeats_at_end(["a", "b", "a", "b"], 3)
    assert not repeats_at_end([], 3)


def test_cli_runs_trials_with_a_model_and_report_tabulates_them(scripted_server: ScriptedServer, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from genplan.cli.main import main

    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    out = tmp_path / "out"
    code = main(["pddlego", "--locations", "5", "--seeds", "1", "--model", scripted_server.model, "--base-url",
                 scripted_server.base_url, "--no-cache", "--out", str(out), "--json"])
    assert code == 0
    (trial,) = json.loads(capsys.readouterr().out)
    assert (trial["outcome"], trial["calls"], trial["steps"], trial["seed"]) == ("success", 2, 2, 1)
    assert main(["report", str(out), "--print", "json", "--no-files"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["tables"]["pddlego"]["rows"]
    assert row[:6] == ["coincollector", scripted_server.model, "pddlego-detailed", 1, 1, 100.0]
    assert main(["pddlego", "--seeds", "x", "--out", str(out)]) == 2
    assert main(["pddlego", "--locations", "12", "--model", "m", "--out", str(out)]) == 2


def test_the_fixed_domain_preset_gives_genplans_own_coincollector_domain(scripted_server: ScriptedServer,
                                                                         tmp_path: Path) -> None:
    from genplan.engine import api

    # a problem file for genplan's domain (closed-door / connected): the coin is behind the west door
    scripted_server.enqueue(json.dumps({"pf": (
        "(define (problem coin) (:domain coincollector)\n"
        "  (:objects kitchen pantry backyard - location south west - direction)\n"
        "  (:init (at kitchen) (closed-door kitchen pantry south) (closed-door kitchen backyard west))\n"
        "  (:goal (at backyard)))")}))
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url, retry_base_delay_s=0.005)
    request = api.StartRequest("pddlego-fixed-domain", "coincollector", tmp_path, parameters={"seed": 1, "locations": 5})
    summary = api.report(api.start(request, settings, no_cache=True)).to_json()
    assert (summary["outcome"], summary["calls"]) == ("success", 1)
    (prompt,) = prompts(scripted_server)
    assert "(define (domain coincollector)" in prompt and '{"pf": "<problem file>"}' in prompt
    meta = json.loads((Path(summary["run_dir"]) / "run.json").read_text())
    assert meta["config"]["preset"] == "pddlego-fixed-domain"
    assert meta["config"]["fixed_domain"].startswith(";; CoinCollector as genplan models it")
