"""The TUI's side of sharing: E writes the run shown as a page and says where; --read-only refuses every action that
starts, edits or saves; --serve gives the app to a browser (textual-serve), checked in headless chromium."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.browser import browser_page, needs_chromium
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FerryModel
from support.scripted_server import ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, record_run, wait_for  # noqa: F401

from genplan.tui.main import SERVE_HOST, main, served_command
from genplan.tui.screens.help import HelpScreen


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    domain = ferry_copy(tmp_path_factory.mktemp("tui-share"))
    with ScriptedServer() as server:
        run = record_run(domain, server, FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
    return domain, run


def _notes(app) -> list[str]:
    return [n.message for n in app.messages]


async def test_e_writes_the_run_shown_as_a_page_and_says_where(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    page = run / f"{run.name}.html"
    page.unlink(missing_ok=True)
    app = make_app(domain, config_for(isolated, None), run=run.name)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.run_dir is not None, what="the run")
        await pilot.press("E")
        await wait_for(pilot, lambda: any("written" in n for n in _notes(app)), timeout=60, what="the page")
        note = next(n for n in _notes(app) if "written" in n)
        assert str(page) in note and note.startswith(f"Page of {run.name} written: ")
    assert page.is_file() and f"<title>genplan run {run.name}</title>" in page.read_text()


async def test_e_without_a_run_says_what_to_do(isolated: Path) -> None:  # noqa: F811
    app = make_app(ferry_copy(isolated), config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("E")
        await wait_for(pilot, lambda: any("Open a run first" in n for n in _notes(app)), what="the note")


async def test_read_only_starts_edits_and_saves_nothing(recorded, isolated: Path) -> None:  # noqa: F811
    domain, run = recorded
    before = sorted(p.name for p in run.parent.iterdir())
    app = make_app(domain, config_for(isolated, None), run=run.name, read_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.runner.run_dir is not None, what="the run")
        footer_keys = {b.binding.action for b in app.active_bindings.values()}
        for action in ("start_run", "settings", "resume_run", "export_html"):
            assert not app.check_action(action, ())
        assert "start_run" not in footer_keys and "settings" not in footer_keys
        for key in ("r", "s", "E", "c"):
            await pilot.press(key)
        await pilot.pause(0.3)
        assert app.screen is app.main and app.runner.session is None
        assert await app.run_action("start_run") is False  # a direct call (the palette) is refused, and says so
        assert any(n.startswith("Read-only:") for n in _notes(app))
        assert "read-only: watch and replay" in app.runner.source_label()
        assert await app.run_action("replay_selected_run") is not False  # watching and replaying stay
        await pilot.press("escape")
        await pilot.press("question_mark")  # help lists only the keys read-only allows
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        keys = app.screen.keys_markdown
        for forbidden in ("`app.run`", "`app.settings`", "`app.step`", "`runs.resume`", "`versions.edit`",
                          "`versions.rerun`", "`versions.counterexample`", "`app.export`", "## Editor", "## Request"):
            assert forbidden not in keys, forbidden
        for allowed in ("`runs.replay`", "`versions.compare`", "`stepper.failure`", "`app.replay-pause`"):
            assert allowed in keys, allowed
        assert "**Read-only**" in app.screen.intro and "*step* pauses" not in app.screen.intro
    assert sorted(p.name for p in run.parent.iterdir()) == before
    assert not (isolated / "xdg-config" / "genplan" / "config.toml").exists()


def test_serve_options_are_checked_and_left_out_of_the_served_command(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    domain = ferry_copy(tmp_path)
    assert main([str(domain), "--port", "8000"]) == 2
    assert "--host and --port go with --serve" in capsys.readouterr().err
    assert main([str(domain), "--serve", "--port", "70000"]) == 2
    command = served_command([str(domain), "--serve", "--host", "0.0.0.0", "--port=9000", "--read-only", "--classroom"])
    assert command.endswith(f"-m genplan.tui.main {domain} --read-only --classroom")
    assert SERVE_HOST == "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(domain: Path, tmp_path: Path, *options: str) -> Iterator[tuple[int, str]]:
    """``genplan-tui DOMAIN --serve`` on a free port with OPTIONS: (port, the line it printed first), once it listens."""
    port = _free_port()
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    server = subprocess.Popen([sys.executable, "-m", "genplan.tui.main", str(domain), "--serve", "--port", str(port),
                               *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                              start_new_session=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        deadline = time.monotonic() + 60
        while True:  # the address answers once the server is up
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never listened"
                time.sleep(0.2)
        yield port, first
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        if server.stdout is not None:
            server.stdout.close()


def test_served_on_every_address_the_page_points_where_the_browser_came_from(recorded, tmp_path: Path) -> None:
    """--host 0.0.0.0 (a classroom): the page's script, style sheet and websocket are on the address the browser
    used (its Host header), never on 0.0.0.0, which a student's browser refuses; the command lists the addresses."""
    domain, _ = recorded
    with served(domain, tmp_path, "--host", "0.0.0.0", "--read-only") as (port, first):
        assert first.startswith(f"genplan-tui: serving at http://0.0.0.0:{port}: open http://")
        assert f"http://127.0.0.1:{port} (read-only: watch and replay)" in first
        for host in (f"classroom.test:{port}", f"127.0.0.1:{port}"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/", headers={"Host": host})
            page = connection.getresponse().read().decode()
            connection.close()
            urls = re.findall(r'(?:href|src|data-session-websocket-url)="([^"]+)"', page)
            assert f'data-session-websocket-url="ws://{host}/ws"' in page, urls
            assert f"http://{host}/static/js/textual.js" in urls and f"http://{host}/static/css/xterm.css" in urls
            assert "0.0.0.0" not in page


@needs_chromium
def test_the_served_app_opens_in_chromium_read_only(recorded, tmp_path: Path) -> None:
    domain, run = recorded
    runs_before = sorted(p.name for p in run.parent.iterdir())
    with served(domain, tmp_path, "--host", "0.0.0.0", "--read-only") as (port, first):
        assert f"http://127.0.0.1:{port} (read-only: watch and replay)" in first
        with browser_page(1100, 700) as (page, errors):
            requested: list[str] = []
            page.on("request", lambda request: requested.append(request.url))
            received: list[str] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(
                frame if isinstance(frame, str) else frame.decode("utf-8", "replace"))))
            page.goto(f"http://127.0.0.1:{port}/")
            # the app draws in the page's terminal: its status line says it is read-only
            deadline = time.monotonic() + 90
            while "read-only: watch and replay" not in "".join(received):
                assert time.monotonic() < deadline, "the served app never drew its first screen"
                page.wait_for_timeout(250)
            page.wait_for_function("document.body.classList.contains('-first-byte')", timeout=30000)
            page.mouse.click(550, 300)  # the terminal takes the keys once it has the focus

            def shows(text: str) -> None:
                deadline = time.monotonic() + 60
                while text not in "".join(received):
                    assert time.monotonic() < deadline, f"the served app never showed {text!r}"
                    page.wait_for_timeout(250)

            received.clear()
            page.keyboard.press("3")  # keys reach the app: the Runs view lists the recorded run
            shows(run.name[-4:])
            page.keyboard.press("r")  # would start a run: hidden and refused, nothing is made
            page.wait_for_timeout(1500)
            shot = tmp_path / "served.png"
            page.screenshot(path=str(shot))
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            # everything the page loads comes from the server (textual-serve's own page asked Google Fonts for a
            # font, a failed load here and a visit told to a third party), and nothing fails to load or run
            assert requested and {url.split("/")[2] for url in requested} == {f"127.0.0.1:{port}"}, requested
            assert errors == []
            assert page.title() == "genplan"
    assert sorted(p.name for p in run.parent.iterdir()) == runs_before
