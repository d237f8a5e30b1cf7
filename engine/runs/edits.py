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
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from genplan.engine.errors import GenplanError
from genplan.engine.events import ArtifactCreated, ArtifactEdited, Event, decode
from genplan.engine.runs import layout
from genplan.engine.runs.files import write_json_atomic
from genplan.engine.runs.lock import LiveRun, RunBusy, RunLock, live_run
from genplan.engine.runs.store import RunStore, write_text_atomic

KIND_DIRS = {"strategy": ("strategies", ".md"), "reflection": ("reflections", ".md"), "program": ("programs", ".py")}
# What a person may edit and continue from: the versions above and the NL descriptions (nl/domain.md,
# nl/<task>.md; an edit of one is nl/<name>-editN.md). NL files are not versions of the Versions tree.
EDIT_DIRS = {**KIND_DIRS, "description": ("nl", ".md")}
# Every kind of version a run keeps: the editable ones, AutoToS's successor functions and goal tests
# (versions/succ-N.py, versions/goal-N.py) and PDDLego+'s domain and problem files (pddl/sNN-aN-rN-domain.pddl,
# -problem.pddl), which are compared and browsed but not edited.
VERSION_DIRS = {**KIND_DIRS, "function": ("versions", ".py"), "pddl": ("pddl", ".pddl")}
# versions an edit of continues the run in a new one without being kept as a version of the run itself
CONTINUED_ONLY = ("function", "pddl")
ORIGINS = ("tui", "cli", "outside")
_CANDIDATE = re.compile(r"^(c\d+)-")
_EDIT_SUFFIX = re.compile(r"-edit\d+$")


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
    origin: str  # tui, cli, outside
    seq: int = 0  # the event's place in the run's log (0: not logged)
    time: float = 0.0
    published: bool = False  # logged by the bus of the run going on: its watchers have the event already

    def event(self) -> ArtifactEdited:
        """The edit as the run's log holds it (what the timeline shows as its ✎ row)."""
        return ArtifactEdited(kind=self.kind, edited=self.edited, file=self.file, old_hash=self.old_hash,
                              new_hash=self.new_hash, origin=self.origin, seq=self.seq, time=self.time)


class EditRefused(GenplanError):
    """An edit or a continuation that cannot be made: no such run, no such version, an empty text (one line)."""


def _on_record(record: EditRecord) -> dict[str, Any]:
    """The record as run.json keeps it (whether the live run's watchers were told is no part of it)."""
    return {key: value for key, value in asdict(record).items() if key != "published"}


def kind_of(relative: str) -> str | None:
    """The kind of a run's file a person may edit (strategy, reflection, program, description), else None."""
    parts = Path(relative).parts
    if len(parts) != 2:
        return None
    for kind, (directory, suffix) in EDIT_DIRS.items():
        if parts[0] == directory and parts[1].endswith(suffix):
            return kind
    return None


def next_version_name(run_dir: Path, relative: str, taken: Collection[str] = ()) -> str:
    """Where an edit of ``relative`` made in genplan goes: the next version of the same artefact
    (strategies/v03.md, programs/c1-v02.py), or ``<name>-editN`` for a reflection. ``taken``: further names
    (relative to the run) that are not free though no file has them yet (those the run going on has chosen)."""
    kind = kind_of(relative)
    if kind is None:
        raise ValueError(f"{relative}: not a strategy, reflection or program of a run")
    directory, suffix = EDIT_DIRS[kind]
    folder = run_dir / directory
    existing = {p.stem for p in folder.glob(f"*{suffix}")} if folder.is_dir() else set()
    existing |= {Path(name).stem for name in taken if Path(name).parent == Path(directory)}
    stem = _EDIT_SUFFIX.sub("", Path(relative).stem.split("+", 1)[0])  # an edit of an edit: the next -editN
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


_LogEdit = Callable[[EditRecord], EditRecord]


