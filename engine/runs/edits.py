"""Edits on the record: every change a person makes to a run's strategy, reflection or program — in the TUI
or in a file on disk — becomes a new version file (the original is never overwritten) and an
``artifact.edited`` event in the run's log with the old and the new text's hashes.

A file changed in place outside genplan is put back as it was, and the changed text becomes the version
``<name>+N`` beside it: the run's records (its results, its summary, the selected program) stay true to what
the pipeline checked, and the edit is one more version to rerun, compare or continue from.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from genplan.engine.events import ArtifactEdited, decode
from genplan.engine.runs import layout
from genplan.engine.runs.store import RunStore, write_text_atomic

KIND_DIRS = {"strategy": ("strategies", ".md"), "reflection": ("reflections", ".md"), "program": ("programs", ".py")}
# Every kind of version a run keeps: the editable ones, AutoToS's successor functions and goal tests
# (versions/succ-N.py, versions/goal-N.py) and PDDLego+'s domain and problem files (pddl/sNN-aN-rN-domain.pddl,
# -problem.pddl), which are compared and browsed but not edited.
VERSION_DIRS = {**KIND_DIRS, "function": ("versions", ".py"), "pddl": ("pddl", ".pddl")}
ORIGINS = ("tui", "outside")
_CANDIDATE = re.compile(r"^(c\d+)-")


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class EditRecord:
    """One edit: ``edited`` (the version it changes) → ``file`` (the new version), both relative to the run."""

    kind: str  # strategy, reflection, program
    edited: str
    file: str
    old_hash: str
    new_hash: str
    origin: str  # tui, outside


def kind_of(relative: str) -> str | None:
    parts = Path(relative).parts
    if len(parts) != 2:
        return None
    for kind, (directory, suffix) in KIND_DIRS.items():
        if parts[0] == directory and parts[1].endswith(suffix):
            return kind
    return None


def next_version_name(run_dir: Path, relative: str) -> str:
    """Where an edit of ``relative`` made in genplan goes: the next version of the same artefact
    (strategies/v03.md, programs/c1-v02.py), or ``<name>-editN`` for a reflection."""
    kind = kind_of(relative)
    if kind is None:
        raise ValueError(f"{relative}: not a strategy, reflection or program of a run")
    directory, suffix = KIND_DIRS[kind]
    folder = run_dir / directory
    existing = {p.stem for p in folder.glob(f"*{suffix}")} if folder.is_dir() else set()
    stem = Path(relative).stem.split("+", 1)[0]
    if kind == "strategy":
        numbers = [int(m.group(1)) for s in existing if (m := re.fullmatch(r"v(\d+)", s))]
        return f"{directory}/v{max(numbers, default=0) + 1:02d}{suffix}"
    match = _CANDIDATE.match(stem)
    if kind == "program" and match:
        candidate = match.group(1)
        numbers = [int(m.group(1)) for s in existing if (m := re.fullmatch(rf"{candidate}-v(\d+)", s))]
        return f"{directory}/{candidate}-v{max(numbers, default=-1) + 1:02d}{suffix}"
    count = 1
    while f"{stem}-edit{count}" in existing:
        count += 1
    return f"{directory}/{stem}-edit{count}{suffix}"


def snapshot_name(run_dir: Path, relative: str) -> str:
    """``<name>+N``: the next free name for a text that was written over ``relative`` outside genplan."""
    path = Path(relative)
    base = path.stem.split("+", 1)[0]
    count = 1
    while (run_dir / path.parent / f"{base}+{count}{path.suffix}").exists():
        count += 1
    return str(path.parent / f"{base}+{count}{path.suffix}")


def _append(run_dir: Path, record: EditRecord, when: float) -> None:
    store = RunStore(run_dir)
    store.append_event(ArtifactEdited(kind=record.kind, edited=record.edited, file=record.file, old_hash=record.old_hash,
                                       new_hash=record.new_hash, origin=record.origin,
                                       seq=store.last_seq() + 1, time=when))


def record_edit(run_dir: Path, relative: str, old_text: str, new_text: str, *, origin: str = "tui",
                when: float = 0.0) -> EditRecord:
    """An edit made in genplan: ``new_text`` becomes the next version of ``relative``'s artefact; the
    edit is logged. Returns the record (``file`` is the new version)."""
    import time

    kind = kind_of(relative)
    if kind is None:
        raise ValueError(f"{relative}: not a strategy, reflection or program of a run")
    target = next_version_name(run_dir, relative)
    write_text_atomic(run_dir / target, new_text)
    record = EditRecord(kind, relative, target, text_hash(old_text), text_hash(new_text), origin)
    _append(run_dir, record, when or time.time())
    return record


def adopt_outside_edit(run_dir: Path, relative: str, old_text: str, new_text: str, *, when: float = 0.0) -> EditRecord:
    """A version file was written over outside genplan: put ``old_text`` back, keep ``new_text`` as the
    version ``<name>+N`` and log the edit."""
    import time

    kind = kind_of(relative)
    if kind is None:
        raise ValueError(f"{relative}: not a strategy, reflection or program of a run")
    target = snapshot_name(run_dir, relative)
    write_text_atomic(run_dir / target, new_text)
    write_text_atomic(run_dir / relative, old_text)  # the original stays what the pipeline checked
    record = EditRecord(kind, relative, target, text_hash(old_text), text_hash(new_text), "outside")
    _append(run_dir, record, when or time.time())
    return record


def edits_of(run_dir: Path) -> list[EditRecord]:
    """The edits logged in a run, oldest first."""
    found: list[EditRecord] = []
    log = layout.events_file(run_dir)
    if not log.is_file():
        return found
    for line in log.read_text(encoding="utf-8").splitlines():
        if ArtifactEdited.TYPE not in line:  # most lines are something else: skip them undecoded
            continue
        try:
            event = decode(line)
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(event, ArtifactEdited) and event.kind and event.edited and event.file:
            found.append(EditRecord(event.kind, event.edited, event.file, event.old_hash or "",
                                    event.new_hash or "", event.origin or "tui"))
    return found
