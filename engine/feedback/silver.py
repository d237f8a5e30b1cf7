"""Silver et al.'s four kinds of feedback after a failed debug task, as the variables of their ``fix`` prompt
(``prompts/silver/fix.j2`` words them): a Python exception, a timeout (the traceback ends in
KeyboardInterrupt), a plan with a syntax error (with the valid operators), a plan that is semantically wrong
(the validator's message in the silver style)."""

from __future__ import annotations

from typing import Any, Protocol

from genplan.engine.sandbox.outcome import TIMEOUT, WRONG_TYPE


class FailedCheck(Protocol):
    """What the feedback reads of a failed check (the pipeline's TaskCheck, which this package does not import)."""

    @property
    def output(self) -> Any: ...
    @property
    def python_error(self) -> bool: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def message(self) -> str: ...
    @property
    def details(self) -> dict[str, Any]: ...


def fix_variables(failed: FailedCheck, task_pddl: str, operators: list[str]) -> dict[str, Any]:
    """``operators``: the domain's actions in lifted form, e.g. ``(sail ?from ?to)``."""
    variables: dict[str, Any] = {"task_pddl": task_pddl, "traceback": "", "output": failed.output, "message": "",
                                 "operators": []}
    if failed.python_error:
        variables["kind"] = "timeout" if failed.kind == TIMEOUT else "exception"
        variables["traceback"] = failed.details.get("traceback") or failed.message
    elif failed.kind == WRONG_TYPE or failed.details.get("syntax"):
        variables["kind"] = "plan-syntax"
        variables["operators"] = operators
        if failed.kind == WRONG_TYPE:
            variables["message"] = "the output is not a list of action strings"
        else:
            variables["message"] = f"the action {failed.details.get('action')} is invalid at step {failed.details.get('step')}"
    else:
        variables["kind"] = "plan-semantics"
        variables["message"] = failed.message
    return variables
