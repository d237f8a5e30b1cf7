"""What the Domain and Tasks panels show: the domain file, its metadata and every task of its sets,
with the task's PDDL, its natural-language description (once a run made one) and its Python encoding."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: genplan.engine.api loads every approach, which the first screen waits for
    from genplan.engine.api.domains import DomainDir
    from genplan.engine.api.pddl import Domain


@dataclass(frozen=True)
class TaskInfo:
    task_set: str  # debug, eval, probes
    path: Path

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def label(self) -> str:
        return f"{self.task_set}/{self.name}"

    def pddl_text(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            return f"; cannot read {self.path}: {exc.strerror or exc}"


@dataclass
class DomainInfo:
    path: Path
    directory: DomainDir | None
    domain: Domain | None
    domain_text: str
    tasks: list[TaskInfo] = field(default_factory=list)
    error: str | None = None  # one line: why the domain could not be loaded
    note: str | None = None  # shown instead of the error (the TUI was opened on runs alone)

    @property
    def name(self) -> str:
        if self.directory is not None:
            return self.directory.name
        return self.domain.name if self.domain is not None else self.path.name

    @property
    def typed_objects(self) -> bool:
        if self.directory is not None:
            return self.directory.typed_objects
        return bool(self.domain and self.domain.typed)

    def describe(self) -> str:
        """Markdown: name, description, notes and task counts."""
        parts = [f"# {self.name}"]
        if self.note:
            parts.append(self.note)
        elif self.error:
            parts.append(f"**Cannot load this domain:** {self.error}")
        if self.directory is not None:
            parts.append(self.directory.description.strip())
            if self.directory.notes:
                parts.append(f"*Notes:* {self.directory.notes.strip()}")
            parts.append(f"Programs receive objects as {'(name, type) pairs' if self.typed_objects else 'names'}.")
        counts: dict[str, int] = {}
        for task in self.tasks:
            counts[task.task_set] = counts.get(task.task_set, 0) + 1
        if counts:
            parts.append("Tasks: " + ", ".join(f"{n} {s}" for s, n in counts.items()) + ".")
        if self.domain is not None and self.domain.warnings:
            parts.append("Warnings: " + "; ".join(self.domain.warnings))
        return "\n\n".join(parts)

    def python_text(self, task: TaskInfo) -> str:
        """The task as programs receive it (objects, init, goal), or a one-line error."""
        if self.domain is None:
            return f"# the domain could not be loaded: {self.error}"
        from genplan.engine.api.pddl import PddlError, load_problem, program_input

        try:
            problem = load_problem(task.path, self.domain)
        except PddlError as exc:
            return f"# {exc}"
        return program_input(problem, self.domain, typed=self.typed_objects)

    def load_problem(self, task: TaskInfo):
        from genplan.engine.api.pddl import PddlError, load_problem

        if self.domain is None:
            raise PddlError(self.path / "domain.pddl", self.error or "the domain could not be loaded")
        return load_problem(task.path, self.domain)


def runs_only_info(runs_dir: Path) -> DomainInfo:
    """What the Domain panel says when the TUI was opened on a directory of runs rather than a domain."""
    note = (f"No domain: these are the runs in `{runs_dir}` (e.g. of `genplan autotos` or `genplan import autotos`). "
            "They open (**3 Runs**, enter), replay (y) and compare their versions (**5 Versions**); "
            "starting a pipeline run needs a domain directory.")
    return DomainInfo(path=runs_dir, directory=None, domain=None, domain_text="", error="no domain to run on",
                      note=note)


def load_domain_info(path: Path) -> DomainInfo:
    """Open a domain directory; problems become ``error`` (one line) rather than exceptions."""
    from genplan.engine.api.domains import open_domain

    opened = open_domain(path)
    return DomainInfo(path=path, directory=opened.directory, domain=opened.domain, domain_text=opened.text,
                      tasks=[TaskInfo(task_set, file) for task_set, file in opened.tasks], error=opened.error)


def nl_description(task: TaskInfo, run_dirs: list[Path]) -> tuple[str, Path] | None:
    """The newest natural-language description of ``task`` that a run wrote, with its file."""
    from genplan.engine.api.runs import nl_files

    candidates = (f"{task.name}.md", f"{task.task_set}-{task.name}.md", f"{task.task_set}/{task.name}.md")
    for run_dir in sorted(run_dirs, key=lambda p: p.name, reverse=True):
        for file in nl_files(run_dir, candidates):
            if file.is_file():
                try:
                    return file.read_text(encoding="utf-8", errors="replace"), file
                except OSError:
                    continue
    return None


def nl_domain_description(run_dirs: list[Path]) -> tuple[str, Path] | None:
    from genplan.engine.api.runs import nl_files

    for run_dir in sorted(run_dirs, key=lambda p: p.name, reverse=True):
        (file,) = nl_files(run_dir, ("domain.md",))
        if file.is_file():
            try:
                return file.read_text(encoding="utf-8", errors="replace"), file
            except OSError:
                continue
    return None
