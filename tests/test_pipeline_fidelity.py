"""Fidelity to the reference code of Stein et al. (#14, points 1-7) against the scripted server.

Each switch is a `PipelineConfig` field; the presets follow the reference code by default and the other
value is the paper's text (or genplan's older behaviour) — see docs/reproduction.md.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FerryModel
from support.scripted_server import RecordedRequest, ScriptedServer
from test_pipeline_stein import make_pipeline

from genplan.engine.approaches.presets import load_preset
from genplan.engine.pipeline.config import PipelineConfig


def _hash_under_seed_zero(text: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", f"print(hash({text!r}))"], env={"PYTHONHASHSEED": "0"},
        capture_output=True, text=True, check=True,
    )
    return int(out.stdout)


def order_dependent_program() -> str:
    """Correct only when set iteration order is the one of the first ordering: the hash of a string (what
    decides the iteration order of sets of strings) is compared with its value under PYTHONHASHSEED=0."""
    constant = _hash_under_seed_zero("iteration order")
    return CORRECT_PROGRAM.replace(
        "    plan = []\n",
        f"    plan = []\n    if hash('iteration order') != {constant}:\n        return ['(sail nowhere)']\n",
        1,
    )


def test_order_dependent_program_fails_debugging_under_four_orderings(
    scripted_server: ScriptedServer, tmp_path: Path
) -> None:
    program = order_dependent_program()
    config = load_preset("F3-6").with_changes(code_rounds=0, initial_programs=1)
    assert config.debug_orderings == 4
    scripted_server.respond_with(FerryModel(programs=[program]))
    four = make_pipeline(scripted_server, tmp_path / "four", config).run()
    assert four.debug_solved == 0  # every task fails in ordering 2
    scripted_server.clear()
    scripted_server.respond_with(FerryModel(programs=[program]))
    one = make_pipeline(scripted_server, tmp_path / "one", config.with_changes(debug_orderings=1)).run()
    assert one.debug_solved == 6  # the paper's text: one ordering lets it pass and end the search


def test_feedback_shows_the_task_in_the_ordering_that_failed(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    import json

    config = load_preset("F3-6").with_changes(code_rounds=1, initial_programs=1)
    scripted_server.respond_with(FerryModel(programs=[order_dependent_program(), CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, config)
    pipeline.run()
    checks = json.loads((pipeline.store.path / "results" / "program-c1-v00.json").read_text())
    failed = [c for c in checks if not c["solved"]]
    assert failed and all(c["details"]["ordering"] == 1 for c in failed)
    reflect = scripted_server.requests_for("code.reflect")[0].messages[-1]["content"]
    assert any(c["details"]["python_input"] in reflect for c in failed)


def _user_texts(request: RecordedRequest) -> list[str]:
    return [m["content"] for m in request.messages if m["role"] == "user"]


def test_code_debugging_keeps_the_whole_conversation(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    config = load_preset("F3-6").with_changes(code_rounds=2, initial_programs=1)
    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM, BUGGY_PROGRAM, CORRECT_PROGRAM]))
    make_pipeline(scripted_server, tmp_path / "conv", config).run()
    reflects = scripted_server.requests_for("code.reflect")
    assert len(reflects) == 2
    first_feedback = _user_texts(reflects[0])[-1]
    # the second round still sees the first round's feedback, reflection and revision request
    assert first_feedback in _user_texts(reflects[1])
    assert len(reflects[1].messages) == len(reflects[0].messages) + 4

    scripted_server.clear()
    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM, BUGGY_PROGRAM, CORRECT_PROGRAM]))
    make_pipeline(scripted_server, tmp_path / "latest", config.with_changes(code_history="latest")).run()
    reflects = scripted_server.requests_for("code.reflect")
    assert len(reflects[1].messages) == len(reflects[0].messages)  # first prompt + latest program only


def test_final_strategy_check_replans_the_prompt_tasks(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel())
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("F5-3"))
    pipeline.run()
    plans = scripted_server.requests_for("strategy.plan")
    assert len(plans) == 8
    prompt_names = [t.problem.name.lower() for t in pipeline.prompt_tasks()]  # as FerryModel names them
    final_two = [r.messages[-1]["content"] for r in plans[-2:]]  # concurrent: either order
    assert sorted(n for n in prompt_names for text in final_two if f"[[{n}]]" in text) == sorted(prompt_names)
    phases = [e.data.get("phase") for e in pipeline.store.events() if e.type == "step.started"]
    assert "strategy-final-check" in phases
    # the code prompt's example is the first prompt task with the plan from the final check
    example_plan = FerryModel().plans[prompt_names[0]]
    code_prompt = scripted_server.requests_for("code.generate")[0].messages[-1]["content"]
    assert all(repr(action) in code_prompt for action in example_plan)

    scripted_server.clear()
    scripted_server.respond_with(FerryModel())
    off = load_preset("F5-3").with_changes(final_strategy_check=False)
    make_pipeline(scripted_server, tmp_path / "off", off).run()
    assert scripted_server.steps().count("strategy.plan") == 6


def test_sd_validates_the_unrefined_strategy_once(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    # the strategy is wrong for one task: -SD must not refine it, but validates it once
    scripted_server.respond_with(FerryModel(strategy_plan_mistakes=99))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("-SD"))
    result = pipeline.run()
    steps = scripted_server.steps()
    assert steps.count("strategy.generate") == 1 and "strategy.reflect" not in steps
    assert steps.count("strategy.plan") == 6 + 2  # one validation round + the final check
    assert (pipeline.store.path / "results" / "strategy-v01.json").exists()
    assert result.strategy_versions == 1

    scripted_server.clear()
    scripted_server.respond_with(FerryModel())
    never = load_preset("-SD").with_changes(validate_unrefined_strategy=False, final_strategy_check=False)
    make_pipeline(scripted_server, tmp_path / "never", never).run()
    assert "strategy.plan" not in scripted_server.steps()


def test_bas_accepts_a_prose_strategy(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    prose = "Take the cars one after another: sail to the car, board it, sail to its goal and debark it."

    def strategy_in_prose(request: RecordedRequest) -> str | None:
        return prose if request.step == "baseline.strategy" else None

    scripted_server.respond_with(FerryModel(extra=strategy_in_prose))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("Bas"))
    result = pipeline.run()
    assert (pipeline.store.path / "strategies" / "v01.md").read_text().strip() == prose
    assert prose in scripted_server.requests_for("baseline.code")[0].messages[-1]["content"]
    assert result.debug_solved == 6


def test_presets_follow_the_reference_code() -> None:
    for name in ("F5-3", "F3-6", "-MC", "-SD", "-CR"):
        config = load_preset(name)
        assert config.debug_orderings == 4 and config.code_history == "conversation"
        assert config.final_strategy_check and config.validate_unrefined_strategy
        assert config.failure_selection == "reference" and config.shuffle_all_candidates and config.typed_action_hints
    bas = load_preset("Bas")
    assert bas.code_rounds == 5 and not bas.final_strategy_check and not bas.bas_example_plan
    assert load_preset("Sil").debug_orderings == 1


def test_ablation_is_one_line_in_an_experiment_file(tmp_path: Path) -> None:
    from genplan.engine.approaches.presets import load_config_file
    from genplan.engine.pipeline.config import ConfigError

    path = tmp_path / "paper-text.toml"
    path.write_text('preset = "F3-6"\ndebug_orderings = 1\n', encoding="utf-8")
    config = load_config_file(path)
    assert config.debug_orderings == 1 and config.code_rounds == 6
    path.write_text('preset = "F3-6"\ncode_history = "everything"\n', encoding="utf-8")
    try:
        load_config_file(path)
    except ConfigError as exc:
        assert "code_history must be one of conversation, latest" in str(exc)
    else:
        raise AssertionError("a bad code_history was accepted")


def test_paper_config_roundtrip() -> None:
    config = PipelineConfig(debug_orderings=2, failure_selection="file-order")
    assert PipelineConfig.from_dict(config.to_dict()) == config
