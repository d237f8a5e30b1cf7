"""Plans to step through: which plan p means where it is pressed (a check row, a debug result, a task, a cell of
the results matrix, a PDDLego+ solver call), and the plan stepper on it."""

from __future__ import annotations

from pathlib import Path

from genplan.engine.events import ValidationResult
from genplan.tui.controllers.base import Context, Host, Runs, Views
from genplan.tui.domain_info import TaskInfo
from genplan.tui.run_state import TimelineEntry, trial_place


class PlansController:
    def __init__(self, ctx: Context, host: Host, views: Views) -> None:
        self.ctx, self.host, self.views = ctx, host, views
        self.runs: Runs | None = None  # set by the runs controller

    def plan_stepper(self) -> None:
        tab = self.views.active_tab()
        state = self.runs.state if self.runs is not None else None
        entry = self.views.timeline_entry() if tab == "run" and self.views.timeline_focused() else None
        check = entry.event if entry is not None and isinstance(entry.event, ValidationResult) else None
        if entry is not None and check is not None and check.what == "pddl":
            self.open_trial_plan(entry)  # PDDLego+: the solver's plan on the model's own files of that call
            return
        if entry is not None and check is not None:  # a check row of the timeline: its own plan
            plan = check.plan
            task = self.ctx.task_named(str(check.task or ""))
            if not isinstance(plan, list) or not plan or task is None:
                self.host.notify("This check has no plan to step through (none could be read from the answer).",
                                 severity="warning")
                return
            self.open_plan_stepper(task.path, [str(a) for a in plan], f"{entry.title} on {task.name}")
            return
        if tab == "run":
            result = self.views.selected_result()
            if result is None or not result.plan:
                self.host.notify("Select a result with a plan (the model's or the program's).", severity="warning")
                return
            what, version = state.current_results if state is not None and state.current_results else ("", "")
            if what == "pddl" and state is not None:  # a PDDLego+ solver call's result: its own files
                call = next((e for e in state.entries if isinstance(e.event, ValidationResult)
                             and e.event.what == "pddl" and _label(e) == version), None)
                if call is not None:
                    self.open_trial_plan(call)
                    return
            task = self.ctx.task_named(result.task)
            if task is None:
                self.host.notify(f"No task file for {result.task}.", severity="error")
                return
            self.open_plan_stepper(task.path, list(result.plan), f"{what} {version} on {result.task}")
            return
        chosen = self.views.selected_task() if tab == "tasks" else None
        if chosen is None:
            self.views.show_tab("tasks")
            self.host.notify("Choose a task, then press p.")
            return
        self.choose_plan_for(chosen)

    def open_trial_plan(self, entry: TimelineEntry) -> None:
        """Step through the plan of one PDDLego+ solver call on the domain and problem file of that call."""
        from genplan.engine.api.pddl import PddlError, planned_task
        from genplan.engine.api.runs import trial_call_file
        from genplan.tui.plan_trace import trace_plan
        from genplan.tui.screens.plan_stepper import PlanStepperScreen

        check = entry.event if isinstance(entry.event, ValidationResult) else None
        place = trial_place(check)
        plan = check.plan if check is not None else None
        state = self.runs.state if self.runs is not None else None
        run_dir = state.run_dir if state is not None else None
        if not isinstance(plan, list) or not plan or run_dir is None or place is None:
            self.host.notify("This solver call has no plan to step through (it failed, or the trial was recorded "
                             "before plans were kept).", severity="warning")
            return
        label = place.label
        steps = [str(a) for a in plan]
        try:
            texts = [trial_call_file(run_dir, place.step, place.attempt, place.retry, part).read_text(encoding="utf-8")
                     for part in ("domain", "problem")]
            domain, problem = planned_task(texts[0], texts[1], steps)
        except (OSError, PddlError) as exc:
            self.host.notify(f"{label}: cannot read the call's files ({exc})", severity="error")
            return
        self.host.open_screen(PlanStepperScreen(f"plan of {label} on its own files",
                                                trace_plan(domain, problem, steps)))

    def choose_plan_for(self, task: TaskInfo) -> None:
        from genplan.tui.screens.pick import PickScreen, TextEntryScreen

        known = self.known_plans(task.name)
        choices = [(str(i), label) for i, (label, _plan) in enumerate(known)]
        choices.append(("paste", "Type or paste a plan…"))

        def pasted(text: str | None) -> None:
            from genplan.tui.plan_trace import parse_plan_lines

            if text and parse_plan_lines(text):
                self.open_plan_stepper(task.path, parse_plan_lines(text), f"your plan on {task.label}")

        def picked(choice: str | None) -> None:
            if choice is None:
                return
            if choice == "paste":
                self.host.open_screen(TextEntryScreen(f"A plan for {task.label}: one action per line (ctrl+s)",
                                                      syntax="pddl"), pasted)
                return
            label, plan = known[int(choice)]
            self.open_plan_stepper(task.path, plan, f"{label}")

        self.host.open_screen(PickScreen(f"Which plan for {task.label}?", choices), picked)

    def known_plans(self, task_name: str) -> list[tuple[str, list[str]]]:
        """Plans of this task found in the runs' results (the model's plans and the programs')."""
        from genplan.engine.api.versions import recorded_plans

        plans: list[tuple[str, list[str]]] = []
        for run in reversed(self.ctx.runs):
            for check, solved, plan in recorded_plans(Path(run.path), task_name):
                plans.append((f"{run.run_id} · {check} · {'valid' if solved else 'fails'}", plan))
        return plans[:40]

    def open_plan_stepper(self, task_path: Path, plan: list[str], title: str, style: str | None = None) -> None:
        from genplan.engine.api.pddl import PddlError, load_problem
        from genplan.tui.plan_trace import trace_plan
        from genplan.tui.screens.plan_stepper import PlanStepperScreen

        info = self.ctx.domain_info
        if info is None or info.domain is None:
            self.host.notify("The domain is not loaded.", severity="error")
            return
        try:
            problem = load_problem(task_path, info.domain)
        except PddlError as exc:
            self.host.notify(str(exc), severity="error")
            return
        self.host.open_screen(PlanStepperScreen(title, trace_plan(info.domain, problem, plan, style or "stein")))

    # ------------------------------------------------------------------ the results matrix's cells
    def open_matrix_cell(self) -> None:
        """Enter on a matrix cell: its plan in the plan stepper, or (no plan) its feedback."""
        chosen = self.views.selected_outcome()
        if chosen is None:
            self.host.notify("Choose a task's cell (the columns right of 'passed').", severity="warning")
            return
        results, outcome = chosen
        task = self.ctx.task_named(outcome.task)
        if outcome.plan and task is not None:
            # numbered as the feedback in the cell numbers steps (the run's approach's style: Silver et al.'s from 1)
            from genplan.engine.api import approach_of_run

            run_dir = self.runs.run_dir if self.runs is not None else None
            approach = approach_of_run(run_dir) if run_dir is not None else None
            self.open_plan_stepper(task.path, list(outcome.plan), f"{results.what} {results.label} on {outcome.task}",
                                   str(approach.feedback_style) if approach is not None else None)
            return
        self.matrix_feedback()

    def matrix_feedback(self) -> None:
        from genplan.tui.screens.feedback import FeedbackScreen

        chosen = self.views.selected_outcome()
        if chosen is None:
            self.host.notify("Choose a task's cell first.", severity="warning")
            return
        results, outcome = chosen
        title = f"{results.what} {results.label} on {outcome.task}: {outcome.category}"
        body = outcome.message or ("The plan is valid." if outcome.solved else "(no feedback recorded)")
        self.host.open_screen(FeedbackScreen(title, body))


def _label(entry: TimelineEntry) -> str:
    """The label of a PDDLego+ solver call's check row (``s01-a0-r2``), "" for any other row."""
    place = trial_place(entry.event)
    return place.label if place is not None else ""
