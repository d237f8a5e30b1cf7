"""Make the SVG screenshots of docs/tui.md with Textual's own ``save_screenshot``, so that they stay true:

    .venv/bin/python docs/make_screenshots.py [--out docs/screenshots] [--size 80x24]

A copy of domains/ferry gets one run, made by the real pipeline against the tests' scripted server (its
answers are the tests' synthetic ferry model, not a real model's): a first strategy that fails on one debug
task, debugged, and a program. The app is then driven headless through each view and one SVG is saved per
view. Nothing outside the output folder is written (the domain copy and the settings are temporary).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the scripted server and the synthetic ferry model

# (file name, what it shows) in the order docs/tui.md shows them
VIEWS = (
    ("domain", "1 Domain: the PDDL domain, highlighted"),
    ("tasks", "2 Tasks: a task as PDDL, in words and as the Python sets a program receives"),
    ("runs", "3 Runs: the domain's runs"),
    ("run", "4 Run: the timeline, the answer of the chosen row and the debug results"),
    ("classroom", "4 Run in classroom mode: the caption names the chosen row's stage of the method"),
    ("versions", "5 Versions: the versions tree and the chosen version"),
    ("results", "6 Results: the results matrix, every version on every debug task"),
    ("editor", "The editor on a program"),
    ("manual", "You are the model: the manual provider's request, rendered as Markdown, and the answer box"),
    ("replay", "A replay in classroom mode, paused before a stage: the note above the caption, the replay's keys"),
)


def record(domain: Path) -> Path:
    from support.ferry_model import FerryModel
    from support.scripted_server import ScriptedServer

    from genplan.engine.api import pipeline as pipeline_on
    from genplan.engine.approaches.presets import load_preset
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.llm import ModelSettings, make_provider
    from genplan.engine.runs.store import RunStore

    with ScriptedServer() as server:
        server.respond_with(FerryModel(strategy_plan_mistakes=1))
        config = load_preset("F5-3").with_changes(initial_programs=1)
        settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
        store = RunStore.create(RunStore.runs_dir(domain), {"config": config.to_dict(), "model": settings.to_dict()})
        pipeline_on(DomainDir.open(domain), config, make_provider(settings, no_cache=True), store).run()
    return store.path


async def shoot(domain: Path, run: Path, config: Path, out: Path, size: tuple[int, int],
                only: set[str] | None = None) -> list[Path]:
    from genplan.tui.app import GenplanApp, LaunchOptions
    from genplan.tui.screens.editor import EditorScreen

    app = GenplanApp(LaunchOptions(domain, config_file=config, run=run.name, watch_files=False))
    saved: list[Path] = []

    async def settle(pilot, condition=lambda: True, seconds: float = 20.0) -> None:  # noqa: ANN001
        waited = 0.0
        while not condition() and waited < seconds:
            await pilot.pause(0.1)
            waited += 0.1
        app.clear_messages()  # a message of the moment (a run opened, ...) would differ from one making to the next
        await pilot.pause(0.5)

    def save(name: str) -> None:
        if only is None or name in only:
            saved.append(Path(app.save_screenshot(f"{name}.svg", str(out))))

    async with app.run_test(size=size) as pilot:
        await settle(pilot, lambda: app.runner.state is not None and app.runner.state.status == "done"
                     and app.ctx.domain_info is not None and bool(app.ctx.runs))
        timeline = app.query_one("#run-timeline")
        failed = next((i for i, e in enumerate(app.runner.state.entries) if e.kind == "check" and e.status == "fail"), 0)
        for name in ("domain", "tasks", "runs"):
            await pilot.press({"domain": "1", "tasks": "2", "runs": "3"}[name])
            await settle(pilot)
            save(name)
        await pilot.press("4")
        timeline.move_cursor(row=failed)
        await settle(pilot)
        save("run")
        await pilot.press("L")
        await settle(pilot)
        save("classroom")
        await pilot.press("L")
        await pilot.press("5")
        panel = app.query_one("#versions-panel")
        await settle(pilot, lambda: bool(panel.versions))
        program = next(v for v in app.ctx.version_index.of_run(run.name) if v.kind == "program")
        panel.select(program.key)
        await settle(pilot)
        save("versions")
        await pilot.press("6")
        await settle(pilot)
        save("results")
        await pilot.press("5")
        await pilot.press("e")
        await settle(pilot, lambda: isinstance(app.screen, EditorScreen))
        save("editor")
        await pilot.press("escape")
        if only is None or "manual" in only:  # no model is configured: r starts a run that you answer
            from genplan.tui.screens.step import RequestScreen

            await settle(pilot, lambda: not isinstance(app.screen, EditorScreen))
            await pilot.press("r")
            await settle(pilot, lambda: isinstance(app.screen, RequestScreen) and bool(app.screen.query("#request-view")))
            view = app.screen.query_one("#request-view")
            await settle(pilot, lambda: "You are the model" in view.rendered_text())
            save("manual")
            await pilot.press("ctrl+b")
            await settle(pilot, lambda: app.runner.session is None)
        if only is None or "replay" in only:  # the recorded run replayed in classroom mode, up to its checks
            app.runner.open_run(run, replay=True)
            await pilot.press("L")
            note = app.query_one("#replay-note")
            for _ in range(3):  # on through the first stages, to strategy debugging
                await settle(pilot, lambda: app.replay.replayer is not None and app.replay.replayer.paused)
                await pilot.press("space")
            await settle(pilot, lambda: "Next: Code" in str(note.render()) or "Next: Reflection" in str(note.render())
                         or "Next: Strategy debugging" in str(note.render()), seconds=60)
            await settle(pilot)
            save("replay")
    return saved


def make_screenshots(out: Path, size: tuple[int, int] = (80, 24), only: set[str] | None = None) -> list[Path]:
    from support.ferry_model import FERRY

    out.mkdir(parents=True, exist_ok=True)
    saved_environment = {name: os.environ.get(name) for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
    with tempfile.TemporaryDirectory(prefix="genplan-screens-") as folder:
        work = Path(folder)
        os.environ["XDG_CONFIG_HOME"] = str(work / "xdg-config")  # not the user's settings or cache
        os.environ["XDG_CACHE_HOME"] = str(work / "xdg-cache")
        try:
            domain = work / "ferry"
            shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
            run = record(domain)
            config = work / "config.toml"
            config.write_text("[llm]\n")
            return asyncio.run(shoot(domain, run, config, out, size, only))
        finally:
            for name, value in saved_environment.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--size", default="80x24", help="terminal size, COLUMNSxROWS (the smallest the TUI is made for)")
    parser.add_argument("--only", nargs="*", choices=[name for name, _ in VIEWS], help="these views only")
    args = parser.parse_args()
    columns, rows = (int(part) for part in args.size.split("x"))
    for path in make_screenshots(args.out, (columns, rows), set(args.only) if args.only else None):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
