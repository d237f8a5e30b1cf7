"""The check an edited program or PDDL file gets before a run continues from it: does it still parse?

Python goes through the engine's compile without warnings (the parser and the compiler's own checks, such as
``return`` outside a function; an invalid escape is no problem); PDDL through genplan's own parser, as the run
would read it. Each problem has a line and a column (1-based) for the editor to show and put the cursor on.
Prose (strategies, reflections) is not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    line: int  # 1-based
    column: int  # 1-based
    message: str
    where: str = ""  # another file than the edited one (a PDDLego+ call's other file), else ""

    def describe(self) -> str:
        place = f"{self.where} " if self.where else ""
        return f"{place}line {self.line}, column {self.column}: {self.message}"


def check_python(text: str) -> list[Problem]:
    # the whole compiler (also "'return' outside function"), without the warnings a run would give ("\d")
    from genplan.engine.api.versions import compile_quietly

    try:
        compile_quietly(text, "<edited program>")
    except SyntaxError as exc:
        line = exc.lineno or 1
        column = exc.offset or 1
        return [Problem(line, max(1, column), exc.msg or "invalid syntax")]
    except (ValueError, RecursionError) as exc:  # a null byte; nesting too deep for the parser
        return [Problem(1, 1, str(exc) or type(exc).__name__)]
    return []


_QUOTED = re.compile(r"'([^']+)'")


def _column_of(text: str, line: int, message: str) -> int:
    """Where on ``line`` the parser's complaint points: the first symbol it quotes, if the line has it (outside
    a comment), else the line's first non-blank character."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return 1
    source = lines[line - 1].split(";", 1)[0]
    for quoted in _QUOTED.findall(message):
        found = source.lower().find(quoted.lower())
        if found >= 0:
            return found + 1
    stripped = len(source) - len(source.lstrip())
    return stripped + 1 if source.strip() else 1


def check_pddl(text: str, role: str = "domain", other: str | None = None) -> list[Problem]:
    """A PDDL domain (``role`` "domain") or problem file. ``other`` is the file it is read with (a problem file's
    domain, a domain file's problem, as a PDDLego+ call wrote them), read leniently as the trial's solver does;
    without it a domain is read alone and a problem cannot be checked beyond its parentheses."""
    from genplan.engine.api.pddl import DOMAIN_FILE, PROBLEM_FILE, parse_error

    exc = parse_error(text, role, other)
    if exc is None:
        return []
    mine = exc.path in (None, DOMAIN_FILE if role == "domain" else PROBLEM_FILE)
    line = exc.line or 1
    column = _column_of(text if mine else (other or ""), line, exc.detail)
    return [Problem(line, column, exc.detail, "" if mine else f"in the {'problem' if role == 'domain' else 'domain'} file,")]


def sibling_pddl(path: Path) -> tuple[str, Path] | None:
    """A PDDLego+ call's file (``sNN-aN-rN-domain.pddl``): its role and the other file of the same call."""
    for role, other in (("domain", "problem"), ("problem", "domain")):
        suffix = f"-{role}.pddl"
        if path.name.endswith(suffix):
            return role, path.with_name(path.name[: -len(suffix)] + f"-{other}.pddl")
    return None


def check_text(text: str, syntax: str, path: Path | None = None) -> list[Problem]:
    """The problems of an edited text in language ``syntax`` (python, pddl; others are not checked)."""
    if syntax == "python":
        return check_python(text)
    if syntax == "pddl":
        found = sibling_pddl(path) if path is not None else None
        if found is None:
            return check_pddl(text)
        role, other_path = found
        try:
            other = other_path.read_text(encoding="utf-8")
        except OSError:
            other = None
        return check_pddl(text, role, other)
    return []
