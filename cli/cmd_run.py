"""genplan run DOMAIN_DIR: the whole pipeline headless, with a live progress display."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.common import (
    EXIT_OK,
    BadInput,
    add_faithful_options,
    error,
    faithful_spec,
    require_input_dir,
    require_output_dir,
    run_guarded,
    warn,
)
from genplan.engine.api.presets import ConfigError, PipelineConfig, load_config_file, load_preset, preset_names
from genplan.engine.events import Event, Notice, RequestRetry, ResponseReceived, SelectionMade, StepStarted, ValidationResult

if TYPE_CHECKING:
    from genplan.engine.api.domains import DomainDir

# The model client (openai) and the pipeline are imported when a run starts, not when `genplan` parses
# its arguments: every other command would otherwise pay for them.


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run the generalized-planning pipeline on a domain",
        description="Run the strategy-refinement pipeline (or a baseline) on DOMAIN_DIR's debug tasks and "
        "select the best program. Every prompt, answer, strategy and program is written to the run directory "
        "(default DOMAIN_DIR/.genplan/runs/<id>/). Model settings come from the config file, then GENPLAN_* "
        "environment variables, then these flags. Exit code 0 when the run finished, whatever its coverage. "
        "With --preset AutoToS or AutoToS+PST, AutoToS runs on DOMAIN_DIR instead (as `genplan autotos DOMAIN_DIR`; "
        "see docs/autotos.md).",
    )
    p.add_argument("domain_dir", nargs="?", help="a domain directory, e.g. domains/ferry")
    p.add_argument("--preset", default="F5-3",
                   help=f"one of {', '.join(preset_names())} (default F5-3), or a preset of an approach with its own "
                   "loop (AutoToS, AutoToS+PST: AutoToS runs on DOMAIN_DIR); see --list-presets")
    p.add_argument("--list-presets", action="store_true", help="list every approach's presets with their settings and exit")
    p.add_argument("--pipeline-config", metavar="FILE", help="a TOML file with pipeline settings (overrides --preset)")
    add_faithful_options(p)
    add_model_options(p)
    p.add_argument("--seed", type=int, default=1, choices=[1, 2, 3], help="which pair of debug tasks are the prompt tasks (1-3)")
    p.add_argument("--max-concurrency", type=int, help="parallel model requests (default 6: one per debug task)")
    p.add_argument("--prompts", metavar="DIR", help="a directory with your own prompt templates")
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    p.add_argument("--out", metavar="DIR", help="put the run directory under DIR (default DOMAIN_DIR/.genplan/runs/; "
                   "runs/ for an own-loop preset such as AutoToS)")
    p.add_argument("--resume", metavar="RUN", help="continue the run in this directory (never repeats a completed request); "
                   "a DOMAIN_DIR given with it is the domain the run goes on with instead of the one its run.json names "
                   "(a run copied, or a domain moved)")
    p.add_argument("--eval", action="store_true", help="evaluate the selected program on the eval tasks afterwards "
                   "(an AutoToS preset: search every eval task with the final functions)")
    p.add_argument("--json", action="store_true", help="print one JSON summary object on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
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
    """Plain progress lines on stderr: what the pipeline is doing, as it happens."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def __call__(self, event: Event) -> None:
        line = self.describe(event)
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
        return None


def _config(args: argparse.Namespace):
    config = load_config_file(args.pipeline_config) if args.pipeline_config else load_preset(args.preset)
    return config.with_changes(faithful=faithful_spec(args), split_seed=args.seed, max_concurrency=args.max_concurrency)


def _stopped(args: argparse.Namespace, run_dir: Path, message: str) -> int:
    """A run that had to stop: one line (or, with --json, one object) naming the cause and how to resume."""
    from genplan.engine.api.runs import mark_failed

    resume = f"genplan run --resume {run_dir}"
    with contextlib.suppress(OSError):  # the disk may be the problem
        mark_failed(run_dir)
    if args.json:
        print(json.dumps({"status": "failed", "message": message, "resume": resume}))
    return error(f"{message} (resume with: {resume})")


