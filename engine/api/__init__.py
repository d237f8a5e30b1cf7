"""The front ends' one door to runs: start, resume and fork a run of any approach, the same way for the CLI,
batch and the TUI.

A front end says what to run (:class:`StartRequest`: a preset, a target, where runs go) with which model
(``ModelSettings``) and how it watches (:class:`Watch`: events, progress lines, the new run directory, a stop
request, a step-mode controller, a person's answers when no model is configured). Everything else happens here,
once: the provider is built (retries, cache, the key kept out of every program's output), the approach's typed
parameters are made from its preset, the run directory is created (or opened, or forked), and the approach's
run is carried out on the one :class:`~genplan.engine.runs.run.Run` context by
:func:`~genplan.engine.runs.run.execute`. No front end knows which kind of approach it runs.

What else a front end reads or checks of the engine is in this package's themed modules (the TUI reaches the
engine through them alone, a contract in pyproject.toml): :mod:`.domains` (a domain directory and its task
sets), :mod:`.runs` (run directories, their events and answers), :mod:`.versions` (versions, overviews, edits,
counterexamples), :mod:`.pddl` (loading, parse checks, plan validation), :mod:`.presets` (approaches, presets,
the faithful toggles; :mod:`.faithful` has their help texts alone, without the approaches), :mod:`.settings`
(model settings), :mod:`.programs` (the sandbox, a program's evaluation, generalization ladders, the
counterexample search), :mod:`.reports` (batch reports, the paper's reproduction) and
:mod:`.variants` (costumed and anonymized domains). The CLI and engine/batch reach the engine through them too
(contracts in pyproject.toml). :mod:`.imports` replays published runs of other
systems (Silver et al., AutoToS, PDDLego+) as genplan runs, for ``genplan import``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.errors import GenplanError
from genplan.engine.llm.budget import Budget, BudgetMeter, Spend
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.runs import NotResumable, RunMeta, create, create_named, layout, read_meta_or_none
from genplan.engine.runs.account import RunAccount
from genplan.engine.runs.answers import spend_on_disk
from genplan.engine.runs.edits import EditRefused
from genplan.engine.runs.gateway import Decision
from genplan.engine.runs.outcome import RunReport
from genplan.engine.runs.run import ApproachParameters, NewRun, Run, RunOutcome, RunSetup, execute
from genplan.engine.runs.status import RunStatus
from genplan.engine.runs.store import RunInfo, RunStore, artifact_request_id, fork_run

if TYPE_CHECKING:
    from genplan.engine.approaches import Approach, EvaluationSettings, RunOptions
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.evaluation import TaskResult
    from genplan.engine.events import Event
    from genplan.engine.llm import ModelSettings, Provider
    from genplan.engine.llm.manual import Answerer
    from genplan.engine.pipeline.checks import TaskCheck
    from genplan.engine.pipeline.runner import Pipeline
    from genplan.engine.prompts import PromptLibrary
    from genplan.engine.runs.edits import EditRecord
    from genplan.engine.runs.gateway import Controller
    from genplan.engine.versions import VersionsOverview

__all__ = [
    "RUN_MODULES", "AlreadyFinished", "Decision", "RunAccount", "account",
    "EditRefused", "GenplanError", "NotResumable", "RunOutcome", "RunReport", "RunStatus", "StartRequest",
    "UnknownPreset", "Watch", "approach_of", "approach_of_request", "approach_of_run", "budget_meter", "check_strategy", "rerun_check",
    "edit", "fork",
    "fork_from", "fork_with_task", "list_runs", "message", "new_run", "overview", "pipeline", "prepare", "provider_for",
    "record_edit", "report", "rerun_program", "resumable", "resume", "resume_target", "start",
    "start_request",
]


NO_CACHE = "no_cache"  # run.json: the run skips the response cache (kept on resume)

_ENGINE = __name__.rsplit(".", 1)[0]
# What a run loads on its first use (the pipeline, the model client, the evaluation, the sandbox): a front end may
# import them ahead, while a person looks at its first screen.
RUN_MODULES = tuple(f"{_ENGINE}.{name}" for name in ("pipeline.runner", "llm.client", "evaluation", "sandbox.runner"))


# The approaches' registry imports every approach (the pipeline, the model client, the sandbox): it is loaded on
# first use, not when the API is imported, so that a front end's first screen (genplan-tui) does not wait for it.
def get_approach(name: str) -> Approach[Any]:
    from genplan.engine.approaches import get_approach as registered

    return registered(name)


def preset_owner(preset: str) -> tuple[Approach[Any], str] | None:
    from genplan.engine.approaches import preset_owner as owner

    return owner(preset)


def _capability(name: str) -> Any:
    from genplan.engine.approaches import Capability

    return Capability[name]


def _unknown_approach() -> type[Exception]:
    from genplan.engine.approaches import UnknownApproach

    return UnknownApproach


class UnknownPreset(GenplanError):
    """No registered approach has a preset of that name."""


class AlreadyFinished(NotResumable):
    """The run finished: there is nothing to go on with, and its record stays as it is."""


@dataclass
class Watch:
    """How a front end follows and drives a run; every part is optional."""

    subscriber: Callable[[Event], None] | None = None  # every event as it is published
    progress: Callable[[str], None] | None = None  # one line per step worth telling a person
    run_created: Callable[[Path], None] | None = None  # the run directory, before the run's first event
    stop_requested: Callable[[], bool] | None = None  # True: the run ends before its next model call
    controller: Controller | None = None  # step mode: decides on every request before it is sent
    manual_answer: Answerer | None = None  # no model configured: a person answers each request
    # manual_answer takes concurrent requests' questions at once and asks them in its own order (else one by one,
    # in whatever order the requests' threads come)
    manual_queues: bool = False


@dataclass(frozen=True)
class StartRequest:
    """A new run: the preset (which names its approach), what it runs on, where its directory goes."""

    preset: str
    target: str  # a domain directory, an AutoToS domain's name, a game
    runs_dir: Path
    parameters: Mapping[str, Any] = field(default_factory=dict)  # over the preset's
    # a pipeline approach's complete configuration (a config file, --faithful), instead of preset + parameters
    config: PipelineConfig | None = None
    run_name: str | None = None  # the directory's name (a batch fixes it); None: the approach's naming
    source: str | None = None  # the front end, for run.json (e.g. "genplan-tui")
    extra_meta: Mapping[str, Any] = field(default_factory=dict)  # more run.json fields (a batch's key)

    def __post_init__(self) -> None:
        if self.config is not None and self.parameters:  # they would be dropped without a word
            raise ValueError("StartRequest: a complete config, or parameters over the preset's, not both")


def provider_for(settings: ModelSettings, *, no_cache: bool = False, watch: Watch | None = None,
                 cache_dir: str | Path | None = None, meter: BudgetMeter | None = None) -> Provider:
    """The model, with the provider stack's retries and cache; with no model configured, the person answering
    through ``watch.manual_answer``. The API key is registered as a secret, so no program's output carries it
    back to the model or into a file. ``meter``: the run's budget, checked before every request to the model."""
    from genplan.engine.llm import make_provider
    from genplan.engine.sandbox.redact import register_secret

    provider = make_provider(settings, cache_dir=cache_dir, no_cache=no_cache,
                             manual_answer=watch.manual_answer if watch else None, meter=meter,
                             manual_one_at_a_time=not (watch is not None and watch.manual_queues))
    register_secret(settings.resolve_api_key())
    return provider


