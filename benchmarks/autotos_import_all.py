"""Import every log of the AutoToS release and compare calls and success/failure with the log.

    .venv/bin/python benchmarks/autotos_import_all.py [--no-eval] [--only DOMAIN] [--out FILE]

Prints one line per log and a summary; with --out writes one JSON object per log (for docs/autotos.md).
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
    args = parser.parse_args()
    data = Path(args.data)
    logs = sorted((data / "clean_logs").glob(f"{args.only or '*'}/*/*.txt"))
    if not logs:
        print(f"no logs under {data}/clean_logs", file=sys.stderr)
        return 2
    executor = SandboxExecutor(hash_seed=0)
    domains = {}
    matched = 0
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
            matched += same_calls and same_result
            record = {"log": str(path.relative_to(data / "clean_logs")), **summary,
                      "match_calls": same_calls, "match_result": same_result,
                      "seconds": round(time.monotonic() - started, 1)}
            print(("OK  " if same_calls and same_result else "DIFF"), record["log"], summary["calls"], log.calls,
                  summary["success"], summary["failure"], log.success, log.failure, record["seconds"], flush=True)
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
    finally:
        executor.close()
        if out:
            out.close()
    print(f"matched {matched} of {len(logs)} logs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
