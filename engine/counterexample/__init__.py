"""Counterexamples: find a task a program fails on, and shrink it to a smallest failing task.

``find_counterexample(program, domain_dir)`` tries the domain's probe tasks, then generated tasks of growing
size (the sizes of the generator's debug and eval specs, smallest first, several seeds each) or, without a
generator, tasks derived from the debug tasks (never the evaluation tasks, unless asked: ``tasks="eval"``),
every task under several input orderings, until the program fails one or the time/task budget is spent.
``shrink`` then removes objects (with every fact naming them, mended or with their dependents), goal facts,
initial facts and static facts one at a time, keeping a change only if the program still fails the same way
(the same exception on the same line, the same precondition of the same action, goals of the same kind
unmet), the task stays solvable, and it satisfies the domain's invariants (:mod:`.invariants`: the mutex groups
Fast Downward's translator proves, lifted). Where no single removal keeps the failure, larger steps are tried
(goal subsets, pairs and chains of objects, moves, smaller tasks made afresh by the generator), and how far each
stage took the task is recorded. A last step writes the failing input order as the file order.
``person_budget`` is the budget of a search a person starts (the CLI and the app's ``k``).
Everything is deterministic for a seed. ``record`` keeps the searches of a run's program versions in its
directory.
"""

from genplan.engine.counterexample.search import (
    Counterexample,
    CounterexampleError,
    SearchBudget,
    Shrunk,
    TaskSize,
    find_counterexample,
    person_budget,
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
    "person_budget",
    "shrink",
    "write_counterexample",
]
