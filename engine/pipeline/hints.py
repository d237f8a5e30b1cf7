"""Action hints shown to the model: the lifted action, and (as the reference code does) the type of each
parameter in words, e.g. ``(sail ?from ?to): ?from is of type location, ?to is of type location``."""

from __future__ import annotations

from genplan.engine.pddl.model import OBJECT, Action


def action_hint(action: Action, typed: bool = True) -> str:
    lifted = action.lifted()
    if not typed:
        return lifted
    parts = []
    for parameter in action.parameters:
        if parameter.types == (OBJECT,):
            continue
        kinds = " or ".join(parameter.types)
        parts.append(f"{parameter.name} is of type {kinds}")
    return f"{lifted}: {', '.join(parts)}" if parts else lifted


def action_hints(actions: list[Action], typed: bool = True) -> list[str]:
    return [action_hint(a, typed) for a in actions]
