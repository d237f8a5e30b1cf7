"""Import every log of the AutoToS release and compare calls and success/failure with the log.

    .venv/bin/python benchmarks/autotos_import_all.py [--no-eval] [--only DOMAIN] [--out FILE [--resume]]
                                                      [--memory GIB] [LOG ...]

Prints one line per log (calls, success:failure and the evaluation's expansion:generation counts, genplan's
before the log's) and a summary; with --out writes one JSON object per log (for docs/autotos.md).
Given LOG files, imports those in the order given (for example the cheapest evaluations first).
Slow (hours with evaluation: crossword DFS and Sokoban BFS dominate); needs ../shared/autotos.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from genplan.engine.autotos.domains import load_domain
from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.autotos.logfile import parse_log
from genplan.engine.autotos.session import import_log, log_settings

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "autotos"))
    parser.add_argument("--no-eval", action="store_true")
    parser.add_argument("--only", help="one folder of clean_logs (24game, blocks, prontoqa, cw, sokoban)")
    parser.add_argument("--out", help="JSON lines file")
    parser.add_argument("--resume", action="store_true", help="skip the logs --out already holds")
    parser.add_argument("--memory", type=float, help="GiB per sandboxed test (default: the sandbox's)")
    parser.add_argument("logs", nargs="*", help="log files under DATA/clean_logs (default: all, or --only's)")
    args = parser.parse_args()
    data = Path(args.data).resolve()
    logs = ([Path(p).resolve() for p in args.logs] if args.logs
            else sorted((data / "clean_logs").glob(f"{args.only or '*'}/*/*.txt")))
    if not logs:
        print(f"no logs under {data}/clean_logs", file=sys.stderr)
        return 2
    executor = SandboxExecutor(hash_seed=0, memory_bytes=int(args.memory * 2**30) if args.memory else None)
    domains = {}
    if args.resume and args.out and Path(args.out).exists():
        done = {json.loads(line)["log"] for line in Path(args.out).read_text().splitlines() if line.strip()}
        logs = [path for path in logs if str(path.relative_to(data / "clean_logs")) not in done]
    matched = 0
    searched_alike = 0
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115 - closed in finally
    runs = Path(tempfile.mkdtemp(prefix="autotos-import-"))
    try:
        for path in logs:
            log = parse_log(path)
            domain = domains.get(log.domain) or domains.setdefault(log.domain, load_domain(log.domain, data))
            started = time.monotonic()
            summary = import_log(log, domain, executor, runs,
                                 log_settings(log, evaluate=not args.no_eval))
            same_calls = summary["calls"] == log.calls and not summary["divergences"] and (
                not summary["wanted_more"] or args.no_eval and not log.evaluated and log.stopped is None)
            same_result = args.no_eval or (summary["success"], summary["failure"]) == (log.success, log.failure)
            # the release's search counts, where the log has them: a stricter test of the replayed search
            same_search = None if args.no_eval or log.expanded is None else (
                (summary["expanded"], summary["generated"]) == (log.expanded, log.generated))
            matched += same_calls and same_result
            searched_alike += bool(same_search)
            record = {"log": str(path.relative_to(data / "clean_logs")), **summary,
                      "match_calls": same_calls, "match_result": same_result, "match_search": same_search,
                      "seconds": round(time.monotonic() - started, 1)}
            print(("OK  " if same_calls and same_result else "DIFF"), record["log"],
                  f"calls {summary['calls']}/{log.calls}",
                  f"result {summary['success']}:{summary['failure']}/{log.success}:{log.failure}",
                  f"search {summary['expanded']}:{summary['generated']}/{log.expanded}:{log.generated}",
                  f"{record['seconds']}s", flush=True)
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        executor.close()
        if out:
            out.close()
    print(f"matched {matched} of {len(logs)} logs; {searched_alike} with the log's expansion and generation counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
