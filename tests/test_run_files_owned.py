"""Only ``engine/runs/`` names the files of a run directory: every other module asks ``engine.runs.layout``.

The check reads the sources (engine/, cli/, tui/) and looks at every string literal, f-string pieces
included: one that is a run file's name, or a path ending in one (``"x/run.json"``), fails the test. Prose
that mentions a file in passing (docstrings, help texts, messages without a path) is fine.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from genplan.engine.runs import is_run_dir, layout

ROOT = Path(__file__).resolve().parents[1]
OWNER = ROOT / "engine" / "runs"
NAMES = "|".join(re.escape(name) for name in layout.RUN_FILES)
# the whole literal is a name, or a path piece ends in one ("/run.json", "/run.json: ..." in a message)
NAMING = re.compile(rf"^(?:{NAMES})$|/(?:{NAMES})(?![\w.])")


def literals(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
    return found


def offenders(roots: list[Path]) -> list[str]:
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if OWNER in path.parents:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for line, text in literals(tree):
                if NAMING.search(text):
                    found.append(f"{path.relative_to(root.parent)}:{line}: {text!r}")
    return found


def test_no_module_outside_engine_runs_names_a_run_file() -> None:
    found = offenders([ROOT / "engine", ROOT / "cli", ROOT / "tui"])
    assert not found, "run files named outside engine/runs/ (use engine.runs.layout):\n" + "\n".join(found)


def test_the_check_catches_a_named_run_file(tmp_path: Path) -> None:
    """The scan would fail on each way a module could name a run file (so a passing test means something)."""
    module = tmp_path / "mod.py"
    module.write_text(
        '"""Mentions run.json in prose: allowed."""\n'
        'A = run_dir / "run.json"\n'
        'B = f"{run_dir}/events.jsonl"\n'
        'C = ("summary.json", "pddl")\n'
        'D = "see import.json in the run directory"\n',
        encoding="utf-8",
    )
    found = offenders([tmp_path])
    assert [entry.split(": ", 1)[1] for entry in found] == ["'run.json'", "'/events.jsonl'", "'summary.json'"]


def test_layout_names_are_todays_file_names(tmp_path: Path) -> None:
    """Run directories stay byte-compatible: the names are the ones every run on disk already has."""
    assert layout.RUN_FILES == ("run.json", "events.jsonl", "run.lock", "summary.json", "trial.json",
                                "import.json", "evaluation.json")
    assert (layout.REQUESTS, layout.RESPONSES) == ("requests", "responses")
    run = tmp_path / "runs" / "r1"
    run.mkdir(parents=True)
    assert not is_run_dir(run) and not layout.holds_runs(run.parent)
    (run / "run.json").write_text("{}", encoding="utf-8")
    (tmp_path / "runs" / "stray").mkdir()
    assert is_run_dir(run) and layout.holds_runs(run.parent)
    assert layout.run_dirs_in(run.parent) == [run]
    assert layout.run_dirs_in(tmp_path / "missing") == []


def test_run_directories_are_made_only_through_engine_runs() -> None:
    """``RunStore.create`` is called inside ``engine/runs`` only (``runs.create`` and the store's own fork)."""
    found = []
    for root in (ROOT / "engine", ROOT / "cli", ROOT / "tui"):
        for path in sorted(root.rglob("*.py")):
            if OWNER in path.parents:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Attribute) and node.attr == "create" and isinstance(node.value, ast.Name)
                        and node.value.id == "RunStore"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "run directories made around engine.runs.create:\n" + "\n".join(found)


def test_an_autotos_run_directory_is_made_as_every_run(tmp_path: Path) -> None:
    import json

    from genplan.engine.approaches.autotos import new_run, parameters
    from genplan.engine.runs import RunStatus, create_named, read_meta

    new = new_run("blocksworld", parameters({"preset": "AutoToS"}))
    first, second = (create_named(tmp_path / "runs", new.stem or "", dict(new.meta)).path for _ in range(2))
    assert first != second and all(d.name.startswith("autotos-blocksworld-") for d in (first, second))
    meta = read_meta(first)
    assert meta.status is RunStatus.RUNNING and meta.approach == "autotos" and meta.run_id == first.name
    data = json.loads(layout.meta_file(first).read_text(encoding="utf-8"))
    assert {"run_id", "status", "created", "approach", "pid", "pid_started"} <= set(data)
    assert layout.events_file(first).read_bytes() == b""
