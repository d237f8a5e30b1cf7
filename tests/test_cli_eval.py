"""`genplan eval PROGRAM DOMAIN_DIR`: report, exit codes, bad input, JSON, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from support.ferry_model import CORRECT_PROGRAM

from genplan.cli.main import main

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

ROOT = Path(__file__).resolve().parents[1]
FERRY = ROOT / "domains" / "ferry"
PYTHON = sys.executable

SOLVER = CORRECT_PROGRAM  # a correct ferry policy, shared with the pipeline tests


@pytest.fixture
def solver(tmp_path: Path) -> Path:
    path = tmp_path / "solver.py"
    path.write_text(SOLVER)
    return path


def test_all_solved_exit_0(solver: Path, capsys) -> None:
    code = main(["eval", str(solver), str(FERRY), "--tasks", "debug", "--orderings", "2", "--jobs", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("debug/task-00  solved")
    assert "coverage: 6/6 tasks (100.0%) solved under all 2 ordering(s), time limit 45s" in out
    assert "[6/6]" in err  # plain progress lines when stderr is not a terminal


def test_failures_exit_1_with_error_table(tmp_path: Path, capsys) -> None:
    program = tmp_path / "lazy.py"
    program.write_text("def get_plan(objects, init, goal):\n    return []\n")
    code = main(["eval", str(program), str(FERRY), "--tasks", "debug", "--orderings", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1 and err == ""
    assert "failed  " in out and "ordering 0: goal-not-reached: The generated plan does not reach the goal" in out
    assert "coverage: 0/6 tasks (0.0%)" in out
    assert "failed tasks by error: exception: 0, timeout: 0, wrong type: 0, invalid action: 0, goal not satisfied: 6" in out


def test_json_report_and_task_paths(solver: Path, tmp_path: Path, capsys) -> None:
    report = tmp_path / "report.json"
    task = FERRY / "debug" / "task-02.pddl"
    code = main(["eval", str(solver), str(FERRY), "--tasks", str(task), "--orderings", "3", "--json", str(report)])
    assert code == 0
    data = json.loads(report.read_text())
    assert data["tasks"] == 1 and data["solved"] == 1 and data["orderings"] == 3
    result = data["results"][0]
    assert result["task"] == "debug/task-02" and result["status"] == "solved"
    assert [o["hash_seed"] for o in result["orderings"]] == [0, 1, 2]
    assert result["plan_length"] > 0
    capsys.readouterr()
    assert main(["eval", str(solver), str(FERRY), "--tasks", "debug", "--orderings", "1", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["coverage"] == 1.0


def test_compare_planner(solver: Path, capsys) -> None:
    task = FERRY / "debug" / "task-01.pddl"
    code = main(["eval", str(solver), str(FERRY), "--tasks", str(task), "--orderings", "1", "--compare-planner", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert "planner solved" in out and "(time x" in out
    assert "planner on 1 solved task(s) (1 solved by it): runtime program/planner mean" in out


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("missing_program", "no such file"),
        ("binary_program", "not a Python program"),
        ("missing_domain", "not a directory"),
        ("no_tasks", "no task files"),
        ("bad_task_path", "no such task set, file or directory"),
        ("bad_orderings", "--orderings must be between 1 and 1000"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(setup: str, expected: str, solver: Path, tmp_path: Path, capsys) -> None:
    program, domain, extra = str(solver), str(FERRY), ["--tasks", "debug"]
    if setup == "missing_program":
        program = str(tmp_path / "nope.py")
    elif setup == "binary_program":
        program = str(tmp_path / "blob.py")
        Path(program).write_bytes(bytes(range(256)))
    elif setup == "missing_domain":
        domain = str(tmp_path / "no-domain")
    elif setup == "no_tasks":
        empty = tmp_path / "empty-domain"
        (empty / "debug").mkdir(parents=True)
        (empty / "eval").mkdir()
        shutil.copy(FERRY / "domain.pddl", empty / "domain.pddl")
        shutil.copy(FERRY / "domain.toml", empty / "domain.toml")
        domain, extra = str(empty), []
    elif setup == "bad_task_path":
        extra = ["--tasks", "training"]
    elif setup == "bad_orderings":
        extra = ["--orderings", "0"]
    code = main(["eval", program, domain, *extra])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and expected in err and "Traceback" not in err


def test_ctrl_c_stops_cleanly_and_leaves_no_process(tmp_path: Path) -> None:
    program = tmp_path / "loop.py"
    program.write_text("def generate_solution(objects, init, goal):\n    while True:\n        pass\n")
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(private_tmp)}  # the sandbox's directories (and command lines) land here
    proc = subprocess.Popen(
        [PYTHON, "-m", "genplan.cli.main", "eval", str(program), str(FERRY), "--tasks", "debug", "--timeout", "60", "--jobs", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # like a shell: Ctrl-C goes to this process group
        preexec_fn=_like_a_foreground_job,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not _programs_running(private_tmp):
            time.sleep(0.1)
        assert _programs_running(private_tmp), "the programs never started"
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired as exc:  # say where it hangs: seen twice in full-suite runs only
            threads = _thread_dump(proc.pid)
            pytest.fail(f"no exit 20 s after Ctrl-C; stderr: {exc.stderr!r}; signals of the eval: "
                        f"{_signal_state(proc.pid)}, of this test: {_signal_state(os.getpid())}; processes: "
                        f"{_tree(proc.pid)}; threads: {threads}")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert b"interrupted" in err and b"Traceback" not in err
    time.sleep(0.3)
    assert _sandbox_processes(private_tmp) == []


def _like_a_foreground_job() -> None:
    """Ctrl-C as an interactive shell's foreground job gets it: whatever this test process inherited or was left
    with by an earlier test (an ignored or blocked SIGINT passes to children, and Python then never raises
    KeyboardInterrupt: seen in full-suite runs only)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _signal_state(pid: int) -> str:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError as exc:
        return repr(exc)
    return " ".join(line.replace("\t", "") for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


def _tree(pid: int) -> list[str]:
    try:
        root = psutil.Process(pid)
        return [f"{p.pid} {p.status()} {' '.join(p.cmdline())[:120]}" for p in [root, *root.children(recursive=True)]]
    except psutil.Error as exc:
        return [repr(exc)]


def _thread_dump(pid: int) -> str:
    """The Python stacks of a hung process, when py-spy is installed (else why not)."""
    spy = shutil.which("py-spy")
    if spy is None:
        return "(py-spy not installed)"
    done = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=30)
    return done.stdout[-4000:] or done.stderr[-1000:]


