"""genplan run DOMAIN_DIR: the whole pipeline headless, with a live progress display."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.account_view import print_report
from genplan.cli.autotos_options import add_run_memory_argument, require_memory
from genplan.cli.budget_options import add_budget_arguments, budget_of
from genplan.cli.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    BadInput,
    add_faithful_options,
    error,
    faithful_spec,
    interrupted_run,
    require_input_dir,
    require_output_dir,
    run_guarded,
    warn,
)
from genplan.engine.api.presets import (
    Capability,
    ConfigError,
    RunOptions,
    evaluates_itself,
    get_approach,
    load_config_file,
    load_preset,
    preset_names,
)
from genplan.engine.api.runs import default_runs_dir
from genplan.engine.errors import is_internal
from genplan.engine.events import (
    Event,
    Notice,
    RequestRetry,
    ResponseReceived,
    RunResumed,
    SelectionMade,
    StepStarted,
    ValidationResult,
)

if TYPE_CHECKING:
    from genplan.engine import api
    from genplan.engine.api import RunReport
    from genplan.engine.api.budget import Budget, Spend
    from genplan.engine.api.domains import DomainDir
    from genplan.engine.api.presets import Approach
    from genplan.engine.api.settings import ModelSettings

OPTION_FLAGS = {"memory_gib": "--memory"}  # run options whose flag is not their name

# The model client (openai) and the pipeline are imported when a run starts, not when `genplan` parses
# its arguments: every other command would otherwise pay for them.


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run the generalized-planning pipeline on a domain",
        description="Run the strategy-refinement pipeline (or a baseline) on DOMAIN_DIR's debug tasks and "
        "select the best program. Every prompt, answer, strategy and program is written to the run directory "
        "(default DOMAIN_DIR/.genplan/runs/<id>/). Model settings come from the config file, then GENPLAN_* "
        "environment variables, then these flags. Exit codes: 0 the run finished (whatever its coverage) or was stopped, "
        "1 it failed (an internal error: its traceback in the run's failures/), 2 bad input (a --resume refused "
        "included: a finished run, another domain than the run's, its own changed since) or a run that had to stop "
        "(the model could not be used, the disk is full; the line names the resume command), 130 ctrl+c, which stops "
        "the run (resume it with --resume RUN). "
        "With --preset AutoToS or AutoToS+PST, AutoToS runs on DOMAIN_DIR instead (as `genplan autotos DOMAIN_DIR`; "
        "see docs/autotos.md).",
    )
    p.add_argument("domain_dir", nargs="?", help="a domain directory, e.g. domains/ferry (or its domain.pddl)")
    p.add_argument("--preset", default="F5-3",
                   help=f"one of {', '.join(preset_names())} (default F5-3), or a preset of an approach with its own "
                   "loop (AutoToS, AutoToS+PST: AutoToS runs on DOMAIN_DIR); see --list-presets")
    p.add_argument("--list-presets", action="store_true", help="list every approach's presets with their settings and exit")
    p.add_argument("--pipeline-config", metavar="FILE", help="a TOML file with pipeline settings (overrides --preset)")
    add_faithful_options(p)
    add_model_options(p)
    p.add_argument("--seed", type=int, choices=[1, 2, 3], help="which pair of debug tasks are the prompt tasks (1-3)")
    p.add_argument("--max-concurrency", type=int, help="parallel model requests (default 6: one per debug task)")
    add_run_memory_argument(p)
    p.add_argument("--prompts", metavar="DIR", help="a directory with your own prompt templates")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    p.add_argument("--out", metavar="DIR", help="put the run directory under DIR (default DOMAIN_DIR/.genplan/runs/, "
                   "for every preset)")
    p.add_argument("--resume", metavar="RUN", help="continue the run in this directory (never repeats a completed request; "
                   "--no-cache is kept from its start); a DOMAIN_DIR given with it is the domain the run goes on with "
                   "instead of the one its run.json names (a run copied, or a domain moved), and must be the same "
                   "domain with the same domain file and debug tasks; a finished run is left as it is")
    p.add_argument("--eval", action="store_true", help="evaluate the selected program on the eval tasks afterwards "
                   "(an AutoToS preset: search every eval task with the final functions)")
    p.add_argument("--json", action="store_true", help="print one JSON summary object on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--dry-run", action="store_true",
                   help="run nothing: print the forecast of the run's model calls, tokens and cost (from genplan's "
                   "earlier runs of the preset on the domain, else the paper's published figures); --json as JSON")
    add_budget_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run, args))


def add_model_options(p: argparse.ArgumentParser) -> None:
    """The model flags of `genplan run` (and of `genplan fork`, which runs as `genplan run --resume` does)."""
    p.add_argument("--model", help="model name, e.g. gpt-4o")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    p.add_argument("--api-key-env", help="name of the environment variable holding the API key (default OPENAI_API_KEY)")
    p.add_argument("--config-file", help="model settings file (default: the user config dir's genplan/config.toml)")
    p.add_argument("--temperature", type=float, help="sampling temperature (default 0)")
    p.add_argument("--reasoning", action="store_true", default=None, help="a reasoning model: prompts without 'think step by step'")
    p.add_argument("--max-tokens", type=int, help="answer length limit")


class Progress:
    """Plain progress lines on stderr: what the pipeline is doing, as it happens; a model's answer with the spend
    so far beside the caps (``spent``: what the run spent before, a resumed run's)."""

    def __init__(self, budget: Budget | None = None, spent: Spend | None = None) -> None:
        from genplan.engine.api.budget import Budget, Spend

        self.start = time.monotonic()
        self.budget = budget or Budget()
        self.spent = spent or Spend()

    def __call__(self, event: Event) -> None:
        line = self.describe(event)
        if line and isinstance(event, ResponseReceived) and not event.resumed and not event.cached and not event.human:
            self.spent.calls += 1
            self.spent.tokens_in += event.tokens_in or 0
            self.spent.tokens_out += event.tokens_out or 0
            self.spent.cost_usd += event.cost_usd or 0.0
            self.spent.unpriced += event.cost_usd is None
            line += f"; spent {self.spent.describe(self.budget)}"
        if line:
            print(f"[{time.monotonic() - self.start:7.1f}s] {line}", file=sys.stderr, flush=True)

    @staticmethod
    def describe(event: Event) -> str | None:
        if isinstance(event, StepStarted):
            details = " ".join(f"{k}={v}" for k, v in event.data.items() if k != "phase")
            return f"== {event.phase} {details}".rstrip()
        if isinstance(event, ResponseReceived):
            tokens = f"{event.tokens_in or 0}+{event.tokens_out or 0} tokens"
            source = " (cache)" if event.cached else " (human)" if event.human else ""
            return f"   {event.step} #{event.request_id}: {tokens}, {event.latency_s} s{source}"
        if isinstance(event, RequestRetry):
            return (f"   {event.step} #{event.request_id}: attempt {event.attempt} failed "
                    f"({event.reason}); retrying in {event.delay_s} s")
        if isinstance(event, ValidationResult):
            mark = "ok  " if event.valid else "FAIL"
            message = (event.message or "").splitlines()[0][:100] if not event.valid and event.message else ""
            return f"   {mark} {event.what} {event.version} on {event.task} {message}".rstrip()
        if isinstance(event, SelectionMade):
            return f"-> selected {event.kind} {event.version}: {event.solved}/{event.total} debug tasks"
        if isinstance(event, Notice):
            return f"   note: {event.message}"
        if isinstance(event, RunResumed):
            return f"== resumed: the run goes on from where it ended ({event.previous_status or 'unknown'})"
        return None


def _stopped(args: argparse.Namespace, run_dir: Path, message: str) -> int:
    """A run that had to stop: one line (or, with --json, one object) naming the cause and how to resume."""
    from genplan.engine.api.runs import RunBusy, mark_failed

    resume = f"genplan run --resume {run_dir}"
    with contextlib.suppress(OSError, RunBusy):  # the disk may be the problem; another process may have taken it up
        mark_failed(run_dir)
    if args.json:
        print(json.dumps({"status": "failed", "message": message, "resume": resume}))
    return error(f"{message} (resume with: {resume})")


def _internal_failure(run_dir: Path) -> str | None:
    """What the run recorded of an internal error it ended with (engine/runs/run.py, Run.fail), else None."""
    from genplan.engine.api.runs import open_run

    meta = open_run(run_dir).meta()
    error = meta.get("error")
    return str(error) if meta.get("status") == "failed" and meta.get("traceback") and error else None


def _failed(args: argparse.Namespace, run_dir: Path, message: str) -> int:
    """A run that ended with an internal error: one line naming it, where its traceback is, and how to resume."""
    resume = f"genplan run --resume {run_dir}"
    if args.json:
        print(json.dumps({"status": "failed", "message": message, "resume": resume}))
    print(f"genplan: {run_dir.name}: {message} (resume with: {resume})", file=sys.stderr)
    return EXIT_NEGATIVE


def list_presets() -> str:
    """One line per preset: its approach and the settings that differ between presets."""
    import textwrap

    from genplan.engine.api.presets import APPROACHES

    lines = [f"{'preset':8} {'approach':9} {'N':>2} {'K_S':>3} {'K_C':>3} {'reflection':10} {'limit':>6}  function"]
    settings_presets = preset_names()  # the presets whose settings are a pipeline configuration
    for name in settings_presets:
        c = load_preset(name)
        lines.append(f"{name:8} {c.approach:9} {c.initial_programs:>2} {c.strategy_rounds:>3} {c.code_rounds:>3} "
                     f"{'yes' if c.code_reflection else 'no':10} {c.program_timeout_s:>5g}s  {c.function_name}")
    others = [(name, a) for a in APPROACHES.values() for name in a.presets if name not in settings_presets]
    if others:  # each on two lines, the command, then its settings: 80 columns hold the longest
        lines += ["", "approaches with their own loop (* also: genplan run DOMAIN_DIR --preset P):"]
        name_width = max(len(name) for name, _ in others)
        for name, approach in others:
            mark = "*" if approach.can(Capability.DOMAIN_DIR) else " "
            settings = ", ".join(f"{k}={v}" for k, v in approach.presets[name].items()) or "(no settings)"
            lines.append(f"{name:{name_width}} {approach.name:9} {mark} {approach.command} --preset {name}")
            lines.append(f"{'':{name_width}} {'':9}   {settings}")
    lines.append("")
    lines += [textwrap.fill(f"{a.name}: {a.title}", width=79, subsequent_indent="  ") for a in APPROACHES.values()]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """One path for every approach: a new run of the preset (or the configuration file), or --resume RUN, through
    the front-end API; the report printed as its content says."""
    if args.list_presets:
        print(list_presets())
        return EXIT_OK
    from genplan.engine import api
    from genplan.engine.api.budget import BudgetError, check_budget, spend_of
    from genplan.engine.api.settings import ModelAccessError, PromptLibrary, SettingsError, load_settings, stdin_answerer

    # everything the user gave is checked before anything is created or asked
    if args.out:
        require_output_dir("--out", args.out)
    if args.prompts:
        require_input_dir("--prompts", args.prompts)
    require_memory(args.memory)
    budget = budget_of(args)
    given_domain = Path(args.domain_dir).resolve() if args.resume and args.domain_dir else None
    request: api.StartRequest | None = None
    try:
        if args.resume:
            approach, meta = api.resumable(Path(args.resume))
            # refused, before anything is written, for a finished run and for a domain not the run's own
            target = api.resume_target(Path(args.resume), given_domain)
            _warn_unused(api.unused_options(approach.name, RunOptions(memory_gib=args.memory)), approach.name,
                         str(meta.extra.get("preset") or approach.name))
            recorded = {k: v for k, v in meta.model.items() if k not in ("prices",)}
            cli_model = {**recorded, **{k: v for k, v in _model_flags(args).items() if v is not None}}
        else:
            request, approach = _start_request(args)
            target, cli_model = request.target, _model_flags(args)
        domain_dir = _domain_dir(target) if approach.can(Capability.DOMAIN_DIR) and Path(target).is_dir() else None
        settings = load_settings(args.config_file, cli=cli_model)
        prompts = PromptLibrary(args.prompts) if args.prompts else PromptLibrary()
        if args.dry_run:
            return _forecast(args, request, approach, settings)
        check_budget(budget, settings)
    except (ConfigError, SettingsError, ModelAccessError, FileNotFoundError, api.NotResumable, BudgetError) as exc:
        raise BadInput(str(exc)) from None
    created: list[Path] = []

    def announce(run_dir: Path) -> None:
        created.append(run_dir)
        if not args.quiet:
            print(f"genplan: run directory {run_dir}", file=sys.stderr)
            print(f"genplan: {_sandbox_layers()}", file=sys.stderr)

    spent_before = spend_of(Path(args.resume)) if args.resume else None
    watch = api.Watch(
        subscriber=None if args.quiet else Progress(budget, spent_before),
        progress=None if args.quiet else _progress_lines(),
        run_created=announce,
        manual_answer=stdin_answerer() if not settings.is_configured and sys.stdin.isatty() else None)
    if not settings.is_configured and not args.quiet:
        print("genplan: no model configured: you answer each request by hand (end with a line '.')", file=sys.stderr)
    try:
        if request is None:
            outcome = api.resume(Path(args.resume), settings, watch, no_cache=args.no_cache, prompts=prompts,
                                 domain_dir=given_domain, memory_gib=args.memory, budget=budget)
        else:
            outcome = api.start(request, settings, watch, no_cache=args.no_cache, prompts=prompts, budget=budget)
    except KeyboardInterrupt:
        if created:
            interrupted_run(args, created[0])
        raise
    except ModelAccessError as exc:
        if not created:
            raise BadInput(str(exc)) from None
        return _stopped(args, created[0], f"the model could not be used: {exc}")
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT) or not created:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        return _stopped(args, created[0], f"no space left on the device of the run directory{where}; "
                        "free some space")
    except Exception as exc:
        failure = _internal_failure(created[0]) if created and is_internal(exc) else None
        if failure is None:
            raise
        return _failed(args, created[0], failure)
    report = api.report(outcome)
    selected = report.account.outcome.facts.selected if report.account is not None else None
    if args.eval and not evaluates_itself(approach.name) and domain_dir is not None and selected:
        from genplan.engine.api.runs import in_run, write_summary

        coverage = _evaluate(in_run(report.run_dir, selected), domain_dir, report.run_dir)
        report = replace(report, details={**report.details, "eval_coverage": coverage})
        write_summary(report.run_dir, report.to_json(account=False))
        report = replace(report, account=api.account(report.run_dir))
    kept = _say_budget(report.run_dir, args)
    if kept:  # --json: the caps, the spend and the stop's reason
        report = replace(report, details={**report.details, **kept})
    return _print_report(report, args)


