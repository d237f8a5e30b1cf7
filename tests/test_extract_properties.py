"""Generated junk, and junk built from the pieces answers are made of, never makes an answer extractor raise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from genplan.engine.autotos.extract import extract_function
from genplan.engine.extract import extract_code, extract_nl, extract_plan, extract_strategy
from genplan.engine.pddlego.loop import parse_json_answer

# the pieces model answers are made of, so that generated text often looks almost right
PIECES = st.sampled_from([
    "```", "```python\n", "```pddl\n", "``\n", "\n", "    ", "def generate_solution(objects, init, goal):\n",
    "def succ(state):\n", "def is_goal(state):\n", "    return []\n", "    return [", "import os\n",
    "from itertools import *\n", "(board c0 l0)\n", "(sail l0 l1)", "Strategy:", "Pseudocode:\n", "1. ", "- ",
    "<think>", "</think>", "word ", "(", ")", "[", "]", "{", "}", '"domain": "', '"problem": "', "(define ",
    "\\", "\x00", "\ud800", "🚢", "\t", "'''", '"""', "lambda: ", "if True:\n", "  else\n",
])
ANSWERS = st.lists(st.one_of(PIECES, st.text(max_size=30)), max_size=80).map("".join)
CHECKED = settings(max_examples=300, deadline=None)


@CHECKED
@given(ANSWERS)
def test_code_extraction_never_raises(text: str) -> None:
    result = extract_code(text, ("generate_solution",))
    assert result.value is None or (result.value.function_name == "generate_solution" and "generate_solution" in result.value.code)
    assert isinstance(result.reason, str)


@CHECKED
@given(ANSWERS)
def test_plan_strategy_and_description_extraction_never_raise(text: str) -> None:
    plan = extract_plan(text)
    assert plan.value is None or all(isinstance(step, str) for step in plan.value)
    for result in (extract_strategy(text), extract_strategy(text, fallback_to_text=True), extract_nl(text),
                   extract_plan(text, ["board", "sail"])):
        assert isinstance(result.reason, str)


@CHECKED
@given(ANSWERS, st.sampled_from([None, "succ", "goal"]))
def test_autotos_function_extraction_never_raises(text: str, target: str | None) -> None:
    found = extract_function(text, target)
    assert found is None or (found.name and found.source.endswith("\n"))


@CHECKED
@given(ANSWERS)
def test_pddlego_answer_reading_never_raises(text: str) -> None:
    answer = parse_json_answer(text)
    assert answer is None or isinstance(answer, dict)


def test_a_long_line_of_bare_words_is_no_program() -> None:
    # the kind of repetition models produce; the parser is never handed unbounded text to chew on
    text = "the ferry sails " * 200_000  # 3.2 MB on one line
    assert extract_code(text, ("generate_solution",)).value is None
    assert extract_function(text) is None
