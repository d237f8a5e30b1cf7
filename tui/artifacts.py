"""The versions of strategies, reflections and programs found in a domain's run directories.

A run directory keeps ``strategies/vNN.md``, ``reflections/*.md`` and ``programs/cN-vNN.py``; an AutoToS run
``versions/succ-N.py`` and ``versions/goal-N.py`` (kind ``function``); a PDDLego+ trial
``pddl/sNN-aN-rN-domain.pddl`` and ``-problem.pddl`` (kind ``pddl``). A file
changed in place outside the TUI becomes a further version of the same artefact (``v02+1``), kept
as a snapshot, so that nothing the user saw disappears when a file is overwritten.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

# genplan.engine.api is imported where it is used: importing it loads every approach (the pipeline, the model
# client, the sandbox), which the first screen does not need (docs/tui.md, "How it is built")

_CANDIDATE = re.compile(r"^(c\d+)-")


@dataclass(frozen=True)
class Version:
    kind: str  # strategy, reflection, program
    run_id: str
    name: str  # file stem (v02, c1-v03, ...), with +N for snapshots of outside edits
    path: Path
    snapshot: str | None = None  # the text, for versions that exist only as a snapshot
    edit_of: str | None = None  # the version a person's edit made this from (engine.runs.edits), e.g. "c1-v00"

    @property
    def series(self) -> str:
        """Versions of one artefact: the strategies of a run; the programs of one candidate; the reflections of
        one phase (and candidate). Where a version belongs is the engine's (engine.versions.version_place)."""
        from genplan.engine.api.versions import version_place

        place = version_place(self.kind, self.name)
        return " ".join(part for part in (self.kind, place.phase, place.candidate or "") if part)

    @property
    def edited(self) -> bool:
        """Made by a person: a file edited outside (``+N``) or an edited reflection (``-editN``)."""
        return self.edit_of is not None or "+" in self.name or "-edit" in self.name

    @property
    def label(self) -> str:
        return f"{self.run_id} · {self.kind} {self.name}"

    @property
    def syntax(self) -> str:
        return {"program": "python", "function": "python", "pddl": "pddl"}.get(self.kind, "markdown")

    @property
    def key(self) -> str:
        return f"{self.run_id}/{self.kind}/{self.name}"

    def read(self) -> str:
        if self.snapshot is not None:
            return self.snapshot
        try:
            return self.path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            return f"(cannot read {self.path}: {exc.strerror or exc})"

    def sort_key(self) -> tuple:
        from genplan.engine.api.domains import natural_key

        base, _, edit = self.name.partition("+")
        return (self.run_id, self.kind, natural_key(Path(base)), int(edit) if edit.isdigit() else 0)


def runs_root(domain_dir: Path) -> Path:
    from genplan.engine.api.runs import default_runs_dir

    return default_runs_dir(domain_dir)


def kind_of(path: Path, run_dir: Path) -> str | None:
    """The artefact kind of a file inside a run directory, or None."""
    try:
        relative = path.relative_to(run_dir)
    except ValueError:
        return None
    if len(relative.parts) != 2:
        return None
    from genplan.engine.api.versions import VERSION_DIRS

    for kind, (directory, suffix) in VERSION_DIRS.items():
        if relative.parts[0] == directory and relative.suffix == suffix:
            return kind
    return None


def scan_run(run_dir: Path) -> list[Version]:
    from genplan.engine.api.domains import natural_key
    from genplan.engine.api.runs import in_run
    from genplan.engine.api.versions import VERSION_DIRS, edits_of

    edited = {in_run(run_dir, record.file): Path(record.edited).stem for record in edits_of(run_dir)}
    versions = []
    for kind, (directory, suffix) in VERSION_DIRS.items():
        folder = in_run(run_dir, directory)
        if not folder.is_dir():
            continue
        for file in sorted(folder.glob(f"*{suffix}"), key=natural_key):
            if file.is_file() and not file.name.startswith("."):
                versions.append(Version(kind, run_dir.name, file.stem, file, edit_of=edited.get(file)))
    return versions