def _forecast(args: argparse.Namespace, request: api.StartRequest | None, approach: Approach,
              settings: ModelSettings) -> int:
    """--dry-run: what the run would cost (from genplan's earlier runs of the preset on the domain, else the paper's
    published figures), printed as a table or, with --json, one object; nothing is created or asked."""
    from genplan.engine.api.budget import Planned, forecast_runs, spend_of
    from genplan.engine.api.runs import read_meta

    if request is None:  # --resume RUN: the run's own domain, preset and model; what it spent so far beside
        run_dir = Path(args.resume)
        meta = read_meta(run_dir)
        target = meta.domain_dir or str(meta.extra.get("domain") or "")
        preset = str(meta.config.get("preset") or meta.extra.get("preset") or approach.name)
        history, spent = [run_dir.parent], spend_of(run_dir)
    else:
        target, preset = request.target, request.config.preset if request.config is not None else request.preset
        history, spent = [request.runs_dir, Path(target)], None
    model = settings.model or ""
    planned = [Planned(Path(target).name, preset, model)]
    result = forecast_runs(planned, history, settings.prices)
    if args.json:
        print(json.dumps({**result.to_dict(), **({"spent": spent.to_dict()} if spent is not None else {})}, indent=2))
        return EXIT_OK
    print(f"forecast of one run of {preset} on {Path(target).name} with {model or '(no model: you answer)'}:")
    print("\n".join(result.lines()))
    if spent is not None:
        print(f"spent so far by {Path(args.resume).name}: {spent.describe()}")
    return EXIT_OK


