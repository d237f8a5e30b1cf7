"""A run directory read into the plain data its page shows: the timeline, every version, the results matrix with
each plan's steps, counterexamples, and the records an approach writes (summary, trial, import, evaluation).

Long texts (prompt messages, answers, version texts) are kept once each in a :class:`Texts` table and referred
to by number, so a conversation that repeats its first messages costs their size once in the page.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.account import account_of
from genplan.engine.events import (
    ArtifactCreated,
    ArtifactEdited,
    AttemptStarted,
    ChecksPassed,
    CommandExecuted,
    EvaluationProgress,
    Event,
    FeedbackLimit,
    FeedbackRound,
    Notice,
    PromptEdited,
    RequestRetry,
    RequestSent,
    ResponseReceived,
    RunFailed,
    RunFinished,
    RunResumed,
    RunStarted,
    SelectionMade,
    StepStarted,
    ValidationResult,
)
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.runs import layout
from genplan.engine.runs.account import CallSource, RunAccount
from genplan.engine.runs.outcome import read_evaluation
from genplan.engine.runs.store import RunStore
from genplan.engine.share.plans import PlanSteps, TaskFiles, plan_steps, steps_on, task_files
from genplan.engine.versions import VersionsOverview, run_overview

# run.json keys a page leaves out: the process that owned the run says nothing to a reader
_PRIVATE_META = frozenset({"pid", "pid_started", "owner", "host", "hostname"})
# records an approach writes beside its events, shown as they are (AutoToS's search figures, a trial's outcome)
RECORDS = (layout.SUMMARY, layout.TRIAL, layout.IMPORT, layout.EVALUATION)
COUNTEREXAMPLES = layout.COUNTEREXAMPLES


class Texts:
    """Each distinct long text once; a page refers to it by its number."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.items)
            self.items.append(text)
        return found


@dataclass
class Row:
    """One line of the timeline."""

    seq: int
    kind: str  # run, phase, request, check, version, edit, selection, notice, round, passed, limit, command, ...
    title: str
    detail: str = ""
    status: str = ""  # ok, fail, info, cached, human, resumed
    step: str = ""
    tokens_in: int | None = None
    tokens_out: int | None = None
    seconds: float | None = None
    messages: list[tuple[str, int]] = field(default_factory=list)  # (role, text number)
    answer: int | None = None  # text number
    anchor: str = ""  # the version this row made, for a link


@dataclass
class Version:
    kind: str  # nl_domain, nl_task, strategy, reflection, program, function, pddl_domain, pddl_problem, ...
    name: str  # the file's stem
    file: str  # relative to the run directory
    text: int  # text number
    anchor: str
    edited: bool = False  # a person's edit (✎)
    note: str = ""  # what made it: the request, the edit's origin, the task it is about
    artefact: str = ""  # which artefact it is a version of (compare sets versions of one artefact side by side)


@dataclass
class Cell:
    solved: bool
    category: str
    message: int  # text number: the feedback the model got
    plan: int | None = None  # index into RunData.plans


@dataclass
class MatrixRow:
    what: str  # strategy, program
    label: str
    cells: dict[str, Cell]
    all_tasks: bool = False


@dataclass
class Counterexample:
    version: str
    record: dict[str, Any]
    pddl: str
    failure: dict[str, Any]  # the shrunk task's failure (category, message, plan), else the one found first
    message: int  # text number: the failure's feedback
    plan: int | None = None  # index into RunData.plans: the program's plan on the task


@dataclass
class Command:
    step: int | None
    attempt: int | None
    command: str
    observation: str
    error: str
    goal_reached: bool


@dataclass
class Round:
    number: int | None
    target: str
    phase: str
    check: str
    category: str
    feedback: str


@dataclass
class RunData:
    run_id: str
    approach: str
    preset: str
    status: str
    created: str
    domain: str
    model: str
    meta: dict[str, Any]
    texts: Texts
    rows: list[Row]
    versions: list[Version]
    tasks: list[str]
    matrix: list[MatrixRow]
    plans: list[PlanSteps]
    counterexamples: list[Counterexample]
    rounds: list[Round]
    commands: list[Command]
    records: dict[str, Any]
    notes: list[str]  # what the page could not show and why
    account: RunAccount  # what the page's head says of the run: the same account every front end shows
    exported: str = ""  # when the page was made (UTC)
    version: str = ""  # by which genplan


