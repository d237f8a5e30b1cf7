"""The parameters of one AutoToS run, typed: the loop's :class:`~.loop.Settings` fields and what the run needs
besides them (where its instances come from, the sandbox's limits, the preset's name).

:func:`parameters` makes them from a plain mapping (a preset's dict with the user's overrides, or what
``run.json`` recorded): a key that is no parameter, or a value of the wrong type, is a :class:`BadParameters`
error of one line. ``None`` means "not given": the default stays (as the CLI passes an option left out).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from genplan.engine.autotos.loop import Settings
from genplan.engine.errors import GenplanError

__all__ = ["AutoToSParameters", "BadParameters", "parameters"]


class BadParameters(GenplanError):
    """An AutoToS parameter that does not exist or has a value of the wrong type (one line)."""


@dataclass(frozen=True)
class AutoToSParameters:
    # --- the loop's Settings (defaults: the paper's; docs/autotos.md)
    partial_soundness: bool = True
    pst_on_seen_states: bool = True
    max_goal_feedback: int = 9
    max_succ_feedback: int = 9
    call_timeout: float = 1.0
    soundness_timeout: float = 600.0
    eval_timeout: float = 600.0
    completeness: bool = True
    evaluate: bool = True
    eval_limit: int | None = None
    # None: the loop's own chunk (smaller when a front end may stop the run, so that a stop acts soon)
    eval_chunk: int | None = None
    search: str = "bfs"
    record_transitions: int = 2000
    release_validation: bool = False
    extraction: str = "genplan"  # or "release": the AutoToS release's cut of the function out of an answer
    goal_reached_check: bool = True  # False: as the release, a search ending at a non-goal passes (a finding)
    clock: str = "wall"  # or "cpu": the limits count the sandboxed process's CPU seconds (imports)
    memory_as_timeout: bool = False  # True: a unit-test search that filled the memory is the release's "search timeout"
    # --- the run besides the loop
    preset: str | None = None  # AutoToS or AutoToS+PST
    data: str | None = None  # the AutoToS data folder (the paper's instances)
    generate: int | None = None  # evaluation instances from genplan's generator
    gen_seed: int = 0
    planner: str = "auto"  # the optimal planner of a PDDL domain's unit tests
    hash_seed: int = 0  # PYTHONHASHSEED of the sandboxed functions
    memory_gib: float | None = None  # the sandbox's address space (None: its default)

    def settings(self, eval_chunk: int | None = None) -> Settings:
        """The loop's settings; ``eval_chunk``: the chunk when none was given."""
        given = {f.name: getattr(self, f.name) for f in fields(Settings) if f.name != "eval_chunk"}
        chunk = self.eval_chunk if self.eval_chunk is not None else eval_chunk
        settings = Settings(**given)
        return replace(settings, eval_chunk=chunk) if chunk is not None else settings

    def source(self, paper_domain: bool, target: str) -> dict[str, Any]:
        """Where the run's instances come from, as run.json's ``source`` records it."""
        if not paper_domain:
            return {"domain_dir": str(Path(target).resolve())}
        if self.data:
            return {"data": self.data}
        return {"generated": {"seed": self.gen_seed, "evaluation": self.generate}}

    def to_dict(self) -> dict[str, Any]:
        """Every parameter, as run.json's ``parameters`` keeps them (what a resume runs again)."""
        return asdict(self)


_FIELDS = {f.name: f for f in fields(AutoToSParameters)}
_HINTS = typing.get_type_hints(AutoToSParameters)


def _types(hint: Any) -> tuple[type, ...]:
    """The plain types a hint allows (``int | None`` -> (int, NoneType))."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(t for arg in typing.get_args(hint) for t in _types(arg))
    return (hint,)


def _check(name: str, value: Any) -> Any:
    allowed = _types(_HINTS[name])
    if bool in allowed:
        if isinstance(value, bool):
            return value
    elif isinstance(value, bool):  # True is an int to Python, not to a person
        pass
    elif float in allowed and isinstance(value, (int, float)):
        return float(value)
    elif int in allowed and isinstance(value, int):
        return value
    elif str in allowed and isinstance(value, (str, Path)):
        return str(value)
    wanted = " or ".join(t.__name__ for t in allowed if t is not type(None))
    raise BadParameters(f"AutoToS parameter {name}: expected {wanted}, got {type(value).__name__} {value!r}")


def parameters(mapping: Mapping[str, Any]) -> AutoToSParameters:
    """The typed parameters of ``mapping`` (a preset's dict with the user's overrides, or run.json's record)."""
    unknown = sorted(str(k) for k in mapping if k not in _FIELDS)
    if unknown:
        raise BadParameters(f"unknown AutoToS parameter{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                            f"(known: {', '.join(_FIELDS)})")
    given = {str(k): _check(str(k), v) for k, v in mapping.items() if v is not None}
    if given.get("search", "bfs") not in ("bfs", "gbfs"):
        raise BadParameters(f"AutoToS parameter search: bfs or gbfs, not {given['search']!r}")
    if given.get("clock", "wall") not in ("wall", "cpu"):
        raise BadParameters(f"AutoToS parameter clock: wall or cpu, not {given['clock']!r}")
    if given.get("extraction", "genplan") not in ("genplan", "release"):
        raise BadParameters(f"AutoToS parameter extraction: genplan or release, not {given['extraction']!r}")
    if given.get("planner", "auto") not in ("auto", "fast-downward", "builtin"):
        raise BadParameters(f"AutoToS parameter planner: auto, fast-downward or builtin, not {given['planner']!r}")
    assert all(_FIELDS[k].default is not MISSING for k in given)
    return AutoToSParameters(**given)
