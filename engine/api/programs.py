"""What a front end needs to run programs outside a run: the sandbox and its limits, the evaluation of a program
on a domain's tasks (with the reference-faithful toggles that reach it), the generalization ladders and the
counterexample search. The CLI's ``eval``, ``generalize`` and ``counterexample`` commands use these."""

from __future__ import annotations

from genplan.engine.counterexample import (
    CounterexampleError,
    SearchBudget,
    find_counterexample,
    person_budget,
    write_counterexample,
)
from genplan.engine.counterexample.search import TASK_SETS as COUNTEREXAMPLE_TASK_SETS
from genplan.engine.counterexample.search import counterexample_pddl
from genplan.engine.evaluation import (
    DEFAULT_ORDERINGS,
    Evaluation,
    Evaluator,
    OrderingResult,
    PlannerComparison,
    TaskResult,
    evaluate_program,
    load_tasks,
)
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.generalize import (
    DEFAULT_SCALE,
    DEFAULT_SEED,
    DEFAULT_TASKS_PER_SIZE,
    GeneralizeError,
    StepResult,
    generalization_tables,
    generalize,
    parse_fixed,
    parse_scale,
    parse_sizes,
    scale_ladder,
    size_ladders,
)
from genplan.engine.sandbox import Limits, Program, ProgramError, Sandbox, SandboxError
from genplan.engine.sandbox.limits import DEFAULT_TIME_LIMIT, MIB, MIN_MEMORY_GIB
from genplan.engine.sandbox.outcome import SYNTAX_ERROR
from genplan.engine.sandbox.runner import format_layers

__all__ = [
    "COUNTEREXAMPLE_TASK_SETS", "CounterexampleError", "DEFAULT_ORDERINGS", "DEFAULT_SCALE", "DEFAULT_SEED",
    "DEFAULT_TASKS_PER_SIZE", "DEFAULT_TIME_LIMIT", "Evaluation", "Evaluator", "FeedbackStyle", "GeneralizeError", "Limits", "MIB",
    "MIN_MEMORY_GIB",
    "OrderingResult", "PlannerComparison", "Program", "ProgramError", "SYNTAX_ERROR", "Sandbox", "SandboxError",
    "SearchBudget", "StepResult", "TaskResult", "counterexample_pddl", "evaluate_program", "find_counterexample",
    "format_layers", "generalization_tables", "generalize", "load_tasks", "parse_fixed", "parse_scale",
    "parse_sizes", "person_budget", "scale_ladder", "size_ladders", "write_counterexample",
]
