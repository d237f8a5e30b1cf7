"""Taking the successor function / goal test out of a model's answer."""

from __future__ import annotations

from genplan.engine.autotos.extract import definitions_only, extract_function


def test_the_fenced_function_is_taken_and_example_calls_are_dropped():
    answer = ("Here it is:\n```python\nimport math\nLIMIT = 3\n\ndef is_goal(state):\n    return state == [24]\n\n"
              "print(is_goal([24]))\nresult = is_goal(undefined_name)\n```\nDone.")
    found = extract_function(answer, "goal")
    assert found is not None and found.name == "is_goal"
    assert "print(" not in found.source and "undefined_name" not in found.source
    assert "LIMIT = 3" in found.source and "import math" in found.source
    # dropped lines stay as empty lines: tracebacks keep the answer's line numbers
    assert found.source.splitlines()[3] == "def is_goal(state):"
    assert found.source.splitlines()[6:8] == ["", ""]


def test_a_block_closed_by_two_backticks_is_still_code():
    found = extract_function("python\n```\ndef succ(state):\n    return []\n``\n", "succ")
    assert found is not None and "``" not in found.source


def test_the_function_named_for_the_target_wins_over_the_last_one():
    answer = "```python\ndef is_goal_state(s, g):\n    return True\n\ndef successor_states(s):\n    return []\n```"
    goal = extract_function(answer, "goal")
    succ = extract_function(answer, "succ")
    assert goal is not None and goal.name == "is_goal_state"
    assert succ is not None and succ.name == "successor_states"


def test_an_answer_without_a_function_gives_nothing():
    assert extract_function("", "succ") is None
    assert extract_function("I cannot do that.", "goal") is None


def test_unparsable_code_is_kept_for_the_exception_feedback():
    found = extract_function("```python\ndef succ(state)\n    return []\n```", "succ")
    assert found is not None and found.name == "succ"
    assert definitions_only("def f(:\n") == "def f(:\n"
