"""Where harness requests run: in genplan's sandbox (the default; model code is hostile) or in-process
(only for the benchmark's reference figure and for trusted code in tests).

Both send the same request to the same harness code (``harness.py``); the sandboxed one ships the
harness source as the program and the request as the task, and reads the one JSON string it returns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol

from genplan.engine.autotos import harness
from genplan.engine.errors import GenplanError
from genplan.engine.sandbox.child import EXIT_OUT_OF_MEMORY
from genplan.engine.sandbox.limits import GIB
from genplan.engine.sandbox.outcome import ProgramOutcome

HARNESS_SOURCE = Path(harness.__file__).read_text(encoding="utf-8")


class SandboxOutOfMemory(GenplanError):
    """The sandboxed search itself (not a model function, whose errors the harness reports as the function's) ran
    out of the address space genplan gives it: a limit of ours, which the AutoToS release did not have."""

    def __init__(self, memory_bytes: int) -> None:
        super().__init__(f"the sandboxed search ran out of memory (its limit: {memory_bytes / GIB:g} GiB); "
                         "give it more: --memory GIB (genplan autotos, genplan import autotos, genplan run, "
                         "genplan-tui; a run that ended here goes on with more: genplan run --resume RUN --memory GIB, "
                         "or c on it in genplan-tui --memory GIB), "
                         "memory_mb in a batch experiment's [evaluation]")
        self.memory_bytes = memory_bytes


class Executor(Protocol):
    def run(self, request: dict[str, Any], time_limit: float) -> dict[str, Any]: ...

    def close(self) -> None: ...


class InProcessExecutor:
    """Runs the harness in this process: no containment at all. Never for model code from outside."""

    def run(self, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        # A JSON round trip, as in the sandbox, so both see identical inputs and give identical outputs.
        result = harness.handle_safely(json.loads(json.dumps(request)))
        answer: dict[str, Any] = json.loads(json.dumps(result, default=repr))
        return answer

    def close(self) -> None:
        pass


class SandboxExecutor:
    """One sandboxed child per request: the model's functions and the trusted search run together there;
    the per-call limit is enforced inside the child, the whole request by the sandbox's time limit."""

    def __init__(self, hash_seed: int = 0, memory_bytes: int | None = None) -> None:
        from genplan.engine.sandbox.limits import Limits
        from genplan.engine.sandbox.program import Program
        from genplan.engine.sandbox.runner import Sandbox

        self._limits_type = Limits
        self._memory = memory_bytes
        self._sandbox = Sandbox(Limits())
        self._program = Program.from_source(HARNESS_SOURCE, functions=("generate_solution",))
        self.hash_seed = hash_seed

    def run(self, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        options: dict[str, Any] = {"time_limit": time_limit, "max_output_bytes": 1024 * 1024}
        if self._memory is not None:
            options["memory_bytes"] = self._memory
        limits = self._limits_type(**options)
        text = json.dumps(request, separators=(",", ":"))
        outcome = self._sandbox.run(self._program, ([text], [], []), hash_seed=self.hash_seed, limits=limits)
        return answer_of(outcome, limits.memory_bytes, time_limit)

    def close(self) -> None:
        self._sandbox.close()


def answer_of(outcome: ProgramOutcome, memory_bytes: int, time_limit: float) -> dict[str, Any]:
    """The harness's answer in a sandboxed run's outcome, or the failure the loop is told of instead."""
    if outcome.kind == "plan" and outcome.plan and len(outcome.plan) == 1:
        try:
            answer = json.loads(outcome.plan[0])
        except json.JSONDecodeError:
            return {"failure": "sandbox", "error": "unreadable answer from the sandboxed search"}
        if isinstance(answer, dict):
            return answer
        return {"failure": "sandbox", "error": "malformed answer from the sandboxed search"}
    if outcome.kind == "timeout":
        return {"failure": "search-timeout", "error": f"the sandboxed run exceeded {time_limit:g} s"}
    # The harness's own MemoryError, or the child's exit when not even that could be reported (a crash by its
    # kind): our memory limit, not the model's fault, so the run stops and says how to lift it.
    if outcome.exit_code == EXIT_OUT_OF_MEMORY or "MemoryError" in (outcome.exception or outcome.detail):
        return {"failure": "out-of-memory", "error": str(SandboxOutOfMemory(memory_bytes)), "memory_bytes": memory_bytes}
    if outcome.kind == "crash":
        # Any other crash of the child is the model's doing (stack overflow, os._exit): blame the function under test.
        return {"failure": "crash", "error": outcome.detail or "the sandboxed run crashed"}
    return {"failure": "sandbox", "error": f"{outcome.kind}: {outcome.exception or outcome.detail or outcome.kind}"}