def approach_of(preset: str) -> tuple[Approach[Any], str]:
    """The approach that defines ``preset`` and the preset's own spelling (UnknownPreset otherwise)."""
    from genplan.engine.approaches.presets import ALIASES

    owner = preset_owner(ALIASES.get(preset, preset))
    if owner is None:
        known = [name for approach in _approaches() for name in approach.presets]
        raise UnknownPreset(f"unknown preset '{preset}' (known: {', '.join(known)})")
    return owner


def start_request(preset: str, target: str, runs_dir: Path, options: RunOptions | None = None, *,
                  evaluation: EvaluationSettings | None = None, parameters: Mapping[str, Any] | None = None,
                  source: str | None = None) -> tuple[StartRequest, list[str]]:
    """A new run of ``preset`` on ``target`` (a domain directory, a game) with the front end's run options, the
    same call for every approach: the approach takes the options it has (its registry's ``take_options``), one
    that evaluates itself is asked to evaluate as ``evaluation`` says (its ``self_evaluation``; None: no
    evaluation), and ``parameters`` go over both (a person's settings of the preset). An approach whose selected
    program is evaluated after the run leaves that to the front end (``presets.evaluates_itself``). Returns the
    request and the options the approach had no use for (the front end says so)."""
    from genplan.engine.approaches import EvaluationSettings, RunOptions

    approach, name = approach_of(preset)
    taken, unused = approach.take_options(options or RunOptions())
    if approach.self_evaluation is not None:
        taken = {**taken, **approach.self_evaluation(evaluation or EvaluationSettings(enabled=False))}
    request = StartRequest(name, target, Path(runs_dir), parameters={**taken, **(parameters or {})}, source=source)
    return request, unused


