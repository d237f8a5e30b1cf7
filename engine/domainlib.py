"""Domain directories: a PDDL domain with its metadata, task sets and instance generator.

A domain directory (``domains/<name>/``) holds ``domain.pddl``, ``domain.toml`` (name, typed_objects,
description, optional notes), ``generator.py`` (seeded instance generator), ``debug/`` and ``eval/`` task
sets and optionally ``probes/``. See ``domains/README.md`` for the full contract.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

TASK_SETS = ("debug", "eval", "probes")
# Task files of the sets produced by the generator: debug/task-00.pddl, eval/task-000.pddl.
TASK_FILE_DIGITS = {"debug": 2, "eval": 3}


class DomainDirError(Exception):
    """A domain directory (or its generator) is unusable; str() is one line naming the path."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def natural_key(path: Path) -> list[Any]:
    """Sort key so that task-2 comes before task-10."""
    parts = re.split(r"(\d+)", path.name)
    return [int(part) if part.isdigit() else part for part in parts]


def _pddl_files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    files = [p for p in directory.iterdir() if p.is_file() and p.suffix == ".pddl"]
    return sorted(files, key=natural_key)


TaskSpec = tuple[int, dict[str, int]]


@dataclass(frozen=True)
class DomainDir:
    """An opened, checked domain directory. Create it with :meth:`DomainDir.open`."""

    path: Path
    name: str
    typed_objects: bool
    description: str
    notes: str = ""
    _generator: dict[str, ModuleType] = field(default_factory=dict, repr=False, compare=False)

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: Path | str) -> DomainDir:
        root = Path(path)
        if not root.is_dir():
            raise DomainDirError(root, "not a directory")
        if not (root / "domain.pddl").is_file():
            raise DomainDirError(root, "missing domain.pddl")
        meta = _read_toml(root / "domain.toml")
        for sub in ("debug", "eval"):
            if not (root / sub).is_dir():
                raise DomainDirError(root, f"missing {sub}/ directory")
        return cls(
            path=root,
            name=_required(meta, "name", str, root / "domain.toml"),
            typed_objects=_required(meta, "typed_objects", bool, root / "domain.toml"),
            description=_required(meta, "description", str, root / "domain.toml"),
            notes=_optional_str(meta, "notes", root / "domain.toml"),
        )

    # ------------------------------------------------------------------- files
    @property
    def domain_file(self) -> Path:
        return self.path / "domain.pddl"

    @property
    def generator_file(self) -> Path:
        return self.path / "generator.py"

    def debug_tasks(self) -> list[Path]:
        return _pddl_files(self.path / "debug")

    def eval_tasks(self) -> list[Path]:
        return _pddl_files(self.path / "eval")

    def probe_tasks(self) -> list[Path]:
        return _pddl_files(self.path / "probes")

    def task_file(self, task_set: str, index: int) -> Path:
        """Where the generator-made task number ``index`` of ``task_set`` lives (debug/task-03.pddl)."""
        digits = TASK_FILE_DIGITS.get(task_set)
        if digits is None:
            raise ValueError(f"task set {task_set!r} is not produced by the generator")
        return self.path / task_set / f"task-{index:0{digits}d}.pddl"

    # --------------------------------------------------------------- generator
    def load_generator(self) -> ModuleType:
        """Import generator.py by path (once per DomainDir) and check it defines PARAMETERS and generate."""
        cached = self._generator.get("module")
        if cached is not None:
            return cached
        source = self.generator_file
        if not source.is_file():
            raise DomainDirError(self.path, "missing generator.py")
        digest = hashlib.sha1(str(source.resolve()).encode()).hexdigest()[:10]
        safe_name = re.sub(r"\W", "_", self.name)
        module_name = f"_genplan_generator_{safe_name}_{digest}"
        spec = importlib.util.spec_from_file_location(module_name, source)
        if spec is None or spec.loader is None:
            raise DomainDirError(source, "cannot be imported")
        module = importlib.util.module_from_spec(spec)
        # Registered while executing so dataclasses/pickling inside the generator can find it.
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # noqa: BLE001 - any failure of user code becomes one clear line
            sys.modules.pop(module_name, None)
            raise DomainDirError(source, f"import failed: {type(exc).__name__}: {exc}") from exc
        parameters = getattr(module, "PARAMETERS", None)
        if not isinstance(parameters, dict) or not all(
            isinstance(k, str) and isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], int)
            for k, v in parameters.items()
        ):
            raise DomainDirError(source, "PARAMETERS must be a dict of name -> (default int, help text)")
        if not callable(getattr(module, "generate", None)):
            raise DomainDirError(source, "defines no generate(seed, **sizes) function")
        self._generator["module"] = module
        return module

    def parameters(self) -> dict[str, tuple[int, str]]:
        return dict(self.load_generator().PARAMETERS)

    def check_sizes(self, sizes: dict[str, Any]) -> dict[str, int]:
        """Complete ``sizes`` with the defaults; reject unknown names and non-integer values."""
        parameters = self.parameters()
        unknown = sorted(set(sizes) - set(parameters))
        if unknown:
            known = ", ".join(sorted(parameters)) or "none"
            raise DomainDirError(
                self.generator_file,
                f"unknown size parameter(s) {', '.join(unknown)} (known: {known})",
            )
        complete = {name: default for name, (default, _help) in parameters.items()}
        for name, value in sizes.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise DomainDirError(self.generator_file, f"size parameter {name} must be an integer, got {value!r}")
            complete[name] = value
        return complete

    def generate(self, seed: int, **sizes: int) -> str:
        """Problem PDDL text for ``seed`` and ``sizes`` (missing sizes take their defaults)."""
        complete = self.check_sizes(sizes)
        module = self.load_generator()
        try:
            text = module.generate(seed, **complete)
        except Exception as exc:  # noqa: BLE001 - generator errors (e.g. impossible sizes) as one line
            raise DomainDirError(self.generator_file, f"generate failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(text, str):
            raise DomainDirError(self.generator_file, "generate() did not return a string")
        return text

    def task_specs(self, task_set: str) -> list[TaskSpec]:
        """The recorded (seed, sizes) list of a task set: DEBUG_SPECS or EVAL_SPECS of generator.py."""
        if task_set not in TASK_FILE_DIGITS:
            raise ValueError(f"task set {task_set!r} is not produced by the generator")
        attribute = f"{task_set.upper()}_SPECS"
        specs = getattr(self.load_generator(), attribute, None)
        if not isinstance(specs, (list, tuple)) or not all(
            isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], int) and isinstance(s[1], dict)
            for s in specs
        ):
            raise DomainDirError(self.generator_file, f"{attribute} must be a list of (seed, sizes dict)")
        return [(seed, dict(sizes)) for seed, sizes in specs]


def list_domains(root: Path | str) -> list[DomainDir]:
    """Every domain directory (one with a domain.toml) directly below ``root``, sorted by directory name."""
    base = Path(root)
    if not base.is_dir():
        raise DomainDirError(base, "not a directory")
    dirs = sorted(p for p in base.iterdir() if p.is_dir() and (p / "domain.toml").is_file())
    return [DomainDir.open(p) for p in dirs]


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise DomainDirError(path.parent, "missing domain.toml")
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DomainDirError(path, f"not valid TOML: {exc}") from exc


def _required(meta: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    if key not in meta:
        raise DomainDirError(path, f"missing key '{key}'")
    value = meta[key]
    if not isinstance(value, kind):
        raise DomainDirError(path, f"key '{key}' must be a {kind.__name__}, got {type(value).__name__}")
    return value


def _optional_str(meta: dict[str, Any], key: str, path: Path) -> str:
    value = meta.get(key, "")
    if not isinstance(value, str):
        raise DomainDirError(path, f"key '{key}' must be a str, got {type(value).__name__}")
    return value
