"""genplan counterexample PROGRAM DOMAIN_DIR: find a task the program fails on and shrink it to a smallest one."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from genplan.cli.common import EXIT_NEGATIVE, EXIT_OK, MAX_ORDERINGS, error, require_between, require_seconds
from genplan.engine.api.domains import DomainDir, DomainDirError
from genplan.engine.api.pddl import PddlError, encode_task, load_domain, render_task
from genplan.engine.api.programs import COUNTEREXAMPLE_TASK_SETS as TASK_SETS
from genplan.engine.api.programs import (
    CounterexampleError,
    Program,
    ProgramError,
    SandboxError,
    SearchBudget,
    counterexample_pddl,
    find_counterexample,
    person_budget,
    write_counterexample,
)


def register(sub: argparse._SubParsersAction) -> None:
    defaults = person_budget()  # the app's k searches with the same budget
    p = sub.add_parser(
        "counterexample",
        help="find a task PROGRAM fails on and shrink it to a smallest failing task",
        description="Try DOMAIN_DIR's probe tasks, then tasks of growing size from its generator (the sizes of "
        "its debug and eval specs, smallest first, several seeds each; without a generator tasks derived from "
        "its debug tasks: smaller, and two combined; never its evaluation tasks unless --tasks eval), each "
        "under several input orderings, until PROGRAM fails one or the budget is spent. Every task tried "
        "satisfies the domain's invariants (the mutex groups Fast Downward's translator proves). The failing "
        "task is shrunk: objects (with every fact naming them, mended where a fact depended on them), goal "
        "facts, initial facts and static facts are removed one at a time while the program fails the same way "
        "(the same exception on the same line, the same precondition of the same action, or goals of the same "
        "kind unmet) and the task stays solvable; where no single removal keeps the failure, larger steps "
        "(goal subsets, pairs of objects, chains of linked objects, an object removed with what stood on it moved, "
        "smaller tasks made afresh by the generator) "
        "are tried within the same budget, and the output says how far each took it. The app's k searches "
        "with the same default budget. The result is written as a PDDL problem file whose comment "
        "lists every removal. Exit codes: 0 no counterexample within the budget, 1 counterexample found, "
        "2 bad input.",
    )
    p.add_argument("program", help="the Python program (a .py file)")
    p.add_argument("domain_dir", help="a domain directory, e.g. domains/ferry")
    p.add_argument("--seed", type=int, default=0, help="search seed: which generated tasks are tried (default 0)")
    p.add_argument("--seconds", type=float, default=defaults.seconds, metavar="S",
                   help=f"time budget of the search (default {defaults.seconds:g})")
    p.add_argument("--max-tasks", type=int, default=defaults.max_tasks, metavar="N",
                   help=f"at most this many tasks tried (default {defaults.max_tasks})")
    p.add_argument("--tasks-per-size", type=int, default=defaults.tasks_per_size, metavar="N",
                   help=f"generated tasks per size and round (default {defaults.tasks_per_size})")
    p.add_argument("--orderings", type=int, default=defaults.orderings, metavar="N",
                   help=f"input orderings per task (default {defaults.orderings})")
    p.add_argument("--timeout", type=float, default=defaults.time_limit, metavar="S",
                   help=f"time limit per program run (default {defaults.time_limit:g})")
    p.add_argument("--shrink-seconds", type=float, default=defaults.shrink_seconds, metavar="S",
                   help=f"time budget of the shrinking (default {defaults.shrink_seconds:g})")
    p.add_argument("--tasks", choices=TASK_SETS, default="auto",
                   help="auto: the generator, or tasks derived from the debug tasks where there is none (default); "
                   "debug: tasks derived from the debug tasks; eval: the evaluation tasks (the set a program is "
                   "scored on: a counterexample from it is no longer a fair test)")
    p.add_argument("--no-probes", action="store_true", help="skip the hand-written probe tasks")
    p.add_argument("--no-shrink", action="store_true", help="report the failing task as found")
    p.add_argument("--out", metavar="FILE",
                   help="where to write the counterexample (default: PROGRAM's name with .counterexample.pddl)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=run)


def _progress(number: int, source: str, failed: bool) -> None:
    print(f"  task {number}: {source}{' - FAILS' if failed else ''}", file=sys.stderr, flush=True)


def budget_of(args: argparse.Namespace) -> SearchBudget:
    """The search's budget from the flags, by the rules the app's ``k`` uses too (person_budget)."""
    return person_budget(seconds=args.seconds, max_tasks=args.max_tasks, tasks_per_size=args.tasks_per_size,
                         orderings=args.orderings, time_limit=args.timeout, shrink_seconds=args.shrink_seconds)


def run(args: argparse.Namespace) -> int:
    require_seconds("--seconds", args.seconds)
    require_seconds("--timeout", args.timeout)
    require_between("--orderings", args.orderings, 1, MAX_ORDERINGS)
    try:
        budget = budget_of(args)
        program = Program.from_file(args.program)
        problem = program.syntax_problem()
        if problem:
            raise CounterexampleError(f"{args.program}: {problem}")
        domain_dir = DomainDir.open(args.domain_dir)
        domain = load_domain(domain_dir.domain_file)
    except (CounterexampleError, ProgramError, DomainDirError, PddlError, ValueError) as exc:
        return error(str(exc))
    if not args.quiet:
        print(f"genplan: searching a counterexample for {args.program} on {domain_dir.name} "
              f"(seed {args.seed}, {budget.describe()})", file=sys.stderr)
        if args.tasks == "eval":
            print("genplan: searching the EVALUATION tasks, as asked (--tasks eval)", file=sys.stderr)
    try:
        report = find_counterexample(program, domain_dir, seed=args.seed, budget=budget, shrink=not args.no_shrink,
                                     probes=not args.no_probes, tasks=args.tasks,
                                     on_task=None if args.quiet else _progress)
    except (SandboxError, PddlError, DomainDirError, CounterexampleError) as exc:
        return error(str(exc))
    if report.found:
        out = Path(args.out) if args.out else Path(args.program).with_suffix(".counterexample.pddl")
        try:
            write_counterexample(report, domain, out)
        except OSError as exc:
            return error(f"cannot write {out} ({exc.strerror or exc})")
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
        return EXIT_NEGATIVE if report.found else EXIT_OK
    print(report.summary())
    task, failure = report.task, report.final_failure
    if task is not None and failure is not None:
        print("\nThe task (PDDL):\n")
        print(counterexample_pddl(report, domain.typed))
        print(f"The task as the program receives it (ordering {failure.ordering}):\n")
        print(failure.python_input or render_task(encode_task(task, domain_dir.typed_objects, domain)))
        print("\nThe program's output:\n")
        print("\n".join(failure.plan) if failure.plan else ("(an empty plan)" if failure.plan is not None else "(no plan)"))
        print("\nFeedback:\n")
        print(failure.message.strip())
    return EXIT_NEGATIVE if report.found else EXIT_OK