def prepare(request: StartRequest) -> tuple[Approach[Any], ApproachParameters, NewRun]:
    """What the request runs, checked before anything is made: its approach, its typed parameters and the new run's
    record (GenplanError, one line, for an unknown preset, a bad parameter, a target the approach cannot run on)."""
    if request.config is not None:  # a complete configuration: its own name (a config file's "F5-3*")
        from genplan.engine.approaches.presets import check_config

        approach, parameters = get_approach(check_config(request.config).approach), request.config
    else:
        approach, preset = approach_of(request.preset)
        parameters = approach.parameters({**approach.presets[preset], "preset": preset, **request.parameters})
    return approach, parameters, approach.new_run(request.target, parameters)


def new_run(request: StartRequest, settings: ModelSettings,
            prepared: tuple[Approach[Any], ApproachParameters, NewRun] | None = None
            ) -> tuple[RunStore, Approach[Any], ApproachParameters]:
    """The new run's directory (with its run.json), its approach and its typed parameters."""
    approach, parameters, record = prepared or prepare(request)
    meta = {**record.meta, "model": settings.to_dict(), **request.extra_meta}
    if approach.can(_capability("DOMAIN_DIR")) and request.target and Path(request.target).is_dir():
        from genplan.engine.api.fingerprint import KEY, fingerprint_of

        # what the run is on, so that no other domain (or this one changed) can continue it
        meta.setdefault(KEY, fingerprint_of(request.target))
    if request.source and "source" not in meta:  # an AutoToS run's "source" says where its instances come from
        meta["source"] = request.source
    if request.run_name is not None or record.stem is None:
        store = create(request.runs_dir, meta, run_id=request.run_name)
    else:
        store = create_named(request.runs_dir, record.stem, meta)
    return store, approach, parameters


def start(request: StartRequest, settings: ModelSettings, watch: Watch | None = None, *, no_cache: bool = False,
          prompts: PromptLibrary | None = None, cache_dir: str | Path | None = None, budget: Budget | None = None,
          budget_parent: BudgetMeter | None = None) -> RunOutcome:
    """A new run of the request's preset, carried out to its end (a stop is an end; an error is raised after
    the run directory says so). ``budget``: the run's caps (a request that would pass one is not sent, and the run
    stops with the reason "budget"); ``budget_parent``: a batch's meter the run's requests count against too."""
    watch = watch or Watch()
    prepared = prepare(request)
    if no_cache:  # recorded, so that a resume skips the cache too
        request = replace(request, extra_meta={**request.extra_meta, NO_CACHE: True})
    meter = budget_meter(budget, settings, parent=budget_parent)
    provider = provider_for(settings, no_cache=no_cache, watch=watch, cache_dir=cache_dir, meter=meter)
    store, approach, parameters = new_run(request, settings, prepared)
    return _carry_out(store, approach, request.target, parameters, provider, settings, watch, prompts, meter)


def budget_meter(budget: Budget | None, settings: ModelSettings, *, spent: Spend | None = None,
                 parent: BudgetMeter | None = None) -> BudgetMeter | None:
    """The meter a run's requests are checked against (None: no cap, here or in a batch). A cost cap needs the
    model's price: BudgetRefused (one line) when none is known, never a guess."""
    from genplan.engine.api.budget import check_budget

    if (budget is None or not budget.is_set) and parent is None:
        return None
    check_budget(budget, settings)
    return BudgetMeter(budget or Budget(), spent or Spend(), parent=parent)


