"""Answer extraction on hand-written answers shaped like real model output."""

from __future__ import annotations

import ast
import textwrap

import pytest

from genplan.engine.extract import (
    ExtractedCode,
    clean_answer,
    extract_code,
    extract_nl,
    extract_plan,
    extract_strategy,
    fenced_blocks,
    parse_action_line,
)

FERRY_ACTIONS = ["sail", "board", "debark"]


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def top_level_functions(code: str) -> list[str]:
    return [n.name for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)]


# --------------------------------------------------------------------------- common


def test_reasoning_blocks_are_blanked_but_line_numbers_kept():
    text = "<think>\nplan: (wrong)\n</think>\nanswer"
    cleaned = clean_answer(text)
    assert "wrong" not in cleaned
    assert cleaned.split("\n")[3] == "answer"


def test_reasoning_without_opening_tag_is_dropped():
    assert clean_answer("I think (wrong x)\n</think>\nreal").strip() == "real"


def test_unclosed_fence_runs_to_the_end():
    blocks = fenced_blocks("intro\n```python\ndef f():\n    return 1\n")
    assert len(blocks) == 1
    assert blocks[0].lang == "python" and not blocks[0].closed
    assert blocks[0].body.startswith("def f():")


def test_fence_inside_list_item_is_dedented():
    text = "1. Code:\n   ```python\n   def f():\n       return 1\n   ```\n"
    (block,) = fenced_blocks(text)
    assert block.body == "def f():\n    return 1"


# --------------------------------------------------------------------------- nl


def test_nl_is_the_answer_without_reasoning():
    result = extract_nl("<think>hmm</think>\n  The ferry carries one car.  \n")
    assert result.value == "The ferry carries one car."


def test_nl_unwraps_a_single_enclosing_fence():
    assert extract_nl("```\nA domain about ferries.\n```").value == "A domain about ferries."


def test_nl_empty_answer_fails_with_reason():
    result = extract_nl("<think>only thoughts</think>   ")
    assert not result and result.value is None
    assert "empty" in result.reason


# --------------------------------------------------------------------------- strategy


def test_strategy_after_label_at_the_end_of_chain_of_thought():
    text = dedent(
        """
        Let me think about the strategy: cars must be moved one at a time.
        The pseudocode should loop over goals.

        Pseudocode:
        1. For each goal (at car loc):
           a. If the car is already at loc, continue.
           b. Sail to the car, board it, sail to loc, debark.
        """
    )
    result = extract_strategy(text)
    assert result.value.startswith("1. For each goal")
    assert result.value.endswith("debark.")
    assert "Let me think" not in result.value


def test_strategy_label_variants_and_last_label_wins():
    text = dedent(
        """
        **Strategy:** first idea that was discarded

        ### Revised Pseudocode
        ```
        1. for each car c:
           - move c
        ```
        Some closing remark.
        """
    )
    result = extract_strategy(text)
    assert result.value == "1. for each car c:\n   - move c"


def test_strategy_inline_after_label():
    assert extract_strategy("Strategy: sort by weight, then stack.").value == "sort by weight, then stack."


def test_label_inside_prose_is_not_a_label():
    text = "Here is the strategy: we go left.\n\nThe strategy development is hard."
    result = extract_strategy(text)
    # "Here is the strategy:" ends no line, "The strategy development" has no colon: nothing labelled
    assert not result
    assert "Pseudocode:" in result.reason


def test_strategy_falls_back_to_the_last_fenced_block():
    text = "Thoughts.\n```\nold\n```\nMore thoughts.\n```text\n1. do A\n2. do B\n```\nDone."
    assert extract_strategy(text).value == "1. do A\n2. do B"


def test_strategy_after_an_introducing_line():
    text = "A simple approach exists. Here is the strategy:\n\n1. Pack the heaviest.\n2. Stack the rest."
    result = extract_strategy(text)
    assert result.value == "1. Pack the heaviest.\n2. Stack the rest."


def test_strategy_whole_text_only_when_asked():
    text = "Sort the objects by weight and pack them from heaviest to lightest."
    assert not extract_strategy(text)
    assert extract_strategy(text, fallback_to_text=True).value == text


def test_label_inside_a_fenced_block_is_ignored():
    text = "```\nStrategy: not a label here\n```"
    assert extract_strategy(text).value == "Strategy: not a label here"


