"""How a run ends when nobody planned it: ctrl+c, and an error inside genplan.

- ctrl+c in `genplan run` ends the run ``stopped`` (as the app's stop key does), says so in one line with the exact
  resume command and exit code 130, at once even while requests are out; ctrl+c while the command's modules are
  still loading is one line too, never a traceback.
- An error inside genplan (a bug, not the model's or the person's doing) ends the run ``failed`` with "internal
  error" in its words and its traceback kept in the run (``failures/failure-N.txt``, named by the ``run.failed``
  event); it resumes.
- A resumed run's log marks where it went on (``run.resumed``), and every event of the log has its own number, in
  order, whoever wrote it: the run, its resume after a stop, an edit from another process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli_process import GENPLAN, genplan, isolated_env
from support.ferry_model import FERRY, FerryModel
from support.scripted_server import Reply, ScriptedServer

from genplan.cli.main import main
from genplan.engine.approaches import Approach, register, unregister
from genplan.engine.approaches.context import PipelineContext, pipeline_fields
from genplan.engine.pipeline.checks import ProgramChecker
from genplan.engine.pipeline.conversation import code_extractor, user
from genplan.engine.runs.store import read_events
from genplan.engine.share.collect import collect
from genplan.tui.run_state import RunState, TimelineEntry

WAIT = 60.0  # seconds a held answer waits: far longer than any test here may take to see the process end


def _like_a_foreground_job() -> None:
    """Ctrl-C as an interactive shell's foreground job gets it, whatever this test process inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _start(*args: str, home: Path) -> subprocess.Popen[str]:
    """``genplan ARGS`` as a shell starts it in the foreground: its own process group, which ctrl+c signals."""
    return subprocess.Popen([*GENPLAN, *args], env=isolated_env(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_like_a_foreground_job)


def _ctrl_c(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=40)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, out, err


def _wait_for(condition: object, what: str, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    pytest.fail(f"never happened: {what}")


def _log(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()]


def _timeline(run_dir: Path) -> list[TimelineEntry]:
    """The TUI's timeline of a run, from its log (as the app shows a run it opens)."""
    state = RunState(run_dir)
    for event in read_events(run_dir):
        state.apply(event)
    return state.entries


def _numbered_once_in_order(log: list[dict]) -> None:
    seqs = [entry["seq"] for entry in log]
    assert seqs == list(range(1, len(log) + 1)), [(e["seq"], e["type"]) for e in log]


# ------------------------------------------------------------------------------------------ ctrl+c at start-up
def _loaded(pid: int, library: str) -> bool:
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def test_ctrl_c_while_the_command_loads_is_one_line(tmp_path: Path) -> None:
    """Sent while `genplan` loads the modules of its `run` command (the hashlib module's library is mapped: the
    command's modules are being imported, before its arguments are read; psutil, the marker before, is now loaded
    only once the run is under way): one line, exit 130, no traceback, no run directory."""
    process = _start("run", str(FERRY), "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                     "--out", str(tmp_path / "runs"), home=tmp_path)
    _wait_for(lambda: _loaded(process.pid, "_hashlib") or process.poll() is not None, "the modules loading")
    code, out, err = _ctrl_c(process)
    assert (code, out, err) == (130, "", "genplan: interrupted\n")
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


# ------------------------------------------------------------------------------------------ ctrl+c mid-run
@pytest.fixture
def held_server() -> Iterator[tuple[ScriptedServer, threading.Event]]:
    """FerryModel's answers; while ``hold`` is set, the task descriptions' answers wait a minute."""
    hold = threading.Event()
    hold.set()
    model = FerryModel()
    model.extra = lambda request: (Reply.slow(f"described {request.step}", WAIT)
                                   if hold.is_set() and request.step == "nl.task" else None)
    with ScriptedServer() as server:
        server.respond_with(model)
        yield server, hold


def test_ctrl_c_mid_run_stops_it_and_names_the_resume_command_then_it_resumes(
        held_server: tuple[ScriptedServer, threading.Event], tmp_path: Path) -> None:
    server, hold = held_server
    runs = tmp_path / "runs"
    process = _start("run", str(FERRY), "--model", server.model, "--base-url", server.base_url, "--no-cache",
                     "--out", str(runs), "--json", home=tmp_path)
    _wait_for(lambda: server.requests_for("nl.task") or process.poll() is not None, "the task descriptions asked")
    run_dir = next(runs.iterdir())

    # another process edits the run while it waits for its answers: refused before anything is written
    edit = tmp_path / "domain.md"
    edit.write_text("A ferry carries cars, one at a time.\n", encoding="utf-8")
    refused = genplan("edit", str(run_dir), "nl/domain.md", str(edit), home=tmp_path)
    assert refused.returncode == 2 and f"{run_dir.name}: another process runs it (pid {process.pid})" in refused.stderr
    assert not (run_dir / "nl" / "domain-edit1.md").exists()

    code, out, err = _ctrl_c(process)  # the answers are a minute away: the process does not wait for them
    resume = f"genplan run --resume {run_dir}"
    message = f"interrupted; the run is stopped: {run_dir} (resume with: {resume})"
    assert code == 130 and "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.splitlines()[-1] == f"genplan: {message}"
    assert json.loads(out) == {"status": "stopped", "message": message, "resume": resume}  # --json: the same
    meta = json.loads((run_dir / "run.json").read_text())
    assert meta["status"] == "stopped"
    log = _log(run_dir)
    assert log[-1]["type"] == "run.finished" and log[-1]["data"]["status"] == "stopped"
    assert "interrupted" in log[-1]["data"]["message"]
    assert not list((run_dir / "responses").glob("*nl.task*"))  # nothing landed after the stop
    _numbered_once_in_order(log)
    stopped_at = log[-1]["seq"]

    # the run has stopped: an edit from another process is logged after the stop
    edited = genplan("edit", str(run_dir), "nl/domain.md", str(edit), home=tmp_path)
    assert edited.returncode == 0 and edited.stdout.strip() == "nl/domain-edit1.md"
    assert [(e["seq"], e["type"]) for e in _log(run_dir)[-1:]] == [(stopped_at + 1, "artifact.edited")]

    hold.clear()
    resumed = genplan("run", "--resume", str(run_dir), "--no-cache", "--json", home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "finished"
    log = _log(run_dir)
    _numbered_once_in_order(log)
    kinds = [entry["type"] for entry in log]
    # where it went on: right after the stop and the edit, before the first new event
    mark = kinds.index("run.resumed")
    assert mark == stopped_at + 1 and log[mark]["data"] == {"previous_status": "stopped"}
    assert kinds[mark + 1] == "request.sent" and log[mark + 1]["data"]["step"] == "nl.task"
    assert kinds.count("run.resumed") == 1 and kinds.count("run.started") == 1
    assert [e["data"]["status"] for e in log if e["type"] == "run.finished"] == ["stopped", "finished"]

    # the app's timeline and the export page show the stop, the edit and where the run went on, in order
    seq = mark + 1
    ends = [(entry.title, entry.detail) for entry in _timeline(run_dir) if entry.kind == "run"]
    assert [title for title, _ in ends] == ["run started", "run stopped", "run resumed", "run finished"]
    assert "interrupted" in ends[1][1] and ends[2][1] == "after it was stopped"
    page = {row.seq: row for row in collect(run_dir).rows}
    assert (page[seq].title, page[seq].detail) == ("run resumed", "after it was stopped")
    assert page[stopped_at].title == "run stopped" and "interrupted" in page[stopped_at].detail


# ------------------------------------------------------------------------------------------ an internal error
FAULTS = {"left": 1}  # how many more times the flawed step fails


def flawed_loop(ctx: PipelineContext, checker: ProgramChecker) -> None:
    """Asks for a program and checks it, with a bug between the two while FAULTS lasts: the kind of fault in
    genplan's own code (an index out of range) that no model answer or setting causes."""
    messages = [ctx.system(), user(f"Write generate_solution(objects, init, goal) for this domain.\n\n{ctx.domain.source}")]
    code, messages, _ = ctx.ask_extract("code.generate", messages, code_extractor(("generate_solution",)), "code")
    if FAULTS["left"] > 0:
        FAULTS["left"] -= 1
        candidates: list[int] = []
        candidates[0] += 1  # the bug
    if code is not None:
        ctx.add_program(1, code, messages[-1].content, checker)


@pytest.fixture
def flawed() -> Iterator[Approach]:
    FAULTS["left"] = 1
    approach = register(Approach(
        name="flawed", title="ask once, hit a bug once, check", prompt_variant="stein", feedback_style="stein",
        function_name="generate_solution", **pipeline_fields("flawed", "generate_solution", flawed_loop),
        presets={"Flawed": {"strategy_rounds": 0, "code_rounds": 0}},
    ))
    yield approach
    unregister("flawed")


def test_an_internal_error_ends_the_run_failed_with_its_traceback_kept_and_it_resumes(
        flawed: Approach, scripted_server: ScriptedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    scripted_server.respond_with(FerryModel())
    model = ["--model", scripted_server.model, "--base-url", scripted_server.base_url, "--no-cache", "--quiet"]
    code = main(["run", str(FERRY), "--preset", "Flawed", "--out", str(tmp_path / "runs"), *model])
    out, err = capsys.readouterr()
    run_dir = next((tmp_path / "runs").iterdir())
    resume = f"genplan run --resume {run_dir}"
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"genplan: {run_dir.name}: internal error (a fault in genplan, not the model's): IndexError: list index out "
        f"of range; its traceback is in failures/failure-1.txt (resume with: {resume})"]
    trace = (run_dir / "failures" / "failure-1.txt").read_text(encoding="utf-8")
    assert trace.startswith("Traceback (most recent call last):")
    assert "candidates[0] += 1  # the bug" in trace and trace.rstrip().endswith("IndexError: list index out of range")
    meta = json.loads((run_dir / "run.json").read_text())
    assert meta["status"] == "failed" and meta["traceback"] == "failures/failure-1.txt"
    assert meta["error"].startswith("internal error")
    failed = _log(run_dir)[-1]
    assert failed["type"] == "run.failed"
    assert failed["data"]["traceback"] == "failures/failure-1.txt" and "internal error" in failed["data"]["message"]

    # resumed: the answer on disk is kept, the run goes on past the place of the fault and finishes
    code = main(["run", "--resume", str(run_dir), *model, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["status"] == "finished" and report["debug_solved"] == 6
    assert scripted_server.steps() == ["code.generate"]  # asked once, in the first go
    log = _log(run_dir)
    _numbered_once_in_order(log)
    kinds = [entry["type"] for entry in log]
    failed_at = kinds.index("run.failed")
    assert kinds[failed_at + 1] == "run.resumed" and log[failed_at + 1]["data"] == {"previous_status": "failed"}
    assert kinds[-1] == "run.finished"
    assert (run_dir / "failures" / "failure-1.txt").read_text(encoding="utf-8") == trace  # kept as it was
    # the app's timeline and the export page say it was an internal error
    failed_row = next(entry for entry in _timeline(run_dir) if entry.title == "run failed")
    assert failed_row.detail.startswith("internal error") and "failures/failure-1.txt" in failed_row.detail
    page = {row.seq: row for row in collect(run_dir).rows}
    assert page[failed_at + 1].title == "run failed" and page[failed_at + 1].detail.startswith("internal error")


def test_ctrl_c_during_an_autotos_run_names_its_resume_command(tmp_path: Path) -> None:
    """genplan autotos, interrupted while its first answer is a minute away: the run is stopped, and the one line
    names how to go on (it said only "genplan: interrupted")."""
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.slow("def succ(state): return []", WAIT))
        runs = tmp_path / "runs"
        process = _start("autotos", "24game", "--generate", "2", "--model", server.model, "--base-url",
                         server.base_url, "--no-cache", "--runs", str(runs), home=tmp_path)
        _wait_for(lambda: server.requests or process.poll() is not None, "the first request")
        code, _out, err = _ctrl_c(process)
    run_dir = next(runs.iterdir())
    assert code == 130 and "Traceback" not in err
    assert err.splitlines()[-1] == (f"genplan: interrupted; the run is stopped: {run_dir} "
                                    f"(resume with: genplan run --resume {run_dir})")
    assert json.loads((run_dir / "run.json").read_text())["status"] == "stopped"