def approach_of_request(request: StartRequest) -> Approach[Any]:
    """The approach a start request runs (UnknownPreset, one line, otherwise)."""
    return get_approach(request.config.approach) if request.config is not None else approach_of(request.preset)[0]


def approach_of_run(run_dir: Path) -> Approach[Any] | None:
    """The approach that made a run (None: no run there, or an approach this version does not know)."""
    meta = read_meta_or_none(Path(run_dir))
    if meta is None:
        return None
    try:
        return _approach_of(meta)
    except _unknown_approach():
        return None


def _approach_of(meta: RunMeta) -> Approach[Any]:
    # a pipeline run of before names its approach in its config, or nowhere
    return get_approach(meta.approach or "stein")


def resumable(run_dir: Path) -> tuple[Approach[Any], RunMeta]:
    """The approach and record of a run that can go on (NotResumable, one line, otherwise)."""
    _store, approach, meta = _open_resumable(run_dir)
    return approach, meta


def _open_resumable(run_dir: Path, *, forking: bool = False) -> tuple[RunStore, Approach[Any], RunMeta]:
    """The run, its approach and record, when it can go on (NotResumable, one line, otherwise). ``forking``: a new
    run continues it from an edit, which an imported run allows when its approach can tell from its record what
    it ran (a PDDLego+ trial replayed in the real game: the fork replays the kept calls there and asks the model
    after the edit); going on with an import itself would only replay its log again."""
    try:
        store = RunStore.open(Path(run_dir))
    except FileNotFoundError:
        raise NotResumable(f"{run_dir}: not a run directory (no {layout.META})") from None
    meta = RunMeta.from_dict(store.meta(), run_id=store.path.name)
    try:
        approach = _approach_of(meta)
    except _unknown_approach() as exc:
        raise NotResumable(f"{store.path}: {exc}") from None
    if meta.extra.get("imported_from") or meta.extra.get("import"):
        if not forking:
            raise NotResumable(f"{store.path}: an imported run; it opens and replays, but no model made it here")
        try:
            approach.reopen(store.meta())
        except GenplanError as exc:
            raise NotResumable(f"{store.path}: an imported run that cannot be continued from an edit: {exc}") from None
    if not approach.can(_capability("RESUME")):
        raise NotResumable(f"{store.path}: a run of {approach.name}, which cannot be continued")
    refused = approach.refuse_resume(store.meta()) if approach.refuse_resume is not None else None
    if refused:  # a run of an earlier genplan whose answers today's approach would not ask for
        raise NotResumable(f"{store.path}: {refused}")
    return store, approach, meta


def resume(run_dir: Path, settings: ModelSettings, watch: Watch | None = None, *, no_cache: bool = False,
           prompts: PromptLibrary | None = None, domain_dir: Path | None = None,
           cache_dir: str | Path | None = None, memory_gib: float | None = None, budget: Budget | None = None,
           budget_parent: BudgetMeter | None = None) -> RunOutcome:
    """Go on with an unfinished (killed, stopped, failed) run, or a fork: every answer on disk is taken from
    there, the rest is asked (``budget``, ``budget_parent``: as for :func:`start`; what the run spent before
    counts against its caps, so a run stopped at its budget goes on with a higher one). ``domain_dir``: the front
    end's domain directory, which a run on a domain directory goes on with instead of the one its run.json names (a
    run copied with its domain); refused (NotResumable, naming both) when it is another domain, or the run's own
    changed since (``api.fingerprint``). A finished run is refused (AlreadyFinished). Nothing in the run directory
    is written before these checks. ``no_cache``: the response cache is skipped, as it is anyway for a run started
    with it (run.json ``no_cache``, recorded). ``memory_gib``: the address space of its sandboxed searches from now
    on, for an approach that takes it (AutoToS: a run that ran out of memory goes on with more; recorded in
    run.json); ignored by the others (:func:`unused_options`)."""
    watch = watch or Watch()
    store, approach, _ = _open_resumable(run_dir)
    target, parameters = _resume_target(store, approach, domain_dir)  # refused before anything is marked
    if memory_gib is not None:
        from genplan.engine.approaches import RunOptions

        parameters = _with_options(approach, parameters, RunOptions(memory_gib=memory_gib))
    recorded_no_cache = bool(store.meta().get(NO_CACHE))
    # the budget counts what the run spent in its earlier sessions too (its answers on disk)
    meter = budget_meter(budget, settings, spent=spend_on_disk(store.path), parent=budget_parent)
    provider = provider_for(settings, no_cache=no_cache or recorded_no_cache, watch=watch, cache_dir=cache_dir,
                            meter=meter)
    changes = {NO_CACHE: True} if no_cache and not recorded_no_cache else {}
    return _carry_out(store, approach, target, parameters, provider, settings, watch, prompts, meter,
                      meta_changes=changes)


