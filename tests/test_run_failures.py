"""A run that cannot go on stops with one line (or one JSON object) naming the cause and the resume command:
a model that refuses us, a full disk under the run directory; an unwritable cache is simply skipped."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_process import isolated_env
from support.ferry_model import CLEAN_RUN_CALLS, FERRY, FerryModel
from support.scripted_server import Reply, ScriptedServer

from genplan.engine.llm import ChatMessage, ChatRequest, ModelSettings, OpenAIProvider
from genplan.engine.llm.cache import CachingProvider, ResponseCache


def test_json_failure_output_is_one_object_with_the_resume_command(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        server.respond_with(lambda request: Reply.error(404, "The model does not exist", code="model_not_found"))
        done = subprocess.run(
            [sys.executable, "-m", "genplan.cli.main", "run", str(FERRY), "--model", server.model, "--base-url",
             server.base_url, "--out", str(tmp_path / "runs"), "--json", "--quiet", "--no-cache"],
            capture_output=True, text=True, env=isolated_env(tmp_path), timeout=120, stdin=subprocess.DEVNULL,
        )
    assert done.returncode == 2
    summary = json.loads(done.stdout)
    run_dir = next((tmp_path / "runs").iterdir())
    assert summary["status"] == "failed" and "404" in summary["message"]
    assert summary["resume"] == f"genplan run --resume {run_dir}"
    assert done.stderr.strip().splitlines() == [f"genplan: {summary['message']} (resume with: {summary['resume']})"]
    assert json.loads((run_dir / "run.json").read_text())["status"] == "failed"


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare(1) to mount a small tmpfs")
def test_a_full_disk_stops_the_run_with_one_line_and_a_resume_completes_it(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=64k none {disk}"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs in a mount namespace here: {probe.stderr.strip()}")
    with ScriptedServer() as server:
        model = FerryModel()
        server.respond_with(model)
        command = [sys.executable, "-m", "genplan.cli.main", "run"]
        server_flags = f"--model {server.model} --base-url {server.base_url} --no-cache --quiet"
        script = (
            f"mount -t tmpfs -o size=96k none {disk} && "
            f"{' '.join(command)} {FERRY} {server_flags} --out {disk}/runs > {tmp_path}/first.out "
            f"2> {tmp_path}/first.err; echo $? > {tmp_path}/first.rc; cp -a {disk}/runs {tmp_path}/runs"
        )
        subprocess.run(["unshare", "-rm", "sh", "-c", script], env=isolated_env(tmp_path), timeout=300,
                       stdin=subprocess.DEVNULL, check=True)
        first_err = (tmp_path / "first.err").read_text()
        assert (tmp_path / "first.rc").read_text().strip() == "2", first_err
        assert "Traceback" not in first_err
        last = first_err.strip().splitlines()[-1]
        assert last.startswith("genplan: no space left on the device of the run directory"), first_err
        assert "(resume with: genplan run --resume " in last
        on_disk = len(list((tmp_path / "runs").glob("*/responses/*.json")))
        assert 0 < on_disk < CLEAN_RUN_CALLS  # the disk filled up mid-run
        asked_first = len(server.requests)

        run_dir = next((tmp_path / "runs").iterdir())  # the run, copied off the full disk
        second = subprocess.run(command + ["--resume", str(run_dir), "--json", "--no-cache"], capture_output=True,
                                text=True, env=isolated_env(tmp_path), timeout=300, stdin=subprocess.DEVNULL)
        assert second.returncode == 0, second.stderr
        summary = json.loads(second.stdout)
        assert summary["debug_solved"] == 6
        # every answer that reached the disk was reused; only the others were asked (a clean run asks CLEAN_RUN_CALLS)
        assert summary["resumed_responses"] == on_disk
        assert len(server.requests) - asked_first == CLEAN_RUN_CALLS - on_disk


def test_an_unwritable_cache_is_skipped_with_one_warning(scripted_server: ScriptedServer, tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("the cache directory cannot be made under a file\n")
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url, timeout_s=10.0)
    provider = CachingProvider(OpenAIProvider(settings), ResponseCache(blocker / "cache"))
    scripted_server.enqueue(Reply.answer("first"), Reply.answer("second"))
    ask = ChatRequest("nl.domain", [ChatMessage("user", "describe the ferry domain")])
    assert provider.complete(ask).text == "first"
    assert provider.complete(ChatRequest("nl.domain", [ChatMessage("user", "and again")])).text == "second"
    warnings = [r for r in caplog.records if "cannot be written" in r.getMessage()]
    assert len(warnings) == 1 and provider.write_failed and provider.stats.stores == 0
