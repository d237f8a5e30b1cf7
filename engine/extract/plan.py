"""Plans: lists of ground actions, in fenced blocks or as runs of action lines, in the many ways
models write them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from genplan.engine.extract.common import MAX_BLOCKS, Extraction, clean_answer, fail, fence_lines, fenced_blocks

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
        return fail("the answer is empty")
    names = list(action_names) if action_names is not None else None
    blocks = fenced_blocks(text)
    fenced = [
        _plan_from_lines(b.body.split("\n"), names, f"the fenced block at line {b.start}") for b in blocks[-MAX_BLOCKS:]
    ]
    plans = [c for c in fenced if _looks_like_plan(c)]
    if plans:
        return Extraction(plans[-1].actions, plans[-1].where)
    if blocks and not blocks[-1].body.strip() and blocks[-1].closed:
        return Extraction([], f"the empty fenced block at line {blocks[-1].start}")
    runs = _action_runs(text.split("\n"), fence_lines(blocks), names)
    if runs:
        return Extraction(runs[-1].actions, runs[-1].where)
    mixed = [c for c in fenced if c.actions]  # actions between notes about the state, say
    if mixed:
        return Extraction(mixed[-1].actions, mixed[-1].where + " (ignoring the lines that are no actions)")
    if blocks:
        return fail(
            "none of the fenced blocks contains a plan with one action like (action-name object-1 ...) per line"
        )
    return fail("the answer contains no fenced block and no list of actions like (action-name object-1 ...)")


def extract_plan_as_reference(text: str) -> Extraction[list[str]]:
    """A plan as the reference code takes it (agents/agent_plan_generation.py, ``generate_plan``): the lines
    that start with "(" after the last "Solution:" of the answer (the whole answer when it has none), as they
    are. Never a failure: an answer without such lines is the empty plan, which the validator then judges."""
    after = text.split("Solution:")[-1]
    lines = [line for line in after.strip().split("\n") if line.startswith("(")]
    actions: list[str] = []
    for line in lines:
        parsed = parse_action_line(line)
        # a line the parser cannot read goes to the validator as it is (the reference hands VAL the lines)
        actions.extend(parsed if parsed else [line.strip()])
    where = "the lines starting with '(' after the last 'Solution:'" if "Solution:" in text else \
        "the lines starting with '(' of the answer"
    return Extraction(actions, where)


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