def _with_options(approach: Approach[Any], parameters: ApproachParameters, options: RunOptions) -> ApproachParameters:
    """The parameters with what ``options`` set of them (those the approach takes); the approach records what it
    runs with in run.json once it holds the run (so that a later resume goes on with them too)."""
    taken, _unused = approach.take_options(options)
    if not taken:
        return parameters
    changed: ApproachParameters = approach.parameters({**parameters.to_dict(), **taken})
    return changed


def unused_options(approach_name: str, options: RunOptions) -> list[str]:
    """The names of the run options given that an approach has no use for (a front end warns about them)."""
    return get_approach(approach_name).take_options(options)[1]


def resume_target(run_dir: Path, domain_dir: Path | None = None) -> str:
    """What :func:`resume` would go on with (a domain directory, an AutoToS domain, a game), checked as it checks
    it: NotResumable (one line) when the run cannot go on (finished: AlreadyFinished), its domain directory no
    longer exists, or ``domain_dir`` is another domain than the run's (or its own, changed). Writes nothing."""
    store, approach, _ = _open_resumable(run_dir)
    return _resume_target(store, approach, domain_dir)[0]


def _resume_target(store: RunStore, approach: Approach[Any], domain_dir: Path | None) -> tuple[str, ApproachParameters]:
    target, parameters = approach.reopen(store.meta())
    if domain_dir is not None and approach.can(_capability("DOMAIN_DIR")):
        target = str(domain_dir)
    if not target:
        raise NotResumable(f"{store.path}: its run.json does not say what it ran on")
    if approach.can(_capability("DOMAIN_DIR")) and _names_directory(approach, target) and not Path(target).is_dir():
        given = "the domain directory given" if domain_dir is not None else "its domain directory"
        raise NotResumable(f"{store.path}: {given} {target} does not exist; resume the run on a domain directory "
                           "that does (resume(domain_dir=...); `genplan run DOMAIN_DIR --resume RUN`; in the TUI, "
                           "`genplan-tui DOMAIN_DIR --run RUN`)")
    meta = store.meta()
    if approach.can(_capability("DOMAIN_DIR")) and Path(target).is_dir():
        from genplan.engine.api.fingerprint import mismatch

        why = mismatch(meta, store.path, Path(target))
        if why is not None:
            raise NotResumable(f"{store.path}: not resumed: {why}; nothing was changed (resume it on its own domain, "
                               "or start a new run)")
    if RunStatus.parse(meta.get("status")) == RunStatus.FINISHED:
        raise AlreadyFinished(f"{store.path}: finished; nothing to resume, nothing was changed (its summary: "
                              "summary.json; look at it with `genplan export` or `genplan-tui --run`)")
    return target, parameters


def _names_directory(approach: Approach[Any], target: str) -> bool:
    """Whether a run's target is a directory: always for an approach that writes programs; for another that runs
    on domain directories (AutoToS), when it is written as a path (its own domains are names: "24game")."""
    path = Path(target)
    return approach.can(_capability("PROGRAMS")) or path.is_absolute() or len(path.parts) > 1


def fork(run_dir: Path, relative: str, kind: str, text: str, root: Path | None = None,
         extra_meta: Mapping[str, Any] | None = None) -> Path:
    """A new run (beside ``run_dir`` unless ``root`` is given) that keeps every answer before the one that made
    the file ``relative`` and takes the person's edit ``text`` as that answer; :func:`resume` carries it out.
    An unchanged text checks the version again. ``relative`` may be an edit, or an edit of an edit: the answer
    replaced is the one that wrote the first version of its lineage, and the fork names the version as its
    source does, with the same ✎ mark (engine.runs.edits.ForkNames)."""
    from genplan.engine.runs.edits import fork_meta

    source, approach, request_id, answer = _fork_point(run_dir, relative, kind, text)
    meta = {"edited_version": relative, **fork_meta(source.path, relative), **(extra_meta or {})}
    store = fork_run(source, root or source.path.parent, request_id, answer, meta, stem=_stem_of(approach, source))
    return store.path


