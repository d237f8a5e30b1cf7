"""genplan eval PROGRAM DOMAIN_DIR: coverage of a generated program over tasks x input orderings."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

from genplan.cli.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    MAX_ORDERINGS,
    add_faithful_options,
    error,
    faithful_spec,
    require_between,
    require_seconds,
)
from genplan.engine.api.domains import DomainDir, DomainDirError
from genplan.engine.api.pddl import PddlError, load_domain
from genplan.engine.api.presets import parse_spec
from genplan.engine.api.programs import (
    DEFAULT_ORDERINGS,
    DEFAULT_TIME_LIMIT,
    MIB,
    SYNTAX_ERROR,
    Evaluation,
    Evaluator,
    FeedbackStyle,
    Limits,
    OrderingResult,
    Program,
    ProgramError,
    Sandbox,
    SandboxError,
    TaskResult,
    format_layers,
    load_tasks,
)

TASK_SETS = ("debug", "eval", "probes")
EVALUATION_TOGGLES = ("imports", "orderings", "planner")  # the --faithful toggles that change an evaluation


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval",
        help="evaluate a generated program on a domain's tasks",
        description="Run PROGRAM (defining generate_solution(objects, init, goal) or get_plan(...)) on the tasks "
        "of DOMAIN_DIR in the sandbox, under several random orderings of objects, init and goal, and validate "
        "every plan. A task counts as solved only if the plan is valid under all orderings. Prints one line per "
        "task, the coverage and the error table. Exit codes: 0 all tasks solved, 1 some task failed, 2 bad "
        "input (a PROGRAM that does not parse as Python included: refused before any task runs), 130 interrupted.",
    )
    p.add_argument("program", help="the Python program (a .py file)")
    p.add_argument(
        "domain_dir",
        help="a domain directory of any layout (genplan's, the paper's benchmark layout, domain.pddl with problem "
        "files), or a domain file with --tasks FILES",
    )
    p.add_argument(
        "--tasks",
        nargs="+",
        default=["eval"],
        metavar="SET_OR_PATH",
        help="debug, eval (default), probes, or task files / directories of .pddl files",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"time limit per run in seconds (default {DEFAULT_TIME_LIMIT:g}, the paper's; Silver et al. used 30)",
    )
    p.add_argument(
        "--orderings", type=int, default=DEFAULT_ORDERINGS, metavar="N", help="input orderings per task (default 4)"
    )
    p.add_argument("--jobs", type=int, default=0, metavar="N", help="tasks run in parallel (default: number of cores)")
    p.add_argument("--memory", type=int, default=2048, metavar="MB", help="memory limit per run in MiB (default 2048)")
    p.add_argument("--style", choices=[FeedbackStyle.STEIN.value, FeedbackStyle.SILVER.value],
                   default=FeedbackStyle.STEIN.value, help="feedback message style")
    p.add_argument("--compare-planner", action="store_true", help="also run the satisficing planner on solved tasks")
    add_faithful_options(
        p, "evaluate as the reference code of Stein et al. does (docs/reproduction.md): its toggles imports (a "
        "program importing sys, os or shutils is not run: every task fails), orderings (the reference's random "
        "orderings as ordered sets) and planner (--compare-planner runs lazy GBFS + FF with preferred operators); "
        "the other toggles concern generation and change nothing here",
    )
    p.add_argument("--json", metavar="FILE", help="write the full results as JSON to FILE ('-' for stdout)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.add_argument(
        "--isolation",
        choices=["auto", "namespaces", "plain"],
        default=None,
        help="sandbox mode (default: $GENPLAN_SANDBOX_ISOLATION or auto); the active containment layers are "
        "printed once to stderr (not with --quiet)",
    )
    p.set_defaults(func=run)


# ------------------------------------------------------------------ input


class _BadInput(Exception):
    pass


def _select_task_files(domain_dir: DomainDir, selection: list[str]) -> list[Path]:
    files: list[Path] = []
    for item in selection:
        if item in TASK_SETS:
            found = {"debug": domain_dir.debug_tasks, "eval": domain_dir.eval_tasks, "probes": domain_dir.probe_tasks}[
                item
            ]()
            if not found:
                raise _BadInput(f"{domain_dir.path / item}: no task files (*.pddl)")
            files.extend(found)
            continue
        path = Path(item)
        if not path.exists() and (domain_dir.path / item).exists():
            path = domain_dir.path / item
        if path.is_dir():
            found = sorted(path.glob("*.pddl"))
            if not found:
                raise _BadInput(f"{path}: no task files (*.pddl)")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise _BadInput(f"{item}: no such task set, file or directory (task sets: {', '.join(TASK_SETS)})")
    return files


def _check_options(args: argparse.Namespace) -> None:
    require_seconds("--timeout", args.timeout)
    require_between("--orderings", args.orderings, 1, MAX_ORDERINGS)
    if args.jobs < 0:
        raise _BadInput(f"--jobs must not be negative, got {args.jobs}")
    if args.memory < 64:
        raise _BadInput(f"--memory must be at least 64 MiB, got {args.memory}")


# ----------------------------------------------------------------- output


class ProgressDisplay:
    """A one-line bar on a terminal, plain lines otherwise (both on stderr)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.solved = 0
        self.start = time.monotonic()
        self.lock = threading.Lock()
        self.results: list[TaskResult] = []  # as they finish (kept when the evaluation is interrupted)

    def task_done(self, result: TaskResult, done: int, total: int) -> None:
        with self.lock:
            self.results.append(result)
        if self.quiet:
            return
        with self.lock:
            self.solved += result.solved
            if self.tty:
                width = 30
                filled = int(width * done / max(total, 1))
                bar = "#" * filled + "." * (width - filled)
                line = f"\r[{bar}] {done}/{total} tasks, {self.solved} solved, {time.monotonic() - self.start:.1f}s"
                sys.stderr.write(line)
            else:
                what = "solved" if result.solved else f"failed ({result.error_kind})"
                sys.stderr.write(f"[{done}/{total}] {result.name}: {what}\n")
            sys.stderr.flush()

    def note(self, text: str) -> None:
        if not self.quiet:
            with self.lock:
                sys.stderr.write(("\n" if self.tty else "") + text + "\n")
                sys.stderr.flush()

    def finish_line(self) -> None:
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


