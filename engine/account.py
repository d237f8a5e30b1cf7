"""A run's account (engine/runs/account.py), derived from its directory and event log: the one thing every front
end reads of a run. Runs of any age have one: everything here is read from what a run directory has always held
(run.json, summary.json or trial.json, import.json, the event log, the checked versions' results).

The outcome in words and numbers is the approach's: its registry record's ``describe`` (AutoToS's evaluation and
findings, a trial's end), else :func:`describe_generic`, which reads the outcome record's typed fields every
approach may write (a selected program and its debug tasks, an evaluation of itself, a trial's outcome).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from genplan.engine.events import Event, Notice, RequestSent, ResponseReceived, RunFailed, RunFinished, RunStarted
from genplan.engine.runs import RunMeta, layout, read_meta_or_none
from genplan.engine.runs.account import (
    Call,
    CallSource,
    Counts,
    Figure,
    NoticeLine,
    Outcome,
    OutcomeFacts,
    Provenance,
    ProvenanceKind,
    RunAccount,
    Tokens,
    VersionLine,
    Who,
    status_words,
)
from genplan.engine.runs.files import read_json_or_none
from genplan.engine.runs.outcome import Describe, OutcomeInput, RunSummary, read_summary, read_trial_summary
from genplan.engine.runs.status import RunStatus
from genplan.engine.runs.store import read_events

__all__ = ["account_of", "describe_generic"]


def account_of(run_dir: Path, events: list[Event] | None = None) -> RunAccount:
    """The account of the run in ``run_dir`` (its events: read from its log unless given)."""
    run_dir = Path(run_dir)
    meta = read_meta_or_none(run_dir) or RunMeta(run_id=run_dir.name, status=RunStatus.UNKNOWN)
    logged = list(read_events(run_dir)) if events is None else events
    started = next((e for e in logged if isinstance(e, RunStarted)), None)
    provenance = _provenance(meta, run_dir)
    calls = _calls(logged, provenance.kind is ProvenanceKind.IMPORT)
    if provenance.kind is ProvenanceKind.FORK and meta.forked_at is not None:
        provenance = Provenance(provenance.kind, provenance.forked_from, provenance.forked_version,
                                _fork_call(meta, calls))
    summary = read_trial_summary(run_dir) or read_summary(run_dir)
    status = _status(meta, summary, logged)
    message = _end_message(logged)
    imported = read_json_or_none(layout.import_file(run_dir))
    source = OutcomeInput(status, meta, summary, imported if isinstance(imported, dict) else None, message)
    approach = meta.approach or (started.approach if started is not None else None) or ""
    facts = _describe_of(approach)(source)
    model = meta.model.get("model")
    return RunAccount(
        run_id=run_dir.name,
        who=Who(approach or "?", str(meta.extra.get("preset") or meta.config.get("preset") or
                                     (started.preset if started is not None else None) or "?"),
                str(model) if model else None, provenance),
        outcome=Outcome(status, status_words(status, message, str(meta.extra.get("stop_reason") or "") or None), facts,
                        message),
        counts=_counts(calls),
        calls=tuple(calls),
        notices=tuple(_notices(logged, calls)),
        versions=tuple(_versions(run_dir)),
        domain=str(meta.domain_dir or meta.extra.get("domain") or (started.domain if started else "") or ""),
        created=meta.created,
        wall_seconds=summary.wall_seconds if summary is not None else None,
    )


# ------------------------------------------------------------------------------------------------ who and how
def _provenance(meta: RunMeta, run_dir: Path) -> Provenance:
    record = meta.extra.get("import")
    if isinstance(record, dict):  # a Silver import: run.json's "import" names the conversation
        return Provenance(ProvenanceKind.IMPORT, import_kind=str(record.get("kind") or "") or None,
                          import_source=str(record.get("source") or "") or None)
    logged = meta.extra.get("imported_from")
    if logged:  # an AutoToS log, a PDDLego+/PlanGen trial log
        return Provenance(ProvenanceKind.IMPORT, import_kind=meta.approach, import_source=str(logged))
    if meta.forked_from:
        edited = meta.extra.get("edited_version")
        return Provenance(ProvenanceKind.FORK, forked_from=Path(meta.forked_from).name,
                          forked_version=str(edited) if edited else None)
    if str(meta.model.get("model") or "").startswith("replay:"):
        return Provenance(ProvenanceKind.REPLAY)
    return Provenance()


def _fork_call(meta: RunMeta, calls: list[Call]) -> int | None:
    """The call whose answer a fork replaced, numbered as its calls are: in the fork's own log once it ran (its
    calls up to there are the source's), else in its source's log (a fork not yet carried out)."""
    at = next((c.number for c in calls if c.request_id == meta.forked_at), None)
    if at is None and meta.forked_from and layout.is_run_dir(Path(meta.forked_from)):
        source = _calls(list(read_events(Path(meta.forked_from))), False)
        at = next((c.number for c in source if c.request_id == meta.forked_at), None)
    return at


def _status(meta: RunMeta, summary: RunSummary | None, events: list[Event]) -> RunStatus:
    if meta.status is not RunStatus.UNKNOWN:
        return meta.status
    if summary is not None and summary.status is not RunStatus.UNKNOWN:
        return summary.status
    end = next((e for e in reversed(events) if isinstance(e, RunFinished | RunFailed)), None)
    if isinstance(end, RunFailed):
        return RunStatus.FAILED
    return RunStatus.parse(end.status) if isinstance(end, RunFinished) else RunStatus.UNKNOWN


def _end_message(events: list[Event]) -> str:
    end = next((e for e in reversed(events) if isinstance(e, RunFinished | RunFailed)), None)
    if isinstance(end, RunFailed):
        return str(end.error or end.message or "")
    if isinstance(end, RunFinished) and end.status != RunStatus.FINISHED:
        return str(end.message or end.reason or "")
    return ""


def _describe_of(approach: str) -> Describe:
    """The approach's own words for its outcome (its registry record's ``describe``), else the generic ones."""
    from genplan.engine.approaches import APPROACHES

    registered = APPROACHES.get(approach or "stein")
    hook = registered.describe if registered is not None else None
    return hook if hook is not None else describe_generic


def describe_generic(source: OutcomeInput) -> OutcomeFacts:
    """The outcome from the typed fields any approach's outcome record may hold: the selected program and its
    debug tasks, an evaluation of itself, a trial's outcome, the coverage ``genplan run --eval`` added."""
    summary = source.summary
    if summary is None:
        words = {RunStatus.RUNNING: "no outcome yet: the run goes on", RunStatus.INTERRUPTED: "no outcome: the run "
                 "was interrupted before its end"}
        return OutcomeFacts(headline=words.get(source.status, "no outcome recorded"))
    details: list[tuple[str, str]] = []
    coverage = summary.data.get("eval_coverage")
    if isinstance(coverage, (int, float)) and not isinstance(coverage, bool):
        details.append(("coverage on the eval tasks", f"{coverage:g}"))
    if summary.outcome in ("success", "failure"):
        figure = Figure("trial", 1 if summary.outcome == "success" else 0, 1)
        end = summary.reason or None
        headline = "trial succeeded" if summary.outcome == "success" else f"trial failed ({end or 'no reason'})"
        return OutcomeFacts(headline, figure, details=tuple(details), trial_end=end)
    if summary.debug_total is not None:
        figure = Figure("debug tasks", summary.debug_solved or 0, summary.debug_total)
        selected = summary.selected_program
        if selected is not None:
            headline = f"program {selected.stem} selected: {figure.words} solved"
            return OutcomeFacts(headline, figure, _in_run(selected), tuple(details))
        return OutcomeFacts(f"no program selected ({figure.words} solved)", figure, details=tuple(details))
    own = summary.self_evaluation
    if own is not None:
        figure = Figure("tasks of its own evaluation", own[0], own[1])
        return OutcomeFacts(f"{figure.words} solved", figure, details=tuple(details))
    return OutcomeFacts("no result recorded (no evaluation)", details=tuple(details))


