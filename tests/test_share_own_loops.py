"""The exported page of runs that write no programs: a live AutoToS run (successor and goal versions, its unit
tests' feedback rounds, the search's figures), and runs imported from the published logs in ../shared (AutoToS,
Silver et al.'s conversations, PDDLego+ and PlanGen trials with their PDDL versions, commands and observations),
opened in headless chromium."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from support.browser import browser_page, needs_chromium, section_text
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry_copy
from test_autotos_pddl import FERRY as FERRY_SUCC
from test_autotos_pddl import FERRY_BOARD_KEEPS_EMPTY, GOAL

from genplan.cli.main import main
from genplan.engine.api import StartRequest, start
from genplan.engine.api.share import export_run
from genplan.engine.llm import ModelSettings

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"../shared (the published logs) not beside the checkout: {SHARED}")
CANARY = "sk-canary-own-loops-93b1"


def _texts_of(page_file: Path) -> list[str]:
    """The long texts the page carries (its JSON block)."""
    block = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', page_file.read_text(), re.S)
    assert block is not None
    return list(json.loads(block.group(1))["texts"])


def _open(page_file: Path) -> dict[str, object]:
    """What a reader sees of the page: its sections, version files, counts; no script error, nothing fetched."""
    with browser_page() as (page, errors):
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(page_file.as_uri())
        sections = page.locator("main > section").evaluate_all("nodes => nodes.map(n => n.id)")
        text = []
        for section in sections:  # each is laid out as it comes into view, as a reader scrolls to it
            text.append(section_text(page, f"#{section}"))
        seen = {
            "sections": sections,
            "versions": page.locator("details.version summary code").all_inner_texts(),
            "rounds": page.locator("table.rounds tbody tr").count(),
            "commands": page.locator("table.commands tbody tr").count(),
            "diff_rows": page.locator("#diff tr").count(),
            "text": "\n".join(text),
        }
        assert errors == [] and all(url.startswith("file://") for url in requested), (errors, requested)
    return seen


@needs_chromium
def test_a_live_autotos_run_shows_its_functions_rounds_and_search(tmp_path: Path) -> None:
    domain = small_ferry_copy(tmp_path)
    os.environ["AUTOTOS_SHARE_KEY"] = CANARY
    try:
        with ScriptedServer(api_key=CANARY) as server:
            server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY_SUCC])
            server.on_step("autotos.goal", [GOAL])
            settings = ModelSettings(model=server.model, base_url=server.base_url, api_key_env="AUTOTOS_SHARE_KEY",
                                     retry_base_delay_s=0.01)
            outcome = start(StartRequest("AutoToS", str(domain), tmp_path / "runs",
                                         parameters={"evaluate": True, "eval_limit": 2}), settings, no_cache=True)
    finally:
        os.environ.pop("AUTOTOS_SHARE_KEY", None)
    run = Path(outcome.run_dir)
    page_file = export_run(run, tmp_path / "autotos.html").path
    assert CANARY not in page_file.read_text()
    seen = _open(page_file)
    assert {"timeline", "versions", "compare", "rounds", "records"} <= set(seen["sections"])
    assert sorted(seen["versions"]) == sorted(f"versions/{p.name}" for p in (run / "versions").glob("*.py"))
    assert seen["rounds"] == 1  # the unsound successor function's feedback round
    assert seen["diff_rows"] > 1  # the two successor functions side by side
    assert "succ soundness" in str(seen["text"])
    assert '"evaluation"' in page_file.read_text()  # the search's figures, in the run's record


@needs_chromium
@needs_shared
def test_an_imported_autotos_log_shows_every_answer_and_round(tmp_path: Path) -> None:
    log = SHARED / "autotos" / "clean_logs" / "blocks" / "gpt4-mini-val_logs" / "script_log_20240802_235803.txt"
    assert main(["import", "autotos", str(log), "--no-eval", "--quiet", "--runs", str(tmp_path)]) == 0
    run = next(p for p in tmp_path.iterdir() if (p / "run.json").is_file())
    page_file = export_run(run, tmp_path / "page.html").path
    texts = _texts_of(page_file)
    for answer in sorted((run / "responses").glob("*.md")):  # every model answer of the log is on the page
        assert answer.read_text() in texts, answer.name
    seen = _open(page_file)
    rounds = [line for line in (run / "events.jsonl").read_text().splitlines() if '"feedback.round"' in line]
    assert seen["rounds"] == len(rounds) > 0
    assert len(seen["versions"]) == len(list((run / "versions").glob("*.py")))


@needs_chromium
@needs_shared
def test_an_imported_silver_conversation_shows_its_programs_and_results(tmp_path: Path) -> None:
    folder = SHARED / "model-responses" / "silver2024" / "pg3-trapnewspapers_1_chatgpt4"
    assert main(["import", "silver", str(folder), "--domain", str(SHARED / "benchmarks" / "delivery"),
                 "--runs", str(tmp_path)]) == 0
    run = next(p for p in tmp_path.iterdir() if (p / "run.json").is_file())
    page_file = export_run(run, tmp_path / "page.html").path
    seen = _open(page_file)
    assert "results" in seen["sections"]
    programs = sorted(f"programs/{p.name}" for p in (run / "programs").glob("*.py"))
    assert programs and set(programs) <= set(seen["versions"])


@needs_chromium
@needs_shared
@pytest.mark.parametrize("condition,suffix", [("CC_PDDLego+_4.1", "_5_23.txt"), ("CC_PlanGen_4.1", "_9_63.txt")])
def test_an_imported_trial_shows_its_pddl_commands_and_observations(condition: str, suffix: str,
                                                                     tmp_path: Path) -> None:
    log = next((SHARED / "pddlego-plus" / "output" / "CoinCollector" / condition).glob(f"*{suffix}"))
    assert main(["import", "pddlego", str(log), "--out", str(tmp_path)]) == 0
    run = next(p for p in (tmp_path / "runs").iterdir() if (p / "run.json").is_file())
    page_file = export_run(run, tmp_path / "page.html").path
    seen = _open(page_file)
    assert {"commands", "records"} <= set(seen["sections"])
    pddl = sorted(f"pddl/{p.name}" for p in (run / "pddl").glob("*.pddl"))
    assert sorted(seen["versions"]) == pddl
    commands = [line for line in (run / "events.jsonl").read_text().splitlines() if '"command.executed"' in line]
    assert seen["commands"] == len(commands) > 0
    observation = json.loads(commands[0])["data"]["observation"]
    assert observation.splitlines()[0] in str(seen["text"])