# --------------------------------------------------------------------------- plan lines


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("(sail l0 l1)", ["(sail l0 l1)"]),
        ("1. (sail l0 l1)", ["(sail l0 l1)"]),
        ("2) (SAIL L0 L1) ; move the ferry", ["(sail l0 l1)"]),
        ("Step 3: sail(l0, l1)", ["(sail l0 l1)"]),
        ("step 3 - (Sail l0 l1)", ["(sail l0 l1)"]),
        ("- `(board c0 l0)`", ["(board c0 l0)"]),
        ("* **(board c0 l0)** loads the car", ["(board c0 l0)"]),
        ("'(sail l0 l1)',  # step 0", ["(sail l0 l1)"]),
        ("['(board c0 l0)', '(sail l0 l1)']", ["(board c0 l0)", "(sail l0 l1)"]),
        ("(board c0 l0) (sail l0 l1)", ["(board c0 l0)", "(sail l0 l1)"]),
        ("1. Load the car: (board c0 l0)", ["(board c0 l0)"]),
        ("(sail l0, l1) -> ferry now at l1", ["(sail l0 l1)"]),
        ("(noop)", ["(noop)"]),
        ("(sail ?from ?to)", None),
        ("(and (at c0 l1))", None),
        ("(:action sail", None),
        ("Then (quickly) sail", None),
        ("sail l0 l1", None),  # without parentheses only with known action names
        ("The ferry sails to l1.", None),
    ],
)
def test_parse_action_line(line, expected):
    assert parse_action_line(line) == expected


def test_bare_actions_need_known_names():
    assert parse_action_line("3. sail l0 l1 ; to the right", FERRY_ACTIONS) == ["(sail l0 l1)"]
    assert parse_action_line("SAIL L0 L1", FERRY_ACTIONS) == ["(sail l0 l1)"]
    assert parse_action_line("Sail the ferry over.", FERRY_ACTIONS) is None  # a sentence, not an action
    assert parse_action_line("go l0 l1", FERRY_ACTIONS) is None


def test_remark_in_parentheses_after_action_with_known_names():
    assert parse_action_line("(sail l0 l1) (moving to l1)", FERRY_ACTIONS) == ["(sail l0 l1)"]


# --------------------------------------------------------------------------- plans


def test_plan_from_last_fenced_block_not_from_reasoning():
    text = dedent(
        """
        First (board c0 l0) seems right, then sailing.
        ```
        (sail ?from ?to)
        ```
        So the plan is:
        ```pddl
        (board c0 l0)
        (sail l0 l1)
        (debark c0 l1)
        ```
        This reaches the goal.
        """
    )
    result = extract_plan(text)
    assert result.value == ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]
    assert "line 6" in result.reason


def test_plan_as_numbered_list_with_commentary_and_mixed_case():
    text = dedent(
        """
        Following the strategy step by step:

        1. (BOARD c0 L0) - the car is loaded
        2. (Sail l0 l1)   ; cross the river
           The ferry is now at l1.
        3. (debark c0 l1)

        All goals are satisfied.
        """
    )
    assert extract_plan(text).value == ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]


def test_plan_last_list_wins_over_earlier_mentions():
    text = "Maybe (sail l0 l1).\nNo wait.\n\nFinal plan:\nStep 1: board(c0, l0)\nStep 2: sail(l0, l1)\n"
    assert extract_plan(text).value == ["(board c0 l0)", "(sail l0 l1)"]


def test_plan_block_without_parentheses_with_action_names():
    text = "```\nboard c0 l0\nsail l0 l1\ndebark c0 l1\n```"
    assert extract_plan(text, FERRY_ACTIONS).value == ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]
    assert not extract_plan(text)


def test_plan_python_list_block():
    text = "```python\nplan = [\n    '(board c0 l0)',\n    '(sail l0 l1)',  # step 1\n]\n```"
    assert extract_plan(text).value == ["(board c0 l0)", "(sail l0 l1)"]


def test_plan_keeps_unknown_actions_for_the_validator():
    text = "```\n(board c0 l0)\n(fly l0 l1)\n```"
    assert extract_plan(text, FERRY_ACTIONS).value == ["(board c0 l0)", "(fly l0 l1)"]


def test_plan_ignores_the_reasoning_block():
    text = "<think>\n```\n(sail l9 l9)\n```\n</think>\n```\n(sail l0 l1)\n```"
    assert extract_plan(text).value == ["(sail l0 l1)"]


