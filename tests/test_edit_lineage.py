"""Continuing from any kind of version (engine.api.edit, fork_from, resume): a program, a reflection edited
twice, an NL description; the fork names the edited version as its source does and marks it as the same edit,
and every later request carries the person's text."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import ferry_copy, isolated, record_run  # noqa: F401

from genplan.engine import api
from genplan.engine.llm import ModelSettings
from genplan.engine.runs.edits import answer_version, edits_of, lineage


def _continue(source: Path, version: str, server: ScriptedServer) -> Path:
    fork = api.fork_from(source, version)
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    outcome = api.resume(fork, settings, no_cache=True, domain_dir=source.parents[2])  # the run's domain
    assert outcome.status == "finished"
    return fork


def test_a_program_edit_continues_under_its_own_name(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]), initial_programs=1)
        assert sorted(p.name for p in (source / "programs").iterdir()) == ["c1-v00.py", "c1-v01.py"]
        edited = CORRECT_PROGRAM + "\n# MARKER: corrected by hand\n"
        record = api.edit(source, "programs/c1-v00.py", edited)
        assert record is not None and record.file == "programs/c1-v02.py"
        asked_before = len(server.requests)
        fork = _continue(source, "programs/c1-v02.py", server)
        # the edit is checked under its source's name, first; nothing is asked before it
        assert (fork / "programs/c1-v02.py").read_text().strip() == edited.strip()
        assert not (fork / "programs/c1-v00.py").exists()
        results = json.loads((fork / "results/program-c1-v02.json").read_text())
        assert all(r["solved"] for r in results) and len(results) == 6
        summary = json.loads((fork / "summary.json").read_text())
        assert summary["selected_program"].endswith("programs/c1-v02.py")
        assert [(r.edited, r.file) for r in edits_of(fork)] == [("programs/c1-v00.py", "programs/c1-v02.py")]
        assert not any(r.step in ("code.generate", "strategy.generate", "nl.domain") for r in server.requests[asked_before:])


def test_a_reflection_edited_twice_continues_into_the_revision(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(strategy_plan_mistakes=1), initial_programs=1)
        [reflection] = [f"reflections/{p.name}" for p in (source / "reflections").iterdir()]
        assert reflection.startswith("reflections/strategy-v01-")
        first = api.edit(source, reflection, "The plan skipped sailing to the car first.\n")
        assert first is not None and first.file == reflection.replace(".md", "-edit1.md")
        second = api.edit(source, first.file, "MARKER-reflection: sail to the car before boarding it.\n")
        assert second is not None and second.file == reflection.replace(".md", "-edit2.md")  # not -edit1-edit1
        assert lineage(source, second.file) == [reflection, first.file, second.file]
        assert answer_version(source, second.file) == reflection
        asked_before = len(server.requests)
        fork = _continue(source, second.file, server)
        assert (fork / second.file).is_file() and not (fork / reflection).exists()
        new = server.requests[asked_before:]
        revise = [r for r in new if r.step == "strategy.revise"]
        assert revise and any("MARKER-reflection" in m["content"] for m in revise[0].messages)
        assert "strategy.reflect" not in [r.step for r in new][:1]  # the edited reflection was not asked again
        assert [(r.edited, r.file) for r in edits_of(fork)] == [(first.file, second.file)]


def test_an_nl_description_edit_continues_from_there(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(), initial_programs=1)
        record = api.edit(source, "nl/domain.md", "MARKER-nl: one ferry, many cars, one car aboard at a time.\n")
        assert record is not None and record.file == "nl/domain-edit1.md" and record.kind == "description"
        asked_before = len(server.requests)
        fork = _continue(source, record.file, server)
        # descriptions keep their names (read by name): the fork's nl/domain.md is the edit
        assert (fork / "nl/domain.md").read_text().strip().startswith("MARKER-nl")
        new = server.requests[asked_before:]
        assert "nl.domain" not in [r.step for r in new]
        generate = next(r for r in new if r.step == "strategy.generate")
        assert any("MARKER-nl" in m["content"] for m in generate.messages)


def test_a_fork_of_a_fork_continues_from_its_own_edit(tmp_path: Path, isolated: Path) -> None:  # noqa: F811
    """In a fork, the versions its source had before the edit are not files of the fork: an edit made in the
    fork continues from the fork's own answer."""
    domain = ferry_copy(tmp_path)
    with ScriptedServer() as server:
        source = record_run(domain, server, FerryModel(), initial_programs=1)
        first = api.edit(source, "strategies/v01.md", "1. the first correction (version 7)\n")
        assert first is not None
        fork = _continue(source, first.file, server)  # its strategies/v02.md, ✎ edit of v01
        second = api.edit(fork, "strategies/v02.md", "1. MARKER-again: the second correction (version 8)\n")
        assert second is not None and second.file == "strategies/v03.md"
        assert answer_version(fork, second.file) == "strategies/v02.md"
        asked_before = len(server.requests)
        again = _continue(fork, second.file, server)
        meta = json.loads((again / "run.json").read_text())
        assert meta["edit_lineage"] == ["strategies/v01.md", "strategies/v02.md", "strategies/v03.md"]
        assert meta["edit_replaces"] == "strategies/v01.md"  # what the pipeline's count calls the answered version
        assert [(r.edited, r.file) for r in edits_of(again)] == [("strategies/v02.md", "strategies/v03.md")]
        assert (again / "strategies/v03.md").read_text().startswith("1. MARKER-again")
        plans = [r for r in server.requests[asked_before:] if r.step == "strategy.plan"]
        assert plans and all("MARKER-again" in r.messages[-1]["content"] for r in plans)
        # the fork's own version, unchanged, continued from: still called v02, still the edit of v01
        third = _continue(fork, "strategies/v02.md", server)
        assert (third / "strategies/v02.md").read_text().startswith("1. the first correction")
        assert not (third / "strategies/v01.md").exists()
        assert [(r.edited, r.file) for r in edits_of(third)] == [("strategies/v01.md", "strategies/v02.md")]
