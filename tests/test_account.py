"""A run's account (engine/runs/account.py, derived by engine/account.py): the facts every front end shows, kept
apart and named once, checked against the run's event log on runs the engine made against the scripted server,
on the recorded runs of earlier genplan versions and on the plug-in approach of tests/support/guess_approach.py."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel
from support.scripted_server import RecordedRequest, Reply, ScriptedServer

from genplan.engine import api
from genplan.engine.api.runs import run_events
from genplan.engine.api.settings import ModelSettings
from genplan.engine.events import Notice, ResponseReceived
from genplan.engine.runs import RunMeta
from genplan.engine.runs.account import CallSource, ProvenanceKind, Tokens
from genplan.engine.runs.outcome import OutcomeInput, RunSummary
from genplan.engine.runs.status import RunStatus

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")
OLD_RUNS = Path(__file__).parent / "data" / "runs"


def _ferry_run(server: ScriptedServer, runs: Path, *, no_cache: bool) -> Path:
    settings = ModelSettings(model=server.model, base_url=server.base_url, temperature=0, retry_base_delay_s=0.01)
    outcome = api.start(api.StartRequest("F5-3", str(FERRY), runs), settings, no_cache=no_cache)
    return Path(outcome.run_dir)


@pytest.fixture(scope="module")
def ferry_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Two runs of F5-3 on ferry with the response cache on: the first asks the model, the second is answered
    from the cache throughout."""
    root = tmp_path_factory.mktemp("account")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(root / "cache"))
        with ScriptedServer() as server:
            server.respond_with(FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
            first = _ferry_run(server, root / "runs", no_cache=False)
            asked = len(server.requests)
            second = _ferry_run(server, root / "runs", no_cache=False)
            assert len(server.requests) == asked  # the second run asked nothing
    yield first, second


def test_calls_are_numbered_once_and_counted_by_where_the_answer_came_from(ferry_runs: tuple[Path, Path]) -> None:
    first, cached = ferry_runs
    responses = [e for e in run_events(first) if isinstance(e, ResponseReceived)]
    account = api.account(first)
    assert [c.request_id for c in account.calls] == [e.request_id for e in responses]
    assert [c.number for c in account.calls] == list(range(1, len(responses) + 1))
    asked = [e for e in responses if not e.cached]  # a run asks the same request twice: the second is cached
    assert account.counts.model == len(asked) and account.counts.cache == len(responses) - len(asked)
    assert account.counts.tokens_billed == Tokens(sum(e.tokens_in or 0 for e in asked),
                                                  sum(e.tokens_out or 0 for e in asked))
    assert account.who.provenance.kind is ProvenanceKind.LIVE and account.who.model == "scripted-model"
    assert account.outcome.facts.result is not None and account.outcome.facts.result.words == "6/6 debug tasks"
    # the run answered from the cache throughout: no call billed, its tokens served from the cache
    again = api.account(cached)
    assert again.counts.model == 0 and again.counts.cache == len(responses)
    assert again.counts.tokens_billed == Tokens(0, 0) and again.counts.model_seconds == 0.0
    assert again.counts.cost_usd == 0.0 and again.counts.cost_words == "$0.0000"  # cached answers cost nothing
    assert account.counts.cost_usd is None and account.counts.cost_words == "no price known"  # no price: no guess
    assert again.counts.tokens_cached == Tokens(sum(e.tokens_in or 0 for e in responses),
                                                sum(e.tokens_out or 0 for e in responses))


def test_the_report_carries_the_account_and_json_prints_it(ferry_runs: tuple[Path, Path]) -> None:
    first, _ = ferry_runs
    report = api.RunReport(first, RunStatus.FINISHED, {}, api.account(first))
    shown = report.to_json()["account"]
    assert shown["who"]["provenance"]["kind"] == "live" and shown["counts"]["calls"] == len(shown["calls"])
    assert shown["outcome"]["facts"]["result"] == {"name": "debug tasks", "solved": 6, "total": 6}
    assert "account" not in report.to_json(account=False)


def test_an_import_says_not_logged_never_zero_and_keeps_the_logs_own_result(tmp_path: Path) -> None:
    run = tmp_path / "import"
    shutil.copytree(OLD_RUNS / "import-6a70564", run)
    account = api.account(run)
    assert account.who.provenance.kind is ProvenanceKind.IMPORT
    assert account.who.provenance.import_source is not None and account.who.provenance.import_source.endswith(
        "synthetic_log.txt")
    assert account.counts.log == 2 and account.counts.model == 0
    assert account.counts.tokens_logged == Tokens(None, None) and account.counts.tokens_logged.words == "not logged"
    assert account.counts.model_seconds is None  # the log has no time, not "0.0 s"
    assert account.counts.cost_usd is None and account.counts.cost_words == "not logged"  # nor its bill
    assert account.outcome.facts.log_result == "2/2 solved"
    assert account.outcome.facts.result is not None and account.outcome.facts.result.words == "2/2 evaluation tasks"


def test_old_runs_have_an_account(tmp_path: Path) -> None:
    for name in ("legacy-bas", "stein-6a70564", "autotos-6a70564", "pddlego-6a70564"):
        shutil.copytree(OLD_RUNS / name, tmp_path / name)
        account = api.account(tmp_path / name)
        assert account.who.approach in ("bas", "stein", "autotos", "pddlego") and account.calls, name
        assert account.counts.calls == len(account.calls)
    assert api.account(tmp_path / "legacy-bas").outcome.facts.headline == "program c1-v01 selected: 6/6 debug tasks solved"
    assert api.account(tmp_path / "stein-6a70564").outcome.status_words == "stopped by a person"


def test_the_plugin_example_shows_its_own_evaluation_one_of_one(scripted_server: ScriptedServer,
                                                              tmp_path: Path) -> None:
    from support.guess_approach import register_guess, unregister_guess
    from test_toy_everywhere import ferry_plan

    register_guess()
    try:
        scripted_server.respond_with(lambda request: Reply.answer(ferry_plan()))
        settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url)
        outcome = api.start(api.StartRequest("Guess", str(FERRY), tmp_path / "runs"), settings, no_cache=True)
        report = api.report(outcome)
        account = report.account
    finally:
        unregister_guess()
    from genplan.tui.controllers.runs import run_note

    # the app's note: its own evaluation, 1/1, not "no evaluation"
    assert run_note(report) == "Run finished after 1 call: 1/1 tasks of its own evaluation solved."
    assert account is not None and account.who.approach == "guess"
    assert account.outcome.facts.result is not None and account.outcome.facts.result.words.startswith("1/1")
    assert account.counts.model == 1


