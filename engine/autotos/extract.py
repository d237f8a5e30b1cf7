"""Taking the function out of a model's answer: the first fenced code block that defines a function
(or, without fences, the answer from its first import/def on), and the name of its last top-level
function (helpers usually come first)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)


@dataclass(frozen=True)
class ExtractedFunction:
    source: str
    name: str


def _top_level_functions(source: str) -> list[str] | None:
    try:
        tree = ast.parse(source)
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
        tree = ast.parse(source)
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
