"""How faithfully `genplan import pddlego` replays the PDDLego+ release's CoinCollector and ALFWorld trials.

Not a speed benchmark: imports every trial of the given conditions (default: the six CoinCollector conditions
and the two ALFWorld conditions of ../shared/pddlego-plus/output; ALFWorld in the logged game) into OUT (a batch
directory `genplan report OUT` reads), and prints Markdown: per condition how many trials end with the logged
outcome and number of calls, the success rate against output/CoinCollector.csv or output/Alfworld.csv for the
imported trials, and one row per differing trial with the first call where genplan and the release's planner
disagree. The trials the CSV lists are also recorded in
OUT/in-csv (a batch directory of the same runs), and the last column is `genplan report`'s success rate on it.

    .venv/bin/python benchmarks/pddlego_fidelity.py [--out DIR] [--conditions CC_PDDLego+_4o,...] [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

from genplan.engine.pddlego.batch import record_import
from genplan.engine.pddlego.importer import import_trial
from genplan.engine.pddlego.trial_log import TrialLog, parse_trial_log

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "pddlego-plus" / "output"

CONDITIONS = ["CC_PDDLego+_4o", "CC_PDDLego+_4.1", "CC_PDDLego+_deepseek", "CC_PlanGen_4o", "CC_PlanGen_4.1",
              "CC_PlanGen_deepseek", "AlfW_PDDLego+_4o", "AlfW_PlanGen_4o"]


def game_of(condition: str) -> str:
    """The folder (and CSV) of a condition's game."""
    return "Alfworld" if condition.startswith("AlfW") else "CoinCollector"


def csv_success(game: str = "CoinCollector") -> dict[tuple[str, str, str, str, int], bool]:
    table = {}
    with open(SHARED / f"{game}.csv", newline="") as handle:
        for row in csv.reader(handle):
            if len(row) < 7 or not row[5].isdigit():
                continue
            goal = row[4] if row[2] == "PDDL" else "detailed"
            table[(row[1], row[2], row[3], goal, int(row[5]))] = row[6] == "True"
    return table


def csv_key(log: TrialLog) -> tuple[str, str, str, str, int]:
    return (log.model, "PDDL" if log.approach == "pddlego" else "baseline", log.group, log.goal_type or "detailed",
            log.trial)


def first_disagreement(log: TrialLog, run_dir: Path) -> str:
    """The first call where genplan's planner and the release's disagree, or where the game path differs."""
    ours = [json.loads(line)["data"] for line in (run_dir / "events.jsonl").read_text().splitlines()
            if '"validation.result"' in line]
    for index, (call, mine) in enumerate(zip(log.calls, ours)):
        logged = call.solver_plan
        if logged is None and mine["valid"]:
            return f"call {index + 1}: genplan planned ({mine['message']}); the release's planner found no plan"
        if logged is not None and not mine["valid"]:
            return f"call {index + 1}: genplan refused the files ({mine['message'].splitlines()[0][:140]}); the release planned {logged}"
        if logged is not None and mine["valid"] and mine["message"] != " ; ".join(logged):
            return (f"call {index + 1}: both planned, different plans of the same files: genplan "
                    f"{mine['message']!r}, release {' ; '.join(logged)!r} (ties between equally short plans)")
    if log.approach == "plangen":
        return "the game answered differently"
    return "no planner disagreement; the game path differs"


def report_rates(batch_dir: Path) -> dict[tuple[str, str, str], float]:
    """(environment, model, condition) -> the success rate `genplan report` gives for the runs in ``batch_dir``."""
    from genplan.engine.report.data import load_batch
    from genplan.engine.report.paper_tables import pddlego_table

    if not (batch_dir / "batch.json").is_file():
        return {}
    table = pddlego_table(load_batch(batch_dir))
    keys = zip(table.column("environment"), table.column("model"), table.column("condition"))
    return dict(zip(keys, table.column("success rate")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/genplan-pddlego-fidelity")
    parser.add_argument("--conditions", default=",".join(CONDITIONS))
    parser.add_argument("--limit", type=int, default=0, help="trials per condition (0: all)")
    args = parser.parse_args()
    if not SHARED.is_dir():
        print(f"{SHARED} not found (the PDDLego+ logs live in ../shared)", file=sys.stderr)
        return 2
    out = Path(args.out)
    tables = {game: csv_success(game) for game in ("CoinCollector", "Alfworld")}
    summary, differing = [], []
    for condition in args.conditions.split(","):
        success = tables[game_of(condition)]
        files = sorted((SHARED / game_of(condition) / condition).glob("*.txt"))[: args.limit or None]
        same = 0
        csv_ok = csv_ours = csv_n = 0
        started = time.monotonic()
        for path in files:
            log = parse_trial_log(path)
            result = import_trial(path, out / "runs" / condition)
            record_import(out, result)
            if (result.outcome, result.calls) == (result.log_outcome, result.log_calls):
                same += 1
            else:
                differing.append((condition, path.name, f"{result.log_outcome}/{result.log_calls}",
                                  f"{result.outcome}/{result.calls} ({result.reason or 'goal'})",
                                  first_disagreement(log, result.run_dir)))
            key = csv_key(log)
            model = log.model
            if key in success:
                record_import(out / "in-csv", result)
                csv_n += 1
                csv_ok += success[key]
                csv_ours += result.outcome == "success"
        seconds = (time.monotonic() - started) / max(1, len(files))
        summary.append((condition, model if files else "", len(files), same, csv_n, csv_ok, csv_ours, seconds))
        print(f"{condition}: {same}/{len(files)} as logged", file=sys.stderr)
    reported = report_rates(out / "in-csv")
    print("| condition | trials | as logged (outcome and calls) | in the release's CSV | success rate (csv) "
          "| success rate (genplan) | genplan report | s/trial |")
    print("|---|---|---|---|---|---|---|---|")
    for condition, model, n, same, csv_n, csv_ok, csv_ours, seconds in summary:
        kind = "PlanGen" if "PlanGen" in condition else "PDDLego+"
        rate = reported.get(("alfworld" if game_of(condition) == "Alfworld" else "coincollector", model, kind))
        print(f"| {condition} | {n} | {same} ({100 * same / max(1, n):.0f} %) | {csv_n} | "
              f"{100 * csv_ok / max(1, csv_n):.0f} % | {100 * csv_ours / max(1, csv_n):.0f} % | "
              f"{'–' if rate is None else f'{rate:.0f} %'} | {seconds:.1f} |")
    print("\n| condition | trial | log (outcome/calls) | genplan | first disagreement |")
    print("|---|---|---|---|---|")
    for row in differing:
        print("| " + " | ".join(cell.replace("|", "/") for cell in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
