"""The structured record of running one program on one task (before plan validation)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

# What happened when the program ran.
PLAN = "plan"  # returned a list of strings (the plan still has to be validated)
EXCEPTION = "exception"  # a Python exception escaped the program (also SystemExit, MemoryError, ...)
TIMEOUT = "timeout"  # did not finish within the time limit
WRONG_TYPE = "wrong-type"  # returned something that is not a list of strings
SYNTAX_ERROR = "syntax-error"  # the program text does not compile
MISSING_FUNCTION = "missing-function"  # the program defines none of the expected functions
CRASH = "crash"  # the Python process ended without a result (os._exit, fatal signal, stack overflow)
OUTPUT_LIMIT = "output-limit"  # printed more than the output limit
RESULT_TOO_LARGE = "result-too-large"  # returned a list of strings too large to check
SANDBOX_ERROR = "sandbox-error"  # the harness itself failed (not the program's fault)

KINDS = (
    PLAN,
    EXCEPTION,
    TIMEOUT,
    WRONG_TYPE,
    SYNTAX_ERROR,
    MISSING_FUNCTION,
    CRASH,
    OUTPUT_LIMIT,
    RESULT_TOO_LARGE,
    SANDBOX_ERROR,
)

# Failures the program raised while running (Python level), as opposed to a wrong output.
PYTHON_ERROR_KINDS = frozenset({EXCEPTION, TIMEOUT, SYNTAX_ERROR, MISSING_FUNCTION, CRASH, OUTPUT_LIMIT})
OUTPUT_ERROR_KINDS = frozenset({WRONG_TYPE, RESULT_TOO_LARGE})

# The error table of the papers (Stein et al. Table 5; Silver et al. Table 2).
CATEGORY_EXCEPTION = "exception"
CATEGORY_TIMEOUT = "timeout"
CATEGORY_WRONG_TYPE = "wrong type"
CATEGORY_INVALID_ACTION = "invalid action"
CATEGORY_GOAL = "goal not satisfied"
CATEGORY_SANDBOX = "sandbox error"
CATEGORIES = (
    CATEGORY_EXCEPTION,
    CATEGORY_TIMEOUT,
    CATEGORY_WRONG_TYPE,
    CATEGORY_INVALID_ACTION,
    CATEGORY_GOAL,
    CATEGORY_SANDBOX,
)

_RUN_CATEGORY = {
    EXCEPTION: CATEGORY_EXCEPTION,
    SYNTAX_ERROR: CATEGORY_EXCEPTION,
    MISSING_FUNCTION: CATEGORY_EXCEPTION,
    CRASH: CATEGORY_EXCEPTION,
    OUTPUT_LIMIT: CATEGORY_EXCEPTION,
    TIMEOUT: CATEGORY_TIMEOUT,
    WRONG_TYPE: CATEGORY_WRONG_TYPE,
    RESULT_TOO_LARGE: CATEGORY_WRONG_TYPE,
    SANDBOX_ERROR: CATEGORY_SANDBOX,
}


def run_category(kind: str) -> str | None:
    """The error-table column of a run failure (None for ``plan``: that depends on validation)."""
    return _RUN_CATEGORY.get(kind)


@dataclass
class ProgramOutcome:
    kind: str
    plan: list[str] | None = None
    function: str | None = None  # the function that was called (generate_solution or get_plan)
    traceback: str | None = None  # cleaned: file paths omitted, harness frames removed
    exception: str | None = None  # the last line, e.g. "KeyError: ('at', 't0', 'l0-0')"
    returned: str | None = None  # bounded repr of a wrong-type output
    returned_type: str | None = None
    detail: str = ""  # one line of extra explanation (crashes, limits, harness errors)
    stdout: str = ""  # what the program printed (stdout and stderr), the first kept_output_bytes
    stdout_bytes: int = 0  # how much it printed in total
    stdout_truncated: bool = False
    runtime: float = 0.0  # seconds spent in the function call (the whole run for timeouts/crashes)
    wall_time: float = 0.0  # seconds from the start of the child to its end, measured by the server
    peak_memory: int | None = None  # bytes, maximum resident set size of the child (includes the interpreter)
    exit_code: int | None = None
    signal: int | None = None
    time_limit: float = 0.0
    hash_seed: int = 0
    notes: list[str] = field(default_factory=list)  # e.g. limits that could not be applied

    @property
    def returned_plan(self) -> bool:
        return self.kind == PLAN

    @property
    def category(self) -> str | None:
        return run_category(self.kind)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProgramOutcome:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})
