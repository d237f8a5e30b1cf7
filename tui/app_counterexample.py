"""The app's counterexample key on a program version: find and shrink a task it fails (engine.counterexample),
show it, step through the program's output on it, and continue the run with it as a debug task.

A part of GenplanApp (see app.py): it uses the app's state (declared in app_state.py); nothing here runs on
its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work

from .app_state import AppState
from .artifacts import Version

SEARCH_SECONDS = 20.0  # the TUI's budget for the search, and again for the shrinking


class CounterexampleMixin(AppState):
    def action_counterexample_selected(self) -> None:
        version = self.selected_version()  # type: ignore[attr-defined]
        if version is None or version.kind != "program" or version.snapshot is not None:
            self.notify("Select a program version of a run (5 Versions) first.", severity="warning")
            return
        run_dir = self.runs_dir / version.run_id
        self.notify(f"Searching a counterexample for {version.name} (a recorded one is shown at once)…")
        self.search_counterexample(version, run_dir)

    @work(thread=True, group="counterexample")
    def search_counterexample(self, version: Version, run_dir: Path) -> None:
        from genplan.engine.counterexample import SearchBudget
        from genplan.engine.counterexample.record import search_for_version
        from genplan.engine.domainlib import DomainDir
        from genplan.engine.pddl import load_domain
        from genplan.engine.runs.store import RunStore

        from .rerun import run_config

        try:
            config = run_config(run_dir)
            domain_dir = DomainDir.open(self.domain_dir)
            budget = SearchBudget(seconds=SEARCH_SECONDS, shrink_seconds=SEARCH_SECONDS,
                                  time_limit=min(config.program_timeout_s, 10.0))
            record, _searched = search_for_version(
                RunStore.open(run_dir), version.name, str(version.path.relative_to(run_dir)), version.read(),
                config.function_name, domain_dir, load_domain(domain_dir.domain_file), seed=0, budget=budget,
            )
            pddl = (run_dir / record["task"]).read_text(encoding="utf-8") if record.get("task") else ""
        except Exception as exc:  # noqa: BLE001 - a bad program, an unreadable domain: one line
            self.call_from_thread(self.notify, f"{version.name}: the counterexample search failed ({exc})",
                                  severity="error")
            return
        self.call_from_thread(self.show_counterexample, version, run_dir, record, pddl)

    def show_counterexample(self, version: Version, run_dir: Path, record: dict[str, Any], pddl: str) -> None:
        from .screens.counterexample import CounterexampleScreen

        if self.shutting_down():
            return

        def plan() -> None:
            failure = (record.get("shrunk") or {}).get("failure") or record.get("failure") or {}
            steps = failure.get("plan")
            if not record.get("task"):
                self.notify("No counterexample, no plan.", severity="warning")
            elif not isinstance(steps, list):  # an exception, a timeout: nothing came back
                self.notify(f"The program returned no plan on it ({failure.get('kind')}): the feedback says why.",
                            severity="warning")
            else:
                self.open_plan_stepper(run_dir / record["task"], [str(s) for s in steps],  # type: ignore[attr-defined]
                                       f"{version.name} on its counterexample")

        def done(choice: str | None) -> None:
            if choice == "continue":
                self.continue_with_counterexample(version, run_dir, record)

        self.push_screen(CounterexampleScreen(f"Counterexample of {version.label}", record, pddl, plan), done)

    def continue_with_counterexample(self, version: Version, run_dir: Path, record: dict[str, Any]) -> None:
        from genplan.engine.api import fork_with_task

        try:
            fork = fork_with_task(run_dir, str(version.path.relative_to(run_dir)), run_dir / record["task"])
        except Exception as exc:  # noqa: BLE001 - a run that cannot be continued: one line
            self.notify(f"{version.name}: cannot continue with this task ({exc})", severity="error")
            return
        self.notify(f"New run {fork.name}: {version.name} goes on with the counterexample as a debug task")
        self.start_pipeline(run_dir=fork)
