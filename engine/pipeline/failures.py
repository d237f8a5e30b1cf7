"""Which failed debug task the next feedback is about.

The reference code's rule: keep reporting the same task while it still fails *with an error of the same
group* (so the model sees whether its fix worked); otherwise report a Python-level error first (timeout,
exception, badly formed action, output that is not a list), and among equally urgent failures pick one at
random with a seeded generator. ``file-order`` is genplan's older rule: sticky whatever the error, then the
most urgent failure in task order.

``reference-code`` (--faithful) is the rule as agents/agent_code_gen_basic.py (get_param_feedback_prompt)
runs it: if any task fails with a Python-level error (timeout, exception, badly formatted action, output that
is not a plan) that group is chosen, else the plan errors, and one task of the group is drawn at random. The
code would keep the previous task if it is in the chosen group, but ``last_failed_task_name`` is only ever
set to '' in the code agents (agent_code_gen_basic.py, agent_code_gen_multiple.py,
agent_code_gen_basic_multiple.py), so every round draws afresh. Unknown objects or actions, wrong arity and
type mismatches are plan errors there (agents/validator_feedback_gen.py, get_error_type_class). Its strategy
debugging has no groups and does record the task (agents/agent_strategy_gen_w_debugging_prev_hist.py): the
previous task while it still fails, else a random failed one — ``reference-code-strategy``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from genplan.engine.pddl.validate import MALFORMED
from genplan.engine.sandbox.outcome import OUTPUT_ERROR_KINDS, PYTHON_ERROR_KINDS

PYTHON_GROUP = "python"
PLAN_GROUP = "plan"


class Failure(Protocol):
    @property
    def task(self) -> str: ...
    @property
    def solved(self) -> bool: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def details(self) -> dict[str, object]: ...


F = TypeVar("F", bound=Failure)


def error_group(check: Failure) -> str:
    """Python-level errors (and malformed actions / non-list outputs, which the reference code treats
    like them) form one group; plans that are well formed but wrong form the other."""
    kind = check.kind or ""
    if kind in PYTHON_ERROR_KINDS or kind in OUTPUT_ERROR_KINDS or check.details.get("syntax"):
        return PYTHON_GROUP
    return PLAN_GROUP


def reference_error_group(check: Failure) -> str:
    """The reference code's two groups: timeouts, exceptions, badly formatted actions and outputs that are no
    plan are Python-level; every other failure (unknown names, arity, types, preconditions, goal) is a plan
    error."""
    kind = check.kind or ""
    if kind in PYTHON_ERROR_KINDS or kind in OUTPUT_ERROR_KINDS or kind == MALFORMED:
        return PYTHON_GROUP
    return PLAN_GROUP


@dataclass
class FailureSelector:
    """Stateful across the rounds of one debugging loop (one per strategy loop or program candidate)."""

    rule: str = "reference"
    seed: int = 0
    previous_task: str | None = None
    previous_group: str | None = None

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, checks: Sequence[F]) -> F | None:
        failures = [c for c in checks if not c.solved]
        if not failures:
            return None
        if self.rule == "reference-code":
            return self._reference_code(failures)
        if self.rule == "reference-code-strategy":
            return self._reference_code(failures, grouped=False)
        chosen = self._sticky(failures) or self._fresh(failures)
        self.previous_task, self.previous_group = chosen.task, error_group(chosen)
        return chosen

    def _sticky(self, failures: list[F]) -> F | None:
        for check in failures:
            if check.task != self.previous_task:
                continue
            if self.rule == "file-order" or error_group(check) == self.previous_group:
                return check
        return None

    def _fresh(self, failures: list[F]) -> F:
        python = [c for c in failures if error_group(c) == PYTHON_GROUP]
        pool = python or failures
        if self.rule == "file-order":
            from genplan.engine.evaluation import failure_rank

            return min(enumerate(failures), key=lambda p: (failure_rank(p[1].kind or ""), p[0]))[1]
        return pool[self._rng.randrange(len(pool))]

    def _reference_code(self, failures: list[F], grouped: bool = True) -> F:
        python = [c for c in failures if reference_error_group(c) == PYTHON_GROUP] if grouped else []
        group = python or failures
        # code debugging (grouped) never keeps the previous task: the reference never records it
        chosen = None if grouped else next((c for c in group if c.task == self.previous_task), None)
        if chosen is None:
            chosen = group[self._rng.randrange(len(group))]
        self.previous_task, self.previous_group = chosen.task, reference_error_group(chosen)
        return chosen
