"""AutoToS against a live model, as an approach: on the :class:`~genplan.engine.runs.run.Run` it is given, open
the search domain the user named, run the loop in the sandbox and record the run exactly as an imported one
(``session.run_loop``), so both open and compare the same way.

The target is one of the paper's domains (``24game``, ``blocksworld``, ``prontoqa``, ``crossword``,
``sokoban``) — read from the release's data with ``data``, else made by genplan's own generators — or a PDDL
domain directory (the PDDL family: tests from genplan's simulator). The approach's parts (registered in
``engine/approaches/autotos.py``): :func:`run`, :func:`new_run`, :func:`reopen`, :func:`edited_answer`; its
parameters are :class:`~.parameters.AutoToSParameters`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from genplan.engine.autotos.domains import DOMAINS, DataError, SearchDomain, load_domain
from genplan.engine.autotos.generators import GENERATORS
from genplan.engine.autotos.loop import Settings
from genplan.engine.autotos.parameters import AutoToSParameters, BadParameters, parameters
from genplan.engine.autotos.session import preset_of, run_loop, run_meta
from genplan.engine.runs import NotResumable, layout
from genplan.engine.runs.run import NewRun, Run, RunOutcome
from genplan.engine.sandbox.limits import GIB

LIVE_EVAL_CHUNK = 4  # instances per sandboxed evaluation run when a front end may stop the run


def check_target(target: str, data: str | Path | None = None, generate: int | None = None) -> None:
    """What the user must fix about the target and where its instances come from, said before a run directory
    is made (DataError, one line)."""
    if target in DOMAINS:
        if data is not None:
            if generate is not None:
                raise DataError("give either --data DIR (the paper's instances) or --generate N (genplan's), not both")
            if not Path(data).is_dir():
                raise DataError(f"--data {data}: no such directory")
            return
        if target not in GENERATORS:
            raise DataError(f"genplan has no instance generator for {target}; give --data DIR (the AutoToS data folder)")
        if generate is not None and generate < 1:
            raise DataError(f"--generate must be at least 1; got {generate}")
        return
    if Path(target).is_dir():
        if data is not None or generate is not None:
            raise DataError("--data and --generate are for the paper's domains; a domain directory brings its own tasks")
        return
    raise DataError(f"{target}: neither an AutoToS domain ({', '.join(DOMAINS)}) nor a domain directory")


def open_search_domain(target: str, data: str | Path | None = None, generate: int | None = None,
                       gen_seed: int = 0, planner: str = "auto", eval_limit: int | None = None) -> SearchDomain:
    """The search domain of ``target``; DataError (one line) for anything the user must fix."""
    check_target(target, data, generate)
    if target in DOMAINS:
        if data is not None:
            return load_domain(target, data)
        generator = GENERATORS[target]
        return generator(seed=gen_seed, evaluation=generate) if generate is not None else generator(seed=gen_seed)
    from genplan.engine.autotos.pddl_family import build_pddl_domain, pddl_tasks_from_dir

    return build_pddl_domain(pddl_tasks_from_dir(target, planner=planner, eval_limit=eval_limit))




def _typed(given: Any) -> AutoToSParameters:
    if isinstance(given, AutoToSParameters):
        return given
    if isinstance(given, Mapping):
        return parameters(given)
    raise BadParameters(f"AutoToS parameters: expected AutoToSParameters or a mapping, got {type(given).__name__}")


def _stem(target: str) -> str:
    """The run directory's name stem: ``autotos-<domain>`` (a domain directory: ``autotos-pddl-<its name>``)."""
    return f"autotos-{target}" if target in DOMAINS else f"autotos-pddl-{Path(target).resolve().name}"


