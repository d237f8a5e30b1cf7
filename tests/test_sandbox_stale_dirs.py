"""Sandbox directories left by a genplan process that was killed are removed when the next one starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from genplan.engine.sandbox.runner import sweep_stale_dirs


def dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_dirs_of_dead_owners_go_and_the_others_stay(tmp_path: Path) -> None:
    stale = tmp_path / f"genplan-sandbox-{dead_pid()}-abc123"
    (stale / "run-1").mkdir(parents=True)
    (stale / "run-1" / "out.txt").write_text("left behind")
    (stale / "run-1").chmod(0o500)  # a program may have made its directory unwritable
    mine = tmp_path / f"genplan-sandbox-{os.getpid()}-def456"
    mine.mkdir()
    other = tmp_path / "genplan-sandbox-notapid"
    other.mkdir()
    removed = sweep_stale_dirs(str(tmp_path), again=True)
    assert removed == [str(stale)]
    assert not stale.exists() and mine.is_dir() and other.is_dir()


def test_a_sandbox_names_its_directory_after_its_owner() -> None:
    from genplan.engine.sandbox import Sandbox

    box = Sandbox()
    try:
        server = box._server(0)
        assert Path(server.base).name.startswith(f"genplan-sandbox-{os.getpid()}-")
    finally:
        box.close()