def _style(approach: str) -> FeedbackStyle:
    """The feedback style of the run's checks (its approach's), which numbers the steps of its plans."""
    from genplan.engine.approaches import APPROACHES

    known = APPROACHES.get(approach)
    return known.feedback_style if known is not None else FeedbackStyle.STEIN


def collect(run_dir: Path) -> RunData:
    """Everything the page of ``run_dir`` shows (FileNotFoundError when it holds no run)."""
    run_dir = Path(run_dir)
    store = RunStore.open(run_dir)
    overview = run_overview(run_dir)
    meta = {k: v for k, v in store.meta().items() if k not in _PRIVATE_META}
    events = list(store.events())
    texts = Texts()
    notes: list[str] = []
    versions = _versions(run_dir, events, texts)
    anchors = {v.file: v.anchor for v in versions}
    account = account_of(run_dir, events)
    rows = _timeline(run_dir, events, texts, anchors, account)
    plans: list[PlanSteps] = []
    files = task_files(meta.get("domain_dir"), notes, _style(account.who.approach)) if overview.results else None
    tasks, matrix = _matrix(overview, files, texts, plans)
    matrix += _evaluation(run_dir, texts)
    config, model = overview.meta.config, overview.meta.model
    started = next((e for e in events if isinstance(e, RunStarted)), None)
    approach = str(config.get("approach") or (started.approach if started else None) or meta.get("approach") or "?")
    return RunData(
        run_id=overview.run_id, approach=approach, preset=overview.preset, status=overview.status,
        created=overview.created, domain=str(meta.get("domain_dir") or meta.get("domain") or
                                             (started.domain if started else "") or ""),
        model=str(model.get("model") or ""), meta=meta,
        texts=texts, rows=rows, versions=versions, tasks=tasks, matrix=matrix, plans=plans,
        counterexamples=_counterexamples(run_dir, files, texts, plans), rounds=_rounds(events), commands=_commands(events),
        records={name: _read_json(layout.in_run(run_dir, name)) for name in RECORDS if layout.in_run(run_dir, name).is_file()}, notes=notes,
        account=account, exported=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), version=_version(),
    )


def _version() -> str:
    from genplan import __version__

    return str(__version__)


# ------------------------------------------------------------------------------------------------ the timeline
def _timeline(run_dir: Path, events: list[Event], texts: Texts, anchors: dict[str, str],
              account: RunAccount) -> list[Row]:
    rows: list[Row] = []
    requests: dict[int, Row] = {}
    numbers = {call.request_id: call.number for call in account.calls}
    for event in events:
        row = _row(run_dir, event, texts, anchors, requests, numbers)
        if row is not None:
            rows.append(row)
    # the evaluation's progress is one row at its last count, not one per task
    last_progress = max((i for i, r in enumerate(rows) if r.kind == "evaluation"), default=None)
    return [r for i, r in enumerate(rows) if r.kind != "evaluation" or i == last_progress]


def _call_title(numbers: dict[int, int], request_id: int | None, step: str | None) -> str:
    """A call as every screen names it: its number among the run's calls (a request id may skip)."""
    number = numbers.get(request_id) if request_id is not None else None
    return f"call {number} · {step}" if number is not None else f"call (request {request_id}) · {step}"


