"""Finding the answer in model output: descriptions, pseudocode strategies, plans and Python programs.

Every extractor returns an :class:`Extraction`. Its ``value`` is what was found, or None when nothing
usable was found; ``reason`` then says why, phrased to complete "nothing could be extracted because ..."
so that the pipeline can tell the model once (``prompts/<variant>/extraction_failed.j2``) before it
counts the answer as a failed attempt. On success ``reason`` says where the value was found.

Reasoning blocks (``<think>...</think>``) are ignored everywhere. Line numbers reported by the
extractors refer to the answer text as given.
"""

from __future__ import annotations

import ast
import builtins
import re
import textwrap
from dataclasses import dataclass
from typing import Generic, Iterable, TypeVar

T = TypeVar("T")

DEFAULT_FUNCTION_NAMES = ("generate_solution", "get_plan")


@dataclass(frozen=True)
class Extraction(Generic[T]):
    """The result of one extractor: ``value`` (None if nothing was found) and a ``reason``."""

    value: T | None
    reason: str

    @property
    def ok(self) -> bool:
        return self.value is not None

    def __bool__(self) -> bool:
        return self.ok


def _fail(reason: str) -> Extraction:  # type: ignore[type-arg]
    return Extraction(None, reason)


# --------------------------------------------------------------------------- common text handling

_REASONING_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_REASONING_END = re.compile(r"</(?:think|thinking|reasoning)>", re.I)


