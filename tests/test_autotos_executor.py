"""What the AutoToS loop is told when the sandboxed search does not answer (engine/autotos/executor.answer_of):
our memory limit is ours (the run stops and names --memory), any other crash is the model function's."""

from __future__ import annotations

import json
import signal

from genplan.engine.autotos.executor import answer_of
from genplan.engine.sandbox.child import EXIT_OUT_OF_MEMORY
from genplan.engine.sandbox.limits import GIB
from genplan.engine.sandbox.outcome import ProgramOutcome

MEMORY = 2 * GIB


def test_the_childs_out_of_memory_exit_is_our_limit_not_the_models_crash() -> None:
    # the child could not even report the MemoryError: the server calls it a crash, with exit code 72
    outcome = ProgramOutcome(kind="crash", exit_code=EXIT_OUT_OF_MEMORY,
                             detail="the process ran out of memory (the address-space limit) and could not report its result")
    answer = answer_of(outcome, MEMORY, 30.0)
    assert answer["failure"] == "out-of-memory" and answer["memory_bytes"] == MEMORY
    assert "its limit: 2 GiB" in answer["error"] and "--memory GIB" in answer["error"]


def test_the_harnesss_own_memory_error_is_our_limit_too() -> None:
    answer = answer_of(ProgramOutcome(kind="exception", exception="MemoryError"), MEMORY, 30.0)
    assert answer["failure"] == "out-of-memory" and answer["memory_bytes"] == MEMORY


def test_other_crashes_are_the_function_under_tests() -> None:
    overflow = ProgramOutcome(kind="crash", signal=signal.SIGSEGV, detail="the Python process crashed (SIGSEGV)")
    assert answer_of(overflow, MEMORY, 30.0) == {"failure": "crash", "error": "the Python process crashed (SIGSEGV)"}
    exited = ProgramOutcome(kind="crash", exit_code=3, detail="the Python process exited with status 3")
    assert answer_of(exited, MEMORY, 30.0)["failure"] == "crash"


def test_answers_timeouts_and_broken_answers() -> None:
    answer = {"ok": True, "expanded": 5}
    assert answer_of(ProgramOutcome(kind="plan", plan=[json.dumps(answer)]), MEMORY, 30.0) == answer
    assert answer_of(ProgramOutcome(kind="plan", plan=["{"]), MEMORY, 30.0)["error"] == "unreadable answer from the sandboxed search"
    assert answer_of(ProgramOutcome(kind="plan", plan=["[1]"]), MEMORY, 30.0)["error"] == "malformed answer from the sandboxed search"
    assert answer_of(ProgramOutcome(kind="timeout"), MEMORY, 2.5) == {
        "failure": "search-timeout", "error": "the sandboxed run exceeded 2.5 s"}
    assert answer_of(ProgramOutcome(kind="sandbox-error", detail="harness failure"), MEMORY, 30.0) == {
        "failure": "sandbox", "error": "sandbox-error: harness failure"}
