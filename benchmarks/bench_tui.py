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
3. Versions tree and results matrix: a domain with 50 runs of 20 versions each (synthetic files in the
   run-directory layout, with results on the six debug tasks). The app lists them, then the Versions tree
   and the results matrix are opened, every run is expanded, the cursor walks the tree (the matrix follows
   the run under it) and the filter is toggled. Goal: the event loop blocked under 100 ms (median and worst
   of --tree-runs measurements). ``--only-tree`` runs this part alone.
4. Many runs: a domain with 50 runs of 20 versions each, made from one run recorded by the real pipeline
   (copied under new run ids, each with 8 edits made through engine.runs.edits), against the same domain with
   one such run (the reference, measured in the same script). The real `genplan-tui` in a pseudo-terminal:
   the first frame, the domain shown, then 3 typed (the Runs view listing the runs) and 5 (the Versions tree
   listing them); the ratio of each time with 50 runs to the time with 1 (median of --many-runs), and the
   absolute first screen with 50 runs (goal: under 1.5 s). ``--only-many-runs`` runs this part alone.
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
BARE_RATIO_GOAL = 2.0  # the first screen against a bare Textual app's
BLOCK_GOAL_S = 0.100
HEARTBEAT_S = 0.005


# ------------------------------------------------------------------ 1. start-up
def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user + system, /proc): on a loaded machine its wall-clock time
    is mostly waiting for a core, its CPU time is what a quiet machine would take."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drive_tui(domain: Path, env: dict[str, str], steps: list[tuple[bytes, bytes]],
              cpu: list[float] | None = None, command: list[str] | None = None) -> list[float]:
    """The real `genplan-tui domain` (or ``command``) in a 100x30 pseudo-terminal. Each step types its keys
    (none: b"") and waits until its marker is in what the app wrote after them (after the start, without keys);
    returns the seconds since the start at which each marker appeared (nan for a marker not seen within 60 s,
    and for the steps after it)."""
    argv = command or [str(Path(sys.executable).parent / "genplan-tui"), str(domain)]
    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=child_fd, stdout=child_fd, stderr=child_fd,
                               env=env, close_fds=True, start_new_session=True)
    os.close(child_fd)
    times: list[float] = []
    seen = b""  # since the start, or since the last keys typed
    try:
        for keys, marker in steps:
            if keys:
                os.write(main_fd, keys)
                seen = b""
            while marker not in seen and time.perf_counter() - started < 60:
                ready, _, _ = select.select([main_fd], [], [], 0.05)
                if ready:
                    seen += os.read(main_fd, 65536)
            if marker not in seen:
                break
            times.append(time.perf_counter() - started)
            if cpu is not None:
                cpu.append(cpu_seconds(process.pid))
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
    return times + [float("nan")] * (len(steps) - len(times))


