"""AutoToS prompts and feedback: rendered from ``prompts/autotos/*.j2`` (one file per prompt) and from
structured check results only — the one place where AutoToS text is made."""

from __future__ import annotations

import importlib.resources
import json
from functools import lru_cache
from typing import Any

import jinja2

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
    "succ-timeout": "feedback_succ_timeout",
    "load-timeout": "feedback_succ_timeout",
    "goal-timeout": "feedback_goal_timeout",
    "parse-error": "feedback_parse_error",
    "unsound": "feedback_unsound",
}


class _Loader(jinja2.BaseLoader):
    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        name = template.removeprefix("autotos/")
        name = name if name.endswith(".j2") else name + ".j2"
        resource = importlib.resources.files("genplan.prompts").joinpath("autotos", name)
        if not resource.is_file():
            raise jinja2.TemplateNotFound(template)
        return resource.read_text(encoding="utf-8"), f"prompts/autotos/{name}", lambda: True


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=_Loader(), undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                              autoescape=False)


def render(name: str, **values: Any) -> str:
    return _environment().get_template(name).render(**values).strip() + "\n"


def show(value: Any) -> str:
    """A state as the model sees it: Python literal syntax (tuples stay tuples)."""
    return repr(value) if not isinstance(value, str) else value


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
        "context": context,
    }
    return render(TEMPLATE_OF.get(kind, "feedback_succ_exception"), **values)


def first_prompts(domain: str, examples: dict[str, Any]) -> tuple[str, str]:
    """(successor prompt, goal prompt) of a domain."""
    values = {k: (v if isinstance(v, (str, bool)) else show(v)) for k, v in examples.items()}
    return render(f"succ_{domain}", **values), render(f"goal_{domain}", **values)


def system_prompt() -> str:
    return render("system")


def summary_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
