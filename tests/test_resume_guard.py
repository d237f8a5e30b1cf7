"""A run's record is never rewritten by a command not meant for it (issue #51).

A run records the fingerprint of its domain (name, domain file, debug tasks); ``--resume`` with another domain, or
with its own changed since, is refused before anything is written, naming both, from the CLI, the API (which the
TUI's ``c`` and a batch call) and a batch; a finished run is not run again. Each refusal is checked byte for byte:
every file of the run directory is the same after it. A run of an earlier genplan (no fingerprint) is checked
against what can be derived. ``--no-cache`` is recorded and kept on resume. The toy approach (one request) on
copies of domains/ferry keeps the tests fast; the issue's case was F5-3, whose runs are made the same way."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.ferry_model import FERRY
from support.scripted_server import ScriptedServer
from test_approaches import toy, toy_experiment, toy_server  # noqa: F401

from genplan.cli.main import main
from genplan.engine import api
from genplan.engine.api.runs import open_run
from genplan.engine.approaches import Approach
from genplan.engine.llm import ModelSettings

DOMAINS = FERRY.parent


def snapshot(run_dir: Path) -> dict[str, bytes]:
    """Every file of the run directory, by its path in it, with its bytes (run.lock included)."""
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*")) if p.is_file()}


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as server:
        toy_server(server)
        yield server


def finished_run(server: ScriptedServer, domain: Path, runs: Path, *, no_cache: bool = True) -> Path:
    settings = ModelSettings(model=server.model, base_url=server.base_url)
    outcome = api.start(api.StartRequest("Toy", str(domain), runs), settings, no_cache=no_cache,
                        cache_dir=runs.parent / "cache")
    assert outcome.status == api.RunStatus.FINISHED and outcome.run_dir is not None
    return outcome.run_dir


def as_stopped(run_dir: Path) -> None:
    """The run as a person's stop leaves it (so that it can be resumed)."""
    open_run(run_dir).update_meta(status=api.RunStatus.STOPPED)


