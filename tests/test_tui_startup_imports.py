"""What genplan-tui's first screen does not wait for (issue 54: the first screen near a bare Textual app's).

The PDDL reader and its parser library, the sandbox and the evaluation, the approaches' registry, the prompts
(jinja2), PDDLego+'s trial modules, psutil, Rich's Markdown (markdown-it) and Pygments' Markdown lexer all load
after the first frame: with the domain (a worker started after it), with a run, or with the first Markdown text.
Each check runs in a fresh interpreter, so what another test imported does not hide an import here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_tui_support import ferry_copy

# modules the first screen must not load (each costs a few hundredths of a second, some a tenth or more)
LATER = (
    "lark", "pddl", "psutil", "jinja2", "openai", "markdown_it", "rich.markdown", "pygments.lexers.markup",
    "genplan.engine.pddl", "genplan.engine.approaches", "genplan.engine.prompts", "genplan.engine.evaluation",
    "genplan.engine.sandbox.runner", "genplan.engine.counterexample", "genplan.engine.pddlego.batch",
    "genplan.engine.api.presets", "genplan.engine.api.programs",
)

# genplan-tui's own start (tui/main.py: the options, the domain directory's check, the app's modules), up to the
# app's run, which is replaced by a report of the modules loaded by then
COMMAND_LINE = """
import json, sys
from genplan.tui.app import GenplanApp
GenplanApp.run = lambda self: print(json.dumps(sorted(name for name in LATER if name in sys.modules)))
from genplan.tui.main import main
sys.exit(main([sys.argv[1]]))
"""

# the app itself, headless, up to its first frame (GenplanApp._first_paint runs once it is drawn)
FIRST_FRAME = """
import asyncio, json, sys
from pathlib import Path
from genplan.tui.app import GenplanApp, LaunchOptions
loaded = []
first_paint = GenplanApp._first_paint
def report(self):
    loaded.extend(sorted(name for name in LATER if name in sys.modules))
    first_paint(self)
GenplanApp._first_paint = report
async def run():
    app = GenplanApp(LaunchOptions(Path(sys.argv[1]), config_file=Path(sys.argv[2]), watch_files=False))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.first_screen_at is None:
            await pilot.pause(0.05)
asyncio.run(run())
print(json.dumps(loaded))
"""


def loaded_by(script: str, *args: str, home: Path) -> list[str]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(home / "xdg-config"), "XDG_CACHE_HOME": str(home / "xdg-cache")}
    done = subprocess.run([sys.executable, "-c", f"LATER = {LATER!r}\n{script}", *args], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_command_line_checks_its_domain_and_imports_the_app_without_the_heavy_modules(tmp_path: Path) -> None:
    assert loaded_by(COMMAND_LINE, str(ferry_copy(tmp_path)), home=tmp_path) == []


def test_the_first_frame_is_drawn_before_the_heavy_modules_load(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[llm]\n")
    assert loaded_by(FIRST_FRAME, str(ferry_copy(tmp_path)), str(config), home=tmp_path) == []


def test_the_heavy_modules_load_once_they_are_needed(tmp_path: Path) -> None:
    """The other side: the same modules are there after a domain is opened and Markdown and PDDL rendered (so the
    names above are real modules, and the checks above could fail)."""
    script = """
import json, sys
from pathlib import Path
from genplan.engine.api.domains import open_domain
from genplan.engine.api.presets import approaches
from genplan.engine.api.programs import MIN_MEMORY_GIB
from genplan.engine.api.runs import record_game_run
from genplan.engine.runs.lock import owner
from genplan.tui.highlight import line_highlights
from genplan.tui.widgets.markdown_view import render_markdown
open_domain(Path(sys.argv[1]))
approaches()
owner()
line_highlights("# A heading", "markdown")
render_markdown("**bold**", 40)
import genplan.engine.pddlego.batch, genplan.engine.sandbox.runner, openai
print(json.dumps(sorted(name for name in LATER if name in sys.modules)))
"""
    assert loaded_by(script, str(ferry_copy(tmp_path)), home=tmp_path) == sorted(LATER)
