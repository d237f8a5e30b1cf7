"""Every message a model gets after a check, produced from structured check results."""

from __future__ import annotations

from enum import StrEnum


class FeedbackStyle(StrEnum):
    """Whose words an approach's feedback follows (run.json and evaluation files spell it as the value)."""

    STEIN = "stein"  # Table 13 of Stein et al.
    SILVER = "silver"  # Silver et al.'s four feedback types
    AUTOTOS = "autotos"  # the AutoToS paper's error categories (engine/feedback/autotos.py)
    PDDLEGO = "pddlego"  # solver errors (inner loop) and simulation errors (outer loop)

    @property
    def of_programs(self) -> FeedbackStyle:
        """The style a program check speaks in: Silver's for Silver's approaches, Table 13's for any other."""
        return FeedbackStyle.SILVER if self is FeedbackStyle.SILVER else FeedbackStyle.STEIN
