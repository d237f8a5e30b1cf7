"""engine/api/ as a package: the run API keeps every name it had as one module, and the themed modules the TUI
reaches the engine through (domains, runs, versions, pddl, presets, settings) do what the app asks of them."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from genplan.engine import api
from genplan.engine.api import domains, presets, settings
from genplan.engine.api import pddl as api_pddl
from genplan.engine.api import runs as run_files

ROOT = Path(__file__).resolve().parents[1]
FERRY = ROOT / "domains" / "ferry"

# what engine/api.py exported before it became a package (cli/, engine/batch and the tests use them)
RUN_API = [
    "Decision", "GenplanError", "NotResumable", "RunOutcome", "RunStatus", "StartRequest", "UnknownPreset", "Watch",
    "approach_of", "approach_of_request", "approach_of_run", "check_strategy", "fork", "fork_with_task", "list_runs",
    "message", "new_run", "overview", "pipeline", "prepare", "provider_for", "record_edit", "report",
    "rerun_program", "resumable", "resume", "start",
]


def test_the_run_api_keeps_every_name() -> None:
    assert set(RUN_API) <= set(api.__all__)
    for name in RUN_API:
        assert getattr(api, name) is not None


@pytest.mark.parametrize("module", ["domains", "runs", "versions", "pddl", "presets", "settings"])
def test_every_name_a_themed_module_offers_is_there(module: str) -> None:
    loaded = importlib.import_module(f"genplan.engine.api.{module}")
    missing = [name for name in loaded.__all__ if not hasattr(loaded, name)]
    assert not missing


def test_a_domain_directory_opens_with_its_task_sets_in_order() -> None:
    opened = domains.open_domain(FERRY)
    assert opened.error is None and opened.domain is not None and opened.directory is not None
    assert "(define" in opened.text
    sets = [task_set for task_set, _ in opened.tasks]
    assert sets and sets == sorted(sets, key=domains.TASK_SETS.index)  # debug, then eval, then probes
    assert {"debug", "eval"} <= set(sets)


def test_a_directory_without_a_domain_is_one_line_not_an_exception(tmp_path: Path) -> None:
    opened = domains.open_domain(tmp_path)
    assert opened.domain is None and opened.tasks == [] and opened.error and "\n" not in opened.error


def test_parse_errors_name_the_file_and_line() -> None:
    text = (FERRY / "domain.pddl").read_text(encoding="utf-8")
    assert api_pddl.parse_error(text) is None
    broken = text.replace("(:action", "(:actoin", 1)
    error = api_pddl.parse_error(broken)
    assert error is not None and error.path == api_pddl.DOMAIN_FILE and error.line
    unbalanced = api_pddl.parse_error("(define (problem p)", "problem")
    assert unbalanced is not None and unbalanced.path == api_pddl.PROBLEM_FILE


def test_a_task_as_programs_receive_it() -> None:
    domain = api_pddl.load_domain(FERRY / "domain.pddl")
    task = sorted((FERRY / "debug").glob("*.pddl"))[0]
    text = api_pddl.program_input(api_pddl.load_problem(task, domain), domain, typed=False)
    assert "objects" in text and "init" in text and "goal" in text


def test_a_form_s_settings_are_checked_as_options_are() -> None:
    current = settings.ModelSettings(model="m1", base_url="http://127.0.0.1:9/v1")
    changed = settings.settings_with(current, {"model": "m2"})
    assert changed.model == "m2" and changed.base_url == current.base_url
    with pytest.raises(settings.SettingsError):
        settings.settings_with(current, {"temperature": "warm"})


def test_presets_a_domain_offers_and_accepts(tmp_path: Path) -> None:
    offered = presets.domain_presets()
    assert offered[0] == "F5-3" and "AutoToS" in offered
    assert presets.own_loop_preset("F5-3") is None
    owner = presets.own_loop_preset("AutoToS")
    assert owner is not None and owner[0].name == "autotos"
    assert presets.check_domain_preset("AutoToS") == "AutoToS"
    with pytest.raises(presets.ConfigError):
        presets.check_domain_preset("no-such-preset")
    # a run of no run.json: the default preset's configuration
    assert presets.run_config(None) == presets.load_preset("F5-3")
    assert presets.run_config(tmp_path) == presets.load_preset("F5-3")


def test_run_directories_are_told_apart(tmp_path: Path) -> None:
    assert not run_files.is_run_dir(tmp_path)
    (tmp_path / run_files.META).write_text("{}", encoding="utf-8")
    assert run_files.is_run_dir(tmp_path)
    assert all(name.startswith("genplan.engine.") for name in api.RUN_MODULES)


def test_plans_of_a_task_and_answers_are_read_from_a_run_s_files(tmp_path: Path) -> None:
    from genplan.engine.api.versions import recorded_plans

    (tmp_path / "results").mkdir()
    records = [{"task": "p01", "solved": True, "output": ["(a)", "(b)"]}, {"task": "p02", "output": ["(c)"]},
               {"task": "p01", "solved": False, "output": []}]
    (tmp_path / "results" / "c1-v00.json").write_text(json.dumps(records), encoding="utf-8")
    (tmp_path / "results" / "broken.json").write_text("{", encoding="utf-8")
    assert recorded_plans(tmp_path, "p01") == [("c1-v00", True, ["(a)", "(b)"])]
    assert recorded_plans(tmp_path / "none", "p01") == []
    record = tmp_path / "0001-strategy.json"
    record.write_text(json.dumps({"response": {"text": "the answer"}}), encoding="utf-8")
    assert run_files.answer_text(record) == "the answer"
    (tmp_path / "0001-strategy.md").write_text("as Markdown", encoding="utf-8")
    assert run_files.answer_text(tmp_path / "0001-strategy.md") == "as Markdown"
