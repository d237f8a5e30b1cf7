"""Classroom mode's caption: for a timeline row, which stage of the method it belongs to and, for a failed check,
why this feedback was produced and what the model is told. One line, in plain words, from the row's own data."""

from __future__ import annotations

from genplan.engine.events import ArtifactCreated, ArtifactEdited, CommandExecuted, FeedbackRound, ValidationResult
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


def stage_caption(entry: TimelineEntry | None) -> str:
    """The caption for ``entry`` (None: what classroom mode shows before a row is chosen)."""
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
        told = _first_line(event.message)
        why = f"the plan for {task} failed ({category})"
        if event.what == "pddl":
            why = f"the solver could not use the model's files ({category})"
        return f"{stage}: {why}; the model will be told: {told}" if told else f"{stage}: {why}."
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
    if entry.kind in ("artifact", "edit"):
        kind = str(event.kind or "" if isinstance(event, (ArtifactCreated, ArtifactEdited)) else "").replace("_", " ")
        return f"A new version of the {kind or 'artefact'} is on the run's record (e edits it, 5 compares)."
    if entry.kind == "selection":
        return "Selection: the program that solves the most debug tasks is kept."
    if entry.kind == "run":
        return "The run itself: its settings, and how it ended."
    return f"{entry.title}: {entry.detail}".strip(": ")
