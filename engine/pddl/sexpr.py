"""A small s-expression reader that keeps line numbers.

The `pddl` package does the actual parsing; this reader exists because that package forgets file order
and line numbers, which we need for prompts (file order) and for error messages (file:line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from genplan.engine.pddl.errors import PddlError


@dataclass(frozen=True)
class Atom:
    """A symbol, lower-cased (PDDL is case-insensitive), with the line it stands on."""

    text: str
    line: int


@dataclass
class SList:
    """A parenthesised list with the line of its opening parenthesis."""

    items: list[SList | Atom] = field(default_factory=list)
    line: int = 0

    def head(self) -> str | None:
        if self.items and isinstance(self.items[0], Atom):
            return self.items[0].text
        return None

    def sublists(self) -> list[SList]:
        return [item for item in self.items if isinstance(item, SList)]


Node = SList | Atom


def strip_comment(line: str) -> str:
    cut = line.find(";")
    return line if cut < 0 else line[:cut]


def tokenize(text: str, path: str | Path | None) -> list[tuple[str, int]]:
    tokens: list[tuple[str, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw)
        for piece in line.replace("(", " ( ").replace(")", " ) ").split():
            tokens.append((piece, number))
    return tokens


def read_sexpr(text: str, path: str | Path | None = None) -> SList:
    """Read exactly one top-level list; every error names the file and the line."""
    tokens = tokenize(text, path)
    if not tokens:
        raise PddlError(path, "the file is empty (expected '(define ...)')")
    stack: list[SList] = []
    root: SList | None = None
    for token, line in tokens:
        if token == "(":
            node = SList(line=line)
            if stack:
                stack[-1].items.append(node)
            elif root is not None:
                if root.head() != "define":  # the stray form is the first one, not what follows it
                    raise _before_define(root, path)
                raise PddlError(path, "unexpected text after the closing parenthesis of 'define'", line)
            else:
                root = node
            stack.append(node)
        elif token == ")":
            if not stack:
                raise PddlError(path, "unbalanced parentheses: ')' without a matching '('", line)
            stack.pop()
        else:
            if not stack:
                raise PddlError(path, f"unexpected symbol '{token}' outside of '(define ...)'", line)
            stack[-1].items.append(Atom(token.lower(), line))
    if stack:
        raise PddlError(
            path, "unbalanced parentheses: the '(' opened here is never closed", stack[-1].line
        )
    assert root is not None
    return root


def _before_define(form: SList, path: str | Path | None) -> PddlError:
    """A form ahead of ``(define ...)``: ``(in-package "PDDL")`` in the IPC-1998 files (mystery, movie), a
    leftover of PDDL's Lisp origins, which neither VAL nor Fast Downward reads."""
    head = form.head()
    if head == "in-package":
        return PddlError(path, "'(in-package ...)' before '(define ...)' is Common Lisp, not PDDL (VAL and Fast "
                               "Downward refuse it too): delete that form", form.line)
    shown = f"'({head} ...)'" if head else "a list"
    return PddlError(path, f"{shown} before '(define ...)': a PDDL file is one '(define ...)' form", form.line)


def render(node: Node) -> str:
    """Write a node back as PDDL text on one line."""
    if isinstance(node, Atom):
        return node.text
    return "(" + " ".join(render(item) for item in node.items) + ")"


def render_keeping_lines(node: Node) -> str:
    """Write a node back as PDDL text with every symbol on its original line.

    The `pddl` package parses what we render; keeping the lines makes the line numbers in its error
    messages the file's. Nodes added by the normalizer carry their parent's line and stay on it.
    """
    out: list[str] = []
    current = 1

    def emit(text: str, line: int) -> None:
        nonlocal current
        if line > current:
            out.append("\n" * (line - current))
            current = line
        elif out and out[-1] != "(":
            out.append(" ")
        out.append(text)

    def walk(n: Node) -> None:
        if isinstance(n, Atom):
            emit(n.text, n.line)
            return
        emit("(", n.line)
        for item in n.items:
            walk(item)
        out.append(")")

    walk(node)
    return "".join(out)
