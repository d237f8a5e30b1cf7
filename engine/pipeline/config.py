"""Pipeline configurations and the presets of the registered approaches (kept with each approach in
engine/approaches/).

Numbers are the paper's: F5-3 (N=5 initial programs, K_C=3 code debugging rounds), F3-6 (N=3, K_C=6),
both with K_S=5 strategy debugging rounds and a 45 s program time limit; the ablations of F3-6: -MC (N=1),
-SD (K_S=0), -CR (revise code without reflection); Bas (the paper's re-implementation of the baseline) and
Sil (Silver et al.: one conversation, four fixes, 30 s).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from genplan.engine.errors import GenplanError

if TYPE_CHECKING:
    from genplan.engine.runs import RunMeta

_KIND_WORDS = {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}
CODE_HISTORIES = ("conversation", "latest")
FAILURE_SELECTIONS = ("reference", "file-order", "reference-code")
CODE_EXTRACTIONS = ("lenient", "first-block")
ORDERING_STYLES = ("hash-seeds", "ordered-sets")
FINAL_CHECK_PROMPTS = ("validation", "fresh")
BAS_STYLES = ("genplan", "reference")
LM_SEARCHES = ("lmcut-max-ms", "lmcut")
FF_SEARCHES = ("eager", "lazy-preferred")
EXAMPLE_CHOICES = ("any-version", "latest-plan")
ANSWER_EXTRACTIONS = ("lenient", "reference")
ORDERING_DRAWS = ("per-task", "per-check")

# Which debug tasks (instance/task index) are the two prompt tasks, per split seed — as in the paper's
# published splits: seed 1 uses tasks 4 and 5, seed 2 tasks 0 and 1, seed 3 tasks 2 and 3.
PROMPT_TASKS_BY_SEED = {1: (4, 5), 2: (0, 1), 3: (2, 3)}


class ConfigError(GenplanError):
    """A bad preset or configuration value (one line)."""


@dataclass(frozen=True)
class PipelineConfig:
    preset: str = "F5-3"
    approach: str = "stein"
    strategy_rounds: int = 5  # K_S
    code_rounds: int = 3  # K_C
    initial_programs: int = 5  # N
    code_reflection: bool = True  # False for -CR
    program_timeout_s: float = 45.0
    split_seed: int = 1
    max_concurrency: int = 6  # one request per debug task at once
    function_name: str = "generate_solution"
    extraction_retries: int = 1  # an unusable answer is fed back this many times
    silver_fixes: int = 4
    # Where the paper's text and its reference code disagree, the default follows the code; each switch
    # below is one line in an experiment file (see docs/reproduction.md).
    debug_orderings: int = 4  # code debugging: solved only if all random orderings succeed (text: 1)
    code_history: str = "conversation"  # code debugging keeps the whole conversation | "latest" program only
    final_strategy_check: bool = True  # re-plan the 2 prompt tasks with the chosen strategy (2 calls)
    validate_unrefined_strategy: bool = True  # K_S = 0 (-SD, Bas) still validates the first strategy once
    failure_selection: str = "reference"  # sticky per error group, Python errors first, seeded | "file-order"
    shuffle_all_candidates: bool = True  # N > 1: every candidate's example shuffled, distinct orderings
    typed_action_hints: bool = True  # action hints say "?x is of type t"
    bas_example_plan: bool = False  # Bas's code prompt shows its example task without a plan
    # The reference-faithful switches (docs/reproduction.md; `--faithful` sets them all, engine/pipeline/faithful.py):
    # each default is genplan's own behaviour.
    reference_prompts: bool = False  # code prompts: no search, no external libraries; revision forbids search
    import_check: bool = False  # refuse a program that imports sys, os or shutil (fed back like any error)
    code_extraction: str = "lenient"  # last parsing block, merged helpers, one retry | "first-block"
    sorted_presentation: bool = False  # feedback task and -MC's / Bas's example task shown sorted
    ordering_style: str = "hash-seeds"  # debug orderings: shuffles + hash seeds | "ordered-sets" (insertion order)
    final_check_prompt: str = "validation"  # the final check asks validation's prompt again | "fresh" wording
    bas_style: str = "genplan"  # Bas: Stein's NL steps, no final check | "reference" (baseline.json)
    lm_search: str = "lmcut-max-ms"  # the optimal planner: A* + max(LM-cut, M&S) | "lmcut" (A* + LM-cut)
    # the code prompt's example: a correct plan of any strategy version | each task's latest plan only
    example_choice: str = "any-version"
    ff_search: str = "eager"  # the satisficing planner: eager GBFS + FF | "lazy-preferred" (+ preferred operators)
    # the optimal planner tries searches that support more of the task when its search refuses it | False: the
    # configured search alone, a refusal counted as not solved (as the reference counts any planner failure)
    planner_fallback: bool = True
    # plans, strategies, NL: genplan's extractors | "reference": a plan is the lines starting with "(" after the
    # last "Solution:" (else the whole answer), a strategy without a label or block is the whole answer
    answer_extraction: str = "lenient"
    # debug orderings: the same ones at every check of a task | "per-check": drawn afresh at every check (from
    # the split seed and the check's number, so a run stays reproducible)
    ordering_draws: str = "per-task"
    bas_nl_conversation: bool = False  # Bas (reference style): further tasks' NL asked in new conversations | one
    get_plan_accepted: bool = False  # a program defining get_plan instead of the entry function is run (every approach)
    faithful: str = ""  # the --faithful toggles that were applied (comma-separated), for the run's record
    # Beyond the paper (off in its presets; on in F5-3+CE): when a program solves every debug task and a code
    # round is left, search for a counterexample (docs/counterexamples.md) and debug on its shrunk task.
    counterexample_search: bool = False
    counterexample_seconds: float = 30.0  # the search's budget, and the shrinking's
    # the search's budget in tasks (whichever ends first): unlike seconds, it tries the same tasks on any machine
    counterexample_max_tasks: int = 200
    counterexample_probes: bool = True  # the domain's probe tasks are tried first

    def __post_init__(self) -> None:
        problems = self._type_problems()
        if problems:  # the range checks below would only fail confusingly on a value of the wrong type
            raise ConfigError("; ".join(problems))
        for name in ("strategy_rounds", "code_rounds", "silver_fixes", "extraction_retries"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must be >= 0")
        if self.initial_programs < 1:
            problems.append("initial_programs must be >= 1")
        if self.max_concurrency < 1:
            problems.append("max_concurrency must be >= 1")
        if not (math.isfinite(self.counterexample_seconds) and 0 < self.counterexample_seconds <= 86_400):
            problems.append("counterexample_seconds must be a positive number of seconds (at most 86400)")
        if self.counterexample_max_tasks < 1:
            problems.append("counterexample_max_tasks must be >= 1")
        if not (math.isfinite(self.program_timeout_s) and 0 < self.program_timeout_s <= 86_400):
            problems.append(f"program_timeout_s must be a positive number of seconds (at most 86400), not {self.program_timeout_s}")
        if self.debug_orderings < 1:
            problems.append("debug_orderings must be >= 1")
        if self.code_history not in CODE_HISTORIES:
            problems.append(f"code_history must be one of {', '.join(CODE_HISTORIES)}")
        if self.failure_selection not in FAILURE_SELECTIONS:
            problems.append(f"failure_selection must be one of {', '.join(FAILURE_SELECTIONS)}")
        for name, allowed in (("code_extraction", CODE_EXTRACTIONS), ("ordering_style", ORDERING_STYLES),
                              ("final_check_prompt", FINAL_CHECK_PROMPTS), ("bas_style", BAS_STYLES),
                              ("lm_search", LM_SEARCHES), ("ff_search", FF_SEARCHES),
                              ("example_choice", EXAMPLE_CHOICES), ("answer_extraction", ANSWER_EXTRACTIONS),
                              ("ordering_draws", ORDERING_DRAWS)):
            if getattr(self, name) not in allowed:
                problems.append(f"{name} must be one of {', '.join(allowed)}")
        if self.split_seed not in PROMPT_TASKS_BY_SEED:
            problems.append(f"split_seed must be one of {sorted(PROMPT_TASKS_BY_SEED)}")
        if problems:
            raise ConfigError("; ".join(problems))

    def _type_problems(self) -> list[str]:
        problems = []
        for spec in fields(self):
            value, wanted = getattr(self, spec.name), spec.type
            if wanted == "float" and isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, spec.name, float(value))  # 45 in a TOML file means 45.0
                continue
            kinds = {"int": int, "float": float, "str": str, "bool": bool}[str(wanted)]
            if not isinstance(value, kinds) or (kinds is int and isinstance(value, bool)):
                problems.append(f"{spec.name} must be {_KIND_WORDS[kinds]}, not {value!r}")
        return problems

    @property
    def prompt_task_indices(self) -> tuple[int, int]:
        return PROMPT_TASKS_BY_SEED[self.split_seed]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PipelineConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown pipeline setting(s): {', '.join(unknown)}")
        return cls(**data)

    @classmethod
    def of_run(cls, meta: RunMeta) -> PipelineConfig:
        """The configuration a run used (defaults for a run.json without one)."""
        return cls.from_stored(meta.config)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> PipelineConfig:
        """The configuration a run directory records. A run made before the reproduction settings existed
        (docs/reproduction.md) ran with the behaviour :data:`BEFORE_REPRODUCTION_SETTINGS` selects, so those
        values, not today's defaults, fill in what its run.json does not name."""
        if not data:
            return cls()
        if not set(BEFORE_REPRODUCTION_SETTINGS) & set(data):
            data = {**BEFORE_REPRODUCTION_SETTINGS, **data}
        return cls.from_dict(data)

    def with_changes(self, **changes: Any) -> PipelineConfig:
        """These fields changed (None: unchanged). ``faithful="all"`` (any spec of engine/pipeline/faithful.py)
        first sets the reference-faithful toggles it names; the other changes are applied after it."""
        spec = changes.pop("faithful", None)
        config = self
        if spec is not None:
            config = config.faithfully(str(spec))
        return replace(config, **{k: v for k, v in changes.items() if v is not None})

    def faithfully(self, spec: str) -> PipelineConfig:
        """This configuration with the reference-faithful toggles of ``spec`` ("all", "all,-extraction", ...)."""
        from genplan.engine.pipeline.faithful import FaithfulError, faithful_changes

        try:
            return replace(self, **faithful_changes(self, spec))
        except FaithfulError as exc:
            raise ConfigError(str(exc)) from None


# What genplan did before these settings existed: one ordering in code debugging, the latest program only,
# no final strategy check, no validation of an unrefined strategy, failures in file order, candidate 1 in
# file order, untyped action hints, Bas's example with a plan.
BEFORE_REPRODUCTION_SETTINGS: dict[str, Any] = {
    "debug_orderings": 1,
    "code_history": "latest",
    "final_strategy_check": False,
    "validate_unrefined_strategy": False,
    "failure_selection": "file-order",
    "shuffle_all_candidates": False,
    "typed_action_hints": False,
    "bas_example_plan": True,
}


def made_before_reproduction(stored: Mapping[str, Any]) -> bool:
    """A run's stored configuration was made before the reproduction settings existed (it names none of them)."""
    return bool(stored) and not set(BEFORE_REPRODUCTION_SETTINGS) & set(stored)
