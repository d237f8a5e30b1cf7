"""AutoToS feedback: the text the model gets after a failed unit test, made from the structured failure record
of the check (``failure["failure"]`` names the check) with the templates of ``prompts/autotos/``."""

from __future__ import annotations

from typing import Any

from genplan.engine.prompts import render_autotos as render
from genplan.engine.prompts import show_state as show

# The ten error categories of the paper, with genplan's check kinds mapped onto them.
CATEGORIES = (
    "succ soundness",  # 1: the partial soundness test failed
    "input changed",  # 2: succ modified its input state
    "succ completeness",  # 3: known successors missing
    "goal soundness",  # 4: goal test wrong on a known (non-)goal state
    "succ exception",  # 5
    "goal exception",  # 6
    "search timeout",  # 7: timeout in the succ soundness test (the whole search)
    "succ timeout",  # 8: one succ call over the limit
    "goal timeout",  # 9: one goal call over the limit
    "parse error",  # 10: no function in the answer
)
CATEGORY_OF = {
    "pst": "succ soundness",
    "input-mutated": "input changed",
    "incomplete": "succ completeness",
    "goal-wrong": "goal soundness",
    "succ-exception": "succ exception",
    "goal-exception": "goal exception",
    "search-timeout": "search timeout",
    # the search filled the sandbox's memory before it ended: it did not end within genplan's limits
    "search-memory": "search timeout",
    "succ-timeout": "succ timeout",
    "goal-timeout": "goal timeout",
    "parse-error": "parse error",
    "load-timeout": "succ timeout",
    "unsound": "succ soundness",
}
GOAL_FAILURES = frozenset({"goal-wrong", "goal-exception", "goal-timeout"})
TEMPLATE_OF = {
    "pst": "feedback_pst",
    "input-mutated": "feedback_input_mutated",
    "incomplete": "feedback_incomplete",
    "goal-wrong": "feedback_goal_wrong",
    "succ-exception": "feedback_succ_exception",
    "goal-exception": "feedback_goal_exception",
    "search-timeout": "feedback_search_timeout",
    "search-memory": "feedback_search_memory",
    "succ-timeout": "feedback_succ_timeout",
    "load-timeout": "feedback_succ_timeout",
    "goal-timeout": "feedback_goal_timeout",
    "parse-error": "feedback_parse_error",
    "unsound": "feedback_unsound",
}


def feedback(domain: str, failure: dict[str, Any], context: dict[str, Any], call_timeout: float) -> str:
    kind = failure["failure"]
    values = {
        "domain": domain,
        "kind": failure.get("kind", ""),
        "state": show(failure.get("state")),
        "successor": show(failure.get("successor")),
        "after": show(failure.get("after")),
        "missing": show(failure.get("missing")),
        "expected": bool(failure.get("expected", False)),
        "error": failure.get("error", ""),
        "target": failure.get("target", "succ"),
        "call_timeout": f"{call_timeout:g}",
        "action": failure.get("action", ""),
        "extra_facts": show(failure.get("extra")),
        "states": f"{int(failure.get('states') or 0):,}",
        "memory": f"{int(failure.get('memory_bytes') or 0) / 2**30:g}",
        "context": context,
    }
    return render(TEMPLATE_OF.get(kind, "feedback_succ_exception"), **values)
