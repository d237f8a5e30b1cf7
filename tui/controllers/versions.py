"""The versions of the runs: the Versions tree's preview, the results matrix's run, marking and comparing,
editing (a new version on the run's record, or a new run from it), reruns, and files changed outside.

The run going on is reached through ``Runs`` (the runs controller); the views through ``Views``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from genplan.tui import messages as msg
from genplan.tui.artifacts import Version
from genplan.tui.controllers.base import Context, Host, Runs, Views
from genplan.tui.controllers.plans import PlansController

if TYPE_CHECKING:
    from genplan.tui.screens.rerun import RerunScreen
    from genplan.tui.widgets.versions_tree import NodeRef

# versions kept for reading and comparing only: what the warning calls them
# versions that are not rerun here (x is not offered on them): AutoToS's functions, PDDLego+'s files
NOT_RERUN = ("function", "pddl")
OVERVIEW_DELAY_S = 0.3  # results files come in bursts: read a run's overview once they settle


class RerunJob(TypedDict):
    """A program rerun going on: its screen, the flag that cancels it, and the version it reruns."""

    screen: RerunScreen
    cancel: threading.Event
    version: Version


class VersionsController:
    def __init__(self, ctx: Context, host: Host, views: Views, plans: PlansController) -> None:
        self.ctx, self.host, self.views, self.plans = ctx, host, views, plans
        self.runs: Runs | None = None  # set by the runs controller
        self.overview_due: dict[str, object] = {}  # run id -> a pending re-read
        self.matrix_wanted: str | None = None  # the matrix's run, chosen while the Results tab was hidden
        self.rerun_jobs: dict[int, RerunJob] = {}
        self.next_job = 0
        self.after_save: tuple[Path, Callable[[Version], object]] | None = None  # to do once it is indexed
        self.watcher: Any = None  # the DomainWatcher, once started
        self.handlers: dict[type[msg.WorkDone], Any] = {
            msg.OverviewLoaded: self.on_overview_loaded, msg.RerunProgress: self.on_rerun_progress,
            msg.RerunEnded: self.on_rerun_ended, msg.FileChanged: self.on_file_changed,
            msg.VersionFound: self.on_version_found,
        }

    @property
    def open_run_dir(self) -> Path | None:
        return self.runs.run_dir if self.runs is not None else None

    # ------------------------------------------------------------------ the tree and its preview
    def highlighted(self) -> None:
        version = self.views.selected_in_versions()
        if version is not None:
            self.views.read_preview(version.key, version.read)
        else:
            self.views.show_preview(self.node_summary(self.views.selected_node()), "markdown", line_numbers=False)
        run_id = self.views.selected_tree_run()
        # a person choosing a run in the tree; the tree's cursor placed while the tree is not shown chooses nothing
        if run_id is not None and run_id != self.matrix_run_id() and self.views.active_tab() == "versions":
            self.show_matrix(run_id)

    def node_summary(self, ref: NodeRef | None) -> str:
        """What the preview says when a run or a group (not a version) is chosen in the tree."""
        if ref is None:
            return ""
        overview = self.ctx.overviews.get(ref.run_id)
        if overview is None:
            return f"run {ref.run_id}"
        lines = [f"run {overview.run_id}: {overview.status}, preset {overview.preset}, created {overview.created}"]
        if overview.debug_total and overview.selected_program:
            lines.append(f"selected program {overview.selected_program}: "
                         f"{overview.debug_solved}/{overview.debug_total} debug tasks")
        elif overview.debug_total:  # a strategy check, a run stopped before its first program
            lines.append("no program: this run wrote none")
        if overview.forked_from:
            lines.append(f"fork of run {overview.forked_from}" + (
                f", continuing from the edited {overview.edited_version}" if overview.edited_version else ""))
        for results in overview.results:
            lines.append(f"  {results.what} {results.label}: {results.solved}/{results.total}")
        lines.append("")
        lines.append("Choose a version (enter expands a group); 6 shows this run's results matrix.")
        return "\n".join(lines)

    def selected_version(self) -> Version | None:
        """The version the current panel points at: a Versions row, or an artefact in the timeline."""
        tab = self.views.active_tab()
        if tab == "versions":
            return self.views.selected_in_versions()
        if tab == "run":
            entry = self.views.timeline_entry()
            if entry is not None and entry.file is not None:
                return self.ctx.version_for_file(entry.file) or self.description_version(entry.file)
        return None

    def description_version(self, path: Path) -> Version | None:
        """An NL description of the open run (nl/domain.md, nl/<task>.md, an edit of one): edited and continued
        from like a version, though the Versions tree does not list it."""
        from genplan.engine.api.versions import edit_kind

        run_dir = self.open_run_dir
        try:
            relative = Path(path).resolve().relative_to(run_dir.resolve()) if run_dir is not None else None
        except ValueError:
            return None
        if run_dir is None or relative is None or edit_kind(str(relative)) != "description":
            return None
        from genplan.engine.api import runs as run_files

        return Version("description", run_dir.name, Path(path).stem, run_files.in_run(run_dir, str(relative)))

    def filter_versions(self) -> None:
        if not self.views.filter_versions():
            self.host.notify("No run is open: open one in 3 Runs (enter) to see only its versions.",
                             severity="warning")

    def rerun_applies(self) -> bool:
        """x is offered on the Versions tab for programs and strategies (and on nothing chosen)."""
        version = self.views.selected_in_versions()
        return version is None or version.kind not in NOT_RERUN

    # ------------------------------------------------------------------ the results matrix
    def matrix_run_id(self) -> str | None:
        if self.matrix_wanted is not None:
            return self.matrix_wanted
        return self.views.matrix_run_id()

    def show_matrix(self, run_id: str | None = None) -> None:
        """The matrix of ``run_id``, else of the run chosen in the Versions tree, else of the open run. While
        the Results tab is hidden only the choice is remembered: the matrix is laid out when it is shown."""
        if run_id is None:
            run_id = self.views.selected_tree_run()
        if run_id is None and self.open_run_dir is not None:
            run_id = self.open_run_dir.name
        if self.views.active_tab() != "results":
            self.matrix_wanted = run_id or ""
            return
        self.matrix_wanted = None
        self.views.show_matrix(self.ctx.overviews.get(run_id) if run_id else None)

    def matrix_shown(self) -> None:
        """The Results tab became visible: lay out what was chosen meanwhile."""
        if self.matrix_wanted is not None:
            self.show_matrix(self.matrix_wanted or None)

    def schedule_overview(self, run_id: str) -> None:
        """Read a run's results again shortly (results files and events come in bursts)."""
        if run_id in self.overview_due:
            return
        self.overview_due[run_id] = True
        self.host.later(OVERVIEW_DELAY_S, lambda: self.load_overview(run_id))

    def load_overview(self, run_id: str) -> None:
        def load() -> None:
            from genplan.engine.api import runs as run_files
            from genplan.engine.api.versions import run_overview

            self.overview_due.pop(run_id, None)
            run_dir = self.ctx.runs_dir / run_id
            if run_files.is_run_dir(run_dir):
                from genplan.engine.api import account

                self.host.post_message(msg.OverviewLoaded(run_overview(run_dir), account(run_dir)))

        self.host.in_thread(load, "overview")

    def on_overview_loaded(self, message: msg.OverviewLoaded) -> None:
        if self.host.shutting_down():
            return
        overview = message.overview
        self.ctx.overviews[overview.run_id] = overview
        if message.account is not None:
            self.ctx.accounts[overview.run_id] = message.account
        self.views.update_run(overview.run_id, overview=overview)
        # the run the matrix is for: the one chosen while the Results tab was hidden, else the one laid out (an
        # overview of another run, read later, does not take the matrix from the open run)
        target = self.matrix_wanted if self.matrix_wanted else self.matrix_run_id()
        if target in (None, overview.run_id):
            self.show_matrix(overview.run_id)
        if self.open_run_dir is not None and self.open_run_dir.name == overview.run_id:
            self.views.show_run_header()
        ref = self.views.selected_node()
        if ref is not None and ref.kind != "version" and ref.run_id == overview.run_id:
            self.views.show_preview(self.node_summary(ref), "markdown", line_numbers=False)

    # ------------------------------------------------------------------ mark, compare, history
    def mark(self) -> None:
        version = self.selected_version()
        if version is None:
            self.host.notify("Select a version in 5 Versions first.", severity="warning")
            return
        self.views.set_mark(None if self.views.marked() == version.key else version.key)
        self.host.notify(f"Marked {version.label}; select another version and press c to compare."
                         if self.views.marked() else "Mark removed.")

    def compare(self) -> None:
        from genplan.tui.screens.compare import CompareScreen

        version = self.selected_version()
        key = self.views.marked()
        marked = self.ctx.version_index.get(key) if key else None
        if version is None:
            self.host.notify("Select a version first.", severity="warning")
            return
        if marked is None or marked.key == version.key:
            history = self.ctx.version_index.history(version)
            index = history.index(version) if version in history else -1
            if index <= 0:
                self.host.notify("Mark a version with m, then compare another one with c.", severity="warning")
                return
            marked = history[index - 1]
        self.host.open_screen(CompareScreen([marked, version], 0, 1))

    def history(self) -> None:
        from genplan.tui.screens.compare import CompareScreen

        version = self.selected_version()
        if version is None:
            self.host.notify("Select a version first.", severity="warning")
            return
        history = self.ctx.version_index.history(version)
        if len(history) < 2:
            self.host.notify(f"{version.label} has no earlier version.", severity="warning")
            return
        index = max(1, history.index(version)) if version in history else len(history) - 1
        self.host.open_screen(CompareScreen(history, index - 1, index, history=True))

    # ------------------------------------------------------------------ edit
    def edit(self) -> None:
        from genplan.tui.screens.editor import EditorScreen, EditResult
        version = self.selected_version()
        if version is None:
            self.cannot_edit("Select a strategy, reflection, program or NL description version first (5 Versions, or "
                             "an artefact's row in the timeline).")
            return
        if version.kind in ("pddl", "function"):
            self.edit_to_continue(version)
            return
        next_step = {"reflection": "the revision request", "strategy": "validation", "program": "debugging",
                     "description": "the requests after it"}[version.kind]
        hint = f"ctrl+s saves a new version; ctrl+r also continues the pipeline from it ({next_step})"

        def open_editor(text: str) -> None:
            self.host.open_screen(EditorScreen(f"Edit {version.label}", text, version.syntax, can_continue=True,
                                               hint=hint, path=version.path), done)

        def done(result: EditResult | None) -> None:
            if result is not None:
                # a save that fails (another process runs the run, a full disk) gives the text back to the editor
                self.edited(version, result.text, result.action == "continue",
                            refused=lambda: open_editor(result.text))

        open_editor(version.read())

    def cannot_edit(self, why: str) -> None:
        """The editor does not open: say why in a notice that takes the keys typed next (meant for the editor,
        they would otherwise run as commands: r starts a run, s opens the settings)."""
        from genplan.tui.screens.pick import NoticeScreen

        self.host.notify(why, severity="warning")
        self.host.open_screen(NoticeScreen("No editor opened", why))

    def edited(self, version: Version, text: str, continue_run: bool,
               refused: Callable[[], object] | None = None) -> None:
        """What the editor gave back: a new version on the record (none for an unchanged text), and with
        ``continue_run`` a new run that continues from it (or from ``version`` itself, when unchanged);
        ``refused()`` when it could not be saved."""
        if text == version.read():  # an unchanged save makes no version
            if continue_run:
                self.continue_from(version)  # the version itself, checked again
            else:
                self.host.notify(f"{version.name} is unchanged: no new version was made.")
            return
        then = self.continue_from if continue_run else self.rerun_program if version.kind == "program" else None
        self.save_new_version(version, text, then, refused)

    def continue_from(self, version: Version) -> None:
        """A new run that continues ``version``'s run from it (engine api.fork: an edit of an edit is continued
        from the answer its lineage began with). With a run going on, the person is asked to stop it first."""
        run_dir = self.ctx.runs_dir / version.run_id
        start_from = (version.kind, version.path, version.read())
        relative = str(version.path.relative_to(run_dir))
        self.start_unless_a_run_goes_on(
            lambda runs: runs.start_run(run_dir=run_dir, start_from=start_from),
            question=f"continue {version.run_id} from {relative}? (Your edit is saved either way.)",
            source=relative, keep="Keep the run going; continue later",
            kept=lambda: self.host.notify(f"Saved as {relative}; ctrl+r on it in 5 Versions continues from it later."))

    def start_unless_a_run_goes_on(self, start: Callable[[Runs], object], *, question: str, source: str, keep: str,
                                   kept: Callable[[], object]) -> None:
        """``start`` a run that continues from ``source``; with another run going on, the person is asked first:
        stop it and continue (``Stop it and {question}``), or ``keep`` it going (then ``kept()``)."""
        runs = self.runs
        if runs is None:
            return
        going_on = runs.going_on()
        if going_on is None:
            start(runs)
            return
        from genplan.tui.screens.pick import PickScreen

        waiting = " and waits for your answer" if runs.waits_for_person() else ""

        def chosen(choice: str | None) -> None:
            if choice == "stop" and self.runs is not None:
                self.runs.stop_then(lambda: start(self.runs) if self.runs is not None else None)
            else:
                kept()

        self.host.open_screen(PickScreen(f"The run {going_on} is going on{waiting}. Stop it and {question}",
                                         [("stop", f"Stop the run and continue from {source}"),
                                          ("keep", keep)]), chosen)

    def edit_to_continue(self, version: Version) -> None:
        """A PDDLego+ domain or problem file, an AutoToS successor function or goal test: the edit becomes the
        answer of the call that wrote it, in a new run that keeps the calls before it (engine api.fork); nothing
        is saved in the run itself, which keeps no edits of its own."""
        from genplan.engine import api
        from genplan.engine.api.versions import check_continuable
        from genplan.tui.screens.editor import EditorScreen, EditResult

        run_dir = self.ctx.runs_dir / version.run_id
        relative = str(version.path.relative_to(run_dir))
        try:
            if version.kind == "pddl":
                check_continuable(run_dir, relative)
            else:
                api.check_fork(run_dir, relative, version.kind)
        except (api.GenplanError, OSError) as exc:
            self.cannot_edit(f"{exc}. c compares the files, h shows their history.")
            return
        what = "trial" if version.kind == "pddl" else "run"
        hint = f"ctrl+r continues the {what} from this file in a new run (earlier calls kept)"  # fits 80 columns

        def open_editor(text: str) -> None:
            self.host.open_screen(EditorScreen(f"Edit {version.label}", text, version.syntax, can_continue=True,
                                               can_save=False, hint=hint, path=version.path), done)

        def done(result: EditResult | None) -> None:
            if result is None or result.action != "continue":
                return
            text, name = result.text, Path(relative).name
            # this run keeps no edit: when the other run is kept going, the editor comes back with the text
            self.start_unless_a_run_goes_on(
                lambda runs: runs.continue_trial(run_dir, relative, text, version.kind),
                question=f"continue {run_dir.name} from your {name}?", source=name,
                keep="Keep the run going; back to the editor", kept=lambda: open_editor(text))

        open_editor(version.read())

    def save_new_version(self, version: Version, text: str, then: Callable[[Version], object] | None = None,
                         refused: Callable[[], object] | None = None) -> Path | None:
        """Write ``text`` as the next version of ``version``'s artefact, on the record (engine.runs.edits: a new
        file, the original untouched, an ``artifact.edited`` event); ``then(new_version)`` once indexed,
        ``refused()`` after the notice when it cannot be saved."""
        from genplan.engine.api import GenplanError, edit

        run_dir = self.ctx.runs_dir / version.run_id
        try:
            record = edit(run_dir, str(version.path.relative_to(run_dir)), text)
        except (OSError, ValueError, GenplanError) as exc:
            if refused is not None:  # first, so that the notice is on the editor's message line
                refused()
            self.host.notify(f"{version.label}: not saved: {getattr(exc, 'strerror', None) or exc}",
                             severity="error")
            return None
        if record is None:  # the version's own text: nothing new to keep
            return None
        from genplan.engine.api import runs as run_files

        target = run_files.in_run(run_dir, record.file)
        if then is not None:
            self.after_save = (target, then)
        if version.kind == "description":  # not a version of the tree: nothing to index, go on at once
            self.after_save = None
            if then is not None:
                then(Version("description", version.run_id, target.stem, target, edit_of=version.name))
        else:
            self.index_file(target, from_watcher=False)
        if self.runs is not None and not record.published:  # a live run's bus has told the timeline already
            self.runs.edit_logged(run_dir, record.event())
        self.host.notify(f"Saved as {record.file} (edit of {version.name}, on the run's record)")
        return target

    # ------------------------------------------------------------------ rerun
    def rerun(self) -> None:
        version = self.selected_version()
        if version is None:
            self.host.notify("Select a program (or strategy) version first.", severity="warning")
            return
        if version.kind == "program":
            self.rerun_program(version)
        elif version.kind == "strategy":
            self.rerun_strategy(version)
        elif version.kind == "function":
            self.host.notify("AutoToS's functions are not rerun here (genplan autotos runs their unit tests).",
                             severity="warning")
        elif version.kind == "pddl":
            self.host.notify("PDDLego+'s files are not rerun here (genplan pddlego plays the game).",
                             severity="warning")
        else:
            self.host.notify("A reflection cannot be rerun; edit it and continue from it instead.", severity="warning")

    def rerun_program(self, version: Version, task_set: str = "debug") -> None:
        from genplan.tui.screens.rerun import RerunScreen

        self.next_job += 1
        job = self.next_job
        screen = RerunScreen(job, version.label, task_set, host=self)
        screen.version = version
        cancel = threading.Event()
        self.rerun_jobs[job] = {"screen": screen, "cancel": cancel, "version": version}
        self.host.open_screen(screen)
        source, run_dir = version.read(), self.ctx.runs_dir / version.run_id
        try:  # the version's file in its run: an edit's results go on the run's record (the tree's count)
            record: str | None = str(version.path.resolve().relative_to(run_dir.resolve()))
        except ValueError:
            record = None

        def run() -> None:
            from genplan.tui.rerun import rerun_program

            rerun_program(job, source, self.ctx.domain_dir, task_set, run_dir, self.host.post_message, cancel,
                          record=record)

        self.host.in_thread(run, "rerun")

    def rerun_strategy(self, version: Version) -> None:
        """Plan validation of this strategy on the debug tasks, and nothing more: the requests it needs are
        shown first (they cost money with a paid model) and sent only after a yes."""
        from genplan.engine.api.versions import strategy_check_requests
        from genplan.tui.screens.pick import PickScreen

        settings = self.ctx.settings
        if settings is None:
            self.host.notify("Still loading the settings; try again in a moment.", severity="warning")
            return
        count = strategy_check_requests(self.ctx.domain_dir)
        run_dir = self.ctx.runs_dir / version.run_id
        relative = str(version.path.relative_to(run_dir))
        text = version.read()
        if settings.is_configured:
            cost = f"{count} model requests to {settings.model} (paid; one more per answer without a plan)"
        else:
            cost = f"{count} requests that you answer yourself (no model is configured)"
        title = (f"Check {version.label} by plan validation on the {count} debug tasks: {cost}. The NL "
                 "descriptions are reused from the run (no requests); nothing else follows. Go ahead?")

        def chosen(choice: str | None) -> None:
            if choice == "yes" and self.runs is not None:
                self.runs.start_run(strategy_check=(run_dir, relative, text))

        self.host.open_screen(PickScreen(title, [("yes", f"Yes: send the {count} requests"), ("no", "No")]), chosen)

    def on_rerun_progress(self, message: msg.RerunProgress) -> None:
        if self.host.shutting_down():
            return
        job = self.rerun_jobs.get(message.job)
        if job is not None and job["screen"].is_attached:  # a closed screen gets nothing more
            job["screen"].add_result(message.index, message.total, message.check, message.task_path)

    def on_rerun_ended(self, message: msg.RerunEnded) -> None:
        if self.host.shutting_down():
            return
        job = self.rerun_jobs.pop(message.job, None)
        if job is not None and job["screen"].is_attached:
            job["screen"].finish(message.error)
        if job is not None and message.recorded is not None:  # its count, in the tree and the matrix
            self.load_overview(job["version"].run_id)

    # what the rerun screen asks (screens/rerun.py RerunHost)
    def open_plan_stepper(self, task_path: Path, plan: list[str], title: str) -> None:
        self.plans.open_plan_stepper(task_path, plan, title)

    def rerun_current_on(self, task_set: str, screen: RerunScreen) -> None:
        """From a rerun screen: the same program on another task set."""
        version = screen.version
        if version is None:
            return
        screen.dismiss(None)
        self.rerun_program(version, task_set)

    def cancel_rerun(self, job: int) -> None:
        info = self.rerun_jobs.get(job)
        if info is not None:
            info["cancel"].set()

    # ------------------------------------------------------------------ files
    def start_watcher(self) -> None:
        from genplan.tui.watcher import DomainWatcher

        def notify(path: Path, deleted: bool) -> None:
            self.host.post_message(msg.FileChanged(path, deleted))

        try:
            self.watcher = DomainWatcher(self.ctx.domain_dir, notify, self.ctx.runs_dir)
            self.watcher.start()
        except Exception as exc:  # noqa: BLE001 - watching is a convenience: say so and go on
            self.watcher = None
            self.host.notify(f"Files are not watched: {exc}", severity="warning")

    def on_file_changed(self, message: msg.FileChanged) -> None:
        if self.host.shutting_down():
            return
        from genplan.engine.api import runs as run_files

        path = message.path
        try:  # a run's file: the domain's .genplan/runs/ or the runs directory given (--runs, genplan-tui runs/)
            in_runs = path.relative_to(self.ctx.runs_dir).parts
        except ValueError:
            in_runs = ()
        if in_runs:
            run_id = in_runs[0]
            if len(in_runs) == 2 and in_runs[1] in (run_files.META, run_files.SUMMARY):
                if in_runs[1] == run_files.META and not message.deleted and all(r.run_id != run_id for r in self.ctx.runs):
                    self.host.load_runs()  # a run made outside this app (another genplan process)
                self.schedule_overview(run_id)
                return
            self.index_file(path, from_watcher=True)
            if len(in_runs) > 1 and in_runs[1] == run_files.RESULTS:
                self.schedule_overview(run_id)
            return
        try:
            relative = path.relative_to(self.ctx.domain_dir)
        except ValueError:
            return
        if relative.parts and relative.parts[0] == Path(run_files.RUNS_SUBDIR).parts[0]:
            return  # another runs directory than the one shown
        if message.deleted:
            self.host.notify(f"{relative} was deleted", severity="warning")
        self.host.load_domain()
        self.host.notify(f"{relative} changed; reloaded.")

    def index_file(self, path: Path, from_watcher: bool) -> None:
        def index() -> None:
            version = self.ctx.version_index.file_changed(path)
            if version is not None:
                self.host.post_message(msg.VersionFound(version, from_watcher))

        self.host.in_thread(index, "index")

    def on_version_found(self, message: msg.VersionFound) -> None:
        if self.host.shutting_down():
            return
        version = message.version
        self.views.update_run(version.run_id, versions=self.ctx.version_index.of_run(version.run_id))
        self.schedule_overview(version.run_id)
        edited = "+" in version.name
        live = self.runs is not None and self.runs.live
        if message.from_watcher and (edited or not live):
            self.host.notify(f"New version {version.label}" + (" (edited outside the TUI)" if edited else ""))
        if edited and version.kind == "program" and message.from_watcher:
            if self.host.screens_open() > 1:
                # an editor, a request or another screen is open: never push a rerun over it
                self.host.notify(f"{version.label} changed outside the TUI; rerun it with x in 5 Versions.",
                                 severity="warning", timeout=10)
            else:
                self.rerun_program(version)
        if self.after_save is not None and self.after_save[0] == version.path:
            callback = self.after_save[1]
            self.after_save = None
            callback(version)

    def shutdown(self) -> None:
        for info in self.rerun_jobs.values():
            info["cancel"].set()
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