@contextmanager
def _edit_log(run_dir: Path, when: float) -> Iterator[tuple[_LogEdit, LiveRun | None]]:
    """How an edit reaches the run's log, numbered after every event in it, and the run going on in this process
    if there is one (whose names the edit must not take). A run going on here (the TUI editing the run it shows)
    logs it with its own bus, which numbers its events; a run no process runs gets it appended under the run's
    lock, so that no run starts meanwhile; a run another process runs refuses it (EditRefused), before anything
    is written: two writers of one log would give two events one number."""
    live = live_run(run_dir)
    if live is not None:
        def published(record: EditRecord) -> EditRecord:
            event = live.publish_aside(record.event())
            return replace(record, seq=event.seq, time=event.time, published=True)

        yield published, live
        return
    try:
        lock = RunLock(run_dir)
        lock.acquire()
    except RunBusy as busy:
        raise EditRefused(f"{Path(run_dir).name}: another process runs it (pid {busy.holder}); edit it once that "
                          "run has stopped") from None
    try:
        store = RunStore(run_dir)

        def appended(record: EditRecord) -> EditRecord:
            logged = replace(record, seq=store.last_seq() + 1, time=when or time.time())
            store.append_event(logged.event())
            return logged

        yield appended, None
    finally:
        lock.release()


def record_edit(run_dir: Path, relative: str, old_text: str, new_text: str, *, origin: str = "tui",
                when: float = 0.0) -> EditRecord:
    """An edit made in genplan: ``new_text`` becomes the next version of ``relative``'s artefact; the
    edit is logged. Returns the record (``file`` is the new version)."""
    kind = kind_of(relative)
    if kind is None:
        raise ValueError(f"{relative}: not a strategy, reflection or program of a run")
    with _edit_log(run_dir, when) as (log, live):
        if live is None:  # no run goes on: the names on disk are all there is
            target = next_version_name(run_dir, relative)
            write_text_atomic(run_dir / target, new_text)
        else:
            target = live.names.write_edit(run_dir, relative, new_text)
        return log(EditRecord(kind, relative, target, text_hash(old_text), text_hash(new_text), origin))


def adopt_outside_edit(run_dir: Path, relative: str, old_text: str, new_text: str, *, when: float = 0.0) -> EditRecord:
    """A version file was written over outside genplan: put ``old_text`` back, keep ``new_text`` as the
    version ``<name>+N`` and log the edit."""
    kind = kind_of(relative)
    if kind is None:
        raise ValueError(f"{relative}: not a strategy, reflection or program of a run")
    with _edit_log(run_dir, when) as (log, _):  # a "+N" name is never one the run's count gives
        target = snapshot_name(run_dir, relative)
        write_text_atomic(run_dir / target, new_text)
        write_text_atomic(run_dir / relative, old_text)  # the original stays what the pipeline checked
        return log(EditRecord(kind, relative, target, text_hash(old_text), text_hash(new_text), "outside"))


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
                                    event.new_hash or "", event.origin or "tui", event.seq, event.time))
    return found


# ---------------------------------------------------------------------------------------------------- lineage
def edited_from(run_dir: Path) -> dict[str, str]:
    """Each edited version's file → the version it was edited from (both relative to the run)."""
    return {record.file: record.edited for record in edits_of(run_dir)}


def lineage(run_dir: Path, relative: str) -> list[str]:
    """The versions ``relative`` descends from by edits, oldest first, ending with ``relative`` itself:
    ``[strategies/v01.md, strategies/v02.md, strategies/v03.md]`` for v03, an edit of v02, an edit of v01.
    The first is the version an answer of the run wrote (or a file edited outside genplan's record)."""
    parents = edited_from(Path(run_dir))
    chain = [relative]
    while chain[-1] in parents and parents[chain[-1]] not in chain:  # a cycle cannot be made, but never loop
        chain.append(parents[chain[-1]])
    return list(reversed(chain))


def answered_lineage(run_dir: Path, relative: str) -> list[str]:
    """``relative``'s lineage from the newest version an answer of this run wrote (in a fork, the versions its
    source had before that are not files of the fork)."""
    chain = lineage(run_dir, relative)
    written = {event.file for event in RunStore(Path(run_dir)).events()
               if isinstance(event, ArtifactCreated) and event.request_id is not None}
    start = max((index for index, file in enumerate(chain) if file in written), default=0)
    return chain[start:]


def answer_version(run_dir: Path, relative: str) -> str:
    """The version whose answer a continuation from ``relative`` replaces: the first of its answered lineage."""
    return answered_lineage(run_dir, relative)[0]


