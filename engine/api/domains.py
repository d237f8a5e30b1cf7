"""A front end's view of a domain directory: opening it (any layout genplan reads) with its domain file and every
task of its sets, in order; what cannot be read becomes one line instead of an exception."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.engine.domainlib import TASK_SETS, DomainDir, DomainDirError, domain_toml_text, keyed_by_directory, natural_key

if TYPE_CHECKING:  # (the PDDL reader and its parser library load with the first domain opened, not with this module:
    from genplan.engine.pddl import Domain  # genplan-tui checks its domain directory before its first screen)

__all__ = [
    "DomainDir", "DomainDirError", "OpenedDomain", "TASK_SETS", "domain_toml_text", "keyed_by_directory",
    "natural_key", "open_domain",
]


@dataclass(frozen=True)
class OpenedDomain:
    """What :func:`open_domain` found: each part that could be read, and the first reason one could not."""

    path: Path
    directory: DomainDir | None  # None: no domain directory genplan recognises
    domain: Domain | None  # None: the domain file is missing or does not parse
    text: str  # the domain file's text ("" when unreadable)
    tasks: list[tuple[str, Path]] = field(default_factory=list)  # (task set, file), set by set in TASK_SETS' order
    error: str | None = None  # one line


def open_domain(path: Path) -> OpenedDomain:
    """The domain directory at ``path``: its domain file (text and model) and its task sets (debug, eval,
    probes). Without a recognised directory, the ``domain.pddl`` and the task-set folders that are there."""
    from genplan.engine.pddl import PddlError, load_domain

    directory: DomainDir | None = None
    error: str | None = None
    try:
        directory = DomainDir.open(path)
    except DomainDirError as exc:
        error = str(exc)
    domain_file = directory.domain_file if directory is not None else path / "domain.pddl"
    try:
        text = domain_file.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        text = ""
        error = error or f"{domain_file}: {exc.strerror or exc}"
    domain: Domain | None = None
    if text:
        try:
            domain = load_domain(domain_file)
        except PddlError as exc:
            error = str(exc)
    tasks: list[tuple[str, Path]] = []
    if directory is not None:  # the source knows its sets in every layout
        sets: tuple[list[Path], ...]
        try:
            sets = (directory.debug_tasks(), directory.eval_tasks(), directory.probe_tasks())
        except DomainDirError as exc:  # e.g. a broken seed_splits.json
            sets, error = ([], [], []), error or str(exc)
        for task_set, files in zip(TASK_SETS, sets):
            tasks.extend((task_set, p) for p in files)
        return OpenedDomain(path, directory, domain, text, tasks, error)
    for task_set in TASK_SETS:
        folder = path / task_set
        if folder.is_dir():
            files = sorted((p for p in folder.iterdir() if p.suffix == ".pddl" and p.is_file()), key=natural_key)
            tasks.extend((task_set, p) for p in files)
    return OpenedDomain(path, directory, domain, text, tasks, error)
