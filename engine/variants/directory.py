"""A variant directory: every file planned in memory from the original and a renaming, then written.

Planning first lets the commands check everything before anything is written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from genplan.engine.domainlib import DomainDir, natural_key
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.model import Domain, Problem
from genplan.engine.pddl.plans import parse_plan_text, plan_to_text
from genplan.engine.pddl.writer import problem_to_pddl
from genplan.engine.variants.renaming import Renaming, RenamingFor, VariantError, domain_text, rename_domain, rename_plan, rename_problem

VARIANT_SETS = ("debug", "eval", "probes")


@dataclass
class VariantPlan:
    """What a variant directory will contain: relative path -> text."""

    out: Path
    files: dict[str, str]


def _task_files(base: DomainDir) -> list[tuple[str, Path]]:
    found = []
    for task_set in VARIANT_SETS:
        directory = base.path / task_set
        if directory.is_dir():
            files = [p for p in directory.iterdir() if p.is_file() and p.suffix in (".pddl", ".plan")]
            found += [(task_set, p) for p in sorted(files, key=natural_key)]
    return found


def open_base(base_dir: str | Path) -> tuple[DomainDir, Domain, list[tuple[str, Path, Problem]]]:
    """The original domain directory, its domain and every task (set name, path, problem)."""
    base = DomainDir.open(base_dir)
    domain = load_domain(base.domain_file)
    tasks = []
    for task_set, path in _task_files(base):
        if path.suffix == ".pddl":
            tasks.append((task_set, path, load_problem(path, domain)))
    return base, domain, tasks


def plan_variant(
    base: DomainDir,
    domain: Domain,
    tasks: list[tuple[str, Path, Problem]],
    renaming_for: RenamingFor,
    out: Path,
    meta: dict[str, Any],
    readme: str,
    extra_files: dict[str, str],
) -> VariantPlan:
    """Every file of the variant directory, in memory (nothing is written)."""
    files: dict[str, str] = {"domain.pddl": domain_text(rename_domain(domain, renaming_for(None)))}
    renamings: dict[Path, Renaming] = {}
    for task_set, path, problem in tasks:
        renaming = renaming_for(problem)
        renamings[path] = renaming
        files[f"{task_set}/{path.name}"] = problem_to_pddl(rename_problem(problem, renaming))
    for task_set, path in _task_files(base):
        if path.suffix == ".plan":
            plan_renaming = renamings.get(path.with_suffix(".pddl"))
            if plan_renaming is None:
                raise VariantError([f"{path}: a plan file without a task file of the same name"])
            steps = [s.pddl() for s in parse_plan_text(path.read_text(encoding="utf-8"), path)]
            files[f"{task_set}/{path.name}"] = plan_to_text(rename_plan(steps, plan_renaming))
    base_rel = Path(os.path.relpath(base.path.resolve(), out.resolve())).as_posix()
    files["domain.toml"] = tomli_w.dumps({**meta, "base_dir": base_rel}, multiline_strings=True)
    if any(task_set == "probes" for task_set, _, _ in tasks):
        files["probes/README.md"] = (
            f"# probes of {meta['name']}\n\nThe probe tasks of the original domain `{base.name}`, renamed like "
            f"every other task (same file names). What each probe tests is described in the original's "
            f"`probes/README.md`.\n"
        )
    files["README.md"] = readme
    files.update(extra_files)
    return VariantPlan(out, files)


def write_variant(plan: VariantPlan, force: bool) -> None:
    """Write the files; with ``force`` an existing variant's task files that are no longer produced go."""
    out = plan.out
    if out.exists():
        if not out.is_dir():
            raise VariantError([f"{out}: exists and is not a directory"])
        if any(out.iterdir()) and not force:
            raise VariantError([f"{out}: exists and is not empty (use --force to regenerate it)"])
    for task_set in VARIANT_SETS:
        directory = out / task_set
        if directory.is_dir():
            for old in directory.iterdir():
                if old.is_file() and old.suffix in (".pddl", ".plan") and f"{task_set}/{old.name}" not in plan.files:
                    old.unlink()
    for relative, text in plan.files.items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
