"""AutoToS prompts: rendered from ``prompts/autotos/*.j2`` (one file per prompt). The feedback after a failed
check is made in ``engine/feedback/autotos.py`` with the same templates."""

from __future__ import annotations

import json
from typing import Any

from genplan.engine.prompts import render_autotos as render
from genplan.engine.prompts import show_state as show


def first_prompts(domain: str, examples: dict[str, Any]) -> tuple[str, str]:
    """(successor prompt, goal prompt) of a domain."""
    values = {k: (v if isinstance(v, (str, bool)) else show(v)) for k, v in examples.items()}
    return render(f"succ_{domain}", **values), render(f"goal_{domain}", **values)


def system_prompt() -> str:
    return render("system")


def summary_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
