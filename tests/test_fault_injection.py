"""Whole runs against a misbehaving OpenAI-compatible server: every fault either is retried to the result
of an undisturbed run, or stops the run with one line naming the cause and the resume command, after which
a resume completes without asking again for any answer already on disk."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cli_process import genplan as run_genplan
from support.ferry_model import CLEAN_RUN_CALLS, FERRY, FerryModel
from support.scripted_server import RecordedRequest, Reply, ScriptedServer

FAST_RETRIES = {"GENPLAN_RETRY_BASE_DELAY_S": "0.01", "GENPLAN_RETRY_MAX_DELAY_S": "0.2", "GENPLAN_TIMEOUT_S": "3"}


def genplan(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return run_genplan(*args, home=home, env=FAST_RETRIES)


class FaultyModel:
    """The synthetic ferry model, with ``fault`` answered instead at the ``at``-th request (once)."""

    def __init__(self, fault: Callable[[], Reply], at: int = 3) -> None:
        self.model, self.fault, self.at, self.count = FerryModel(), fault, at, 0

    def __call__(self, request: RecordedRequest) -> Reply | str | None:
        self.count += 1
        if self.count == self.at:
            return self.fault()
        return self.model(request)


def run_with(server: ScriptedServer, out: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return genplan("run", str(FERRY), "--model", server.model, "--base-url", server.base_url, "--out", str(out),
                   "--json", "--quiet", "--no-cache", home=home)


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    home = tmp_path_factory.mktemp("clean")
    with ScriptedServer() as server:
        server.respond_with(FerryModel())
        done = run_with(server, home / "runs", home)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["llm_calls"] == CLEAN_RUN_CALLS
    return summary


RETRIED: dict[str, Callable[[], Reply]] = {
    "500": lambda: Reply.server_error(500),
    "503": lambda: Reply.server_error(503, "overloaded"),
    "429 with a short Retry-After": lambda: Reply.rate_limited(retry_after=0.1),
    "connection reset before the answer": lambda: Reply.dropped(0),
    "stream cut mid-answer": lambda: Reply.dropped(after_chunks=3),
    "stream without a finish": lambda: Reply(text="this answer stops", finish_reason=None),
    "a data line that is no JSON": lambda: Reply.broken_stream("not-json"),
    "bytes that are no UTF-8": lambda: Reply.broken_stream("not-utf8"),
    "no answer within the timeout": lambda: Reply.slow("too late", delay_s=5),
}


@pytest.mark.parametrize("fault", RETRIED, ids=list(RETRIED))
def test_a_transient_fault_is_retried_to_the_undisturbed_result(fault: str, undisturbed: dict[str, object],
                                                                tmp_path: Path) -> None:
    with ScriptedServer() as server:
        server.respond_with(FaultyModel(RETRIED[fault]))
        done = run_with(server, tmp_path / "runs", tmp_path)
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert len(server.requests) == CLEAN_RUN_CALLS + 1  # the faulty attempt, then the same answers
    for key in ("debug_solved", "debug_total", "strategy_versions", "programs_generated", "llm_calls"):
        assert summary[key] == undisturbed[key], key
    ours, theirs = Path(summary["selected_program"]), Path(str(undisturbed["selected_program"]))
    assert ours.read_text() == theirs.read_text()


def test_a_slow_drip_still_arrives_whole(undisturbed: dict[str, object], tmp_path: Path) -> None:
    model = FerryModel()

    def drip(request: RecordedRequest) -> Reply | str | None:
        answer = model(request)
        text = answer if isinstance(answer, str) else (answer.text if answer else "")
        return Reply.answer(text, chunk_chars=40, chunk_delay_s=0.01)

    with ScriptedServer() as server:
        server.respond_with(drip)
        done = run_with(server, tmp_path / "runs", tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["debug_solved"] == undisturbed["debug_solved"]


STOPPING: dict[str, tuple[Callable[[], Reply], str]] = {
    "401": (lambda: Reply.error(401, "Incorrect API key provided", code="invalid_api_key"), "401"),
    "404": (lambda: Reply.error(404, "The model does not exist", code="model_not_found"), "404"),
    "500 on every attempt": (lambda: Reply.server_error(500), "giving up after"),
}


@pytest.mark.parametrize("fault", STOPPING, ids=list(STOPPING))
def test_a_lasting_fault_stops_with_one_line_and_a_resume_completes(fault: str, tmp_path: Path) -> None:
    make, phrase = STOPPING[fault]
    with ScriptedServer() as server:
        model = FerryModel()
        failing = {"on": True}

        def respond(request: RecordedRequest) -> Reply | str | None:
            if failing["on"] and len(server.requests) >= 3:
                return make()
            return model(request)

        server.respond_with(respond)
        done = run_with(server, tmp_path / "runs", tmp_path)
        assert done.returncode == 2
        failure = json.loads(done.stdout)
        assert failure["status"] == "failed" and phrase in failure["message"]
        assert done.stderr.strip().splitlines() == [f"genplan: {failure['message']} (resume with: {failure['resume']})"]
        run_dir = failure["resume"].removeprefix("genplan run --resume ")
        on_disk = len(list(Path(run_dir).glob("responses/*.json")))
        asked = len(server.requests)

        failing["on"] = False  # the problem is fixed; the user resumes
        again = genplan(*failure["resume"].split()[1:], "--json", "--quiet", "--no-cache", home=tmp_path)
        assert again.returncode == 0, again.stderr
        summary = json.loads(again.stdout)
        assert summary["debug_solved"] == 6 and summary["resumed_responses"] == on_disk
        assert len(server.requests) - asked == CLEAN_RUN_CALLS - on_disk  # nothing on disk asked again