def _say_budget(run_dir: Path, args: argparse.Namespace) -> dict:
    """A run stopped at its budget: one line on stderr saying so and how to go on (a higher cap). Returns what
    run.json keeps of the run's budget (``budget``, ``stop_reason``), {} for a run without caps."""
    from genplan.engine.api.runs import read_meta_or_none

    meta = read_meta_or_none(run_dir)
    if meta is None or "budget" not in meta.extra:
        return {}
    kept = {key: meta.extra[key] for key in ("budget", "stop_reason") if key in meta.extra}
    if meta.extra.get("stop_reason") == "budget":
        reached = (meta.extra.get("budget") or {}).get("reached", "")
        warn(f"stopped at the budget ({reached}); go on with a higher cap: genplan run --resume {run_dir} "
             "--max-cost/--max-calls/--max-total-tokens ...")
    return kept


def _start_request(args: argparse.Namespace) -> tuple[api.StartRequest, Approach]:
    """The new run the options ask for: a configuration file's, or the preset's with the run options its approach
    takes (the others are named in a warning); BadInput for a preset whose approach runs elsewhere."""
    from genplan.engine import api
    from genplan.engine.api.presets import EvaluationSettings

    if args.pipeline_config:
        config = load_config_file(args.pipeline_config).with_changes(
            faithful=faithful_spec(args), split_seed=args.seed, max_concurrency=args.max_concurrency)
        approach = get_approach(config.approach)
        request = api.StartRequest(config.preset, "", Path(), config=config)
    else:
        try:
            approach, preset = api.approach_of(args.preset)
        except api.UnknownPreset as exc:
            raise BadInput(str(exc)) from None
        options = RunOptions(seed=args.seed, max_concurrency=args.max_concurrency, faithful=faithful_spec(args),
                             memory_gib=args.memory)
        request, unused = api.start_request(preset, "", Path(), options,
                                            evaluation=EvaluationSettings(enabled=bool(args.eval)))
        _warn_unused(unused, approach.name, preset)
    if not approach.can(Capability.DOMAIN_DIR):
        raise BadInput(f"preset {request.preset} belongs to {approach.name}, which has its own command: "
                       f"{approach.command} --preset {request.preset}")
    if not args.domain_dir:
        raise BadInput("a DOMAIN_DIR is needed (or --resume RUN)")
    domain_dir = _domain_dir(args.domain_dir)
    root = Path(args.out) if args.out else default_runs_dir(domain_dir.path)
    return replace(request, target=str(domain_dir.path), runs_dir=root), approach


