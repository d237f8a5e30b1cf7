"""genplan pddlego: PDDLego+ (or PlanGen) trials in CoinCollector with a model."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from genplan.cli.budget_options import add_budget_arguments, budget_of
from genplan.cli.common import EXIT_OK, BadInput, interrupted_run, run_guarded

COMMAND = "genplan pddlego"


def presets() -> list[str]:
    """The presets of the registered approaches this command runs (pddlego-detailed, pddlego-simple,
    pddlego-fixed-domain, plangen)."""
    from genplan.engine.api.presets import APPROACHES

    return [name for approach in APPROACHES.values() if approach.command == COMMAND for name in approach.presets]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pddlego",
        help="PDDLego+ / PlanGen trials in CoinCollector",
        description="Play CoinCollector games (textworld-express; needs Java) with PDDLego+: the model writes "
        "and refines PDDL from the observations, genplan plans and executes; or with PlanGen, where the model "
        "chooses the commands itself. Each trial is a run under OUT/runs and OUT/batch.json lists them, so "
        "`genplan report OUT` shows success rate, errors and steps. See docs/pddlego.md.",
    )
    p.add_argument("--preset", choices=presets(), default="pddlego-detailed",
                   help="pddlego-detailed (goal template and hints; default), pddlego-simple, pddlego-fixed-domain "
                   "(genplan's CoinCollector domain given, the model writes the problem only), or plangen")
    p.add_argument("--fixed-domain", metavar="FILE", help="a domain file the model may not change (it writes the "
                   "problem only); overrides the one pddlego-fixed-domain gives")
    p.add_argument("--locations", type=int, default=11, help="rooms in the house (default 11; the paper uses 3-11)")
    p.add_argument("--seeds", default="0", help="game seeds, e.g. 0 or 0-9 or 1,4,7 (default 0)")
    p.add_argument("--max-steps", type=int, help="time steps per trial (default: the game's, as the PDDLego+ release "
                   "set it: 20 in CoinCollector)")
    p.add_argument("--model", help="model name, e.g. gpt-4o")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint")
    p.add_argument("--api-key-env", help="environment variable holding the API key (default OPENAI_API_KEY)")
    p.add_argument("--config-file", help="model settings file")
    p.add_argument("--temperature", type=float, help="sampling temperature")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    p.add_argument("--prompts", metavar="DIR", help="a directory with your own prompt templates")
    p.add_argument("--out", metavar="DIR", default="pddlego-runs", help="where the runs go (default ./pddlego-runs)")
    p.add_argument("--json", action="store_true", help="print one JSON object per trial (a list) on stdout")
    add_budget_arguments(p, "trials")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            seeds.extend(range(int(low), int(high) + 1) if high else [int(low)])
    except ValueError:
        raise BadInput(f"--seeds {text!r}: expected numbers like 0, 0-9 or 1,4,7") from None
    return seeds


def run(args: argparse.Namespace) -> int:
    from genplan.engine import api
    from genplan.engine.api.presets import preset_owner
    from genplan.engine.api.runs import RunAccount, count_words
    from genplan.engine.api.runs import record_game_run as record_run
    from genplan.engine.api.settings import ModelAccessError, PromptError, PromptLibrary, SettingsError, load_settings

    seeds = parse_seeds(args.seeds)
    if not 1 <= args.locations <= 11:
        raise BadInput("--locations: CoinCollector has 1 to 11 rooms")
    fixed = None
    if args.fixed_domain:
        try:
            fixed = Path(args.fixed_domain).read_text(encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"{args.fixed_domain}: cannot be read ({exc.strerror})") from None
    try:
        settings = load_settings(args.config_file, cli={"model": args.model, "base_url": args.base_url,
                                                        "api_key_env": args.api_key_env, "temperature": args.temperature})
        if args.prompts:
            PromptLibrary(args.prompts)  # a bad --prompts directory is an error before the first game
    except (SettingsError, ModelAccessError, PromptError) as exc:
        raise BadInput(str(exc)) from None
    budget = budget_of(args)
    try:  # the caps hold for all the trials together: one meter, each trial's requests counted against it
        meter = api.budget_meter(budget, settings) if budget.is_set else None
    except api.GenplanError as exc:
        raise BadInput(str(exc)) from None
    if meter is not None:
        meter.scope = "command"
    owner = preset_owner(args.preset)
    assert owner is not None  # argparse's choices are the registered presets
    approach, preset = owner
    out = Path(args.out)
    results: list[dict[str, Any]] = []
    accounts: list[RunAccount] = []
    for seed in seeds:
        reached = meter.at_cap() if meter is not None else None
        if reached is not None:  # no new trial once the caps are reached
            print(f"budget spent ({reached}): trials of seed(s) {', '.join(str(s) for s in seeds[seeds.index(seed):])} "
                  "not started", file=sys.stderr)
            break
        parameters = {"seed": seed, "locations": args.locations, "max_steps": args.max_steps, "prompts": args.prompts,
                      **({"fixed_domain": fixed} if fixed is not None else {})}
        request = api.StartRequest(preset, "coincollector", out / "runs", parameters=parameters)
        started = time.monotonic()
        created: list[Path] = []
        try:
            outcome = api.start(request, settings, api.Watch(run_created=created.append), no_cache=args.no_cache,
                                budget_parent=meter)
        except KeyboardInterrupt:
            if created:
                interrupted_run(args, created[0])  # the stopped trial and its resume command
            raise
        except (ModelAccessError, api.GenplanError) as exc:
            raise BadInput(str(exc)) from None
        report = api.report(outcome)
        summary = {**report.to_json(), "seed": seed}  # the trial's report (as a resume's): its seed, no bulky record
        record_run(out, Path(summary["run_dir"]))
        results.append(summary)
        account = report.account
        if account is not None:
            accounts.append(account)
        if not args.json and account is not None:
            print(f"seed {seed}: {account.outcome.facts.headline}, calls: {count_words(account.counts)}, "
                  f"{time.monotonic() - started:.1f} s -> {summary['run_dir']}", file=sys.stderr)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        wins = sum(a.outcome.facts.result.solved for a in accounts if a.outcome.facts.result is not None)
        print(f"{wins} of {len(results)} trials succeeded; `genplan report {out}` for the table")
    return EXIT_OK