def new_run(target: str, given: AutoToSParameters) -> NewRun:
    """What a new AutoToS run's run.json records (besides id, status, time and model): the approach, domain,
    preset, the loop's settings, where its instances come from, the target and parameters as given (what a
    resume runs again: :func:`reopen`). DataError (one line) before any run directory is made for a target or
    an instance source the user must fix."""
    params = _typed(given)
    check_target(target, params.data, params.generate)
    settings = params.settings()
    domain = target if target in DOMAINS else "pddl"
    # a domain directory is recorded as an absolute path, so the run resumes from any working directory
    recorded_target = target if target in DOMAINS else str(Path(target).resolve())
    meta = {**run_meta(domain, settings, params.preset),
            "source": params.source(target in DOMAINS, target), "live": True, "target": recorded_target,
            "parameters": params.to_dict()}
    return NewRun(meta, stem=_stem(target))


def reopen(meta: Mapping[str, Any]) -> tuple[str, AutoToSParameters]:
    """The target and parameters an unfinished AutoToS run recorded (NotResumable: an import, or a run of an
    earlier genplan that records none)."""
    target, recorded = meta.get("target"), meta.get("parameters")
    if not isinstance(target, str) or not isinstance(recorded, Mapping) or meta.get("imported_from") \
            or meta.get("import"):
        raise NotResumable("a run of autotos that records no parameters to run it with again (an import, or made by "
                           "an earlier genplan); it opens and replays, but is not continued")
    return target, parameters(recorded)


def edited_answer(run_dir: Path, relative: str, kind: str, text: str) -> str:
    """The answer that replaces the model's when a person edits a version of the successor function or the goal
    test (``versions/succ-N.py``): the edited function in a code block, as the loop reads an answer."""
    name = Path(relative).name
    if Path(relative).parent.name != layout.VERSIONS or not name.endswith(".py") or \
            not name.startswith(("succ-", "goal-")):
        raise DataError(f"{relative} in {run_dir}: not a version of an AutoToS run's succ or goal function")
    return f"```python\n{text.strip()}\n```\n"


def run(run: Run) -> RunOutcome:
    """One AutoToS run with a model on ``run`` (its ``target`` and ``parameters``): open the search domain, run
    the loop in the sandbox, and say how it ended (``session.run_loop``). A front end that can stop the run
    (``RunSetup.stop_requested``) gets smaller evaluation chunks (unless the parameters name one), so that a stop
    acts within a few searches."""
    from genplan.engine.autotos.executor import SandboxExecutor

    params = _typed(run.parameters)
    target = run.target
    settings = params.settings(eval_chunk=None if run.setup.stop_requested is None
                               else min(Settings().eval_chunk, LIVE_EVAL_CHUNK))
    say = run.progress
    started = time.monotonic()
    say(f"preparing {target} (instances, unit tests{', optimal plans of the debug tasks' if target not in DOMAINS else ''}) ...")
    # without an evaluation a domain directory's eval tasks are not loaded (their optimal plans are made only when
    # the evaluation validates a solution, so none delays the first call)
    eval_limit = settings.eval_limit if settings.evaluate else 0
    domain = open_search_domain(target, params.data, params.generate, params.gen_seed, params.planner, eval_limit)
    say(f"{len(domain.unit_instances)} unit-test instances, {len(domain.goal_cases)} goal cases, "
        f"{len(domain.completeness_cases)} successor sets, {len(domain.eval_instances)} evaluation instances "
        f"({time.monotonic() - started:.1f} s)")
    say(f"run directory {run.path}")

    preset = params.preset or preset_of(settings)
    # what is run, as it is run now (a resume: with the model and the memory given now; what a later resume runs)
    run.update_meta(**run_meta(domain.name, settings, preset), parameters=params.to_dict(),
                    **({"model": dict(run.setup.model)} if run.setup.model else {}))
    executor = SandboxExecutor(hash_seed=params.hash_seed,
                               memory_bytes=int(params.memory_gib * GIB) if params.memory_gib else None)
    try:
        return run_loop(run, domain, executor, settings, preset)
    finally:
        executor.close()
