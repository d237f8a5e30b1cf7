"""Make the PNG screenshots of docs/sharing.md in headless Chromium, from a page `genplan export` wrote and from
`genplan-tui --serve --read-only`, so that they show what the code does today:

    .venv/bin/python docs/make_sharing_screenshots.py [--out docs/screenshots]

A copy of domains/ferry gets one run, made by the real pipeline against the tests' scripted server (its answers
are the tests' synthetic ferry model, not a real model's): a first strategy that fails on one debug task, and a
first program that fails four, both debugged. Nothing outside the output folder is kept.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

# (file name, what it shows) in the order docs/sharing.md shows them
SHOTS = (
    ("share-top", "the page's head and timeline"),
    ("share-matrix", "the results matrix with a failed cell's feedback and the plan stepper"),
    ("share-diff", "two program versions side by side"),
    ("share-served", "the app served to a browser, read-only"),
)


def make_run(root: Path) -> tuple[Path, Path]:
    from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel
    from support.scripted_server import ScriptedServer

    from genplan.engine.api import StartRequest, start
    from genplan.engine.llm import ModelSettings

    domain = root / "ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    with ScriptedServer() as server:
        server.respond_with(FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
        settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
        outcome = start(StartRequest("F5-3", str(domain), domain / ".genplan" / "runs"), settings, no_cache=True)
    return domain, Path(outcome.run_dir)


def page_shots(page_file: Path, out: Path) -> list[Path]:
    from support.browser import browser_page

    saved = []
    with browser_page(1100, 760) as (page, _errors):
        page.goto(page_file.as_uri())
        saved.append(_shot(page, out / "share-top.png"))
        _scroll_to(page, "results")
        page.locator("button.cell.fail").last.click()
        _scroll_to(page, "results")
        saved.append(_shot(page, out / "share-matrix.png"))
        page.keyboard.press("Escape")
        _scroll_to(page, "compare")
        saved.append(_shot(page, out / "share-diff.png"))
    return saved


def served_shot(domain: Path, out: Path) -> Path:
    from support.browser import browser_page

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "genplan.tui.main", str(domain), "--serve", "--port", str(port),
                               "--read-only"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the served app never listened") from None
                time.sleep(0.2)
        with browser_page(1100, 640) as (page, _errors):
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("document.body.classList.contains('-first-byte')", timeout=60000)
            page.wait_for_timeout(3000)
            page.mouse.click(550, 300)  # the terminal takes the keys once it has the focus
            page.keyboard.press("3")  # the Runs view: the run is listed
            page.wait_for_timeout(1500)
            page.keyboard.press("Enter")
            page.wait_for_timeout(1500)
            page.keyboard.press("6")  # the results matrix of the run
            page.wait_for_timeout(2500)
            return _shot(page, out / "share-served.png")
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)


def _scroll_to(page: object, section: str) -> None:
    # twice: the sections above are laid out as they pass by (content-visibility), which moves the target
    for _ in range(2):
        page.evaluate(f"document.getElementById('{section}').scrollIntoView()")  # type: ignore[attr-defined]
        page.wait_for_timeout(400)  # type: ignore[attr-defined]


def _shot(page: object, path: Path) -> Path:
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    from genplan.engine.api.share import export_run

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sharing-shots-") as temp:
        os.environ["XDG_CONFIG_HOME"] = str(Path(temp) / "config")  # no user settings in the served app
        domain, run = make_run(Path(temp))
        page = export_run(run, Path(temp) / "page.html").path
        saved = page_shots(page, args.out) + [served_shot(domain, args.out)]
    for path in saved:
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
