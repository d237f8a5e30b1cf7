"""Benchmark of the exported run page (reported, not asserted): its size and the time Chromium takes to open it,
for a run of at least 100 model calls.

    python benchmarks/bench_share.py [--repeat 5] [--keep DIR]

A Stein run (F5-3) on ferry against the scripted server, steered so that strategies and programs keep failing
a debug task (every debugging round is used: 100+ calls with the pipeline's real prompts). The page is written
by `genplan export`; Chromium (Debian's, driven by playwright) opens it --repeat times in one browser: the time from the start
of the navigation to the end of the load event (the page's script has run by then: the versions, the diff of
the two latest programs, the matrix). The reference, in the same run: a plain page of the same size (the same
bytes as one <pre> block, no script), opened in turn with it. Goals: under 5 MB, under 2 s.
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

SIZE_GOAL_MB = 5.0
OPEN_GOAL_S = 2.0


def make_run(root: Path) -> Path:
    from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel
    from support.scripted_server import ScriptedServer

    from genplan.engine.api import StartRequest, start
    from genplan.engine.llm import ModelSettings

    domain = root / "ferry"
    shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    # strategies fail for four rounds, every program is wrong until the last candidate's last round: the run uses its rounds
    model = FerryModel(strategy_plan_mistakes=4, programs=[BUGGY_PROGRAM] * 40 + [CORRECT_PROGRAM])
    with ScriptedServer() as server:
        server.respond_with(model)
        settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
        outcome = start(StartRequest("F5-3", str(domain), root / "runs", parameters={"initial_programs": 8}), settings,
                        no_cache=True)
    return Path(outcome.run_dir)


def open_times(pages: list[Path], repeat: int) -> list[list[float]]:
    """Seconds from navigation start to the end of the load event, for each page, ``repeat`` times; the pages are
    opened in turn in one browser, so that the machine's load falls on all of them alike."""
    from support.browser import browser_page

    times: list[list[float]] = [[] for _ in pages]
    with browser_page() as (tab, errors):
        for _ in range(repeat):
            for index, page in enumerate(pages):
                tab.goto(page.as_uri())
                times[index].append(float(tab.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
                                    / 1000)
        if errors:
            raise SystemExit(f"the page has errors: {errors}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="keep the run and the page in this directory")
    args = parser.parse_args()
    from support.browser import chromium_path

    from genplan.engine.api.share import export_run

    if chromium_path() is None:
        raise SystemExit("no chromium installed (Debian package `chromium`)")
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-share-"))
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    run = make_run(root)
    calls = len(list((run / "responses").glob("*.json")))
    made = time.perf_counter() - started
    started = time.perf_counter()
    page = export_run(run, root / "page.html")
    exported = time.perf_counter() - started
    reference = root / "reference.html"
    filler = html.escape(page.path.read_text(encoding="utf-8"))[: page.size]
    reference.write_text(f"<!DOCTYPE html><html><body><pre>{filler}</pre></body></html>", encoding="utf-8")
    page_times, reference_times = open_times([page.path, reference], args.repeat)
    page_s, reference_s = statistics.median(page_times), statistics.median(reference_times)
    print(f"run: {calls} model calls ({made:.1f} s to make); page written in {exported:.2f} s")
    print(f"size: {page.size / 1e6:.2f} MB (goal < {SIZE_GOAL_MB} MB; {page.size / calls / 1e3:.1f} KB per call)")
    print(f"open in chromium: median {page_s:.3f} s, fastest {min(page_times):.3f} s of {args.repeat} "
          f"(goal < {OPEN_GOAL_S} s); each: {', '.join(f'{t:.3f}' for t in page_times)}")
    print(f"reference (a plain page of the same size): median {reference_s:.3f} s, fastest {min(reference_times):.3f} s;"
          f" ratio of the medians {page_s / reference_s:.2f}, of the fastest {min(page_times) / min(reference_times):.2f}")
    print(f"load average while measured: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
