"""benchmarks/autotos_import_all.py, the script behind docs/autotos.md's table of the release's 200 logs: rows
stamped with the code that made them, --resume only on rows of the same code, --jobs N in N processes."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "autotos_import_all.py"
LOGS = ROOT.parent / "shared" / "autotos" / "clean_logs" / "24game" / "deepseek-coderv2-noval_logs"


def script_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("autotos_import_all", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True, timeout=300)


def test_the_stamp_is_the_engine_trees_hash_and_says_when_the_checkout_differs(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()

    git("init", "-q")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "a.py").write_text("A = 1\n")
    (tmp_path / "README.md").write_text("x\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    code_stamp = script_module().code_stamp
    tree = git("rev-parse", "HEAD:engine")
    assert code_stamp(tmp_path) == tree and len(tree) == 40
    (tmp_path / "README.md").write_text("y\n")  # outside engine/: the same code
    assert code_stamp(tmp_path) == tree
    (tmp_path / "engine" / "a.py").write_text("A = 2\n")
    assert code_stamp(tmp_path) == tree + "+changes"
    assert code_stamp(tmp_path / "engine" / "nowhere") == "unknown"


@pytest.mark.skipif(not LOGS.is_dir(), reason="needs ../shared/autotos (the AutoToS release's logs)")
def test_jobs_resume_and_a_file_of_other_code(tmp_path: Path) -> None:
    logs = sorted(LOGS.glob("*.txt"))[:4]
    out = tmp_path / "rows.jsonl"
    done = run_script("--no-eval", "--jobs", 2, "--out", out, *logs[:3])
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    stamp = script_module().code_stamp()
    # each log once (in the order they finished), each with the log's calls (--no-eval: the calls alone), stamped
    assert sorted(row["log"] for row in rows) == [f"24game/{LOGS.name}/{p.name}" for p in logs[:3]]
    assert all(row["match_calls"] and row["calls"] == row["log_calls"] and row["engine"] == stamp for row in rows)
    assert done.stdout.count("OK  ") == 3 and "matched 3 of 3 logs" in done.stdout
    # --resume imports only what the file lacks
    again = run_script("--no-eval", "--resume", "--out", out, *logs)
    assert again.returncode == 0, again.stderr
    assert "matched 1 of 1 logs" in again.stdout and logs[3].name in again.stdout
    assert len(out.read_text().splitlines()) == 4
    # a row of other code: no resume, the file untouched
    other = dict(rows[0], engine="0" * 40)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(json.dumps(other) + "\n")
    refused = run_script("--no-eval", "--resume", "--out", mixed, *logs)
    assert refused.returncode == 2 and "holds rows of other code (" + "0" * 40 in refused.stderr, refused.stderr
    assert mixed.read_text() == json.dumps(other) + "\n"
    # the per-domain table docs/autotos.md shows, of the four rows (and of rows of two versions: not one figure)
    table = subprocess.run([sys.executable, ROOT / "benchmarks" / "autotos_import_table.py", out],
                           capture_output=True, text=True, timeout=60)
    assert table.returncode == 0, table.stderr
    assert "| 24 Game | 4 of 40 | 4 | - | 0 of 0 |" in table.stdout and "| Sokoban | 0 of 40 | 0 | - | 0 of 0 |" in table.stdout
    assert f"4 of 4 logs match in full; rows made by engine tree {stamp}\n" in table.stdout
    mixed.write_text(out.read_text() + json.dumps(dict(other, match_result=False)) + "\n")
    two = subprocess.run([sys.executable, ROOT / "benchmarks" / "autotos_import_table.py", mixed],
                         capture_output=True, text=True, timeout=60).stdout
    stem = Path(other["log"]).stem.removeprefix("script_log_")
    assert f"| 24 Game | 5 of 40 | 4 | `{stem}` |" in two and "(more than one: not one figure)" in two