def time_startup(domain: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds to the first frame (the panel tabs) and to the domain's PDDL on screen, and the app's CPU seconds
    by its first frame."""
    cpu: list[float] = []
    first, shown = drive_tui(domain, env, [(b"", b"Tasks"), (b"", b"define")], cpu)
    return first, shown, (cpu or [float("nan")])[0]


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
    from support.ferry_model import FERRY

    from genplan.tui.app import GenplanApp, LaunchOptions
    from genplan.tui.artifacts import Version
    from genplan.tui.screens.rerun import RerunScreen

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
            while app.ctx.settings is None or app.ctx.domain_info is None:
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
            app.versions.rerun_program(Version("program", "bench", "loud", program))  # 10,000 lines of output
            while (app.runner.session is not None or not isinstance(app.screen, RerunScreen) or not app.screen.finished) \
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
            streamed = len(app.runner.state.stream_text("1")) if app.runner.state else 0
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
    from support.ferry_model import FERRY

    from genplan.tui.app import GenplanApp, LaunchOptions

    domain = Path(tempfile.mkdtemp(prefix="idle-", dir=workdir)) / "ferry"  # measured twice: a folder each time
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    (workdir / "idle.toml").write_text("[llm]\n")
    gaps: list[float] = []
    app = GenplanApp(LaunchOptions(domain, config_file=workdir / "idle.toml", watch_files=False))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.ctx.settings is None:
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


# ------------------------------------------------------------------ 3. versions tree and results matrix
TREE_RUNS, TREE_TASKS = 50, 6


def fake_runs(domain: Path, runs: int = TREE_RUNS) -> None:
    """``runs`` run directories of 20 versions each: 4 strategies, 3 strategy reflections, 3 candidates of
    4 program versions, 1 code reflection; a results file per strategy and program version."""
    import json

    tasks = [f"task-{i:02d}" for i in range(TREE_TASKS)]
    for number in range(runs):
        run = domain / ".genplan" / "runs" / f"20260101-{number:06d}-beef"
        for folder in ("strategies", "reflections", "programs", "results"):
            (run / folder).mkdir(parents=True)
        (run / "run.json").write_text(json.dumps({"run_id": run.name, "status": "finished", "created": "2026-01-01",
                                                 "config": {"preset": "F5-3"}, "model": {"model": "m"}}))
        (run / "events.jsonl").write_text("")

        def results(name: str, solved: int, run: Path = run) -> None:
            records = [{"task": t, "solved": i < solved, "kind": None if i < solved else "goal-not-reached",
                        "message": "" if i < solved else f"The goal is not reached on {t}.",
                        "output": ["(board c0 l0)", "(sail l0 l1)"]} for i, t in enumerate(tasks)]
            (run / "results" / f"{name}.json").write_text(json.dumps(records))

        for v in range(1, 5):
            (run / "strategies" / f"v{v:02d}.md").write_text(f"Strategy {v}\n" * 40)
            results(f"strategy-v{v:02d}", v + 2)
            if v < 4:
                (run / "reflections" / f"strategy-v{v:02d}-task-0{v}.md").write_text("A reflection.\n" * 10)
        for c in range(1, 4):
            for v in range(4):
                (run / "programs" / f"c{c}-v{v:02d}.py").write_text("def generate_solution(o, i, g):\n    return []\n")
                results(f"program-c{c}-v{v:02d}", min(TREE_TASKS, v * 2))
        (run / "reflections" / "code-c1-v00.md").write_text("A code reflection.\n" * 10)
        (run / "summary.json").write_text(json.dumps({"status": "finished", "debug_solved": 6, "debug_total": 6,
                                                     "selected_program": str(run / "programs" / "c1-v03.py")}))


async def measure_tree(workdir: Path) -> dict[str, float]:
    from support.ferry_model import FERRY

    from genplan.tui.app import GenplanApp, LaunchOptions
    from genplan.tui.widgets.panels import VersionsPanel
    from genplan.tui.widgets.results_matrix import ResultsPanel

    domain = workdir / "ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    fake_runs(domain)
    (workdir / "tree.toml").write_text("[llm]\n")
    gaps: list[float] = []
    phase = "start"
    worst: dict[str, float] = {}  # the longest block seen in each step
    app = GenplanApp(LaunchOptions(domain, config_file=workdir / "tree.toml", watch_files=False))
    async with app.run_test(size=(120, 40)) as pilot:
        panel = app.query_one(VersionsPanel)
        while app.ctx.settings is None or len(panel.model.overviews) < TREE_RUNS:
            await pilot.pause(0.05)
        await pilot.pause(0.3)
        last = time.perf_counter()

        def beat() -> None:
            nonlocal last
            now = time.perf_counter()
            gaps.append(now - last - HEARTBEAT_S)
            worst[phase] = max(worst.get(phase, 0.0), gaps[-1])
            last = now

        app.set_interval(HEARTBEAT_S, beat)
        await pilot.pause(0.2)
        gaps.clear()
        last = time.perf_counter()
        started = time.perf_counter()
        phase = "list runs"
        app.load_runs()  # list the 50 runs again: the whole tree is rebuilt
        await pilot.pause(1.0)
        phase = "open tree"
        await pilot.press("5")
        await pilot.pause(0.2)
        for node in list(panel.versions_tree.root.children):  # open every run, one after another, as a person would
            node.expand()
            await pilot.pause(0.02)
        await pilot.pause(0.2)
        phase = "walk tree"
        for _ in range(60):  # walk the tree; the matrix follows the run under the cursor
            await pilot.press("down")
        phase = "open matrix"
        await pilot.press("6")
        await pilot.pause(0.2)
        phase = "walk matrix"
        for _ in range(10):
            await pilot.press("right", "down")
        await pilot.press("5", "end")
        await pilot.pause(0.2)
        phase = "open run"
        app.runner.open_run(domain / ".genplan" / "runs" / "20260101-000007-beef")
        await pilot.pause(0.3)
        phase = "filter"
        await pilot.press("5", "f")
        await pilot.pause(0.2)
        await pilot.press("f")
        await pilot.pause(0.3)
        total = time.perf_counter() - started
        rows = len(app.query_one(ResultsPanel).rows)
        versions = len(panel.versions)
    return {"seconds": total, "beats": len(gaps), "max_block_s": max(gaps), "matrix_rows": rows,
            "versions": versions, "worst_step": max(worst, key=lambda k: worst[k])}


# ------------------------------------------------------------------ 4. many runs: first screen, Runs and Versions
MANY_RUNS = 50
EDITS = (("strategies/v03.md", 3), ("programs/c1-v03.py", 3), ("reflections/code-c1-v02.md", 2))  # 8 per run


def record_template(workdir: Path) -> Path:
    """One run made by the real pipeline (F5-3 on ferry against the scripted server, as the TUI tests record
    them): a strategy that fails twice (3 strategies, 2 strategy reflections) and programs that fail three
    times (4 program versions, 3 code reflections), with its requests, responses, results and event log."""
    from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, CRASHING_PROGRAM, FERRY, FerryModel
    from support.scripted_server import ScriptedServer
    from test_tui_support import record_run

    domain = workdir / "template-ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    with ScriptedServer() as server:
        return record_run(domain, server, FerryModel(
            strategy_plan_mistakes=2, programs=[BUGGY_PROGRAM, CRASHING_PROGRAM, BUGGY_PROGRAM, CORRECT_PROGRAM]))


def copy_runs(template: Path, domain: Path, runs: int) -> list[str]:
    """``runs`` copies of the template under ``domain``, each under a run id of the store's form (its paths
    and id rewritten in run.json, summary.json and the event log), and 8 edits of each made through
    engine.runs.edits (new versions of its last strategy and program, and of a code reflection): 20 versions a
    run. Returns the run ids, oldest first."""
    from genplan.engine.runs.edits import record_edit

    root = domain / ".genplan" / "runs"
    ids = []
    for number in range(runs):
        run_id = f"20261101-{number // 60:02d}{number % 60:02d}00-{number:04x}"
        run = root / run_id
        shutil.copytree(template, run)
        for name in ("run.json", "summary.json", "events.jsonl"):
            file = run / name
            file.write_text(file.read_text().replace(str(template), str(run)).replace(template.name, run_id))
        for relative, times in EDITS:
            for edit in range(times):
                old = (run / relative).read_text()
                note = "# " if relative.endswith(".py") else ""
                record_edit(run, relative, old, f"{old}\n{note}edit {edit + 1} of run {number}\n")
        ids.append(run_id)
    return ids


def time_views(domain: Path, env: dict[str, str], newest: str, runs: int, cpu: list[float] | None = None) -> list[float]:
    """The first frame, the domain shown, then 3 typed: the Runs view listing the newest run, then 5: the
    Versions tree listing every run. Seconds since the start of each (``cpu``: the app's CPU seconds by each)."""
    return drive_tui(domain, env, [(b"", b"Tasks"), (b"", b"define"), (b"3", newest.encode()),
                                   (b"5", f"{runs} run{'' if runs == 1 else 's'} \u00b7 f: only the open run".encode())], cpu)


def measure_many_runs(work: Path, env: dict[str, str], repeat: int) -> None:
    """The same measurements on a domain with 50 runs of 20 versions and on one with a single such run (the
    reference, measured here and now): what the 49 more runs cost, as a ratio."""
    from support.ferry_model import FERRY

    from genplan.tui.artifacts import scan_run

    template = record_template(work)
    domains = {}
    for runs in (1, MANY_RUNS):
        domain = work / f"ferry-{runs}-runs"
        shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
        ids = copy_runs(template, domain, runs)
        domains[runs] = (domain, ids[-1])
    versions = sum(len(scan_run(run)) for run in (domains[MANY_RUNS][0] / ".genplan" / "runs").iterdir())
    print(f"many runs: {MANY_RUNS} copies of a recorded F5-3 run with 8 edits each ({versions // MANY_RUNS} versions "
          f"a run), "
          f"against 1 such run; median of {repeat}, alternating ({os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f})")
    figures: dict[int, list[list[float]]] = {1: [], MANY_RUNS: []}
    first_cpu: dict[int, list[float]] = {1: [], MANY_RUNS: []}
    for runs in (1, MANY_RUNS):
        time_views(domains[runs][0], env, domains[runs][1], runs)  # warm the file cache
    for _ in range(repeat):
        for runs in (1, MANY_RUNS):
            cpu: list[float] = []
            figures[runs].append(time_views(domains[runs][0], env, domains[runs][1], runs, cpu))
            first_cpu[runs].append((cpu or [float("nan")])[0])
    steps = ("first screen", "domain shown", "3 typed: the Runs view lists the runs",
             "5 typed: the Versions tree lists them")
    # the first two since the start; a view's own time from its key (typed once the step before was seen)
    own = {runs: [[t[0], t[1], t[2] - t[1], t[3] - t[2]] for t in figures[runs]] for runs in figures}
    median = {runs: [statistics.median(t[i] for t in own[runs]) for i in range(len(steps))] for runs in own}
    for i, step in enumerate(steps):
        many, one = median[MANY_RUNS][i], median[1][i]
        print(f"  {step}: {MANY_RUNS} runs {many:.3f} s, 1 run {one:.3f} s, ratio {many / one:.2f}")
    first = median[MANY_RUNS][0]
    print(f"  the app's CPU time by its first screen: {MANY_RUNS} runs {statistics.median(first_cpu[MANY_RUNS]):.3f} s, "
          f"1 run {statistics.median(first_cpu[1]):.3f} s (what a quiet machine's first screen takes, about)")
    print(f"  first screen with {MANY_RUNS} runs / goal ({FIRST_SCREEN_GOAL_S} s) = {first / FIRST_SCREEN_GOAL_S:.2f}; "
          f"the Versions tree listed {statistics.median(t[3] for t in figures[MANY_RUNS]):.3f} s after the start")


# ------------------------------------------------------------------ 5. against a bare Textual app
# The least a Textual app shows: a header, a footer and a static text. Started the same way (a new Python process in
# the same pseudo-terminal, 100x30), timed to the same point: the first frame with its text on screen.
BARE_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class Bare(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("BARE-APP-READY: a header, a footer and this text")
        yield Footer()


Bare().run()
"""


def measure_bare_ratio(work: Path, env: dict[str, str], repeat: int) -> None:
    """The first screen of `genplan-tui` on ferry (with 1 run, and with 50 runs in its .genplan/runs) against
    a bare Textual app's, measured alternately in this run: medians of ``repeat`` and their ratios."""
    from support.ferry_model import FERRY

    bare = work / "bare_app.py"
    bare.write_text(BARE_APP)
    bare_command = [sys.executable, str(bare)]
    template = record_template(work)
    domains = {}
    for runs in (1, MANY_RUNS):
        domain = work / f"ferry-{runs}-runs-bare"
        shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
        copy_runs(template, domain, runs)
        domains[runs] = domain

    def bare_first(cpu: list[float]) -> float:
        return drive_tui(work, env, [(b"", b"BARE-APP-READY")], cpu, bare_command)[0]

    def app_first(runs: int, cpu: list[float]) -> float:
        return drive_tui(domains[runs], env, [(b"", b"Tasks")], cpu)[0]

    bare_first([])  # warm the file cache and bytecode
    for runs in domains:
        app_first(runs, [])
    wall: dict[str, list[float]] = {"bare": [], "1": [], str(MANY_RUNS): []}
    cpu: dict[str, list[float]] = {key: [] for key in wall}
    loads = [os.getloadavg()[0]]
    for _ in range(repeat):
        measured: list[float] = []
        wall["bare"].append(bare_first(measured))
        for runs in domains:
            wall[str(runs)].append(app_first(runs, measured))
        for key, seconds in zip(wall, measured):
            cpu[key].append(seconds)
        loads.append(os.getloadavg()[0])
    median = {key: statistics.median(values) for key, values in wall.items()}
    median_cpu = {key: statistics.median(values) for key, values in cpu.items()}
    print(f"first screen against a bare Textual app (Header, Footer, Static), 100x30 pseudo-terminal, median of "
          f"{repeat}, alternating; {os.cpu_count()} cores, load average {min(loads):.1f}-{max(loads):.1f}")
    print(f"  bare Textual app: {median['bare']:.3f} s (its CPU time by then {median_cpu['bare']:.3f} s)")
    for runs in domains:
        key = str(runs)
        print(f"  genplan-tui ferry, {runs} run{'s' if runs > 1 else ''}: {median[key]:.3f} s (CPU {median_cpu[key]:.3f} s)"
              f"  ratio {median[key] / median['bare']:.2f} (CPU {median_cpu[key] / median_cpu['bare']:.2f}), "
              f"goal {BARE_RATIO_GOAL:.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="start-up measurements (median reported)")
    parser.add_argument("--block-runs", type=int, default=3,
                        help="responsiveness measurements (each one's longest block, their median and the worst)")
    parser.add_argument("--tree-runs", type=int, default=5, help="Versions tree / results matrix measurements")
    parser.add_argument("--only-tree", action="store_true", help="measure only the Versions tree and matrix")
    parser.add_argument("--many-runs", type=int, default=5,
                        help="measurements of the first screen and views with 50 runs and with 1 (median reported)")
    parser.add_argument("--only-many-runs", action="store_true", help="measure only the first screen and views "
                        "with many runs")
    parser.add_argument("--only-bare-ratio", action="store_true", help="measure only the first screen against a "
                        "bare Textual app's (with 1 run and with 50; --repeat measurements, median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="genplan-bench-tui-") as folder:
        work = Path(folder)
        # bytecode is cached (in the temporary folder) even where PYTHONDONTWRITEBYTECODE is set, as on the
        # development machine: else every start compiles every module again, which a user's second start never does
        env = {**{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
               "PYTHONPYCACHEPREFIX": str(work / "pycache"), "TERM": "xterm-256color",
               "XDG_CONFIG_HOME": str(work / "config"), "XDG_CACHE_HOME": str(work / "cache")}
        os.environ.update({"XDG_CONFIG_HOME": env["XDG_CONFIG_HOME"], "XDG_CACHE_HOME": env["XDG_CACHE_HOME"]})
        if args.only_many_runs:
            measure_many_runs(work, env, args.many_runs)
            return 0
        if args.only_bare_ratio:
            measure_bare_ratio(work, env, args.repeat)
            return 0
        tree = []
        if args.tree_runs:
            idle, repaint = asyncio.run(idle_baseline(work))
            print(f"reference (same machine, now: load average {os.getloadavg()[0]:.1f}): the idle app's longest "
                  f"lateness {1000 * idle:.1f} ms; opening/closing a screen {1000 * repaint:.1f} ms")
        for attempt in range(args.tree_runs):
            result = asyncio.run(measure_tree(work / f"tree-{attempt}"))
            tree.append(result["max_block_s"])
            print(f"versions tree run {attempt + 1}: {TREE_RUNS} runs, {result['versions']} versions in the tree, "
                  f"{result['matrix_rows']} matrix rows, {result['beats']} heartbeats over {result['seconds']:.1f} s: "
                  f"longest block {1000 * result['max_block_s']:.1f} ms (in step '{result['worst_step']}')")
        if tree:
            print(f"versions tree + results matrix, longest block: median {1000 * statistics.median(tree):.1f} ms, "
                  f"worst {1000 * max(tree):.1f} ms (goal {1000 * BLOCK_GOAL_S:.0f} ms)")
        if args.only_tree:
            return 0
        domain = ROOT / "domains" / "ferry"
        time_startup(domain, env)  # warm the file cache and bytecode
        runs = [time_startup(domain, env) for _ in range(args.repeat)]
        first = statistics.median(r[0] for r in runs)
        shown = statistics.median(r[1] for r in runs)
        print(f"start-up, median of {args.repeat}: first screen {first:.3f} s, domain PDDL shown {shown:.3f} s; "
              f"the app's CPU time by its first screen {statistics.median(r[2] for r in runs):.3f} s "
              f"(load average {os.getloadavg()[0]:.1f})")
        print(f"  first screen / goal ({FIRST_SCREEN_GOAL_S} s) = {first / FIRST_SCREEN_GOAL_S:.2f}")
        if args.many_runs:
            measure_many_runs(work, env, args.many_runs)
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
