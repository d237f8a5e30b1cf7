"""The baseline presets Bas and Sil against the scripted server."""

from __future__ import annotations

from pathlib import Path

from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, CRASHING_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_pipeline_stein import make_pipeline

from genplan.engine.approaches.presets import load_preset


def test_bas_separate_steps_fix_and_select(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("Bas"))
    result = pipeline.run()
    steps = scripted_server.steps()
    # NL descriptions (domain + 6 tasks), strategy, one validation round, code, one fix
    assert steps == ["nl.domain", *["nl.task"] * 6, "baseline.strategy", *["strategy.plan"] * 6,
                     "baseline.code", "baseline.fix"]
    # separate conversations: the code prompt starts fresh (system + one user message)
    code_messages = scripted_server.requests_for("baseline.code")[0].messages
    assert len(code_messages) == 2
    code_prompt = code_messages[-1]["content"]
    # the NL domain description, no PDDL, and an example task without a plan
    assert "SYNTHETIC: a ferry carries one car" in code_prompt and "(define" not in code_prompt
    assert "objects = {" in code_prompt and "A correct output" not in code_prompt and "'(board " not in code_prompt
    strategy_prompt = scripted_server.requests_for("baseline.strategy")[0].messages[-1]["content"]
    assert "SYNTHETIC description of task" in strategy_prompt and "(define" not in strategy_prompt
    fix_prompt = scripted_server.requests_for("baseline.fix")[0].messages[-1]["content"]
    assert "objects = {" in fix_prompt and "unsatisfied precondition" in fix_prompt
    assert result.debug_solved == 6 and result.selected_program.name == "c1-v01.py"


def test_sil_one_conversation_four_feedback_types(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(programs=[CRASHING_PROGRAM, BUGGY_PROGRAM, CORRECT_PROGRAM]))
    pipeline = make_pipeline(scripted_server, tmp_path, load_preset("Sil"))
    result = pipeline.run()
    steps = scripted_server.steps()
    assert steps == ["baseline.summary", "baseline.strategy", "baseline.code", "baseline.fix", "baseline.fix"]
    fixes = scripted_server.requests_for("baseline.fix")
    # one growing conversation
    assert len(fixes[1].messages) > len(fixes[0].messages) > len(scripted_server.requests_for("baseline.code")[0].messages)
    assert "exception" in fixes[0].messages[-1]["content"]
    assert "(define (problem" in fixes[0].messages[-1]["content"]  # Silver shows the PDDL task
    assert "get_plan" in (pipeline.store.path / "programs" / "c1-v02.py").read_text()
    assert result.selected_program.name == "c1-v02.py" and result.debug_solved == 6
