"""Classroom mode's caption: for a timeline row, which stage of the method it belongs to and, for a failed check,
why this feedback was produced and whether the model is told (it is told of one failed task per round, not of every
one). In plain words, from the row's own data and the rows after it; it wraps, never cut. And the stages a replay
announces before it enters them (``stage_starts``), reflection included."""

from __future__ import annotations

from collections.abc import Sequence

from genplan.engine.events import (
    ArtifactCreated,
    ArtifactEdited,
    CommandExecuted,
    Event,
    FeedbackRound,
    PromptEdited,
    RequestSent,
    SelectionMade,
    StepStarted,
    ValidationResult,
)
from genplan.tui.outcomes import category_of
from genplan.tui.run_state import TimelineEntry

# a request's pipeline step -> (stage, what happens)
STEPS = {
    "nl.domain": ("NL description", "the model describes the domain in words"),
    "nl.task": ("NL description", "the model describes one task in words"),
    "strategy.generate": ("Strategy", "the model writes a pseudocode strategy for every task of the domain"),
    "strategy.plan": ("Strategy debugging", "the model follows the strategy by hand on a debug task; the plan it "
                      "writes is validated"),
    "strategy.reflect": ("Reflection", "the model explains why the strategy's plan failed"),
    "strategy.revise": ("Strategy debugging", "the model revises the strategy with its reflection"),
    "code.generate": ("Code candidates", "the model turns the strategy into a Python program"),
    "code.reflect": ("Reflection", "the model explains why the program failed on a debug task"),
    "code.revise": ("Code debugging", "the model rewrites the program with its reflection"),
    "baseline.summary": ("Baseline: summary", "the model summarises the domain (Silver et al.)"),
    "baseline.strategy": ("Baseline: strategy", "the model proposes a strategy in words"),
    "baseline.code": ("Baseline: code", "the model writes the program"),
    "baseline.fix": ("Baseline: debugging", "the model fixes the program after feedback"),
    "autotos.succ": ("AutoToS: successor function", "the model writes (or fixes) the successor function"),
    "autotos.goal": ("AutoToS: goal test", "the model writes (or fixes) the goal test"),
    "pddlego.pddl": ("PDDLego+: formalisation", "the model writes the domain and problem file from what it has seen"),
    "pddlego.plangen": ("PlanGen", "the model writes the next actions directly"),
}
# a phase row's name -> stage
PHASES = {
    "nl": "NL description: the domain and every debug task in words",
    "strategy": "Strategy: a pseudocode strategy is written",
    "strategy-validation": "Strategy debugging: the strategy is tried by hand on every debug task",
    "strategy-final-check": "Strategy debugging: a last check of the strategy",
    "code": "Code candidates: programs are written from the strategy",
    "program-check": "Code debugging: the program runs on every debug task",
    "baseline-summary": "Baseline (Silver et al.): the domain summarised",
    "baseline-strategy": "Baseline (Silver et al.): a strategy in words",
    "time-step": "PDDLego+: one time step of the game (solver loop, then simulator loop)",
}
# the requests that carry a failed check's feedback to the model (a reflection on it, or the fix that quotes it)
FEEDBACK_STEPS = frozenset({"strategy.reflect", "code.reflect", "baseline.fix"})
CHECKS = {
    "strategy": "Strategy debugging",
    "strategy-final": "Strategy debugging (final check)",
    "plan": "Strategy debugging",
    "program": "Code debugging",
    "baseline": "Baseline debugging",
    "pddl": "PDDLego+ solver loop",
}