def list_presets() -> str:
    """One line per preset: its approach and the settings that differ between presets."""
    from genplan.engine.api.presets import APPROACHES, Capability

    lines = [f"{'preset':8} {'approach':9} {'N':>2} {'K_S':>3} {'K_C':>3} {'reflection':10} {'limit':>6}  function"]
    for approach in APPROACHES.values():
        if not approach.can(Capability.PROGRAMS):
            continue
        for name in approach.presets:
            c = load_preset(name)
            lines.append(f"{name:8} {approach.name:9} {c.initial_programs:>2} {c.strategy_rounds:>3} {c.code_rounds:>3} "
                         f"{'yes' if c.code_reflection else 'no':10} {c.program_timeout_s:>5g}s  {c.function_name}")
    own = [(name, a) for a in APPROACHES.values() if not a.can(Capability.PROGRAMS) for name in a.presets]
    if own:
        lines += ["", "approaches with their own loop (`genplan run DOMAIN_DIR --preset P` runs those marked *):"]
        for name, approach in own:
            settings = ", ".join(f"{k}={v}" for k, v in approach.presets[name].items()) or "-"
            mark = "*" if approach.can(Capability.DOMAIN_DIR) else " "
            lines.append(f"{name:17} {approach.name:9} {settings:26} {mark} {approach.command} --preset {name}")
    lines.append("")
    lines += [f"{a.name}: {a.title}" for a in APPROACHES.values()]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.list_presets:
        print(list_presets())
        return EXIT_OK
    if args.resume:  # an AutoToS run or a PDDLego+ trial goes on with its own report
        from genplan.cli.cmd_autotos import resume_command

        resumed = resume_command(Path(args.resume), args, _model_flags(args))
        if resumed is not None:
            return resumed
    if not args.resume and not args.pipeline_config:
        own_loop = _own_loop_run(args)
        if own_loop is not None:
            return own_loop
    from genplan.engine import api
    from genplan.engine.api.domains import DomainDir, DomainDirError
    from genplan.engine.api.runs import default_runs_dir, write_summary
    from genplan.engine.api.settings import ModelAccessError, PromptLibrary, SettingsError, load_settings, stdin_answerer

    # everything the user gave is checked before anything is created or asked
    given_domain = Path(args.domain_dir).resolve() if args.resume and args.domain_dir else None
    if args.out:
        require_output_dir("--out", args.out)
    if args.prompts:
        require_input_dir("--prompts", args.prompts)
    try:
        if args.resume:
            _, meta = api.resumable(Path(args.resume))
            if meta.domain_dir is None and not args.domain_dir:
                raise BadInput(f"{args.resume}: its run.json names no domain directory")
            domain_dir = DomainDir.open(api.resume_target(Path(args.resume), given_domain))
            config = PipelineConfig.of_run(meta)
            recorded = {k: v for k, v in meta.model.items() if k not in ("prices",)}
            cli_model = {**recorded, **{k: v for k, v in _model_flags(args).items() if v is not None}}
        else:
            if not args.domain_dir:
                raise BadInput("a DOMAIN_DIR is needed (or --resume RUN)")
            domain_dir = DomainDir.open(args.domain_dir)
            config = _config(args)
            cli_model = _model_flags(args)
        settings = load_settings(args.config_file, cli=cli_model)
        prompts = PromptLibrary(args.prompts) if args.prompts else PromptLibrary()
    except (DomainDirError, ConfigError, SettingsError, ModelAccessError, FileNotFoundError, api.NotResumable) as exc:
        raise BadInput(str(exc)) from None
    created: list[Path] = []

    def announce(run_dir: Path) -> None:
        created.append(run_dir)
        if not args.quiet:
            print(f"genplan: run directory {run_dir}", file=sys.stderr)
            print(f"genplan: {_sandbox_layers()}", file=sys.stderr)

    watch = api.Watch(
        subscriber=None if args.quiet else Progress(), run_created=announce,
        manual_answer=stdin_answerer() if not settings.is_configured and sys.stdin.isatty() else None)
    if not settings.is_configured and not args.quiet:
        print("genplan: no model configured: you answer each request by hand (end with a line '.')", file=sys.stderr)
    try:
        if args.resume:
            outcome = api.resume(Path(args.resume), settings, watch, no_cache=args.no_cache, prompts=prompts,
                                 domain_dir=given_domain)
        else:
            root = Path(args.out) if args.out else default_runs_dir(domain_dir.path)
            request = api.StartRequest(config.preset, str(domain_dir.path), root, config=config)
            outcome = api.start(request, settings, watch, no_cache=args.no_cache, prompts=prompts)
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
    result = outcome.value
    summary = result.to_dict()
    if args.eval and result.selected_program is not None:
        summary["eval_coverage"] = _evaluate(result.selected_program, domain_dir, config)
    write_summary(result.run_dir, summary)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(_human_summary(summary))
    return EXIT_OK if result.status in (api.RunStatus.FINISHED, api.RunStatus.STOPPED) else 1


