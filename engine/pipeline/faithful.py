"""``--faithful``: every preset as the reference code of Stein et al. runs it (docs/reproduction.md).

genplan's own behaviour stays the default; each point where the reference code does something else is one
named toggle here, and each toggle sets named :class:`~genplan.engine.pipeline.config.PipelineConfig` fields.
A spec names the toggles: ``all`` (what ``--faithful`` means), a list (``prompts,imports``) or ``all`` minus
some (``all,-extraction`` or just ``-extraction``: faithful except genplan's lenient extraction). The toggles
applied are recorded in the config's ``faithful`` field, so run.json says which ones a run had.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from genplan.engine.pipeline.config import PipelineConfig

# toggle -> (what it changes, the fields it sets for a configuration of that approach)
TOGGLES: dict[str, tuple[str, Callable[[PipelineConfig], dict[str, Any]]]] = {
    "prompts": ("code prompts ask for no search and no external libraries or modules; strategy revision forbids search",
                lambda c: {"reference_prompts": True}),
    "imports": ("a program importing sys, os or shutil is refused, with feedback like any other error",
                lambda c: {"import_check": True}),
    "extraction": ("the first ```python block of an answer, else the whole answer; never a retry",
                   lambda c: {"code_extraction": "first-block"}),
    "selection": ("failure for feedback: a random task with a Python error, else a random plan error (code); "
                  "the same task while it fails (strategy); unknown names, arity and type errors are plan errors; the code "
                  "prompt's example is the first task whose latest plan is correct",
                  lambda c: {"failure_selection": "reference-code", "example_choice": "latest-plan"}),
    "sorting": ("the task in feedback and -MC's / Bas's example task are shown sorted",
                lambda c: {"sorted_presentation": True}),
    "orderings": ("debug orderings: random shuffles kept in insertion order (ordered sets), not hash seeds",
                  lambda c: {"ordering_style": "ordered-sets"}),
    "final-check": ("the final strategy check is a fresh request with its own wording",
                    lambda c: {"final_check_prompt": "fresh"}),
    "bas": ("Bas as baseline.json: its own NL description step, a final check, the pipeline's example choice, "
            "get_plan programs accepted",
            lambda c: {"bas_style": "reference", "final_strategy_check": True} if c.approach == "bas" else {}),
    "sil": ("Sil with 6 fixes (Table 9's 9.0 calls on average)",
            lambda c: {"silver_fixes": 6, "code_rounds": 6} if c.approach == "sil" else {}),
    "planner": ("the optimal planner (\"lm\") is A* + LM-cut; the satisficing one (\"ff\") lazy greedy "
                "best-first search with FF and its preferred operators",
                lambda c: {"lm_search": "lmcut", "ff_search": "lazy-preferred"}),
    "no-fallback": ("a planner that refuses a task (LM-cut and conditional effects) is not followed by another search: "
                    "the task counts as not solved, as the reference counts any planner failure",
                    lambda c: {"planner_fallback": False}),
    "answers": ("no answer is asked for again; a plan is the lines starting with \"(\" after the last \"Solution:\" "
                "(else the whole answer), a strategy without a label or block the whole answer",
                lambda c: {"extraction_retries": 0, "answer_extraction": "reference"}),
    "redraw": ("the reference's ordered-set orderings (the orderings toggle) drawn afresh at every check (from the "
               "split seed and the check's number), not fixed per task", lambda c: {"ordering_draws": "per-check"}),
    "bas-nl": ("Bas's NL step in one growing conversation: the domain and the two prompt tasks, then each further task",
               lambda c: {"bas_nl_conversation": True} if c.approach == "bas" else {}),
    "get-plan": ("a program that defines get_plan instead of the entry function is run, for every approach",
                 lambda c: {"get_plan_accepted": True}),
}


class FaithfulError(ValueError):
    """A spec naming a toggle that does not exist."""


def parse_spec(spec: str) -> list[str]:
    """The toggles a spec names, in TOGGLES order. "" is none; "all" every toggle; "-name" removes one."""
    items = [item.strip() for item in spec.split(",") if item.strip()]
    if not items:
        return []
    chosen: set[str] = set()
    if items[0] == "all" or items[0].startswith("-"):
        chosen = set(TOGGLES)
    for item in items:
        if item == "all":
            continue
        name = item[1:] if item.startswith("-") else item
        if name not in TOGGLES:
            raise FaithfulError(f"unknown --faithful toggle {name!r} (known: {', '.join(TOGGLES)})")
        if item.startswith("-"):
            chosen.discard(name)
        else:
            chosen.add(name)
    return [name for name in TOGGLES if name in chosen]


def faithful_changes(config: PipelineConfig, spec: str) -> dict[str, Any]:
    """The field values a spec sets on ``config`` (the ``faithful`` record included)."""
    toggles = parse_spec(spec)
    changes: dict[str, Any] = {}
    for name in toggles:
        changes.update(TOGGLES[name][1](config))
    changes["faithful"] = ",".join(toggles)
    return changes


# The two command-line options, worded once for `genplan run/batch/reproduce` and `genplan-tui`.
FAITHFUL_HELP = (
    "follow the reference code of Stein et al. in every point docs/reproduction.md lists (prompt content, import "
    "check, first-block extraction, failure selection, sorted tasks, ordered-set orderings drawn afresh at every "
    "check, a fresh final check, Bas as baseline.json with its NL in one conversation, Sil's 6 fixes, A* + LM-cut "
    "alone and lazy GBFS + FF with preferred operators, no answer asked for again and plans taken as the reference "
    "does, get_plan programs accepted); recorded in run.json"
)


def faithful_except_help() -> str:
    return ("--faithful except these toggles, comma-separated, e.g. extraction (genplan's lenient extraction "
            f"stays); toggles: {', '.join(TOGGLES)}")


def except_spec(excluded: str) -> str:
    """``--faithful-except a,b`` as a spec: every toggle but those."""
    return ",".join(["all", *(f"-{name.strip()}" for name in excluded.split(",") if name.strip())])


def toggles_help() -> str:
    return "; ".join(f"{name}: {text}" for name, (text, _) in TOGGLES.items())
