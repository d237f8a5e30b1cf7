"""AutoToS feedback paths on 24 Game (genplan's own instances), driven through the real openai client
against the scripted server, with the model's functions run in the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.scripted_server import ScriptedServer
from test_autotos_pddl import run_autotos

from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.autotos.generators import generate_24game
from genplan.engine.autotos.loop import Settings
from genplan.engine.llm import ModelSettings, OpenAIProvider

CORRECT_SUCC = '''```python
def successors(state):
    out = []
    n = len(state)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = state[i], state[j]
            rest = [state[k] for k in range(n) if k != i and k != j]
            values = [a + b, a - b, b - a, a * b]
            if b != 0:
                values.append(a / b)
            if a != 0:
                values.append(b / a)
            for v in values:
                out.append(rest + [v])
    return out
```'''
CORRECT_GOAL = "```python\ndef is_goal(state):\n    return len(state) == 1 and abs(state[0] - 24) < 1e-6\n```"
GOAL_TOO_LOOSE = "```python\ndef is_goal(state):\n    return len(state) > 0 and state[0] == 24\n```"
GOAL_RAISES = "```python\ndef is_goal(state):\n    return state[0] == 24 and len(state) == 1\n```"
# Removes every copy of the two numbers it combines: with duplicates a successor is too short.
SUCC_BY_VALUE = CORRECT_SUCC.replace("rest = [state[k] for k in range(n) if k != i and k != j]",
                                     "rest = [x for x in state if x != a and x != b]")
SUCC_MUTATES = CORRECT_SUCC.replace("    out = []\n", "    out = []\n    state.sort()\n    state.reverse()\n")
SUCC_SLOW = "```python\ndef successors(state):\n    while True:\n        pass\n```"
SUCC_NO_DIVISION = CORRECT_SUCC.replace("            if b != 0:\n                values.append(a / b)\n"
                                        "            if a != 0:\n                values.append(b / a)\n", "")


@pytest.fixture(scope="module")
def executor():
    ex = SandboxExecutor(hash_seed=0)
    yield ex
    ex.close()


@pytest.fixture(scope="module")
def domain():
    return generate_24game(seed=3, unit_tests=3, evaluation=6)


def _run(server: ScriptedServer, domain, executor, tmp_path: Path, succ: list[str], goal: list[str],
         **settings):
    server.on_step("autotos.succ", succ)
    server.on_step("autotos.goal", goal)
    provider = OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url, timeout_s=10.0,
                                            retry_base_delay_s=0.005))
    return run_autotos(domain, provider, executor, Settings(**settings), tmp_path)


def _feedback_sent(server: ScriptedServer) -> list[str]:
    """The feedback prompts as the server received them (the last user message of each request after the first two)."""
    texts = []
    for request in server.requests[2:]:
        messages = request.body["messages"]
        texts.append(messages[-1]["content"])
    return texts


def test_correct_functions_pass_every_check_and_solve_every_instance(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [CORRECT_SUCC], [CORRECT_GOAL])
    assert outcome.calls == 2 and outcome.rounds == []
    assert outcome.evaluation is not None
    assert (outcome.evaluation.solved, outcome.evaluation.failed) == (6, 0)
    assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]
    assert (tmp_path / "versions" / "succ-1.py").read_text().startswith("def successors")


def test_goal_that_accepts_a_non_goal_gets_goal_feedback(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [CORRECT_SUCC], [GOAL_TOO_LOOSE, CORRECT_GOAL])
    assert [r.category for r in outcome.rounds] == ["goal soundness"]
    assert outcome.rounds[0].failure["state"] == [24, 1]
    feedback = _feedback_sent(scripted_server)[0]
    assert "[24, 1]" in feedback and "goal" in feedback
    assert outcome.evaluation is not None and outcome.evaluation.failed == 0


def test_goal_exception_is_reported_with_the_state(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [CORRECT_SUCC], [GOAL_RAISES, CORRECT_GOAL])
    assert [r.category for r in outcome.rounds] == ["goal exception"]
    assert "IndexError" in _feedback_sent(scripted_server)[0]


def test_partial_soundness_test_catches_a_successor_of_the_wrong_length(scripted_server, executor, tmp_path):
    domain = generate_24game(seed=3, unit_tests=3, evaluation=2)
    domain.unit_instances[0].init = [1, 1, 4, 6]  # duplicates make the by-value removal visible
    outcome = _run(scripted_server, domain, executor, tmp_path, [SUCC_BY_VALUE, CORRECT_SUCC], [CORRECT_GOAL])
    assert outcome.rounds[0].category == "succ soundness"
    failure = outcome.rounds[0].failure
    assert len(failure["successor"]) != len(failure["state"]) - 1
    assert "one number fewer" in _feedback_sent(scripted_server)[0]


def test_without_the_partial_soundness_test_the_short_successor_goes_unnoticed(scripted_server, executor, tmp_path):
    domain = generate_24game(seed=3, unit_tests=3, evaluation=2)
    domain.unit_instances[0].init = [1, 1, 4, 6]
    domain.completeness_cases = []
    outcome = _run(scripted_server, domain, executor, tmp_path, [SUCC_BY_VALUE], [CORRECT_GOAL],
                   partial_soundness=False)
    assert outcome.rounds == [] and outcome.calls == 2


def test_a_successor_function_that_changes_its_input_is_caught(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [SUCC_MUTATES, CORRECT_SUCC], [CORRECT_GOAL])
    assert outcome.rounds[0].category == "input changed"
    feedback = _feedback_sent(scripted_server)[0]
    assert "Before the call" in feedback and "After the call" in feedback


def test_a_successor_call_over_one_second_is_a_timeout(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [SUCC_SLOW, CORRECT_SUCC], [CORRECT_GOAL],
                   call_timeout=0.2)
    assert outcome.rounds[0].category == "succ timeout"
    assert "0.2 s" in _feedback_sent(scripted_server)[0]
    assert outcome.evaluation is not None and outcome.evaluation.failed == 0


def test_missing_successors_are_listed(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [SUCC_NO_DIVISION, CORRECT_SUCC], [CORRECT_GOAL])
    assert [r.category for r in outcome.rounds] == ["succ completeness"]
    missing = outcome.rounds[0].failure["missing"]
    assert missing and all(any(isinstance(x, float) and x != int(x) for x in m) for m in missing)
    assert "missing" in _feedback_sent(scripted_server)[0]


def test_the_feedback_budget_ends_the_run_without_evaluation(scripted_server, domain, executor, tmp_path):
    outcome = _run(scripted_server, domain, executor, tmp_path, [SUCC_NO_DIVISION] * 3, [CORRECT_GOAL],
                   max_succ_feedback=2)
    assert outcome.stopped == "succ" and outcome.evaluation is None
    assert outcome.calls == 4  # 2 first calls + 2 feedback rounds
