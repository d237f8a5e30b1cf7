"""Loading what the app works on: the domain, the runs and their versions, the settings file (each in a worker,
after the first frame where it imports the engine), and the settings screen."""

from __future__ import annotations

from typing import Any

from genplan.tui import messages as msg
from genplan.tui.controllers.base import Context, Host
from genplan.tui.controllers.runs import RunsController
from genplan.tui.domain_info import load_domain_info, runs_only_info
from genplan.tui.options import resolve_run


class WorkspaceController:
    def __init__(self, ctx: Context, host: Host, runs: RunsController) -> None:
        self.ctx, self.host, self.runs = ctx, host, runs
        self.versions = runs.versions
        self.views = runs.views
        self.handlers: dict[type[msg.WorkDone], Any] = {
            msg.DomainLoaded: self.on_domain_loaded, msg.RunsFound: self.on_runs_found,
            msg.RunsListed: self.on_runs_listed, msg.SettingsLoaded: self.on_settings_loaded,
        }
        # Each listing is numbered: its thread cannot be cancelled, so one started earlier may end after a newer
        # one (many runs, a busy disk) and must not replace the newer list.
        self.listings = 0

    def load_domain(self) -> None:
        ctx = self.ctx

        def load() -> None:
            info = runs_only_info(ctx.runs_dir) if ctx.options.no_domain else load_domain_info(ctx.domain_dir)
            self.host.post_message(msg.DomainLoaded(info))

        self.host.in_thread(load, "domain", exclusive=True)

    def load_runs(self) -> None:
        """The runs first, then every version in them: reading all the versions of many runs takes a while
        (a second with 50 runs of 20 versions on a busy machine), and the Runs view need not wait for it."""
        ctx = self.ctx
        self.listings += 1
        listing = self.listings

        def load() -> None:
            from genplan.engine.api import list_runs
            from genplan.engine.api.versions import domain_overview
            from genplan.tui.widgets.versions_tree import arrange_by_run

            runs = list_runs(ctx.runs_dir)
            overviews = domain_overview(ctx.runs_dir)
            self.host.post_message(msg.RunsFound(runs, overviews, listing))
            versions = ctx.version_index.scan()
            self.host.post_message(msg.RunsListed(runs, versions, overviews, arrange_by_run(versions), listing))

        self.host.in_thread(load, "runs", exclusive=True)

    def load_settings(self) -> None:
        options = self.ctx.options

        def load() -> None:
            from genplan.tui.config import load_tui_settings

            settings, prefs, error = load_tui_settings(options.config_file, cli=options.cli_settings)
            from genplan.engine.api.budget import BudgetError, load_budget

            try:  # the settings file's [budget], the command line's caps over it
                prefs.budget = load_budget(options.config_file, flags=options.budget)
            except BudgetError as exc:
                error = error or str(exc)
            if options.preset:
                from genplan.engine.api.presets import ConfigError
                from genplan.tui.config import check_preset

                try:
                    prefs.preset = check_preset(options.preset)
                    prefs.overrides = {}
                except ConfigError as exc:
                    error = error or str(exc)
            self.host.post_message(msg.SettingsLoaded(settings, prefs, error))

        self.host.in_thread(load, "settings", exclusive=True)

    def on_domain_loaded(self, message: msg.DomainLoaded) -> None:
        if self.host.shutting_down():
            return
        ctx = self.ctx
        ctx.domain_info = message.info
        self.views.show_domain(message.info, runs_title=(
            f"Runs in {ctx.runs_dir} (enter opens, y replays, c resumes an unfinished run)"
            if ctx.options.runs_dir is not None else None))
        if message.info.error and not ctx.options.no_domain:
            self.host.notify(message.info.error, title="Domain", severity="error", timeout=10)
        self.runs.status_note = "ready"
        self.views.refresh_totals()
        if ctx.options.watch_files and self.versions.watcher is None:
            self.versions.start_watcher()
        self.runs.start_deferred()

    def on_runs_found(self, message: msg.RunsFound) -> None:
        """Only the Runs view: the runs are taken in with their versions (on_runs_listed)."""
        if self.host.shutting_down() or message.listing != self.listings:
            return
        self.views.show_runs(message.runs, {o.run_id: o for o in message.overviews})

    def on_runs_listed(self, message: msg.RunsListed) -> None:
        if self.host.shutting_down() or message.listing != self.listings:
            return
        ctx, runs = self.ctx, self.runs
        first = not ctx.runs and runs.state is None
        ctx.runs = message.runs
        ctx.overviews = {o.run_id: o for o in message.overviews}
        self.views.show_versions(message.versions, message.overviews, message.arranged)
        self.views.show_run_header()
        # the open run's matrix (the tree's cursor sits on the newest run until a person moves it)
        self.versions.show_matrix(runs.run_dir.name if runs.run_dir is not None else None)
        self.views.update_task_view()
        if first and runs.state is None:
            if ctx.options.replay:
                runs.open_run(resolve_run(ctx.runs_dir, ctx.options.replay), replay=True)
            elif ctx.options.run:
                runs.open_run(resolve_run(ctx.runs_dir, ctx.options.run))

    def on_settings_loaded(self, message: msg.SettingsLoaded) -> None:
        if self.host.shutting_down():
            return
        ctx = self.ctx
        ctx.settings, ctx.prefs, ctx.settings_error = message.settings, message.prefs, message.error
        self.host.apply_keymap(getattr(message.prefs, "keymap", {}))
        if message.error:
            self.host.notify(message.error, title="Settings", severity="error", timeout=10)
        self.views.refresh_totals()
        self.runs.start_deferred()

    def open_settings(self) -> None:
        from genplan.tui.config import config_path, preset_choices
        from genplan.tui.screens.settings import SettingsResult, SettingsScreen

        ctx = self.ctx
        if ctx.settings is None or ctx.prefs is None:
            self.host.notify("Still loading the settings; try again in a moment.", severity="warning")
            return

        def saved(result: SettingsResult | None) -> None:
            if result is None:
                return
            ctx.settings, ctx.prefs = result.settings, result.prefs
            self.host.notify(f"Settings saved to {result.path}")
            self.views.refresh_totals()

        self.host.open_screen(SettingsScreen(ctx.settings, ctx.prefs, config_path(ctx.options.config_file),
                                             preset_choices()), saved)