def test_plan_block_with_state_notes_between_actions():
    text = dedent(
        """
        ```
        Current state: ferry at l0, c0 at l0
        (board c0 l0)
        Now the car is on the ferry and we go over
        (sail l0 l1)
        Current state: ferry at l1 with c0 on board
        (debark c0 l1)
        Goal reached, every car is where it should be
        ```
        """
    )
    result = extract_plan(text)
    assert result.value == ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]
    assert "ignoring" in result.reason


def test_empty_plan_block_is_the_empty_plan():
    result = extract_plan("The goal already holds in the initial state.\n```\n```")
    assert result.ok and result.value == []


def test_no_plan_gives_a_reason():
    result = extract_plan("I cannot solve this task.")
    assert not result and "no fenced block" in result.reason
    result = extract_plan("```pddl\n(:action sail :parameters (?from ?to))\n```")
    assert not result and "none of the fenced blocks" in result.reason


# --------------------------------------------------------------------------- code

SIMPLE = "def generate_solution(objects, init, goal):\n    return []\n"


def test_code_in_python_block_with_prose_around():
    text = f"Here is the code:\n\n```python\n{SIMPLE}```\n\nIt returns an empty plan."
    result = extract_code(text)
    assert isinstance(result.value, ExtractedCode)
    assert result.value.code.strip() == SIMPLE.strip()
    assert result.value.function_name == "generate_solution"
    assert result.value.lines == (4, 5)


def test_code_without_any_fence():
    result = extract_code(SIMPLE)
    assert result.value.code == SIMPLE and result.reason == "the whole answer"


def test_code_without_fence_after_and_before_prose():
    text = dedent(
        """
        The problem was the loop. Here's the updated code:

        python
        Copy code
        from collections import deque

        def get_plan(objects, init, goal):
            queue = deque()
            plan = []
            return plan

        This version uses a queue.
        """
    )
    result = extract_code(text, ("get_plan",))
    assert result.value.syntax_error is None
    assert result.value.code.startswith("from collections import deque")
    assert "This version" not in result.value.code and "Copy code" not in result.value.code


def test_code_with_markdown_indented_block():
    text = "Fixed version:\n\n    def get_plan(objects, init, goal):\n        return ['(a)']\n\nDone."
    result = extract_code(text, ("get_plan",))
    assert top_level_functions(result.value.code) == ["get_plan"]


def test_several_blocks_take_the_one_defining_the_function_and_its_helpers():
    text = dedent(
        """
        First a helper:
        ```python
        import itertools

        def pairs(xs):
            return list(itertools.combinations(xs, 2))
        ```
        Then the main function:
        ```python
        def generate_solution(objects, init, goal):
            return [f"(link {a} {b})" for a, b in pairs(sorted(objects))]
        ```
        Example usage:
        ```python
        print(generate_solution({'a', 'b'}, set(), set()))
        ```
        """
    )
    result = extract_code(text)
    code = result.value.code
    assert result.value.helpers == ("itertools", "pairs")
    assert code.index("import itertools") < code.index("def pairs") < code.index("def generate_solution")
    assert "print(" not in code
    namespace: dict = {}
    exec(compile(code, "<test>", "exec"), namespace)
    assert namespace["generate_solution"]({"a", "b"}, set(), set()) == ["(link a b)"]


def test_later_definition_wins_and_parsing_beats_broken():
    text = (
        "```python\ndef generate_solution(objects, init, goal):\n    return ['(old)']\n```\n"
        "Corrected:\n```python\ndef generate_solution(objects, init, goal):\n    return ['(new)']\n```\n"
        "Or shorter (untested):\n```python\ndef generate_solution(objects, init, goal)\n    return []\n```\n"
    )
    assert "(new)" in extract_code(text).value.code


def test_cut_off_code_is_returned_with_its_syntax_error():
    text = "def get_plan(objects, init, goal):\n    plan = []\n    for x in objects:\n        plan.append(f\"({x}"
    result = extract_code(text, ("get_plan",))
    assert result.ok
    assert result.value.syntax_error is not None and result.value.syntax_error.startswith("line 4")
    assert result.value.code.endswith('plan.append(f"({x}')


def test_cut_off_helper_after_the_function_is_not_silently_dropped():
    text = "def get_plan(objects, init, goal):\n    return build(objects)\n\ndef build"
    result = extract_code(text, ("get_plan",))
    assert result.value.syntax_error is not None
    assert result.value.code.rstrip().endswith("def build")


