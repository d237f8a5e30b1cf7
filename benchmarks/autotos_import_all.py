"""Import every log of the AutoToS release and compare calls and success/failure with the log.

    .venv/bin/python benchmarks/autotos_import_all.py [--no-eval] [--only DOMAIN] [--out FILE [--resume]]
                                                      [--memory GIB] [--jobs N] [LOG ...]

Prints one line per log (calls, success:failure and the evaluation's expansion:generation counts, genplan's
before the log's) and a summary; with --out writes one JSON object per log (for docs/autotos.md).
Given LOG files, imports those in the order given (for example the cheapest evaluations first).
Slow (hours with evaluation: crossword DFS and Sokoban BFS dominate); needs ../shared/autotos.

Every row names the code that made it (``engine``: git's tree hash of engine/, "+changes" when the checkout's
engine/ or this script differ from it), and --resume goes on only with rows of the same code, so a file
finished over several sittings is still one figure of one version of genplan. Imports count their time limits
in CPU seconds, so --jobs N imports N logs at once (one process each) without a load-made timeout; rows are
written as each log finishes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from genplan.engine.autotos.domains import load_domain
from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.autotos.logfile import parse_log
from genplan.engine.autotos.session import import_log, log_settings

ROOT = Path(__file__).resolve().parents[1]


def code_stamp(root: Path = ROOT) -> str:
    """git's hash of the engine/ tree at HEAD, with "+changes" when engine/ or this script differ from HEAD."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()

    try:
        tree = git("rev-parse", "HEAD:engine")
        changed = git("status", "--porcelain", "--", "engine", "benchmarks/autotos_import_all.py")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return tree + ("+changes" if changed else "")


class Importer:
    """Imports logs one after another with one sandbox executor (one per process under --jobs)."""

    def __init__(self, data: Path, evaluate: bool, memory_gib: float | None) -> None:
        self.data = data
        self.evaluate = evaluate
        self.executor = SandboxExecutor(hash_seed=0, memory_bytes=int(memory_gib * 2**30) if memory_gib else None)
        self.domains: dict[str, Any] = {}
        self.runs = Path(tempfile.mkdtemp(prefix="autotos-import-"))

    def one(self, path: Path) -> dict[str, Any]:
        log = parse_log(path)
        domain = self.domains.get(log.domain) or self.domains.setdefault(log.domain, load_domain(log.domain, self.data))
        started = time.monotonic()
        summary = import_log(log, domain, self.executor, self.runs, log_settings(log, evaluate=self.evaluate))
        same_calls = summary["calls"] == log.calls and not summary["divergences"] and (
            not summary["wanted_more"] or not self.evaluate and not log.evaluated and log.stopped is None)
        same_result = not self.evaluate or (summary["success"], summary["failure"]) == (log.success, log.failure)
        # the release's search counts, where the log has them: a stricter test of the replayed search
        same_search = None if not self.evaluate or log.expanded is None else (
            (summary["expanded"], summary["generated"]) == (log.expanded, log.generated))
        return {"log": str(path.relative_to(self.data / "clean_logs")), **summary,
                "match_calls": same_calls, "match_result": same_result, "match_search": same_search,
                "seconds": round(time.monotonic() - started, 1)}

    def close(self) -> None:
        self.executor.close()


_worker: Importer | None = None  # this process's, under --jobs


def _start_worker(data: Path, evaluate: bool, memory_gib: float | None) -> None:
    global _worker
    _worker = Importer(data, evaluate, memory_gib)
    # a pool's worker leaves through os._exit (no atexit): multiprocessing's finalizers still run
    multiprocessing.util.Finalize(_worker, _worker.close, exitpriority=10)


def _import_in_worker(path: Path) -> dict[str, Any]:
    assert _worker is not None
    return _worker.one(path)


def _line(record: dict[str, Any]) -> str:
    r = record  # genplan's figures, and the log's as import_log's summary gives them (log_...)
    return " ".join([
        "OK  " if r["match_calls"] and r["match_result"] else "DIFF", r["log"], f"calls {r['calls']}/{r['log_calls']}",
        f"result {r['success']}:{r['failure']}/{r['log_success']}:{r['log_failure']}",
        f"search {r['expanded']}:{r['generated']}/{r['log_expanded']}:{r['log_generated']}", f"{r['seconds']}s"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "autotos"))
    parser.add_argument("--no-eval", action="store_true")
    parser.add_argument("--only", help="one folder of clean_logs (24game, blocks, prontoqa, cw, sokoban)")
    parser.add_argument("--out", help="JSON lines file")
    parser.add_argument("--resume", action="store_true",
                        help="skip the logs --out already holds (its rows must come from this code)")
    parser.add_argument("--memory", type=float, help="GiB per sandboxed test (default: the sandbox's)")
    parser.add_argument("--jobs", type=int, default=1, help="logs imported at once, one process each (default 1)")
    parser.add_argument("logs", nargs="*", help="log files under DATA/clean_logs (default: all, or --only's)")
    args = parser.parse_args()
    data = Path(args.data).resolve()
    logs = ([Path(p).resolve() for p in args.logs] if args.logs
            else sorted((data / "clean_logs").glob(f"{args.only or '*'}/*/*.txt")))
    if not logs:
        print(f"no logs under {data}/clean_logs", file=sys.stderr)
        return 2
    stamp = code_stamp()
    if args.resume and args.out and Path(args.out).exists():
        rows = [json.loads(line) for line in Path(args.out).read_text().splitlines() if line.strip()]
        other = sorted({str(row.get("engine")) for row in rows} - {stamp})
        if other:
            print(f"{args.out} holds rows of other code ({', '.join(other)}; this checkout: {stamp}): "
                  "one figure needs one version; start a new file", file=sys.stderr)
            return 2
        done = {row["log"] for row in rows}
        logs = [path for path in logs if str(path.relative_to(data / "clean_logs")) not in done]
    matched = searched_alike = 0
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115 - closed in finally
    evaluate = not args.no_eval
    pool: ProcessPoolExecutor | None = None
    importer: Importer | None = None
    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs, initializer=_start_worker, initargs=(data, evaluate, args.memory))
        # rows as each log finishes: an evaluation of hours does not hold back the rows of the logs after it
        futures = [pool.submit(_import_in_worker, path) for path in logs]
        records: Iterator[dict[str, Any]] = (future.result() for future in as_completed(futures))
    else:
        importer = Importer(data, evaluate, args.memory)
        records = map(importer.one, logs)
    try:
        for record in records:
            record["engine"] = stamp
            matched += record["match_calls"] and record["match_result"]
            searched_alike += bool(record["match_search"])
            print(_line(record), flush=True)
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if importer is not None:
            importer.close()
        if out:
            out.close()
    print(f"matched {matched} of {len(logs)} logs; {searched_alike} with the log's expansion and generation counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