def check_fork(run_dir: Path, relative: str, kind: str) -> None:
    """Whether an edit of ``relative`` (a version of ``kind``) can continue ``run_dir`` in a new run, checked as
    :func:`fork` checks it, before a person types the edit: NotResumable, or another GenplanError (one line:
    an imported run, a file no answer wrote, a PDDLego+ trial not played in the real game), if not."""
    text = layout.in_run(Path(run_dir), relative).read_text(encoding="utf-8")
    _fork_point(run_dir, relative, kind, text)


def _fork_point(run_dir: Path, relative: str, kind: str, text: str) -> tuple[RunStore, Approach[Any], int, str]:
    """The run a fork continues, its approach, the request whose answer the edit replaces, and that answer."""
    from genplan.engine.runs.edits import answer_version

    source, approach, _ = _open_resumable(run_dir, forking=True)
    if not approach.can(_capability("FORK")) or approach.edited_answer is None:
        raise NotResumable(f"{run_dir}: a run of {approach.name} does not continue from an edited file")
    answered = answer_version(source.path, relative)
    answer = approach.edited_answer(source.path, answered, kind, text)
    try:
        request_id = artifact_request_id(source, answered)
    except FileNotFoundError as exc:
        raise NotResumable(str(exc)) from None
    return source, approach, request_id, answer


def fork_from(run_dir: Path, relative: str, root: Path | None = None, text: str | None = None) -> Path:
    """A new run that continues ``run_dir`` from its version ``relative`` as that file reads now (a person's
    edit, made with :func:`edit`, in the TUI or by hand), or with ``text`` in its place for a file of a run that
    keeps no edits of its own (an AutoToS function version, a PDDLego+ trial's PDDL file): ``genplan fork
    --from``, the TUI's ctrl+r. EditRefused (one line) for no run, no such version, a text for a version a person
    edits (edit it first); NotResumable for a run that cannot be continued."""
    from genplan.engine.runs.edits import check_version, continued_kind

    if not layout.is_run_dir(Path(run_dir)):
        raise EditRefused(f"{run_dir}: not a run directory (no {layout.META})")
    kind = continued_kind(Path(run_dir), relative)
    if kind is None:
        kind = check_version(Path(run_dir), relative)
        if text is not None:
            raise EditRefused(f"{relative}: save the new text as a version first (genplan edit), then continue "
                              "from that version")
    if text is None:
        text = layout.in_run(Path(run_dir), relative).read_text(encoding="utf-8")
    return fork(run_dir, relative, kind, text, root)


def edit(run_dir: Path, relative: str, text: str, *, origin: str = "tui") -> EditRecord | None:
    """A person's ``text`` for the run's version ``relative`` (a strategy, reflection, program or NL description),
    kept as a new version edited from it, on the run's record; None when the text is unchanged (no version is
    made). EditRefused (one line) for no run, no such version, an empty text."""
    from genplan.engine.runs.edits import save_edit

    return save_edit(Path(run_dir), relative, text, origin=origin)


def _stem_of(approach: Approach[Any], source: RunStore) -> str | None:
    """The stem a new run of the source's target and parameters is named with (AutoToS: ``autotos-<domain>``), so
    that a fork is named as its source; None (a plain run id) when the approach names none or cannot say."""
    try:
        return approach.new_run(*approach.reopen(source.meta())).stem
    except GenplanError:
        return None


def fork_with_task(run_dir: Path, program_file: str, task_file: Path) -> Path:
    """A fork of ``run_dir`` that keeps every answer up to the program version ``program_file`` and, when carried
    out, checks that version with ``task_file`` among its debug tasks, so that code debugging goes on with the
    normal feedback on it ("continue with this task", e.g. a counterexample's)."""
    from genplan.engine.counterexample.record import attach_tasks

    text = layout.in_run(Path(run_dir), program_file).read_text(encoding="utf-8")
    path = fork(run_dir, program_file, "program", text)
    attach_tasks(RunStore.open(path), [Path(task_file)])
    return path