def _in_run(path: Path) -> str:
    """A selected program's file as the run names it (relative to the run), from the absolute path it wrote."""
    parts = path.parts
    return "/".join(parts[parts.index(layout.PROGRAMS):]) if layout.PROGRAMS in parts else path.name


# -------------------------------------------------------------------------------------------------- the calls
def _calls(events: list[Event], imported: bool) -> list[Call]:
    """Every call once, numbered in the order the log first names it (1, 2, 3, ...), with where its answer came
    from; an answer the log records twice (a resumed run re-announces it) counts once, as first answered."""
    order: list[int] = []
    answered: dict[int, ResponseReceived] = {}
    steps: dict[int, str] = {}
    for event in events:
        if isinstance(event, RequestSent | ResponseReceived) and event.request_id is not None:
            rid = event.request_id
            if rid not in steps:
                order.append(rid)
                steps[rid] = str(event.step or "")
            if isinstance(event, ResponseReceived) and rid not in answered:
                answered[rid] = event
    calls: list[Call] = []
    for rid in order:
        response = answered.get(rid)
        if response is None:  # asked, not (yet) answered: a live run's call under way, a stop mid-call
            continue
        tokens_in, tokens_out = _usage(response)
        calls.append(Call(len(calls) + 1, rid, steps[rid], _source(response, imported), tokens_in, tokens_out,
                          response.latency_s, _cost(response)))
    return calls


