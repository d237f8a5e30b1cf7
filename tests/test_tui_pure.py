"""The TUI's display logic that needs no running app: highlighting, diffs, plan traces, run state,
versions, settings files, file filters, replay timing and the command line."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest
from pygments.token import Comment, Keyword, Name, Operator
from support.ferry_model import FERRY
from test_tui_support import isolated  # noqa: F401 - fixture

from genplan.engine.events import EVENT_TYPES, Event, RequestRetry, event_from
from genplan.engine.pddl import load_domain, load_problem
from genplan.tui import run_state
from genplan.tui.artifacts import VersionIndex
from genplan.tui.diffing import change_indices, diff_stats, side_by_side
from genplan.tui.highlight import highlight_text, line_highlights, token_spans
from genplan.tui.pddl_lexer import PddlLexer
from genplan.tui.plan_trace import FAILED, NOT_RUN, parse_plan_lines, trace_plan
from genplan.tui.replay import MAX_GAP_S, Replayer
from genplan.tui.watcher import interesting


# ------------------------------------------------------------------ PDDL lexer and highlighting
def tokens(text: str) -> list[tuple[object, str]]:
    return [(t, v) for t, v in PddlLexer().get_tokens(text) if v.strip()]


def test_pddl_lexer_classifies_the_parts_of_a_domain() -> None:
    found = tokens((FERRY / "domain.pddl").read_text())
    assert (Comment.Single, ";; The ferry crosses from one location to another.") in found
    assert (Keyword.Declaration, ":action") in found and (Name.Function, "sail") in found
    assert (Name.Variable, "?from") in found and (Name.Builtin, ":strips") in found
    assert (Operator.Word, "and") in found and (Operator.Word, "not") in found
    # `not-eq` is a predicate, not the connective `not` followed by `-eq`
    assert (Name.Function, "not-eq") in found and (Operator.Word, "not-eq") not in found


def test_pddl_lexer_types_case_and_problem_names() -> None:
    found = tokens("(DEFINE (PROBLEM p1) (:domain d) (:objects a b - truck) (:init (at a b)))")
    assert (Keyword.Type, "truck") in found
    assert (Name.Class, "p1") in found
    assert (Keyword.Declaration, ":objects") in found


def test_highlight_maps_tokens_to_byte_ranges_per_line() -> None:
    text = "x = 'é'\n# ä comment\n"
    spans = line_highlights(text, "python")
    string_bytes = [(a, b) for a, b, name in spans[0] if name == "string"]
    assert min(a for a, _ in string_bytes) == 4 and max(b for _, b in string_bytes) == 8  # 'é' is 4 bytes
    assert [name for _a, _b, name in spans[1]] == ["comment"]
    assert highlight_text(text, "python").plain == text
    assert token_spans("plain words", "text") == []


# ------------------------------------------------------------------ diffs
def test_side_by_side_aligns_and_marks_changed_characters() -> None:
    left = "a\nb = 1\nc\nd\n"
    right = "a\nb = 2\nd\ne\n"
    rows = side_by_side(left, right)
    assert [(r.tag, r.left_no, r.right_no) for r in rows] == [
        ("equal", 1, 1), ("replace", 2, 2), ("delete", 3, None), ("equal", 4, 3), ("insert", None, 4),
    ]
    changed = rows[1]
    assert changed.left_changes == ((4, 5),) and changed.right_changes == ((4, 5),)
    assert diff_stats(rows).summary() == "1 changed, 1 removed, 1 added"
    assert change_indices(rows) == [1, 4]
    assert diff_stats(side_by_side("x\n", "x\n")).identical


# ------------------------------------------------------------------ plan stepper model
def test_plan_trace_shows_effects_failure_and_unsatisfied_preconditions() -> None:
    domain = load_domain(FERRY / "domain.pddl")
    problem = load_problem(FERRY / "debug" / "task-00.pddl", domain)
    trace = trace_plan(domain, problem, ["(board c0 l0)", "(debark c0 l1)", "(sail l0 l1)"])
    first, second, third = trace.steps
    assert first.added == ["(on c0)"] and "(at c0 l0)" in first.deleted and first.status == "ok"
    assert second.status == FAILED and second.unsatisfied == ["(at-ferry l1)"]
    assert third.status == NOT_RUN
    assert trace.failing_step == 1
    assert "(on c0)" in trace.state_after(0) and "(at c0 l0)" not in trace.state_after(0)
    good = trace_plan(domain, problem, ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"])
    assert good.result.valid and good.failing_step is None and good.goal_status() == [("(at c0 l1)", True)]
    short = trace_plan(domain, problem, ["(board c0 l0)"])
    assert short.failing_step == 1 and short.goal_status() == [("(at c0 l1)", False)]


def test_pasted_plans_drop_comments_numbers_and_blank_lines() -> None:
    assert parse_plan_lines("; plan\n0: (sail a b)\n\n(board c a) ; go\n") == ["(sail a b)", "(board c a)"]


# ------------------------------------------------------------------ run state from events
def event(seq: int, type_: str, t: float, **data) -> Event:
    return event_from(type_, data, seq, t)


def test_the_run_state_handles_every_kind_of_event_the_engine_publishes() -> None:
    assert set(run_state._HANDLERS) == set(EVENT_TYPES.values())


def test_a_retried_request_says_why_and_when_it_is_tried_again() -> None:
    state = run_state.RunState(None)
    state.apply(event(1, "request.sent", 1.0, request_id=4, step="code.generate", file="requests/0004-code.generate.json"))
    update = state.apply(RequestRetry(request_id=4, step="code.generate", attempt=1, delay_s=2.5,
                                      reason="HTTP 503", time=2.0))
    entry = state.entry("req:4")
    assert entry is not None and entry.status == run_state.RUNNING
    assert entry.detail == "attempt 1 failed (HTTP 503); retrying in 2.5 s" and update.entries


def test_run_state_builds_timeline_results_totals_and_streams(tmp_path: Path) -> None:
    state = run_state.RunState(tmp_path)
    (tmp_path / "responses").mkdir()
    (tmp_path / "responses" / "0001-nl.domain.md").write_text("synthetic answer text")
    log = [
        event(1, "run.started", 100.0, domain="ferry", preset="F5-3"),
        event(2, "step.started", 100.0, phase="nl"),
        event(2, "text.delta", 100.1, request_id=1, text="synthetic "),  # streamed before the announcement
        event(3, "request.sent", 100.2, request_id=1, step="nl.domain", file="requests/0001-nl.domain.json"),
        event(3, "text.delta", 100.3, request_id=1, text="answer text"),
        event(4, "response.received", 101.0, request_id=1, step="nl.domain", file="responses/0001-nl.domain.md",
              tokens_in=100, tokens_out=20, cost_usd=0.001, latency_s=0.8, cached=False),
        event(5, "artifact.created", 101.1, kind="strategy", file="strategies/v01.md", version="v01"),
        event(6, "validation.result", 102.0, what="strategy", version="v01", task="task-00", valid=False,
              kind="unsatisfied-precondition", message="The action (sail l0 l1) at step 0 is not executable",
              plan=["(sail l0 l1)"]),
        event(7, "validation.result", 102.1, what="strategy", version="v01", task="task-01", valid=True,
              kind=None, message="", plan=["(board c0 l0)"]),
        event(8, "step.finished", 103.0, phase="nl"),
        event(9, "run.finished", 104.0, status="finished", debug_solved=5, debug_total=6,
              selected_program=str(tmp_path / "programs" / "c1-v01.py")),
    ]
    updates = [state.apply(e) for e in log]
    assert updates[2].stream_started == "1" and updates[4].stream == ("1", "answer text")
    assert state.stream_text("1") == "synthetic answer text"
    assert state.response_text("1") == "synthetic answer text"
    titles = [(e.kind, e.title, e.status) for e in state.entries]
    assert ("request", "nl.domain", "done") in titles
    assert ("artifact", "strategy v01", "done") in titles
    assert ("check", "check strategy v01", "fail") in titles and ("check", "check strategy v01", "pass") in titles
    request = state.entry("req:1")
    assert request.tokens == 120 and request.seconds == pytest.approx(0.8)
    assert request.file == tmp_path / "requests" / "0001-nl.domain.json"
    table = state.current_table
    assert list(table) == ["task-00", "task-01"] and table["task-00"].plan == ["(sail l0 l1)"]
    assert state.totals.calls == 1 and state.totals.tokens == 120 and state.totals.cost_usd == pytest.approx(0.001)
    assert state.elapsed(live=False) == pytest.approx(4.0)
    assert state.status == "done" and "5/6 debug tasks solved by c1-v01" in state.entries[-1].detail
    phase = next(e for e in state.entries if e.kind == "phase")
    assert phase.status == "done" and phase.seconds == pytest.approx(3.0)


def test_run_state_pause_then_send_keeps_one_row_and_cached_calls_cost_nothing() -> None:
    state = run_state.RunState(None)
    state.apply(event(1, "request.paused", 1.0, request_id=7, step="code.generate"))
    assert state.entry("req:7").status == "paused"
    state.apply(event(2, "request.sent", 2.0, request_id=7, step="code.generate"))
    state.apply(event(3, "response.received", 3.0, request_id=7, step="code.generate", cached=True,
                      tokens_in=5, tokens_out=5, cost_usd=0.0))
    assert [e.key for e in state.entries] == ["req:7"] and state.entries[0].status == "cached"
    assert state.totals.calls == 0 and state.totals.cost_known
    state.apply(event(4, "response.received", 4.0, request_id=8, step="code.reflect", tokens_in=1, tokens_out=1,
                      cost_usd=None))
    assert state.totals.calls == 1 and not state.totals.cost_known
    state.apply(event(5, "run.failed", 5.0, message="ModelAccessError: boom"))
    assert state.status == "failed" and state.error == "ModelAccessError: boom"


def test_the_end_of_a_run_reports_the_rows_it_closes() -> None:
    """Rows still running when the run ends become done/failed; the update names them so that the
    timeline redraws them."""
    state = run_state.RunState(None)
    state.apply(event(1, "request.sent", 1.0, request_id=3, step="code.generate"))
    state.apply(event(2, "request.paused", 2.0, request_id=4, step="code.reflect"))
    running = [i for i, e in enumerate(state.entries) if e.status in ("running", "paused")]
    assert len(running) == 2
    update = state.apply(event(3, "run.failed", 3.0, message="stopped by the user"))
    assert set(running) <= set(update.entries)
    assert all(state.entries[i].status == "failed" for i in running)


# ------------------------------------------------------------------ versions
def test_version_index_scans_runs_keeps_outside_edits_as_new_versions(tmp_path: Path) -> None:
    run = tmp_path / ".genplan" / "runs" / "r1"
    (run / "strategies").mkdir(parents=True)
    (run / "programs").mkdir()
    (run / "strategies" / "v01.md").write_text("one")
    (run / "strategies" / "v02.md").write_text("two")
    (run / "programs" / "c1-v00.py").write_text("p0")
    (run / "programs" / "c2-v00.py").write_text("q0")
    index = VersionIndex(tmp_path)
    names = [v.name for v in index.scan()]
    assert names == ["c1-v00", "c2-v00", "v01", "v02"]
    strategy = index.get("r1/strategy/v02")
    assert [v.name for v in index.history(strategy)] == ["v01", "v02"]
    assert [v.name for v in index.history(index.get("r1/program/c2-v00"))] == ["c2-v00"]
    # an edit in place: the old text stays as it was, the file's new text is a new version
    (run / "programs" / "c1-v00.py").write_text("p0 edited")
    edited = index.file_changed(run / "programs" / "c1-v00.py")
    assert edited is not None and edited.name == "c1-v00+1" and edited.read() == "p0 edited"
    assert index.get("r1/program/c1-v00").read() == "p0"
    # on the record: the file holds what the run checked again, the edit is a file of its own and an event
    assert (run / "programs" / "c1-v00.py").read_text() == "p0"
    assert (run / "programs" / "c1-v00+1.py").read_text() == "p0 edited"
    from genplan.engine.runs.edits import edits_of, text_hash

    [record] = edits_of(run)
    assert (record.edited, record.file, record.origin) == ("programs/c1-v00.py", "programs/c1-v00+1.py", "outside")
    assert (record.old_hash, record.new_hash) == (text_hash("p0"), text_hash("p0 edited"))
    assert index.file_changed(run / "programs" / "c1-v00.py") is None  # nothing changed since
    (run / "programs" / "c1-v00.py").write_text("p0 edited twice")
    second = index.file_changed(run / "programs" / "c1-v00.py")
    assert second is not None and second.name == "c1-v00+2" and second.read() == "p0 edited twice"
    assert index.get("r1/program/c1-v00+1").read() == "p0 edited"
    # history follows the edit lineage: the file c1-v00.py edited again is another edit of c1-v00, a sibling of +1
    assert [(r.edited, r.file) for r in edits_of(run)] == [("programs/c1-v00.py", "programs/c1-v00+1.py"),
                                                           ("programs/c1-v00.py", "programs/c1-v00+2.py")]
    assert [v.name for v in index.history(edited)] == ["c1-v00", "c1-v00+1"]
    assert [v.name for v in index.history(second)] == ["c1-v00", "c1-v00+2"]
    # a new file is a new version; files outside the artefact folders are not
    (run / "programs" / "c1-v01.py").write_text("p1")
    assert index.file_changed(run / "programs" / "c1-v01.py").name == "c1-v01"
    (run / "summary.json").write_text("{}")
    assert index.file_changed(run / "summary.json") is None


# ------------------------------------------------------------------ settings file
def test_settings_saved_as_toml_mode_600_key_only_when_asked(isolated: Path, monkeypatch) -> None:  # noqa: F811
    from genplan.engine.llm import ModelSettings
    from genplan.tui.config import RunPrefs, load_tui_settings, save_tui_settings

    path = isolated / "conf" / "config.toml"
    path.parent.mkdir()
    path.write_text('[other]\nkept = 1\n')
    settings = ModelSettings(model="m1", base_url="http://127.0.0.1:9/v1", api_key_env="MY_KEY")
    prefs = RunPrefs("F3-6", {"code_rounds": 2})
    monkeypatch.setenv("MY_KEY", "sk-secret")
    save_tui_settings(path, settings, prefs)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    data = tomllib.loads(path.read_text())
    assert data["llm"]["model"] == "m1" and data["llm"]["api_key_env"] == "MY_KEY"
    assert data["pipeline"] == {"preset": "F3-6", "code_rounds": 2} and data["other"] == {"kept": 1}
    assert "secrets" not in data and "sk-secret" not in path.read_text()
    save_tui_settings(path, settings, prefs, store_key=True)
    assert tomllib.loads(path.read_text())["secrets"] == {"api_key": "sk-secret"}
    loaded, loaded_prefs, error = load_tui_settings(path)
    assert error is None and loaded.model == "m1" and loaded_prefs.preset == "F3-6"
    assert loaded_prefs.to_config().code_rounds == 2 and loaded_prefs.to_config().initial_programs == 3
    path.write_text('[pipeline]\npreset = "nonsense"\n')
    _settings, fallback, error = load_tui_settings(path)
    assert fallback.preset == "F5-3" and "unknown preset 'nonsense'" in error and str(path) in error


# ------------------------------------------------------------------ watched files, replay, command line
def test_only_domain_task_and_artefact_files_are_watched(tmp_path: Path) -> None:
    assert interesting(tmp_path / "domain.pddl", tmp_path)
    assert interesting(tmp_path / "debug" / "task-00.pddl", tmp_path)
    assert interesting(tmp_path / ".genplan" / "runs" / "r" / "programs" / "c1-v00.py", tmp_path)
    assert not interesting(tmp_path / ".genplan" / "runs" / "r" / "events.jsonl", tmp_path)
    assert not interesting(tmp_path / ".genplan" / "runs" / "r" / "programs" / ".c1-v00.py.tmp", tmp_path)
    assert not interesting(tmp_path / "generator.py", tmp_path)


def test_replay_gaps_scale_with_speed_and_long_waits_are_capped() -> None:
    events = [event(1, "run.started", 0.0), event(2, "notice", 1.0), event(3, "notice", 100.0)]
    replay = Replayer(Path("."), events, lambda e: None, speed=2.0)
    assert replay.gap(0) == 0.0 and replay.gap(1) == pytest.approx(0.5) and replay.gap(2) == MAX_GAP_S


def test_command_line_errors_are_one_line(tmp_path: Path, capsys) -> None:
    from genplan.tui.main import main

    assert main([str(tmp_path / "missing")]) == 2
    assert main([str(tmp_path)]) == 2
    assert main([str(FERRY), "--run", "no-such-run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("genplan-tui: ") for line in err)
    assert "missing domain.pddl" in err[1] and "no such run" in err[2]


def test_a_stopped_run_says_so_and_its_unanswered_requests_are_not_done(tmp_path: Path) -> None:
    state = run_state.RunState(tmp_path)
    for e in [
        event(1, "run.started", 100.0, domain="ferry", preset="F5-3"),
        event(2, "request.sent", 100.1, request_id=1, step="nl.domain", file="requests/0001-nl.domain.json"),
        event(3, "response.received", 101.0, request_id=1, step="nl.domain", file="responses/0001-nl.domain.md"),
        event(4, "request.sent", 101.1, request_id=2, step="nl.task", file="requests/0002-nl.task.json"),
        event(5, "run.finished", 102.0, status="stopped", debug_solved=0, debug_total=6,
              message="the request was cancelled by the person answering it"),
    ]:
        state.apply(e)
    assert state.status == "stopped"
    statuses = {e.title: e.status for e in state.entries if e.kind in ("request", "run")}
    assert statuses == {"run started": "info", "nl.domain": "done", "nl.task": "stopped", "run stopped": "stopped"}
    last = state.entries[-1]
    assert last.detail == "0/6 debug tasks solved (the request was cancelled by the person answering it)"
