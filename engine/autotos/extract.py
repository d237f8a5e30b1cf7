"""Taking the function out of a model's answer.

genplan's own rule (:func:`extract_function`, live runs): the first fenced code block that defines a
function (or, without fences, the answer from its first import/def on), and the name of its last top-level
function (helpers usually come first).

The AutoToS release's rule (:func:`extract_as_released`, imports of its logs; its
``src/utils/experiment_utils.py``, ``parse_functions`` and ``get_function_by_keyword``): the first code part
whose first unindented ``def`` line names a successor function or a goal test, from that ``def`` up to the
first following line that starts with a letter, with the lines before the ``def`` moved inside the function;
the function is the first ``def`` in it whose name holds the keyword ("successor" / "goal").
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from genplan.engine.python_text import compile_quietly, parse_quietly

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)


@dataclass(frozen=True)
class ExtractedFunction:
    source: str
    name: str
    # the code does not compile (the release's rule only: it asks again with the error, as for no function)
    syntax_error: str | None = None


def _top_level_functions(source: str) -> list[str] | None:
    try:
        tree = parse_quietly(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _clean(block: str) -> str:
    """Without stray fence lines: copied chat logs sometimes close a block with only two backticks."""
    return "\n".join(line for line in block.split("\n") if not re.fullmatch(r"\s*`{1,3}\s*", line))


def _candidates(text: str) -> list[str]:
    blocks = [_clean(m.group(2)) for m in _FENCE.finditer(text)]
    if blocks:
        return blocks
    start = re.search(r"^(?:from\s+\S+\s+import|import\s|def\s)", text, re.MULTILINE)
    return [_clean(text[start.start():])] if start else []


_KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def definitions_only(source: str) -> str:
    """The block with only its imports and definitions: example calls and prints after the function
    (which the prompts ask the model to leave out) would run on names that do not exist. Dropped lines
    become empty, so line numbers in tracebacks stay those of the answer."""
    try:
        tree = parse_quietly(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source
    lines = source.split("\n")
    for node in tree.body:
        if isinstance(node, _KEPT) or node.end_lineno is None:
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and not any(isinstance(n, ast.Call) for n in ast.walk(node)):
            continue  # module constants the function may use
        for index in range(node.lineno - 1, node.end_lineno):
            lines[index] = ""
    return "\n".join(lines)


def _pick(names: list[str], target: str | None) -> str:
    """The function meant: the last one whose name says what it is for (goal / succ), else the last."""
    hint = {"goal": "goal", "succ": "succ"}.get(target or "")
    if hint:
        named = [n for n in names if hint in n.lower()]
        if named:
            return named[-1]
    return names[-1]


def extract_function(text: str, target: str | None = None) -> ExtractedFunction | None:
    """The function the answer defines, or None when no code with a function can be found.

    A block that does not parse is still returned (by the name in its last ``def`` line) so that the
    syntax error reaches the model as an exception of its function, as a real run would report it."""
    for block in _candidates(text):
        if "def " not in block:
            continue
        names = _top_level_functions(block)
        if names:
            return ExtractedFunction(definitions_only(block.strip("\n")) + "\n", _pick(names, target))
        if names is None:
            found = re.findall(r"^def\s+([A-Za-z_]\w*)", block, re.MULTILINE)
            if found:
                return ExtractedFunction(block.strip("\n") + "\n", _pick(found, target))
    return None


# The release's keyword per function: the name of the function asked for must contain it.
RELEASE_KEYWORD = {"succ": "successor", "goal": "goal"}
_TWO_BACKTICKS = re.compile(r"^[ \t]*``[ \t]*$", re.MULTILINE)
_RELEASE_DEF = re.compile(r"def\s+([a-zA-Z_][a-zA-Z0-9_]*)\s*\(.*\):")


def _release_part(part: str) -> str:
    """One code part as the release cuts it: from the first unindented ``def`` (which must name a successor
    function or a goal test) to the first later line starting with a letter, the lines before moved inside."""
    rows = part.split("\n")
    first = next((index for index, row in enumerate(rows) if row.startswith("def ")), None)
    if first is None or not ("successor" in rows[first].lower() or "goal" in rows[first].lower()):
        return ""
    body = [rows[first], *(f"    {row}" for row in rows[:first])]
    for row in rows[first + 1:]:
        if row[:1].isalpha():
            break
        body.append(row)
    return "\n".join(body)


def release_code(text: str) -> str | None:
    """The code the release runs from an answer, or None when it finds none. The release splits the answer at
    every triple backtick and tries the odd parts (the text itself when there is no fence)."""
    text = text.replace("<|endoftext|>", "")
    # The published logs were copied from a chat interface, and 50 of them close a block with a line of two
    # backticks where the model wrote three (their text goes on as prose): read such a line as a fence.
    text = _TWO_BACKTICKS.sub("```", text)
    parts = text.split("```")
    candidates = [parts[0]] if len(parts) == 1 else [p for i, p in enumerate(parts) if i % 2 and "def " in p]
    for part in candidates:
        if part.startswith(("python", "Python")):
            part = part[6:].strip()
        code = _release_part(part)
        if code:
            return code
        if len(parts) == 1:
            return None
    return None


def extract_as_released(text: str, target: str) -> ExtractedFunction | None:
    """The function as the AutoToS release extracts it (module docstring): None when it finds none (no code
    part, a first ``def`` that names neither function, no function named for ``target`` in the code cut);
    a code cut that does not compile is returned with ``syntax_error`` set, as the release reports it."""
    if not text.strip():
        return None
    code = release_code(text)
    if code is None:
        return None
    keyword = RELEASE_KEYWORD.get(target, target)
    try:
        compile_quietly(code, "<answer>")
    except (SyntaxError, ValueError) as exc:
        return ExtractedFunction(code + "\n", keyword, syntax_error=f"{type(exc).__name__}: {exc}")
    name = next((found for found in _RELEASE_DEF.findall(code) if keyword in found.lower()), None)
    return ExtractedFunction(code + "\n", name) if name else None
