"""Importing published runs of other systems, for a front end: one pair of functions per kind of log.

``open_<kind>`` reads and checks what the person named (the log, the domain or data it belongs to) before
anything is made, so a front end can report it and say what it is about to replay; ``import_<kind>`` replays
the log's recorded answers as the model's through genplan's own loop of that approach, in a new run directory
made here, and returns what a front end prints of it. Every problem with the input is an :class:`ImportFailed`
(one line). The front ends never assemble an imported run themselves (a contract in pyproject.toml).

- Silver et al.'s released cache (one conversation): replayed as genplan's Sil baseline on a domain directory.
- AutoToS's published logs: replayed by the AutoToS loop, evaluated by genplan (``engine/autotos/session``).
- PDDLego+ / PlanGen trial logs: replayed in the game (``engine/pddlego/importer``) and listed in ``OUT/batch.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.engine.api import Watch
from genplan.engine.errors import GenplanError
from genplan.engine.runs.status import RunStatus

if TYPE_CHECKING:
    from genplan.engine.autotos.domains import SearchDomain
    from genplan.engine.autotos.logfile import AutoToSLog
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.pddlego.importer import ImportResult
    from genplan.engine.silver.replay import SilverConversation

__all__ = ["AutoToSSource", "ImportFailed", "SilverImport", "SilverSource", "import_autotos", "import_pddlego",
           "import_silver", "open_autotos", "open_silver"]

# what a Silver import reports of its run (``genplan import silver --json``)
SILVER_KEYS = ("run_dir", "selected_program", "llm_calls", "debug_solved", "debug_total")


class ImportFailed(GenplanError):
    """The log, or what it belongs to, cannot be imported (one line: which file and why)."""


# ---------------------------------------------------------------------------------------------------- Silver et al.
@dataclass(frozen=True)
class SilverSource:
    """One conversation of Silver et al.'s cache and the domain directory it is replayed on."""

    conversation: SilverConversation
    domain: DomainDir

    @property
    def answers(self) -> int:
        """How many recorded answers the conversation holds."""
        return len(self.conversation.responses)

    @property
    def mismatch(self) -> str | None:
        """A warning when the conversation's environment belongs to another domain (None: it fits, or unknown)."""
        expected = self.conversation.domain
        if expected is None or expected in (self.domain.name, self.domain.path.name):
            return None
        return f"{self.conversation.environment} corresponds to '{expected}', not '{self.domain.name}'"


@dataclass(frozen=True)
class SilverImport:
    """How a replayed conversation ended: its run's status and what ``genplan import silver`` prints of it."""

    status: RunStatus
    summary: dict[str, Any]  # SILVER_KEYS
    answers: int  # recorded answers in the conversation


def open_silver(conversation_dir: Path, domain_dir: Path) -> SilverSource:
    """The conversation folder (``<env>_<seed>_<exp>/`` with ``<k>-response.txt``) and the domain directory."""
    from genplan.engine.domainlib import DomainDir, DomainDirError
    from genplan.engine.silver.replay import SilverLogError, read_conversation

    try:
        return SilverSource(read_conversation(conversation_dir), DomainDir.open(domain_dir))
    except (SilverLogError, DomainDirError) as exc:
        raise ImportFailed(str(exc)) from None


def import_silver(source: SilverSource, runs_dir: Path, *, split_seed: int = 1) -> SilverImport:
    """The conversation's answers given back in order as the model's to genplan's Sil baseline, while genplan's
    checks on the domain's debug tasks decide what is asked next; a new run under ``runs_dir`` records it
    (run.json's ``import`` says where the answers come from, ``import_unused_answers`` how many were left)."""
    from genplan.engine.api import pipeline
    from genplan.engine.approaches.presets import load_preset
    from genplan.engine.runs import create
    from genplan.engine.silver.replay import SilverReplayProvider

    conversation, domain = source.conversation, source.domain
    # one recorded answer per request: an extraction retry would take the next program as a retry's answer
    config = load_preset("Sil").with_changes(split_seed=split_seed, extraction_retries=0)
    provider = SilverReplayProvider(conversation)
    store = create(Path(runs_dir), {
        "domain_dir": str(domain.path.resolve()),
        "config": config.to_dict(),
        "model": {"model": f"replay:{conversation.experiment}"},
        "import": {"kind": "silver", "source": str(conversation.path.resolve()),
                   "environment": conversation.environment, "seed": conversation.seed,
                   "experiment": conversation.experiment, "answers": len(conversation.responses)},
    })
    result = pipeline(domain, config, provider, store).run()
    store.update_meta(import_unused_answers=provider.unused)
    data = result.to_dict()
    return SilverImport(RunStatus(result.status), {key: data[key] for key in SILVER_KEYS}, source.answers)


# --------------------------------------------------------------------------------------------------------- AutoToS
@dataclass(frozen=True)
class AutoToSSource:
    """A published AutoToS log, the domain it is about (with the data folder's instances) and whether the
    partial soundness test is on."""

    log: AutoToSLog
    domain: SearchDomain
    partial_soundness: bool

    @property
    def calls(self) -> int:
        """How many model calls the log records."""
        return self.log.calls