def pipeline(domain_dir: DomainDir, config: PipelineConfig, provider: Provider, store: RunStore, *,
             controller: Controller | None = None, prompts: PromptLibrary | None = None, reasoning: bool = False,
             subscribers: tuple[Callable[[Event], None], ...] = ()) -> Pipeline:
    """A pipeline approach's context on an existing run directory, for a caller that drives it itself (a
    strategy check, tests, benchmarks): ``.run()`` carries it out."""
    from genplan.engine.pipeline.layer import PipelineLoop
    from genplan.engine.pipeline.runner import Pipeline

    approach = get_approach(config.approach)
    if not isinstance(approach.run, PipelineLoop):
        raise _unknown_approach()(f"{approach.name} is not an approach that writes programs")
    setup = RunSetup(provider, controller=controller, prompts=prompts, reasoning=reasoning, subscribers=subscribers)
    run = Run(store, setup, approach=approach, target=str(domain_dir.path), parameters=config)
    return Pipeline(run, domain_dir, config, approach, approach.run.loop)


# ---------------------------------------------------------------------------------------------- reading and checking
def list_runs(runs_dir: Path) -> list[RunInfo]:
    """The runs in a directory, newest first (a directory that holds none: [])."""
    return RunStore.list_runs_in(Path(runs_dir))


def overview(run_dir: Path) -> VersionsOverview:
    """A run's versions and their results on the debug tasks, as the engine recorded them."""
    from genplan.engine.versions import run_overview

    return run_overview(Path(run_dir))


def record_edit(run_dir: Path, relative: str, old_text: str, new_text: str) -> EditRecord:
    """A person's edit of a run's file, kept as a new version beside it and in the run's edit log."""
    from genplan.engine.runs.edits import record_edit as record

    return record(Path(run_dir), relative, old_text, new_text)


def check_strategy(source_run: Path, strategy_file: str, text: str, domain_dir: Path, settings: ModelSettings,
                   watch: Watch | None = None, *, no_cache: bool = False) -> RunReport:
    """Plan validation of one strategy text, in a new run beside ``source_run`` that keeps its NL descriptions:
    the model plans every debug task by the strategy, the validator checks the plans (no code is written). Its
    report: run directory, status, debug tasks solved of all."""
    from genplan.engine import strategy_check

    watch = watch or Watch()
    provider = provider_for(settings, no_cache=no_cache, watch=watch)
    store = strategy_check.prepare(Path(source_run), strategy_file, Path(domain_dir))
    if watch.run_created is not None:
        watch.run_created(store.path)
    check = strategy_check.run_check(store, text, provider, controller=watch.controller, subscriber=watch.subscriber,
                                     reasoning=bool(getattr(settings, "reasoning", False)))
    return RunReport(Path(check.run_dir), RunStatus.parse(check.status),
                     {"debug_solved": check.solved, "debug_total": check.total}, account(Path(check.run_dir)))


RERUN_DEBUG_ORDERINGS = 1  # a rerun on the debug tasks tries the file's order, as the first debugging check


def rerun_program(source: str, domain_dir: Path, task_set: str, run_dir: Path | None,
                  progress: Callable[[TaskResult, int, int], None], cancel: threading.Event | None = None,
                  record: str | None = None) -> str | None:
    """Run a program on every task of ``task_set`` ("debug" or "eval") as the run it comes from checked its
    programs (its time limit, function name and its approach's feedback style; a program of no run: F5-3's),
    calling ``progress(result, done, total)`` after each task. ``cancel`` set: it stops after the task under way.
    ``record``: the program's file in ``run_dir``; a person's edit rerun on every debug task has its results put on
    the run's record (engine.runs.edits.record_rerun). Returns the results file written, else None."""
    from genplan.engine.api.presets import run_config
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.evaluation import DEFAULT_ORDERINGS, Evaluator, load_tasks
    from genplan.engine.pddl import load_domain
    from genplan.engine.runs.edits import record_rerun
    from genplan.engine.sandbox import Limits, Program

    config = run_config(run_dir)
    directory = DomainDir.open(Path(domain_dir))
    domain = load_domain(directory.domain_file)
    paths = directory.eval_tasks() if task_set == "eval" else directory.debug_tasks()
    tasks = load_tasks(domain, paths, directory.typed_objects, root=directory.path)
    style = get_approach(config.approach).feedback_style
    program = Program.from_source(source, functions=(config.function_name,))
    orderings = DEFAULT_ORDERINGS if task_set == "eval" else RERUN_DEBUG_ORDERINGS
    done: list[TaskResult] = []

    def each(result: TaskResult, count: int, total: int) -> None:
        done.append(result)
        progress(result, count, total)

    with Evaluator(domain, tasks, limits=Limits(time_limit=config.program_timeout_s), style=style) as evaluator:
        evaluator.evaluate(program, orderings=orderings, progress=each, cancel=cancel)
    if record is None or run_dir is None or task_set != "debug" or len(done) != len(tasks):
        return None  # the eval tasks, or a rerun cancelled before its end: nothing to compare with the run's checks
    return record_rerun(run_dir, record, [rerun_check(result).to_dict() for result in done])


