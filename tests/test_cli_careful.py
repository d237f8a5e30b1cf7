"""What a careful user expects of the commands (issue #51): one clear line, exit 2 for bad input, no traceback,
nothing overwritten without --force. Each test failed on the code before the issue's fixes."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from support.cli_process import GENPLAN, isolated_env
from support.ferry_model import FERRY
from support.scripted_server import ScriptedServer
from test_approaches import toy, toy_server  # noqa: F401

from genplan.cli.main import main
from genplan.engine import api
from genplan.engine.approaches import Approach
from genplan.engine.llm import ModelSettings


def made_run(root: Path) -> Path:
    """A run made and stopped before its first request (no model needed)."""
    store, _, _ = api.new_run(api.StartRequest("F5-3", str(FERRY), root), ModelSettings(model="m"))
    return store.path


# ------------------------------------------------------------------ export: nothing overwritten without --force
def test_export_refuses_to_overwrite_a_file_genplan_did_not_write(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = made_run(tmp_path / "runs")
    precious = tmp_path / "existing.pddl"
    precious.write_text("(define (domain mine))\n")
    capsys.readouterr()
    assert main(["export", str(run_dir), "--html", str(precious)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a page genplan wrote" in err and "--force" in err
    assert precious.read_text() == "(define (domain mine))\n"
    # a directory is refused too, and the report's page likewise
    assert main(["export", str(run_dir), "--html", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    # a page genplan wrote is made again in place; with --force anything is replaced
    page = tmp_path / "page.html"
    assert main(["export", str(run_dir), "--html", str(page)]) == 0
    assert main(["export", str(run_dir), "--html", str(page)]) == 0
    assert main(["export", str(run_dir), "--html", str(precious), "--force"]) == 0
    assert "<html" in precious.read_text()


def test_report_html_refuses_a_file_genplan_did_not_write_before_printing(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    capsys.readouterr()
    assert main(["report", str(tmp_path / "no-batch"), "--html", str(notes)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "not a page genplan wrote" in captured.err and notes.read_text() == "mine"


# ------------------------------------------------------------------ a reader that stops reading
LAST_DEBUG_TASK = "debug/" + sorted(p.name for p in (FERRY / "debug").glob("*.pddl"))[-1]


# --help: argparse drops what it cannot write and ends with 0 itself
@pytest.mark.parametrize(("argv", "codes"), [(["show", str(FERRY), LAST_DEBUG_TASK], {141}),
                                             (["run", "--list-presets"], {141}), (["--help"], {0, 141})])
def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path, argv: list[str], codes: set[int]) -> None:
    # the reading end is closed before the child writes anything (Python's start alone takes far longer): every
    # write meets a closed pipe, as with `genplan ... | head -0`
    child = subprocess.Popen([*GENPLAN, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=isolated_env(tmp_path))
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    err = child.stderr.read().decode()
    code = child.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    assert code in codes


# ------------------------------------------------------------------ a domain given by its domain.pddl
def test_run_takes_the_domain_pddl_of_a_domain_directory_as_the_directory(
        toy: Approach, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    with ScriptedServer() as server:
        toy_server(server)
        capsys.readouterr()
        code = main(["run", str(FERRY / "domain.pddl"), "--preset", "Toy", "--model", server.model, "--base-url",
                     server.base_url, "--out", str(tmp_path / "runs"), "--json", "--quiet", "--no-cache"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    summary = json.loads(captured.out)
    assert summary["debug_total"] == 6
    assert json.loads((Path(summary["run_dir"]) / "run.json").read_text())["domain_dir"] == str(FERRY)


def test_a_bare_domain_file_still_needs_its_problem_files(tmp_path: Path) -> None:
    from genplan.engine.api.domains import DomainDir, DomainDirError

    (tmp_path / "domain.pddl").write_text((FERRY / "domain.pddl").read_text())
    with pytest.raises(DomainDirError, match="no problem files found"):
        DomainDir.open(tmp_path / "domain.pddl")


# ------------------------------------------------------------------ numbers that make no sense
@pytest.mark.parametrize("memory", ["-100", "0", "10"])
def test_plan_refuses_a_memory_limit_that_makes_no_sense(memory: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["plan", str(FERRY), LAST_DEBUG_TASK, "--memory", memory]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--memory must be between 64 and 1048576; got {memory}" in err


# ------------------------------------------------------------------ the README's exit codes are --help's
README = Path(__file__).resolve().parents[1] / "README.md"


def _codes(text: str) -> list[int]:
    """The exit codes a list like "0 finished, 1 failed, 2 bad input (a, b), 130 interrupted" names."""
    return sorted(int(code) for code in re.findall(r"(?:^|: |, )(\d+)\b", text))


@pytest.mark.parametrize("command", ["run", "eval", "batch", "export", "report", "plan"])
def test_the_readme_states_the_exit_codes_the_help_states(command: str) -> None:
    from genplan.cli.main import build_parser

    cells = [line.rsplit("|", 2)[1] for line in README.read_text(encoding="utf-8").splitlines()
             if line.startswith(f"| `genplan {command} ")]
    assert len(cells) == 1, f"README's Commands table has no single row for {command}"
    sub = build_parser(command)._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    description = " ".join((sub.description or "").split())
    stated = re.search(r"Exit codes?:? (.*?)\.(?: |$)", description)
    assert stated is not None, f"genplan {command} --help states no exit codes"
    assert _codes(cells[0].strip()) == _codes(stated.group(1)) and _codes(stated.group(1))
