"""Where the code in an answer is: fenced blocks and runs of code-like lines outside fences.

Python's parser is only ever handed bounded text (``parse_python``): a model's answer may hold
megabytes, or one line of thousands of bare words, on which ``ast.parse`` runs out of memory.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

from genplan.engine.extract.common import MAX_BLOCKS, fence_lines, fenced_blocks
from genplan.engine.python_text import parse_quietly

# Far larger than any program a model writes (the longest in the shared logs is ~30 KB); longer
# text is reported as not parsing instead of being handed to the parser.
MAX_PARSE_CHARS = 400_000
# Longer lines are classified without the parser (a line of code is rarely over a few hundred characters).
MAX_CLASSIFIED_LINE = 400
# A region that does not parse is retried from later statement starts only while it is this short.
MAX_RESTART_REGION = 50_000


def parse_python(source: str) -> tuple[ast.Module | None, str | None]:
    """The module's syntax tree, or None and why not ("line 3: invalid syntax")."""
    if len(source) > MAX_PARSE_CHARS:
        return None, f"the code is too long to be parsed ({len(source)} characters)"
    try:
        return parse_quietly(source), None
    except SyntaxError as err:
        return None, f"line {err.lineno}: {err.msg}"
    except (ValueError, RecursionError, MemoryError, OverflowError) as err:
        return None, f"the code cannot be parsed ({type(err).__name__})"


@dataclass
class Segment:
    """A piece of the answer that may be code: a fenced block or a code-like region outside fences."""

    source: str
    start: int  # 0-based first line in the answer
    end: int  # exclusive
    tree: ast.Module | None
    error: str | None

    @classmethod
    def of(cls, source: str, start: int, end: int) -> Segment:
        tree, error = parse_python(source)
        return cls(source, start, end, tree, error)

    def defines(self, name: str) -> bool:
        if self.tree is not None:
            return any(
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
                for node in self.tree.body
            )
        return re.search(r"^(?:async[ \t]+)?def[ \t]+" + re.escape(name) + r"[ \t]*\(", self.source, re.M) is not None

    def function_names(self) -> list[str]:
        if self.tree is not None:
            return [n.name for n in self.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return re.findall(r"^(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(", self.source, re.M)

# Line classification for code outside fences -----------------------------------------------------

_HEADER_KEYWORDS = re.compile(r"^(?:async\s+def|def|class|if|elif|else|for|while|try|except|finally|with)\b")
_STATEMENT_KEYWORDS = re.compile(
    r"^(?:import|from|return|raise|assert|del|global|nonlocal|pass|break|continue|yield|print)\b"
)
_DEFINITION = re.compile(r"^(?:async\s+)?(?:def|class)\s+[A-Za-z_]")
_CLAUSE = re.compile(r"^(?:else|try|finally|except\b[^:]*|elif\b.+)\s*:")
_OPENS_STATEMENT = re.compile(  # "x = {", "x[i] += (", "foo(" at the start of a line
    r"^[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*(?:[-+*/%|&^@]|//|\*\*)?=(?!=)|^[A-Za-z_][\w.]*[(\[{]"
)


def _prose_parse(tree: ast.Module) -> bool:
    """Single lines that Python accepts but that are really words: "python", "this is it", "Note: a is b"."""
    if len(tree.body) != 1:
        return False
    node = tree.body[0]
    if isinstance(node, ast.Expr):
        return not isinstance(node.value, (ast.Call, ast.Await)) and not (
            isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        )
    if isinstance(node, ast.AnnAssign) and node.value is None:
        return not isinstance(node.annotation, (ast.Name, ast.Attribute, ast.Subscript))
    return False


def _starts_code(line: str) -> bool:
    """Whether a line (outside any open bracket or string) begins Python code rather than prose."""
    s = line.strip()
    if not s:
        return False
    if s[0] in "#@)]}":
        return True
    if len(s) <= MAX_CLASSIFIED_LINE:
        tree, _ = parse_python(s)
        if tree is not None:
            return not _prose_parse(tree)
    elif _OPENS_STATEMENT.match(s) or _STATEMENT_KEYWORDS.match(s):
        return True  # a long line the parser is not asked about: "TABLE = [...]", "return (...)"
    if _CLAUSE.match(s) or _DEFINITION.match(s):
        return True  # a broken "def" line is still the model's code (a cut-off answer, say)
    if _HEADER_KEYWORDS.match(s):
        if s.split("#")[0].rstrip().endswith(":"):
            return True
    scanned = _scan(s, 0, None)
    if scanned[0] > 0 or scanned[2]:  # an open bracket or a backslash: the statement continues
        return bool(_OPENS_STATEMENT.match(s) or _HEADER_KEYWORDS.match(s) or _STATEMENT_KEYWORDS.match(s))
    return False


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None, bool]:
    """Bracket depth and open triple-quoted string after ``line``; third: ends with a backslash."""
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if quote is not None:
            if char == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
            i += 1
            continue
        if char == "#":
            break
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in "'\"":
            quote = char * 3 if line.startswith(char * 3, i) else char
            i += len(quote)
            continue
        i += 1
    if quote is not None and len(quote) == 1:
        quote = None  # a one-quote string cannot span lines (except with a backslash, which we ignore)
    return depth, quote, line.rstrip().endswith("\\") and quote is None


