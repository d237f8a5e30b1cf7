"""The genplan TUI application: it composes the main screen and the controllers, routes the workers' messages
to the controller of each, runs the one action table (tui/actions.py), and gives the controllers their few
services (``Host`` of tui/controllers/base.py).

The logic lives in the controllers (tui/controllers/): runs, replay, versions, plans, counterexample, workspace;
the views in the main screen (tui/main_screen.py) and its widgets. Long work (loading, the pipeline, reruns)
runs in workers and comes back as messages or queued events; the state changes only on the UI thread.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from rich.errors import ConsoleError, StyleError
from rich.style import Style
from rich.text import Text
from textual import actions, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.notifications import Notification, SeverityLevel
from textual.screen import Screen

from genplan.tui import messages as msg
from genplan.tui.actions import WRITING_ACTIONS, bindings
from genplan.tui.controllers.base import Context
from genplan.tui.controllers.counterexample import CounterexampleController
from genplan.tui.controllers.plans import PlansController
from genplan.tui.controllers.runs import RunsController
from genplan.tui.controllers.versions import VersionsController
from genplan.tui.controllers.workspace import WorkspaceController
from genplan.tui.main_screen import MainScreen
from genplan.tui.options import LaunchOptions, resolve_run
from genplan.tui.responsiveness import GcState

__all__ = ["GenplanApp", "LaunchOptions", "resolve_run"]

DRAIN_INTERVAL_S = 0.05
UI_SWITCH_INTERVAL_S = 0.001
# how long a message stays on the message line, by severity (an explicit timeout wins)
MESSAGE_SECONDS = {"information": 5.0, "warning": 8.0, "error": 12.0}


def message_text(message: str, markup: bool) -> Text:
    """A message as the message line shows it: its markup applied when it is valid Rich markup, else its text
    as written (a message that names ``[keymap]`` means the words, not a style)."""
    if not markup:
        return Text(message)
    try:
        text = Text.from_markup(message)
        for span in text.spans:
            if isinstance(span.style, str):
                Style.parse(span.style)
    except (ConsoleError, StyleError):
        return Text(message)
    return text


class GenplanApp(App[None]):
    TITLE = "genplan"
    CSS_PATH = "app.tcss"
    BINDINGS = bindings("app")

    def __init__(self, options: LaunchOptions) -> None:
        super().__init__()
        self.options = options
        self.ctx = ctx = Context(options)
        self.main = main = MainScreen(on_mounted=self.start)
        self.plans = PlansController(ctx, self, main)
        self.versions = VersionsController(ctx, self, main, self.plans)
        self.runner = RunsController(ctx, self, main, self.versions)
        self.replay = self.runner.replay
        self.counterexamples = CounterexampleController(ctx, self, self.versions, self.plans, self.runner)
        self.workspace = WorkspaceController(ctx, self, self.runner)
        self.messages: list[Notification] = []  # every message of the session, oldest first
        main.runs = self.runner
        self.routes: dict[type[msg.WorkDone], Callable[[Any], object]] = {
            **self.runner.handlers, **self.versions.handlers, **self.workspace.handlers}
        runner, replay, versions, plans = self.runner, self.replay, self.versions, self.plans
        # the action names of the action table (tui/actions.py) -> what they do
        self.handlers: dict[str, Callable[..., object]] = {
            "settings": self.workspace.open_settings, "start_run": runner.start_run,
            "toggle_step": runner.toggle_step, "answer_pending": runner.answer_pending, "stop_run": runner.stop_run,
            "open_selected_run": runner.open_selected, "replay_selected_run": lambda: runner.open_selected(True),
            "resume_run": runner.resume, "pause_replay": replay.toggle_pause, "replay_speed": replay.change_speed,
            "replay_step": replay.step, "replay_back": replay.back, "replay_next_answer": replay.next_answer,
            "toggle_classroom": main.toggle_classroom, "show_tab": main.show_tab, "show_entry": main.show_entry,
            "plan_stepper": plans.plan_stepper, "open_matrix_cell": plans.open_matrix_cell,
            "matrix_feedback": plans.matrix_feedback, "edit_selected": versions.edit, "mark_selected": versions.mark,
            "compare_selected": versions.compare, "history_selected": versions.history,
            "rerun_selected": versions.rerun, "filter_versions": versions.filter_versions,
            "counterexample_selected": self.counterexamples.counterexample_selected, "help": self.show_help,
            "export_html": runner.export_shown,
        }
        # start-up and shutdown
        self.first_screen_at: float | None = None
        self._switch_interval = sys.getswitchinterval()
        self._gc_state: GcState | None = None  # once the heap is frozen
        self.heap_freezes = 0  # at mount, then after the warm-up
        self._exiting = False

    def get_default_screen(self) -> Screen[Any]:
        return self.main

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A message goes to the message line of the screen shown (its KeyBar), never over the content, and to
        the session's message log (``messages``). A screen without a key bar (Textual's own, such as the
        command palette) gets Textual's toast."""
        from genplan.tui.widgets.key_bar import KeyBar

        seconds = timeout if timeout is not None else MESSAGE_SECONDS.get(severity, self.NOTIFICATION_TIMEOUT)
        self.messages.append(Notification(message, title, severity, seconds, markup))
        bars = self.screen.query(KeyBar) if self.screen_stack else None
        if not bars:
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
            return
        text = message_text(message, markup)
        if title:
            text = Text.assemble((f"{title}: ", "bold"), text)
        bars.last().say(Text(" ").join(text.split()), severity, seconds)

    def clear_messages(self) -> None:
        """The message lines of every screen emptied (and Textual's toasts, if any)."""
        from genplan.tui.widgets.key_bar import KeyBar

        for screen in self.screen_stack:
            for bar in screen.query(KeyBar):
                bar.clear_message()
        self.clear_notifications()

    # ================================================================== start-up
    def on_mount(self) -> None:
        # The pipeline, the sandbox and the renderers run in threads; switching the GIL more often keeps
        # the event loop's waits for it short (the UI stays responsive while they work).
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(UI_SWITCH_INTERVAL_S)
        self.title = f"genplan — {self.ctx.domain_dir.name}"

    def start(self) -> None:
        """The main screen is composed: show it, and start loading."""
        self.main.refresh_totals()
        self.set_interval(DRAIN_INTERVAL_S, self.runner.drain)
        self.set_interval(1.0, self.main.refresh_totals)
        if self.options.tune_gc:
            from genplan.tui import responsiveness

            self._gc_state = responsiveness.freeze_long_lived()
            self.heap_freezes += 1
        self.call_after_refresh(self._first_paint)

    def _first_paint(self) -> None:
        self.first_screen_at = time.perf_counter()
        # These import the engine's PDDL reader, pipeline and model client (seconds on a slow machine), and a
        # worker thread takes the interpreter from the first frame's drawing: after the first frame.
        self.workspace.load_domain()
        self.workspace.load_runs()
        self.workspace.load_settings()
        if self.options.tune_gc:
            self.in_thread(self._warm_up, "warm-up", exclusive=True)

    def _warm_up(self) -> None:
        from genplan.tui import responsiveness

        responsiveness.warm_up()
        try:
            self.call_from_thread(self._freeze_heap)
        except RuntimeError:  # the app exited meanwhile
            pass

    def _freeze_heap(self) -> None:
        from genplan.tui import responsiveness

        if self._gc_state is not None and not self._exiting:
            responsiveness.freeze_long_lived(self._gc_state)
            self.heap_freezes += 1

    # ================================================================== what the controllers ask (Host)
    def open_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        self.push_screen(screen, callback)

    def in_thread(self, work: Callable[[], object], group: str, exclusive: bool = False) -> None:
        self.run_worker(work, group=group, exclusive=exclusive, thread=True)

    def in_task(self, work: Callable[[], Awaitable[object]], group: str) -> None:
        self.run_worker(work, group=group, exclusive=True)

    def cancel_group(self, group: str) -> None:
        self.workers.cancel_group(self, group)

    def later(self, delay: float, callback: Callable[[], object]) -> None:
        self.set_timer(delay, callback)

    def after_refresh(self, callback: Callable[[], object]) -> None:
        self.call_after_refresh(callback)

    def from_thread(self, callback: Callable[[], object]) -> None:
        self.call_from_thread(callback)

    def shutting_down(self) -> bool:
        """True once the app has begun to close: a worker's late message must not touch widgets being removed
        (Textual clears ``is_running`` first, then unmounts the children one by one)."""
        return not self.is_running or not self.screen_stack

    def screens_open(self) -> int:
        return len(self.screen_stack)

    def load_runs(self) -> None:
        self.workspace.load_runs()

    def load_domain(self) -> None:
        self.workspace.load_domain()

    def apply_keymap(self, keymap: dict[str, str]) -> None:
        self.ctx.keymap = dict(keymap)
        self.set_keymap(self.ctx.keymap)
        self.refresh_bindings()

    @on(msg.WorkDone)
    def route(self, message: msg.WorkDone) -> None:
        """A worker's result goes to the controller that handles its type."""
        handler = self.routes.get(type(message))
        if handler is not None:
            handler(message)

    # ================================================================== the action table
    async def run_action(self, action: str | actions.ActionParseResult, default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """The app's actions of the table run their controller's method; the rest as Textual runs them."""
        if self._exiting:  # a key typed right after q (q then ?): nothing opens on an app that is closing
            return False
        target, name, parameters = actions.parse(action) if isinstance(action, str) else action
        on_app = target == "app" or (not target and default_namespace in (None, self))
        if on_app and name in self.handlers and not (namespaces and target in namespaces):
            if self.options.read_only and name in WRITING_ACTIONS:  # a key the footer hides, or a direct call
                self.notify("Read-only: this app is served for watching and replaying runs; nothing is started, "
                            "edited or saved here.", severity="warning", markup=False)
                return False
            if not self.check_action(name, parameters):
                return False
            self.handlers[name](*parameters)
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # False hides a binding that makes no sense right now (keeps the footer short at 80 columns).
        if self.options.read_only and action in WRITING_ACTIONS:
            return False
        return self.main.applies(action)

    def key_description(self, binding: Binding) -> str:
        return self.replay.key_word(binding.action) or binding.description  # the footer's word for a key

    def show_help(self) -> None:
        from genplan.tui.actions import help_markdown
        from genplan.tui.screens.help import HelpScreen

        read_only = self.options.read_only
        self.push_screen(HelpScreen(help_markdown(self.ctx.keymap, self.get_key_display_for, read_only=read_only),
                                    read_only=read_only))

    def get_key_display_for(self, key: str) -> str:
        return self.get_key_display(Binding(key, ""))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        from genplan.tui.actions import palette_actions, palette_title

        yield from super().get_system_commands(screen)
        seen: set[str] = set()
        for entry in palette_actions(read_only=self.options.read_only):  # the action table: the same actions as the keys and the help
            action = entry.action.removeprefix("app.")
            if action in seen or not self.check_action(action.split("(")[0], ()):
                continue
            seen.add(action)
            yield SystemCommand(palette_title(entry), entry.help, lambda action=action: self.run_action(action))

    # ================================================================== shutdown
    async def action_quit(self) -> None:
        self._exiting = True  # from now on no action runs (run_action): the screens are being taken down
        self.shutdown()
        self.exit()

    def shutdown(self) -> None:
        self.runner.shutdown()
        self.versions.shutdown()

    def on_unmount(self) -> None:
        self._exiting = True
        self.shutdown()
        sys.setswitchinterval(self._switch_interval)
        if self._gc_state is not None:
            from genplan.tui import responsiveness

            responsiveness.restore(self._gc_state)
            self._gc_state = None