def _cost(event: ResponseReceived) -> float | None:
    if event.cached or event.human or event.resumed:
        return 0.0  # nothing paid for it now (a kept answer was paid for by the session that asked it)
    return float(event.cost_usd) if isinstance(event.cost_usd, (int, float)) else None


def _usage(event: ResponseReceived) -> tuple[int | None, int | None]:
    usage = event.extra.get("usage")
    if isinstance(usage, dict):  # older logs kept a usage table
        return _int(usage.get("input_tokens")), _int(usage.get("output_tokens"))
    return event.tokens_in, event.tokens_out


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _source(event: ResponseReceived, imported: bool) -> CallSource:
    if event.human:
        return CallSource.PERSON
    if event.resumed:
        return CallSource.RESUMED
    if event.cached:
        return CallSource.CACHE
    return CallSource.LOG if imported else CallSource.MODEL


def _counts(calls: list[Call]) -> Counts:
    def of(source: CallSource) -> list[Call]:
        return [c for c in calls if c.source is source]

    def tokens(chosen: list[Call]) -> Tokens:
        # a figure no call logged is not logged, never 0
        ins = [c.tokens_in for c in chosen if c.tokens_in is not None]
        outs = [c.tokens_out for c in chosen if c.tokens_out is not None]
        if not chosen:
            return Tokens(0, 0)
        return Tokens(sum(ins) if ins else None, sum(outs) if outs else None)

    model = of(CallSource.MODEL)
    seconds = [c.seconds for c in model if c.seconds is not None]
    return Counts(
        model=len(model), cache=len(of(CallSource.CACHE)), log=len(of(CallSource.LOG)),
        resumed=len(of(CallSource.RESUMED)), person=len(of(CallSource.PERSON)),
        tokens_billed=tokens(model), tokens_cached=tokens(of(CallSource.CACHE)), tokens_logged=tokens(of(CallSource.LOG)),
        # no model call: 0 s, unless the answers came from a log, whose time is not logged
        model_seconds=round(sum(seconds), 3) if seconds else (None if model or of(CallSource.LOG) else 0.0),
        cost_usd=_spent(model) if not of(CallSource.LOG) else None,  # a published log's answers: its bill unknown
    )


def _spent(model: list[Call]) -> float | None:
    costs = [c.cost_usd for c in model]
    return None if any(cost is None for cost in costs) else round(sum(c for c in costs if c is not None), 6)


# ------------------------------------------------------------------------------------------ notices, versions
def _notices(events: list[Event], calls: list[Call]) -> list[NoticeLine]:
    numbers = {c.request_id: c.number for c in calls}
    found = []
    for event in events:
        if isinstance(event, Notice):
            message = event.message or str(event.extra.get("text") or "")
            found.append(NoticeLine(event.level, message, numbers.get(event.request_id)
                                    if event.request_id is not None else None))
        elif isinstance(event, RunFailed):
            found.append(NoticeLine("error", str(event.error or event.message or "")))
    return found


def _versions(run_dir: Path) -> list[VersionLine]:
    from genplan.engine.versions import run_overview

    try:
        overview = run_overview(run_dir)
    except (OSError, ValueError):
        return []
    return [VersionLine(r.what, r.label, r.solved, r.total, r.all_tasks) for r in overview.results]
