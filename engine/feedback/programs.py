"""What a model is told about a run of its program that did not return a plan.

Types 1-3 follow Table 13 of Stein et al. (timeout, Python exception, wrong output type) and keep its
structure; the "silver" style follows Silver et al. (the exception traceback, and for timeouts the
traceback of the interrupted program ending in KeyboardInterrupt). The texts for the kinds the papers do
not name (the program defines no such function, crashes, prints too much, ...) are our own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from genplan.engine.feedback import FeedbackStyle
from genplan.engine.sandbox import outcome as k

if TYPE_CHECKING:
    from genplan.engine.sandbox.outcome import ProgramOutcome

EXCEPTION_INTRO = "The code raised the following exception:"


def _seconds(value: float) -> str:
    return f"{value:g}"


def timeout_message(time_limit: float, traceback: str | None, style: FeedbackStyle = FeedbackStyle.STEIN) -> str:
    if style == FeedbackStyle.SILVER:
        lines = [EXCEPTION_INTRO]
        lines.append(traceback.rstrip() if traceback else "KeyboardInterrupt")
        lines.append("The code was interrupted because it timed out (possible infinite loop).")
        return "\n".join(lines)
    return (
        f"The code was interrupted because it did not terminate within the time limit "
        f"({_seconds(time_limit)} seconds). This is likely caused by an infinite loop. "
        "Please check the loops again."
    )


def exception_message(traceback: str) -> str:
    return f"{EXCEPTION_INTRO}\n{traceback.rstrip()}"


def wrong_type_message(returned: str, function: str, style: FeedbackStyle = FeedbackStyle.STEIN) -> str:
    if style == FeedbackStyle.SILVER:
        return (
            f"The code returned {returned}, which is not a list of strings. {function} must return a list "
            "of actions, each one a string such as '(operator-name object-name ...)'."
        )
    return (
        f"The code returned {returned} which is not a list of actions. Please make sure that your code "
        "returns a list of actions, i.e. of type List[str]."
    )


def run_feedback(outcome: ProgramOutcome, style: FeedbackStyle = FeedbackStyle.STEIN) -> str:
    """Feedback for one run; empty for a returned plan (its feedback comes from plan validation)."""
    function = outcome.function or "generate_solution"
    kind = outcome.kind
    if kind == k.PLAN:
        return ""
    if kind == k.TIMEOUT:
        return timeout_message(outcome.time_limit, outcome.traceback, style)
    if kind in (k.EXCEPTION, k.SYNTAX_ERROR):
        return exception_message(outcome.traceback or outcome.exception or "(no traceback)")
    if kind == k.WRONG_TYPE:
        return wrong_type_message(outcome.returned or "None", function, style)
    if kind == k.MISSING_FUNCTION:
        expected = outcome.function or "generate_solution"
        text = (
            f"The code does not define the function {expected}(objects, init, goal). "
            f"Please define {expected} at the top level of the program and return the plan from it."
        )
        return text + (f" {outcome.detail}" if outcome.detail else "")
    if kind == k.CRASH:
        if outcome.signal == 11:  # SIGSEGV: in practice the C stack overflowing under deep recursion
            text = (
                "The code crashed the Python interpreter with a fatal error (segmentation fault), most likely "
                "a stack overflow caused by too deep recursion."
            )
        else:
            text = f"The code stopped the Python process before {function} returned a plan: {outcome.detail}."
        if outcome.traceback:
            text += f"\nWhere the program was (most recent call first):\n{outcome.traceback.rstrip()}"
        return text
    if kind == k.OUTPUT_LIMIT:
        return (
            f"The code was stopped because it printed too much output ({outcome.detail}). "
            "Please remove or reduce the print statements."
        )
    if kind == k.RESULT_TOO_LARGE:
        return f"The code returned a list of actions that is too large to check ({outcome.detail})."
    if kind == k.SANDBOX_ERROR:
        return f"The program could not be run: {outcome.detail}"
    return outcome.detail or kind
