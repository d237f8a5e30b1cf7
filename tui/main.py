"""`genplan-tui DOMAIN_DIR`: the interactive terminal app.

Kept light: only argparse runs before the first screen; the engine is imported by workers later.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The model options, as in `genplan run` (same names, same meaning): setting names of the engine's ModelSettings.
MODEL_OPTIONS = ("model", "base_url", "api_key_env", "temperature", "reasoning", "max_tokens")
SERVE_HOST, SERVE_PORT = "127.0.0.1", 8000
# our page around the served app (textual-serve's own asks Google Fonts for a font: a failed load offline, a
# third party told of every visit)
WEB_TEMPLATES = Path(__file__).resolve().parent / "web"
# the options of the serving process itself, which the app each browser gets is started without
SERVE_OPTIONS = ("--serve", "--host", "--port")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="genplan-tui",
        description="Watch, step through and correct genplan's pipeline on a PDDL domain directory.",
    )
    parser.add_argument("domain_dir", metavar="DOMAIN_DIR", help="a domain directory of any layout "
                        "(genplan's, the paper's benchmark layout, domain.pddl with problem files); or a directory "
                        "of runs (e.g. the runs/ of genplan autotos or genplan import autotos), or one run")
    parser.add_argument("--runs", metavar="DIR", type=Path,
                        help="list the runs in DIR instead of the domain's .genplan/runs/")
    parser.add_argument("--run", metavar="ID", help="reopen a run of this domain (its id or directory)")
    parser.add_argument("--replay", metavar="RUN", help="play a recorded run back event by event")
    parser.add_argument("--speed", type=float, default=1.0, help="replay speed factor (default 1)")
    parser.add_argument("--preset", help="pipeline preset (F5-3, F3-6, ...), AutoToS, AutoToS+PST, or a trial in a "
                        "CoinCollector game: pddlego-detailed, pddlego-simple, pddlego-fixed-domain, plangen "
                        "(default: the settings file's, else F5-3)")
    parser.add_argument("--eval-limit", type=int, metavar="N",
                        help="AutoToS presets: evaluate on the first N eval tasks only (0: no evaluation; default all)")
    parser.add_argument("--memory", type=float, metavar="GIB",
                        help="AutoToS presets: address-space limit of each sandboxed search in GiB (default 2), also for a "
                        "run that goes on (one that ran out of memory goes on with more)")
    parser.add_argument("--game-seed", type=int, metavar="N",
                        help="PDDLego+ and PlanGen presets: the CoinCollector game's seed (default 0)")
    parser.add_argument("--game-rooms", type=int, metavar="N",
                        help="PDDLego+ and PlanGen presets: rooms in the CoinCollector house, 1-11 (default 11)")
    parser.add_argument("--step", action="store_true", help="start in step mode (pause before every request)")
    parser.add_argument("--classroom", action="store_true",
                        help="classroom mode: a calmer layout that gives the content the room, and a caption under "
                             "the timeline that names the chosen row's stage of the method and why a failed check's "
                             "feedback was produced (L toggles it)")
    parser.add_argument("--serve", action="store_true",
                        help="serve the app to web browsers (textual-serve) instead of this terminal: each browser "
                        "that opens the address gets its own app; stop with ctrl+c")
    parser.add_argument("--host", default=None,
                        help=f"--serve: the address to listen on (default {SERVE_HOST}: this machine only; 0.0.0.0 "
                        "for every network it is on)")
    parser.add_argument("--port", type=int, default=None, help=f"--serve: the port (default {SERVE_PORT})")
    parser.add_argument("--read-only", action="store_true",
                        help="for teaching: watch and replay runs only; no run is started or resumed, nothing is "
                        "edited, rerun or exported, no settings are saved")
    parser.add_argument("--config-file", type=Path, help="settings file (default: the user config dir's genplan/config.toml)")
    # the same flags as `genplan run`, with the same meaning
    parser.add_argument("--model", help="model name, e.g. gpt-4o")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    parser.add_argument("--api-key-env", help="name of the environment variable holding the API key (default OPENAI_API_KEY)")
    parser.add_argument("--temperature", type=float, help="sampling temperature (default 0)")
    parser.add_argument("--reasoning", action="store_true", default=None,
                        help="a reasoning model: prompts without 'think step by step'")
    parser.add_argument("--max-tokens", type=int, help="answer length limit")
    parser.add_argument("--seed", type=int, choices=[1, 2, 3],
                        help="which pair of debug tasks are the prompt tasks (1-3)")
    parser.add_argument("--max-concurrency", type=int, help="parallel model requests (default 6: one per debug task)")
    parser.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    # caps on a run's spend, as `genplan run`'s (the totals bar shows the spend beside them)
    parser.add_argument("--max-cost", type=float, metavar="USD", help="US dollars the run may spend, at the model's price")
    parser.add_argument("--max-calls", type=int, metavar="N", help="model calls the run may make")
    parser.add_argument("--max-total-tokens", type=int, metavar="N",
                        help="tokens (input + output) the run may spend (--max-tokens is one answer's length limit)")
    # over the settings' Reference-faithful field, for this session
    from genplan.engine.api.faithful import FAITHFUL_HELP, faithful_except_help

    parser.add_argument("--faithful", action="store_true", help=FAITHFUL_HELP)
    parser.add_argument("--faithful-except", metavar="NAMES", help=faithful_except_help())
    return parser


def faithful_spec(args: argparse.Namespace) -> str | None:
    if args.faithful_except is not None:
        from genplan.engine.api.presets import except_spec

        return except_spec(args.faithful_except)
    return "all" if args.faithful else None


def runs_of(path: Path) -> tuple[Path, Path | None] | None:
    """``(runs directory, run or None)`` when ``path`` is one run directory or a directory of runs, else None."""
    from genplan.engine.api.runs import holds_runs, is_run_dir

    if is_run_dir(path):
        return path.parent, path
    if holds_runs(path):
        return path, None
    return None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from genplan.engine.api.domains import DomainDir, DomainDirError

    if faithful_spec(args):  # (the presets load every approach: only when there is a spec to check)
        from genplan.engine.api.presets import FaithfulError, parse_spec

        try:
            parse_spec(faithful_spec(args) or "")
        except FaithfulError as exc:
            print(f"genplan-tui: {exc}", file=sys.stderr)
            return 2

    domain_dir = Path(args.domain_dir)
    runs_dir: Path | None = args.runs
    no_domain = False
    if domain_dir.is_file():
        domain_dir = domain_dir.parent  # a bare domain file: its directory, with the problems beside it
    if runs_dir is not None and not runs_dir.is_dir():
        print(f"genplan-tui: --runs {runs_dir}: no such directory", file=sys.stderr)
        return 2
    try:
        DomainDir.open(domain_dir)  # any layout: genplan's, the paper's benchmark layout, bare files
    except DomainDirError as exc:
        runs_only = runs_of(domain_dir)
        if runs_only is None:
            print(f"genplan-tui: {exc}", file=sys.stderr)
            return 2
        # runs without a domain (an AutoToS domain such as the 24 Game has none): the runs and their versions open
        runs_dir, run = runs_only
        no_domain = True
        if run is not None and args.run is None and args.replay is None:
            args.run = str(run)
    if args.speed <= 0:
        print("genplan-tui: --speed must be positive", file=sys.stderr)
        return 2
    if args.eval_limit is not None and args.eval_limit < 0:
        print("genplan-tui: --eval-limit must not be negative", file=sys.stderr)
        return 2
    if args.memory is not None:  # (the sandbox's module, only then: it loads the evaluation and the sandbox)
        from genplan.engine.api.programs import MIN_MEMORY_GIB

        if not args.memory >= MIN_MEMORY_GIB:
            print(f"genplan-tui: --memory must be at least {MIN_MEMORY_GIB} GiB (64 MiB)", file=sys.stderr)
            return 2
    budget = None  # the caps given here; the settings file's [budget] is read with the settings, after the first frame
    if any(value is not None for value in (args.max_cost, args.max_calls, args.max_total_tokens)):
        from genplan.engine.api.budget import BudgetError, budget_from_flags  # (the engine's API: not before it is asked)

        try:
            budget = budget_from_flags(args.max_cost, args.max_calls, args.max_total_tokens)
        except BudgetError as exc:
            print(f"genplan-tui: {exc}", file=sys.stderr)
            return 2
    if args.game_rooms is not None and not 1 <= args.game_rooms <= 11:
        print("genplan-tui: --game-rooms: CoinCollector has 1 to 11 rooms", file=sys.stderr)
        return 2
    if not args.serve and (args.host is not None or args.port is not None):
        print("genplan-tui: --host and --port go with --serve", file=sys.stderr)
        return 2
    if args.port is not None and not 1 <= args.port <= 65535:
        print("genplan-tui: --port must be between 1 and 65535", file=sys.stderr)
        return 2
    if args.config_file is not None and not args.config_file.is_file():
        print(f"genplan-tui: {args.config_file}: config file does not exist", file=sys.stderr)
        return 2
    from genplan.engine.api.runs import is_run_dir
    from genplan.tui.app import GenplanApp
    from genplan.tui.artifacts import runs_root
    from genplan.tui.options import LaunchOptions, resolve_run

    for run in (args.run, args.replay):
        if run is not None and not is_run_dir(resolve_run(runs_dir or runs_root(domain_dir), run)):
            where = runs_dir or f"{domain_dir} (see its .genplan/runs/)"
            print(f"genplan-tui: {run}: no such run in {where}", file=sys.stderr)
            return 2
    if args.serve:
        return serve(sys.argv[1:] if argv is None else list(argv), args.host or SERVE_HOST, args.port or SERVE_PORT,
                     read_only=args.read_only)
    options = LaunchOptions(
        domain_dir=domain_dir,
        runs_dir=runs_dir,
        no_domain=no_domain,
        run=args.run,
        replay=args.replay,
        speed=args.speed,
        preset=args.preset,
        cli_settings={name: getattr(args, name) for name in MODEL_OPTIONS if getattr(args, name) is not None},
        pipeline_changes={name: value for name, value in (("faithful", faithful_spec(args)), ("split_seed", args.seed),
                                                          ("max_concurrency", args.max_concurrency))
                          if value is not None},
        no_cache=args.no_cache,
        eval_limit=args.eval_limit,
        memory_gib=args.memory,
        budget=budget,
        game={name: value for name, value in (("seed", args.game_seed), ("locations", args.game_rooms))
              if value is not None},
        config_file=args.config_file,
        step=args.step,
        classroom=args.classroom,
        read_only=args.read_only,
    )
    GenplanApp(options).run()
    return 0


def served_command(argv: list[str]) -> str:
    """The shell command that starts the app for one browser: this command's arguments without the serving ones."""
    import shlex

    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in SERVE_OPTIONS:
            skip = "=" not in arg and name != "--serve"  # --host H / --port P: their value goes too
            continue
        kept.append(arg)
    return shlex.join([sys.executable, "-m", "genplan.tui.main", *kept])


def serve(argv: list[str], host: str, port: int, *, read_only: bool) -> int:
    """Serve the app to browsers at http://host:port until interrupted (textual-serve)."""
    from genplan.tui.serving import addresses_to_open, serve_forever, url_of

    mode = " (read-only: watch and replay)" if read_only else ""
    urls = addresses_to_open(host, port)
    where = urls[0] if len(urls) == 1 else f"{url_of(host, port)}: open " + ", ".join(urls)
    print(f"genplan-tui: serving at {where}{mode}; open it in a browser, ctrl+c stops", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1") and not read_only:
        print("genplan-tui: note: anyone who reaches this address can start runs with your model settings and key; "
              "add --read-only for a classroom", file=sys.stderr, flush=True)
    try:
        serve_forever(served_command(argv), host, port, WEB_TEMPLATES)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(f"genplan-tui: cannot serve at {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
