"""Answer as the model: with no model configured (the manual provider) the request screen shows the prompt as
Markdown to read, headed "You are the model", with the task the request concerns rendered (PDDL as code,
no fences, no raw markup); f3 shows the raw text that is sent."""

from __future__ import annotations

import json
from pathlib import Path

from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui.screens.step import RequestScreen
from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.markdown_view import MarkdownView


def request_screen(app) -> RequestScreen | None:
    return app.screen if isinstance(app.screen, RequestScreen) else None


async def test_you_are_the_model_reads_the_prompt_as_rendered_markdown(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: request_screen(app) is not None, what="the answer screen")
        screen = request_screen(app)
        screen.query_one("#answer-text", CodeArea).load_text("SYNTHETIC: my own description of the domain.")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: request_screen(app) not in (None, screen)
                       and request_screen(app).query("#request-view"), what="an nl.task question")
        screen = request_screen(app)
        assert screen.manual and screen.request.step == "nl.task" and screen.about.startswith("task-")
        # the typed answer is recorded as a person's (timeline "answered", not counted as a model call)
        first = sorted((app.runner.session.store.path / "responses").glob("*.json"))[0]
        assert json.loads(first.read_text())["human"] is True
        view, raw = screen.query_one("#request-view", MarkdownView), screen.query_one("#request-text", CodeArea)
        assert view.display and not raw.display  # rendered by default
        problem = (domain / "debug" / f"{screen.about}.pddl").read_text()
        name = problem.split("(define (problem ")[1].split(")")[0]
        await wait_for(pilot, lambda: f"(problem {name})" in view.rendered_text(), what="the rendered prompt")
        shown = view.rendered_text()
        count = len(screen.messages)
        assert " ".join(shown.split()).startswith(f"You are the model: answer nl.task for {screen.about} · message {count} of {count}: "
                                "the question (user)")
        assert "```" not in shown and "**" not in shown  # Markdown, rendered: no raw markup
        # the task's PDDL is a highlighted code block, not plain text
        assert len({s.bgcolor for s in view.rendered_styles() if s.bgcolor is not None}) >= 1
        assert "```pddl" in screen.messages[-1].content  # ... while the prompt that is sent keeps its fences
        # the other messages of the conversation render the same way
        options = screen.query_one("#request-messages")
        options.highlighted = 0
        await wait_for(pilot, lambda: "message 1 of" in view.rendered_text(), what="the first message")
        await pilot.press("f3")  # the raw text, as it is sent
        await pilot.pause(0.1)
        assert raw.display and not view.display and raw.text == screen.messages[0].content
        await pilot.press("f3")
        await pilot.pause(0.1)
        assert view.display and not raw.display
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")


async def test_you_are_the_model_is_asked_in_the_pipelines_order_with_the_stage_named(isolated: Path) -> None:  # noqa: F811
    """The six task descriptions are asked at once (one thread per task); the person gets them in the pipeline's
    order (call 2, 3, 4, ...), each screen saying which stage of the method the question belongs to."""
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: request_screen(app) is not None, what="the answer screen")
        title = str(request_screen(app).query_one("#request-title").render())
        assert "NL description: the model describes the domain in words." in title
        asked: list[int] = []
        screen = request_screen(app)
        for _ in range(7):
            asked.append(screen.request_id)
            screen.query_one("#answer-text", CodeArea).load_text(f"SYNTHETIC: a description ({screen.request.step}).")
            await pilot.press("ctrl+s")
            previous = screen
            await wait_for(pilot, lambda previous=previous: request_screen(app) not in (None, previous)
                           and request_screen(app).query("#request-title"), timeout=60, what="the next question")
            screen = request_screen(app)
            answered = f"req:{asked[-1]}"  # the answered request's row says so while the next one is asked
            await wait_for(pilot, lambda answered=answered: app.runner.state.entry(answered) is not None
                           and app.runner.state.entry(answered).status == "answered", what=f"{answered} answered")
            if screen.request.step != "nl.task":
                break
            # every task question waits before the person answers the first: the order is the screen's choice
            assert "NL description: the model describes one task in words." in str(
                screen.query_one("#request-title").render())
        assert asked == sorted(asked) and len(asked) == 7, asked
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")
