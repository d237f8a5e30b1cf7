"""The counterexample key on a program version: find and shrink a task it fails (engine.counterexample), show
it, step through the program's output on it, and continue the run with it as a debug task."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.tui.artifacts import Version
from genplan.tui.controllers.base import Context, Host, Runs
from genplan.tui.controllers.plans import PlansController
from genplan.tui.controllers.versions import VersionsController

if TYPE_CHECKING:
    from genplan.engine.api.programs import SearchBudget


class CounterexampleController:
    def __init__(self, ctx: Context, host: Host, versions: VersionsController, plans: PlansController,
                 runs: Runs) -> None:
        self.ctx, self.host, self.versions, self.plans, self.runs = ctx, host, versions, plans, runs

    def counterexample_selected(self) -> None:
        version = self.versions.selected_version()
        if version is None or version.kind != "program" or version.snapshot is not None:
            self.host.notify("Select a program version of a run (5 Versions) first.", severity="warning")
            return
        from genplan.engine.api.programs import person_budget

        run_dir = self.ctx.runs_dir / version.run_id
        budget = person_budget()  # the budget of `genplan counterexample` without flags
        self.host.notify(f"Searching a counterexample for {version.name} as genplan counterexample does: "
                         f"{budget.describe()} (a recorded one is shown at once)…")
        self.host.in_thread(lambda: self.search(version, run_dir, budget), "counterexample")

    def search(self, version: Version, run_dir: Path, budget: SearchBudget) -> None:
        """In a worker thread: the recorded counterexample of this version, else a new search within ``budget``."""
        from genplan.engine.api.versions import counterexample_for

        try:
            record, pddl = counterexample_for(run_dir, version.name, str(version.path.relative_to(run_dir)),
                                              version.read(), self.ctx.domain_dir, budget=budget)
        except Exception as exc:  # noqa: BLE001 - a bad program, an unreadable domain: one line
            error = f"{version.name}: the counterexample search failed ({exc})"
            self.host.from_thread(lambda: self.host.notify(error, severity="error"))
            return
        self.host.from_thread(lambda: self.show(version, run_dir, record, pddl))

    def show(self, version: Version, run_dir: Path, record: dict[str, Any], pddl: str) -> None:
        from genplan.tui.screens.counterexample import CounterexampleScreen

        if self.host.shutting_down():
            return

        def plan() -> None:
            failure = (record.get("shrunk") or {}).get("failure") or record.get("failure") or {}
            steps = failure.get("plan")
            if not record.get("task"):
                self.host.notify("No counterexample, no plan.", severity="warning")
            elif not isinstance(steps, list):  # an exception, a timeout: nothing came back
                self.host.notify(f"The program returned no plan on it ({failure.get('kind')}): the feedback says "
                                 "why.", severity="warning")
            else:
                from genplan.engine.api.runs import in_run

                self.plans.open_plan_stepper(in_run(run_dir, record["task"]), [str(s) for s in steps],
                                             f"{version.name} on its counterexample")

        def done(choice: str | None) -> None:
            if choice == "continue":
                self.continue_with(version, run_dir, record)

        self.host.open_screen(CounterexampleScreen(f"Counterexample of {version.label}", record, pddl, plan), done)

    def continue_with(self, version: Version, run_dir: Path, record: dict[str, Any]) -> None:
        from genplan.engine.api import fork_with_task
        from genplan.engine.api.runs import in_run

        try:
            fork = fork_with_task(run_dir, str(version.path.relative_to(run_dir)), in_run(run_dir, record["task"]))
        except Exception as exc:  # noqa: BLE001 - a run that cannot be continued: one line
            self.host.notify(f"{version.name}: cannot continue with this task ({exc})", severity="error")
            return
        self.host.notify(f"New run {fork.name}: {version.name} goes on with the counterexample as a debug task")
        self.runs.start_run(run_dir=fork)
