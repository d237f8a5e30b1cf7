"""Continue a PDDLego+ trial from a person's edit of one of its PDDL files.

The edited file replaces what the model wrote in that call: the call's answer becomes the JSON the model would
have sent with the edited file in it (the other file of the call unchanged). A new run keeps the answers of every
call before it (``store.fork_run``); run in the same game, the trial replays them from disk — the game is
deterministic for a seed, so the prompts and their hashes are the same — takes the edited answer as that call's
and asks the model from the next call on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from genplan.engine.errors import GenplanError
from genplan.engine.runs import layout
from genplan.engine.runs.store import RunStore

_SUFFIXES = {"-domain.pddl": "df", "-problem.pddl": "pf"}


class CannotContinue(GenplanError):
    """The run or the file cannot be continued from (a PlanGen trial, a logged game, a file of no call)."""


def edited_answer(run_dir: Path, relative: str, text: str) -> str:
    """The answer of the call that wrote ``relative`` with ``text`` in place of that file."""
    edited = next(((suffix, key) for suffix, key in _SUFFIXES.items() if relative.endswith(suffix)), None)
    if edited is None or Path(relative).parts[:1] != (layout.PDDL,):
        raise CannotContinue(f"{relative}: not a domain or problem file of a PDDLego+ trial")
    suffix, key = edited
    stem = relative[: -len(suffix)]
    files: dict[str, str | None] = {}
    for ending, name in _SUFFIXES.items():
        path = layout.in_run(run_dir, f"{stem}{ending}")
        files[name] = path.read_text(encoding="utf-8") if path.is_file() else None
    files[key] = text
    return json.dumps({name: value for name, value in files.items() if value is not None}, indent=1)


def check_continuable(run_dir: Path, relative: str) -> None:
    """Raise CannotContinue (one line saying why) unless an edit of ``relative`` can continue this trial."""
    _refuse_unless_continuable(RunStore.open(run_dir).meta(), run_dir, relative)


def _refuse_unless_continuable(meta: dict[str, Any], run_dir: Path, relative: str) -> None:
    if meta.get("approach") != "pddlego":
        raise CannotContinue(f"{run_dir.name}: only a PDDLego+ trial continues from an edited PDDL file")
    environment = meta.get("environment") or {}
    if environment.get("kind") != "real" or environment.get("name") != "coincollector":
        raise CannotContinue(f"{run_dir.name}: the trial was played in a {environment.get('kind', 'unknown')} "
                             f"environment; continuing needs the real CoinCollector game (import it with --env real)")
    if relative.endswith("-domain.pddl") and (meta.get("config") or {}).get("fixed_domain"):
        raise CannotContinue(f"{relative}: this trial's domain file is fixed (the ablation); edit a problem file")
