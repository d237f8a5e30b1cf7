"""The kind of approach is asked only in ``engine/approaches/`` and ``engine/api/``.

Everyone who drives or reads runs (the CLI, the TUI, batches, reports, the run service) goes one way for every
approach: the registry's hooks decide (an approach that evaluates itself says so through ``self_evaluation``, a
report's baselines through ``baseline``), and capabilities only decide what a screen offers. The check reads
those sources and fails on:

- ``Capability.PROGRAMS`` (or the member's name as a string): "does it write programs?" picks a path;
- a comparison with an approach's name (``approach.name == "autotos"``, ``x in ("bas", "sil")``);
- a name of the old split (``own_loop``): a second path under a name of its own.

The approaches' own packages (``engine/pipeline``, ``engine/autotos``, ``engine/pddlego``) are the approaches'
implementation and may know their variants (Bas's and Sil's steps, PlanGen's loop).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# who drives or reads runs of any approach
CONSUMERS = ("cli", "tui", "engine/batch", "engine/report", "engine/runs", "engine/share", "engine/events.py")
APPROACH_NAMES = {"stein", "bas", "sil", "autotos", "pddlego", "plangen"}
SPLIT_WORDS = ("own_loop", "ownloop")


def sources() -> Iterator[Path]:
    for part in CONSUMERS:
        path = ROOT / part
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def _names_approach(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in APPROACH_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_approach(element) for element in node.elts)
    return False


def kind_questions(tree: ast.AST) -> list[tuple[int, str]]:
    """Where the source asks which kind of approach runs: (line, what)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "PROGRAMS":
            found.append((node.lineno, "Capability.PROGRAMS"))
        elif isinstance(node, ast.Constant) and node.value == "PROGRAMS":
            found.append((node.lineno, 'Capability["PROGRAMS"]'))
        elif isinstance(node, ast.Compare) and any(_names_approach(side) for side in (node.left, *node.comparators)):
            found.append((node.lineno, f"compares with an approach's name: {ast.unparse(node)[:60]}"))
        name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                else node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else node.arg
                if isinstance(node, ast.arg) else "")
        if any(word in name.lower() for word in SPLIT_WORDS):
            found.append((getattr(node, "lineno", 0), f"a name of the old split: {name}"))
    return found


def test_front_ends_batches_and_reports_never_ask_the_kind_of_approach() -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in sources()
        for line, what in kind_questions(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("source, caught", [
    ("if not approach.can(Capability.PROGRAMS): pass", "Capability.PROGRAMS"),
    ("ok = approach.can(_capability('PROGRAMS'))", 'Capability["PROGRAMS"]'),
    ("x = Capability['PROGRAMS']", 'Capability["PROGRAMS"]'),
    ("if approach.name == 'autotos': pass", "compares with an approach's name"),
    ("shown = [p for p in presets if names.get(p) in ('bas', 'sil')]", "compares with an approach's name"),
    ("def start_own_loop(self): pass", "a name of the old split"),
    ("prefs.own_loop", "a name of the old split"),
    ("if preset == 'F5-3': pass", None),  # a preset's name is data, not a kind
])
def test_the_check_catches_each_way_of_asking(source: str, caught: str | None) -> None:
    found = kind_questions(ast.parse(source))
    if caught is None:
        assert found == []
    else:
        assert found and all(caught in what for _, what in found)
