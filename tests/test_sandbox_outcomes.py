"""Every outcome of running one program on one task, with its record and its feedback message."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from genplan.engine.feedback.programs import run_feedback
from genplan.engine.sandbox import Limits, Program, Sandbox

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

TASK = (["l0", "l1", "c0"], [("at-ferry", "l0"), ("at", "c0", "l0")], [("at", "c0", "l1")])
SHORT = Limits(time_limit=1.0, grace_seconds=0.5)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(Limits(time_limit=10)) as box:
        yield box


def run(sandbox: Sandbox, source: str, limits: Limits | None = None, task=TASK):
    return sandbox.run(Program.from_source(source), task, limits=limits)


def test_returned_plan_with_inputs_as_sets(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "def generate_solution(objects, init, goal):\n"
        "    assert type(objects) is set and type(init) is set and type(goal) is set\n"
        "    assert ('at', 'c0', 'l0') in init\n"
        "    print('thinking...')\n"
        "    return ['(board c0 l0)', '(sail l0 l1)', '(debark c0 l1)']\n",
    )
    assert outcome.kind == "plan"
    assert outcome.plan == ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"]
    assert outcome.function == "generate_solution"
    assert outcome.stdout == "thinking...\n" and outcome.stdout_bytes == 12
    assert 0 <= outcome.runtime <= outcome.wall_time < 5
    assert outcome.peak_memory is not None and outcome.peak_memory > 1_000_000
    assert run_feedback(outcome) == ""


def test_typed_objects_arrive_as_tuples(sandbox: Sandbox) -> None:
    task = ([("l0", "location"), ("c0", "car")], [("at", "c0", "l0")], [("not", ("at", "c0", "l0"))])
    outcome = run(
        sandbox,
        "def generate_solution(objects, init, goal):\n"
        "    assert ('c0', 'car') in objects and ('not', ('at', 'c0', 'l0')) in goal\n"
        "    return []\n",
        task=task,
    )
    assert outcome.kind == "plan", outcome.traceback


def test_baseline_function_name_is_accepted(sandbox: Sandbox) -> None:
    outcome = run(sandbox, "def get_plan(objects, init, goal):\n    return sorted(objects)\n")
    assert outcome.kind == "plan" and outcome.plan == ["c0", "l0", "l1"] and outcome.function == "get_plan"


def test_exception_traceback_is_cleaned(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "import collections\n"
        "def helper(state):\n"
        "    state.remove(('at', 't0', 'l0-0'))\n"
        "def generate_solution(objects, init, goal):\n"
        "    helper(set(init))\n",
    )
    assert outcome.kind == "exception"
    assert outcome.exception == "KeyError: ('at', 't0', 'l0-0')"
    lines = outcome.traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == '  File "<file-name-omitted>", line 5, in generate_solution'
    assert '  File "<file-name-omitted>", line 3, in helper' in lines
    assert "genplan" not in outcome.traceback and "/" not in outcome.traceback.replace("'", "")
    assert run_feedback(outcome, "stein") == "The code raised the following exception:\n" + outcome.traceback.rstrip()


def test_exception_in_module_code(sandbox: Sandbox) -> None:
    outcome = run(sandbox, "x = 1 / 0\ndef generate_solution(o, i, g):\n    return []\n")
    assert outcome.kind == "exception" and outcome.exception == "ZeroDivisionError: division by zero"
    assert "line 1, in <module>" in outcome.traceback


def test_timeout_reports_where_the_program_was(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "def generate_solution(objects, init, goal):\n    plan = []\n    while True:\n        plan.append(1)\n        plan.pop()\n",
        SHORT,
    )
    assert outcome.kind == "timeout"
    assert 1.0 <= outcome.wall_time < 3.0
    assert outcome.traceback.rstrip().endswith("KeyboardInterrupt")
    assert 'File "<file-name-omitted>", line' in outcome.traceback
    assert run_feedback(outcome, "stein").startswith(
        "The code was interrupted because it did not terminate within the time limit (1 seconds).")
    silver = run_feedback(outcome, "silver")
    assert "KeyboardInterrupt\nThe code was interrupted because it timed out (possible infinite loop)." in silver


def test_timeout_of_a_program_that_swallows_the_interrupt(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "def generate_solution(objects, init, goal):\n"
        "    while True:\n"
        "        try:\n"
        "            while True:\n"
        "                pass\n"
        "        except BaseException:\n"
        "            pass\n",
        SHORT,
    )
    assert outcome.kind == "timeout"
    assert outcome.wall_time < 4.0  # interrupted at 1 s, killed at 1.5 s


@pytest.mark.parametrize(
    ("returned", "shown"),
    [("None", "None"), ("('(a)',)", "('(a)',)"), ("['(a)', 3]", "['(a)', 3]"), ("'(a)'", "'(a)'")],
)
def test_wrong_output_type(sandbox: Sandbox, returned: str, shown: str) -> None:
    outcome = run(sandbox, f"def generate_solution(objects, init, goal):\n    return {returned}\n")
    assert outcome.kind == "wrong-type" and outcome.returned == shown
    assert run_feedback(outcome) == (
        f"The code returned {shown} which is not a list of actions. Please make sure that your code returns a "
        "list of actions, i.e. of type List[str]."
    )


def test_str_subclasses_are_not_trusted(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "class Sneaky(str):\n    def __eq__(self, other):\n        return True\n"
        "def generate_solution(objects, init, goal):\n    return [Sneaky('(x)')]\n",
    )
    assert outcome.kind == "wrong-type"


def test_syntax_error(sandbox: Sandbox) -> None:
    outcome = run(sandbox, "def generate_solution(objects, init, goal)\n    return []\n")
    assert outcome.kind == "syntax-error"
    assert outcome.exception == "SyntaxError: expected ':'"
    assert outcome.traceback.startswith('  File "<file-name-omitted>", line 1')
    assert run_feedback(outcome).startswith("The code raised the following exception:\n")


def test_missing_function(sandbox: Sandbox) -> None:
    outcome = run(sandbox, "def solve(objects, init, goal):\n    return []\n")
    assert outcome.kind == "missing-function" and outcome.function == "generate_solution"
    assert "does not define the function generate_solution(objects, init, goal)" in run_feedback(outcome)
    assert "solve" in run_feedback(outcome)


def test_sys_exit_is_an_exception_and_os_exit_a_crash(sandbox: Sandbox) -> None:
    exited = run(sandbox, "import sys\ndef generate_solution(o, i, g):\n    sys.exit(3)\n")
    assert exited.kind == "exception" and exited.exception == "SystemExit: 3"
    crashed = run(sandbox, "import os\ndef generate_solution(o, i, g):\n    os._exit(0)\n")
    assert crashed.kind == "crash" and crashed.exit_code == 0 and crashed.category == "exception"
    assert "os._exit" in run_feedback(crashed)
    assert run(sandbox, "def generate_solution(o, i, g):\n    return []\n").kind == "plan"


@pytest.mark.parametrize("status,detail", [
    (71, "closed the file descriptors the harness needs"),  # EXIT_CHANNEL_LOST
    (72, "ran out of memory (the address-space limit)"),  # EXIT_OUT_OF_MEMORY: no memory left to report it
])
def test_the_harness_exit_statuses_are_explained(sandbox: Sandbox, status: int, detail: str) -> None:
    # (a program can fake them with os._exit; it only mislabels its own failure)
    outcome = run(sandbox, f"import os\ndef generate_solution(o, i, g):\n    os._exit({status})\n")
    assert outcome.kind == "crash" and outcome.exit_code == status and detail in outcome.detail


def test_recursion_blowups_are_exceptions(sandbox: Sandbox) -> None:
    outcome = run(sandbox, "def f(n):\n    return f(n + 1)\ndef generate_solution(o, i, g):\n    return f(0)\n")
    assert outcome.kind == "exception" and outcome.exception.startswith("RecursionError")
    assert "[Previous line repeated" in outcome.traceback


def test_c_stack_overflow_is_reported_with_the_stack(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "import sys\nsys.setrecursionlimit(10**6)\n"
        "class Node:\n    def __init__(self, n):\n        self.next = Node(n + 1)\n"
        "def generate_solution(o, i, g):\n    Node(0)\n",
    )
    assert outcome.kind == "crash" and outcome.signal == 11 and outcome.category == "exception"
    text = run_feedback(outcome)
    assert "too deep recursion" in text and "line 5 in __init__" in text and "<file-name-omitted>" in text


def test_memory_limit_gives_memory_error(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "def generate_solution(o, i, g):\n    blocks = []\n    while True:\n        blocks.append(bytearray(50_000_000))\n",
        Limits(time_limit=10, memory_bytes=300 * 1024 * 1024),
    )
    assert outcome.kind == "exception" and outcome.exception == "MemoryError"
    assert outcome.peak_memory < 300 * 1024 * 1024


def test_output_is_bounded(sandbox: Sandbox) -> None:
    outcome = run(
        sandbox,
        "def generate_solution(o, i, g):\n    print('x' * 100_000)\n    return []\n",
        Limits(time_limit=10, kept_output_bytes=1000),
    )
    assert outcome.kind == "plan"
    assert outcome.stdout == "x" * 1000 and outcome.stdout_truncated and outcome.stdout_bytes == 100_001


def test_each_run_starts_from_a_clean_interpreter(sandbox: Sandbox) -> None:
    first = run(sandbox, "import json\njson.loads = None\nSEEN = []\ndef generate_solution(o, i, g):\n    return []\n")
    assert first.kind == "plan"
    second = run(sandbox, "import json\ndef generate_solution(o, i, g):\n    return [str(json.loads('[1]'))]\n")
    assert second.plan == ["[1]"]