def check_version(run_dir: Path, relative: str) -> str:
    """``relative``'s kind, when it is a file of the run a person may edit (EditRefused otherwise)."""
    run_dir = Path(run_dir)
    if not layout.is_run_dir(run_dir):
        raise EditRefused(f"{run_dir}: not a run directory (no {layout.META})")
    kind = kind_of(relative)
    if kind is None:
        if continued_kind(run_dir, relative) is not None:
            raise EditRefused(f"{relative}: a run of AutoToS or PDDLego+ keeps no edits of its own; continue it from "
                              f"your text in a new run: genplan fork {run_dir} --from {relative} --text FILE")
        kinds = ", ".join(f"{directory}/*{suffix}" for directory, suffix in EDIT_DIRS.values())
        raise EditRefused(f"{relative}: not a version a person edits ({kinds}, relative to the run)")
    if not (run_dir / relative).is_file():
        raise EditRefused(f"{run_dir.name}: has no version {relative}")
    return kind


def continued_kind(run_dir: Path, relative: str) -> str | None:
    """``relative``'s kind when it is a version a run continues from without keeping the edit as a version of its
    own (an AutoToS function, a PDDLego+ trial's PDDL file: the edit is the answer of a new run); else None.
    EditRefused when the run has no such file."""
    parts = Path(relative).parts
    for kind in CONTINUED_ONLY:
        directory, suffix = VERSION_DIRS[kind]
        if len(parts) == 2 and parts[0] == directory and parts[1].endswith(suffix):
            if not (Path(run_dir) / relative).is_file():
                raise EditRefused(f"{Path(run_dir).name}: has no version {relative}")
            return kind
    return None


def save_edit(run_dir: Path, relative: str, text: str, *, origin: str = "tui") -> EditRecord | None:
    """A person's text for version ``relative``: a new version on the run's record, edited from ``relative``
    (``record_edit``); None when the text is the version's own (an unchanged save makes no version).
    EditRefused for no run, no such version, an empty text."""
    run_dir = Path(run_dir)
    check_version(run_dir, relative)
    if not text.strip():
        raise EditRefused(f"the text for {relative} is empty; an empty version cannot be checked or continued")
    old_text = (run_dir / relative).read_text(encoding="utf-8")
    if old_text == text:
        return None
    return record_edit(run_dir, relative, old_text, text, origin=origin)


# ------------------------------------------------------------------------------------------- forks from an edit
FORK_LINEAGE = "edit_lineage"  # run.json of a fork from an edit: the edited version's lineage in its source
FORK_REPLACES = "edit_replaces"  # ... the file the pipeline's own count gives the version whose answer is replaced
FORK_EDIT = "edit_record"  # ... and the source's record of the last edit (for the fork's own ✎ mark)
FORK_PASSED_OVER = "edit_names_passed_over"  # a fork's run.json: names its source's edits hold (not the fork's own)


def fork_meta(source_dir: Path, relative: str) -> dict[str, Any]:
    """What a fork that continues from version ``relative`` of ``source_dir`` records, so that it names the
    version as its source does and marks it as the same edit (:class:`ForkNames`). A source that is itself a fork
    from an edit named its edited version so too: the name its count gives that version carries over."""
    chain = answered_lineage(source_dir, relative)
    source_meta = RunStore(Path(source_dir)).meta()
    inherited = ForkNames(source_meta)
    replaces = inherited.answer_of if inherited.answer_of and inherited.name == chain[0] else chain[0]
    edits = edits_of(source_dir)
    # the source's count passed over the names its edits hold (VersionNames): the fork, which replays its answers
    # without those edits, passes over them too, so that its versions are called as the source calls them
    passed_over = sorted({str(name) for name in source_meta.get(FORK_PASSED_OVER) or []}
                         | {record.file for record in edits} - set(lineage(source_dir, relative)))
    if replaces == relative:  # named as the count names it: nothing to carry (nor the source's keys)
        return {FORK_LINEAGE: None, FORK_REPLACES: None, FORK_EDIT: None, FORK_PASSED_OVER: passed_over or None}
    last = next((r for r in reversed(edits) if r.file == relative), None)
    return {FORK_LINEAGE: lineage(source_dir, relative), FORK_REPLACES: replaces,
            FORK_EDIT: _on_record(last) if last is not None else None, FORK_PASSED_OVER: passed_over or None}


