"""A model's program with an invalid escape (``re.compile("\\d+")``) is valid Python: every host-side check and
extractor treats it so, raises no warning of its own, and still works where warnings are errors."""

from __future__ import annotations

import warnings

import pytest

from genplan.engine.autotos.extract import definitions_only, extract_as_released, extract_function
from genplan.engine.extract import extract_code
from genplan.engine.extract.code_segments import parse_python
from genplan.engine.python_text import compile_quietly, parse_quietly
from genplan.engine.sandbox.program import Program
from genplan.tui.code_check import check_python

PROGRAM = '''import re


def generate_solution(objects, init, goal):
    numbers = [int(n) for n in re.findall("\\d+", " ".join(objects))]
    return [f"(move l{n})" for n in numbers]
'''
SUCCESSOR = PROGRAM.replace("generate_solution(objects, init, goal)", "successor_states(state)")
ANSWER = f"Here is the program.\n\n```python\n{PROGRAM}```\n"


def test_the_program_has_the_escape_that_python_warns_about() -> None:
    assert "\\d" in PROGRAM  # the text itself, not a regular-expression digit class written as "\\\\d"
    with warnings.catch_warnings(), pytest.raises(SyntaxError):
        warnings.simplefilter("error")
        compile(PROGRAM, "<program>", "exec")


@pytest.mark.parametrize("mode", ["error", "always"])
def test_every_host_side_parse_accepts_it_silently(mode: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(mode)
        tree, error = parse_python(PROGRAM)
        assert tree is not None and error is None
        extracted = extract_code(ANSWER)
        assert extracted.ok and extracted.value is not None and "re.findall" in extracted.value.code
        program = Program.from_source(PROGRAM)
        assert program.syntax_problem() is None and program.defines_function()
        found = extract_function(f"```python\n{SUCCESSOR}```", "succ")
        assert found is not None and found.name == "successor_states"
        assert definitions_only(SUCCESSOR) == SUCCESSOR
        released = extract_as_released(f"```python\n{SUCCESSOR}```", "succ")
        assert released is not None and released.syntax_error is None and released.name == "successor_states"
        assert check_python(PROGRAM) == []
    assert caught == []


def test_the_quiet_helpers_still_raise_what_python_raises() -> None:
    with pytest.raises(SyntaxError):
        parse_quietly("def f(:\n    pass\n")
    parse_quietly("return 1\n")  # the parser alone lets this through ...
    with pytest.raises(SyntaxError, match="'return' outside function"):
        compile_quietly("return 1\n")  # ... the compiler does not
    # the release compiled the code it cut, so a compiler-only error is its syntax error too
    released = extract_as_released("```python\ndef successor_states(s):\n    nonlocal x\n    return [s]\n```", "succ")
    assert released is not None and released.syntax_error == "SyntaxError: no binding for nonlocal 'x' found (<answer>, line 2)"
