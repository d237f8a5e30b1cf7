"""genplan autotos TARGET: AutoToS with a model, on one of the paper's domains or a PDDL domain directory."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.cli.account_view import print_report
from genplan.cli.autotos_options import (
    add_limit_arguments,
    add_rule_arguments,
    check_limits,
    rule_parameters,
)
from genplan.cli.budget_options import add_budget_arguments, budget_of
from genplan.cli.common import (
    BadInput,
    interrupted_run,
    open_source,
    require_output_dir,
    require_seconds,
    run_guarded,
)
from genplan.engine.api.presets import AUTOTOS_DOMAINS as PAPER_DOMAINS
from genplan.engine.api.presets import autotos_generates

if TYPE_CHECKING:
    from genplan.engine.api import RunReport


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "autotos",
        help="AutoToS with a model: successor function and goal test checked by unit tests, then search",
        description="Run AutoToS with a model: it writes a successor function and a goal test; genplan's unit "
        "tests (goal cases, soundness by search, completeness) feed failures back until both pass, then plain "
        "search solves every evaluation instance. TARGET is one of the paper's domains (" + ", ".join(PAPER_DOMAINS)
        + "; instances from --data DIR, else genplan's own generators) or a PDDL domain directory (tests from "
        "genplan's simulator). The run directory holds the event log and every succ / goal version. "
        "See docs/autotos.md.",
    )
    p.add_argument("target", help="a paper domain (24game, blocksworld, prontoqa, crossword, sokoban) or a domain "
                   "directory, e.g. domains/ferry")
    p.add_argument("--preset", default="AutoToS", type=_preset,
                   help="AutoToS (default) or AutoToS+PST (with the partial soundness test)")
    p.add_argument("--pst", action="store_true", help="with the partial soundness test (the preset AutoToS+PST)")
    p.add_argument("--data", metavar="DIR", help="the AutoToS data folder (with twentyfourgame/, blocksworld/, ...)")
    p.add_argument("--generate", type=int, metavar="N",
                   help="evaluation instances from genplan's generator (default: the generator's own number)")
    p.add_argument("--gen-seed", type=int, default=0, metavar="S", help="seed of genplan's generator (default 0)")
    p.add_argument("--search", choices=["bfs", "gbfs"], default="bfs",
                   help="evaluation search: bfs (default; DFS for crosswords) or gbfs (greedy, goal count; PDDL family)")
    p.add_argument("--planner", choices=["auto", "fast-downward", "builtin"], default="auto",
                   help="the optimal planner for a PDDL domain's unit tests and optimal lengths (default auto)")
    p.add_argument("--call-timeout", type=float, default=1.0, metavar="S",
                   help="time limit per succ / goal call in the unit tests (default 1, the paper's)")
    add_rule_arguments(p, release_default=False)
    add_limit_arguments(p)
    p.add_argument("--model", help="model name, e.g. gpt-4o")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    p.add_argument("--api-key-env", help="name of the environment variable holding the API key (default OPENAI_API_KEY)")
    p.add_argument("--config-file", help="model settings file (default: the user config dir's genplan/config.toml)")
    p.add_argument("--temperature", type=float, help="sampling temperature (default 0)")
    p.add_argument("--max-tokens", type=int, help="answer length limit")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    p.add_argument("--runs", metavar="DIR", default="runs", help="where the run directory is made (default runs/)")
    add_budget_arguments(p)
    p.add_argument("--json", action="store_true",
                   help="print run_dir, calls, success, failure, categories, expanded, generated, status and the run's account as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def _preset(text: str) -> str:
    from genplan.engine.api.presets import get_approach

    for name in get_approach("autotos").presets:
        if name.lower() == text.lower():
            return name
    raise argparse.ArgumentTypeError(f"unknown AutoToS preset {text!r} (AutoToS or AutoToS+PST)")


def parameters_of(args: argparse.Namespace, preset: str) -> dict[str, Any]:
    """The preset's parameters with the user's options over them (checked: BadInput for nonsense)."""
    from genplan.engine.api.presets import get_approach

    check_limits(args)
    require_seconds("--call-timeout", args.call_timeout)
    if args.generate is not None and args.generate < 1:
        raise BadInput(f"--generate must be at least 1; got {args.generate}")
    if args.data is not None and args.generate is not None:
        raise BadInput("give either --data DIR (the paper's instances) or --generate N (genplan's), not both")
    if args.data is not None and not Path(args.data).is_dir():
        raise BadInput(f"--data {args.data}: no such directory")
    if args.target in PAPER_DOMAINS and args.data is None:
        if not autotos_generates(args.target):
            raise BadInput(f"genplan has no instance generator for {args.target}; give --data DIR (the AutoToS data folder)")
    parameters: dict[str, Any] = dict(get_approach("autotos").presets[preset])
    if getattr(args, "pst", False):
        parameters["partial_soundness"] = True
    parameters.update(preset=preset, data=args.data, generate=args.generate, gen_seed=args.gen_seed,
                      planner=args.planner, hash_seed=args.hash_seed, memory_gib=args.memory,
                      evaluate=not args.no_eval,
                      eval_limit=args.eval_limit, eval_timeout=args.eval_timeout, search=args.search,
                      call_timeout=args.call_timeout, soundness_timeout=args.search_timeout)
    if getattr(args, "release_rules", False):
        parameters.update(rule_parameters(True))
    if args.clock is not None:
        parameters["clock"] = args.clock
    return parameters


def model_flags(args: argparse.Namespace) -> dict[str, Any]:
    return {"model": args.model, "base_url": args.base_url, "api_key_env": args.api_key_env,
            "temperature": args.temperature, "max_tokens": getattr(args, "max_tokens", None)}


def _settings(args: argparse.Namespace, cli: dict[str, Any]) -> Any:
    from genplan.engine.api.settings import SettingsError, load_settings

    try:
        settings = load_settings(args.config_file, cli=cli)
    except SettingsError as exc:
        raise BadInput(str(exc)) from None
    if not settings.is_configured:
        raise BadInput("no model configured: give --model (and --base-url for a local endpoint) or a config file")
    return settings


def _progress(args: argparse.Namespace) -> Any:
    started = time.monotonic()

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"[{time.monotonic() - started:7.1f}s] {line}", file=sys.stderr, flush=True)

    return progress


def finish_report(report: RunReport, args: argparse.Namespace) -> int:
    """Print a run's report (its account, as every run's) and say whether the model could be used."""
    return print_report(report, args)


def start_command(preset: str, target: str, args: argparse.Namespace, parameters: dict[str, Any], runs_dir: Path) -> int:
    """Start a run of an AutoToS preset on ``target`` through the front-end API and print its summary."""
    from genplan.engine import api
    from genplan.engine.api.budget import BudgetError
    from genplan.engine.api.settings import ModelAccessError

    if target not in PAPER_DOMAINS:
        if not Path(target).is_dir():
            raise BadInput(f"{target}: neither an AutoToS domain ({', '.join(PAPER_DOMAINS)}) nor a domain directory")
        open_source(target)  # a directory that is no domain directory: one line now, not after the first progress
    require_output_dir("--runs" if hasattr(args, "runs") else "--out", runs_dir)
    settings = _settings(args, model_flags(args))
    budget = budget_of(args)
    request = api.StartRequest(preset, target, runs_dir, parameters=parameters)
    created: list[Path] = []
    try:
        outcome = api.start(request, settings, api.Watch(progress=_progress(args), run_created=created.append),
                            no_cache=args.no_cache, budget=budget)
    except KeyboardInterrupt:
        if created:
            interrupted_run(args, created[0])  # the stopped run and its resume command
        raise
    except (ModelAccessError, BudgetError) as exc:
        raise BadInput(str(exc)) from None
    return finish_report(api.report(outcome), args)


def run(args: argparse.Namespace) -> int:
    preset = "AutoToS+PST" if args.pst else args.preset
    return start_command(preset, args.target, args, parameters_of(args, preset), Path(args.runs))
