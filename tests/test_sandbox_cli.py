"""`genplan eval --isolation MODE` runs in that mode and says once which containment layers are active."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM

from genplan.cli.main import main
from genplan.engine.sandbox import confine

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")
FERRY = Path(__file__).resolve().parents[1] / "domains" / "ferry"


def test_eval_prints_the_active_layers_once(tmp_path: Path, capsys) -> None:
    solver = tmp_path / "solver.py"
    solver.write_text(CORRECT_PROGRAM)
    code = main(["eval", str(solver), str(FERRY), "--tasks", "debug", "--orderings", "1", "--isolation", "plain"])
    _out, err = capsys.readouterr()
    assert code == 0, err
    lines = [line for line in err.splitlines() if "sandbox layers:" in line]
    assert len(lines) == 1
    active, _, inactive = lines[0].partition("; inactive: ")
    assert "audit hook" in active and "no_new_privs" in active and "rlimits" in active
    assert "namespaces (plain mode)" in inactive
    assert ("seccomp (filter for" in active) == (confine.seccomp_arch() is not None)
    assert ("landlock (ABI" in active) == (confine.landlock_abi() > 0)


def test_eval_json_names_the_layers(tmp_path: Path, capsys) -> None:
    solver = tmp_path / "solver.py"
    solver.write_text(CORRECT_PROGRAM)
    report = tmp_path / "report.json"
    code = main(["eval", str(solver), str(FERRY), "--tasks", "debug", "--orderings", "1", "--quiet",
                 "--isolation", "plain", "--json", str(report)])
    assert code == 0
    layers = {layer["name"]: layer["active"] for layer in json.loads(report.read_text())["sandbox_layers"]}
    assert layers["namespaces"] is False and layers["audit hook"] is True
    assert layers["seccomp"] == (confine.seccomp_arch() is not None)


def test_bad_isolation_is_refused(tmp_path: Path, capsys) -> None:
    solver = tmp_path / "solver.py"
    solver.write_text(CORRECT_PROGRAM)
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", str(solver), str(FERRY), "--isolation", "chroot"])
    assert exit_info.value.code == 2
