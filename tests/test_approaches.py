"""Approaches as records in one registry: the built-in three, their presets, `--list-presets`, and a toy
approach registered from this file that the CLI and a batch run without any change to their code."""

from __future__ import annotations

import importlib
import importlib.resources
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, FERRY
from support.scripted_server import Reply, ScriptedServer

from genplan.cli.main import main
from genplan.engine.approaches import (
    APPROACHES,
    Approach,
    Capability,
    UnknownApproach,
    get_approach,
    preset_owner,
    register,
    unregister,
)
from genplan.engine.approaches.context import PipelineContext, pipeline_fields
from genplan.engine.approaches.presets import check_config, load_preset, preset_names
from genplan.engine.batch import load_experiment, run_batch
from genplan.engine.errors import GenplanError
from genplan.engine.pipeline.checks import ProgramChecker
from genplan.engine.pipeline.config import ConfigError, PipelineConfig
from genplan.engine.pipeline.conversation import code_extractor, user
from genplan.engine.prompts import PromptLibrary

TOY_PROMPT = "TOY: write generate_solution(objects, init, goal) for this domain."


def test_the_built_in_approaches_carry_one_vocabulary() -> None:
    assert list(APPROACHES)[:3] == ["stein", "bas", "sil"]
    library = PromptLibrary()
    prompts = importlib.resources.files("genplan.prompts")
    for approach in APPROACHES.values():
        assert prompts.joinpath(approach.prompt_variant).is_dir()  # its prompt set exists
        if approach.can(Capability.PROGRAMS):
            library.resolve("system", approach.prompt_variant)
            assert approach.feedback_style in ("stein", "silver")
        else:  # an own-loop approach's feedback is made in engine/feedback/<style>.py
            importlib.import_module(f"genplan.engine.feedback.{approach.feedback_style}")
    assert get_approach("sil").select_last and get_approach("sil").function_name == "get_plan"
    assert not get_approach("stein").select_last
    with pytest.raises(UnknownApproach, match="unknown approach 'nope'"):
        get_approach("nope")


def test_presets_are_the_papers_numbers_and_come_from_the_approaches() -> None:
    paper = [name for name in preset_names() if not name.endswith("+CE")]  # +CE: beyond the paper
    assert paper[:7] == ["F5-3", "F3-6", "F3-6-MC", "F3-6-SD", "F3-6-CR", "Bas", "Sil"]
    f53, f36 = load_preset("F5-3"), load_preset("F3-6")
    assert (f53.initial_programs, f53.code_rounds, f53.strategy_rounds) == (5, 3, 5)
    assert (f36.initial_programs, f36.code_rounds, f36.strategy_rounds) == (3, 6, 5)
    assert load_preset("-SD").strategy_rounds == 0 and load_preset("-MC").initial_programs == 1
    assert load_preset("-CR").code_reflection is False
    sil = load_preset("Sil")
    assert (sil.approach, sil.function_name, sil.program_timeout_s) == ("sil", "get_plan", 30.0)
    assert load_preset("Bas").approach == "bas"
    with pytest.raises(ConfigError, match="approach must be one of stein, bas, sil"):
        check_config(PipelineConfig(approach="nope"))  # the registry is asked, not a list in the config module


def test_list_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--list-presets"]) == 0
    out = capsys.readouterr().out
    for name in preset_names():
        assert f"\n{name} " in out
    assert "Sil      sil        1   0   4 no            30s  get_plan" in out