def clean_answer(text: str) -> str:
    """Normalise line ends and blank out reasoning blocks (keeping the line numbering intact)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _REASONING_BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    # Some servers put the reasoning at the start of the content and only close the tag.
    ends = list(_REASONING_END.finditer(text))
    if ends:
        cut = ends[-1].end()
        text = "\n" * text[:cut].count("\n") + text[cut:]
    return text


@dataclass(frozen=True)
class FencedBlock:
    """A fenced block (```lang ... ```); lines are 0-based indices into the answer, ``end`` exclusive."""

    lang: str
    body: str
    start: int
    end: int
    closed: bool


_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")


def fenced_blocks(text: str) -> list[FencedBlock]:
    """All fenced blocks in order. A fence that is never closed runs to the end (cut-off answers)."""
    lines = text.split("\n")
    blocks: list[FencedBlock] = []
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if match is None:
            i += 1
            continue
        fence, indent = match["fence"], len(match["indent"])
        info = match["info"].strip()
        closing = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        body = "\n".join(_strip_indent(line, indent) for line in lines[i + 1 : j])
        lang = info.split()[0].lower() if info else ""
        blocks.append(FencedBlock(lang, body, i + 1, j, j < len(lines)))
        i = j + 1
    return blocks


def _strip_indent(line: str, width: int) -> str:
    """Remove up to ``width`` leading blanks (the fence's own indentation inside a list item)."""
    cut = 0
    while cut < width and cut < len(line) and line[cut] in " \t":
        cut += 1
    return line[cut:]


def _fence_lines(blocks: list[FencedBlock]) -> set[int]:
    """Line indices belonging to fenced blocks, fence markers included."""
    covered: set[int] = set()
    for block in blocks:
        covered.update(range(block.start - 1, block.end + 1))
    return covered


# --------------------------------------------------------------------------- natural language

def extract_nl(text: str) -> Extraction[str]:
    """A description: the answer without reasoning blocks, unwrapped if it is one fenced block."""
    text = clean_answer(text).strip()
    if not text:
        return _fail("the answer is empty")
    blocks = fenced_blocks(text)
    if len(blocks) == 1 and blocks[0].start == 1 and blocks[0].end >= len(text.split("\n")) - 1:
        inner = blocks[0].body.strip()
        if inner:
            return Extraction(inner, "the answer's only fenced block")
    return Extraction(text, "the whole answer")


# --------------------------------------------------------------------------- strategies

_LABEL_WORDS = (
    r"(?:(?:final|revised|updated|corrected|complete|new|improved)\s+)*"
    r"(?:pseudo-?\s?code|strategy)(?:\s+(?:strategy|pseudo-?\s?code))?"
    r"(?:\s*\([^)\n]*\))?"
)
_LABEL_WITH_COLON = re.compile(r"^" + _LABEL_WORDS + r"\s*:\s*(?P<rest>.*)$", re.I)
_LABEL_ALONE = re.compile(r"^" + _LABEL_WORDS + r"$", re.I)
_INTRODUCER = re.compile(r"\b(?:pseudo-?\s?code|strategy)\b[^\n]{0,40}:\s*$", re.I)


def _label_rest(line: str) -> str | None:
    """For a label line ("Pseudocode:", "**Strategy:** ...", "### Final pseudocode"), the text after it."""
    core = line.strip().strip("#>*_` \t")
    match = _LABEL_WITH_COLON.match(core)
    if match is not None:
        return match["rest"].strip().strip("*_` \t")
    if _LABEL_ALONE.match(core):
        return ""
    return None


def _content_after(lines: list[str], index: int, rest: str) -> str:
    """What follows a label on line ``index``: the next fenced block if it starts right there, else the rest."""
    following = lines[index + 1 :]
    if not rest:
        while following and not following[0].strip():
            following = following[1:]
        if following and _FENCE_OPEN.match(following[0]):
            blocks = fenced_blocks("\n".join(following))
            if blocks:
                return blocks[0].body.strip()
    return "\n".join([rest, *following]).strip()


def extract_strategy(text: str, fallback_to_text: bool = False) -> Extraction[str]:
    """A strategy (pseudocode or prose), looked for in this order:

    1. after the last label line ("Pseudocode:", "Strategy:", "**Revised pseudocode:**", "## Pseudocode");
       when a fenced block follows the label directly, its content;
    2. the last non-empty fenced block;
    3. after the last line that ends by introducing it ("Here is the pseudocode:");
    4. with ``fallback_to_text`` (prompts that ask for no format, like Silver et al.'s), the whole answer.
    """
    text = clean_answer(text)
    if not text.strip():
        return _fail("the answer is empty")
    lines = text.split("\n")
    blocks = fenced_blocks(text)
    inside = _fence_lines(blocks)
    for index in range(len(lines) - 1, -1, -1):
        if index in inside:
            continue
        rest = _label_rest(lines[index])
        if rest is None:
            continue
        content = _content_after(lines, index, rest)
        if content:
            return Extraction(content, f"after the label on line {index + 1}")
    for block in reversed(blocks):
        if block.body.strip():
            return Extraction(block.body.strip(), f"the last fenced block (line {block.start})")
    for index in range(len(lines) - 1, -1, -1):
        if _INTRODUCER.search(lines[index]):
            content = "\n".join(lines[index + 1 :]).strip()
            if content:
                return Extraction(content, f"after line {index + 1}, which introduces it")
    if fallback_to_text:
        return Extraction(text.strip(), "the whole answer")
    return _fail('the answer has no line "Pseudocode:" (or "Strategy:") followed by the strategy, and no fenced block')


# --------------------------------------------------------------------------- plans

_BULLET = re.compile(
    r"""^(?:
        [-*+\u2022]\s+                                  # - item
      | \d+\s*[.):\]]\s*                                # 1.  1)  1:  1]
      | \[\d+\]\s*                                      # [1]
      | step\s*\d+\s*(?:[.):-]\s*)?                     # Step 1:  step 1 -
      | (?:action|move)\s*\d+\s*[.):-]\s*               # Action 1:
    )""",
    re.I | re.X,
)
_NAME = r"[a-z_][\w.\-]*"
_TOKEN = re.compile(r"^[\w.\-]+$")
_CALL_STYLE = re.compile(r"^(" + _NAME + r")\(([^()]*)\)", re.I)  # sail(l0, l1), no blank before "("
_NOT_ACTIONS = {"and", "not", "or", "define", "forall", "exists", "when", "imply", "increase", "decrease"}
_LABELLED_ACTION = re.compile(r"^[^()`'\"]{1,60}?(?::|->|=>|\u2192)\s*[`'\"]?(?=\()")
_SEPARATORS = re.compile(r"^[\s,;'\"`\[\]]*$")


def _parse_group(inner: str) -> str | None:
    """``sail l0, L1`` (the inside of one pair of parentheses) -> ``(sail l0 l1)``, or None."""
    tokens = [t for t in re.split(r"[\s,]+", inner.strip()) if t]
    if not tokens or not re.match(r"^" + _NAME + r"$", tokens[0], re.I):
        return None
    if tokens[0].lower() in _NOT_ACTIONS or not all(_TOKEN.match(t) for t in tokens):
        return None  # PDDL formulas, lifted schemata ("?x") and prose in parentheses are no actions
    return "(" + " ".join(t.lower() for t in tokens) + ")"


def _balanced_groups(text: str) -> tuple[list[str], str] | None:
    """Split ``(a b) (c d)`` into the group contents and the leftover text; None on nested parentheses."""
    groups: list[str] = []
    leftover: list[str] = []
    depth = 0
    current: list[str] = []
    for char in text:
        if char == "(":
            if depth:
                return None
            depth = 1
            current = []
        elif char == ")" and depth:
            depth = 0
            groups.append("".join(current))
        elif depth:
            current.append(char)
        else:
            leftover.append(char)
    if depth:
        return None
    return groups, "".join(leftover)


def parse_action_line(line: str, action_names: Iterable[str] | None = None) -> list[str] | None:
    """The actions on one plan line, normalised to lower-case ``(name arg ...)``; None if it is no plan line.

    Accepted: ``(sail l0 l1)``, ``1. (SAIL L0 L1) ; move``, ``Step 1: sail(l0, l1)``, ``- `(sail l0 l1)` ``,
    ``'(sail l0 l1)',`` (a Python list line), several actions on one line, and ``sail l0 l1`` without
    parentheses when ``sail`` is one of ``action_names``. Text after the action is commentary and dropped.
    """
    known = {name.lower() for name in action_names} if action_names is not None else None
    s = line.strip()
    s = s.lstrip("[").strip()
    s = re.sub(r"^\*\*(.*?)\*\*", r"\1", s)  # **1.** or **Step 1:**
    while True:
        stripped = _BULLET.sub("", s, count=1).strip()
        stripped = stripped.strip("*").strip()
        if stripped == s:
            break
        s = stripped
    s = s.lstrip("`'\"").strip()
    labelled = _LABELLED_ACTION.match(s)  # "Action: (board c0 l0)", "Load the car -> (board c0 l0)"
    if labelled is not None:
        s = s[labelled.end() :]
    if not s:
        return None
    if s.startswith("("):
        split = _balanced_groups(s[: _commentary_start(s)])
        if split is None:
            return None
        groups, leftover = split
        actions = [_parse_group(g) for g in groups]
        if not actions or actions[0] is None:
            return None
        if len(groups) > 1 and _SEPARATORS.match(leftover) and all(actions):
            # "(board c0 l0) (sail l0 l1)": a sequence, unless the later groups are no known actions
            # (then they are remarks in parentheses)
            if known is None or all(a[1:].split(" ")[0] in known for a in actions if a):
                return [a for a in actions if a]
        return [actions[0]]
    call = _CALL_STYLE.match(s)
    if call is not None and call[1].lower() not in _NOT_ACTIONS:
        action = _parse_group(f"{call[1]} {call[2]}")
        return [action] if action else None
    if known is not None:
        bare = re.split(r"\s*(?:;|#|//|--|->)", s, maxsplit=1)[0].strip().rstrip(",'\"`").strip()
        tokens = bare.split()
        # Title case ("Sail the ferry") reads as a sentence; actions are written in one case.
        if (
            tokens
            and tokens[0].lower() in known
            and (tokens[0].islower() or tokens[0].isupper())
            and all(_TOKEN.match(t) for t in tokens)
        ):
            return ["(" + " ".join(t.lower() for t in tokens) + ")"]
    return None


def _commentary_start(s: str) -> int:
    """Index where a PDDL/Python comment starts (outside parentheses), else len(s)."""
    depth = 0
    for index, char in enumerate(s):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and (char in ";#" or s.startswith("//", index)):
            return index
    return len(s)


_IGNORABLE_LINE = re.compile(r"^\s*(?:[;#].*|//.*|[\[\]{}(),]*|plan\s*=\s*\[?|[A-Za-z ]{1,30}:)\s*$", re.I)


@dataclass(frozen=True)
class _PlanCandidate:
    actions: list[str]
    junk: int  # lines that are neither actions nor ignorable
    where: str


def _plan_from_lines(lines: list[str], action_names: Iterable[str] | None, where: str) -> _PlanCandidate:
    actions: list[str] = []
    junk = 0
    for line in lines:
        if not line.strip():
            continue
        parsed = parse_action_line(line, action_names)
        if parsed:
            actions.extend(parsed)
        elif not _IGNORABLE_LINE.match(line):
            junk += 1
    return _PlanCandidate(actions, junk, where)


def _looks_like_plan(candidate: _PlanCandidate) -> bool:
    return bool(candidate.actions) and candidate.junk * 2 <= len(candidate.actions)


def extract_plan(text: str, action_names: Iterable[str] | None = None) -> Extraction[list[str]]:
    """A plan as lower-case ``(name arg ...)`` strings.

    Looks at fenced blocks first (the last one that looks like a plan: mostly action lines), then at runs
    of consecutive action lines outside fences (the last run), then at the action lines of the last fenced
    block that has any. An empty last fenced block counts as the empty plan. ``action_names`` (the
    domain's actions) lets lines without parentheses count as actions.
    """
    text = clean_answer(text)
    if not text.strip():
        return _fail("the answer is empty")
    names = list(action_names) if action_names is not None else None
    blocks = fenced_blocks(text)
    fenced = [
        _plan_from_lines(b.body.split("\n"), names, f"the fenced block at line {b.start}") for b in blocks
    ]
    plans = [c for c in fenced if _looks_like_plan(c)]
    if plans:
        return Extraction(plans[-1].actions, plans[-1].where)
    if blocks and not blocks[-1].body.strip() and blocks[-1].closed:
        return Extraction([], f"the empty fenced block at line {blocks[-1].start}")
    runs = _action_runs(text.split("\n"), _fence_lines(blocks), names)
    if runs:
        return Extraction(runs[-1].actions, runs[-1].where)
    mixed = [c for c in fenced if c.actions]  # actions between notes about the state, say
    if mixed:
        return Extraction(mixed[-1].actions, mixed[-1].where + " (ignoring the lines that are no actions)")
    if blocks:
        return _fail(
            "none of the fenced blocks contains a plan with one action like (action-name object-1 ...) per line"
        )
    return _fail("the answer contains no fenced block and no list of actions like (action-name object-1 ...)")


def _action_runs(lines: list[str], skip: set[int], names: list[str] | None) -> list[_PlanCandidate]:
    """Runs of action lines outside fences; blank lines and indented notes do not end a run."""
    runs: list[_PlanCandidate] = []
    current: list[str] = []
    start = 0

    def close() -> None:
        if current:
            runs.append(_PlanCandidate(list(current), 0, f"the list of actions at line {start + 1}"))
            current.clear()

    for index, line in enumerate(lines):
        if index in skip:
            close()
            continue
        if not line.strip():
            continue
        parsed = parse_action_line(line, names)
        if parsed:
            if not current:
                start = index
            current.extend(parsed)
        elif current and line[:1] in (" ", "\t"):
            continue  # an explanation under a list item
        else:
            close()
    close()
    return runs


# --------------------------------------------------------------------------- code

@dataclass(frozen=True)
class ExtractedCode:
    """A program found in an answer.

    ``syntax_error`` ("line 12: '(' was never closed") is set when the model's code does not parse; the
    code is returned anyway so that the error can be reported like any other Python exception.
    ``helpers`` names definitions taken from other code blocks of the answer or from ``previous_code``;
    ``patched`` means the answer only redefined parts of ``previous_code``. ``lines`` is the 1-based,
    inclusive line range of the main code in the answer (None when patched). ``dropped_usage``: top-level
    example usage (``print(...)``, calls of the function, a ``__main__`` block) was removed.
    """

    code: str
    function_name: str
    syntax_error: str | None = None
    helpers: tuple[str, ...] = ()
    patched: bool = False
    lines: tuple[int, int] | None = None
    dropped_usage: bool = False


@dataclass
class _Segment:
    """A piece of the answer that may be code: a fenced block or a code-like region outside fences."""

    source: str
    start: int  # 0-based first line in the answer
    end: int  # exclusive
    tree: ast.Module | None
    error: str | None

    @classmethod
    def of(cls, source: str, start: int, end: int) -> _Segment:
        tree, error = _parse(source)
        return cls(source, start, end, tree, error)

    def defines(self, name: str) -> bool:
        if self.tree is not None:
            return any(
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
                for node in self.tree.body
            )
        return re.search(r"^(?:async\s+)?def\s+" + re.escape(name) + r"\s*\(", self.source, re.M) is not None

    def function_names(self) -> list[str]:
        if self.tree is not None:
            return [n.name for n in self.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return re.findall(r"^(?:async\s+)?def\s+(\w+)\s*\(", self.source, re.M)


def _parse(source: str) -> tuple[ast.Module | None, str | None]:
    try:
        return ast.parse(source), None
    except SyntaxError as err:
        return None, f"line {err.lineno}: {err.msg}"
    except (ValueError, RecursionError, MemoryError) as err:
        return None, f"the code cannot be parsed ({type(err).__name__})"


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
    try:
        return not _prose_parse(ast.parse(s))
    except (SyntaxError, ValueError):
        pass
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


def _segments(text: str) -> list[_Segment]:
    """Fenced blocks and code regions outside fences, in the order they appear."""
    lines = text.split("\n")
    blocks = fenced_blocks(text)
    segments = [_Segment.of(b.body, b.start, b.end) for b in blocks if b.body.strip()]
    for start, end in _code_regions(lines, _fence_lines(blocks)):
        segments.append(_region_segment(lines, start, end))
    return sorted(segments, key=lambda s: s.start)


_MAX_RESTARTS = 20  # later start lines tried for a region that does not parse (bounds the work)


def _region_segment(lines: list[str], start: int, end: int) -> _Segment:
    """A region outside fences; if it does not parse, leading lines up to the function may be junk
    (a stray word the classifier took for code), so later statement starts are tried too. The end is
    never cut: code that breaks off is the model's error and is reported as such."""
    first = _Segment.of(textwrap.dedent("\n".join(lines[start:end])), start, end)
    if first.tree is not None:
        return first
    if _DEFINITION.match(lines[start].strip()):
        return first  # starting later would drop the model's own definition
    starts = [i for i in range(start + 1, end) if lines[i][:1] not in (" ", "\t") and _starts_code(lines[i])]
    for later in starts[:_MAX_RESTARTS]:
        candidate = _Segment.of(textwrap.dedent("\n".join(lines[later:end])), later, end)
        if candidate.tree is not None:
            return candidate
        if _DEFINITION.match(lines[later]):
            break  # starting after a definition would drop the model's code
    return first


# Names and helper definitions ---------------------------------------------------------------------

_BUILTINS = frozenset(dir(builtins))


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the code binds anywhere (a conservative stand-in for scope analysis)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
    return bound


def _missing_names(tree: ast.AST) -> set[str]:
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - _bound_names(tree) - _BUILTINS


def _top_level_binders(tree: ast.Module) -> dict[str, ast.stmt]:
    """Top-level statements by the names they bind (later statements win, as when Python runs them)."""
    table: dict[str, ast.stmt] = {}
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*"]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        for name in names:
            table[name] = node
    return table


def _statement_source(source: str, node: ast.stmt) -> str:
    lines = source.split("\n")
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    last = node.end_lineno or node.lineno
    return "\n".join(lines[first - 1 : last])


def _without_usage(source: str, tree: ast.Module, names: tuple[str, ...]) -> tuple[str, ast.Module, bool]:
    """Drop top-level example usage: ``if __name__ == "__main__":`` blocks, ``print(...)`` and statements
    that call the target function. Only the function is ever called, so these would just run (and
    possibly fail) when the program is loaded."""
    drop = [node for node in tree.body if _is_usage(node, names)]
    if not drop:
        return source, tree, False
    lines = source.split("\n")
    dropped_lines = {i for node in drop for i in range(node.lineno - 1, node.end_lineno or node.lineno)}
    kept_lines = {
        i for node in tree.body if node not in drop for i in range(node.lineno - 1, node.end_lineno or node.lineno)
    }
    if dropped_lines & kept_lines:  # statements sharing a line ("a = 1; print(a)"): leave the code alone
        return source, tree, False
    text = "\n".join(line for i, line in enumerate(lines) if i not in dropped_lines).strip("\n")
    new_tree, _ = _parse(text)
    if new_tree is None:  # cannot happen for whole statements, but never hand back broken code for it
        return source, tree, False
    return text + "\n", new_tree, True


def _is_usage(node: ast.stmt, names: tuple[str, ...]) -> bool:
    if isinstance(node, ast.If):
        test = node.test
        return (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == "__name__"
        )
    if not isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return False
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Name) and func.id == "print":
            return True
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names for n in ast.walk(node)
    )


