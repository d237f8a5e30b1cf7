"""PDDLego+ feedback: what the model is told when its PDDL files yield no usable plan, made from the
structured result of each check (which file is missing, the planner's status, the refused repairs, ...)."""

from __future__ import annotations

from collections.abc import Iterable

from genplan.engine.pddl.model import Repair
from genplan.engine.planner import FAULT, LIMIT, UNKNOWN, UNSOLVABLE


def not_json() -> str:
    """The answer held no JSON object with the two files."""
    return 'The answer was not the JSON object asked for ({"df": "...", "pf": "..."}).'


def missing_file(field: str) -> str:
    """``field`` is "df" (domain) or "pf" (problem)."""
    which = "domain" if field == "df" else "problem"
    return f"The answer has no {which} file ('{field}' is missing or empty)."


def negated_init_fact(file_name: str, line: int) -> str:
    return (f"{file_name}:{line}: a negated fact in :init; the initial state lists only the "
            "facts that hold (everything not listed is false), so leave it out")


def refused_repairs(repairs: Iterable[Repair]) -> str:
    """Repairs lenient reading would have made, each told as the error it repairs (without the repair)."""
    return "\n".join(str(Repair(r.kind, r.message.split("; ")[0], r.path, r.line)) for r in repairs)


def planner_failed(status: str, message: str) -> str:
    """The planner's status (UNSOLVABLE, LIMIT or another failure) and its own message."""
    if status == UNSOLVABLE:
        return ("The planner proved that the goal cannot be reached from the initial state with these actions: "
                "check the goal, the initial facts and the actions' preconditions and effects.")
    if status == LIMIT:
        return f"The planner found no plan within its limits ({message})."
    if status == FAULT:
        return (f"The planner's answer failed genplan's own check, a fault of the planner or of genplan's "
                f"translation rather than of your files: {message}")
    if status == UNKNOWN:
        return f"The planner could not decide whether the goal can be reached: {message}"
    return f"The planner failed: {message}"


def empty_plan() -> str:
    return "The goal already holds in the initial state, so the plan is empty: choose a goal you have not reached yet."


def no_executable_action(plan: list[str]) -> str:
    return f"The plan has no action the game can execute: {' '.join(plan)}. Use only the actions you were given."


def no_adl_planner() -> str:
    return "The files use ADL constructs and Fast Downward is not installed to plan with them."


def planner_rejected(detail: str) -> str:
    return f"The planner rejected the files: {detail.strip()}"


# A failed game command (kind from ``pddlego.environment.coin_failure``): what failed and what to do instead.
COMMAND_FAILURES = {
    "closed-door": "the door in that direction is closed. Open the door in that direction first, then move.",
    "already-open": "that door is already open, so you have been here before. Check the door's status in your files.",
    "no-door": "there is no door in that direction, or nothing at all. "
               "Where there is no door you can move in that direction directly.",
    "cannot-move": "you cannot move in that direction. "
                   "Check your actions' preconditions and the facts of your problem file.",
    "not-accepted": "the game did not accept it.",
}


def command_failed(kind: str, command: str) -> str:
    return f"The action '{command}' failed: {COMMAND_FAILURES[kind]}"