def _sandbox_processes(marker: Path) -> list[int]:
    found = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            if str(marker) in " ".join(p.info["cmdline"] or []) and p.status() != psutil.STATUS_ZOMBIE:
                found.append(p.info["pid"])
        except psutil.NoSuchProcess:
            pass
    return found


def _programs_running(marker: Path) -> bool:
    """At least two sandbox processes busy on the CPU (the looping programs)."""
    busy = 0
    for pid in _sandbox_processes(marker):
        try:
            if psutil.Process(pid).cpu_times().user > 0.3:
                busy += 1
        except psutil.NoSuchProcess:
            pass
    return busy >= 2


@pytest.mark.parametrize("text", [
    "def generate_solution(objects, init, goal):\n    return [\n",  # a model's program that breaks off
    "Here is my plan: first sail, then board.\n",  # prose where code was expected
])
def test_a_program_that_does_not_parse_is_refused_before_any_task_runs(text: str, tmp_path: Path, capsys) -> None:
    program = tmp_path / "answer.py"
    program.write_text(text)
    code = main(["eval", str(program), str(FERRY), "--tasks", "eval", "--json", str(tmp_path / "report.json")])
    captured = capsys.readouterr()
    assert code == 2  # bad input (issue #51: it ran all 30 tasks and exited 1)
    assert captured.out == "" and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert f"{program}: not a Python program: " in captured.err and "(line " in captured.err
    assert "nothing was run" in captured.err and "sandbox" not in captured.err  # refused before the sandbox started
    assert not (tmp_path / "report.json").exists()


def test_a_pddl_file_given_as_the_program_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    code = main(["eval", str(FERRY / "domain.pddl"), str(FERRY), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "domain.pddl: not a Python program" in err

