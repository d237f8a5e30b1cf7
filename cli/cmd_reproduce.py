"""genplan reproduce DATA_DIR: the paper's experiment grid over a directory of domains, ending in its tables."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from genplan.cli.budget_options import add_budget_arguments
from genplan.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_faithful_options, error, faithful_spec


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reproduce",
        help="run the paper's experiment grid over a directory of domains and write its tables",
        description="Every domain of DATA_DIR (the paper's layout; also one level down, so the reference "
        "repository's data/ with silver/ and additional/ works as it is) x presets x seeds as one batch "
        "(docs/experiments.md): resumable (run the same command again), on the local cores or a Ray cluster, "
        "evaluated with the paper's protocol (45 s, 4 orderings, both planners), ending in the report's tables "
        "and the paper's published numbers beside them (coverage of Tables 1-2 per domain and preset, the planners' "
        "coverage, calls and tokens of Table 9, Tables 5-7; matched by directory name) and, with --published, "
        "your own numbers too. Domains are keyed by their directory name, not the name their PDDL declares. "
        "Exit codes: 0 complete, 1 some run or evaluation failed, 2 bad input.",
    )
    p.add_argument("data_dir", metavar="DATA_DIR", help="a directory of domains in the paper's layout")
    p.add_argument("--model", required=True, help="the model name")
    p.add_argument("--base-url", help="an OpenAI-compatible endpoint (default: OpenAI's)")
    p.add_argument("--api-key-env", help="the environment variable holding the API key")
    p.add_argument("--presets", default="F5-3,F3-6,Bas,Sil",
                   help="comma-separated presets or config files (default: F5-3,F3-6,Bas,Sil)")
    p.add_argument("--seeds", default="1,2,3", help="comma-separated split seeds (default 1,2,3)")
    p.add_argument("--out", metavar="DIR", help="the batch directory (default: reproduce-<DATA_DIR name>)")
    p.add_argument("--published", metavar="FILE",
                   help="more published coverage to compare with (CSV or TOML; see docs/experiments.md); the "
                   "paper's own numbers are always shown")
    p.add_argument("--planner-limits", default="45", metavar="S[,S]",
                   help="time limits (s) at which genplan's planners' coverage of the evaluation tasks is counted, "
                   "each planner running once per task with the largest (default 45; the paper: 45,1800; 0: do not "
                   "run the planners for coverage)")
    p.add_argument("--dry-run", action="store_true",
                   help="list the domains found (key, PDDL name, tasks) with the published figures the grid will be "
                   "compared to (coverage per preset shown and model, the planners'), the forecast of its model calls, "
                   "tokens and cost per domain and preset (from genplan's earlier runs, else the paper's published "
                   "figures), the grid's size and the --faithful toggles in force; run nothing")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a [pipeline] override for every preset, e.g. code_rounds=1 (repeatable)")
    add_faithful_options(p)
    p.add_argument("--eval-limit", type=int, default=0, metavar="N", help="evaluate on the first N tasks only (0: all)")
    p.add_argument("--eval-timeout", type=float, default=45.0, metavar="S", help="seconds per task and ordering (default 45)")
    p.add_argument("--max-concurrent-runs", type=int, default=4, metavar="N")
    p.add_argument("--ray", metavar="ADDRESS", help="run on this Ray cluster (needs genplan[ray])")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--json", action="store_true", help="with --dry-run: the forecast of the grid's calls, tokens and "
                   "cost as one JSON object")
    add_budget_arguments(p, "batch")
    p.set_defaults(func=run)


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def _toggles_line(spec: str | None) -> str:
    """Which --faithful toggles the runs would have (docs/reproduction.md), or that none are on."""
    from genplan.engine.api.presets import parse_spec

    if spec is None:
        return "faithful toggles: none (genplan's own behaviour; --faithful for the reference code's)"
    return f"faithful toggles in force: {', '.join(parse_spec(spec)) or 'none'}"


def _forecast(args: argparse.Namespace, domains: list[Any], presets: list[str], seeds: list[int], out: Path) -> Any:
    """The grid's forecast: every domain x preset x seed with the model, from genplan's finished runs in the batch
    directory and the domains' own runs, else the paper's published figures (engine/report/forecast.py), at the
    model's price in genplan's list."""
    from genplan.engine.api.budget import Planned, forecast_runs

    planned = [Planned(domain.path.name, preset, args.model) for domain in domains for preset in presets
               for _seed in seeds]
    # priced as the batch's runs will be: by genplan's list (a batch reads no config file)
    return forecast_runs(planned, [out, *(domain.path for domain in domains)])


def run(args: argparse.Namespace) -> int:
    from genplan.cli import cmd_batch
    from genplan.engine.api.presets import FaithfulError
    from genplan.engine.api.reports import (
        ReproduceError,
        all_tables,
        domain_listing,
        experiment_text,
        find_domains,
        load_batch,
        load_paper_numbers,
        load_published,
        published_table,
        tables_beside_paper,
        to_terminal,
        write_report,
    )

    data_dir = Path(args.data_dir)
    paper = load_paper_numbers()
    try:
        domains = find_domains(data_dir)
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        published = load_published(Path(args.published)) if args.published else []
    except ReproduceError as exc:
        return error(str(exc))
    except ValueError:
        return error(f"--seeds must be comma-separated integers, got {args.seeds!r}")
    try:
        limits = sorted({float(v) for v in args.planner_limits.split(",") if v.strip() and float(v) > 0})
    except ValueError:
        return error(f"--planner-limits must be comma-separated seconds, got {args.planner_limits!r}")
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    if args.dry_run:
        out = Path(args.out) if args.out else Path(f"reproduce-{data_dir.resolve().name}")
        forecast = _forecast(args, domains, presets, seeds, out)
        if args.json:
            print(json.dumps(forecast.to_dict(), indent=2))
            return EXIT_OK
        for line in domain_listing(data_dir, domains, set(paper.domains), paper, presets):
            print(line)
        print(f"forecast for {args.model} (per domain and preset, {len(seeds)} seed(s) each; the source of each line "
              "at its end):")
        for line in forecast.lines():
            print(f"  {line}")
        print(f"{len(domains)} domains x {len(presets)} presets x {len(seeds)} seeds = "
              f"{len(domains) * len(presets) * len(seeds)} runs; published presets among them: "
              f"{', '.join(p for p in presets if p in paper.presets) or 'none'}")
        try:
            print(_toggles_line(faithful_spec(args)))
        except FaithfulError as exc:
            return error(str(exc))
        return EXIT_OK
    pipeline: dict[str, Any] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            return error(f"--set takes KEY=VALUE, got {item!r}")
        pipeline[key.strip()] = _parse_value(value.strip())
    spec = faithful_spec(args)
    if spec is not None:
        pipeline = {"faithful": spec, **pipeline}  # the toggles first; a --set wins over them
    out = Path(args.out) if args.out else Path(f"reproduce-{data_dir.resolve().name}")
    out.mkdir(parents=True, exist_ok=True)
    experiment_file = out / "reproduce.toml"
    model = {"name": args.model.replace("/", "-"), "model": args.model, "base_url": args.base_url,
             "api_key_env": args.api_key_env}
    experiment = {"eval_limit": args.eval_limit, "eval_timeout_s": args.eval_timeout,
                  "max_concurrent_runs": args.max_concurrent_runs, "planner_coverage": limits}
    experiment_file.write_text(
        experiment_text(data_dir.resolve().name, domains, presets, seeds, model, experiment, pipeline), encoding="utf-8"
    )
    batch_args = argparse.Namespace(experiment=str(experiment_file), out=str(out), max_concurrent_runs=None,
                                    ray=args.ray, no_cache=args.no_cache, dry_run=False, json=False, quiet=args.quiet,
                                    max_cost=args.max_cost, max_calls=args.max_calls,
                                    max_total_tokens=args.max_total_tokens)
    code = cmd_batch.run(batch_args)
    if code == EXIT_BAD_INPUT:
        return code
    data = load_batch(out)
    tables = all_tables(data) + tables_beside_paper(data, paper)
    if published:
        tables.append(published_table(data, published))
    written = write_report(data, out / "report", tables)
    print(to_terminal(tables))
    print(f"tables: {out / 'report'} ({len(written)} files)", file=sys.stderr)
    return code if code != EXIT_OK else EXIT_OK
