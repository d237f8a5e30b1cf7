"""The caps every command that asks a model shares (`genplan run`, `fork`, `autotos`, `pddlego`, `batch`,
`reproduce`): --max-cost, --max-calls, --max-total-tokens, over the config file's [budget] table."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from genplan.cli.common import BadInput

if TYPE_CHECKING:
    from genplan.engine.api.budget import Budget

WHAT = {"run": "the run", "batch": "the whole batch", "trials": "all the trials of this command together"}


def add_budget_arguments(parser: argparse.ArgumentParser, scope: str = "run") -> None:
    """The three caps; ``scope`` names what they cap in the help ("run", "batch", "trials")."""
    what = WHAT[scope]
    group = parser.add_argument_group(
        "budget", f"caps on what {what} may spend on the model (over the config file's [budget] table); a request "
        "that would pass one is not sent: the run stops with the reason 'budget' and goes on with a higher cap "
        "(--resume), asking nothing twice. Cached answers cost nothing; reasoning tokens count as output. A cap "
        "may be passed by about one request's worth (see docs/models.md)")
    group.add_argument("--max-cost", type=float, metavar="USD", help=f"US dollars {what} may spend, at the model's price")
    group.add_argument("--max-calls", type=int, metavar="N", help=f"model calls {what} may make")
    group.add_argument("--max-total-tokens", type=int, metavar="N",
                       help=f"tokens (input + output) {what} may spend (--max-tokens is one answer's length limit)")


def budget_of(args: argparse.Namespace, table: Mapping[str, Any] | None = None, table_where: str = "", *,
              read_config: bool = True) -> Budget:
    """The caps in force: the config file's [budget] (``read_config``; a batch reads none: its experiment file is
    self-contained), an experiment file's ``table``, the flags; BadInput (one line) for a bad value."""
    from genplan.engine.api.budget import BudgetError, budget_from_flags, load_budget

    try:
        flags = budget_from_flags(getattr(args, "max_cost", None), getattr(args, "max_calls", None),
                                  getattr(args, "max_total_tokens", None))
        return load_budget(getattr(args, "config_file", None), table=table, table_where=table_where, flags=flags,
                           read_config=read_config)
    except BudgetError as exc:
        raise BadInput(str(exc)) from None
