"""Only ``engine/runs/`` names the files of a run directory: every other module asks ``engine.runs.layout``.

The check reads the sources (engine/, cli/, tui/) and looks at every string literal, f-string pieces
included: one that is a run file's name, or a path ending in one (``"x/run.json"``), fails the test. Prose
that mentions a file in passing (docstrings, help texts, messages without a path) is fine.

The request and answer folders (``requests/``, ``responses/``) are read through ``engine.runs.answers``: a
path into them (``"responses/0001-x.md"``, ``f"requests/{stem}.json"``, ``"*/responses/*.json"``) outside a
docstring fails, and so does the folder's bare name joined to a path (``run_dir / "responses"``) or listed
with others (``for folder in ("requests", "responses")``). The run's event log is read through
``engine.runs`` too (``RunStore.events``, ``store.read_events``): no other module calls the log's parser.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from genplan.engine.runs import is_run_dir, layout

ROOT = Path(__file__).resolve().parents[1]
OWNER = ROOT / "engine" / "runs"
NAMES = "|".join(re.escape(name) for name in layout.RUN_FILES)
# the whole literal is a name, or a path piece ends in one ("/run.json", "/run.json: ..." in a message)
NAMING = re.compile(rf"^(?:{NAMES})$|/(?:{NAMES})(?![\w.])")


FOLDERS = (layout.REQUESTS, layout.RESPONSES)
# a path into the request or answer folder: the piece starts the text or follows a "/"
INTO_FOLDER = re.compile(rf"(?:^|/)(?:{'|'.join(FOLDERS)})/")
# the model-response cache of engine/llm/settings.py is a folder of the user's cache, not of a run
NOT_RUN_FOLDERS = {("engine/llm/settings.py", layout.RESPONSES)}


def literals(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
    return found


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants (prose may show a record's path)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def folder_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """String literals that name the request or answer folder: a path into it (outside docstrings), or the
    bare name joined to a path or listed in a tuple, list or set."""
    found = []
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if INTO_FOLDER.search(node.value):
                found.append((node.lineno, node.value))
        bare: list[ast.expr] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            bare = [node.left, node.right]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            bare = list(node.elts)
        for operand in bare:
            if isinstance(operand, ast.Constant) and operand.value in FOLDERS:
                found.append((operand.lineno, str(operand.value)))
    return found


def sources(roots: list[Path]) -> Iterator[tuple[str, ast.AST]]:
    """Every module under ``roots`` outside engine/runs/: its path (from the root's parent) and its tree."""
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if OWNER not in path.parents:
                yield str(path.relative_to(root.parent)), ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def offenders(roots: list[Path]) -> list[str]:
    found = []
    for where, tree in sources(roots):
        for line, text in literals(tree):
            if NAMING.search(text):
                found.append(f"{where}:{line}: {text!r}")
        for line, text in folder_uses(tree):
            if (where, text) not in NOT_RUN_FOLDERS:
                found.append(f"{where}:{line}: {text!r}")
    return sorted(set(found), key=found.index)


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


def test_the_check_catches_a_named_request_or_answer_folder(tmp_path: Path) -> None:
    """Each way a module could open the request or answer records by hand fails the scan; prose does not."""
    module = tmp_path / "mod.py"
    module.write_text(
        '"""Reads ``responses/NNNN-<step>.md`` in prose: allowed."""\n'
        'A = run_dir / "responses"\n'
        'B = f"requests/{stem}.json"\n'
        'C = ("requests", "responses")\n'
        'D = sorted(out.glob("*/responses/*.json"))\n'
        'E = register(0, READ, "requests")  # a selector tag, no folder\n'
        'F = "../shared/model-responses/silver2024"\n',
        encoding="utf-8",
    )
    found = [entry.split(": ", 1)[1] for entry in offenders([tmp_path])]
    assert sorted(found) == sorted(["'responses'", "'requests/'", "'requests'", "'responses'", "'*/responses/*.json'"])


# a name that holds a run directory: run_dir, source_run_dir, self.run_dir, run_path, fork_dir ...
RUN_DIR_NAME = re.compile(r"(?:^|_)run_?dir$|^run_path$|^fork_dir$")


def _holds_run_dir(node: ast.expr) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Path" and node.args:
        node = node.args[0]  # Path(run_dir)
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return bool(RUN_DIR_NAME.search(name))


def path_builders(roots: list[Path]) -> list[str]:
    """Every ``run_dir / <anything>`` outside engine/runs/: a path into a run directory built by hand."""
    return [f"{where}:{node.lineno}: {ast.unparse(node)}" for where, tree in sources(roots) for node in ast.walk(tree)
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _holds_run_dir(node.left)]


def test_no_module_outside_engine_runs_builds_a_path_into_a_run() -> None:
    """Paths inside a run directory are built in engine/runs (``layout``: ``in_run`` for a path an event or a
    record names, ``nl_files``, ``trial_call_file``, ``observations_file``, ...; ``outcome``: the evaluation
    and import records); the front ends reach them through ``engine.api.runs``."""
    found = path_builders([ROOT / "engine", ROOT / "cli", ROOT / "tui"])
    assert not found, "paths into a run directory built outside engine/runs/:\n" + "\n".join(found)


def test_the_check_catches_a_path_built_into_a_run(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(
        'A = run_dir / "nl" / "domain.md"\n'
        'B = Path(run_dir) / relative\n'
        'C = self.run_dir / path\n'
        'D = domain_dir / "domain.pddl"  # not a run directory\n',
        encoding="utf-8",
    )
    found = [entry.split(": ", 1)[1] for entry in path_builders([tmp_path])]
    assert sorted(found) == sorted(["run_dir / 'nl'", "Path(run_dir) / relative", "self.run_dir / path"])


def test_a_path_named_by_a_record_stays_inside_its_run(tmp_path: Path) -> None:
    import pytest

    assert layout.in_run(tmp_path, "programs/v01.py") == tmp_path / "programs" / "v01.py"
    for escaping in ("../other/run.json", "/etc/passwd", "programs/../../x"):
        with pytest.raises(layout.OutsideRun):
            layout.in_run(tmp_path, escaping)


def test_no_module_outside_engine_runs_parses_the_event_log() -> None:
    """The event log is read through engine.runs (``RunStore.events``, ``store.read_events``); engine/events.py
    defines its parser (``read_log``, ``decode`` for one line) and nothing else uses it."""
    found = []
    for root in (ROOT / "engine", ROOT / "cli", ROOT / "tui"):
        for path in sorted(root.rglob("*.py")):
            if OWNER in path.parents or path == ROOT / "engine" / "events.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                named = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
                imported = ([a.name for a in node.names] if isinstance(node, ast.ImportFrom)
                            and (node.module or "").endswith("events") else [])
                if named == "read_log" or {"read_log", "decode"} & set(imported):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "the event log parsed outside engine/runs (use RunStore.events / read_events):\n" + "\n".join(found)


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
