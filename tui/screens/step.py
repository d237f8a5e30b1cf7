"""Step mode and manual answers: the request the pipeline is about to send, and what to do with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from genplan.tui.actions import bindings
from genplan.tui.classroom import STEPS
from genplan.tui.screens.editor import EditorScreen, EditResult
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.key_bar import KeyBar
from genplan.tui.widgets.markdown_view import MarkdownView


@dataclass
class StepChoice:
    action: str  # send, edit, answer, stop, watch (send this and all later requests), later
    messages: list[Any] | None = None
    answer: str | None = None
    edited: set[int] = field(default_factory=set)


def request_markdown(step: str, about: str, index: int, messages: list[Any], *, manual: bool) -> str:
    """One message of a request as Markdown to read: what is asked of whom above it, then the message itself
    (its task in PDDL, in words or as Python is already fenced by the prompt templates, so it renders as code)."""
    message = messages[index]
    task = f" for **{about}**" if about else ""
    role = {"system": "the instructions (system)", "user": "the question (user)",
            "assistant": "an earlier answer (assistant)"}.get(message.role, message.role)
    # one line above the message: the screen is small at 80x24 and the prompt is what is read
    who = "**You are the model**: answer" if manual else "Request"
    lines = [f"{who} `{step}`{task} · message {index + 1} of {len(messages)}: {role}", "", "---", "",
             message.content]
    return "\n".join(lines)


class RequestScreen(Screen[StepChoice]):
    """``manual`` False: step mode (send / edit / answer / stop). True: the manual provider wants an answer."""

    BINDINGS = bindings("request")
    DEFAULT_CSS = """
    RequestScreen #request-title { height: auto; background: $warning 30%; padding: 0 1; text-style: bold; }
    RequestScreen #request-messages { width: 22; height: 1fr; }
    RequestScreen #request-text { height: 1fr; }
    RequestScreen #request-view { height: 1fr; padding: 0 2; }
    RequestScreen #answer-label { height: 1; background: $boost; padding: 0 1; }
    RequestScreen #answer-text { height: 1fr; }
    RequestScreen #request-body { height: 2fr; }  /* the prompt is read more than the answer box is filled */
    """

    def __init__(self, request_id: int | None, request: Any, *, manual: bool, note: str = "", about: str = "",
                 call: int | None = None) -> None:
        super().__init__()
        self.call = call  # the request's place among the run's calls (its id skips the ids kept for retries)
        self.about = about  # the task (and version) the request concerns
        self.request_id = request_id
        self.request = request
        self.manual = manual
        self.note = note
        self.messages = list(request.messages)
        self.edited: set[int] = set()
        self.shown = len(self.messages) - 1

    def compose(self) -> ComposeResult:
        number = f"call {self.call} · " if self.call is not None else (
            f"request {self.request_id} · " if self.request_id is not None else "")
        step = f"{self.request.step} for {self.about}" if self.about else self.request.step
        if self.manual:
            title = f"{number}{step} — no model is configured: you answer (paste or type it below)"
        else:
            title = f"{number}{step} — paused before sending (step mode)"
        stage = STEPS.get(self.request.step)
        if stage is not None:  # where in the method this question is, as classroom mode names it
            title += f"\n{stage[0]}: {stage[1]}."
        if self.note:
            title += f"\n{self.note}"
        with Vertical():
            yield Static(title, id="request-title")
            with Horizontal(id="request-body"):
                yield OptionList(*self._options(), id="request-messages")
                yield CodeArea(self.messages[-1].content if self.messages else "", syntax="markdown",
                               read_only=True, soft_wrap=True, id="request-text")
                # "you are the model": the prompt read as the model would read it, rendered (f3: the raw text)
                yield MarkdownView(id="request-view")
            # the answer box under the prompt, both in view (step mode: shown by a). Plain text: nothing is
            # highlighted again on every key, so typing keeps up on a busy machine.
            label = "Your answer (ctrl+s sends it):" if self.manual else \
                "Your answer instead of the model's (ctrl+s sends it):"
            yield Static(label, id="answer-label")
            yield CodeArea("", syntax=None, soft_wrap=True, show_line_numbers=False, id="answer-text")
        yield KeyBar()

    def _options(self) -> list[Option]:
        options = []
        for index, message in enumerate(self.messages):
            mark = " (edited)" if index in self.edited else ""
            first = " ".join(message.content.split())[:14]
            options.append(Option(f"{index + 1} {message.role}{mark}\n  {first}", id=str(index)))
        return options

    @property
    def answering(self) -> bool:
        """Whether the answer box is open (always with the manual provider; in step mode after a)."""
        return bool(self.query_one("#answer-text", CodeArea).display)

    def on_mount(self) -> None:
        options = self.query_one("#request-messages", OptionList)
        options.highlighted = len(self.messages) - 1 if self.messages else None
        self.show_rendered(self.manual)
        self.query_one("#answer-label").display = self.manual
        self.query_one("#answer-text", CodeArea).display = self.manual
        if self.manual:
            self.query_one("#answer-text", CodeArea).focus()
        else:
            options.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.manual and action in ("edit_message", "watch"):
            return False
        return True

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None:
            return
        self.shown = int(event.option.id)
        self.query_one("#request-text", CodeArea).load_text(self.messages[self.shown].content)
        self._render_shown()

    @property
    def rendered(self) -> bool:
        """Whether the prompt is shown rendered as Markdown (else as the raw text, as it is sent)."""
        return bool(self.query_one("#request-view", MarkdownView).display)

    def show_rendered(self, rendered: bool) -> None:
        self.query_one("#request-view", MarkdownView).display = rendered
        self.query_one("#request-text", CodeArea).display = not rendered
        self._render_shown()

    def _render_shown(self) -> None:
        if self.messages and self.rendered:
            self.query_one("#request-view", MarkdownView).update(
                request_markdown(self.request.step, self.about, self.shown, self.messages, manual=self.manual),
                follow=False)

    def action_toggle_rendered(self) -> None:
        self.show_rendered(not self.rendered)

    def action_primary(self) -> None:
        if self.answering:
            text = self.query_one("#answer-text", CodeArea).text
            if not text.strip():
                self.notify("The answer is empty; type or paste it first (ctrl+b stops the run).",
                            severity="warning")
                return
            self.dismiss(StepChoice("answer", answer=text))
            return
        if self.edited:
            self.dismiss(StepChoice("edit", messages=self.messages, edited=set(self.edited)))
        else:
            self.dismiss(StepChoice("send"))

    def action_edit_message(self) -> None:
        index = self.shown
        message = self.messages[index]

        def done(result: EditResult | None) -> None:
            if result is None or result.text == message.content:
                return
            self.messages[index] = type(message)(message.role, result.text)
            self.edited.add(index)
            options = self.query_one("#request-messages", OptionList)
            options.clear_options()
            options.add_options(self._options())
            options.highlighted = index
            self.query_one("#request-text", CodeArea).load_text(result.text)
            self._render_shown()
            self.notify(f"Message {index + 1} edited; ctrl+s sends the edited prompt.")

        self.app.push_screen(
            EditorScreen(f"Edit message {index + 1} ({message.role}) of {self.request.step} {self.about}".rstrip(),
                         message.content,
                         "markdown", can_continue=False, hint="ctrl+s keeps the edit; escape drops it",
                         save_label="Keep the edit"),
            done,
        )

    def action_answer(self) -> None:
        """The answer box opens under the prompt (both stay in view); ctrl+s sends what is typed there."""
        self.query_one("#answer-label").display = True
        answer = self.query_one("#answer-text", CodeArea)
        answer.display = True
        answer.focus()
        self.refresh_bindings()

    def action_toggle_wrap(self) -> None:
        for area in self.query(CodeArea):
            area.soft_wrap = not area.soft_wrap

    def action_watch(self) -> None:
        self.dismiss(StepChoice("watch"))

    def action_stop(self) -> None:
        self.dismiss(StepChoice("stop"))

    def action_later(self) -> None:
        if not self.manual and self.answering:  # step mode: escape closes the answer box; the request still waits
            answer = self.query_one("#answer-text", CodeArea)
            answer.load_text("")
            answer.display = False
            self.query_one("#answer-label").display = False
            self.query_one("#request-messages", OptionList).focus()
            self.refresh_bindings()
            return
        self.dismiss(StepChoice("later"))
