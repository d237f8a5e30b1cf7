"""The approaches' own parts of a run's account (engine/runs/account.py): how AutoToS and a game trial say their
outcome. Each reads the records its approach writes (their keys are its own) and gives typed facts; no front end
reads those keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from genplan.engine.runs.account import Figure, OutcomeFacts
from genplan.engine.runs.outcome import OutcomeInput
from genplan.engine.runs.status import RunStatus


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def describe_autotos(source: OutcomeInput) -> OutcomeFacts:
    """AutoToS: whether its unit tests passed or a function's feedback rounds were spent (the feedback limit, not
    the run's status), the evaluation's success/failure and categories, genplan's findings on the logged
    functions, and for an import the log's own result beside it."""
    data: Mapping[str, Any] = source.summary.data if source.summary is not None else source.meta.result
    success, failure = _int(data.get("success")), _int(data.get("failure"))
    if success is None and isinstance(data.get("evaluation"), dict):  # run.json's result of an older run
        success, failure = _int(data["evaluation"].get("solved")), _int(data["evaluation"].get("failed"))
    # summary.json names the feedback limit "feedback_limit"; runs made before it, "stopped"
    limited = data.get("feedback_limit") or data.get("stopped")
    limit = str(limited) if limited else None
    figure = Figure("evaluation tasks", success, success + (failure or 0)) if success is not None else None
    tests = f"feedback rounds for {limit} spent" if limit else "unit tests passed"
    if not data:
        headline = "no outcome recorded"
    elif source.status is RunStatus.STOPPED and figure is None:
        headline = "no result: the run was stopped before its end"
    elif figure is not None:
        headline = f"{tests}; {figure.words} solved"
    elif limit:
        headline = f"{tests}: no evaluation"
    elif data.get("error"):
        headline = "the run ended early: no evaluation"
    else:
        headline = f"{tests}; no evaluation"
    details: list[tuple[str, str]] = []
    categories = data.get("categories")
    if isinstance(categories, dict):
        details += [(f"feedback: {name}", str(count)) for name, count in sorted(categories.items())]
    for key, name in (("expanded", "states expanded"), ("generated", "states generated"),
                      ("release_only", "solved by the release's validation only (genplan's own rejects them)")):
        if _int(data.get(key)):
            details.append((name, str(data[key])))
    findings = tuple(str(f) for f in data.get("findings") or [] if f)
    log_result = None
    imported = source.imported or {}
    logged_success, logged_failure = _int(imported.get("log_success")), _int(imported.get("log_failure"))
    if logged_success is not None:
        log_result = f"{logged_success}/{logged_success + (logged_failure or 0)} solved"
    elif imported and (imported.get("log_calls") is not None):
        log_result = "no evaluation in the log"
    if imported.get("wanted_more"):
        details.append(("the replay", "asked for more answers than the log holds (genplan's checks failed where "
                        "the original run's passed)"))
    if imported.get("divergences"):
        details.append(("the replay", "left the log's path (import.json lists where)"))
    return OutcomeFacts(headline, figure, details=tuple(details), feedback_limit=limit, findings=findings,
                        log_result=log_result)


def describe_trial(source: OutcomeInput) -> OutcomeFacts:
    """A PDDLego+/PlanGen trial: succeeded or failed and why (its end reason, not the run's status), its steps
    and calls; an imported trial beside the log's own outcome."""
    data: Mapping[str, Any] = source.summary.data if source.summary is not None else {}
    outcome = data.get("outcome")
    if outcome not in ("success", "failure"):
        return OutcomeFacts("no outcome recorded: the trial did not end")
    reason = str(data.get("reason") or "") or None
    steps = _int(data.get("steps"))
    after = f" after {steps} step" + ("" if steps == 1 else "s") if steps is not None else ""
    if source.status is RunStatus.STOPPED:  # a person's stop is the run's status, not the trial's end
        return OutcomeFacts(f"no result: the trial was stopped before its end{after}",
                            details=(("steps", str(steps)),) if steps is not None else ())
    headline = f"trial succeeded{after}" if outcome == "success" else f"trial failed ({reason or 'no reason'}){after}"
    details = [("steps", str(steps))] if steps is not None else []
    for key, name in (("solver_errors", "solver errors"), ("simulation_errors", "simulation errors")):
        if _int(data.get(key)) is not None:
            details.append((name, str(data[key])))
    log = source.meta.extra.get("log")
    log_result = None
    if isinstance(log, dict) and log.get("outcome"):
        log_steps = _int(log.get("steps"))
        log_result = f"{log['outcome']}" + (f" after {log_steps} steps" if log_steps is not None else "")
    return OutcomeFacts(headline, Figure("trial", 1 if outcome == "success" else 0, 1), details=tuple(details),
                        trial_end=reason, log_result=log_result)
