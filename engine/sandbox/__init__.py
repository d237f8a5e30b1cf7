"""genplan.engine.sandbox: run untrusted generated programs on tasks, contained and measured.

    from genplan.engine.sandbox import Sandbox, Program, Limits
    with Sandbox(Limits(time_limit=45)) as sandbox:
        outcome = sandbox.run(Program.from_file("prog.py"), python_task, hash_seed=0)
        outcome.kind, outcome.plan, outcome.traceback  # the text a model is shown: engine/feedback/programs.py

Exports are loaded lazily: the fork server imports this package too, and everything it imports is
visible to the untrusted programs it forks, so importing the package must not pull in subprocess & co.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Sandbox": "runner",
    "SandboxError": "runner",
    "ForkServer": "runner",
    "task_lists": "runner",
    "Program": "program",
    "ProgramError": "program",
    "DEFAULT_FUNCTIONS": "program",
    "Limits": "limits",
    "DEFAULT_TIME_LIMIT": "limits",
    "ProgramOutcome": "outcome",
    "run_category": "outcome",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from genplan.engine.sandbox.limits import DEFAULT_TIME_LIMIT as DEFAULT_TIME_LIMIT
    from genplan.engine.sandbox.limits import Limits as Limits
    from genplan.engine.sandbox.outcome import ProgramOutcome as ProgramOutcome
    from genplan.engine.sandbox.outcome import run_category as run_category
    from genplan.engine.sandbox.program import DEFAULT_FUNCTIONS as DEFAULT_FUNCTIONS
    from genplan.engine.sandbox.program import Program as Program
    from genplan.engine.sandbox.program import ProgramError as ProgramError
    from genplan.engine.sandbox.runner import (
        ForkServer as ForkServer,
    )
    from genplan.engine.sandbox.runner import (
        Sandbox as Sandbox,
    )
    from genplan.engine.sandbox.runner import (
        SandboxError as SandboxError,
    )
    from genplan.engine.sandbox.runner import (
        task_lists as task_lists,
    )


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, name)
