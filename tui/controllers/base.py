"""What the controllers share: the workspace they work on (Context), the few services the app gives them (Host)
and what they ask of the main screen's views (Views).

Host and Views are protocols: the app and the main screen implement them, a unit test gives recording fakes
(tests/test_tui_controllers.py), so that a controller's logic runs without a terminal.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from genplan.tui.artifacts import Version, VersionIndex, runs_root
from genplan.tui.options import LaunchOptions

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from genplan.engine.api.runs import RunAccount, RunInfo
    from genplan.engine.api.settings import ModelSettings
    from genplan.engine.api.versions import TaskOutcome, VersionResults, VersionsOverview
    from genplan.engine.events import Event
    from genplan.tui.config import RunPrefs
    from genplan.tui.domain_info import DomainInfo, TaskInfo
    from genplan.tui.run_state import CheckResult, RunState, TimelineEntry, Update
    from genplan.tui.widgets.versions_tree import NodeRef


class Context:
    """The workspace every controller reads: the domain, its runs and versions, the settings. Changed only on
    the UI thread (workers post messages; the controllers apply them)."""

    def __init__(self, options: LaunchOptions) -> None:
        self.options = options
        self.domain_dir = options.domain_dir.resolve()
        self.runs_dir = (options.runs_dir or runs_root(self.domain_dir)).resolve()
        self.domain_info: DomainInfo | None = None
        self.version_index = VersionIndex(self.domain_dir, self.runs_dir, read_only=options.read_only)
        self.runs: list[RunInfo] = []
        self.overviews: dict[str, VersionsOverview] = {}  # run id -> its overview (results, status, fork)
        self.accounts: dict[str, RunAccount] = {}  # run id -> its account: what the app says of the run
        # the settings file, read in a worker after the first frame (None until then)
        self.settings: ModelSettings | None = None
        self.prefs: RunPrefs | None = None
        self.settings_error: str | None = None
        self.keymap: dict[str, str] = {}  # the user's [keymap] (binding id -> keys)

    def task_named(self, name: str) -> TaskInfo | None:
        """A task of the domain by name (a debug task first: names repeat across the task sets)."""
        if self.domain_info is None:
            return None
        for task in self.domain_info.tasks:
            if task.name == name and task.task_set == "debug":
                return task
        return next((t for t in self.domain_info.tasks if t.name == name), None)

    def version_for_file(self, path: Path) -> Version | None:
        resolved = path.resolve()
        matches = [v for v in self.version_index.all() if v.path.resolve() == resolved]
        return matches[-1] if matches else None


class Host(Protocol):
    """The app's services a controller uses: notes, screens, background work, messages."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def post_message(self, message: Any) -> bool: ...

    def open_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Push ``screen``; ``callback`` gets what it is dismissed with."""

    def in_thread(self, work: Callable[[], object], group: str, exclusive: bool = False) -> None:
        """Run ``work`` in a thread worker of ``group`` (exclusive: the group's earlier workers are cancelled)."""

    def in_task(self, work: Callable[[], Awaitable[object]], group: str) -> None:
        """Run the coroutine function ``work`` as an exclusive async worker of ``group``."""

    def cancel_group(self, group: str) -> None: ...

    def later(self, delay: float, callback: Callable[[], object]) -> None:
        """Call ``callback`` on the UI thread after ``delay`` seconds."""

    def after_refresh(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the screen has been refreshed."""

    def from_thread(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` on the UI thread (from a worker thread)."""

    def shutting_down(self) -> bool: ...

    def screens_open(self) -> int:
        """How many screens are stacked (1: only the main screen)."""

    def apply_keymap(self, keymap: dict[str, str]) -> None:
        """The settings file's [keymap]: binding id -> keys (checked when the file was read)."""

    def load_runs(self) -> None:
        """List the runs (and their versions) again."""

    def load_domain(self) -> None:
        """Read the domain again."""


class Runs(Protocol):
    """What the versions ask of the runs controller (tui/controllers/runs.py)."""

    state: RunState | None
    run_dir: Path | None
    live: bool

    def start_run(self, run_dir: Path | None = None, start_from: tuple[str, Path, str] | None = None,
                       strategy_check: tuple[Path, str, str] | None = None) -> None: ...
    def continue_trial(self, run_dir: Path, relative: str, text: str, kind: str) -> None: ...
    def going_on(self) -> str | None:
        """The name of the run going on in this app (None: none), and whether it waits for the person."""
    def waits_for_person(self) -> bool: ...
    def stop_then(self, then: Callable[[], object]) -> None: ...
    def edit_logged(self, run_dir: Path, event: Event) -> None: ...


class Views(Protocol):
    """What the controllers ask of the main screen's views (MainScreen implements it)."""

    def active_tab(self) -> str: ...
    def show_tab(self, tab: str) -> None: ...
    def refresh_totals(self) -> None: ...
    def show_domain(self, info: DomainInfo, runs_title: str | None) -> None: ...
    def update_task_view(self) -> None: ...
    def show_runs(self, runs: list[RunInfo], overviews: dict[str, VersionsOverview]) -> None: ...
    # runs and the run view
    def selected_run_id(self) -> str | None: ...
    def reset_run(self, note: str, show: bool = True) -> None:
        """Empty the timeline, the results and the answer view for another run (``note`` in the answer view)."""

    def show_run_events(self, state: RunState, update: Update, started: list[str],
                        streamed: dict[str, list[str]]) -> None:
        """Bring the run view up to date with the events just applied to ``state``."""

    def sync_timeline(self, state: RunState) -> None: ...
    def show_progress(self, title: str, text: str) -> None:
        """An own-loop run's progress lines, while no answer is shown."""

    def show_run_header(self) -> None: ...
    def show_replay_note(self, note: str) -> None:
        """Classroom mode: a replay's note (its position, the next stage) in the caption under the timeline,
        where the room reads, instead of a message (empty: none)."""

    def set_current_run(self, run_id: str) -> None: ...
    def timeline_entry(self) -> TimelineEntry | None: ...
    def timeline_focused(self) -> bool: ...
    def selected_result(self) -> CheckResult | None: ...
    def selected_task(self) -> TaskInfo | None: ...
    # versions and the results matrix
    def selected_in_versions(self) -> Version | None: ...
    def selected_node(self) -> NodeRef | None: ...
    def selected_tree_run(self) -> str | None: ...
    def marked(self) -> str | None: ...
    def set_mark(self, key: str | None) -> None: ...
    def filter_versions(self) -> bool:
        """Toggle the Versions tree's filter to the open run; False when no run is open to filter to."""

    def show_preview(self, text: str, syntax: str, *, line_numbers: bool = True) -> None: ...
    def read_preview(self, key: str, read: Callable[[], str]) -> None: ...
    def update_run(self, run_id: str, versions: list[Version] | None = None, overview: VersionsOverview | None = None) -> None: ...
    def show_versions(self, versions: list[Version], overviews: list[VersionsOverview],
                      arranged: dict[str, list[tuple[str, str | None, Version]]]) -> None: ...
    def matrix_run_id(self) -> str | None: ...
    def show_matrix(self, overview: VersionsOverview | None) -> None: ...
    def selected_outcome(self) -> tuple[VersionResults, TaskOutcome] | None: ...