def _row(run_dir: Path, event: Event, texts: Texts, anchors: dict[str, str],  # noqa: C901 - one branch per event
         requests: dict[int, Row], numbers: dict[int, int]) -> Row | None:
    seq = event.seq
    if isinstance(event, RunStarted):
        what = " · ".join(str(x) for x in (event.approach, event.preset, event.purpose) if x)
        return Row(seq, "run", "run started", what, "info")
    if isinstance(event, StepStarted):
        where = " ".join(f"{k} {v}" for k, v in (("round", event.round), ("task", event.task),
                                                 ("version", event.version), ("candidate", event.candidate),
                                                 ("time step", event.step)) if v is not None)
        return Row(seq, "phase", f"== {event.phase}", where, "info")
    if isinstance(event, RequestSent):
        row = Row(seq, "request", _call_title(numbers, event.request_id, event.step), _context(event), "running",
                  step=str(event.step or ""))
        row.messages = _messages(run_dir, event.file, texts)
        if event.request_id is not None:
            requests[event.request_id] = row
        return row
    if isinstance(event, ResponseReceived):
        known = requests.get(event.request_id) if event.request_id is not None else None
        # an answer kept from before (a fork, a resume) whose request another run logged: a row of its own
        row = known or Row(seq, "request", _call_title(numbers, event.request_id, event.step), "",
                           step=str(event.step or ""))
        row.status = ("human" if event.human else "cached" if event.cached else "resumed" if event.resumed
                      else "ok")
        row.tokens_in, row.tokens_out, row.seconds = event.tokens_in, event.tokens_out, event.latency_s
        answer = _read_text(_file(run_dir, event.file)) if event.file else None
        if answer is not None:
            row.answer = texts.add(answer)
        return None if known else row
    if isinstance(event, RequestRetry):
        return Row(seq, "notice", f"retry of {_call_title(numbers, event.request_id, event.step)}",
                   str(event.reason or ""), "info")
    if isinstance(event, ValidationResult):
        about = " ".join(str(x) for x in (event.what, event.version) if x)
        title = ("✓ " if event.valid else "✗ ") + (f"check {about} on {event.task}" if event.task else f"check {about}")
        return Row(seq, "check", title, str(event.message or event.kind or ""), "ok" if event.valid else "fail")
    if isinstance(event, ArtifactCreated):
        title = f"{event.kind} {event.version or ''}".strip()
        return Row(seq, "version", title, str(event.file or ""), "info", anchor=anchors.get(str(event.file), ""))
    if isinstance(event, ArtifactEdited):
        return Row(seq, "edit", f"✎ {event.kind} edited ({event.origin or 'by hand'})",
                   f"{event.edited} → {event.file}", "info", anchor=anchors.get(str(event.file), ""))
    if isinstance(event, PromptEdited):
        places = ", ".join(str(place) for place in event.messages or [])
        return Row(seq, "edit", f"✎ prompt of request {event.request_id} · {event.step} edited",
                   f"message {places} edited by a person before it was sent" if places else "edited before it was sent",
                   "info")
    if isinstance(event, SelectionMade):
        figures = f"{event.solved}/{event.total} debug tasks" if event.total is not None else ""
        return Row(seq, "selection", f"selected {event.kind} {event.version}", figures, "ok")
    if isinstance(event, Notice):
        # the message says why (a warning that explains a run without a program): never dropped
        return Row(seq, "notice", event.level if event.level != "info" else "notice",
                   str(event.message or event.extra.get("text") or ""), "fail" if event.level != "info" else "info")
    if isinstance(event, FeedbackRound):
        return Row(seq, "round", f"feedback round {event.number}: {event.target} ({event.category or event.check})",
                   str(event.feedback or ""), "fail")
    if isinstance(event, ChecksPassed):
        return Row(seq, "passed", "checks passed", str(event.check or ""), "ok")
    if isinstance(event, FeedbackLimit):
        return Row(seq, "limit", f"feedback limit reached for {event.target}", f"{event.rounds} rounds", "fail")
    if isinstance(event, EvaluationProgress):
        return Row(seq, "evaluation", "evaluation", f"{event.solved}/{event.done} solved of {event.total}", "info",
                   seconds=event.seconds)
    if isinstance(event, AttemptStarted):
        return Row(seq, "phase", f"attempt {event.attempt} at time step {event.step}",
                   f"{event.replayed} commands replayed", "info")
    if isinstance(event, CommandExecuted):
        status = "fail" if event.error else "ok"
        return Row(seq, "command", f"> {event.command}", str(event.error or event.observation or ""), status)
    if isinstance(event, RunFinished):
        return Row(seq, "run", f"run {event.status or event.outcome or 'finished'}",
                   str(event.message or event.reason or ""), "ok" if (event.status or "finished") == "finished"
                   else "fail", seconds=event.wall_seconds)
    if isinstance(event, RunFailed):
        return Row(seq, "run", "run failed", str(event.message or event.error or ""), "fail")
    if isinstance(event, RunResumed):
        before = f"after it was {event.previous_status}" if event.previous_status else ""
        return Row(seq, "run", "run resumed", before, "info")
    return None


def _context(event: RequestSent) -> str:
    parts = (("task", event.task), ("version", event.version), ("candidate", event.candidate),
             ("time step", event.time_step), ("attempt", event.attempt), ("retry", event.retry))
    return " ".join(f"{k} {v}" for k, v in parts if v is not None)