def _release_data(log: Path) -> Path | None:
    """The release's data folder when ``log`` lies in its clean_logs/ tree."""
    for parent in log.resolve().parents:
        if parent.name == "clean_logs":
            return parent.parent
    return None


def open_autotos(log_path: Path, *, domain: str | None = None, data: Path | None = None,
                 partial_soundness: bool | None = None) -> AutoToSSource:
    """The log (``clean_logs/<domain>/<model>-{val,noval}_logs/<name>.txt``), its domain (``domain``, or the
    log's folder's) loaded from ``data`` (default: the folder holding the log's clean_logs/), and the partial
    soundness test (``None``: as the log's folder says, val = on)."""
    from genplan.engine.autotos.domains import DataError, load_domain
    from genplan.engine.autotos.logfile import LogFormatError, parse_log

    log_path = Path(log_path)
    try:
        log = parse_log(log_path)
    except LogFormatError as exc:
        raise ImportFailed(str(exc)) from None
    domain_name = domain or log.domain
    if domain_name is None:
        raise ImportFailed(f"{log_path}: cannot tell the domain from the path; give --domain")
    folder = Path(data) if data else _release_data(log_path)
    if folder is None:
        raise ImportFailed("no data folder: give --data DIR (the AutoToS data with twentyfourgame/, blocksworld/, ...)")
    try:
        loaded = load_domain(domain_name, folder)
    except DataError as exc:
        raise ImportFailed(str(exc)) from None
    pst = bool(log.partial_soundness) if partial_soundness is None else partial_soundness
    return AutoToSSource(log, loaded, pst)


def import_autotos(source: AutoToSSource, runs_dir: Path, *, evaluate: bool = True, eval_limit: int | None = None,
                   eval_timeout: float = 600.0, search_timeout: float = 600.0, strict: bool = False,
                   hash_seed: int = 0, memory_gib: float = 2.0, released_instances: bool = True,
                   release_rules: bool = True, clock: str | None = None, watch: Watch | None = None) -> dict[str, Any]:
    """The log's answers given back in order while genplan's unit tests decide what is asked next, in a new run
    under ``runs_dir`` (``autotos-<domain>-<log>-<time>``); its summary (what ``genplan autotos`` reports, and
    the log's own numbers: ``log_calls``, ``log_success``, ...; ``divergences`` and ``wanted_more`` say where the
    replay left the log's path). ``strict``: solutions validated by genplan's checks alone, not as the release
    did; ``released_instances``: evaluated on the instances the release's runs used (else the data folder's);
    ``release_rules``: the release's extraction and soundness test (else genplan's stricter ones steer the replay;
    either way ``findings`` lists what genplan's goal check found); ``clock``: what the time limits count ("cpu":
    the sandboxed process's CPU seconds, so that a busy machine gives the same verdicts; "wall"; None: the
    import's default, session.log_settings's "cpu").
    ``watch.subscriber`` gets every event, ``watch.progress`` one line per event worth one."""
    from genplan.engine.autotos.executor import SandboxExecutor
    from genplan.engine.autotos.session import import_log, log_settings
    from genplan.engine.sandbox.limits import GIB

    watch = watch or Watch()
    settings = log_settings(source.log, partial_soundness=source.partial_soundness, evaluate=evaluate,
                            eval_limit=eval_limit, eval_timeout=eval_timeout, soundness_timeout=search_timeout,
                            release_validation=not strict, extraction="release" if release_rules else "genplan",
                            goal_reached_check=not release_rules, memory_as_timeout=release_rules,
                            **({} if clock is None else {"clock": clock}))
    executor = SandboxExecutor(hash_seed=hash_seed, memory_bytes=int(memory_gib * GIB))
    try:
        return import_log(source.log, source.domain, executor, Path(runs_dir), settings, watch.subscriber,
                          released_instances=released_instances, progress=watch.progress)
    finally:
        executor.close()


# ------------------------------------------------------------------------------------------------ PDDLego+ / PlanGen
def import_pddlego(log_path: Path, out: Path, *, environment: str = "auto", seed: int | None = None,
                   planner: str = "auto", ties: str = "logged", release_rules: bool = True) -> ImportResult:
    """One trial log replayed into a new run under ``out/runs/``, listed in ``out/batch.json`` (an entry of the
    same condition and trial replaced), so that a report of ``out`` counts it. ``environment``: "auto", "real" or
    "logged"; ``planner``: "auto", "fast-downward" or "builtin"; ``ties``: "logged" or "genplan";
    ``release_rules``: the release's rules where its code differed from genplan's loop (else genplan's own)
    (engine/pddlego/importer.import_trial and release.py say what they do)."""
    from genplan.engine.pddlego.batch import record_import
    from genplan.engine.pddlego.environment import EnvironmentUnavailable
    from genplan.engine.pddlego.importer import ImportError_, import_trial
    from genplan.engine.pddlego.release import GENPLAN, RELEASE
    from genplan.engine.pddlego.trial_log import TrialLogError

    try:
        result = import_trial(log_path, Path(out) / "runs", environment=environment, seed=seed, planner=planner,
                              ties=ties, rules=RELEASE if release_rules else GENPLAN)
    except (TrialLogError, ImportError_, EnvironmentUnavailable) as exc:
        raise ImportFailed(str(exc)) from None
    record_import(Path(out), result)
    return result
