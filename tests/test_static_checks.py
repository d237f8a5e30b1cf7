"""The static checks CI runs through the test command: ruff on every file, mypy (the engine with every
--strict check, the CLI and the TUI in mypy's default mode) and the import-linter contracts of pyproject.toml.

The checkout is laid out as the package (genplan/__init__.py beside the symlinks genplan/engine -> ../engine,
genplan/tui, genplan/cli, genplan/prompts), so mypy and lint-imports run on the checkout itself, exactly as a
person runs them in the repository root. Only the tests that break a contract on purpose work on a copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("engine", "tui", "cli", "prompts")


def tool(name: str) -> str:
    path = Path(sys.executable).parent / name
    if not path.exists():
        pytest.fail(f"{name} is not installed in this environment: pip install -e '.[test]' installs it")
    return str(path)


def package_tree(root: Path) -> Path:
    """A copy of the checkout's package layout under ``root``: the top-level folders and genplan/ with its symlinks."""
    for part in PARTS:
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "genplan", root / "genplan", symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def check(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=600)


def test_the_checkout_is_laid_out_as_the_package() -> None:
    # each top-level folder is reachable under its installed name, so tools that import `genplan.engine` see
    # the very files a person edits
    for part in PARTS:
        link = ROOT / "genplan" / part
        assert link.is_symlink() and link.resolve() == (ROOT / part).resolve(), f"genplan/{part} must link to ../{part}"
        assert (link / "__init__.py").is_file()


def test_ruff_finds_nothing() -> None:
    result = check([tool("ruff"), "check", "--no-cache", "."], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(900)  # mypy from an empty cache over ~250 files: 2-3 minutes alone, more beside other tests
def test_mypy_finds_nothing_in_the_engine_the_cli_and_the_tui(tmp_path: Path) -> None:
    # plain `mypy` in the repository root: the packages to check come from pyproject.toml
    result = check([tool("mypy"), "--cache-dir", str(tmp_path / ".mypy_cache")], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def test_import_contracts_are_kept() -> None:
    # plain `lint-imports` in the repository root
    result = check([tool("lint-imports"), "--no-cache"], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "12 kept, 0 broken" in result.stdout


CLI_CONTRACT = "the CLI reaches the engine only through engine/api/"
# what each client of the API (the front ends, the batch layer) may import of the engine; its contract forbids
# every other engine package
FRONT_END_ALLOWED = {
    "the CLI reaches the engine only through engine/api/": {"api", "events", "errors", "batch"},
    "the TUI reaches the engine only through engine/api/": {"api", "events", "errors"},
    "engine/batch is a client of engine/api/": {"api", "events", "errors", "batch"},
}


def engine_packages() -> set[str]:
    """Every top-level module and package of engine/, by name."""
    return {p.stem for p in (ROOT / "engine").iterdir()
            if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()}


@pytest.mark.parametrize("contract", sorted(FRONT_END_ALLOWED))
def test_front_end_contracts_forbid_every_other_engine_package(contract: str) -> None:
    # a new engine package is forbidden to the front ends until someone decides otherwise
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    (found,) = [c for c in contracts if c["name"].startswith(contract)]
    forbidden = {m.removeprefix("genplan.engine.") for m in found["forbidden_modules"] if m.startswith("genplan.engine.")}
    assert forbidden == engine_packages() - FRONT_END_ALLOWED[contract]


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("engine/planner.py", "import textual", "the engine never imports the TUI, the CLI or Textual"),
    ("engine/approaches/bas.py", "from genplan.engine.pipeline.runner import Pipeline",
     "an approach sees its run only through its context"),
    ("engine/pddl/model.py", "from genplan.engine.pddl.fastcheck import CompiledDomain",
     "the PDDL core's modules import one another without a circle"),
    ("engine/runs/layout.py", "from genplan.engine.pipeline import config", "no import circle in the engine"),
    ("tui/app.py", "from genplan.engine.runs.run import Run", "the TUI reaches the engine only through engine/api/"),
    # the TUI loads a domain through engine/api/ (api.pddl), never from the PDDL core itself
    ("tui/app.py", "from genplan.engine.pddl import load_domain", "the TUI reaches the engine only through engine/api/"),
    ("tui/widgets/versions_tree.py", "from genplan.engine.versions import version_place",
     "the TUI reaches the engine only through engine/api/"),
    ("cli/cmd_run.py", "from genplan.engine.pipeline.runner import Pipeline", CLI_CONTRACT),
    # an import is assembled behind engine/api/imports: the CLI neither makes a run directory itself ...
    ("cli/import_silver.py", "from genplan.engine.runs import create", CLI_CONTRACT),
    # ... nor reaches an importer around the API
    ("cli/import_autotos.py", "from genplan.engine.autotos.session import import_log", CLI_CONTRACT),
    # the tool commands too: a program runs through api.programs, a report is read through api.report
    ("cli/cmd_eval.py", "from genplan.engine.sandbox import Sandbox", CLI_CONTRACT),
    ("cli/cmd_report.py", "from genplan.engine.report.data import load_batch", CLI_CONTRACT),
    # batch reads a run's files through api.runs and evaluates through api.programs
    ("engine/batch/results.py", "from genplan.engine.runs.store import RunStore", "engine/batch is a client of engine/api/"),
    ("engine/batch/jobs.py", "from genplan.engine.evaluation import Evaluator", "engine/batch is a client of engine/api/"),
    # a circle inside the TUI: the app imports options, options would import the app
    ("tui/options.py", "from genplan.tui.app import GenplanApp", "no import circle inside the TUI"),
    # a circle between two of its subpackages: the controllers use the screens, a screen would use a controller
    ("tui/screens/help.py", "from genplan.tui.controllers.runs import RunsController", "no import circle inside the TUI"),
])
def test_import_contracts_catch_a_forbidden_import(tmp_path: Path, module: str, line: str, contract: str) -> None:
    broken = package_tree(tmp_path)
    source = broken / module
    source.write_text(source.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    result = check([tool("lint-imports"), "--config", str(ROOT / "pyproject.toml"), "--no-cache"], broken,
                   PYTHONPATH=str(broken))
    assert result.returncode != 0
    assert contract in result.stdout and "BROKEN" in result.stdout.split(contract, 1)[1][:120]