def _messages(run_dir: Path, file: str | None, texts: Texts) -> list[tuple[str, int]]:
    record = _read_json(_file(run_dir, file)) if file else None
    messages = record.get("messages") if isinstance(record, dict) else None
    if not isinstance(messages, list):
        return []
    return [(str(m.get("role", "?")), texts.add(str(m.get("content") or ""))) for m in messages if isinstance(m, dict)]


def head_facts(account: RunAccount) -> list[tuple[str, str, str]]:
    """What the page's head says of the run, from its account alone: (key, name, value), the key marking the
    fact for a reader's tools (``data-fact``). Every call kind and token kind apart; "not logged" where the run has
    no figure."""
    who, outcome, counts, facts = account.who, account.outcome, account.counts, account.outcome.facts
    head = [("approach", "approach", who.approach), ("preset", "preset", who.preset),
            ("model", "model", who.model or "none recorded"), ("provenance", "made by", who.provenance.words),
            ("status", "status", outcome.status_words), ("outcome", "outcome", facts.headline)]
    if facts.result is not None:
        head.append(("result", "result", facts.result.words))
    if facts.selected:
        head.append(("selected", "selected", facts.selected))
    if facts.feedback_limit:
        head.append(("feedback-limit", "feedback limit", f"the rounds for {facts.feedback_limit} were spent"))
    if facts.trial_end:
        head.append(("trial-end", "trial ended by", facts.trial_end))
    if facts.log_result:
        head.append(("log-result", "the log's own result", facts.log_result))
    head += [(f"finding-{i}", "genplan's finding", finding) for i, finding in enumerate(facts.findings, 1)]
    head += [(f"detail-{i}", name, value) for i, (name, value) in enumerate(facts.details, 1)]
    for source, number in counts.by_source().items():
        head.append((f"calls-{source}", f"calls: {_CALL_WORDS[source]}", str(number)))
    head += [("tokens-billed", "tokens billed", counts.tokens_billed.words),
             ("tokens-cached", "tokens from the cache", counts.tokens_cached.words)]
    if counts.log:
        head.append(("tokens-logged", "tokens in the log", counts.tokens_logged.words))
    seconds = counts.model_seconds
    head.append(("model-time", "model time", "not logged" if seconds is None else f"{seconds:.1f} s"))
    head.append(("cost", "cost", counts.cost_words))
    if account.wall_seconds is not None:
        head.append(("wall-time", "wall time", f"{account.wall_seconds:.1f} s"))
    return head


_CALL_WORDS = {CallSource.MODEL: "answered by the model", CallSource.CACHE: "from the cache",
               CallSource.LOG: "replayed from the log", CallSource.RESUMED: "kept from before",
               CallSource.PERSON: "answered by a person"}


# ----------------------------------------------------------------------------------------------- the versions
def artefact_of(kind: str, file: str, task: str | None = None) -> str:
    """Which artefact a version belongs to: a task's description is its task's, a program its candidate's
    (c1-v00, c1-v01: c1), an AutoToS function its function's (succ-1, succ-2: succ), a strategy the run's one, a
    PDDL file its kind's; so that compare never sets a goal test beside a successor function, nor two tasks."""
    if task:
        return f"{kind}:{task}"
    if kind.startswith("pddl"):
        return kind
    stem = re.sub(r"-edit\d+$", "", Path(file).stem)  # an edit is a version of what it edits
    # the version's number (a description's name is its task's: nl/task-03.md is task-03's, not a version 3)
    name = stem if kind.startswith("nl") else re.sub(r"(^|-)v?\d+$", "", stem)
    return f"{kind}:{name}"


def _versions(run_dir: Path, events: list[Event], texts: Texts) -> list[Version]:
    found: list[Version] = []
    seen: set[str] = set()
    artefacts: dict[str, str] = {}
    for event in events:
        if not isinstance(event, ArtifactCreated | ArtifactEdited) or not event.file or event.file in seen:
            continue
        text = _read_text(_file(run_dir, event.file))
        if text is None:
            continue
        seen.add(event.file)
        if isinstance(event, ArtifactEdited):
            note = f"✎ edit of {event.edited} ({event.origin or 'by hand'})"
        else:
            note = " ".join(f"{k} {v}" for k, v in (("request", event.request_id), ("task", event.task),
                                                    ("about", event.about), ("time step", event.step))
                            if v is not None)
        kind = str(event.kind or "file")
        task = event.task if isinstance(event, ArtifactCreated) else None
        edited_from = artefacts.get(str(event.edited)) if isinstance(event, ArtifactEdited) else None
        artefact = edited_from or artefact_of(kind, event.file, task)
        artefacts[event.file] = artefact
        found.append(Version(kind, Path(event.file).stem, event.file, texts.add(text),
                             _anchor("v", event.file), isinstance(event, ArtifactEdited), note, artefact))
    return found