def rerun_check(result: TaskResult) -> TaskCheck:
    """One task's result of a rerun as the pipeline records a check (results/*.json) and the rerun screen shows
    it: the failing ordering's plan and output, else the file order's."""
    from genplan.engine.pipeline.checks import TaskCheck

    shown = result.failure or (result.orderings[0] if result.orderings else None)
    outcome = shown.outcome if shown is not None else None
    details: dict[str, Any] = {}
    if outcome is not None and outcome.stdout:
        details["stdout"] = outcome.stdout
    if shown is not None and shown.ordering:
        details["ordering"] = shown.ordering
    return TaskCheck(task=result.name.split("/")[-1], solved=result.solved, kind=result.error_kind,
                     message=result.message,
                     output=list(outcome.plan) if outcome is not None and outcome.plan is not None else None,
                     runtime=result.runtime if result.orderings else None, details=details)


# ---------------------------------------------------------------------------------------------------- helpers
def _carry_out(store: RunStore, approach: Approach[Any], target: str, parameters: ApproachParameters, provider: Provider,
               settings: ModelSettings, watch: Watch, prompts: PromptLibrary | None,
               meter: BudgetMeter | None = None, meta_changes: Mapping[str, Any] | None = None) -> RunOutcome:
    setup = RunSetup(
        provider, model=settings.to_dict(), controller=watch.controller,
        subscribers=(watch.subscriber,) if watch.subscriber is not None else (),
        stop_requested=watch.stop_requested, run_created=watch.run_created, prompts=prompts,
        reasoning=bool(getattr(settings, "reasoning", False)), budget=meter,
    )
    if watch.progress is not None:
        setup.progress = watch.progress
    run = Run(store, setup, approach=approach, target=target, parameters=parameters)

    def body(run: Run) -> RunOutcome:
        if meta_changes:  # recorded once the run is held (its lock), before the approach goes on
            run.update_meta(**meta_changes)
        return approach.run(run)

    outcome = execute(run, body)
    if isinstance(outcome.value, BaseException):  # recorded in the run directory; the front end is told too
        raise outcome.value
    return outcome


def report(outcome: RunOutcome) -> RunReport:
    """What a front end prints of a run's end: its directory and status, the approach's summary (the keys
    ``--json`` has always printed) and the run's account, which is what a front end shows."""
    shown = outcome.report if outcome.report is not None else outcome.summary or {}
    run_dir = Path(str(outcome.run_dir))
    return RunReport(run_dir, outcome.status, dict(shown), account(run_dir))


def account(run_dir: Path) -> RunAccount:
    """The run's account (engine/account.py): who made it, how it ended in words and numbers, its calls by where
    their answers came from, its notices and versions; derived from the run directory, so a run of any age has
    one. Every front end shows this and decides nothing by itself."""
    from genplan.engine.account import account_of

    return account_of(Path(run_dir))


def message(outcome: RunOutcome) -> str:
    """The one line that says why a run ended as it did ("" when it simply finished)."""
    data = outcome.event.data
    return str(data.get("error") or (data.get("message") if outcome.status != RunStatus.FINISHED else "") or "")




def _approaches() -> list[Approach[Any]]:
    from genplan.engine.approaches import APPROACHES

    return list(APPROACHES.values())