def _add_helpers(source: str, tree: ast.Module, sources: list[tuple[str, ast.Module]]) -> tuple[str, tuple[str, ...]]:
    """Prepend definitions the main code uses but lacks, taken from ``sources`` (first match wins)."""
    main_source, main_tree = source, tree
    tables = [(source, _top_level_binders(tree)) for source, tree in sources]
    added: list[tuple[str, ast.stmt, str]] = []  # (name, statement, its source text)
    seen: set[int] = set()
    wanted = _missing_names(main_tree)
    resolved: set[str] = set()
    while wanted - resolved:
        name = sorted(wanted - resolved)[0]
        resolved.add(name)
        for source, table in tables:
            node = table.get(name)
            if node is None:
                continue
            if id(node) not in seen:
                seen.add(id(node))
                added.append((name, node, _statement_source(source, node)))
                wanted |= _missing_names(node)
            break
    if not added:
        return main_source, ()
    imports = [text for _, node, text in added if isinstance(node, (ast.Import, ast.ImportFrom))]
    others = [text for _, node, text in added if not isinstance(node, (ast.Import, ast.ImportFrom))]
    parts = []
    if imports:
        parts.append("\n".join(imports))
    parts.extend(others)
    parts.append(main_source)
    return "\n\n\n".join(parts), tuple(sorted({name for name, _, _ in added}))


