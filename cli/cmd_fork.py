"""genplan fork RUN_DIR --from VERSION [--text FILE]: continue a run from one of its versions in a new run (the
TUI's ctrl+r)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.cli.autotos_options import add_run_memory_argument
from genplan.cli.budget_options import add_budget_arguments
from genplan.cli.cmd_edit import read_text
from genplan.cli.cmd_run import add_model_options
from genplan.cli.common import BadInput, require_output_dir, run_guarded


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fork",
        help="continue a run from one of its versions (an edit, an edit of an edit) in a new run",
        description="Continue RUN_DIR from its version VERSION in a new run beside it (or under --out), as "
        "ctrl+r in genplan-tui's editor does: every answer before the one that wrote the first version of "
        "VERSION's edit lineage is kept from disk (not asked again), VERSION's text becomes that answer, and the "
        "run goes on from there (an edited strategy to validation, a reflection to the revision, a program to "
        "debugging, an NL description to what follows it). The new run calls the version as RUN_DIR does. "
        "An AutoToS run (versions/succ-N.py, versions/goal-N.py) and a PDDLego+ trial (pddl/*.pddl) keep no edits "
        "of their own: give the edited text with --text FILE and it becomes the answer of the call that wrote "
        "VERSION in the new run. "
        "Model settings: the run's own, then the config file, GENPLAN_* variables and these flags. Prints what "
        "`genplan run` prints (--json: the same keys). Exit code 2 for a missing run, an unknown version, a run "
        "that cannot be continued.",
    )
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run directory, e.g. domains/ferry/.genplan/runs/<id>")
    p.add_argument("--from", dest="version", required=True, metavar="VERSION",
                   help="the version to continue from, relative to the run: strategies/v03.md, programs/c1-v02.py, "
                   "reflections/<name>.md, nl/domain.md (as `genplan edit` printed it); versions/succ-2.py of an "
                   "AutoToS run, pddl/<file>.pddl of a PDDLego+ trial")
    p.add_argument("--text", metavar="FILE",
                   help="the edited text of an AutoToS function or a PDDLego+ file (- reads stdin); a strategy, "
                   "reflection, program or NL description is saved with `genplan edit` first")
    add_model_options(p)
    add_run_memory_argument(p)
    add_budget_arguments(p)
    p.add_argument("--no-cache", action="store_true", help="do not use the on-disk response cache")
    p.add_argument("--out", metavar="DIR", help="put the new run directory under DIR (default: beside RUN_DIR)")
    p.add_argument("--json", action="store_true", help="print one JSON summary object on stdout (as genplan run --json)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=lambda args: run_guarded(run, args))


def run(args: argparse.Namespace) -> int:
    from genplan.cli import cmd_run
    from genplan.engine import api

    root = require_output_dir("--out", args.out) if args.out else None
    text = read_text(args.text) if args.text is not None else None
    try:
        fork_dir = api.fork_from(Path(args.run_dir), args.version, root, text)
    except api.NotResumable as exc:
        raise BadInput(str(exc)) from None
    if not args.quiet:
        print(f"genplan: {fork_dir.name} continues {Path(args.run_dir).name} from {args.version}", file=sys.stderr)
    # the fork goes on as `genplan run --resume` would go on with it: the same progress, summary and --json keys
    resumed = argparse.Namespace(**vars(args), resume=str(fork_dir), domain_dir=None, list_presets=False,
                                 pipeline_config=None, prompts=None, eval=False, seed=None, max_concurrency=None,
                                 faithful=False, faithful_except=None, preset="F5-3", dry_run=False)
    return cmd_run.run(resumed)
