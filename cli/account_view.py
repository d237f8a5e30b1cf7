"""What the CLI prints of a run: its account (engine/runs/account.py), the same for every approach. ``--json``
prints the approach's report keys of before with the account beside them (``account``); a person reads the
account's lines. No command decides what to show from which approach ran or which keys a report holds."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from genplan.cli.common import EXIT_OK, error

if TYPE_CHECKING:
    import argparse

    from genplan.engine.api import RunAccount, RunReport


def account_lines(account: RunAccount) -> list[str]:
    """The run in a few lines: who made it, how it ended, its result, its calls and tokens by kind."""
    from genplan.engine.api.runs import count_words

    who, outcome, counts, facts = account.who, account.outcome, account.counts, account.outcome.facts
    lines = [f"run {account.run_id}: {outcome.status_words}",
             f"made by: {who.approach} (preset {who.preset}), model {who.model or 'none recorded'}; "
             f"{who.provenance.words}",
             f"outcome: {facts.headline}"]
    if facts.selected:
        lines.append(f"selected: {facts.selected}")
    if facts.log_result:
        lines.append(f"the log's own result: {facts.log_result}")
    lines += [f"finding: {finding}" for finding in facts.findings]
    lines += [f"  {name}: {value}" for name, value in facts.details]
    lines += [f"{notice.level}: {notice.message}" for notice in account.notices if notice.level != "info"]
    tokens = f"tokens billed: {counts.tokens_billed.words}; from the cache: {counts.tokens_cached.words}"
    if counts.log:
        tokens += f"; in the log: {counts.tokens_logged.words}"
    seconds = "not logged" if counts.model_seconds is None else f"{counts.model_seconds:.1f} s"
    lines += [f"calls: {counts.calls} ({count_words(counts)})", tokens, f"model time: {seconds}",
              f"cost: {counts.cost_words}"]
    return lines


def print_report(report: RunReport, args: argparse.Namespace) -> int:
    """A run's report on stdout (one JSON object with --json, else the account's lines); exit 0 when the run
    finished or was stopped, 1 when it failed or the model could not be used to its end."""
    if getattr(args, "json", False):
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(f"run directory: {report.run_dir}")
        if report.account is not None:
            print("\n".join(account_lines(report.account)))
    if report.error:
        return error(f"the model could not be used: {report.error} (run directory {report.run_dir})")
    return EXIT_OK if report.status in ("finished", "stopped") else 1


def with_account(summary: dict[str, Any], run_dir: object) -> dict[str, Any]:
    """An import's summary (its keys of before) with the run's account beside them."""
    from pathlib import Path

    from genplan.engine import api

    return {**summary, "account": api.account(Path(str(run_dir))).to_dict()}
