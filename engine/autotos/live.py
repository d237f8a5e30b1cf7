"""AutoToS against a live model: open the search domain the user named, run the loop in the sandbox, and
record the run exactly as an imported one (``session.run_autotos``), so both open and compare the same way.

The target is one of the paper's domains (``24game``, ``blocksworld``, ``prontoqa``, ``crossword``,
``sokoban``) — read from the release's data with ``data``, else made by genplan's own generators — or a PDDL
domain directory (the PDDL family: tests from genplan's simulator).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from ..events import (
    ArtifactCreated,
    ChecksPassed,
    EvaluationProgress,
    Event,
    FeedbackLimit,
    FeedbackRound,
    RequestSent,
    RunFailed,
)
from ..llm.types import Provider
from ..runs import create, layout
from ..runs.gateway import Controller
from ..runs.status import RunStatus
from ..sandbox.limits import GIB
from .domains import DOMAINS, DataError, SearchDomain, load_domain
from .generators import GENERATORS
from .loop import Settings

# The parameters a run takes besides the loop's Settings fields (names as the CLI flags, with '_').
DOMAIN_PARAMETERS = ("data", "generate", "gen_seed", "planner", "hash_seed", "memory_gib")
SETTINGS_FIELDS = frozenset(f.name for f in fields(Settings))
LIVE_EVAL_CHUNK = 4  # instances per sandboxed evaluation run when a front end may stop the run


def open_search_domain(target: str, data: str | Path | None = None, generate: int | None = None,
                       gen_seed: int = 0, planner: str = "auto", eval_limit: int | None = None) -> SearchDomain:
    """The search domain of ``target``; DataError (one line) for anything the user must fix."""
    if target in DOMAINS:
        if data is not None:
            if generate is not None:
                raise DataError("give either --data DIR (the paper's instances) or --generate N (genplan's), not both")
            if not Path(data).is_dir():
                raise DataError(f"--data {data}: no such directory")
            return load_domain(target, data)
        generator = GENERATORS.get(target)
        if generator is None:
            raise DataError(f"genplan has no instance generator for {target}; give --data DIR (the AutoToS data folder)")
        if generate is not None and generate < 1:
            raise DataError(f"--generate must be at least 1; got {generate}")
        return generator(seed=gen_seed, evaluation=generate) if generate is not None else generator(seed=gen_seed)
    if Path(target).is_dir():
        if data is not None or generate is not None:
            raise DataError("--data and --generate are for the paper's domains; a domain directory brings its own tasks")
        from .pddl_family import build_pddl_domain, pddl_tasks_from_dir

        return build_pddl_domain(pddl_tasks_from_dir(target, planner=planner, eval_limit=eval_limit))
    raise DataError(f"{target}: neither an AutoToS domain ({', '.join(DOMAINS)}) nor a domain directory")


def settings_from(parameters: Mapping[str, Any]) -> Settings:
    """The loop's settings: the Settings fields among the parameters (unset ones keep the paper's values)."""
    return Settings(**{k: v for k, v in parameters.items() if k in SETTINGS_FIELDS and v is not None})


def describe(event: Event) -> str | None:
    """One progress line for an event of an AutoToS run (None: nothing worth a line)."""
    data = event.data
    if isinstance(event, RequestSent):
        return f"call {event.request_id}: asking for {str(event.step or '').removeprefix('autotos.')}"
    if isinstance(event, ArtifactCreated) and event.kind == "function":
        function = data.get("function", data.get("name"))
        found = f"function {function}" if function else "no function found in the answer"
        return f"   {event.version}: {found}"
    if isinstance(event, FeedbackRound):
        return (f"   round {event.number} ({event.phase} check failed: {event.category}); "
                f"feedback to {event.target}")
    if isinstance(event, ChecksPassed):
        return f"   {event.check} tests passed"
    if isinstance(event, FeedbackLimit):
        return f"   stopped: {event.rounds} feedback rounds for {event.target} spent"
    if isinstance(event, EvaluationProgress):
        return (f"evaluation: {event.done}/{event.total} instances searched, {event.solved} solved "
                f"({float(event.seconds or 0):.1f} s)")
    if isinstance(event, RunFailed):
        return f"   the run ended early: {event.error or event.message}"
    return None


def run_live(target: str, provider: Provider, runs_dir: Path, parameters: Mapping[str, Any],
             model: Mapping[str, Any] | None = None, progress: Callable[[str], None] | None = None,
             preset: str | None = None, run_name: str | None = None,
             subscriber: Callable[[Event], None] | None = None,
             run_created: Callable[[Path], None] | None = None,
             stop_requested: Callable[[], bool] | None = None, controller: Controller | None = None,
             resume: bool = False) -> dict[str, Any]:
    """One AutoToS run with a model; the summary of ``genplan import autotos`` plus ``stopped`` (the function
    whose feedback rounds were spent), ``error`` and ``status`` (finished, stopped: the person asked to, failed).

    ``run_name``: the run directory's name in ``runs_dir`` (it must not exist yet); None: a time-stamped one.
    ``subscriber`` gets every event of the run as it is published, ``run_created`` the new run directory before
    the first one; ``stop_requested`` is asked before each model call and between evaluation chunks (True: the
    run ends there, "stopped"); ``controller`` decides on each request before it is sent (step mode).
    ``resume``: go on with the unfinished run ``runs_dir / run_name``: its answers on disk are not asked again."""
    from .executor import SandboxExecutor
    from .session import new_run_dir, run_autotos, summary_of

    settings = settings_from(parameters)
    if stop_requested is not None and "eval_chunk" not in parameters:
        # a front end that can stop the run: smaller evaluation chunks, so that a stop acts within a few searches
        settings = replace(settings, eval_chunk=min(settings.eval_chunk, LIVE_EVAL_CHUNK))
    say = progress or (lambda _line: None)
    started = time.monotonic()
    say(f"preparing {target} (instances, unit tests{', optimal plans of the debug tasks' if target not in DOMAINS else ''}) ...")
    # without an evaluation a domain directory's eval tasks are not loaded (their optimal plans are made only when
    # the evaluation validates a solution, so none delays the first call)
    eval_limit = settings.eval_limit if settings.evaluate else 0
    domain = open_search_domain(target, parameters.get("data"), parameters.get("generate"),
                                int(parameters.get("gen_seed") or 0), str(parameters.get("planner") or "auto"),
                                eval_limit)
    say(f"{len(domain.unit_instances)} unit-test instances, {len(domain.goal_cases)} goal cases, "
        f"{len(domain.completeness_cases)} successor sets, {len(domain.eval_instances)} evaluation instances "
        f"({time.monotonic() - started:.1f} s)")
    stem = domain.name if target in DOMAINS else f"{domain.name}-{Path(target).resolve().name}"
    if resume:
        if run_name is None or not layout.is_run_dir(runs_dir / run_name):
            raise DataError(f"{runs_dir / str(run_name)}: no AutoToS run to resume there")
        run_dir = runs_dir / run_name
    elif run_name is None:
        run_dir = new_run_dir(runs_dir, stem)
    else:
        run_dir = create(runs_dir, {"approach": "autotos"}, run_id=run_name).path
    say(f"run directory {run_dir}")
    if run_created is not None:
        run_created(run_dir)

    def watch(event: Event) -> None:
        line = describe(event)
        if line:
            say(line)
        if subscriber is not None:
            subscriber(event)

    source: dict[str, Any] = {"data": str(parameters["data"])} if parameters.get("data") else {
        "generated": {"seed": int(parameters.get("gen_seed") or 0), "evaluation": parameters.get("generate")}}
    if target not in DOMAINS:
        source = {"domain_dir": str(Path(target).resolve())}
    memory = parameters.get("memory_gib")
    executor = SandboxExecutor(hash_seed=int(parameters.get("hash_seed") or 0),
                               memory_bytes=int(float(memory) * GIB) if memory else None)
    try:
        # the target and the parameters as given: what a resume runs again (``resume_parameters``)
        outcome = run_autotos(domain, provider, executor, settings, run_dir,
                              {"model": dict(model or {}), "preset": preset, "source": source, "live": True,
                               "target": target, "parameters": _plain(parameters)},
                              watcher=watch, stop_requested=stop_requested, controller=controller, resume=resume)
    finally:
        executor.close()
    status = RunStatus.FAILED if outcome.error is not None else RunStatus.STOPPED if outcome.halted else RunStatus.FINISHED
    return {**summary_of(run_dir, outcome), "stopped": outcome.stopped, "error": outcome.error, "status": status}


def _plain(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters as run.json keeps them (paths as text)."""
    return {str(k): str(v) if isinstance(v, Path) else v for k, v in parameters.items()}
