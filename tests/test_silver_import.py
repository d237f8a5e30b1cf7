"""genplan import silver: a conversation of Silver et al.'s released cache replayed through Sil."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_tui_support import config_for, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.cli.main import main
from genplan.engine.runs.store import RunStore
from genplan.engine.silver.replay import ENVIRONMENTS, read_conversation

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CACHE = SHARED / "model-responses" / "silver2024"
BENCHMARKS = SHARED / "benchmarks"


@pytest.fixture
def cache() -> Path:
    if not CACHE.is_dir() or not BENCHMARKS.is_dir():
        pytest.skip(f"../shared/model-responses/silver2024 or ../shared/benchmarks not beside the checkout ({SHARED})")
    return CACHE


def test_every_environment_maps_to_a_shared_benchmark(cache: Path) -> None:
    environments = {read_conversation(folder).environment.removesuffix("-ablated") for folder in cache.iterdir()}
    assert environments == set(ENVIRONMENTS)
    assert all((BENCHMARKS / domain / "domain.pddl").is_file() for domain in ENVIRONMENTS.values())


def test_bad_input_is_one_line_and_exit_2(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "silver", str(tmp_path), "--domain", str(BENCHMARKS / "hiking")]) == 2
    assert main(["import", "silver", str(cache / "pg3-hiking_0_chatgpt4"), "--domain", str(tmp_path / "no")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2


def test_replay_follows_genplans_checks_and_prints_json(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a conversation in which GPT-4 needed fixes: genplan asks for them as long as its checks find failures
    folder = cache / "pg3-trapnewspapers_1_chatgpt4"
    answers = len(read_conversation(folder).responses)
    code = main(["import", "silver", str(folder), "--domain", str(BENCHMARKS / "delivery"), "--runs", str(tmp_path), "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"run_dir", "selected_program", "llm_calls", "debug_solved", "debug_total", "account"}
    assert summary["debug_total"] == 6 and 3 <= summary["llm_calls"] <= answers
    run = Path(summary["run_dir"])
    requests = sorted((run / "requests").glob("*.json"))
    assert len(requests) == summary["llm_calls"]
    # the recorded answers, in order
    recorded = read_conversation(folder).responses
    responses = sorted((run / "responses").glob("*.md"))
    assert [r.read_text().strip()[:60] for r in responses] == [a.strip()[:60] for a in recorded[: len(responses)]]
    meta = json.loads((run / "run.json").read_text())
    assert meta["import"]["kind"] == "silver" and meta["import"]["seed"] == 1


async def test_imported_run_opens_in_the_tui(cache: Path, isolated: Path) -> None:  # noqa: F811
    domain = isolated / "hiking"
    shutil.copytree(BENCHMARKS / "hiking", domain)
    folder = cache / "pg3-hiking_0_chatgpt4"
    assert main(["import", "silver", str(folder), "--domain", str(domain), "--runs", str(RunStore.runs_dir(domain)), "--json"]) == 0
    run = next(RunStore.runs_dir(domain).iterdir())
    app = make_app(domain, config_for(isolated, None), run=str(run))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done", what="the run")
        assert app.runner.run_dir == run
        assert sum(1 for e in app.runner.state.entries if e.kind == "request") >= 3
