"""Benchmarks of the TUI (reported, not asserted): time to the first screen, and the longest time the
UI's event loop is blocked while a run streams and a 10,000-line program output arrives.

    python benchmarks/bench_tui.py [--repeat 5]

1. Start-up: the real `genplan-tui domains/ferry` in a pseudo-terminal; the time until the first frame
   (the panel tabs) and until the domain's PDDL is on screen. Goal: first screen under 1.5 s.
2. Responsiveness: the app (headless) runs the real pipeline against the scripted server while the model's
   answer streams in small pieces (a long Markdown answer), and a program printing 10,000 lines is rerun on
   the debug tasks with its output shown. A 5 ms heartbeat timer measures how late the event loop gets
   around to it: the longest lateness is the longest block. Goal: under 100 ms. Measured --block-runs times
   (the machine's own noise shows in single runs): each run's figure, their median and the worst.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the scripted server and the synthetic ferry model

FIRST_SCREEN_GOAL_S = 1.5
BLOCK_GOAL_S = 0.100
HEARTBEAT_S = 0.005


# ------------------------------------------------------------------ 1. start-up
def time_startup(domain: Path, env: dict[str, str]) -> tuple[float, float]:
    command = Path(sys.executable).parent / "genplan-tui"
    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    started = time.perf_counter()
    process = subprocess.Popen([str(command), str(domain)], stdin=child_fd, stdout=child_fd, stderr=child_fd,
                               env=env, close_fds=True, start_new_session=True)
    os.close(child_fd)
    seen = b""
    first = domain_shown = None
    try:
        while domain_shown is None and time.perf_counter() - started < 60:
            ready, _, _ = select.select([main_fd], [], [], 0.05)
            if not ready:
                continue
            seen += os.read(main_fd, 65536)
            now = time.perf_counter() - started
            if first is None and b"Tasks" in seen:
                first = now
            if b"define" in seen:
                domain_shown = now
        os.write(main_fd, b"q")
        quit_by = time.perf_counter() + 30
        while process.poll() is None and time.perf_counter() < quit_by:  # keep reading: a full pty blocks it
            ready, _, _ = select.select([main_fd], [], [], 0.05)
            if ready:
                try:
                    os.read(main_fd, 65536)
                except OSError:
                    break
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main_fd)
    return first or float("nan"), domain_shown or float("nan")


# ------------------------------------------------------------------ 2. responsiveness
LOUD_PROGRAM = '''
def generate_solution(objects, init, goal):
    for i in range(10000):
        print("line", i, "of the program's own output")
    return []
'''


SERVER_SCRIPT = """
import sys, time
sys.path.insert(0, sys.argv[1])
from support.ferry_model import FerryModel
from support.scripted_server import Reply, ScriptedServer
LONG = "\\n".join(f"{i}. SYNTHETIC step {i}: a line of a long answer with `code` and **bold** text." for i in range(3000))
def extra(request):
    return Reply.answer(LONG, chunk_chars=40) if request.step == "nl.domain" else None
with ScriptedServer() as server:
    server.respond_with(FerryModel(extra=extra))
    print(server.base_url, server.model, flush=True)
    sys.stdin.read()
"""


async def measure_blocking(workdir: Path) -> dict[str, float]:
    """The model server runs in its own process, as a real one would: only the TUI's work is measured."""
    from genplan.tui.app import GenplanApp, LaunchOptions
    from genplan.tui.artifacts import Version
    from genplan.tui.screens.rerun import RerunScreen
    from support.ferry_model import FERRY

    domain = workdir / "ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    server = subprocess.Popen([sys.executable, "-c", SERVER_SCRIPT, str(ROOT / "tests")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    gaps: list[float] = []
    try:
        base_url, model = server.stdout.readline().split()
        config = workdir / "config.toml"
        config.write_text(f'[llm]\nmodel = "{model}"\nbase_url = "{base_url}"\n')
        app = GenplanApp(LaunchOptions(domain, config_file=config, watch_files=False))
        async with app.run_test(size=(100, 30)) as pilot:
            while app.settings is None or app.domain_info is None:
                await pilot.pause(0.05)
            last = time.perf_counter()

            def beat() -> None:
                nonlocal last
                now = time.perf_counter()
                gaps.append(now - last - HEARTBEAT_S)
                last = now

            app.set_interval(HEARTBEAT_S, beat)
            await pilot.pause(0.2)
            gaps.clear()
            last = time.perf_counter()
            started = time.perf_counter()
            await pilot.press("r")  # the pipeline streams the long answer
            program = workdir / "loud.py"
            program.write_text(LOUD_PROGRAM)
            await pilot.pause(0.5)
            app.rerun_program(Version("program", "bench", "loud", program))  # 10,000 lines of output
            while (app.session is not None or not isinstance(app.screen, RerunScreen) or not app.screen.finished) \
                    and time.perf_counter() - started < 300:
                await pilot.pause(0.05)
            if isinstance(app.screen, RerunScreen) and app.screen.checks:
                app.screen.show_detail(0)  # the program's output (the sandbox keeps its first 64 KiB)
                await pilot.pause(0.3)
                # and the whole 10,000 lines, as if a larger part of the output were kept
                full = "\n".join(f"line {i} of the program's own output" for i in range(10000))
                app.screen.query_one("#rerun-detail").load_text(full)
            await pilot.pause(0.5)
            total = time.perf_counter() - started
            shown = len(app.screen.query_one("#rerun-detail").lines) if isinstance(app.screen, RerunScreen) else 0
            streamed = len(app.run_state.stream_text("1")) if app.run_state else 0
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    ordered = sorted(gaps)
    return {
        "seconds": total,
        "beats": len(gaps),
        "max_block_s": max(gaps) if gaps else float("nan"),
        "p99_block_s": ordered[int(len(ordered) * 0.99)] if gaps else float("nan"),
        "output_lines_shown": shown,
        "answer_chars_streamed": streamed,
    }


