"""Extraction over the 1,111 real GPT-4/GPT-3.5 answers of Silver et al.'s published conversations.

The data lives in ``../shared/model-responses/silver2024/<env>_<seed>_<exp>/<k>-response.txt`` beside the
checkout (never copied into the project). Answer 0 is the domain summary, 2 the strategy, 3 the first
program and later ones fixes after feedback (often code without any fence, sometimes prose only).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from genplan.engine.extract import clean_answer, extract_code, extract_nl, extract_strategy

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
RESPONSES = SHARED / "model-responses" / "silver2024"

pytestmark = pytest.mark.skipif(
    not RESPONSES.is_dir(), reason=f"real model responses not available ({RESPONSES} does not exist)"
)


def conversations() -> dict[str, dict[int, str]]:
    """conversation name -> {k: answer text}."""
    result: dict[str, dict[int, str]] = {}
    for path in sorted(RESPONSES.glob("*/*-response.txt")):
        k = int(path.name.split("-")[0])
        result.setdefault(path.parent.name, {})[k] = path.read_text(encoding="utf-8")
    return result


@pytest.fixture(scope="module")
def data() -> dict[str, dict[int, str]]:
    found = conversations()
    if not found:
        pytest.skip(f"no responses found under {RESPONSES}")
    return found


def program_answers(data: dict[str, dict[int, str]]) -> list[tuple[str, str]]:
    return [(f"{name}/{k}", text) for name, answers in data.items() for k, text in answers.items() if k >= 3]


def defines_get_plan(code: str) -> bool:
    return any(isinstance(n, ast.FunctionDef) and n.name == "get_plan" for n in ast.parse(code).body)


def squeeze(text: str) -> str:
    """Text without trailing blanks on its lines (dedenting turns blank-only lines into empty ones)."""
    return "\n".join(line.rstrip() for line in text.strip().split("\n"))


def parses(source: str) -> bool:
    try:
        ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return False
    return True


def test_all_responses_are_there(data):
    total = sum(len(answers) for answers in data.values())
    assert total == 1111, f"expected the 1,111 published answers, found {total}"


def test_code_from_every_answer_that_defines_get_plan(data):
    """Every answer containing "def get_plan" yields code defining get_plan that parses, unless the
    model's own code is broken; that is then proven by brute force: no span of the answer that starts at
    or before the function and ends at or after the extracted end parses (so extraction neither took
    junk in front of the code nor cut it short)."""
    counts: Counter[str] = Counter()
    for where, text in program_answers(data):
        if "def get_plan" not in text:
            continue
        counts["answers with def get_plan"] += 1
        result = extract_code(text, ("get_plan",))
        assert result.ok, f"{where}: nothing extracted: {result.reason}"
        code = result.value
        if code.syntax_error is None:
            assert defines_get_plan(code.code), f"{where}: extracted code lacks get_plan"
            counts["parsing programs"] += 1
            continue
        counts["programs broken by the model"] += 1
        assert re.search(r"^def get_plan\s*\(", code.code, re.M), f"{where}: get_plan missing"
        lines = clean_answer(text).split("\n")
        first, last = code.lines
        def_line = next(i for i in range(first - 1, last) if re.match(r"\s*def get_plan\s*\(", lines[i]))
        for start in range(0, def_line + 1):
            for end in range(last, len(lines) + 1):
                span = "\n".join(lines[start:end])
                assert not parses(span), f"{where}: lines {start + 1}-{end} parse, extraction said {code.syntax_error}"
    print(f"\nreal answers: {dict(counts)}")
    assert counts["parsing programs"] + counts["programs broken by the model"] == counts["answers with def get_plan"]
    assert counts["parsing programs"] >= 0.95 * counts["answers with def get_plan"]


def test_extracted_code_comes_from_the_answer(data):
    """The main code is the answer's own text (dedented), minus dropped example usage."""
    for where, text in program_answers(data):
        result = extract_code(text, ("get_plan",))
        if not result or result.value.helpers:
            continue
        answer_lines = {line.strip() for line in clean_answer(text).split("\n")}
        for line in result.value.code.split("\n"):
            assert line.strip() in answer_lines, f"{where}: invented line {line!r}"