def _first_line(text: str, limit: int = 160) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    # For tracebacks the last line (the exception) says most.
    line = lines[-1] if lines[0].startswith("The code raised the following exception") else lines[0]
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _failure_summary(failure: OrderingResult) -> str:
    """The first line of the failure's message; for a syntax error, the error and its line."""
    outcome = failure.outcome
    if outcome.kind == SYNTAX_ERROR and outcome.exception:
        where = re.search(r"line (\d+)", outcome.traceback or "")
        return f"{outcome.exception} (line {where.group(1)})" if where else outcome.exception
    return _first_line(failure.message)


def print_report(evaluation: Evaluation, out=None) -> None:
    out = out or sys.stdout
    width = max((len(r.name) for r in evaluation.results), default=4)
    for r in evaluation.results:
        length = "-" if r.plan_length is None else str(r.plan_length)
        line = f"{r.name:<{width}}  {r.status:<6}  {r.runtime:8.3f}s  len {length:>5}"
        if not r.solved and r.failure is not None:
            line += f"  ordering {r.failure.ordering}: {r.error_kind}: {_failure_summary(r.failure)}"
        if r.planner is not None:
            p = r.planner
            ratio = f"{p.runtime_ratio:.3g}" if p.runtime_ratio is not None else "-"
            lratio = f"{p.length_ratio:.3g}" if p.length_ratio is not None else "-"
            line += f"  planner {p.status} {p.seconds:.2f}s len {p.plan_length or '-'} (time x{ratio}, length x{lratio})"
        print(line, file=out)
    total = len(evaluation.results)
    print(
        f"\ncoverage: {evaluation.solved}/{total} tasks ({100 * evaluation.coverage:.1f}%) solved under all "
        f"{evaluation.orderings} ordering(s), time limit {evaluation.time_limit:g}s, {evaluation.seconds:.1f}s in total",
        file=out,
    )
    table = evaluation.error_table()
    if any(table.values()):
        print("failed tasks by error: " + ", ".join(f"{k}: {v}" for k, v in table.items() if v or k != "sandbox error"), file=out)
    summary = evaluation.planner_summary()
    if summary:
        def fmt(value: float | None) -> str:
            return "-" if value is None else f"{value:.3g}"

        print(
            f"planner on {summary['tasks_compared']} solved task(s) ({summary['planner_solved']} solved by it): "
            f"runtime program/planner mean {fmt(summary['runtime_ratio_mean'])} (geometric {fmt(summary['runtime_ratio_geomean'])}), "
            f"plan length program/planner mean {fmt(summary['length_ratio_mean'])} "
            f"(geometric {fmt(summary['length_ratio_geomean'])}); planner: {', '.join(summary['planners'])}",
            file=out,
        )
    if evaluation.interrupted:
        print("(interrupted: the results above are incomplete)", file=out)