def _first_line(text: object, width: int = 90) -> str:
    line = next((part.strip() for part in str(text or "").splitlines() if part.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def _whole(text: object) -> str:
    """A feedback message on one line, whole: the unmet precondition is at its end, and it is the point."""
    return " ".join(str(text or "").split())


def stage_caption(entry: TimelineEntry | None, timeline: Sequence[TimelineEntry] = (), *, live: bool = False) -> str:
    """The caption for ``entry`` (None: what classroom mode shows before a row is chosen). ``timeline``: the run's
    rows (whether a failed check's feedback was sent is known from the rows after it); ``live``: the run goes on."""
    if entry is None:
        return "Classroom: choose a row of the timeline to see which stage of the method it belongs to."
    event = entry.event
    if entry.kind == "request":
        stage, doing = STEPS.get(entry.step or "", ("Request", "a question to the model"))
        return f"{stage}: {doing}."
    if entry.kind == "phase":
        return PHASES.get(entry.title, f"Stage: {entry.title}") + "."
    if entry.kind == "check" and isinstance(event, ValidationResult):
        stage = CHECKS.get(str(event.what or "plan"), "Check")
        task = str(event.task or entry.detail or "the task")
        if event.valid:
            return f"{stage}: the plan for {task} is valid; nothing is fed back."
        category = category_of(event.kind, False)
        told = _whole(event.message)
        if event.what == "pddl":
            why = f"the solver could not use the model's files ({category})"
            return f"{stage}: {why}; the model will be told: {told}" if told else f"{stage}: {why}."
        why = f"the plan for {task} failed ({category})"
        return f"{stage}: {why}; {_fed_back(entry, event, timeline, live, told)}"
    if entry.kind == "round" and isinstance(event, FeedbackRound):
        told = _first_line(event.feedback)
        return (f"AutoToS unit-test round: the {event.check or 'unit'} test failed ({event.category or 'failure'}); "
                f"the model is told: {told}")
    if entry.kind in ("passed", "limit", "evaluation"):
        return {"passed": "AutoToS: a kind of unit test passed; the next one runs.",
                "limit": "AutoToS: the feedback rounds for this function are spent.",
                "evaluation": "AutoToS: plain search with the functions solves the evaluation instances."}[entry.kind]
    if entry.kind == "command":
        if isinstance(event, CommandExecuted) and event.error:
            return (f"PDDLego+ simulator loop: the game refused the command ({_first_line(event.error, 50)}); "
                    "the model will be asked to fix its files.")
        return "PDDLego+ simulator loop: the planned command ran in the game; its observation is kept."
    if entry.kind == "reset":
        return "PDDLego+ outer loop: the game starts over and replays the commands that worked."
    if entry.kind == "edit" and isinstance(event, PromptEdited):
        return "A person edited the prompt before it was sent: the model answers the edited prompt (on the run's record)."
    if entry.kind in ("artifact", "edit"):
        kind = str(event.kind or "" if isinstance(event, (ArtifactCreated, ArtifactEdited)) else "").replace("_", " ")
        return f"A new version of the {kind or 'artefact'} is on the run's record (e edits it, 5 compares)."
    if entry.kind == "selection":
        kind = str(event.kind or "version") if isinstance(event, SelectionMade) else "version"
        which = f" ({event.version})" if isinstance(event, SelectionMade) and event.version else ""
        if kind == "strategy":
            return f"Selection: the strategy{which} that passed the debug tasks is kept; programs are written from it."
        return f"Selection: the {kind}{which} that solves the most debug tasks is kept."
    if entry.kind == "run":
        return "The run itself: its settings, and how it ended."
    return f"{entry.title}: {entry.detail}".strip(": ")


def _fed_back(entry: TimelineEntry, check: ValidationResult, timeline: Sequence[TimelineEntry], live: bool,
              told: str) -> str:
    """What became of a failed check's feedback: the pipeline sends one failed task's feedback per round (the
    request after the check that carries it says which), so a check whose task was not chosen told the model
    nothing."""
    after = timeline[next((i for i, row in enumerate(timeline) if row is entry), len(timeline)) + 1:]
    for row in after:
        sent = row.event
        if row.kind != "request" or row.step not in FEEDBACK_STEPS or not isinstance(sent, RequestSent):
            continue
        if sent.version not in (None, check.version):
            continue
        if sent.task in (None, check.task):
            return f"the model is told: {told}" if told else "the model is told of it."
        return f"not fed back: the model is told of {sent.task} instead (one failed task per round)."
    if live:
        return f"if the pipeline picks this task, the model will be told: {told}" if told else "the run goes on."
    return "not fed back: the run went on without it."


def stage_of(event: Event) -> tuple[str, str] | None:
    """The stage of the method an event enters, and how to announce it: a phase, or a request of its own stage
    (a reflection is a request inside a debugging phase); None for the events within a stage."""
    if isinstance(event, StepStarted):
        if event.phase == "strategy" and event.round:
            return None  # a revision round: its requests (reflection, then revision) announce themselves
        text = PHASES.get(event.phase)
        return (text.split(":", 1)[0], text) if text else None
    if isinstance(event, RequestSent) and event.step in STEPS:
        stage, doing = STEPS[event.step]
        return stage, f"{stage}: {doing}"
    return None


def stage_starts(events: Sequence[Event]) -> dict[int, str]:
    """Where a replay stops in classroom mode: event index -> what comes next, at each change of stage (never
    before the first event)."""
    starts: dict[int, str] = {}
    current = ""
    for index, event in enumerate(events):
        found = stage_of(event)
        if found is None or found[0] == current:
            continue
        current = found[0]
        if index > 0:
            starts[index] = found[1]
    return starts