def test_answers_without_get_plan_yield_no_code(data):
    """Apologies, PDDL, example data, fragments: nothing is extracted, and the reason says why."""
    failures = 0
    for where, text in program_answers(data):
        if "def get_plan" in text:
            continue
        result = extract_code(text, ("get_plan",))
        assert not result, f"{where}: code extracted from an answer without get_plan ({result.reason})"
        assert "get_plan" in result.reason
        failures += 1
    print(f"\nanswers without a program: {failures}")
    assert failures > 0


def test_replaying_conversations_with_the_previous_program(data):
    """As in Silver et al.'s debugging loop: helper-only fixes patch the running program, new programs
    borrow helpers they no longer repeat. Every resulting program parses and defines get_plan."""
    counts: Counter[str] = Counter()
    for name, answers in data.items():
        previous: str | None = None
        for k in sorted(k for k in answers if k >= 3):
            result = extract_code(answers[k], ("get_plan",), previous_code=previous)
            if not result or result.value.syntax_error:
                continue
            code = result.value
            assert defines_get_plan(code.code), f"{name}/{k}: no get_plan after extraction"
            if code.patched:
                counts["patched"] += 1
                # every replaced definition is the answer's, verbatim
                for helper in code.helpers:
                    definition = re.search(rf"^def {helper}\(.*?(?=^\S|\Z)", code.code, re.M | re.S)
                    assert definition and squeeze(definition.group(0)) in squeeze(answers[k]), f"{name}/{k}"
            elif code.helpers:
                counts["borrowed helpers"] += 1
                tree = ast.parse(code.code)
                defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
                imported = {
                    (a.asname or a.name).split(".")[0]
                    for n in tree.body
                    if isinstance(n, (ast.Import, ast.ImportFrom))
                    for a in n.names
                }
                assigned = {
                    t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
                }
                assert set(code.helpers) <= defined | imported | assigned, f"{name}/{k}"
            previous = code.code
    print(f"\nconversation replay: {dict(counts)}")
    assert counts["patched"] > 0 and counts["borrowed helpers"] > 0


def test_strategy_answers(data):
    """Answer 2 (Silver et al.'s free-text strategy): always usable with the whole-text fallback; with a
    fenced block or an introducing line ("Here is the strategy:") the part after it is taken."""
    counts: Counter[str] = Counter()
    for name, answers in data.items():
        if 2 not in answers:
            continue
        text = answers[2]
        whole = extract_strategy(text, fallback_to_text=True)
        assert whole.ok and whole.value.strip(), name
        assert whole.value in clean_answer(text), name
        strict = extract_strategy(text)
        if not strict:
            counts["free text only"] += 1
            assert whole.value == text.strip()
            continue
        if "fenced block" in strict.reason:
            kind = "fenced block"
        else:
            kind = "introducing line" if "introduces" in strict.reason else "label"
        counts[kind] += 1
        assert len(strict.value) < len(text.strip()), f"{name}: the label part should be shorter"
        if "fenced block" in strict.reason:
            assert "```" not in strict.value
        else:
            line_no = int(re.search(r"line (\d+)", strict.reason).group(1))
            introducer = text.split("\n")[line_no - 1]
            assert re.search(r"(strategy|pseudocode)\b.*:\s*$", introducer, re.I), introducer
    print(f"\nstrategy answers: {dict(counts)}")
    assert sum(counts.values()) == 150


def test_summary_answers(data):
    for name, answers in data.items():
        if 0 in answers:
            result = extract_nl(answers[0])
            assert result.ok and result.value == answers[0].strip(), name