def _anchor(prefix: str, name: str) -> str:
    return prefix + "-" + re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")


# ---------------------------------------------------------------------------------------------- the results
def _matrix(overview: VersionsOverview, files: TaskFiles | None, texts: Texts,
            plans: list[PlanSteps]) -> tuple[list[str], list[MatrixRow]]:
    known: dict[tuple[str, tuple[str, ...]], int] = {}
    rows: list[MatrixRow] = []
    for version in overview.results:
        cells: dict[str, Cell] = {}
        for outcome in version.outcomes:
            cell = Cell(outcome.solved, outcome.category, texts.add(outcome.message))
            if outcome.plan is not None and files is not None:
                key = (outcome.task, outcome.plan)
                if key not in known:
                    steps = plan_steps(files, outcome.task, list(outcome.plan))
                    if steps is not None:
                        known[key] = len(plans)
                        plans.append(steps)
                cell.plan = known.get(key)
            cells[outcome.task] = cell
        rows.append(MatrixRow(version.what, version.label, cells, version.all_tasks))
    return list(overview.tasks), rows


def _evaluation(run_dir: Path, texts: Texts) -> list[MatrixRow]:
    """A batch's evaluation of the selected program on the evaluation tasks (evaluation.json), as one row."""
    record = read_evaluation(run_dir)
    results = record.get("results") if isinstance(record, dict) else None
    if not isinstance(results, list):
        return []
    cells: dict[str, Cell] = {}
    for result in (r for r in results if isinstance(r, dict)):
        orderings = [o for o in result.get("orderings") or [] if isinstance(o, dict)]
        message = str(result.get("message") or next((o["message"] for o in orderings if o.get("message")), ""))
        solved = result.get("status") == "solved"
        category = str(result.get("category") or result.get("error_kind") or result.get("status") or "")
        cells[str(result.get("task", "?"))] = Cell(solved, "solved" if solved else category, texts.add(message))
    program = Path(str(record.get("program") or "program")).stem if isinstance(record, dict) else "program"
    return [MatrixRow("evaluation of", program, cells, all_tasks=True)]


def _counterexamples(run_dir: Path, files: TaskFiles | None, texts: Texts,
                     plans: list[PlanSteps]) -> list[Counterexample]:
    folder = layout.counterexamples_dir(run_dir)
    found = []
    for file in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        record = _read_json(file)
        if not isinstance(record, dict):
            continue
        task = record.get("task")
        task_file = _file(run_dir, str(task)) if task else None
        pddl = (_read_text(task_file) or "") if task_file is not None else ""
        shrunk = record.get("shrunk")
        failure = shrunk.get("failure") if isinstance(shrunk, dict) else None
        failure = failure if isinstance(failure, dict) else record.get("failure")
        failure = failure if isinstance(failure, dict) else {}
        example = Counterexample(str(record.get("version") or file.stem), record, pddl, failure,
                                 texts.add(str(failure.get("message") or "")))
        plan = failure.get("plan")
        if files is not None and task_file is not None and isinstance(plan, list):
            steps = steps_on(files, task_file, [str(a) for a in plan], Path(str(task)).stem)
            if steps is not None:
                example.plan = len(plans)
                plans.append(steps)
        found.append(example)
    return found


def _rounds(events: list[Event]) -> list[Round]:
    return [Round(e.number, str(e.target or ""), str(e.phase or ""), str(e.check or ""), str(e.category or ""),
                  str(e.feedback or "")) for e in events if isinstance(e, FeedbackRound)]


def _commands(events: list[Event]) -> list[Command]:
    return [Command(e.step, e.attempt, str(e.command or ""), str(e.observation or ""), str(e.error or ""),
                    bool(e.goal_reached)) for e in events if isinstance(e, CommandExecuted)]


def _file(run_dir: Path, relative: str) -> Path | None:
    """The run's file that an event or a record names; None for a name that leads out of the run."""
    try:
        return layout.in_run(run_dir, relative)
    except layout.OutsideRun:
        return None


def _read_text(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _read_json(path: Path | None) -> Any:
    if path is None:
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