# -------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> int:
    try:
        _check_options(args)
        # a file that does not parse is refused before any task runs (one line with the error and its line): run
        # on every task it would only report that line once per run; a batch's evaluation records it as a result
        program = Program.from_file(args.program)
        problem = program.syntax_problem()
        if problem is not None:
            raise _BadInput(f"{args.program}: {problem}; nothing was run")
        explicit = [Path(t) for t in args.tasks if t not in TASK_SETS and Path(t).is_file()]
        bare_file = Path(args.domain_dir).is_file()
        domain_dir = DomainDir.open(args.domain_dir, tasks=explicit if bare_file and explicit else None)
        task_files = _select_task_files(domain_dir, args.tasks)
        domain = load_domain(domain_dir.domain_file)
        tasks = load_tasks(domain, task_files, domain_dir.typed_objects, root=domain_dir.path)
        toggles = parse_spec(faithful_spec(args) or "")
    except (_BadInput, ProgramError, DomainDirError, PddlError) as exc:
        return error(str(exc))
    except ValueError as exc:
        return error(str(exc))

    jobs = args.jobs or os.cpu_count() or 1
    limits = Limits(time_limit=args.timeout, memory_bytes=args.memory * MIB)
    display = ProgressDisplay(args.quiet)
    cancel = threading.Event()
    started = time.monotonic()
    results: list[TaskResult] = []
    interrupted = False
    layers: list[dict] = []
    try:
        sandbox = Sandbox(limits, isolation=args.isolation)
    except ValueError as exc:  # a bad $GENPLAN_SANDBOX_ISOLATION
        return error(str(exc))
    evaluator = Evaluator(domain, tasks, limits=limits, style=FeedbackStyle(args.style), sandbox=sandbox)
    evaluator.import_check, evaluator.ordered_sets = "imports" in toggles, "orderings" in toggles
    try:
        try:
            layers = sandbox.layers()
            if not args.quiet:
                print(f"genplan: {format_layers(layers)}", file=sys.stderr)
            results = evaluator.evaluate(
                program, orderings=args.orderings, jobs=jobs, progress=display.task_done, cancel=cancel
            )
        except SandboxError as exc:
            return error(f"the sandbox could not be started: {exc}")
        display.finish_line()
        if args.compare_planner and not cancel.is_set():
            display.note(f"running the satisficing planner on {sum(r.solved for r in results)} solved task(s)...")
            evaluator.compare_with_planner(
                results,
                timeout=args.timeout,
                cancel=cancel,
                reference=lambda task: domain_dir.reference_plan(task, "satisficing"),
                ff_search="lazy-preferred" if "planner" in toggles else "eager",
            )
    except KeyboardInterrupt:
        # Stop cleanly: no new runs, every server (and with it every running program) is killed.
        interrupted = True
        cancel.set()
        order = {task.name: index for index, task in enumerate(tasks)}
        results = sorted(display.results, key=lambda r: order[r.name])
    finally:
        sandbox.close()
    evaluation = Evaluation(
        program=str(args.program),
        domain=domain.name,
        orderings=args.orderings,
        time_limit=args.timeout,
        style=FeedbackStyle(args.style),
        results=results,
        seconds=time.monotonic() - started,
        interrupted=interrupted,
    )
    if interrupted:
        display.note("genplan: interrupted; stopping the runs")
    report = {**evaluation.to_dict(), "sandbox_layers": layers}
    applied = [t for t in toggles if t in EVALUATION_TOGGLES]
    if applied:
        report["faithful"] = ",".join(applied)
    if args.json == "-":
        print(json.dumps(report, indent=2))
    else:
        print_report(evaluation)
        if args.json:
            try:
                Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
            except OSError as exc:
                return error(f"{args.json}: cannot write the JSON report ({exc.strerror or exc})")
    if interrupted:
        return 130
    return EXIT_OK if results and all(r.solved for r in results) else EXIT_NEGATIVE
