"""One account of a run: the facts every front end shows of it (the app, the exported page, the CLI's human and
``--json`` output, ``genplan report``), typed, in one tree of frozen dataclasses.

Who made it (:class:`Who`: approach, preset, the model *recorded in the run*, and its :class:`Provenance`: live,
a fork of a run from a version, an import of a published log, a replay), how it ended (:class:`Outcome`: the
run's status in words, its result in words and numbers, which the approach supplies through the registry), what
it cost (:class:`Counts`: calls by where their answer came from, tokens billed and tokens served from the cache,
model time; None is "not logged", never 0), every call with its one number (:class:`Call`), the notices with their
message, and every checked version's results. ``engine/account.py`` derives it from a run directory and its event
log, so a run of any age has one; the front ends render it and decide nothing by themselves.

Distinct things have distinct words: the run's status (:class:`~.status.RunStatus`: finished, stopped, ...),
AutoToS's feedback limit (``Outcome.feedback_limit``) and a trial's end reason (``Outcome.trial_end``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from genplan.engine.runs.status import RunStatus

__all__ = [
    "Call", "CallSource", "Counts", "Figure", "NoticeLine", "Outcome", "OutcomeFacts", "Provenance", "ProvenanceKind",
    "RunAccount", "Tokens", "VersionLine", "Who", "count_words", "status_words",
]


class ProvenanceKind(StrEnum):
    LIVE = "live"  # a model answered here (or a person, or the cache)
    FORK = "fork"  # a new run that continues another from one of its versions
    IMPORT = "import"  # a published log's answers, replayed through genplan's loop
    REPLAY = "replay"  # recorded answers given back, no published log named


@dataclass(frozen=True)
class Provenance:
    kind: ProvenanceKind = ProvenanceKind.LIVE
    forked_from: str | None = None  # the source run's id
    forked_version: str | None = None  # the source's version the fork continues from (file, relative)
    forked_at_call: int | None = None  # the call whose answer the edit replaced, numbered as everywhere
    import_kind: str | None = None  # silver, autotos, pddlego
    import_source: str | None = None  # the published log (file or folder) the answers come from

    @property
    def words(self) -> str:
        if self.kind is ProvenanceKind.FORK:
            at = f", call {self.forked_at_call} on" if self.forked_at_call is not None else ""
            version = f" from {self.forked_version}" if self.forked_version else ""
            return f"fork of {self.forked_from or 'a run'}{version}{at}"
        if self.kind is ProvenanceKind.IMPORT:
            kind = f"{self.import_kind} " if self.import_kind else ""
            return f"import of a published {kind}log: {self.import_source or 'file not named'}"
        if self.kind is ProvenanceKind.REPLAY:
            return "replay of recorded answers"
        return "live"


@dataclass(frozen=True)
class Who:
    approach: str  # "?" when the run names none
    preset: str  # "?" when the run names none
    model: str | None  # as run.json records it; None: it records none
    provenance: Provenance = field(default_factory=Provenance)


class CallSource(StrEnum):
    MODEL = "model"  # sent to the model and answered by it
    CACHE = "cache"  # answered from the on-disk response cache (not billed)
    LOG = "log"  # a published log's recorded answer (an import)
    RESUMED = "resumed"  # kept from before: a resumed run's or a fork's earlier answer, not sent again
    PERSON = "person"  # a person typed it (step mode, no model configured)


@dataclass(frozen=True)
class Call:
    number: int  # 1, 2, 3, ...: the run's one numbering of its calls (a request id may skip)
    request_id: int
    step: str
    source: CallSource
    tokens_in: int | None = None  # None: not logged
    tokens_out: int | None = None
    seconds: float | None = None
    cost_usd: float | None = None  # at the model's price; None: no price known (a cached answer costs 0)


@dataclass(frozen=True)
class Tokens:
    """Input and output tokens; None is "not logged" (an import's log has no figure), never 0."""

    input: int | None = None
    output: int | None = None

    @property
    def words(self) -> str:
        if self.input is None and self.output is None:
            return "not logged"
        return f"{_figure(self.input)} in / {_figure(self.output)} out"


@dataclass(frozen=True)
class Counts:
    """What a run's calls were, kept apart by where their answers came from. A budget's spend (cost) goes beside
    these as a part of its own."""

    model: int = 0
    cache: int = 0
    log: int = 0
    resumed: int = 0
    person: int = 0
    tokens_billed: Tokens = field(default_factory=Tokens)  # answered by the model
    tokens_cached: Tokens = field(default_factory=Tokens)  # served from the cache, not billed
    tokens_logged: Tokens = field(default_factory=Tokens)  # as a published log records them
    model_seconds: float | None = None  # the model's answers' time; None: not logged
    # what the model's answers cost at its price (the spend a budget counts; cached answers cost nothing); None:
    # some answer's price is not known (no price for the model), or the log does not say
    cost_usd: float | None = None

    @property
    def calls(self) -> int:
        return self.model + self.cache + self.log + self.resumed + self.person

    @property
    def cost_words(self) -> str:
        """What the run's model calls cost, in words: "$0.0123", "no price known", "not logged" (a log's bill)."""
        if self.cost_usd is not None:
            return f"${self.cost_usd:.4f}"
        return "not logged" if self.log else "no price known"

    def by_source(self) -> dict[CallSource, int]:
        return {CallSource.MODEL: self.model, CallSource.CACHE: self.cache, CallSource.LOG: self.log,
                CallSource.RESUMED: self.resumed, CallSource.PERSON: self.person}


def count_words(counts: Counts) -> str:
    """The calls in a few words: "25 by the model, 2 from the cache"."""
    words = {CallSource.MODEL: "by the model", CallSource.CACHE: "from the cache", CallSource.LOG: "from the log",
             CallSource.RESUMED: "kept from before", CallSource.PERSON: "by a person"}
    parts = [f"{n} {words[source]}" for source, n in counts.by_source().items() if n]
    return ", ".join(parts) if parts else "none"


@dataclass(frozen=True)
class Figure:
    """A result in numbers: ``solved`` of ``total`` (``name``: debug tasks, evaluation tasks, trial, ...)."""

    name: str
    solved: int
    total: int

    @property
    def words(self) -> str:
        return f"{self.solved}/{self.total} {self.name}"


@dataclass(frozen=True)
class OutcomeFacts:
    """What an approach says of its run's result (the registry's ``describe`` hook gives it): the front ends show
    it as it is, whatever the approach."""

    headline: str  # one line: "program c1-v01 selected: 6/6 debug tasks", "trial succeeded after 7 steps"
    result: Figure | None = None  # the result in numbers
    selected: str | None = None  # the artefact the run selected (a file inside the run)
    details: tuple[tuple[str, str], ...] = ()  # more facts, (name, value): categories, coverage, steps, ...
    feedback_limit: str | None = None  # AutoToS: the function whose feedback rounds were spent
    trial_end: str | None = None  # a trial's end reason (solver, simulation, step limit, ...)
    findings: tuple[str, ...] = ()  # what genplan's own checks found beside the run's path
    log_result: str | None = None  # an import: the published log's own result, in its words


@dataclass(frozen=True)
class Outcome:
    status: RunStatus
    status_words: str  # finished, stopped by a person, failed: ..., running (taken mid-run)
    facts: OutcomeFacts
    message: str = ""  # the run's last word on its end (an error, why it stopped)


@dataclass(frozen=True)
class NoticeLine:
    level: str  # info, warning, error
    message: str
    call: int | None = None  # the call it is about


@dataclass(frozen=True)
class VersionLine:
    """A checked version's result: ``what`` (strategy, program, rerun) ``label`` solved ``solved`` of ``total``."""

    what: str
    label: str
    solved: int
    total: int
    all_tasks: bool = False  # a baseline's final check on every task


@dataclass(frozen=True)
class RunAccount:
    run_id: str
    who: Who
    outcome: Outcome
    counts: Counts
    calls: tuple[Call, ...] = ()
    notices: tuple[NoticeLine, ...] = ()
    versions: tuple[VersionLine, ...] = ()
    domain: str = ""
    created: str = ""
    wall_seconds: float | None = None

    @property
    def live(self) -> bool:
        """Whether the run was still going on (or died without a word) when this account was taken."""
        return self.outcome.status in (RunStatus.RUNNING, RunStatus.INTERRUPTED)

    def call_number(self, request_id: int | None) -> int | None:
        return next((c.number for c in self.calls if c.request_id == request_id), None)

    def to_dict(self) -> dict[str, Any]:
        """The account as JSON (``--json``'s ``account``): the same tree, enums as their words."""
        data = asdict(self)
        data["who"]["provenance"]["words"] = self.who.provenance.words
        data["counts"]["calls"] = self.counts.calls
        data["outcome"]["facts"]["details"] = [list(pair) for pair in self.outcome.facts.details]
        data["outcome"]["facts"]["findings"] = list(self.outcome.facts.findings)
        data["calls"] = [asdict(call) for call in self.calls]
        return _plain(data)  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _figure(value: int | None) -> str:
    return "not logged" if value is None else f"{value:,}"


def status_words(status: RunStatus, message: str = "", reason: str | None = None) -> str:
    """The run's status in words, one meaning each: a person's stop is "stopped by a person", a stop at a cap of
    its budget (``reason`` "budget", run.json's ``stop_reason``) says so; a replay that ran out of recorded answers
    says so; AutoToS's feedback limit and a trial's end reason are not statuses."""
    if status is RunStatus.STOPPED:
        if reason == "budget":
            return "stopped at a cap of its budget"
        if "out-of-answers" in message or "no answer left" in message:
            return "stopped: the recorded answers ran out"
        return "stopped by a person"
    if status is RunStatus.FAILED:
        return "failed" + (f": {message}" if message else "")
    if status is RunStatus.RUNNING:
        return "running (taken mid-run)"
    if status is RunStatus.INTERRUPTED:
        return "interrupted: its process died"
    if status is RunStatus.UNKNOWN:
        return "unknown"
    return str(status)