class VersionIndex:
    """All versions of a domain's runs, plus snapshots of files edited outside the TUI.

    Thread-safe: files are read in worker threads (never on the UI's event loop)."""

    def __init__(self, domain_dir: Path, runs_dir: Path | None = None, *, read_only: bool = False) -> None:
        self.domain_dir = domain_dir
        self.read_only = read_only  # then a run file written over outside genplan is not adopted (that would write)
        self.runs_dir = runs_dir if runs_dir is not None else runs_root(domain_dir)
        self._versions: dict[str, Version] = {}
        self._last_text: dict[Path, str] = {}
        self._lock = threading.RLock()

    def scan(self) -> list[Version]:
        root = self.runs_dir
        if root.is_dir():
            for run_dir in sorted(p for p in root.iterdir() if p.is_dir()):
                for version in scan_run(run_dir):
                    with self._lock:
                        self._add(version)
        return self.all()

    def _add(self, version: Version) -> bool:
        if version.key in self._versions:
            return False
        self._versions[version.key] = version
        if version.snapshot is None and version.path not in self._last_text:
            self._last_text[version.path] = version.read()
        return True

    def all(self) -> list[Version]:
        with self._lock:
            return sorted(self._versions.values(), key=Version.sort_key)

    def of_run(self, run_id: str) -> list[Version]:
        with self._lock:
            return sorted((v for v in self._versions.values() if v.run_id == run_id), key=Version.sort_key)

    def get(self, key: str) -> Version | None:
        with self._lock:
            return self._versions.get(key)

    def history(self, version: Version) -> list[Version]:
        """The versions ``version`` comes from, oldest first, by lineage rather than numbering (same run and
        series): for a version the run made, the run's own line of its artefact (an edit is a branch off it, not
        a step of it); for an edit, the line up to the version it was edited from, then the edits to it. In a
        fork from an edit, the edit its source made starts the fork's own line."""
        same = [v for v in self.all() if v.run_id == version.run_id and v.series == version.series]
        by_name = {v.name: v for v in same}
        main = [v for v in same if v.edit_of is None or v.edit_of not in by_name]
        if version in main:
            return main
        chain = [version]
        while chain[-1] not in main and chain[-1].edit_of in by_name and by_name[chain[-1].edit_of] not in chain:
            chain.append(by_name[str(chain[-1].edit_of)])
        root = chain[-1]
        before = main[:main.index(root)] if root in main else []
        return before + list(reversed(chain))

    def file_changed(self, path: Path) -> Version | None:
        """Record a created or modified file; returns the new version it makes, if any."""
        with self._lock:
            return self._file_changed(path)

    def _file_changed(self, path: Path) -> Version | None:
        root = self.runs_dir
        try:
            run_id = path.relative_to(root).parts[0]
        except (ValueError, IndexError):
            return None
        run_dir = root / run_id
        kind = kind_of(path, run_dir)
        if kind is None or not path.is_file():
            return None
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        previous = self._last_text.get(path)
        if previous is None:
            from genplan.engine.api.versions import edits_of

            relative = str(path.relative_to(run_dir))
            edit_of = next((Path(r.edited).stem for r in edits_of(run_dir) if r.file == relative), None)
            version = Version(kind, run_id, path.stem, path, edit_of=edit_of)
            self._last_text[path] = text
            return version if self._add(version) else None
        from genplan.engine.api.versions import KIND_DIRS

        if previous == text or kind not in KIND_DIRS or self.read_only:  # AutoToS's functions are not edited
            return None
        # Written over outside genplan: the engine puts the original back and keeps the new text as the
        # version name+N, and logs the edit (engine.runs.edits) — nothing the run checked is lost.
        from genplan.engine.api import GenplanError
        from genplan.engine.api.runs import in_run
        from genplan.engine.api.versions import adopt_outside_edit

        try:
            record = adopt_outside_edit(run_dir, str(path.relative_to(run_dir)), previous, text)
        except (OSError, GenplanError):  # e.g. another process runs it: adopted at a later look, once it stopped
            return None
        new_path = in_run(run_dir, record.file)
        self._last_text[path] = previous
        self._last_text[new_path] = text
        version = Version(kind, run_id, new_path.stem, new_path, edit_of=path.stem)
        self._add(version)
        return version
