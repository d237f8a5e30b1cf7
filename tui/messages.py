"""Messages that carry results of background work (threads, workers) to the UI thread."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.message import Message


@dataclass
class DomainLoaded(Message):
    info: Any  # domain_info.DomainInfo


@dataclass
class RunsFound(Message):
    """The runs, before their versions are read (the Runs view shows them at once); RunsListed follows."""

    runs: list[Any]  # store.RunInfo
    overviews: list[Any]  # engine.versions.RunOverview, one per run


@dataclass
class RunsListed(Message):
    runs: list[Any]  # store.RunInfo
    versions: list[Any]  # artifacts.Version
    overviews: list[Any]  # engine.versions.RunOverview, one per run
    arranged: dict[str, Any]  # run id -> versions_tree.arrange(...) of its versions (done in the worker)


@dataclass
class SettingsLoaded(Message):
    settings: Any  # ModelSettings
    prefs: Any  # config.RunPrefs
    error: str | None


@dataclass
class FileChanged(Message):
    path: Path
    deleted: bool = False


@dataclass
class StepRequested(Message):
    """Step mode: the pipeline holds a request until the person decides (resolve ``future`` with a Decision)."""

    request_id: int
    request: Any  # ChatRequest
    future: Future


@dataclass
class AnswerRequested(Message):
    """Manual provider: a person answers the request (resolve ``future`` with the text, or None to stop)."""

    request: Any  # ChatRequest
    future: Future
    request_id: int | None = None  # the run's id of the request, when the engine's gateway sent it


@dataclass
class RunCreated(Message):
    run_dir: Path


@dataclass
class PipelineEnded(Message):
    result: Any | None  # RunResult
    error: str | None


@dataclass
class RerunProgress(Message):
    job: int
    index: int
    total: int
    check: Any  # checks.TaskCheck
    task_path: Path


@dataclass
class RerunEnded(Message):
    job: int
    error: str | None


@dataclass
class VersionFound(Message):
    """A file of a run became a new version (indexed in a worker)."""

    version: Any  # artifacts.Version
    from_watcher: bool


@dataclass
class TextLoaded(Message):
    """A file read in a worker, for a view."""

    target: str
    title: str
    text: str
    request_id: str | None = None


@dataclass
class OverviewLoaded(Message):
    """A run's versions and results were read again (engine.versions.RunOverview)."""

    overview: Any