def _warn_unused(unused: list[str], approach: str, preset: str) -> None:
    """A warning naming the options given that the run's approach has no use for (their flags, as typed)."""
    if unused:
        flags = ", ".join(OPTION_FLAGS.get(name, "--" + name.replace("_", "-")) for name in unused)
        warn(f"{flags}: not used by {approach} (preset {preset})")


def _domain_dir(path: str) -> DomainDir:
    from genplan.engine.api.domains import DomainDir, DomainDirError

    try:
        return DomainDir.open(path)
    except DomainDirError as exc:
        raise BadInput(str(exc)) from None


def _progress_lines() -> Callable[[str], None]:
    """An approach's own progress lines (AutoToS's calls and checks), timed like the event lines."""
    started = time.monotonic()

    def say(line: str) -> None:
        print(f"[{time.monotonic() - started:7.1f}s] {line}", file=sys.stderr, flush=True)

    return say


def _print_report(report: RunReport, args: argparse.Namespace) -> int:
    """The run's report, the same way for every approach: its account (one JSON object with --json: the
    approach's keys of before and ``account``). Exit 0 when the run finished or was stopped."""
    return print_report(report, args)


def _sandbox_layers() -> str:
    """The containment layers generated programs get on this machine (one server start, ~0.1 s)."""
    from genplan.engine.api.programs import Sandbox, SandboxError

    try:
        with Sandbox() as sandbox:
            return sandbox.layers_line()
    except (SandboxError, ValueError) as exc:
        return f"sandbox layers unknown: {exc}"