async def idle_baseline(workdir: Path, seconds: float = 3.0) -> tuple[float, float]:
    """The longest heartbeat lateness of the idle app (what the machine itself adds), and of the idle app
    switching to another screen and back a few times (what a full repaint costs Textual on this machine)."""
    from genplan.tui.app import GenplanApp, LaunchOptions
    from support.ferry_model import FERRY

    domain = workdir / "idle-ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    (workdir / "idle.toml").write_text("[llm]\n")
    gaps: list[float] = []
    app = GenplanApp(LaunchOptions(domain, config_file=workdir / "idle.toml", watch_files=False))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.settings is None:
            await pilot.pause(0.05)
        last = time.perf_counter()

        def beat() -> None:
            nonlocal last
            now = time.perf_counter()
            gaps.append(now - last - HEARTBEAT_S)
            last = now

        app.set_interval(HEARTBEAT_S, beat)
        await pilot.pause(seconds)
        idle = max(gaps)
        gaps.clear()
        for _ in range(4):
            await pilot.press("question_mark")
            await pilot.pause(0.3)
            await pilot.press("escape")
            await pilot.pause(0.3)
        repaint = max(gaps)
    return idle, repaint


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="start-up measurements (median reported)")
    parser.add_argument("--block-runs", type=int, default=3,
                        help="responsiveness measurements (each one's longest block, their median and the worst)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="genplan-bench-tui-") as folder:
        work = Path(folder)
        env = {**os.environ, "TERM": "xterm-256color", "XDG_CONFIG_HOME": str(work / "config"),
               "XDG_CACHE_HOME": str(work / "cache")}
        os.environ.update({"XDG_CONFIG_HOME": env["XDG_CONFIG_HOME"], "XDG_CACHE_HOME": env["XDG_CACHE_HOME"]})
        domain = ROOT / "domains" / "ferry"
        time_startup(domain, env)  # warm the file cache and bytecode
        runs = [time_startup(domain, env) for _ in range(args.repeat)]
        first = statistics.median(r[0] for r in runs)
        shown = statistics.median(r[1] for r in runs)
        print(f"start-up, median of {args.repeat}: first screen {first:.3f} s, domain PDDL shown {shown:.3f} s")
        print(f"  first screen / goal ({FIRST_SCREEN_GOAL_S} s) = {first / FIRST_SCREEN_GOAL_S:.2f}")
        idle, repaint = asyncio.run(idle_baseline(work))
        load = os.getloadavg()[0]
        print(f"machine: {os.cpu_count()} cores, load average {load:.1f}; idle app's longest lateness "
              f"{1000 * idle:.1f} ms; opening/closing a screen (a full repaint, no work) {1000 * repaint:.1f} ms")
        longest = []
        for attempt in range(args.block_runs):
            result = asyncio.run(measure_blocking(work / f"blocking-{attempt}"))
            longest.append(result["max_block_s"])
            print(f"responsiveness run {attempt + 1} over {result['seconds']:.1f} s ({result['beats']} heartbeats, "
                  f"{result['answer_chars_streamed']} answer characters streamed, "
                  f"{result['output_lines_shown']} output lines shown):")
            print(f"  longest block {1000 * result['max_block_s']:.1f} ms, 99th percentile "
                  f"{1000 * result['p99_block_s']:.1f} ms")
        typical = statistics.median(longest)
        print(f"longest block, median of {len(longest)} runs: {1000 * typical:.1f} ms (worst {1000 * max(longest):.1f} ms)")
        print(f"  median longest block / goal ({1000 * BLOCK_GOAL_S:.0f} ms) = {typical / BLOCK_GOAL_S:.2f}; "
              f"worst / goal = {max(longest) / BLOCK_GOAL_S:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
