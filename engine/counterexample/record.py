"""Counterexamples of a run's program versions, kept in the run directory.

``counterexamples/<version>.json`` records one search (what was tried, where the failing task came from, the
sizes before and after shrinking); ``counterexamples/counterexample-<version>.pddl`` is the shrunk task. A
version searched once is never searched again: a resumed run, and the TUI, read the record.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from genplan.engine.counterexample.search import SearchBudget, TaskSize, counterexample_pddl, find_counterexample
from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import Domain
from genplan.engine.runs import layout
from genplan.engine.runs.store import RunStore
from genplan.engine.sandbox import Program

FOLDER = layout.COUNTEREXAMPLES


def record_file(label: str) -> str:
    return f"{FOLDER}/{label}.json"


def read_record(store: RunStore, label: str) -> dict[str, Any] | None:
    relative = record_file(label)
    if not store.exists(relative):
        return None
    data: dict[str, Any] = store.read_json(relative)
    return data


def search_for_version(
    store: RunStore, label: str, file: str, source: str, function: str, domain_dir: DomainDir, domain: Domain, *,
    seed: int, budget: SearchBudget, probes: bool = True,
) -> tuple[dict[str, Any], bool]:
    """The record of version ``label`` (program text ``source`` in the run's file ``file``): read when it
    exists, else searched, shrunk and written. Returns (record, whether a search ran now)."""
    known = read_record(store, label)
    if known is not None:
        return known, False
    program = Program.from_source(source, functions=(function,))
    report = find_counterexample(program, domain_dir, seed=seed, budget=budget, probes=probes)
    report.program = file
    data: dict[str, Any] = {**report.to_dict(), "version": label, "task": None}
    if report.found and report.task is not None:
        data["task"] = f"{FOLDER}/counterexample-{label}.pddl"
        data["shrunk_size"] = TaskSize.of(report.task).to_dict()
        store.write_text(data["task"], counterexample_pddl(report, domain.typed))
    store.write_json(record_file(label), data)  # last: a search killed before this runs again on resume
    return data, True


def attach_tasks(store: RunStore, files: list[Path]) -> list[str]:
    """Copy task files into run ``store`` (a fork that continues from a program version) as the debug tasks
    it gets when that version is checked ("continue with this task")."""
    relative = []
    for path in files:
        target = f"{FOLDER}/{Path(path).name}"
        if store.file(target).resolve() != Path(path).resolve():
            store.file(FOLDER).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, store.file(target))
        relative.append(target)
    meta = store.meta()
    store.update_meta(extra_debug_tasks=[*(meta.get("extra_debug_tasks") or []), *relative])
    return relative