def _own_loop_run(args: argparse.Namespace) -> int | None:
    """A preset of an approach that writes no programs: run it here when it takes a domain directory (AutoToS's
    PDDL family), else say in one line which command runs it. None: a pipeline preset (or no such preset: the
    pipeline's preset lookup says so)."""
    from genplan.engine.api.presets import Capability, preset_owner

    owner = preset_owner(args.preset)
    if owner is None or owner[0].can(Capability.PROGRAMS):
        return None
    approach, preset = owner
    if not approach.can(Capability.DOMAIN_DIR):
        raise BadInput(f"preset {preset} belongs to {approach.name}, which has its own command: "
                       f"{approach.command} --preset {preset}")
    if not args.domain_dir:
        raise BadInput("a DOMAIN_DIR is needed")
    require_input_dir("DOMAIN_DIR", args.domain_dir)
    ignored = [flag for flag, given in (("--seed", args.seed != 1), ("--prompts", args.prompts),
                                        ("--max-concurrency", args.max_concurrency), ("--reasoning", args.reasoning))
               if given]
    if ignored:
        warn(f"{', '.join(ignored)}: not used by {approach.name}'s own loop (preset {preset})")
    from genplan.cli.cmd_autotos import start_command

    # they go to runs/ (or --out), not DOMAIN_DIR/.genplan/runs/
    return start_command(preset, args.domain_dir, args, {"evaluate": bool(args.eval)}, Path(args.out or "runs"))


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


def _evaluate(program: Path, domain_dir: DomainDir, config) -> float:
    """Coverage on the eval tasks: 4 orderings, the run's time limit, both cores; with the run's --faithful
    imports / orderings / bas toggles as the reference evaluates (docs/reproduction.md)."""
    import os

    from genplan.engine.api.programs import Limits, Program, evaluate_program
    from genplan.engine.batch.jobs import eval_job_toggles

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


def _human_summary(s: dict) -> str:
    lines = [
        f"run {s['status']}: {s['run_dir']}",
        f"selected program: {s['selected_program'] or 'none'} ({s['debug_solved']}/{s['debug_total']} debug tasks)",
        f"strategies: {s['strategy_versions']}, programs: {s['programs_generated']}",
        f"model calls: {s['llm_calls']} (cache hits {s['cache_hits']}, resumed {s['resumed_responses']}), "
        f"tokens {s['tokens_in']} in / {s['tokens_out']} out, cost ${s['cost_usd']:.4f}, {s['wall_seconds']:.1f} s",
    ]
    if "eval_coverage" in s:
        lines.append(f"eval coverage: {s['eval_coverage']}")
    return "\n".join(lines)
