"""The app's state, declared and initialised in one place.

GenplanApp (app.py) is composed of its parts, RunsMixin (app_runs.py) and VersionsMixin (app_versions.py),
which all derive from AppState: every part sees the same typed state, changed only on the UI thread. What
one part calls in another is declared at the end of AppState, for the type checker only (mypy checks each
definition against its declaration).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from textual.app import App

from .artifacts import Version, VersionIndex, runs_root
from .messages import AnswerRequested, StepRequested
from .session import EventQueue

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer
    from textual.worker import Worker

    from genplan.engine.llm import ModelSettings
    from genplan.engine.runs.store import RunInfo
    from genplan.engine.versions import VersionsOverview

    from .app import LaunchOptions
    from .config import RunPrefs
    from .domain_info import DomainInfo
    from .replay import Replayer
    from .responsiveness import GcState
    from .run_state import RunState, TimelineEntry
    from .screens.rerun import RerunScreen
    from .session import RunSession
    from .watcher import DomainWatcher


class RerunJob(TypedDict):
    """A program rerun going on: its screen, the flag that cancels it, and the version it reruns."""

    screen: RerunScreen
    cancel: threading.Event
    version: Version


class AppState(App[None]):
    def __init__(self, options: LaunchOptions) -> None:
        super().__init__()
        self.options = options
        self.domain_dir = options.domain_dir.resolve()
        self.domain_info: DomainInfo | None = None
        self.runs_dir = (options.runs_dir or runs_root(self.domain_dir)).resolve()
        self.version_index = VersionIndex(self.domain_dir, self.runs_dir)
        self.runs: list[RunInfo] = []
        self.overviews: dict[str, VersionsOverview] = {}  # run id -> its overview (results, status, fork)
        self._overview_due: dict[str, Timer] = {}  # run id -> timer of a pending re-read
        self._matrix_wanted: str | None = None  # the matrix's run, chosen while the Results tab was hidden
        # the settings file, read in a worker after the first frame (None until then)
        self.settings: ModelSettings | None = None
        self.prefs: RunPrefs | None = None
        self.settings_error: str | None = None
        self.keymap: dict[str, str] = {}  # the user's [keymap] (binding id -> keys)
        # the shown run
        self.run_state: RunState | None = None
        self.run_dir: Path | None = None
        self.live = False  # the shown run is running in this process
        self.events = EventQueue()  # its events, not yet applied to run_state
        self.session: RunSession | None = None
        self._progress_lines: list[str] = []  # an own-loop run's progress lines (preparing its tasks)
        self.replayer: Replayer | None = None
        self._replay_playing = False  # the replay worker's loop is running
        self.stepping = threading.Event()
        if options.step:
            self.stepping.set()
        self.pending: list[StepRequested | AnswerRequested] = []  # not yet decided
        self.classroom = options.classroom  # the caption under the timeline is shown
        self._request_screen_open = False
        self._deferred_start: tuple[Path | None, tuple[str, Path, str] | None] | None = None  # r pressed while loading
        # versions: reruns, saved edits, files changed outside
        self._rerun_jobs: dict[int, RerunJob] = {}
        self._next_job = 0
        self._after_save: tuple[Path, Callable[[Version], object]] | None = None  # to do once it is indexed
        self._watcher: DomainWatcher | None = None
        # the views
        self.status_note = "loading"
        self._unpriced_told = False  # "+N unpriced" in the totals was explained once
        self._applicable: tuple[bool, ...] | None = None  # what check_action last depended on
        self._own_loop_runs: dict[Path, bool] = {}  # run directory -> an own-loop run's (no rerun there)
        self._active_tab = "domain"  # the main screen's tab, as its TabActivated messages say
        self._timeline_pending: set[int] = set()  # entries changed since the timeline was last synced
        self._timeline_synced = 0.0
        # start-up and shutdown
        self.first_screen_at: float | None = None
        self._switch_interval = sys.getswitchinterval()
        self._gc_state: GcState | None = None  # once the heap is frozen
        self.heap_freezes = 0  # at mount, then after the warm-up
        self._exiting = False

    def shutting_down(self) -> bool:
        """True once the app has begun to close: a worker's late message must not touch widgets being removed
        (Textual clears ``is_running`` first, then unmounts the children one by one)."""
        return not self.is_running or not self.screen_stack

    if TYPE_CHECKING:
        # defined in app.py
        @property
        def main(self) -> Screen[object]: ...
        @property
        def mode(self) -> str: ...
        def refresh_totals(self) -> None: ...
        def engine_event(self, event: object) -> None: ...
        def drain_events(self) -> None: ...
        def reset_timeline(self) -> None: ...
        def stop_at_stages(self, on: bool) -> None: ...
        def show_run_header(self) -> None: ...
        def _timeline_entry(self) -> TimelineEntry | None: ...
        def action_show_tab(self, tab: str) -> None: ...
        def load_domain(self) -> Worker[None]: ...
        def load_runs(self) -> Worker[None]: ...
        def read_for_view(self, target: str, title: str, read: Callable[[], str],
                          request_id: str | None = None) -> Worker[None]: ...
        # defined in app_runs.py
        def start_pipeline(self, run_dir: Path | None = None, start_from: tuple[str, Path, str] | None = None,
                           strategy_check: tuple[Path, str, str] | None = None) -> None: ...
        def continue_trial(self, run_dir: Path, relative: str, text: str) -> None: ...
        # defined in app_versions.py
        def show_matrix(self, run_id: str | None = None) -> None: ...
        def schedule_overview(self, run_id: str) -> None: ...