def _code_regions(lines: list[str], skip: set[int]) -> list[tuple[int, int]]:
    """Maximal runs of code-like lines outside fenced blocks, as (start, end) line ranges."""
    regions: list[tuple[int, int]] = []
    start: int | None = None
    last = 0
    depth, quote, continued = 0, None, False

    def close() -> None:
        nonlocal start, depth, quote, continued
        if start is not None:
            regions.append((start, last + 1))
        start = None
        depth, quote, continued = 0, None, False

    for index, line in enumerate(lines):
        if index in skip:
            close()
            continue
        inside = depth > 0 or quote is not None or continued
        if not line.strip() and not inside:
            continue
        if inside or (start is not None and line[:1] in (" ", "\t")) or _starts_code(line):
            if start is None:
                start = index
            last = index
            depth, quote, continued = _scan(line, depth, quote)
        else:
            close()
    close()
    return regions


MAX_SEGMENTS = MAX_BLOCKS  # code blocks and code regions parsed, the last ones


def code_segments(text: str) -> list[Segment]:
    """Fenced blocks and code regions outside fences (the last MAX_SEGMENTS), in the order they appear."""
    lines = text.split("\n")
    blocks = fenced_blocks(text)
    spans: list[tuple[int, int, str | None]] = [(b.start, b.end, b.body) for b in blocks if b.body.strip()]
    spans += [(start, end, None) for start, end in _code_regions(lines, fence_lines(blocks))]
    spans.sort(key=lambda span: span[0])
    return [
        Segment.of(body, start, end) if body is not None else _region_segment(lines, start, end)
        for start, end, body in spans[-MAX_SEGMENTS:]
    ]


_MAX_RESTARTS = 20  # later start lines tried for a region that does not parse (bounds the work)


def _region_segment(lines: list[str], start: int, end: int) -> Segment:
    """A region outside fences; if it does not parse, leading lines up to the function may be junk
    (a stray word the classifier took for code), so later statement starts are tried too. The end is
    never cut: code that breaks off is the model's error and is reported as such."""
    first = Segment.of(textwrap.dedent("\n".join(lines[start:end])), start, end)
    if first.tree is not None:
        return first
    if _DEFINITION.match(lines[start].strip()):
        return first  # starting later would drop the model's own definition
    if len(first.source) > MAX_RESTART_REGION:
        return first  # each restart parses the rest again: only for regions of program size
    starts = [i for i in range(start + 1, end) if lines[i][:1] not in (" ", "\t") and _starts_code(lines[i])]
    for later in starts[:_MAX_RESTARTS]:
        candidate = Segment.of(textwrap.dedent("\n".join(lines[later:end])), later, end)
        if candidate.tree is not None:
            return candidate
        if _DEFINITION.match(lines[later]):
            break  # starting after a definition would drop the model's code
    return first