def _model_flags(args: argparse.Namespace) -> dict:
    return {
        "model": args.model,
        "base_url": args.base_url,
        "api_key_env": args.api_key_env,
        "temperature": args.temperature,
        "reasoning": args.reasoning,
        "max_tokens": args.max_tokens,
    }


def _evaluate(program: Path, domain_dir: DomainDir, run_dir: Path | None) -> float:
    """Coverage on the eval tasks: 4 orderings, the run's time limit, both cores; with the run's --faithful
    imports / orderings / bas toggles as the reference evaluates (docs/reproduction.md)."""
    import os

    from genplan.engine.api.presets import run_config
    from genplan.engine.api.programs import Limits, Program, evaluate_program
    from genplan.engine.batch.jobs import eval_job_toggles

    config = run_config(run_dir)

    print("genplan: evaluating the selected program on the eval tasks ...", file=sys.stderr)
    toggles = eval_job_toggles(config)
    evaluation = evaluate_program(
        Program.from_file(program, functions=(config.function_name, *toggles["also_accepted"])),
        domain_dir.domain_file,
        domain_dir.eval_tasks(),
        typed=domain_dir.typed_objects,
        limits=Limits(time_limit=config.program_timeout_s),
        jobs=os.cpu_count() or 1,
        root=domain_dir.path,
        import_check=toggles["import_check"],
        ordered_sets=toggles["ordered_sets"],
    )
    return evaluation.coverage
