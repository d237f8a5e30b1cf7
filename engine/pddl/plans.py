"""Plans: IPC plan files and the lists of strings that programs and models return."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from genplan.engine.pddl.errors import PddlError

_STEP_PREFIX = re.compile(r"^\s*\d+(\.\d+)?\s*:\s*")
_DURATION_SUFFIX = re.compile(r"\s*\[[^\]]*\]\s*$")


@dataclass(frozen=True)
class PlanStep:
    """One action as written: ``raw`` is what the plan said; ``name``/``args`` lower-cased."""

    raw: str
    name: str | None
    args: tuple[str, ...]
    parenthesized: bool
    problem: str | None = None  # why the string is not a well-formed action, if it is not

    @property
    def well_formed(self) -> bool:
        return self.problem is None and self.name is not None

    def pddl(self) -> str:
        return "(" + " ".join([self.name or "", *self.args]) + ")"


def _new_step(raw: str, name: str, args: tuple[str, ...]) -> PlanStep:
    """A well-formed, parenthesized step, built without the dataclass's frozen __init__ (a third of the time
    of reading a plan file); the same object as ``PlanStep(raw, name, args, True, None)``."""
    step = object.__new__(PlanStep)
    step.__dict__.update(raw=raw, name=name, args=args, parenthesized=True, problem=None)
    return step


def parse_action(text: str) -> PlanStep:
    """Read one action string: ``(sail l0 l1)``; without parentheses it is kept but marked."""
    raw = text
    s = text.strip()
    if not s:
        return PlanStep(raw, None, (), False, "the action is an empty string")
    parenthesized = s.startswith("(") and s.endswith(")")
    if parenthesized:
        inner = s[1:-1]
        if "(" in inner or ")" in inner:
            return PlanStep(raw, None, (), True, "the action contains nested parentheses")
    elif "(" in s or ")" in s:
        return PlanStep(raw, None, (), False, "the parentheses of the action are not balanced")
    else:
        inner = s
    parts = inner.split()
    if not parts:
        return PlanStep(raw, None, (), parenthesized, "the action has no name")
    problem = None if parenthesized else "the action is not enclosed in parentheses"
    return PlanStep(raw, parts[0].lower(), tuple(p.lower() for p in parts[1:]), parenthesized, problem)


def parse_plan_strings(actions: list[str]) -> list[PlanStep]:
    return [parse_action(a) for a in actions]


def parse_plan_text(text: str, path: str | Path | None = None) -> list[PlanStep]:
    """IPC plan format: one ``(action arg ...)`` per line, ``;`` comments, optional ``N:`` prefixes, any case."""
    steps: list[PlanStep] = []
    new_step = _new_step
    for number, line in enumerate(text.splitlines(), start=1):
        content = (line.split(";", 1)[0] if ";" in line else line).strip()
        if not content:
            continue
        # the common line, "(action arg ...)", without the regular expressions and checks below
        if content[0] == "(" and content[-1] == ")" and content.count("(") == 1 and content.count(")") == 1:
            parts = content[1:-1].lower().split()
            if parts:
                steps.append(new_step(content, parts[0], tuple(parts[1:])))
                continue
        if content[0].isdigit():
            content = _STEP_PREFIX.sub("", content)
        if content.endswith("]"):
            content = _DURATION_SUFFIX.sub("", content)
        step = parse_action(content)
        if not step.parenthesized:
            raise PddlError(path, f"expected '(action arg ...)' but found '{content[:60]}'", number)
        if step.problem is not None:
            raise PddlError(path, step.problem, number)
        steps.append(step)
    return steps


def load_plan(path: str | Path) -> list[PlanStep]:
    p = Path(path)
    if not p.exists():
        raise PddlError(path, "no such file")
    if p.is_dir():
        raise PddlError(path, "is a directory, expected a plan file")
    try:
        text = p.read_text(encoding="utf-8-sig")  # -sig: a byte-order mark (Windows editors) is not PDDL
    except (UnicodeDecodeError, OSError):
        raise PddlError(path, "cannot be read as a UTF-8 text file") from None
    return parse_plan_text(text, path)


def plan_to_text(steps: list[str]) -> str:
    return "".join(f"{s}\n" for s in steps)