def _patch(previous: str, function_name: str, segments: list[_Segment]) -> tuple[str, tuple[str, ...]] | None:
    """Apply an answer that only (re)defines helpers to the previous program: replaced definitions stay
    where they were, new ones go before the main function, new imports to the top."""
    prev_tree, _ = _parse(previous)
    if prev_tree is None:
        return None
    prev_names = {
        n.name for n in prev_tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    if function_name not in prev_names:
        return None
    definitions: dict[str, str] = {}
    imports: list[str] = []
    for segment in segments:
        for node in segment.tree.body if segment.tree is not None else []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                definitions[node.name] = _statement_source(segment.source, node)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                imports.append(_statement_source(segment.source, node))
    # Only worth it if the answer changes what the previous program runs: it replaces one of its
    # definitions or supplies one it lacks. (A renamed main function, say, is better reported.)
    effective = (set(definitions) & prev_names) | (set(definitions) & _missing_names(prev_tree))
    if not effective:
        return None
    lines = previous.split("\n")
    pieces = ["\n".join(imports)] if imports else []
    position = 0
    for node in prev_tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
        if node.name == function_name:
            fresh = [text for name, text in definitions.items() if name not in prev_names]
            if fresh:
                pieces += ["\n".join(lines[position:first]), *fresh]
                position = first
        if node.name in definitions:
            pieces += ["\n".join(lines[position:first]), definitions[node.name]]
            position = node.end_lineno or node.lineno
    pieces.append("\n".join(lines[position:]))
    merged = "\n\n".join(piece.strip("\n") for piece in pieces if piece.strip())
    return merged + "\n", tuple(sorted(effective))


def extract_code(
    text: str,
    function_names: Iterable[str] = DEFAULT_FUNCTION_NAMES,
    previous_code: str | None = None,
) -> Extraction[ExtractedCode]:
    """The program in an answer: the code that defines one of ``function_names`` at top level.

    Code is looked for in fenced blocks and, outside fences, in runs of code-like lines (answers often
    have no fence at all, or prose before and after the code). Several candidates: one that parses
    beats one that does not, then the last one wins. Names the chosen code uses but does not define are
    taken from the answer's other code blocks, then from ``previous_code`` (Silver et al. appended every
    answer to a growing file for the same reason). An answer that defines none of ``function_names``
    but redefines helpers of ``previous_code`` is applied to it (``patched``).
    """
    names = tuple(function_names)
    text = clean_answer(text)
    if not text.strip():
        return _fail("the answer is empty")
    tree, _ = _parse(text)
    if tree is not None and any(_Segment(text, 0, 0, tree, None).defines(n) for n in names):
        segments = [_Segment(text, 0, len(text.split("\n")), tree, None)]
        how = "the whole answer"
    else:
        segments = _segments(text)
        how = ""
    for name in names:
        defining = [s for s in segments if s.defines(name)]
        if defining:
            break
    else:
        return _no_function(segments, names, previous_code)
    parsing = [s for s in defining if s.tree is not None]
    chosen = parsing[-1] if parsing else defining[-1]
    where = how or f"the code at lines {chosen.start + 1}-{chosen.end}"
    span = (chosen.start + 1, chosen.end)
    if chosen.tree is None:
        return Extraction(
            ExtractedCode(chosen.source, name, syntax_error=chosen.error, lines=span),
            f"{where} (it does not parse: {chosen.error})",
        )
    sources = [(s.source, s.tree) for s in reversed(segments) if s is not chosen and s.tree is not None]
    if previous_code:
        prev_tree, _ = _parse(previous_code)
        if prev_tree is not None:
            sources.append((previous_code, prev_tree))
    source, tree, dropped = _without_usage(chosen.source, chosen.tree, names)
    code, helpers = _add_helpers(source, tree, sources)
    if dropped:
        where += ", without its example usage"
    if helpers:
        where += f", with {', '.join(helpers)} from elsewhere"
    return Extraction(ExtractedCode(code, name, helpers=helpers, lines=span, dropped_usage=dropped), where)


def _no_function(
    segments: list[_Segment], names: tuple[str, ...], previous_code: str | None
) -> Extraction[ExtractedCode]:
    wanted = " or ".join(names)
    if previous_code:
        for name in names:
            patched = _patch(previous_code, name, segments)
            if patched is not None:
                code, replaced = patched
                return Extraction(
                    ExtractedCode(code, name, helpers=replaced, patched=True),
                    f"the previous program with the answer's definition of {', '.join(replaced)}",
                )
    defined = [f for s in segments for f in s.function_names()]
    if defined:
        listed = ", ".join(dict.fromkeys(defined))
        return _fail(f"the code in the answer defines {listed} but no function named {wanted}")
    if segments:
        return _fail(f"the code in the answer does not define the function {wanted}")
    return _fail(f"the answer contains no Python code defining {wanted}")
