"""Capability 3: step mode (send, edit the prompt, answer instead, stop; switching modes at any time)
and the manual provider (no model configured: the person answers)."""

from __future__ import annotations

import json
from pathlib import Path

from support.ferry_model import FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

from genplan.tui.screens.editor import EditorScreen
from genplan.tui.screens.step import RequestScreen
from genplan.tui.widgets.code_area import CodeArea


def request_screen(app) -> RequestScreen | None:
    return app.screen if isinstance(app.screen, RequestScreen) else None


async def test_step_mode_send_edit_answer_watch_and_stop(scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    scripted_server.respond_with(FerryModel())
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), step=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        # 1) the first request waits for a decision; nothing has been sent yet
        await wait_for(pilot, lambda: request_screen(app) is not None, what="the step screen")
        assert request_screen(app).request.step == "nl.domain" and scripted_server.requests == []
        await pilot.press("ctrl+s")  # send as is
        await wait_for(pilot, lambda: len(scripted_server.requests) == 1, what="the request to go out")

        # 2) edit the prompt of the next request, then send the edited version
        await wait_for(pilot, lambda: request_screen(app) is not None and request_screen(app).request.step == "nl.task",
                       what="the next paused request")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the prompt editor")
        app.screen.editor.load_text("SYNTHETIC EDITED PROMPT (problem ferry-l2-c1-s1)")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: request_screen(app) is not None and request_screen(app).edited, what="the edit")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(scripted_server.requests) == 2, what="the edited request")
        assert scripted_server.requests[1].messages[-1]["content"] == "SYNTHETIC EDITED PROMPT (problem ferry-l2-c1-s1)"
        # the edit is on the record (the log and a ✎ row of the timeline), naming the call and the message
        await wait_for(pilot, lambda: any(e.kind == "edit" and e.title == "edited prompt nl.task"
                                          for e in app.runner.state.entries), what="the prompt edit's row")
        row = next(e for e in app.runner.state.entries if e.title == "edited prompt nl.task")
        count = len(scripted_server.requests[1].messages)
        assert row.detail == f"message {count} of call 2 edited before it was sent", row.detail
        logged = [json.loads(line) for line in (app.runner.run_dir / "events.jsonl").read_text().splitlines()]
        (edit,) = [e for e in logged if e["type"] == "request.edited"]
        assert edit["data"]["messages"] == [count] and edit["data"]["step"] == "nl.task"
        from genplan.engine.api.share import export_run  # ... and on the run's page

        page = export_run(app.runner.run_dir, isolated / "page.html")
        html = Path(page.path).read_text()
        assert f"message {count} edited by a person before it was sent" in html and "✎ prompt of request" in html

        # 3) answer the next one instead of the model: the server never sees it
        await wait_for(pilot, lambda: request_screen(app) is not None, what="the third paused request")
        await pilot.press("a")
        # the answer box opens under the prompt, on the same screen: the question stays in view
        screen = request_screen(app)
        await wait_for(pilot, lambda: screen.answering, what="the answer box")
        shown = [w for w in screen.query("#request-view, #request-text") if w.display]
        assert app.screen is screen and shown and shown[0].region.height >= 8
        assert screen.query_one("#answer-text").region.height >= 4 and app.focused is screen.query_one("#answer-text")
        screen.query_one("#answer-text", CodeArea).load_text("SYNTHETIC answer typed by a person [[ferry-l2-c2-s2]]")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: request_screen(app) is not None
                       and request_screen(app).request.step == "nl.task", what="the fourth request")
        assert len(scripted_server.requests) == 2
        answered = [e for e in app.runner.state.entries if e.status == "answered"]
        assert len(answered) == 1

        # 4) switch to watching: this and later requests go out without asking ...
        scripted_server.fixed_delay_s = 0.3  # slow enough that the run is still going when we switch back
        await pilot.press("w")
        await wait_for(pilot, lambda: len(scripted_server.requests) >= 6, what="requests in watch mode")
        assert not app.runner.stepping.is_set()
        # ... and back to stepping at any time (t), then stop the run from the step screen
        await pilot.press("t")
        assert app.runner.stepping.is_set()
        await wait_for(pilot, lambda: request_screen(app) is not None, timeout=30, what="a paused request again")
        sent = len(scripted_server.requests)
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to stop")
        assert len(scripted_server.requests) == sent
        assert app.runner.state.status == "stopped"

        # 5) resume the stopped run in watch mode: what was answered (by the model or by hand) is not asked again
        await pilot.press("t")
        scripted_server.fixed_delay_s = 0.0
        await pilot.press("3")
        await wait_for(pilot, lambda: app.query_one("#runs-table").row_count == 1, what="the run in the list")
        await pilot.press("c")
        await wait_for(pilot, lambda: app.runner.session is None and app.runner.state.status == "done", timeout=60,
                       what="the resumed run to finish")
        steps = scripted_server.steps()
        assert steps.count("nl.domain") == 1 and steps.count("nl.task") == 5  # one nl.task was answered by hand
        assert "6/6 debug tasks solved" in app.runner.state.entries[-1].detail