def test_example_usage_at_top_level_is_dropped():
    text = dedent(
        """
        def get_plan(objects, init, goal):
            return ['(a)']

        objects = {('x', 't')}
        plan = get_plan(objects, set(), set())
        print(plan)
        if __name__ == "__main__":
            get_plan(set(), set(), set())
        """
    )
    result = extract_code(text, ("get_plan",))
    assert result.value.dropped_usage
    module = ast.parse(result.value.code)
    assert [type(n).__name__ for n in module.body] == ["FunctionDef", "Assign"]


def test_renamed_function_is_reported():
    text = "```python\ndef heavy_pack_planner(objects, init, goal):\n    return []\n```"
    result = extract_code(text, ("get_plan",))
    assert not result
    assert "heavy_pack_planner" in result.reason and "get_plan" in result.reason


def test_no_code_at_all_is_reported():
    result = extract_code("I apologize, this domain cannot be solved without search.")
    assert not result and "no Python code" in result.reason
    assert "generate_solution" in result.reason


def test_code_only_mentioned_in_prose_is_not_extracted():
    text = "Make sure to define `to_string` before using it in the `get_plan` function."
    assert not extract_code(text, ("get_plan",))


PREVIOUS = dedent(
    """
    from collections import deque


    def shortest(links, a, b):
        return [a, b]


    def get_plan(objects, init, goal):
        path = shortest({}, 'x', 'y')
        return [f"(walk {path[0]} {path[1]})"]
    """
)


def test_helper_only_answer_patches_the_previous_program():
    answer = "The helper was wrong:\n```python\ndef shortest(links, a, b):\n    return [b, a]\n```"
    result = extract_code(answer, ("get_plan",), previous_code=PREVIOUS)
    assert result.value.patched and result.value.helpers == ("shortest",)
    namespace: dict = {}
    exec(compile(result.value.code, "<test>", "exec"), namespace)
    assert namespace["get_plan"](set(), set(), set()) == ["(walk y x)"]
    assert result.value.code.count("def shortest") == 1


def test_new_main_function_takes_missing_helpers_from_the_previous_program():
    answer = "def get_plan(objects, init, goal):\n    return [str(len(shortest({}, 'a', 'b')))]\n"
    result = extract_code(answer, ("get_plan",), previous_code=PREVIOUS)
    assert result.value.helpers == ("shortest",)
    assert not result.value.patched
    assert top_level_functions(result.value.code) == ["shortest", "get_plan"]


def test_unrelated_definitions_do_not_patch():
    answer = "```python\ndef run_planner(path):\n    return None\n```"
    result = extract_code(answer, ("get_plan",), previous_code=PREVIOUS)
    assert not result and "run_planner" in result.reason


def test_first_function_name_in_order_is_preferred():
    text = "def get_plan(o, i, g):\n    return []\n\ndef generate_solution(o, i, g):\n    return get_plan(o, i, g)\n"
    assert extract_code(text).value.function_name == "generate_solution"


def test_dict_literal_at_column_zero_and_multiline_string_stay_code():
    text = dedent(
        '''
        Here you go:

        ORDER = {
        'a': 1,
        }

        def get_plan(objects, init, goal):
            """Plan.
        Returns the actions.
            """
            return sorted(ORDER)

        That is all.
        '''
    )
    result = extract_code(text, ("get_plan",))
    assert result.value.syntax_error is None
    assert "ORDER = {" in result.value.code and "That is all" not in result.value.code


def test_code_with_crlf_tilde_fence_and_capitalised_language():
    text = "Answer:\r\n~~~Python\r\ndef generate_solution(objects, init, goal):\r\n    return []\r\n~~~\r\n"
    result = extract_code(text)
    assert result.value.code == "def generate_solution(objects, init, goal):\n    return []"


def test_code_drafted_in_reasoning_is_ignored():
    text = (
        "<think>\n```python\ndef generate_solution(objects, init, goal):\n    return ['(draft)']\n```\n</think>\n"
        "```python\ndef generate_solution(objects, init, goal):\n    return ['(final)']\n```"
    )
    result = extract_code(text)
    assert "(final)" in result.value.code and "(draft)" not in result.value.code
    assert result.value.lines == (8, 9)


def test_code_like_prose_line_in_front_of_the_code_is_skipped():
    # "else: ..." looks like a Python clause to the line classifier; the region only parses without it
    text = "else: if nothing else helps, use this\ndef get_plan(objects, init, goal):\n    return []\n"
    result = extract_code(text, ("get_plan",))
    assert result.value.syntax_error is None
    assert result.value.code.startswith("def get_plan") and result.value.lines == (2, 3)
