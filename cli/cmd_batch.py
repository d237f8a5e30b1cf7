"""genplan batch EXPERIMENT.toml: the experiment grid (domains x presets x seeds x models) as ordinary runs."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from genplan.cli.budget_options import add_budget_arguments, budget_of
from genplan.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NEGATIVE,
    EXIT_OK,
    BadInput,
    add_faithful_options,
    error,
    faithful_spec,
    require_output_dir,
)
from genplan.engine.batch import (
    BatchError,
    Executor,
    ExperimentError,
    JobStatus,
    LocalExecutor,
    Progress,
    RayExecutor,
    api_key_environment,
    default_batch_dir,
    grid,
    load_experiment,
    plan_work,
    run_batch,
    with_max_concurrent_runs,
)
from genplan.engine.batch.experiment import with_faithful
from genplan.engine.errors import GenplanError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "batch",
        help="run an experiment grid (domains x presets x seeds x models) and evaluate the programs",
        description="Run every (domain, preset, seed, model) combination of EXPERIMENT.toml as an ordinary run "
        "in the batch directory, then evaluate each selected program on the domain's eval tasks (an AutoToS preset "
        "runs AutoToS, which evaluates itself); a [games] table adds one PDDLego+ or PlanGen trial per "
        "CoinCollector size, game seed, preset and model. Running the "
        "same batch again skips finished runs and resumes unfinished ones. See docs/experiments.md for the file "
        "format. Exit codes: 0 every run finished and was evaluated, 1 some run or evaluation failed, 2 bad input.",
    )
    p.add_argument("experiment", help="the experiment file (TOML)")
    p.add_argument("--out", metavar="DIR", help="the batch directory (default: [experiment] out, else batches/<name> beside the file)")
    p.add_argument("--max-concurrent-runs", type=int, metavar="N", help="runs at once (default: the file's, else 4)")
    p.add_argument("--ray", metavar="ADDRESS", help="run on this Ray cluster (e.g. 10.0.0.5:6379 or 'auto'; needs genplan[ray])")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    add_faithful_options(p)
    p.add_argument("--dry-run", action="store_true", help="check the file and show what would run and the forecast of "
                   "its model calls, tokens and cost per domain and preset (from genplan's earlier runs, else the "
                   "paper's published figures); run nothing")
    p.add_argument("--json", action="store_true", help="print one JSON summary object on stdout (with --dry-run: the "
                   "entries and the forecast)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    add_budget_arguments(p, "batch")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        experiment = load_experiment(args.experiment)
    except ExperimentError as exc:
        for problem in exc.problems:
            print(f"genplan: {exc.path}: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.max_concurrent_runs is not None and args.max_concurrent_runs < 1:
        return error(f"--max-concurrent-runs must be at least 1, got {args.max_concurrent_runs}")
    experiment = with_max_concurrent_runs(experiment, args.max_concurrent_runs)
    try:
        experiment = with_faithful(experiment, faithful_spec(args))
    except GenplanError as exc:
        return error(str(exc))
    batch_dir = require_output_dir("--out", args.out) if args.out else default_batch_dir(experiment)
    try:
        # the experiment is self-contained: its [budget] and the flags, not the config file's
        budget = budget_of(args, experiment.budget.to_dict() if experiment.budget.is_set else None, str(experiment.path),
                           read_config=False)
    except BadInput as exc:
        return error(str(exc))
    if args.dry_run:
        return _dry_run(experiment, batch_dir, args)
    executor: Executor
    if args.ray:
        executor = RayExecutor(args.ray, experiment.max_concurrent_runs, env_vars=api_key_environment(experiment))
    else:
        executor = LocalExecutor(experiment.max_concurrent_runs, experiment.evaluation.jobs)
    if not args.quiet:
        where = f"on the Ray cluster at {args.ray}" if args.ray else f"{experiment.max_concurrent_runs} run(s) at once"
        print(f"genplan: batch {batch_dir}: {len(grid(experiment))} entries, {where}", file=sys.stderr)
    try:
        result = run_batch(
            experiment,
            batch_dir,
            executor=executor,
            progress=None if args.quiet else ProgressLines(),
            no_cache=args.no_cache,
            planner_report=None if args.quiet else lambda line: print(f"genplan: {line}", file=sys.stderr, flush=True),
            budget=budget,
        )
    except BatchError as exc:
        return error(str(exc))
    except KeyboardInterrupt:
        # Everything answered is on disk already; waiting for the runs in flight could take minutes.
        print("genplan: interrupted; run the same command again to resume the batch", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)
    summary = {
        "batch_dir": str(result.batch_dir),
        "entries": len(result.states),
        "ran": result.ran,
        "skipped": result.skipped,
        "evaluated": result.evaluated,
        "complete": result.complete,
        "failed": [s.describe() for s in result.failed],
        "seconds": round(result.seconds, 3),
        **({"budget": {**result.budget, "stopped_at_budget": result.stopped_at_budget,
                       "not_started": result.not_started}} if result.budget is not None else {}),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"batch {result.batch_dir}: {len(result.states)} entries; {result.ran} run now, {result.skipped} finished "
            f"before, {result.evaluated} evaluation(s) now, {result.seconds:.1f} s"
        )
        for state in result.failed:
            print(f"  not complete: {state.entry.key}: run {state.run_status or 'missing'} {state.message}".rstrip())
        if result.budget is not None:
            print(_budget_line(result))
        print(f"tables: genplan report {result.batch_dir}")
    return EXIT_OK if result.complete else EXIT_NEGATIVE


def _budget_line(result) -> str:
    """How far a capped batch got: its spend beside the caps, and what the caps left undone."""
    from genplan.engine.api.budget import Budget, Spend

    caps = Budget(**result.budget["caps"])
    spent = Spend.from_dict(result.budget["spent"])
    line = f"budget: spent {spent.describe(caps)}"
    if result.budget.get("reached"):
        done = sum(1 for state in result.states if state.run_status == "finished")
        line += (f"; reached ({result.budget['reached']}): {done} of {len(result.states)} runs finished, "
                 f"{result.stopped_at_budget} stopped at the cap, {result.not_started} not started; run the same "
                 "command with a higher cap to go on (nothing is asked twice)")
    return line


def _dry_run(experiment, batch_dir: Path, args: argparse.Namespace) -> int:
    from genplan.engine.api.budget import Planned, forecast_runs
    from genplan.engine.api.runs import is_run_dir

    todo = {w.entry.key: w for w in plan_work(experiment, batch_dir)}
    entries, planned = [], []
    for entry in grid(experiment):
        work = todo.get(entry.key)
        if work is None:
            state = "done"
        elif work.run is not None:
            started = is_run_dir(batch_dir / entry.run_dir)
            state = "resume" if started else "run"
        else:
            state = "evaluate"
        entries.append({"state": state, "entry": entry.key, "run_dir": str(batch_dir / entry.run_dir)})
        planned.append(Planned(entry.domain.name, entry.preset, entry.model.settings.model or "",
                               done=work is None or work.run is None))
    # the prices the batch's runs are priced at: the experiment is self-contained (no config file is read)
    prices = {name: price for model in experiment.models for name, price in model.settings.prices.items()}
    history = [batch_dir, *(domain.path for domain in experiment.domains)]
    forecast = forecast_runs(planned, history, prices)
    if args.json:
        print(json.dumps({"entries": entries, "forecast": forecast.to_dict()}, indent=2))
        return EXIT_OK
    for item in entries:
        print(f"{item['state']:<8} {item['entry']}  {item['run_dir']}")
    print("forecast (per domain and preset; the source of each line at its end):")
    for line in forecast.lines():
        print(f"  {line}")
    return EXIT_OK


class ProgressLines:
    """One line on stderr per finished run and evaluation."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def __call__(self, event: Progress) -> None:
        line = self.describe(event)
        if line:
            if event.budget is not None:
                line += "; " + self.spend(event.budget)
            clock = f"[{time.monotonic() - self.start:7.1f}s {event.done:>3}/{event.total}]"
            print(f"{clock} {event.entry.key}: {line}", file=sys.stderr, flush=True)

    @staticmethod
    def spend(record: dict) -> str:
        """The batch's spend so far beside its caps."""
        from genplan.engine.api.budget import Budget, Spend

        return "batch spent " + Spend.from_dict(record["spent"]).describe(Budget(**record["caps"]))

    @staticmethod
    def describe(event: Progress) -> str | None:
        outcome = event.outcome
        if outcome is None:
            return None
        if event.kind == "run-done":
            if outcome.status == JobStatus.SKIPPED:
                return "run finished before"
            if outcome.status == JobStatus.FAILED:
                return f"run FAILED: {outcome.message}"
            if outcome.status == JobStatus.STOPPED and (not outcome.data or "budget" in outcome.message):
                return f"run stopped: {outcome.message}"  # at the batch's budget, or not started because of it
            # the run's account, as every front end says it: its outcome, its calls by kind (model, cache, ...)
            from genplan.engine import api
            from genplan.engine.api.runs import count_words

            account = api.account(Path(outcome.run_dir))
            seconds = f", {account.wall_seconds} s" if account.wall_seconds is not None else ""
            return (f"run {account.outcome.status_words}: {account.outcome.facts.headline}, calls: "
                    f"{count_words(account.counts)}{seconds}")
        if outcome.status == JobStatus.FAILED:
            return f"evaluation FAILED: {outcome.message}"
        if outcome.status == JobStatus.NO_PROGRAM:
            return "no program to evaluate (coverage 0)"
        coverage = outcome.data.get("coverage")
        return f"evaluated: coverage {100 * coverage:.1f}%" if coverage is not None else f"evaluation {outcome.status}"
