"""genplan import silver DIR --domain DOMAIN_DIR: replay one conversation of Silver et al.'s released cache.

DIR is one conversation folder of the cache (``<env>_<seed>_<exp>/`` with ``<k>-response.txt``). Its answers
are given back in order as the model's answers to genplan's Sil baseline while genplan's own checks on the
domain's debug tasks decide what is asked next. The run opens in the TUI like any other
(``genplan-tui --run RUN_DIR``) and its selected program is evaluated with ``genplan eval``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import EXIT_OK, error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("conversation", metavar="DIR", help="one conversation folder: <env>_<seed>_<exp>/")
    parser.add_argument("--domain", metavar="DOMAIN_DIR", required=True,
                        help="the domain the conversation is about (e.g. the paper's benchmarks/hiking for pg3-hiking)")
    parser.add_argument("--split-seed", type=int, default=1, choices=(1, 2, 3),
                        help="which debug tasks are the prompt tasks (default 1)")
    parser.add_argument("--runs", metavar="DIR", default="runs", help="where the run directory is made (default runs/)")
    parser.add_argument("--json", action="store_true",
                        help="print run_dir, selected_program, llm_calls, debug_solved, debug_total as JSON")


def run(args: argparse.Namespace) -> int:
    from ..engine import runs
    from ..engine.api import pipeline
    from ..engine.approaches.presets import load_preset
    from ..engine.domainlib import DomainDir, DomainDirError
    from ..engine.silver.replay import (
        SilverLogError,
        SilverReplayProvider,
        read_conversation,
    )

    try:
        conversation = read_conversation(args.conversation)
        domain = DomainDir.open(args.domain)
    except (SilverLogError, DomainDirError) as exc:
        return error(str(exc))
    expected = conversation.domain
    if expected is not None and expected not in (domain.name, domain.path.name) and not args.json:
        print(f"genplan: warning: {conversation.environment} corresponds to '{expected}', not '{domain.name}'",
              file=sys.stderr)
    # one recorded answer per request: an extraction retry would take the next program as a retry's answer
    config = load_preset("Sil").with_changes(split_seed=args.split_seed, extraction_retries=0)
    provider = SilverReplayProvider(conversation)
    meta = {
        "domain_dir": str(domain.path.resolve()),
        "config": config.to_dict(),
        "model": {"model": f"replay:{conversation.experiment}"},
        "import": {"kind": "silver", "source": str(conversation.path.resolve()),
                   "environment": conversation.environment, "seed": conversation.seed,
                   "experiment": conversation.experiment, "answers": len(conversation.responses)},
    }
    store = runs.create(Path(args.runs), meta)
    if not args.json:
        print(f"genplan: replaying {len(conversation.responses)} answers of {conversation.path} on {domain.name}",
              file=sys.stderr)
    result = pipeline(domain, config, provider, store).run()
    store.update_meta(import_unused_answers=provider.unused)
    data = result.to_dict()
    summary = {key: data[key] for key in ("run_dir", "selected_program", "llm_calls", "debug_solved", "debug_total")}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"run: {summary['run_dir']} ({result.status})")
        print(f"calls: {summary['llm_calls']} of {len(conversation.responses)} recorded answers")
        print(f"debug tasks solved: {summary['debug_solved']}/{summary['debug_total']}")
        print(f"selected program: {summary['selected_program']}")
    return EXIT_OK