async def test_manual_provider_when_no_model_is_configured(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        assert "no model: you answer" in app.runner.source_label()
        await pilot.press("r")
        await wait_for(pilot, lambda: request_screen(app) is not None, what="the answer screen")
        screen = request_screen(app)
        assert screen.manual and screen.request.step == "nl.domain"
        assert any("manual provider" in n.message.lower() for n in app.messages)
        await pilot.press("ctrl+s")  # an empty answer is refused
        assert request_screen(app) is screen
        screen.query_one("#answer-text", CodeArea).load_text("SYNTHETIC: my own description of the domain.")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: request_screen(app) is not None and request_screen(app) is not screen,
                       what="the next question")
        assert request_screen(app).request.step == "nl.task"
        assert (app.runner.run_dir / "nl" / "domain.md").read_text() == "SYNTHETIC: my own description of the domain."
        # six nl.task requests wait at once: the screen names the one it answers, not the last one announced
        screen = request_screen(app)
        assert screen.request_id is not None and screen.about.startswith("task-")
        problem = (domain / "debug" / f"{screen.about}.pddl").read_text().split("(define (problem ")[1].split(")")[0]
        assert f"(define (problem {problem})" in screen.request.messages[-1].content
        assert f"call {screen.call} · nl.task for {screen.about}" in str(
            screen.query_one("#request-title").render())
        await pilot.press("escape")  # leaves the answer box at once: "later", the run waits
        assert request_screen(app) is None and app.runner.pending
        await pilot.press("a")
        await wait_for(pilot, lambda: request_screen(app) is not None, what="the question again")
        await pilot.press("ctrl+b")  # on the answer screen, with five more questions waiting: stop them all
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to end")
        assert app.runner.state.status in ("failed", "stopped")
        assert request_screen(app) is None and not app.runner.pending  # no question of the stopped run is asked


async def test_an_edit_made_while_the_run_waits_in_step_mode_is_one_row_of_its_timeline(
        scripted_server: ScriptedServer, isolated: Path) -> None:  # noqa: F811
    scripted_server.respond_with(FerryModel())
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), step=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        strategy = None
        while strategy is None:  # send requests until the run has written its first strategy
            await wait_for(pilot, lambda: request_screen(app) is not None, timeout=30, what="a paused request")
            run_id = app.runner.run_dir.name if app.runner.run_dir is not None else ""
            strategy = app.ctx.version_index.get(f"{run_id}/strategy/v01")
            if strategy is None:
                sent = len(scripted_server.requests)
                await pilot.press("ctrl+s")
                await wait_for(pilot, lambda sent=sent: len(scripted_server.requests) > sent,
                               what="the request to go out")
        # the run waits for a decision, alive: the edit is logged by its bus, and shown once
        target = app.versions.save_new_version(strategy, "1. Board one car at a time.\n2. Sail and debark.\n")
        assert target is not None and target.name == "v02.md"
        await wait_for(pilot, lambda: any(e.kind == "edit" for e in app.runner.state.entries), what="the ✎ row")
        await pilot.pause(0.3)
        edits = [e for e in app.runner.state.entries if e.kind == "edit"]
        assert len(edits) == 1 and "v02.md" in edits[0].detail
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=30, what="the run to stop")
        seqs = [entry.event.seq for entry in app.runner.state.entries if entry.event is not None]
        logged = [line for line in (app.runner.run_dir / "events.jsonl").read_text().splitlines()]
        assert len({json.loads(line)["seq"] for line in logged}) == len(logged)  # no number twice in the log
        assert edits[0].event.seq in seqs
