"""Rerunning a strategy: plan validation of one strategy text on the debug tasks, and nothing else.

A new run directory beside the source run receives the source's natural-language descriptions (their
requests and answers, replayed from disk: no call is made for them), the strategy as its ``v01``, and then
the model plans every debug task by following the strategy and the validator checks the plans — one
request per debug task (``requests_needed``), shown to the person before anything is sent. No reflection,
no revision, no code generation follows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine import runs
from genplan.engine.domainlib import DomainDir
from genplan.engine.events import RunFinished, RunStarted
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.runs.answers import copy_records
from genplan.engine.runs.status import RunStatus
from genplan.engine.runs.store import RunStore

PURPOSE = "strategy-check"
_NL_STEPS = ("nl.domain", "nl.task")


def requests_needed(domain: DomainDir) -> int:
    """Model requests a strategy check sends: one plan per debug task (a retry after an answer without a
    plan adds one more for that task)."""
    return len(domain.debug_tasks())


@dataclass(frozen=True)
class StrategyCheck:
    run_dir: Path
    solved: int
    total: int
    status: str  # finished, stopped

    @property
    def debug_solved(self) -> int:
        return self.solved

    @property
    def debug_total(self) -> int:
        return self.total


def prepare(source: Path, strategy_file: str, domain_dir: Path, root: Path | None = None) -> RunStore:
    """The new run: the source's settings, its NL requests and answers, and which strategy it checks."""
    source_store = RunStore.open(source)
    meta = {k: v for k, v in source_store.meta().items() if k not in ("run_id", "status", "created")}
    meta.update(domain_dir=str(Path(domain_dir).resolve()), purpose=PURPOSE, checks_strategy_of=source.name, checked_strategy=strategy_file,
                forked_from=str(source), edited_version=strategy_file)
    store = runs.create(root or source.parent, meta)
    copy_records(source, store.path, lambda record: record.step in _NL_STEPS)
    return store


def run_check(store: RunStore, text: str, provider: Any, controller: Any = None,
              subscriber: Callable[[Any], None] | None = None, reasoning: bool = False) -> StrategyCheck:
    """Replay the NL phase from disk, then validate ``text`` on the debug tasks (the only requests sent)."""
    from genplan.engine.approaches import get_approach
    from genplan.engine.pipeline.checks import Version
    from genplan.engine.pipeline.runner import Pipeline
    from genplan.engine.runs.run import Run, RunOutcome, RunSetup, RunStopped, execute

    meta = store.meta()
    domain = DomainDir.open(meta["domain_dir"])
    config = PipelineConfig.from_stored(meta["config"])
    approach = get_approach(config.approach)
    setup = RunSetup(provider, controller=controller, reasoning=reasoning,
                     subscribers=(subscriber,) if subscriber is not None else ())
    run = Run(store, setup, approach=approach, target=str(domain.path), parameters=config)
    pipeline = Pipeline(run, domain, config, approach)

    def check(run: Run) -> RunOutcome:
        run.publish(RunStarted(domain=domain.name, preset=config.preset, approach=config.approach,
                               purpose=PURPOSE, checks_strategy_of=meta.get("checks_strategy_of"),
                               debug_tasks=[t.name for t in pipeline.tasks]))
        started = time.monotonic()
        status, solved = RunStatus.FINISHED, 0
        try:
            pipeline.nl_phase()
            file = pipeline.artifact("strategy", "strategies/v01.md", text, version="v01")
            version = Version("strategy", "v01", text, file)
            pipeline.validate_strategy(version)
            solved = version.solved
        except RunStopped:
            status = RunStatus.STOPPED
        finished = RunFinished(status=status, purpose=PURPOSE, strategy_solved=solved, debug_solved=solved,
                               debug_total=len(pipeline.tasks), wall_seconds=round(time.monotonic() - started, 3))
        return RunOutcome(status, finished, summary={**finished.data, "selected_program": None})

    outcome = execute(run, check)
    return StrategyCheck(store.path, int(outcome.event.data["strategy_solved"]), len(pipeline.tasks),
                         outcome.status)
