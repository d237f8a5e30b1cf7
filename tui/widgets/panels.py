"""The panels of the main screen. They display what they are handed and keep their own view state; the actions
live in the controllers (``app.*`` bindings, run by the app's action table)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.widgets import DataTable, OptionList, Static, TabbedContent, TabPane
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from genplan.engine.events import CommandExecuted, ValidationResult
from genplan.tui.actions import bindings
from genplan.tui.artifacts import Version
from genplan.tui.domain_info import DomainInfo, TaskInfo, nl_description
from genplan.tui.messages import TextLoaded
from genplan.tui.run_labels import short_run_id
from genplan.tui.run_state import RunState, TimelineEntry, Update, round_text
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.markdown_view import MarkdownView, keep_lines

if TYPE_CHECKING:
    from genplan.engine.api.runs import RunAccount
from genplan.tui.widgets.results_table import ResultsTable
from genplan.tui.widgets.stream_view import StreamView
from genplan.tui.widgets.timeline import Timeline
from genplan.tui.widgets.versions_tree import NodeRef, VersionsPanelModel, VersionsTree, arrange, arrange_by_run, build_run, run_label

# The timeline is brought up to date at most this often while events arrive (each sync lays it out again
# and may move its cursor); the other views follow every tick.
TIMELINE_INTERVAL_S = 0.25
# the requests whose answers are prose written line by line (descriptions, strategies, reflections)
PROSE_STEPS = ("nl.", "strategy.generate", "strategy.reflect", "strategy.revise", "code.reflect",
               "baseline.summary", "baseline.strategy")


class DomainPanel(Vertical):
    DEFAULT_CSS = """
    DomainPanel #domain-description { height: 7; border-bottom: solid $panel-lighten-2; }
    """

    def compose(self) -> ComposeResult:
        yield MarkdownView(id="domain-description")
        yield CodeArea("", syntax="pddl", read_only=True, id="domain-code")

    def on_mount(self) -> None:
        self.query_one("#domain-description", MarkdownView).update("Loading the domain…", follow=False, plain=True)

    def show(self, info: DomainInfo) -> None:
        self.query_one("#domain-description", MarkdownView).update(info.describe(), follow=False)
        code = self.query_one("#domain-code", CodeArea)
        code.load_text(info.domain_text)
        code.display = bool(info.domain_text)  # a directory of runs has no PDDL: no empty editor below the note


class TaskList(OptionList):
    BINDINGS = bindings("tasks")


class TasksPanel(Horizontal):
    DEFAULT_CSS = """
    TasksPanel #task-list { width: 24; height: 1fr; }
    TasksPanel #task-tabs { width: 1fr; height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tasks: list[TaskInfo] = []

    def compose(self) -> ComposeResult:
        yield TaskList(id="task-list")
        with TabbedContent(id="task-tabs"):
            with TabPane("PDDL", id="task-pddl-tab"):
                yield CodeArea("", syntax="pddl", read_only=True, id="task-pddl")
            with TabPane("NL", id="task-nl-tab"):
                # (plain text until a description comes: Pygments' Markdown lexer loads with the first one)
                yield CodeArea("No run has described this task yet.", read_only=True, soft_wrap=True, id="task-nl")
            with TabPane("Python", id="task-python-tab"):
                yield CodeArea("", syntax="python", read_only=True, soft_wrap=True, id="task-python")

    def show_tasks(self, tasks: list[TaskInfo]) -> None:
        self.tasks = tasks
        options = self.query_one("#task-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options([Option(task.label, id=task.label) for task in tasks])
        if tasks:
            options.highlighted = min(highlighted or 0, len(tasks) - 1)

    def selected(self) -> TaskInfo | None:
        index = self.query_one("#task-list", OptionList).highlighted
        if index is None or not 0 <= index < len(self.tasks):
            return None
        return self.tasks[index]

    def show_selected(self, info: DomainInfo, run_dirs: list[Path]) -> None:
        """The chosen task's PDDL, its NL description (from a run that wrote one) and its Python encoding."""
        task = self.selected()
        if task is not None:
            self.read_task(task, info, run_dirs)

    @work(thread=True, exclusive=True, group="task-view")
    def read_task(self, task: TaskInfo, info: DomainInfo, run_dirs: list[Path]) -> None:
        found = nl_description(task, run_dirs)
        nl = found[0] if found else "No run has described this task in natural language yet."
        pddl, python = task.pddl_text(), info.python_text(task)
        self.app.call_from_thread(self.show_task, pddl, nl, python)

    def show_task(self, pddl: str, nl: str, python: str) -> None:
        if not self.is_attached or not self.app.is_running:
            return  # shutting down
        self.query_one("#task-pddl", CodeArea).load_text(pddl)
        self.query_one("#task-nl", CodeArea).show(nl, syntax="markdown")
        self.query_one("#task-python", CodeArea).load_text(python)


class RunsTable(DataTable):
    BINDINGS = bindings("runs")


def fork_text(overview: object, *, short: bool = False) -> Text:
    """``parent, edited strategies/v02.md`` for a fork (engine.versions.VersionsOverview), else nothing. ``short``:
    for a narrow column, the parent's time and suffix (``⑂ 021311-2226 v02.md``): every run id begins with the same
    date, so its start told no two forks apart."""
    parent = getattr(overview, "forked_from", None)
    if not parent:
        return Text("")
    edited = getattr(overview, "edited_version", None)
    if short:
        return Text(f"⑂ {short_run_id(parent)}" + (f" {Path(edited).name}" if edited else ""), style="italic cyan")
    return Text(f"⑂ {parent}" + (f", edited {edited}" if edited else ""), style="italic cyan")


RUN_STATUS_STYLES = {"finished": "green", "failed": "red", "running": "yellow", "stopped": "magenta"}


def run_status(listed: str, overview: object) -> Text:
    """A run's status as its overview has it (read again as the run changes), else as it was listed; with an
    own-loop run's result (a trial's, an evaluation's)."""
    status = str(getattr(overview, "status", "") or listed) if overview is not None else listed
    if status == "?":
        status = listed
    text = Text(status, style=RUN_STATUS_STYLES.get(status, ""))
    outcome = getattr(overview, "outcome", None)
    if outcome:
        text.append(f" · {outcome}")
    return text


def run_header(run_id: str | None, overview: object, account: RunAccount | None = None) -> Text:
    """The lines above the timeline: which run, and for a fork its parent, the edited version and the call it
    continues from (numbered as every screen numbers calls); then the run's account: the recorded model, how it
    was made, its status and outcome, its calls and tokens by kind (the same facts the page and the CLI show)."""
    if run_id is None:
        return Text("no run open", style="dim")
    text = Text(f"run {run_id}", style="bold")
    fork = fork_text(overview)
    if fork.plain:
        at = account.who.provenance.forked_at_call if account is not None else None
        text.append("  fork of ", style="italic cyan")
        text.append_text(Text(fork.plain[2:] + (f" (from call {at} on)" if at else ""), style="italic cyan"))
    if account is not None:
        text.append("\n" + account_line(account), style="dim")
    return text


def account_line(account: RunAccount) -> str:
    """The run's account in one line (it wraps on a narrow screen)."""
    from genplan.engine.api.runs import count_words

    who, counts, outcome = account.who, account.counts, account.outcome
    made = [f"model {who.model or 'none recorded'}", who.provenance.words]
    seconds = "not logged" if counts.model_seconds is None else f"{counts.model_seconds:.1f} s"
    tokens = f"tokens billed {counts.tokens_billed.words}, from the cache {counts.tokens_cached.words}"
    if counts.log:
        tokens += f", in the log {counts.tokens_logged.words}"
    return " · ".join([*made, outcome.status_words, outcome.facts.headline,
                       f"calls: {count_words(counts)}", tokens, f"model time {seconds}", f"cost {counts.cost_words}"])


class RunsPanel(Vertical):
    def compose(self) -> ComposeResult:
        yield Static("Runs of this domain (enter opens, y replays, c resumes an unfinished run)", classes="panel-title",
                     id="runs-title")
        yield RunsTable(id="runs-table", cursor_type="row")

    def on_mount(self) -> None:
        table = self.query_one(RunsTable)
        for column in ("run", "status", "preset", "model", "created", "fork of"):
            table.add_column(column, key=column)

    def show(self, runs: list, overviews: dict | None = None) -> None:
        table = self.query_one(RunsTable)
        table.clear()
        for run in reversed(runs):  # newest first
            overview = (overviews or {}).get(run.run_id)
            table.add_row(run.run_id, run_status(run.status, overview), run.preset, run.model or "manual",
                          run.created, fork_text(overview, short=True), key=run.run_id)

    def update_run(self, run_id: str, overview: object) -> None:
        """A run's overview was read again (it finished in another terminal, say): its row says how it stands."""
        table = self.query_one(RunsTable)
        if run_id not in table.rows:
            return
        table.update_cell(run_id, "status", run_status(str(getattr(overview, "status", "?")), overview))
        table.update_cell(run_id, "fork of", fork_text(overview, short=True))

    def selected(self) -> str | None:
        table = self.query_one(RunsTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value


class RunTimeline(Timeline):
    BINDINGS = bindings("timeline")


class RunResults(ResultsTable):
    BINDINGS = bindings("results")


class RunPanel(Vertical):
    """The run view: the header, the timeline, the answer (or the chosen row's content), the classroom caption and
    the debug results. It keeps what it shows in step with a RunState it is handed (``show_events``) and reads
    files for the answer view in its own worker."""

    DEFAULT_CSS = """
    RunPanel #run-header { height: auto; max-height: 4; padding: 0 1; background: $boost; }
    RunPanel #run-top { height: 1fr; }
    RunPanel #run-timeline { width: 55%; }
    RunPanel #results-title { height: 1; background: $boost; padding: 0 1; }
    RunPanel #run-results { height: 7; }
    RunPanel #classroom-caption { height: 1; padding: 0 1; background: $accent 30%; display: none; }
    RunPanel #replay-note { height: auto; max-height: 2; padding: 0 2; background: $warning 30%; display: none;
                            text-style: bold; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timeline_pending: set[int] = set()  # entries changed since the timeline was last synced
        self.timeline_synced = 0.0
        self.replay_note = ""  # classroom mode: the replay's position or next stage, above the caption

    def compose(self) -> ComposeResult:
        yield Static(run_header(None, None), id="run-header")
        with Horizontal(id="run-top"):
            yield RunTimeline(id="run-timeline")
            yield StreamView(id="run-stream")
        yield Static("", id="replay-note")  # classroom mode: "Next: …", the replay's position (not a message)
        yield Static("", id="classroom-caption")  # classroom mode: the chosen row's stage of the method
        yield Static("debug results", id="results-title")
        yield RunResults(id="run-results")

    @property
    def timeline(self) -> RunTimeline:
        return self.query_one(RunTimeline)

    @property
    def stream(self) -> StreamView:
        return self.query_one(StreamView)

    def reset(self, note: str) -> None:
        """Empty the view for another run (``note`` in the answer view)."""
        self.timeline_pending.clear()
        self.timeline_synced = 0.0  # the new run's first rows appear at once
        self.timeline.reset()
        self.query_one(RunResults).show([])
        self.query_one("#results-title", Static).update("debug results", layout=False)  # the run before's count
        self.show_replay_note("")  # and its replay's position, if it was replayed
        self.stream.show(None, note, "")

    def show_header(self, run_id: str | None, overview: object, account: RunAccount | None = None) -> None:
        self.query_one("#run-header", Static).update(run_header(run_id, overview, account))

    def show_events(self, state: RunState, update: Update, started: list[str], streamed: dict[str, list[str]]) -> None:
        """What the events just applied to ``state`` changed: rows, the answer being written, the results."""
        self.timeline_pending.update(update.entries)
        self.sync_timeline(state)
        stream = self.stream
        if started and self.following():
            rid = started[-1]
            entry = state.entry(f"req:{rid}")
            stream.show(rid, stream_title(entry, rid), state.stream_text(rid), prose=is_prose(entry))
        else:
            for rid, pieces in streamed.items():
                stream.append(rid, "".join(pieces))
        if stream.request_id is not None and update.entries:
            followed = state.entry(f"req:{stream.request_id}")
            if followed is not None:
                stream.set_title(stream_title(followed, stream.request_id))
                if followed.status not in ("running", "paused"):
                    stream.view.finish()  # the answer is complete: render all of it
        if update.results:
            self.show_results(state)

    def sync_timeline(self, state: RunState) -> None:
        """The timeline brought up to date, at most every TIMELINE_INTERVAL_S while events arrive."""
        if not self.timeline_pending:
            return
        now = time.monotonic()
        if now - self.timeline_synced < TIMELINE_INTERVAL_S:
            return
        self.timeline.sync(state, Update(entries=sorted(self.timeline_pending)))
        self.timeline_pending.clear()
        self.timeline_synced = now

    def following(self) -> bool:
        timeline = self.timeline
        return timeline.row_count == 0 or timeline.cursor_row >= timeline.row_count - 1

    def show_results(self, state: RunState) -> None:
        table = state.current_table
        self.query_one(RunResults).show(list(table.values()))
        if state.current_results is not None:
            what, version = state.current_results
            solved = sum(r.valid for r in table.values())
            self.query_one("#results-title", Static).update(
                f"debug results: {what} {version} — {solved}/{len(table)} passed", layout=False)

    def show_progress(self, title: str, text: str) -> None:
        """An own-loop run's progress lines, while no answer is followed."""
        if self.stream.request_id is None:
            self.stream.show(None, title, text)

    def show_caption(self, entry: TimelineEntry | None, shown: bool = True, *, timeline: Sequence[TimelineEntry] = (),
                     live: bool = False) -> None:
        from genplan.tui.classroom import stage_caption

        caption = self.query_one("#classroom-caption", Static)
        caption.display = shown
        self.query_one("#replay-note", Static).display = shown and bool(self.replay_note)
        # it wraps (app.tcss): the reason for a feedback is the point of the caption
        if shown:
            caption.update(Text(stage_caption(entry, timeline, live=live)))

    def show_replay_note(self, note: str) -> None:
        """Classroom mode: the replay's position or next stage, above the caption (empty: none)."""
        self.replay_note = note
        line = self.query_one("#replay-note", Static)
        line.update(Text(note))
        line.display = bool(note) and bool(self.query_one("#classroom-caption", Static).display)

    def show_entry(self, state: RunState, entry: TimelineEntry) -> None:
        """A row's content in the answer view: its answer, file or check result (files read in a worker)."""
        stream = self.stream
        if entry.kind == "request" and entry.request_id is not None:
            rid = entry.request_id
            if entry.status in ("running", "paused") or entry.response_file is None:
                stream.show(rid, stream_title(entry, rid), state.stream_text(rid), prose=is_prose(entry))
            elif is_prose(entry):  # a description or strategy: line by line
                self.read(stream_title(entry, rid), lambda: keep_lines(state.response_text(rid)), rid)
            else:
                self.read(stream_title(entry, rid), lambda: state.response_text(rid), rid)
            return
        if entry.kind in ("artifact", "edit") and entry.file is not None:
            file = entry.file

            def read() -> str:
                try:
                    text = file.read_text(encoding="utf-8", errors="replace")
                except OSError as exc:
                    return f"cannot read {file}: {exc.strerror or exc}"
                if file.suffix == ".py":
                    return f"```python\n{text}\n```"
                return keep_lines(text)  # a strategy's numbered steps, an NL description: line by line

            self.read(f"{entry.title} · {file.name}", read)
            return
        if entry.kind == "check" and isinstance(entry.event, ValidationResult):
            check = entry.event
            lines = [f"**{entry.title} on {entry.detail}: {'pass' if check.valid else 'fail'}**", ""]
            if check.message:
                lines += [str(check.message), ""]
            if isinstance(check.plan, list):
                lines += ["```", *[str(a) for a in check.plan], "```"]
            stream.show(None, entry.title, "\n".join(lines))
            return
        if entry.kind == "command":  # PDDLego+/PlanGen: the game's whole answer, then the transcript so far
            self.read(f"› {entry.title}", lambda: command_text(entry, state.run_dir))
            return
        if entry.kind == "round":  # AutoToS: the failed unit test and the feedback the model got, as the engine wrote it
            stream.show(None, entry.title, round_text(entry))
            return
        stream.show(None, entry.title, entry.detail or entry.title)

    @work(thread=True, exclusive=True, group="read-for-view")
    def read(self, title: str, read: Callable[[], str], request_id: str | None = None) -> None:
        """File reads happen here, never on the event loop (a busy disk can stall them)."""
        self.post_message(TextLoaded("stream", title, read(), request_id))

    def on_text_loaded(self, message: TextLoaded) -> None:
        message.stop()
        if message.target == "stream" and self.is_attached and self.app.is_running:
            self.stream.show(message.request_id, message.title, message.text)


def command_text(entry: TimelineEntry, run_dir: Path | None) -> str:
    """A game command's row in full: the command, what the game answered (or why it refused), and the trial's
    observation history as the engine wrote it (observations.md)."""
    command = entry.event if isinstance(entry.event, CommandExecuted) else None
    answer = str((command.error or command.observation or "") if command is not None else "").strip()
    lines = [f"**› {entry.title}**", "", "```text", answer or "(no answer)", "```"]
    from genplan.engine.api.runs import observations_file

    transcript = observations_file(run_dir) if run_dir is not None else None
    if transcript is not None and transcript.is_file():
        lines += ["", "---", "", transcript.read_text(encoding="utf-8", errors="replace")]
    return "\n".join(lines)


def is_prose(entry: TimelineEntry | None) -> bool:
    """Whether a request's answer is prose written line by line (a description, a strategy, a reflection)."""
    return entry is not None and (entry.step or "").startswith(PROSE_STEPS)


def stream_title(entry: TimelineEntry | None, rid: str) -> str:
    """``call 25 · strategy.plan task-00 v01 · done``: requests are numbered as the calls are counted (the
    run's own request ids, in its file names, skip the ids kept for retries)."""
    if entry is None:
        return f"request {rid}"
    name = f"call {entry.call}" if entry.call is not None else f"request {rid}"
    return f"{name} · {entry.title} {entry.detail}".strip() + f" · {entry.status}"


class VersionsPanel(Horizontal):
    """The Versions tree (run → phase → candidate → version, with pass counts) and a preview of the chosen one.

    A run's branch is filled when it is first expanded (a domain may hold thousands of versions)."""

    DEFAULT_CSS = """
    VersionsPanel #versions-side { width: 46%; min-width: 36; height: 1fr; }
    VersionsPanel #versions-filter { height: 1; background: $boost; padding: 0 1; }
    VersionsPanel #version-preview { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = VersionsPanelModel()
        self.versions: list[Version] = []  # in tree order (only the open run's while filtered)
        self.marked: str | None = None
        self.current_run: str | None = None  # the open run: expanded, and the filter's run
        self.only_current = False
        self._run_nodes: dict[str, TreeNode[NodeRef]] = {}
        self._arranged: dict[str, list[tuple[str, str | None, Version]]] = {}
        self._built: set[str] = set()  # runs whose branch is filled
        self._by_key: dict[str, Version] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="versions-side"):
            yield Static("all runs · f: this run only", id="versions-filter")
            yield VersionsTree(id="versions-tree")
        yield CodeArea("", read_only=True, soft_wrap=True, id="version-preview")

    @property
    def versions_tree(self) -> VersionsTree:
        return self.query_one(VersionsTree)

    def show(self, versions: list[Version], overviews: list | None = None,
             arranged: dict[str, list[tuple[str, str | None, Version]]] | None = None) -> None:
        """Rebuild the whole tree (``overviews`` None: keep the pass counts known so far; ``arranged``: the
        versions already put in order by ``arrange_by_run``, e.g. in a worker thread)."""
        selected = self.selected()
        by_run: dict[str, list[Version]] = {}
        for version in versions:
            by_run.setdefault(version.run_id, []).append(version)
        self.model.versions = by_run
        if overviews is not None:
            self.model.overviews = {o.run_id: o for o in overviews}
        self._arranged = arranged if arranged is not None else arrange_by_run(versions)
        self._relist()
        if selected is not None and self.select(selected.key):
            return
        tree = self.versions_tree
        if self.current_run in self._run_nodes:
            tree.move_cursor(self._run_nodes[self.current_run])
        elif self._run_nodes and tree.cursor_line < 0:
            tree.move_cursor(next(iter(self._run_nodes.values())))

    def _relist(self) -> None:
        tree = self.versions_tree
        tree.clear()
        self._run_nodes.clear()
        self._built.clear()
        for run_id in self.model.run_ids():
            if self.only_current and run_id != self.current_run:
                continue
            # the open run is expanded; with none open, the newest
            expand = run_id == self.current_run or (self.current_run is None and not self._run_nodes)
            node = tree.root.add(run_label(run_id, self.model.overviews.get(run_id), run_id == self.current_run),
                                 NodeRef("run", run_id))
            self._run_nodes[run_id] = node
            if expand:
                self._build(run_id)
                node.expand()
        self._flatten()
        self._update_filter_line()

    def _build(self, run_id: str) -> None:
        node = self._run_nodes.get(run_id)
        if node is None:
            return
        build_run(node, run_id, self._arranged.get(run_id, []), self.model.overviews.get(run_id), self.marked)
        self._built.add(run_id)

    def on_tree_node_expanded(self, event: VersionsTree.NodeExpanded) -> None:
        ref = event.node.data
        if ref is not None and ref.kind == "run" and ref.run_id not in self._built:
            self._build(ref.run_id)

    def update_run(self, run_id: str, versions: list[Version] | None = None, overview: object | None = None) -> None:
        """Redraw one run's branch (new versions, new results): the rest of the tree is left alone."""
        if versions is not None:
            self.model.versions[run_id] = [v for v in versions if v.run_id == run_id]
            self._arranged[run_id] = arrange(self.model.versions[run_id])
        if overview is not None:
            self.model.overviews[run_id] = overview
        node = self._run_nodes.get(run_id)
        if node is None:
            if not self.only_current or run_id == self.current_run:
                selected = self.selected()
                self._relist()
                if selected is not None:
                    self.select(selected.key)
            return
        selected = self.selected()
        node.set_label(run_label(run_id, self.model.overviews.get(run_id), run_id == self.current_run))
        if run_id in self._built:
            self._build(run_id)
        self._flatten()
        if selected is not None and selected.run_id == run_id:
            self.select(selected.key)

    def _flatten(self) -> None:
        self.versions = [v for run_id in self._run_nodes for _p, _c, v in self._arranged.get(run_id, [])]
        self._by_key = {v.key: v for v in self.versions}

    def _update_filter_line(self) -> None:
        if self.only_current:
            text = f"only run {self.current_run or '(none open)'} · f: all runs"
        else:
            count = len(self._run_nodes)
            text = f"{count} run{'' if count == 1 else 's'} · f: only the open run"
        self.query_one("#versions-filter", Static).update(text)

    def set_current_run(self, run_id: str | None) -> None:
        if run_id == self.current_run:
            return
        previous, self.current_run = self.current_run, run_id
        for rid in (previous, run_id):
            node = self._run_nodes.get(rid) if rid else None
            if rid and node is not None:
                node.set_label(run_label(rid, self.model.overviews.get(rid), rid == run_id))
        if self.only_current:
            self._relist()
        elif run_id in self._run_nodes:
            if run_id not in self._built:
                self._build(run_id)
            self._run_nodes[run_id].expand()

    def toggle_filter(self) -> None:
        selected = self.selected()
        self.only_current = not self.only_current
        self._relist()
        if selected is not None:
            self.select(selected.key)

    def selected_node(self) -> NodeRef | None:
        node = self.versions_tree.cursor_node
        return node.data if node is not None else None

    def selected(self) -> Version | None:
        ref = self.selected_node()
        if ref is None or ref.kind != "version":
            return None
        return self._by_key.get(ref.key)

    def selected_run(self) -> str | None:
        ref = self.selected_node()
        return ref.run_id if ref is not None else None

    def select(self, key: str) -> bool:
        """Move the cursor to a version (filling and expanding its run); False if it is not in the tree."""
        run_id = key.split("/", 1)[0]
        if run_id in self._run_nodes and run_id not in self._built:
            self._build(run_id)
        found = self._find(key)
        if found is None:
            return False
        parent = found.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        tree = self.versions_tree
        _ = tree.last_line  # lay the lines out, so that the node knows its line
        tree.move_cursor(found)
        return True

    def _find(self, key: str) -> TreeNode[NodeRef] | None:
        run_id = key.split("/", 1)[0]
        node = self._run_nodes.get(run_id)
        stack = [node] if node is not None else []
        while stack:
            current = stack.pop()
            if current.data is not None and current.data.kind == "version" and current.data.key == key:
                return current
            stack.extend(current.children)
        return None

    @work(thread=True, exclusive=True, group="read-for-view")
    def read_preview(self, key: str, read: Callable[[], str]) -> None:
        """A version's text, read in a worker; shown if it is still the chosen one when it arrives."""
        self.post_message(TextLoaded("preview", key, read()))

    def on_text_loaded(self, message: TextLoaded) -> None:
        message.stop()
        selected = self.selected() if self.is_attached and self.app.is_running else None
        if message.target == "preview" and selected is not None and selected.key == message.title:
            self.show_preview(message.text, selected.syntax)

    def show_preview(self, text: str, syntax: str, *, line_numbers: bool = True) -> None:
        preview = self.query_one("#version-preview", CodeArea)
        preview.show_line_numbers = line_numbers
        preview.show(text, syntax)

    def set_mark(self, key: str | None) -> None:
        old, self.marked = self.marked, key
        for run_id in {k.split("/", 1)[0] for k in (old, key) if k}:
            if run_id in self._built:
                self.update_run(run_id)
