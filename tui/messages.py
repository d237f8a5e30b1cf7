"""Messages that carry results of background work (threads, workers) to the UI thread."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:  # only for the checker: the messages module loads before the engine does
    from genplan.engine.api import RunAccount, RunReport
    from genplan.engine.api.runs import RunInfo
    from genplan.engine.api.settings import ChatRequest, ModelSettings
    from genplan.engine.api.versions import VersionsOverview
    from genplan.tui.artifacts import Version
    from genplan.tui.config import RunPrefs
    from genplan.tui.domain_info import DomainInfo


class WorkDone(Message):
    """A result of background work (a worker, the engine's threads, the file watcher) for a controller: the
    app hands each one to the controller that handles its type (GenplanApp.route)."""


@dataclass
class RerunRow:
    """One task's result of a program rerun, as the rerun screen shows it (tui/rerun.py makes them)."""

    task: str
    solved: bool
    kind: str | None
    message: str
    output: list[str] | None  # the plan of the failing ordering, else of the file order
    runtime: float | None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class DomainLoaded(WorkDone):
    info: DomainInfo


@dataclass
class RunsFound(WorkDone):
    """The runs, before their versions are read (the Runs view shows them at once); RunsListed follows."""

    runs: list[RunInfo]
    overviews: list[VersionsOverview]  # one per run
    listing: int = 0  # which load_runs found them (an older listing that ends late is dropped)


@dataclass
class RunsListed(WorkDone):
    runs: list[RunInfo]
    versions: list[Version]
    overviews: list[VersionsOverview]  # one per run
    arranged: dict[str, list[tuple[str, str | None, Version]]]  # run id -> versions_tree.arrange(...) (in the worker)
    listing: int = 0


@dataclass
class SettingsLoaded(WorkDone):
    settings: ModelSettings
    prefs: RunPrefs
    error: str | None


@dataclass
class FileChanged(WorkDone):
    path: Path
    deleted: bool = False


@dataclass
class StepRequested(WorkDone):
    """Step mode: the pipeline holds a request until the person decides (resolve ``future`` with a Decision)."""

    request_id: int
    request: ChatRequest
    future: Future


@dataclass
class AnswerRequested(WorkDone):
    """Manual provider: a person answers the request (resolve ``future`` with the text, or None to stop)."""

    request: ChatRequest
    future: Future
    request_id: int | None = None  # the run's id of the request, when the engine's gateway sent it


@dataclass
class RunCreated(WorkDone):
    run_dir: Path


@dataclass
class RunProgress(WorkDone):
    """A line an own-loop run tells a person (preparing the tasks, the run directory, ...)."""

    line: str


@dataclass
class PipelineEnded(WorkDone):
    result: RunReport | None  # the run's report (engine/api.report), of any approach
    error: str | None


@dataclass
class RerunProgress(WorkDone):
    job: int
    index: int
    total: int
    check: RerunRow
    task_path: Path


@dataclass
class RerunEnded(WorkDone):
    job: int
    error: str | None
    recorded: str | None = None  # an edit's results put on its run's record (results/program-<label>.json)


@dataclass
class VersionFound(WorkDone):
    """A file of a run became a new version (indexed in a worker)."""

    version: Version
    from_watcher: bool


@dataclass
class TextLoaded(Message):
    """A file read in a worker, for a view."""

    target: str
    title: str
    text: str
    request_id: str | None = None


@dataclass
class OverviewLoaded(WorkDone):
    """A run's versions and results were read again (engine.versions.VersionsOverview)."""

    overview: VersionsOverview
    account: RunAccount | None = None  # the run's account (engine/runs/account.py): what the app shows of it
