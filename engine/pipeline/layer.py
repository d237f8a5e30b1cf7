"""The pipeline layer on the one Run context: how a pipeline approach's loop (``stein.run``, ``bas.run``,
``sil.run``, a test's toy) becomes the approach's run.

A pipeline approach registers ``run=PipelineLoop(its_loop)``; given its :class:`~genplan.engine.runs.run.Run`,
the loop gets a :class:`~genplan.engine.pipeline.runner.Pipeline` built on that run (the same model gateway,
files and events) as its :class:`~genplan.engine.approaches.context.PipelineContext`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from genplan.engine.pipeline.checks import ProgramChecker
    from genplan.engine.runs.run import Run, RunOutcome


@dataclass(frozen=True)
class PipelineLoop:
    """A pipeline approach's run: its loop on the pipeline context built on the run."""

    loop: Callable[[Any, ProgramChecker], None]

    def __call__(self, run: Run) -> RunOutcome:
        from genplan.engine.pipeline.runner import Pipeline

        return Pipeline.on(run, self.loop).outcome()
