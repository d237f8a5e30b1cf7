"""The engine is the TUI-free core: no module under engine/ imports Textual, directly or through imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"


def test_no_engine_source_imports_textual() -> None:
    offenders = []
    for file in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{file.relative_to(ENGINE)}: {n}" for n in names if n.split(".")[0] == "textual"]
    assert offenders == []


def test_importing_every_engine_module_loads_no_textual() -> None:
    modules = sorted(
        "genplan.engine." + ".".join(p.relative_to(ENGINE).with_suffix("").parts)
        for p in ENGINE.rglob("*.py")
        if p.name != "__init__.py" and "child" not in p.name and "server" not in p.name
    )
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    assert len(modules) > 20  # the walk found the engine