def no_code(request: RecordedRequest) -> str | None:
    """A model that never writes code (Bas then selects no program, and its notices say why)."""
    return "I would rather not write a program." if "code" in (request.step or "") else None


def test_a_notice_keeps_its_message(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(FerryModel(extra=no_code))
    settings = ModelSettings(model=scripted_server.model, base_url=scripted_server.base_url)
    run = Path(api.start(api.StartRequest("Bas", str(FERRY), tmp_path), settings, no_cache=True).run_dir)
    logged = [e for e in run_events(run) if isinstance(e, Notice)]
    account = api.account(run)
    assert logged and all(e.message for e in logged)
    assert [(n.level, n.message) for n in account.notices] == [(e.level, e.message) for e in logged]
    assert any("nothing usable in the answer" in n.message for n in account.notices)
    assert account.outcome.facts.selected is None and account.outcome.facts.headline.startswith("no program selected")
    # the page says why the run has no program: each notice with its message, in its head and its timeline
    from markupsafe import escape

    from genplan.engine.api.share import export_run

    page = export_run(run, tmp_path / "page.html").path.read_text()
    notices = page[page.index('<ul class="notices" id="notices">'):]
    for event in logged:
        assert str(escape(event.message)) in notices.split("</ul>")[0]
        assert page.count(str(escape(event.message))) >= 2  # the head's list and the timeline's row


def test_a_fork_names_its_source_version_and_the_call_it_continues_from(ferry_runs: tuple[Path, Path],
                                                                         tmp_path: Path) -> None:
    first, _ = ferry_runs
    source = tmp_path / first.name
    shutil.copytree(first, source)
    program = "programs/c1-v00.py"
    text = (source / program).read_text()
    edited = api.edit(source, program, text + "\n# a person's note\n")
    assert edited is not None
    fork = api.fork_from(source, edited.file)
    meta = RunMeta.from_dict(json.loads((fork / "run.json").read_text()))
    account = api.account(fork)
    provenance = account.who.provenance
    assert provenance.kind is ProvenanceKind.FORK and provenance.forked_from == source.name
    assert provenance.forked_version == edited.file
    # the call is numbered as the source's calls are, not by its request id
    assert provenance.forked_at_call == api.account(source).call_number(meta.forked_at)
    assert f"call {provenance.forked_at_call} on" in provenance.words
    assert all(c.source is CallSource.RESUMED for c in account.calls)


def _input(run_status: RunStatus, **data: object) -> OutcomeInput:
    return OutcomeInput(run_status, RunMeta(run_id="x", status=run_status), RunSummary.from_dict(data), None)


def test_status_feedback_limit_and_a_trials_end_are_distinct_words() -> None:
    autotos = api.get_approach("autotos").describe
    pddlego = api.get_approach("pddlego").describe
    assert autotos is not None and pddlego is not None
    limit = autotos(_input(RunStatus.FINISHED, status="finished", stopped="goal", calls=9))
    assert limit.feedback_limit == "goal" and "feedback rounds for goal spent" in limit.headline
    assert "stopped" not in limit.headline
    # summary.json names it apart from the run's status now; a run of before says "stopped"
    assert autotos(_input(RunStatus.FINISHED, status="finished", feedback_limit="succ", stopped="succ")).feedback_limit \
        == "succ"
    trial = pddlego(_input(RunStatus.FINISHED, outcome="failure", reason="step-limit", steps=20))
    assert trial.trial_end == "step-limit" and trial.headline == "trial failed (step-limit) after 20 steps"
    from genplan.engine.runs.account import status_words

    words = {status_words(s) for s in (RunStatus.FINISHED, RunStatus.STOPPED, RunStatus.FAILED)}
    assert words == {"finished", "stopped by a person", "failed"}
    assert status_words(RunStatus.STOPPED, reason="budget") == "stopped at a cap of its budget"


@pytest.mark.parametrize(("style", "words", "first"), [("stein", "at step {n} ", 0), ("silver", "at time {n}\n", 1)])
def test_plan_steps_are_numbered_as_the_feedback_numbers_them(style: str, words: str, first: int) -> None:
    from genplan.engine.api.domains import DomainDir
    from genplan.engine.api.pddl import load_domain, load_problem, trace_plan

    directory = DomainDir.open(FERRY)
    domain = load_domain(directory.domain_file)
    problem = load_problem(directory.debug_tasks()[0], domain)
    from test_toy_everywhere import ferry_plan

    plan = [line for line in ferry_plan().splitlines() if line.startswith("(")]
    # an action left out: a later one cannot run (the first such place in the plan, past its first step)
    broken, trace = next((b, t) for i in range(1, len(plan)) for b in [plan[:i] + plan[i + 1:]]
                         for t in [trace_plan(domain, problem, b, style)] if t.failed_at_step is not None)
    failed = trace.failed_at_step
    assert failed is not None and failed.number == failed.index + first
    assert words.format(n=failed.number) in trace.message
    assert [s.number for s in trace.steps] == list(range(first, first + len(broken)))
    assert all(s.status == "not run" for s in trace.steps[failed.index + 1:])
    assert len(trace.states) == failed.index + 1  # the state before each step that ran, and before the failing one
