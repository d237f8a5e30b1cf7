"""Every key of the TUI, in one table: the bindings of each screen and widget, the help screen and the
command palette are generated from it, so they never disagree.

Each action has an id (``place.name``). A user keymap in the settings file (``[keymap]``, as the posting
HTTP client does it) gives an id other keys: ``"versions.edit" = "E"`` or ``"app.quit" = "ctrl+q"``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from textual.binding import Binding, BindingType


@dataclass(frozen=True)
class Action:
    id: str  # place.name; the binding id a keymap refers to
    keys: str  # default keys, comma-separated
    action: str  # the Textual action it runs
    description: str  # the footer's word(s)
    help: str = ""  # a longer line for the help screen and the palette
    show: bool = True  # in the footer
    key_display: str | None = None
    palette: bool = False  # offered in the command palette (it runs the action on the app)
    title: str = ""  # the palette's name for it (default: the description)
    bind: bool = True  # False: listed in help only (a key Textual itself binds)

    @property
    def place(self) -> str:
        return self.id.split(".", 1)[0]


# Where each place is, for the help screen (in this order).
PLACES = {
    "app": "Everywhere",
    "tasks": "Tasks panel",
    "runs": "Runs panel",
    "timeline": "Run panel: timeline",
    "results": "Run panel: debug results",
    "versions": "Versions panel",
    "matrix": "Results matrix",
    "request": "Request (step mode / manual answer)",
    "editor": "Editor",
    "compare": "Compare / history",
    "diff": "Compare / history: the diff",
    "stepper": "Plan stepper",
    "counterexample": "Counterexample",
    "rerun": "Rerun",
    "text": "Long texts (feedback, program output)",
    "feedback": "Feedback",
    "entry": "Text boxes (a plan, an answer)",
    "pick": "Choices",
    "notice": "Notices (an editor that could not open)",
    "settings": "Settings",
    "help": "Help",
    "cursor": "Lists",
}

ACTIONS: tuple[Action, ...] = (
    # ------------------------------------------------------------------ everywhere
    Action("app.quit", "q", "quit", "Quit", "Leave genplan-tui (a running pipeline is stopped)"),
    Action("app.palette", "ctrl+p", "command_palette", "Palette", "Command palette: every action by name",
           bind=False),
    Action("app.help", "question_mark,f1", "help", "Help", "Keys and what the panels show", key_display="?",
           palette=True),
    Action("app.settings", "s", "settings", "Settings", "Model, base URL, key variable, preset and limits",
           palette=True),
    Action("app.run", "r", "start_run", "Run", "Start a new run on this domain", palette=True, title="Run the pipeline"),
    Action("app.step", "t", "toggle_step", "Watch/Step", "Step mode pauses before every model request",
           palette=True, title="Toggle watch / step mode"),
    Action("app.answer", "a", "answer_pending", "Answer", "Open the request the run is waiting on", palette=True, title="Answer the waiting request"),
    Action("app.stop", "ctrl+b", "stop_run", "Stop", "Stop the run at its next model request", palette=True, title="Stop the run"),
    Action("app.replay-pause", "space", "pause_replay", "Pause", "Pause or continue the replay", palette=True, title="Pause / resume replay"),
    Action("app.replay-step", "full_stop", "replay_step", "Step", "Replay: pause and show the next event",
           key_display=".", palette=True, title="Replay: one event forward"),
    Action("app.replay-back", "comma", "replay_back", "Back", "Replay: pause and go back one event",
           key_display=",", palette=True, title="Replay: one event back"),
    Action("app.replay-answer", "n", "replay_next_answer", "Next answer",
           "Replay: pause after the model's next answer", palette=True, title="Replay: next model answer"),
    Action("app.replay-faster", "plus", "replay_speed(2.0)", "Fast", "Double the replay speed", key_display="+",
           palette=True, title="Replay faster"),
    Action("app.replay-slower", "minus", "replay_speed(0.5)", "Slow", "Halve the replay speed", key_display="-",
           palette=True, title="Replay slower"),
    Action("app.export", "E", "export_html", "Export HTML", "Write the run shown as one self-contained HTML page "
           "beside it (as genplan export does) and say where it went", show=False, palette=True,
           title="Export the run shown as an HTML page"),
    Action("app.classroom", "L", "toggle_classroom", "Classroom", "Classroom mode: a caption under the timeline "
           "names the chosen row's stage of the method and why a failed check's feedback was produced", show=False,
           palette=True, title="Toggle classroom mode"),
    Action("app.tab-domain", "1", "show_tab('domain')", "Domain", "Show the PDDL domain", show=False, palette=True, title="Show domain"),
    Action("app.tab-tasks", "2", "show_tab('tasks')", "Tasks", "Debug and eval tasks: PDDL, NL, Python",
           show=False, palette=True, title="Show tasks"),
    Action("app.tab-runs", "3", "show_tab('runs')", "Runs", "The runs of this domain", show=False, palette=True, title="Show runs"),
    Action("app.tab-run", "4", "show_tab('run')", "Run", "Timeline, answer, debug results", show=False,
           palette=True, title="Show run"),
    Action("app.tab-versions", "5", "show_tab('versions')", "Versions",
           "Strategies, reflections and programs of all runs, as a tree", show=False, palette=True, title="Show versions"),
    Action("app.tab-results", "6", "show_tab('results')", "Results",
           "The results matrix: versions × debug tasks", show=False, palette=True, title="Show results matrix"),
    # ------------------------------------------------------------------ panels
    Action("tasks.plan", "p", "app.plan_stepper", "Plan stepper", "Step through a plan of the chosen task", palette=True, title="Plan stepper"),
    Action("runs.open", "enter", "app.open_selected_run", "Open run", "Load the chosen run", palette=True, title="Open selected run"),
    Action("runs.replay", "y", "app.replay_selected_run", "Replay", "Play the chosen run back event by event", palette=True, title="Replay selected run"),
    Action("runs.resume", "c", "app.resume_run", "Resume", "Continue the chosen run where it stopped", palette=True, title="Resume run"),
    Action("timeline.show", "enter", "app.show_entry", "Show", "Its answer, file or check result", palette=True, title="Show selected timeline entry"),
    Action("timeline.edit", "e", "app.edit_selected", "Edit", "Edit the artefact of this row"),
    Action("timeline.rerun", "x", "app.rerun_selected", "Rerun",
           "Rerun the artefact: a program in the sandbox, a strategy through plan validation"),
    Action("timeline.plan", "p", "app.plan_stepper", "Plan stepper", "A check row: step through its plan"),
    Action("results.plan", "p", "app.plan_stepper", "Plan stepper", "Step through the chosen task's plan"),
    Action("versions.edit", "e", "app.edit_selected", "Edit", "Edit the version; saving makes a new version", palette=True, title="Edit selected version"),
    Action("versions.mark", "m", "app.mark_selected", "Mark", "Remember the version for comparison", palette=True, title="Mark version for comparison"),
    Action("versions.compare", "c", "app.compare_selected", "Compare", "Side by side with the marked version", palette=True, title="Compare with marked version"),
    Action("versions.history", "h", "app.history_selected", "History", "The artefact's versions one after another", palette=True, title="History of selected artefact"),
    Action("versions.rerun", "x", "app.rerun_selected", "Rerun",
           "A program in the sandbox on the debug tasks; a strategy through plan validation", palette=True, title="Rerun selected version"),
    Action("versions.counterexample", "k", "app.counterexample_selected", "Counterexample",
           "Find and shrink a task the program fails (the recorded one when it was searched before)", palette=True,
           title="Counterexample of the selected program"),
    Action("versions.filter", "f", "app.filter_versions", "Filter", "Show only the open run, or all runs", palette=True, title="Versions: only the open run / all runs"),
    Action("matrix.open", "enter", "app.open_matrix_cell", "Plan / feedback",
           "The cell's plan in the plan stepper (its feedback when there is no plan)", palette=True, title="Results matrix: open the cell's plan or feedback"),
    Action("matrix.feedback", "f", "app.matrix_feedback", "Feedback", "The cell's full feedback", palette=True, title="Results matrix: the cell's feedback"),
    # ------------------------------------------------------------------ screens
    Action("request.send", "ctrl+s", "primary", "Send", "Send the request (or your answer)"),
    Action("request.edit", "e", "edit_message", "Edit prompt", "Edit the chosen message before sending"),
    Action("request.answer", "a", "answer", "Answer instead", "Type the answer yourself instead of the model"),
    Action("request.watch", "w", "watch", "Watch (send all)", "Send this and every later request"),
    Action("request.stop", "ctrl+b", "stop", "Stop run", "Stop the run"),
    Action("request.later", "escape", "later", "Later", "Close without deciding: the run waits (a brings it back)"),
    Action("request.wrap", "f2", "toggle_wrap", "Wrap", "Wrap the prompt and the answer box, or let lines run on"),
    Action("request.rendered", "f3", "toggle_rendered", "Rendered/raw",
           "The prompt rendered as Markdown (the manual provider's default) or as the raw text that is sent"),
    Action("editor.save", "ctrl+s", "save", "Save as new version", "Keep the text as a new version"),
    Action("editor.continue", "ctrl+r", "continue", "Continue from here",
           "Save, and continue the pipeline from the new version"),
    Action("editor.external", "ctrl+o", "external", "$EDITOR", "Edit in $VISUAL / $EDITOR"),
    Action("editor.cancel", "escape", "cancel", "Cancel", "Leave without saving anything"),
    Action("editor.wrap", "f2", "toggle_wrap", "Wrap", "Wrap long lines at the window's edge, or let them run on"),
    # the text's own keys (CodeArea): listed in the help, bound by the editor widget
    Action("editor.undo", "ctrl+z", "undo", "Undo", "Undo the last change (again: the one before)", show=False,
           bind=False),
    Action("editor.redo", "ctrl+y", "redo", "Redo", "Redo what was undone", show=False, bind=False),
    Action("editor.indent", "tab", "indent", "Indent", "Indent the selected lines by 4 spaces (no selection: "
           "spaces to the next stop)", show=False, bind=False),
    Action("editor.dedent", "shift+tab", "dedent", "Dedent", "Dedent the line or the selected lines by 4 spaces",
           show=False, bind=False),
    Action("editor.home", "home", "home", "Home", "First non-blank character; again: column 0, and back",
           show=False, bind=False),
    Action("editor.text-start", "ctrl+home", "text_start", "Start of text", "The start of the whole text (with shift: "
           "select up to it)", show=False, bind=False),
    Action("editor.text-end", "ctrl+end", "text_end", "End of text", "The end of the whole text (with shift: select "
           "up to it)", show=False, bind=False),
    Action("editor.newline", "enter", "newline", "New line", "Keeps the indentation; one step deeper after a "
           "Python line ending in ':' or a PDDL line that opens a parenthesis", show=False, bind=False),
    Action("compare.close", "escape", "close", "Back", "Back to where you were"),
    Action("compare.next", "n", "next_change", "Next change", "Jump to the next change"),
    Action("compare.previous", "p", "previous_change", "Prev change", "Jump to the previous change"),
    Action("compare.next-version", "]", "step(1)", "Next version", "History: the next pair of versions",
           key_display="]"),
    Action("compare.previous-version", "[", "step(-1)", "Prev version", "History: the previous pair",
           key_display="["),
    Action("compare.swap", "s", "swap", "Swap sides", "Swap the left and right version"),
    Action("diff.next", "n", "next_change", "Next change", "Jump to the next change", show=False),
    Action("diff.previous", "p", "previous_change", "Prev change", "Jump to the previous change", show=False),
    Action("diff.right", "right", "shift(8)", "Scroll right", "Scroll sideways (long lines, no wrap)", show=False),
    Action("diff.left", "left", "shift(-8)", "Scroll left", "Scroll sideways back", show=False),
    Action("diff.wrap", "w", "toggle_wrap", "Wrap", "Wrap long lines at words, or let them run on"),
    Action("stepper.close", "escape", "close", "Back", "Back to where you were"),
    Action("stepper.failure", "f", "jump_failure", "Failing step", "Jump to the step where the plan fails"),
    Action("stepper.first", "g", "first", "First step", "The initial state", show=False),
    Action("stepper.last", "G", "last", "Last step", "The goal check", show=False),
    Action("stepper.static", "s", "toggle_static", "Static facts", "Show or hide the facts no action changes"),
    Action("counterexample.close", "escape", "close", "Back", "Back to where you were"),
    Action("counterexample.plan", "p", "plan", "Plan stepper", "Step through the program's output on the task"),
    Action("counterexample.continue", "c", "continue", "Continue with this task",
           "A new run from this program version with the task among its debug tasks: debugging goes on"),
    Action("rerun.close", "escape", "close", "Back", "Close (cancels what still runs)"),
    Action("rerun.plan", "p", "plan", "Plan stepper", "Step through the chosen task's plan"),
    Action("rerun.eval", "v", "eval", "Run on eval tasks", "The same program on the eval tasks"),
    Action("text.top", "home", "scroll_home", "Top", "To the top", show=False),
    Action("text.bottom", "end", "scroll_end", "Bottom", "To the bottom", show=False),
    Action("text.wrap", "w", "toggle_wrap", "Wrap", "Wrap long lines at words, or let them run on"),
    Action("feedback.close", "escape", "close", "Back", "Back to where you were"),
    Action("entry.accept", "ctrl+s", "accept", "Accept", "Use the text"),
    Action("entry.cancel", "escape", "cancel", "Cancel", "Leave without using the text"),
    Action("entry.wrap", "f2", "toggle_wrap", "Wrap", "Wrap long lines at the window's edge, or let them run on"),
    Action("pick.cancel", "escape", "cancel", "Cancel", "Choose nothing"),
    Action("notice.close", "escape,enter", "close", "Close", "Close the notice (what you typed meanwhile went nowhere)",
           key_display="esc"),
    Action("settings.save", "ctrl+s", "save", "Save", "Save the settings to the config file"),
    Action("settings.cancel", "escape", "cancel", "Cancel", "Leave without saving"),
    Action("help.close", "escape,q,f1,question_mark", "close", "Close help", "Close the help"),
    Action("cursor.up", "up", "cursor(-1)", "Up", "Previous row", show=False),
    Action("cursor.down", "down", "cursor(1)", "Down", "Next row", show=False),
    Action("cursor.page-up", "pageup", "page(-1)", "Page up", "A page up", show=False),
    Action("cursor.page-down", "pagedown", "page(1)", "Page down", "A page down", show=False),
    Action("cursor.first", "home", "cursor_to(0)", "First", "The first row", show=False),
    Action("cursor.last", "end", "cursor_to(-1)", "Last", "The last row (and follow the run)", show=False),
)
BY_ID = {action.id: action for action in ACTIONS}


def bindings(place: str) -> list[BindingType]:
    """The Textual bindings of one place, with their ids (so that a keymap can change their keys)."""
    return [Binding(a.keys, a.action, a.description, show=a.show, key_display=a.key_display, id=a.id)
            for a in ACTIONS if a.place == place and a.bind]


def check_keymap(keymap: object, where: str) -> tuple[dict[str, str], str | None]:
    """A ``[keymap]`` table from the settings file: (binding id -> keys, one line naming what was left out).
    An unknown id or empty keys leave out that binding alone, with the id most like it (a typo would silently do
    nothing); the others still apply."""
    if not isinstance(keymap, dict):
        return {}, f"{where}: [keymap] must be a table of binding id = \"keys\""
    checked: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in keymap.items():
        if binding_id not in BY_ID:
            problems.append(f"unknown binding id '{binding_id}' ({_closest_id(str(binding_id))})")
        elif not isinstance(keys, str) or not keys.strip():
            problems.append(f"'{binding_id}' must be keys such as \"ctrl+e\"")
        else:
            checked[binding_id] = keys.strip()
    if not problems:
        return checked, None
    kept = f"; the other {len(checked)} bindings apply" if checked else ""
    return checked, f"{where}: [keymap] " + "; ".join(problems) + kept


def _closest_id(binding_id: str) -> str:
    """'did you mean ...' with the id nearest in spelling (or sharing its last part), else where the ids are."""
    close = difflib.get_close_matches(binding_id, list(BY_ID), n=1, cutoff=0.6) or [
        i for i in BY_ID if i.split(".")[-1] == binding_id.split(".")[-1]]
    return f"did you mean {', '.join(close)}?" if close else "see the ids on the help screen, ?"


# what --read-only refuses (a classroom's served app): every action that starts a run or a program, or writes a file
WRITING_ACTIONS = frozenset({"settings", "start_run", "toggle_step", "resume_run", "answer_pending", "stop_run",
                             "edit_selected", "rerun_selected", "counterexample_selected", "export_html"})
# the places only those actions open (a read-only app never shows them)
WRITING_PLACES = frozenset({"request", "editor", "settings", "counterexample", "rerun"})


def allowed_read_only(action: Action) -> bool:
    """Whether a read-only app offers this action (in its help, footer and palette)."""
    return action.place not in WRITING_PLACES and action.action.removeprefix("app.") not in WRITING_ACTIONS


def help_markdown(keymap: dict[str, str], key_name: object, *, read_only: bool = False) -> str:
    """Every place's keys as Markdown tables, with the keys the keymap gives them (read-only: those it allows)."""
    lines: list[str] = []
    for place, title in PLACES.items():
        rows = [a for a in ACTIONS if a.place == place and (allowed_read_only(a) or not read_only)]
        if not rows:
            continue
        lines += [f"## {title}", "", "| key | action | id |", "|---|---|---|"]
        for action in rows:
            keys = keymap.get(action.id, action.keys)
            shown = action.key_display if action.id not in keymap and action.key_display else " / ".join(
                key_name(k) for k in keys.split(","))  # type: ignore[operator]
            what = f"**{action.description}**" + (f": {action.help}" if action.help else "")
            lines.append(f"| `{shown}` | {what} | `{action.id}` |")
        lines.append("")
    return "\n".join(lines)


def palette_actions(*, read_only: bool = False) -> list[Action]:
    return [a for a in ACTIONS if a.palette and (allowed_read_only(a) or not read_only)]


def palette_title(action: Action) -> str:
    return action.title or action.description
