"""Counterexamples: find a task a program fails on, and shrink it to a smallest failing task.

``find_counterexample(program, domain_dir)`` tries the domain's probe tasks, then generated tasks of growing
size (the sizes of the generator's debug and eval specs, smallest first, several seeds each), every task under
several input orderings, until the program fails one (any error class of the evaluation) or the time/task
budget is spent. ``shrink`` then removes objects (with every fact naming them), goal facts and initial facts
(those of predicates some action changes; the static ones go with their objects) one at a time, keeping a
change only if the program still fails the same way (the same error kind: an exception, a timeout, an
unsatisfied precondition, the goal not reached, ...) and the task stays solvable (genplan's planner), until no
single removal keeps the failure; a last step tries the failing input order as the file order. Everything is
deterministic for a seed. ``record`` keeps the searches of a run's program versions in its directory.
"""

from .search import (
    Counterexample,
    CounterexampleError,
    SearchBudget,
    Shrunk,
    TaskSize,
    find_counterexample,
    shrink,
    write_counterexample,
)

__all__ = [
    "Counterexample",
    "CounterexampleError",
    "SearchBudget",
    "Shrunk",
    "TaskSize",
    "find_counterexample",
    "shrink",
    "write_counterexample",
]