def cli_resume(server: ScriptedServer, run_dir: Path, domain: Path | None, capsys: pytest.CaptureFixture[str],
               *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    argv = ["run", *([str(domain)] if domain else []), "--resume", str(run_dir), "--model", server.model,
            "--base-url", server.base_url, "--quiet", *extra]
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.fixture(autouse=True)
def own_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_a_new_run_records_the_fingerprint_of_its_domain(toy: Approach, server: ScriptedServer,  # noqa: F811
                                                         tmp_path: Path) -> None:
    run_dir = finished_run(server, FERRY, tmp_path / "runs")
    recorded = json.loads((run_dir / "run.json").read_text())["fingerprint"]
    assert recorded["name"] == "ferry" and recorded["pddl_name"] == "ferry"
    assert {"domain", "debug", "eval"} <= set(recorded)
    # a copy of the domain has the same fingerprint (file names and bytes, not paths)
    shutil.copytree(FERRY, tmp_path / "copy")
    assert api.resume_target is not None
    from genplan.engine.api.fingerprint import fingerprint_of

    assert fingerprint_of(tmp_path / "copy") == recorded


def test_a_finished_run_resumed_with_another_domain_is_refused_byte_for_byte(
        toy: Approach, server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    run_dir = finished_run(server, FERRY, tmp_path / "runs")
    before, asked = snapshot(run_dir), len(server.requests)
    gripper = DOMAINS / "gripper"
    code, err = cli_resume(server, run_dir, gripper, capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "ferry" in err and "gripper" in err and "another domain" in err and "nothing was changed" in err
    assert snapshot(run_dir) == before and len(server.requests) == asked
    # the API (the TUI's c, a batch) refuses it the same way
    settings = ModelSettings(model=server.model, base_url=server.base_url)
    with pytest.raises(api.NotResumable, match="another domain"):
        api.resume(run_dir, settings, domain_dir=gripper, no_cache=True)
    assert snapshot(run_dir) == before


def test_a_finished_run_says_it_finished_and_changes_nothing(toy: Approach, server: ScriptedServer,  # noqa: F811
                                                            tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = finished_run(server, FERRY, tmp_path / "runs")
    before, asked = snapshot(run_dir), len(server.requests)
    for domain in (None, FERRY):
        code, err = cli_resume(server, run_dir, domain, capsys, "--eval")
        assert code == 2 and err.count("\n") == 1 and "finished; nothing to resume" in err
    settings = ModelSettings(model=server.model, base_url=server.base_url)
    with pytest.raises(api.AlreadyFinished):
        api.resume(run_dir, settings, no_cache=True)
    assert snapshot(run_dir) == before and len(server.requests) == asked


def test_a_run_on_a_changed_domain_is_refused_and_goes_on_with_the_domain_as_it_was(
        toy: Approach, server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    domain = tmp_path / "ferry"
    shutil.copytree(FERRY, domain)
    run_dir = finished_run(server, domain, tmp_path / "runs")
    as_stopped(run_dir)
    before = snapshot(run_dir)
    task = sorted((domain / "debug").glob("*.pddl"))[0]
    original = task.read_bytes()
    task.write_bytes(original.replace(b"(:goal", b"; edited\n(:goal", 1))
    code, err = cli_resume(server, run_dir, None, capsys)
    assert code == 2 and "its debug tasks differ" in err and str(domain.resolve()) in err
    assert snapshot(run_dir) == before
    (domain / "domain.pddl").write_text((FERRY / "domain.pddl").read_text() + "\n; a comment\n")
    code, err = cli_resume(server, run_dir, None, capsys)
    assert code == 2 and "its domain file and its debug tasks differ" in err
    assert snapshot(run_dir) == before
    # the domain as it was: the run goes on (and finishes)
    task.write_bytes(original)
    shutil.copy(FERRY / "domain.pddl", domain / "domain.pddl")
    code, err = cli_resume(server, run_dir, None, capsys, "--no-cache")
    assert code == 0, err
    assert json.loads((run_dir / "run.json").read_text())["status"] == "finished"


def test_a_run_of_an_earlier_genplan_is_checked_against_what_it_shows(
        toy: Approach, server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    domain = tmp_path / "ferry"
    shutil.copytree(FERRY, domain)
    run_dir = finished_run(server, domain, tmp_path / "runs")
    meta = json.loads((run_dir / "run.json").read_text())
    del meta["fingerprint"]
    meta["status"] = "stopped"
    (run_dir / "run.json").write_text(json.dumps(meta))
    before = snapshot(run_dir)
    # its domain directory is still there: its fingerprint now is compared with the given one's
    code, err = cli_resume(server, run_dir, DOMAINS / "gripper", capsys)
    assert code == 2 and "another domain" in err and snapshot(run_dir) == before
    # gone: the domain its first request shows (define (domain ferry)) is compared
    shutil.rmtree(domain)
    code, err = cli_resume(server, run_dir, DOMAINS / "gripper", capsys)
    assert code == 2 and "another domain" in err and "ferry" in err and snapshot(run_dir) == before
    # the same domain elsewhere: nothing tells them apart, the run goes on
    code, err = cli_resume(server, run_dir, FERRY, capsys, "--no-cache")
    assert code == 0, err


def test_a_batch_leaves_an_entry_whose_domain_changed_as_it_was(toy: Approach, server: ScriptedServer,  # noqa: F811
                                                               tmp_path: Path) -> None:
    from genplan.engine.batch import load_experiment, run_batch

    domain = tmp_path / "ferry"
    shutil.copytree(FERRY, domain)
    experiment = toy_experiment(tmp_path, server)
    experiment.write_text(experiment.read_text().replace(str(FERRY), str(domain)))
    first = run_batch(load_experiment(experiment), tmp_path / "batch", no_cache=True)
    assert first.complete
    (run_dir,) = [p.parent for p in (tmp_path / "batch").rglob("run.json")]
    as_stopped(run_dir)
    (domain / "domain.pddl").write_text((FERRY / "domain.pddl").read_text() + "\n; changed\n")
    before, asked = snapshot(run_dir), len(server.requests)
    again = run_batch(load_experiment(experiment), tmp_path / "batch", no_cache=True)
    assert not again.complete and len(server.requests) == asked
    assert snapshot(run_dir) == before  # its evaluation.json too
    assert any("its domain file" in state.message for state in again.failed)


def test_no_cache_is_recorded_and_kept_on_resume(toy: Approach, server: ScriptedServer,  # noqa: F811
                                                 tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache"
    run_dir = finished_run(server, FERRY, tmp_path / "runs", no_cache=True)
    assert json.loads((run_dir / "run.json").read_text())["no_cache"] is True
    # made again from its start, as a run stopped before its first answer: the resume must not use the cache
    for path in (run_dir / "responses").iterdir():
        path.unlink()
    (run_dir / "events.jsonl").write_text("")
    (run_dir / "summary.json").unlink()
    as_stopped(run_dir)
    settings = ModelSettings(model=server.model, base_url=server.base_url, temperature=0)
    outcome = api.resume(run_dir, settings, cache_dir=cache)
    assert outcome.status == api.RunStatus.FINISHED
    assert not cache.exists() or not any(p.is_file() for p in cache.rglob("*"))
    # a run started with the cache and resumed with --no-cache records it from then on
    other = finished_run(server, FERRY, tmp_path / "runs2", no_cache=False)
    assert "no_cache" not in json.loads((other / "run.json").read_text())
    as_stopped(other)
    assert api.resume(other, settings, no_cache=True, cache_dir=cache).status == api.RunStatus.FINISHED
    assert json.loads((other / "run.json").read_text())["no_cache"] is True
