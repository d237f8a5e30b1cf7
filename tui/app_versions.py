"""The app's work on versions: edit, compare, history, rerun, the plan stepper, and files changed outside.

A part of GenplanApp (see app.py): it uses the app's state (declared in app_state.py) and views; nothing
here runs on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.widgets import TabbedContent

from genplan.engine.runs import layout

from . import messages as msg
from .app_state import AppState
from .artifacts import Version
from .domain_info import TaskInfo
from .widgets.panels import RunResults, RunTimeline, TasksPanel, VersionsPanel
from .widgets.results_matrix import ResultsPanel

if TYPE_CHECKING:
    from .run_state import TimelineEntry
    from .screens.rerun import RerunScreen
    from .widgets.versions_tree import NodeRef

# versions kept for reading and comparing only: what the warning calls them
NOT_EDITED = {"function": "AutoToS's functions"}
OVERVIEW_DELAY_S = 0.3  # results files come in bursts: read a run's overview once they settle


class VersionsMixin(AppState):
    # ================================================================== versions
    def version_highlighted(self) -> None:
        panel = self.main.query_one(VersionsPanel)
        version = panel.selected()
        if version is not None:
            self.read_for_view("preview", version.key, version.read)
        else:
            panel.show_preview(self.node_summary(panel.selected_node()), "markdown", line_numbers=False)
        run_id = panel.selected_run()
        if run_id is not None and run_id != self.matrix_run_id():
            self.show_matrix(run_id)

    def node_summary(self, ref: NodeRef | None) -> str:
        """What the preview says when a run or a group (not a version) is chosen in the tree."""
        if ref is None:
            return ""
        overview = self.overviews.get(ref.run_id)
        if overview is None:
            return f"run {ref.run_id}"
        lines = [f"run {overview.run_id}: {overview.status}, preset {overview.preset}, created {overview.created}"]
        if overview.debug_total:
            lines.append(f"selected program {overview.selected_program or '–'}: "
                         f"{overview.debug_solved}/{overview.debug_total} debug tasks")
        if overview.forked_from:
            lines.append(f"fork of run {overview.forked_from}" + (
                f", continuing from the edited {overview.edited_version}" if overview.edited_version else ""))
        for results in overview.results:
            lines.append(f"  {results.what} {results.label}: {results.solved}/{results.total}")
        lines.append("")
        lines.append("Choose a version (enter expands a group); 6 shows this run's results matrix.")
        return "\n".join(lines)

    # ================================================================== results matrix
    def matrix_run_id(self) -> str | None:
        if self._matrix_wanted is not None:
            return self._matrix_wanted
        overview = self.main.query_one(ResultsPanel).overview
        return overview.run_id if overview is not None else None

    def show_matrix(self, run_id: str | None = None) -> None:
        """The matrix of ``run_id``, else of the run chosen in the Versions tree, else of the open run. While
        the Results tab is hidden only the choice is remembered: the matrix is laid out when it is shown."""
        if run_id is None:
            run_id = self.main.query_one(VersionsPanel).selected_run()
        if run_id is None and self.run_dir is not None:
            run_id = self.run_dir.name
        if self.main.query_one(TabbedContent).active != "results":
            self._matrix_wanted = run_id or ""
            return
        self._matrix_wanted = None
        self.main.query_one(ResultsPanel).show(self.overviews.get(run_id) if run_id else None)

    def matrix_shown(self) -> None:
        """The Results tab became visible: lay out what was chosen meanwhile."""
        if self._matrix_wanted is not None:
            self.show_matrix(self._matrix_wanted or None)

    def schedule_overview(self, run_id: str) -> None:
        """Read a run's results again shortly (results files and events come in bursts)."""
        if run_id in self._overview_due:
            return
        self._overview_due[run_id] = self.set_timer(OVERVIEW_DELAY_S, lambda: self.load_overview(run_id))

    @work(thread=True, group="overview")
    def load_overview(self, run_id: str) -> None:
        from genplan.engine.versions import run_overview

        self._overview_due.pop(run_id, None)
        run_dir = self.runs_dir / run_id
        if layout.is_run_dir(run_dir):
            self.post_message(msg.OverviewLoaded(run_overview(run_dir)))

    def on_overview_loaded(self, message: msg.OverviewLoaded) -> None:
        if self.shutting_down():
            return
        overview = message.overview
        self.overviews[overview.run_id] = overview
        self.main.query_one(VersionsPanel).update_run(overview.run_id, overview=overview)
        if self.matrix_run_id() in (None, overview.run_id):
            self.show_matrix(overview.run_id)
        if self.run_dir is not None and self.run_dir.name == overview.run_id:
            self.show_run_header()
        panel = self.main.query_one(VersionsPanel)
        ref = panel.selected_node()
        if ref is not None and ref.kind != "version" and ref.run_id == overview.run_id:
            panel.show_preview(self.node_summary(ref), "markdown", line_numbers=False)

    def action_filter_versions(self) -> None:
        panel = self.main.query_one(VersionsPanel)
        if panel.current_run is None and not panel.only_current:
            self.notify("No run is open: open one in 3 Runs (enter) to see only its versions.", severity="warning")
            return
        panel.toggle_filter()

    def action_open_matrix_cell(self) -> None:
        """Enter on a matrix cell: its plan in the plan stepper, or (no plan) its feedback."""
        chosen = self.main.query_one(ResultsPanel).selected_outcome()
        if chosen is None:
            self.notify("Choose a task's cell (the columns right of 'passed').", severity="warning")
            return
        results, outcome = chosen
        task = self._task_named(outcome.task)
        if outcome.plan and task is not None:
            self.open_plan_stepper(task.path, list(outcome.plan), f"{results.what} {results.label} on {outcome.task}")
            return
        self.action_matrix_feedback()

    def action_matrix_feedback(self) -> None:
        from .screens.feedback import FeedbackScreen

        chosen = self.main.query_one(ResultsPanel).selected_outcome()
        if chosen is None:
            self.notify("Choose a task's cell first.", severity="warning")
            return
        results, outcome = chosen
        title = f"{results.what} {results.label} on {outcome.task}: {outcome.category}"
        body = outcome.message or ("The plan is valid." if outcome.solved else "(no feedback recorded)")
        self.push_screen(FeedbackScreen(title, body))

    def selected_version(self) -> Version | None:
        """The version the current panel points at: a Versions row, or an artefact in the timeline."""
        tab = self.main.query_one(TabbedContent).active
        if tab == "versions":
            return self.main.query_one(VersionsPanel).selected()
        if tab == "run":
            entry = self._timeline_entry()
            if entry is not None and entry.file is not None:
                return self.version_for_file(entry.file)
        return None

    def version_for_file(self, path: Path) -> Version | None:
        resolved = path.resolve()
        matches = [v for v in self.version_index.all() if v.path.resolve() == resolved]
        return matches[-1] if matches else None

    def action_mark_selected(self) -> None:
        version = self.selected_version()
        if version is None:
            self.notify("Select a version in 5 Versions first.", severity="warning")
            return
        panel = self.main.query_one(VersionsPanel)
        panel.set_mark(None if panel.marked == version.key else version.key)
        self.notify(f"Marked {version.label}; select another version and press c to compare."
                    if panel.marked else "Mark removed.")

    def action_compare_selected(self) -> None:
        from .screens.compare import CompareScreen

        version = self.selected_version()
        panel = self.main.query_one(VersionsPanel)
        marked = self.version_index.get(panel.marked) if panel.marked else None
        if version is None:
            self.notify("Select a version first.", severity="warning")
            return
        if marked is None or marked.key == version.key:
            history = self.version_index.history(version)
            index = history.index(version) if version in history else -1
            if index <= 0:
                self.notify("Mark a version with m, then compare another one with c.", severity="warning")
                return
            marked = history[index - 1]
        self.push_screen(CompareScreen([marked, version], 0, 1))

    def action_history_selected(self) -> None:
        from .screens.compare import CompareScreen

        version = self.selected_version()
        if version is None:
            self.notify("Select a version first.", severity="warning")
            return
        history = self.version_index.history(version)
        if len(history) < 2:
            self.notify(f"{version.label} has no earlier version.", severity="warning")
            return
        index = max(1, history.index(version)) if version in history else len(history) - 1
        self.push_screen(CompareScreen(history, index - 1, index, history=True))

    def action_edit_selected(self) -> None:
        from .screens.editor import EditorScreen, EditResult

        version = self.selected_version()
        if version is None:
            self.notify("Select a strategy, reflection or program version first.", severity="warning")
            return
        if version.kind in NOT_EDITED:
            self.notify(f"{NOT_EDITED[version.kind]} are not edited here: c compares two of them, h shows their "
                        "history.", severity="warning")
            return
        if version.kind == "pddl":
            self.edit_trial_file(version)
            return
        next_step = {"reflection": "the revision request", "strategy": "validation",
                     "program": "debugging"}[version.kind]
        hint = f"ctrl+s saves a new version; ctrl+r also continues the pipeline from it ({next_step})"

        def done(result: EditResult | None) -> None:
            if result is None:
                return
            then: Callable[[Version], object] | None = None
            if result.action == "continue":
                run_dir = self.runs_dir / version.run_id
                # the edit replaces the answer the edited version came from; the run continues from there
                then = lambda saved: self.start_pipeline(  # noqa: E731
                    run_dir=run_dir, start_from=(version.kind, version.path, result.text)
                )
            elif version.kind == "program":
                then = self.rerun_program  # an edited program is checked on the debug tasks at once
            self.save_new_version(version, result.text, then)

        self.push_screen(EditorScreen(f"Edit {version.label}", version.read(), version.syntax,
                                      can_continue=True, hint=hint, path=version.path), done)

    def edit_trial_file(self, version: Version) -> None:
        """A PDDLego+ domain or problem file: the edit becomes the answer of the call that wrote it, in a new
        trial that keeps the calls before it (engine.pddlego.fork); nothing is saved in the trial itself."""
        from genplan.engine.pddlego.fork import CannotContinue, check_continuable

        from .screens.editor import EditorScreen, EditResult

        run_dir = self.runs_dir / version.run_id
        relative = str(version.path.relative_to(run_dir))
        try:
            check_continuable(run_dir, relative)
        except CannotContinue as exc:
            self.notify(f"{exc}. c compares the files, h shows their history.", severity="warning", timeout=10)
            return
        hint = "ctrl+r continues the trial from this file in a new run (earlier calls kept)"  # fits 80 columns

        def done(result: EditResult | None) -> None:
            if result is not None and result.action == "continue":
                self.continue_trial(run_dir, relative, result.text)

        self.push_screen(EditorScreen(f"Edit {version.label}", version.read(), version.syntax, can_continue=True,
                                      can_save=False, hint=hint, path=version.path), done)

    def save_new_version(self, version: Version, text: str,
                         then: Callable[[Version], object] | None = None) -> Path | None:
        """Write ``text`` as the next version of ``version``'s artefact, on the record (engine.runs.edits: a new
        file, the original untouched, an ``artifact.edited`` event); ``then(new_version)`` once indexed."""
        from genplan.engine.runs.edits import record_edit

        run_dir = self.runs_dir / version.run_id
        try:
            record = record_edit(run_dir, str(version.path.relative_to(run_dir)), version.read(), text)
        except (OSError, ValueError) as exc:
            self.notify(f"{version.label}: cannot save the edit ({getattr(exc, 'strerror', None) or exc})",
                        severity="error")
            return None
        target = run_dir / record.file
        if then is not None:
            self._after_save = (target, then)
        self.index_file(target, from_watcher=False)
        self.notify(f"Saved as {record.file} (edit of {version.name}, on the run's record)")
        return target

    # ================================================================== rerun
    def action_rerun_selected(self) -> None:
        version = self.selected_version()
        if version is None:
            self.notify("Select a program (or strategy) version first.", severity="warning")
            return
        if version.kind == "program":
            self.rerun_program(version)
        elif version.kind == "strategy":
            self.rerun_strategy(version)
        elif version.kind == "function":
            self.notify("AutoToS's functions are not rerun here (genplan autotos runs their unit tests).",
                        severity="warning")
        elif version.kind == "pddl":
            self.notify("PDDLego+'s files are not rerun here (genplan pddlego plays the game).", severity="warning")
        else:
            self.notify("A reflection cannot be rerun; edit it and continue from it instead.", severity="warning")

    def rerun_program(self, version: Version, task_set: str = "debug") -> None:
        from .screens.rerun import RerunScreen

        self._next_job += 1
        job = self._next_job
        screen = RerunScreen(job, version.label, task_set)
        screen.version = version
        cancel = threading.Event()
        self._rerun_jobs[job] = {"screen": screen, "cancel": cancel, "version": version}
        self.push_screen(screen)
        self.run_rerun(job, version.read(), task_set, self.runs_dir / version.run_id, cancel)

    @work(thread=True, group="rerun")
    def run_rerun(self, job: int, source: str, task_set: str, run_dir: Path, cancel: threading.Event) -> None:
        from .rerun import rerun_program

        rerun_program(job, source, self.domain_dir, task_set, run_dir, self.post_message, cancel)

    def rerun_strategy(self, version: Version) -> None:
        """Plan validation of this strategy on the debug tasks, and nothing more: the requests it needs are
        shown first (they cost money with a paid model) and sent only after a yes."""
        from genplan.engine.domainlib import DomainDir
        from genplan.engine.strategy_check import requests_needed

        from .screens.pick import PickScreen

        if self.settings is None:
            self.notify("Still loading the settings; try again in a moment.", severity="warning")
            return
        count = requests_needed(DomainDir.open(self.domain_dir))
        run_dir = self.runs_dir / version.run_id
        relative = str(version.path.relative_to(run_dir))
        text = version.read()
        if self.settings.is_configured:
            cost = f"{count} model requests to {self.settings.model} (paid; one more per answer without a plan)"
        else:
            cost = f"{count} requests that you answer yourself (no model is configured)"
        title = (f"Check {version.label} by plan validation on the {count} debug tasks: {cost}. The NL "
                 "descriptions are reused from the run (no requests); nothing else follows. Go ahead?")

        def chosen(choice: str | None) -> None:
            if choice == "yes":
                self.start_pipeline(strategy_check=(run_dir, relative, text))

        self.push_screen(PickScreen(title, [("yes", f"Yes: send the {count} requests"), ("no", "No")]), chosen)

    def on_rerun_progress(self, message: msg.RerunProgress) -> None:
        if self.shutting_down():
            return  # shutting down
        job = self._rerun_jobs.get(message.job)
        if job is not None and job["screen"].is_attached:  # a closed screen gets nothing more
            job["screen"].add_result(message.index, message.total, message.check, message.task_path)

    def on_rerun_ended(self, message: msg.RerunEnded) -> None:
        if self.shutting_down():
            return  # shutting down
        job = self._rerun_jobs.pop(message.job, None)
        if job is not None and job["screen"].is_attached:
            job["screen"].finish(message.error)

    def rerun_current_on(self, task_set: str, screen: RerunScreen) -> None:
        """From a rerun screen: the same program on another task set."""
        version = screen.version
        if version is None:
            return
        screen.dismiss(None)
        self.rerun_program(version, task_set)

    def cancel_rerun(self, job: int) -> None:
        info = self._rerun_jobs.get(job)
        if info is not None:
            info["cancel"].set()

    # ================================================================== plan stepper
    def action_plan_stepper(self) -> None:
        tab = self.main.query_one(TabbedContent).active
        entry = self._timeline_entry() if tab == "run" and isinstance(self.focused, RunTimeline) else None
        if entry is not None and entry.kind == "check" and entry.data.get("what") == "pddl":
            self.open_trial_plan(entry)  # PDDLego+: the solver's plan on the model's own files of that call
            return
        if entry is not None and entry.kind == "check":  # a check row of the timeline: its own plan
            plan = entry.data.get("plan")
            task = self._task_named(str(entry.data.get("task", "")))
            if not isinstance(plan, list) or not plan or task is None:
                self.notify("This check has no plan to step through (none could be read from the answer).",
                            severity="warning")
                return
            self.open_plan_stepper(task.path, [str(a) for a in plan], f"{entry.title} on {task.name}")
            return
        if tab == "run":
            result = self.main.query_one(RunResults).selected()
            if result is None or not result.plan:
                self.notify("Select a result with a plan (the model's or the program's).", severity="warning")
                return
            what, version = self.run_state.current_results if self.run_state and self.run_state.current_results else ("", "")
            if what == "pddl" and self.run_state is not None:  # a PDDLego+ solver call's result: its own files
                from .run_state import time_step_label

                call = next((e for e in self.run_state.entries if e.kind == "check" and e.data.get("what") == "pddl"
                             and time_step_label(e.data) == version), None)
                if call is not None:
                    self.open_trial_plan(call)
                    return
            task = self._task_named(result.task)
            if task is None:
                self.notify(f"No task file for {result.task}.", severity="error")
                return
            self.open_plan_stepper(task.path, list(result.plan), f"{what} {version} on {result.task}")
            return
        task = self.main.query_one(TasksPanel).selected() if tab == "tasks" else None
        if task is None:
            self.action_show_tab("tasks")
            self.notify("Choose a task, then press p.")
            return
        self.choose_plan_for(task)

    def open_trial_plan(self, entry: TimelineEntry) -> None:
        """Step through the plan of one PDDLego+ solver call on the domain and problem file of that call."""
        from genplan.engine.pddl import PddlError
        from genplan.engine.pddlego.solver import planned_task

        from .plan_trace import trace_plan
        from .run_state import time_step_label
        from .screens.plan_stepper import PlanStepperScreen

        plan = entry.data.get("plan")
        run_dir = self.run_state.run_dir if self.run_state is not None else None
        if not isinstance(plan, list) or not plan or run_dir is None:
            self.notify("This solver call has no plan to step through (it failed, or the trial was recorded "
                        "before plans were kept).", severity="warning")
            return
        label = time_step_label(entry.data)
        steps = [str(a) for a in plan]
        try:
            texts = [(run_dir / "pddl" / f"{label}-{part}.pddl").read_text(encoding="utf-8")
                     for part in ("domain", "problem")]
            domain, problem = planned_task(texts[0], texts[1], steps)
        except (OSError, PddlError) as exc:
            self.notify(f"{label}: cannot read the call's files ({exc})", severity="error")
            return
        self.push_screen(PlanStepperScreen(f"plan of {label} on its own files", trace_plan(domain, problem, steps)))

    def _task_named(self, name: str) -> TaskInfo | None:
        if self.domain_info is None:
            return None
        for task in self.domain_info.tasks:
            if task.name == name and task.task_set == "debug":
                return task
        return next((t for t in self.domain_info.tasks if t.name == name), None)

    def choose_plan_for(self, task: TaskInfo) -> None:
        from .screens.pick import PickScreen, TextEntryScreen

        known = self.known_plans(task)
        choices = [(str(i), label) for i, (label, _plan) in enumerate(known)]
        choices.append(("paste", "Type or paste a plan…"))

        def picked(choice: str | None) -> None:
            if choice is None:
                return
            if choice == "paste":
                def pasted(text: str | None) -> None:
                    from .plan_trace import parse_plan_lines

                    if text and parse_plan_lines(text):
                        self.open_plan_stepper(task.path, parse_plan_lines(text), f"your plan on {task.label}")

                self.push_screen(TextEntryScreen(f"A plan for {task.label}: one action per line (ctrl+s)",
                                                 syntax="pddl"), pasted)
                return
            label, plan = known[int(choice)]
            self.open_plan_stepper(task.path, plan, f"{label}")

        self.push_screen(PickScreen(f"Which plan for {task.label}?", choices), picked)

    def known_plans(self, task: TaskInfo) -> list[tuple[str, list[str]]]:
        """Plans of this task found in the runs' results (the model's plans and the programs')."""
        import json

        plans: list[tuple[str, list[str]]] = []
        for run in reversed(self.runs):
            folder = Path(run.path) / "results"
            if not folder.is_dir():
                continue
            for file in sorted(folder.glob("*.json")):
                try:
                    records = json.loads(file.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if not isinstance(records, list):
                    continue
                for record in records:
                    if isinstance(record, dict) and record.get("task") == task.name and record.get("output"):
                        verdict = "valid" if record.get("solved") else "fails"
                        plans.append((f"{run.run_id} · {file.stem} · {verdict}", list(record["output"])))
        return plans[:40]

    def open_plan_stepper(self, task_path: Path, plan: list[str], title: str) -> None:
        from genplan.engine.pddl import PddlError, load_problem

        from .plan_trace import trace_plan
        from .screens.plan_stepper import PlanStepperScreen

        info = self.domain_info
        if info is None or info.domain is None:
            self.notify("The domain is not loaded.", severity="error")
            return
        try:
            problem = load_problem(task_path, info.domain)
        except PddlError as exc:
            self.notify(str(exc), severity="error")
            return
        self.push_screen(PlanStepperScreen(title, trace_plan(info.domain, problem, plan)))

    # ================================================================== files
    def start_watcher(self) -> None:
        from .watcher import DomainWatcher

        def notify(path: Path, deleted: bool) -> None:
            self.post_message(msg.FileChanged(path, deleted))

        try:
            self._watcher = DomainWatcher(self.domain_dir, notify, self.runs_dir)
            self._watcher.start()
        except Exception as exc:  # noqa: BLE001 - watching is a convenience: say so and go on
            self._watcher = None
            self.notify(f"Files are not watched: {exc}", severity="warning")

    def on_file_changed(self, message: msg.FileChanged) -> None:
        if self.shutting_down():
            return  # shutting down
        path = message.path
        try:  # a run's file: the domain's .genplan/runs/ or the runs directory given (--runs, genplan-tui runs/)
            in_runs = path.relative_to(self.runs_dir).parts
        except ValueError:
            in_runs = ()
        if in_runs:
            run_id = in_runs[0]
            if len(in_runs) == 2 and in_runs[1] in (layout.META, layout.SUMMARY):
                if in_runs[1] == layout.META and not message.deleted and all(r.run_id != run_id for r in self.runs):
                    self.load_runs()  # a run made outside this app (another genplan process)
                self.schedule_overview(run_id)
                return
            self.index_file(path, from_watcher=True)
            if len(in_runs) > 1 and in_runs[1] == "results":
                self.schedule_overview(run_id)
            return
        try:
            relative = path.relative_to(self.domain_dir)
        except ValueError:
            return
        if relative.parts and relative.parts[0] == ".genplan":
            return  # another runs directory than the one shown
        if message.deleted:
            self.notify(f"{relative} was deleted", severity="warning")
        self.load_domain()
        self.notify(f"{relative} changed; reloaded.")

    @work(thread=True, group="index")
    def index_file(self, path: Path, from_watcher: bool) -> None:
        version = self.version_index.file_changed(path)
        if version is not None:
            self.post_message(msg.VersionFound(version, from_watcher))

    def on_version_found(self, message: msg.VersionFound) -> None:
        if self.shutting_down():
            return
        version = message.version
        self.main.query_one(VersionsPanel).update_run(version.run_id, versions=self.version_index.of_run(version.run_id))
        self.schedule_overview(version.run_id)
        edited = "+" in version.name
        if message.from_watcher and (edited or not self.live):
            self.notify(f"New version {version.label}" + (" (edited outside the TUI)" if edited else ""))
        if edited and version.kind == "program" and message.from_watcher:
            if len(self.screen_stack) > 1:
                # an editor, a request or another screen is open: never push a rerun over it
                self.notify(f"{version.label} changed outside the TUI; rerun it with x in 5 Versions.",
                            severity="warning", timeout=10)
            else:
                self.rerun_program(version)
        if self._after_save is not None and self._after_save[0] == version.path:
            callback = self._after_save[1]
            self._after_save = None
            callback(version)