class ForkNames:
    """A fork from an edited version writes, from the person's answer, the file its source calls that edit
    (``strategies/v04.md``, not the ``v01.md`` the pipeline's count would give) and marks it as the same edit
    (an ``artifact.edited`` event, the timeline's ✎ row). NL descriptions keep their names (they are read by
    name), so they are not renamed."""

    def __init__(self, meta: Mapping[str, Any]) -> None:
        chain = meta.get(FORK_LINEAGE) or []
        replaces = meta.get(FORK_REPLACES) or (chain[0] if len(chain) > 1 else None)  # before edit_replaces
        self.name = str(chain[-1]) if chain and replaces else None
        self.answer_of = str(replaces) if self.name else None  # the file the edited answer writes by count
        record = meta.get(FORK_EDIT) or {}
        known = {f.name for f in fields(EditRecord)}
        self.edit = EditRecord(**{k: v for k, v in record.items() if k in known}) if {"kind", "edited", "file"} <= set(record) else None
        self.used = False

    def name_for(self, relative: str) -> str:
        """The name a new file of the run gets: the source's name of the edit, for the file its answer writes."""
        if self.used or self.name is None or relative != self.answer_of or kind_of(relative) not in KIND_DIRS:
            return relative
        return self.name

    def written(self, relative: str) -> ArtifactEdited | None:
        """The edit's mark, once the renamed file is written (then nothing more is renamed)."""
        if self.used or self.name is None or relative != self.name:
            return None
        self.used = True
        edit = self.edit
        return None if edit is None else replace(edit, seq=0, time=0.0).event()  # the fork's log numbers it


# --------------------------------------------------------------------------------------- the names of a run's versions
_NUMBERED = re.compile(r"(.*v)(\d+)")


def _following(relative: str) -> str | None:
    """The version after a numbered one (strategies/v02.md → v03.md, programs/c1-v01.py → c1-v02.py)."""
    path = Path(relative)
    match = _NUMBERED.fullmatch(path.stem)
    if match is None:
        return None
    return str(path.with_name(f"{match.group(1)}{int(match.group(2)) + 1:02d}{path.suffix}"))


class VersionNames:
    """The names a run gives its versions, and the names a person's edit of it takes, never the same.

    The pipeline counts its versions (strategies/v02.md after v01); an edit takes the next free name
    (:func:`next_version_name`). Either can come first: an edit made while the run waits for an answer (the TUI in
    step mode), an edit of a stopped run that is resumed. So the run's count passes over every name an edit holds
    (the next number after it), and an edit of a run going on in this process passes over every name the run has
    chosen, written or not; one lock orders the two choices. A resumed run chooses as it chose before: the edits it
    passes over are in its log, the names its earlier sittings wrote are its own. A fork from an edit names that
    version as its source does (:class:`ForkNames`) before anything else."""

    def __init__(self, meta: Mapping[str, Any], logged: Iterable[Event]) -> None:
        self.fork = ForkNames(meta)
        self._lock = threading.Lock()
        self._own: set[str] = set()  # chosen or written by the run
        self._edits: set[str] = set()  # written by a person's edit (of this run, or of the run a fork continues)
        self._edits.update(str(name) for name in meta.get(FORK_PASSED_OVER) or [])
        for event in logged:
            if isinstance(event, ArtifactCreated) and event.file:
                self._own.add(event.file)
            elif isinstance(event, ArtifactEdited) and event.file:
                self._edits.add(event.file)

    def for_run(self, relative: str) -> str:
        """The name the run writes its file ``relative`` (as its count names it) under."""
        with self._lock:
            name: str | None = self.fork.name_for(relative)
            while name is not None and name in self._edits and name not in self._own:
                name = _following(name)
            chosen = name or relative  # a name with no number is never one an edit takes
            self._own.add(chosen)
            return chosen

    def write_edit(self, run_dir: Path, relative: str, text: str) -> str:
        """A person's edit of ``relative`` written under a name neither on disk nor chosen by the run; the name."""
        with self._lock:
            target = next_version_name(run_dir, relative, taken=self._own)
            write_text_atomic(run_dir / target, text)
            self._edits.add(target)
            return target


def record_rerun(run_dir: Path, relative: str, checks: list[dict[str, Any]]) -> str | None:
    """The debug-task results of a person's edited program, rerun, put on the run's record as the pipeline writes a
    version's (``results/program-<label>.json``): the Versions tree and the results matrix show its count. Only for
    an edit, and never over a file that exists (what the run or an earlier rerun wrote stays). Under the run's lock;
    nothing when another process holds it. Returns the file written (relative to the run), else None."""
    run_dir = Path(run_dir)
    if kind_of(relative) != "program" or not any(record.file == relative for record in edits_of(run_dir)):
        return None
    path = layout.results_dir(run_dir) / f"program-{Path(relative).stem}.json"
    try:
        with RunLock(run_dir):
            if path.exists():
                return None
            write_json_atomic(path, checks)
    except RunBusy:
        return None
    return str(path.relative_to(run_dir))