def test_every_approach_registers_the_same_parts_and_its_capabilities(capsys: pytest.CaptureFixture[str]) -> None:
    """No kind of approach: each has a run on the one Run context, typed parameters, a new run's record and a
    reopen; what front ends may offer is in its capabilities."""
    for approach in APPROACHES.values():
        assert all(callable(part) for part in (approach.run, approach.parameters, approach.new_run, approach.reopen))
        assert Capability.RESUME in approach.capabilities and Capability.STEP in approach.capabilities
        assert approach.can(Capability.FORK) == (approach.edited_answer is not None)
    own = {a.name: a for a in APPROACHES.values() if not a.can(Capability.PROGRAMS)}
    assert list(own) == ["autotos", "pddlego", "plangen"]
    assert own["autotos"].command == "genplan autotos" and own["autotos"].can(Capability.DOMAIN_DIR)
    assert own["pddlego"].command == own["plangen"].command == "genplan pddlego"
    assert own["pddlego"].can(Capability.GAME) and not own["pddlego"].can(Capability.DOMAIN_DIR)
    assert not own["plangen"].can(Capability.FORK)  # PlanGen writes no file a person could edit
    assert preset_owner("autotos+pst") == (own["autotos"], "AutoToS+PST")
    assert preset_owner("PlanGen") == (own["plangen"], "plangen")
    assert own["autotos"].presets == {"AutoToS": {"partial_soundness": False},
                                      "AutoToS+PST": {"partial_soundness": True}}
    # their presets are no pipeline settings
    assert not {"AutoToS", "AutoToS+PST", "pddlego-detailed", "pddlego-simple", "plangen"} & set(preset_names())
    with pytest.raises(ConfigError, match="approach must be one of stein, bas, sil, not 'autotos'"):
        check_config(PipelineConfig(approach="autotos"))
    stein = get_approach("stein")
    with pytest.raises(ValueError, match="forking needs an edited_answer function"):
        Approach(name="x", title="x", prompt_variant="stein", feedback_style="stein", function_name="",
                 run=stein.run, parameters=stein.parameters, new_run=stein.new_run, reopen=stein.reopen,
                 capabilities=frozenset({Capability.FORK}))

    assert main(["run", "--list-presets"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) < 80  # a terminal of 80 columns shows it unwrapped
    rows = out.splitlines()
    lines = {line.split()[0]: line for line in rows if line.strip()}
    assert "genplan autotos --preset AutoToS+PST" in lines["AutoToS+PST"] and "*" in lines["AutoToS+PST"]
    # each preset's settings on the line under its command
    assert rows[rows.index(lines["AutoToS"]) + 1].strip() == "partial_soundness=False"
    assert rows[rows.index(lines["plangen"]) + 1].strip() == "(no settings)"
    for preset in ("pddlego-detailed", "pddlego-simple", "plangen"):
        assert f"genplan pddlego --preset {preset}" in lines[preset] and "*" not in lines[preset]
    assert "autotos: AutoToS: successor function and goal test" in out
    own_loops = [line for line in out.splitlines() if line.endswith(f"--preset {line.split(' ')[0]}")]
    assert len(own_loops) == sum(len(a.presets) for a in own.values())
    assert len({line.index(" genplan ") for line in own_loops}) == 1  # one column of commands, the longest name too


def test_a_pddlego_run_refuses_an_unknown_environment_in_one_line(tmp_path: Path) -> None:
    from genplan.engine import api
    from genplan.engine.llm import ModelSettings

    with pytest.raises(GenplanError, match="alfworld: not an environment pddlego plays"):
        api.start(api.StartRequest("pddlego-detailed", "alfworld", tmp_path), ModelSettings(model="m"))
    assert not list(tmp_path.iterdir())  # refused before a run directory was made


# ------------------------------------------------------------------ a toy approach: ask once, check, stop
def toy_run(ctx: PipelineContext, checker: ProgramChecker) -> None:
    messages = [ctx.system(), user(f"{TOY_PROMPT}\n\n{ctx.domain.source}")]
    code, messages, _ = ctx.ask_extract("code.generate", messages, code_extractor(("generate_solution",)), "code")
    if code is not None:
        ctx.add_program(1, code, messages[-1].content, checker)


@pytest.fixture
def toy() -> Iterator[Approach]:
    approach = register(Approach(
        name="toy", title="ask once, check, stop", prompt_variant="stein", feedback_style="stein",
        function_name="generate_solution", **pipeline_fields("toy", "generate_solution", toy_run),
        presets={"Toy": {"strategy_rounds": 0, "code_rounds": 0}},
    ))
    yield approach
    unregister("toy")


def toy_server(server: ScriptedServer) -> None:
    def respond(request: object) -> Reply:
        return Reply.answer(f"Here it is.\n\n```python\n{CORRECT_PROGRAM.strip()}\n```\n")
    server.respond_with(respond)


def test_a_toy_approach_runs_through_the_cli(toy: Approach, scripted_server: ScriptedServer, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    toy_server(scripted_server)
    code = main(["run", str(FERRY), "--preset", "Toy", "--model", scripted_server.model, "--base-url",
                 scripted_server.base_url, "--out", str(tmp_path / "runs"), "--json", "--quiet", "--no-cache"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["llm_calls"] == 1 == len(scripted_server.requests)
    assert TOY_PROMPT in json.dumps(scripted_server.requests[0].body)
    assert summary["debug_solved"] == summary["debug_total"] == 6
    assert json.loads((Path(summary["run_dir"]) / "run.json").read_text())["config"]["approach"] == "toy"


def toy_experiment(folder: Path, server: ScriptedServer, preset: str = "Toy") -> Path:
    """An experiment file: the toy's preset (or another) on ferry, one seed, against ``server``."""
    experiment = folder / "experiment.toml"
    experiment.write_text(
        "[experiment]\nname = \"toy\"\n"
        f"domains = [\"{FERRY}\"]\npresets = [\"{preset}\"]\nseeds = [1]\neval_limit = 2\norderings = 1\n\n"
        "[[models]]\nname = \"synthetic\"\n"
        f"model = \"{server.model}\"\nbase_url = \"{server.base_url}\"\ntemperature = 0\n",
        encoding="utf-8",
    )
    return experiment


def test_a_toy_approach_runs_in_a_batch(toy: Approach, tmp_path: Path) -> None:
    with ScriptedServer() as server:
        toy_server(server)
        result = run_batch(load_experiment(toy_experiment(tmp_path, server)), tmp_path / "batch", no_cache=True)
        assert result.complete and result.ran == 1 and result.evaluated == 1
        assert len(server.requests) == 1
        entry = json.loads((tmp_path / "batch" / "batch.json").read_text())["entries"][0]
        assert entry["run_status"] == "finished"
