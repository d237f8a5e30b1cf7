"""What the plan stepper shows is the engine's trace of a plan (engine/plan_trace.py, through engine/api/pddl):
the state before each step, the failing step and its unmet preconditions, the steps not run, the goal's facts;
numbered as the feedback numbers steps. The exported page's stepper shows the same trace. Here: reading a plan a
person types or pastes."""

from __future__ import annotations

from genplan.engine.api.pddl import FAILED, NOT_RUN, OK, PlanTrace, StepView, trace_plan

__all__ = ["FAILED", "NOT_RUN", "OK", "PlanTrace", "StepView", "parse_plan_lines", "trace_plan"]


def parse_plan_lines(text: str) -> list[str]:
    """Actions from pasted text: one per line; blank lines, ``;`` comments and ``N:`` prefixes are ignored."""
    actions = []
    for line in text.splitlines():
        content = line.split(";", 1)[0].strip()
        if not content:
            continue
        if ":" in content and content.split(":", 1)[0].strip().isdigit():
            content = content.split(":", 1)[1].strip()
        actions.append(content)
    return actions
