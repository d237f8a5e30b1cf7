"""Domain sources: one abstraction over the three ways a planning domain arrives.

- **genplan's own layout** (``domains/<name>/``): ``domain.pddl``, optional ``domain.toml`` (name,
  typed_objects, description, notes), ``generator.py`` (seeded instance generator), ``debug/`` and ``eval/``
  task sets, optional ``probes/``. See ``domains/README.md`` for the full contract.
- **the paper's benchmark layout** (``<domain>/``): ``domain.pddl``, ``problems_pddl/instance-N.pddl``,
  ``plans_pddl/`` (optimal plans), ``plans_gbfs/`` (satisficing plans), ``seed_splits.json`` (per split seed:
  prompt, validate and eval tasks) and ``seed_splits_eval.json`` (the final evaluation tasks). Debug tasks
  are the prompt and validate tasks (instance-0..5), evaluation tasks those of ``seed_splits_eval.json``.
- **bare files**: a domain file with problem files (given, beside it, or in ``problems/``): the first six
  problems (natural order) are the debug tasks, the others the evaluation tasks (all of them when there are
  at most six).

``domain.toml`` is optional everywhere: the name comes from the PDDL, ``typed_objects`` from whether the
domain declares types, the description may be empty (the pipeline writes its own descriptions).
:meth:`DomainDir.open` detects the layout; everything else asks the opened source.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from genplan.engine.errors import GenplanError

TASK_SETS = ("debug", "eval", "probes")
# Task files of the sets produced by the generator: debug/task-00.pddl, eval/task-000.pddl.
TASK_FILE_DIGITS = {"debug": 2, "eval": 3}

GENPLAN, PAPER, BARE = "genplan", "paper", "bare"  # the layouts
BARE_DEBUG_TASKS = 6  # as many debug tasks as the paper has (instance-0..5)
EXPECTED = (
    "expected a domain directory: domain.pddl with debug/ and eval/ (genplan's layout), with problems_pddl/ "
    "(the paper's benchmark layout), or with problem files (*.pddl) beside it or in problems/"
)


class DomainDirError(GenplanError):
    """A domain directory (or its generator) is unusable; str() is one line naming the path."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def natural_key(path: Path) -> list[Any]:
    """Sort key so that task-2 comes before task-10."""
    parts = re.split(r"(\d+)", path.name)
    return [int(part) if part.isdigit() else part for part in parts]


def _is_layout(directory: Path) -> bool:
    """Whether ``directory`` holds its tasks in genplan's layout (debug/, eval/) or the paper's (problems_pddl/)."""
    return any((directory / sub).is_dir() for sub in ("debug", "eval", "problems_pddl"))


def _pddl_files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        return []
    files = [p for p in directory.iterdir() if p.is_file() and p.suffix == ".pddl"]
    return sorted(files, key=natural_key)


_DEFINE = re.compile(r"\(\s*define\s*\(\s*(domain|problem)\s+([^\s()]+)", re.IGNORECASE)


def pddl_kind(path: Path) -> tuple[str, str] | None:
    """("domain" | "problem", name) from the head of a PDDL file, None if it is neither (or unreadable)."""
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    text = re.sub(r";[^\n]*", "", head)
    match = _DEFINE.search(text)
    return (match.group(1).lower(), match.group(2).lower()) if match else None


def _declares_types(domain_file: Path) -> bool:
    """Whether the domain's :types section declares any type besides object (programs then get typed objects)."""
    from genplan.engine.pddl.errors import PddlError
    from genplan.engine.pddl.loader import read_text
    from genplan.engine.pddl.sexpr import Atom, SList, read_sexpr

    try:
        tree = read_sexpr(read_text(domain_file), domain_file)
    except PddlError:
        return False  # the loader reports the file properly when it is read
    for item in tree.items:
        if isinstance(item, SList) and item.head() == ":types":
            return any(isinstance(a, Atom) and a.text not in ("-", "object") for a in item.items[1:])
    return False


TaskSpec = tuple[int, dict[str, int]]


@dataclass(frozen=True)
class DomainDir:
    """An opened domain source of any layout. Create it with :meth:`DomainDir.open`."""

    path: Path
    name: str
    typed_objects: bool
    description: str
    notes: str = ""
    layout: str = GENPLAN
    domain_path: Path | None = None  # bare sources: the domain file, which may have any name
    task_paths: tuple[Path, ...] = ()  # bare sources: the problem files
    variant: str = ""  # domain.toml's variant: "costume", "anonymized" or "" (an original domain)
    _generator: dict[str, ModuleType] = field(default_factory=dict, repr=False, compare=False)

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: Path | str, tasks: Sequence[Path | str] | None = None) -> DomainDir:
        """Open a domain directory of any layout, or a domain file (``tasks``: its problem files; default:
        the problem files beside it or in ``problems/``; the ``domain.pddl`` of a directory in genplan's or the
        paper's layout, with no ``tasks``, opens that directory). One-line :class:`DomainDirError` otherwise."""
        root = Path(path)
        if root.is_file():
            if not tasks and root.name == "domain.pddl" and _is_layout(root.parent):
                return cls.open(root.parent)  # the domain file of a domain directory: that directory
            return cls._open_bare(root.parent, root, tasks)
        if not root.is_dir():
            raise DomainDirError(root, "not a directory" if not root.exists() else "not a directory or file")
        domain_file = root / "domain.pddl"
        meta = _read_toml(root / "domain.toml") if (root / "domain.toml").is_file() else {}
        if not domain_file.is_file():
            # IPC-style folders name the domain file freely (ferry-domain.pddl): one domain file is enough
            domains = [p for p in _pddl_files(root) if (pddl_kind(p) or ("", ""))[0] == "domain"]
            if len(domains) != 1:
                raise DomainDirError(root, f"missing domain.pddl ({EXPECTED})")
            return cls._open_bare(root, domains[0], tasks, meta)
        if tasks:
            return cls._open_bare(root, domain_file, tasks, meta)
        if (root / "debug").is_dir() or (root / "eval").is_dir():
            for sub in ("debug", "eval"):
                if not (root / sub).is_dir():
                    raise DomainDirError(root, f"missing {sub}/ directory (genplan's layout has debug/ and eval/)")
            return cls._from_meta(root, domain_file, meta, GENPLAN)
        if (root / "problems_pddl").is_dir():
            return cls._from_meta(root, domain_file, meta, PAPER)
        return cls._open_bare(root, domain_file, None, meta)

    @classmethod
    def _from_meta(
        cls,
        root: Path,
        domain_file: Path,
        meta: dict[str, Any],
        layout: str,
        task_paths: tuple[Path, ...] = (),
    ) -> DomainDir:
        toml_file = root / "domain.toml"
        name = _optional(meta, "name", str, toml_file)
        if name is None:
            kind = pddl_kind(domain_file)
            name = kind[1] if kind and kind[0] == "domain" else root.name
        typed = _optional(meta, "typed_objects", bool, toml_file)
        return cls(
            path=root,
            name=name,
            typed_objects=_declares_types(domain_file) if typed is None else typed,
            description=_optional(meta, "description", str, toml_file) or "",
            notes=_optional(meta, "notes", str, toml_file) or "",
            layout=layout,
            domain_path=domain_file if layout == BARE else None,
            task_paths=task_paths,
            variant=_optional(meta, "variant", str, toml_file) or "",
        )

    @classmethod
    def _open_bare(
        cls, root: Path, domain_file: Path, tasks: Sequence[Path | str] | None, meta: dict[str, Any] | None = None
    ) -> DomainDir:
        if meta is None:
            toml_file = root / "domain.toml"
            meta = _read_toml(toml_file) if toml_file.is_file() else {}
        if tasks:
            found = [Path(t) for t in tasks]
            for task in found:
                if not task.is_file():
                    raise DomainDirError(task, "no such problem file")
        else:
            found = [p for p in [*_pddl_files(root), *_pddl_files(root / "problems")] if p != domain_file]
            found = [p for p in found if (pddl_kind(p) or ("", ""))[0] == "problem"]
            if not found:
                where = root if domain_file.name == "domain.pddl" else domain_file
                raise DomainDirError(where, f"no problem files found; {EXPECTED}")
        return cls._from_meta(root, domain_file, meta, BARE, tuple(found))

    @property
    def anonymized(self) -> bool:
        """Every name is numbered (``genplan anonymize``): the prompts must not rely on names meaning anything."""
        return self.variant == "anonymized"

    # ------------------------------------------------------------------- files
    @property
    def domain_file(self) -> Path:
        return self.domain_path or self.path / "domain.pddl"

    @property
    def generator_file(self) -> Path:
        return self.path / "generator.py"

    @property
    def has_generator(self) -> bool:
        return self.layout == GENPLAN and self.generator_file.is_file()

    def debug_tasks(self) -> list[Path]:
        if self.layout == PAPER:
            return self._paper_debug_tasks()
        if self.layout == BARE:
            return list(self.task_paths[:BARE_DEBUG_TASKS])
        return _pddl_files(self.path / "debug")

    def eval_tasks(self) -> list[Path]:
        if self.layout == PAPER:
            return self._paper_eval_tasks()
        if self.layout == BARE:
            rest = list(self.task_paths[BARE_DEBUG_TASKS:])
            return rest or list(self.task_paths)
        return _pddl_files(self.path / "eval")

    def probe_tasks(self) -> list[Path]:
        return _pddl_files(self.path / "probes") if self.layout == GENPLAN else []

    def all_tasks(self) -> list[Path]:
        """Debug, evaluation and probe tasks, each once."""
        seen: dict[Path, None] = {}
        for task in (*self.debug_tasks(), *self.eval_tasks(), *self.probe_tasks()):
            seen.setdefault(task, None)
        return list(seen)

    def find_task(self, name: str) -> Path | None:
        """A task of this source by file name or stem (``instance-3``, ``task-00.pddl``, ``debug/task-00``)."""
        candidate = self.path / name
        if candidate.is_file():
            return candidate
        stem = Path(name).name.removesuffix(".pddl")
        return next((t for t in self.all_tasks() if t.stem == stem), None)

    def task_file(self, task_set: str, index: int) -> Path:
        """Where the generator-made task number ``index`` of ``task_set`` lives (debug/task-03.pddl)."""
        digits = TASK_FILE_DIGITS.get(task_set)
        if digits is None:
            raise ValueError(f"task set {task_set!r} is not produced by the generator")
        return self.path / task_set / f"task-{index:0{digits}d}.pddl"

    # -------------------------------------------------- the paper's benchmark layout
    def _split_file(self, name: str) -> Any:
        path = self.path / name
        if not path.is_file():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, OSError) as exc:
            raise DomainDirError(path, f"not valid JSON: {exc}") from None

    def _problem_files(self, names: list[Any], source: str) -> list[Path]:
        paths = []
        for entry in names:
            if not isinstance(entry, str):
                raise DomainDirError(self.path / source, f"expected task file names, found {entry!r}")
            path = self.path / "problems_pddl" / entry
            if not path.is_file():
                raise DomainDirError(self.path / source, f"names {entry}, which is not in problems_pddl/")
            paths.append(path)
        return paths

    def splits(self) -> dict[str, dict[str, list[Path]]]:
        """The paper's per-seed splits (``seed_splits.json``): seed key -> {"prompt", "validate", "eval"}."""
        data = self._split_file("seed_splits.json") if self.layout == PAPER else None
        if not isinstance(data, dict):
            return {}
        result: dict[str, dict[str, list[Path]]] = {}
        for key, parts in data.items():
            if not isinstance(parts, dict):
                raise DomainDirError(self.path / "seed_splits.json", f"split {key!r} is not an object")
            result[str(key)] = {
                part: self._problem_files(list(names), "seed_splits.json") for part, names in parts.items()
            }
        return result

    def _paper_debug_tasks(self) -> list[Path]:
        debug: dict[Path, None] = {}
        for parts in self.splits().values():
            for part in ("prompt", "validate"):
                for path in parts.get(part, []):
                    debug.setdefault(path, None)
        if not debug:  # no split file: the paper's convention
            for index in range(BARE_DEBUG_TASKS):
                path = self.path / "problems_pddl" / f"instance-{index}.pddl"
                if path.is_file():
                    debug.setdefault(path, None)
        return sorted(debug, key=natural_key)

    def _paper_eval_tasks(self) -> list[Path]:
        data = self._split_file("seed_splits_eval.json")
        if isinstance(data, dict) and isinstance(data.get("split_eval_final"), list):
            return sorted(self._problem_files(data["split_eval_final"], "seed_splits_eval.json"), key=natural_key)
        debug = set(self._paper_debug_tasks())
        return [p for p in _pddl_files(self.path / "problems_pddl") if p not in debug]

    def prompt_task_indices(self, split_seed: int) -> tuple[int, ...] | None:
        """Indices into :meth:`debug_tasks` of the prompt tasks of split seed ``split_seed`` (the paper's
        ``seed_splits.json`` key starting with ``"<seed>-"``); None when the source has no such split."""
        debug = self.debug_tasks()
        for key, parts in self.splits().items():
            if key.split("-")[0] == str(split_seed) and parts.get("prompt"):
                return tuple(debug.index(p) for p in parts["prompt"] if p in debug)
        return None

    def reference_plan(self, task: Path, kind: str = "any") -> Path | None:
        """The plan file the source ships for a task, or None (genplan's and bare layouts ship none).

        ``kind``: "optimal" (the paper's plans_pddl/), "satisficing" (plans_gbfs/, found by GBFS + FF) or
        "any" (optimal if there is one, else satisficing)."""
        if self.layout != PAPER:
            return None
        folders = {"optimal": ("plans_pddl",), "satisficing": ("plans_gbfs",), "any": ("plans_pddl", "plans_gbfs")}
        for folder in folders[kind]:
            plan = self.path / folder / f"{task.stem}_plan.txt"
            if plan.is_file():
                return plan
        return None

    def describe(self) -> str:
        """One line: what was opened and how many tasks it has."""
        what = {GENPLAN: "genplan layout", PAPER: "paper's benchmark layout", BARE: "domain file with problems"}
        return (
            f"{self.name} ({what[self.layout]}): {len(self.debug_tasks())} debug, {len(self.eval_tasks())} "
            f"evaluation tasks{', generator' if self.has_generator else ''}"
        )

    # --------------------------------------------------------------- generator
    def load_generator(self) -> ModuleType:
        """Import generator.py by path (once per DomainDir) and check it defines PARAMETERS and generate."""
        cached = self._generator.get("module")
        if cached is not None:
            return cached
        source = self.generator_file
        if self.layout != GENPLAN or not source.is_file():
            raise DomainDirError(
                self.path, "missing generator.py (only domains in genplan's layout come with an instance generator)"
            )
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
            # Compiled from the source here rather than by the import system, which would leave a __pycache__/
            # folder in the user's domain directory.
            exec(compile(source.read_bytes(), str(source), "exec"), module.__dict__)  # noqa: S102
        except Exception as exc:
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
        except Exception as exc:
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


DEBUG_DRAW_SMALLEST = 16  # the paper: object number and optimal plan length among the 16 smallest values
DEBUG_DRAW_PLANNER_TIMEOUT_S = 20.0


def draw_debug_tasks(
    domain: DomainDir,
    seed: int,
    count: int = BARE_DEBUG_TASKS,
    plan_length: Callable[[Path], int | None] | None = None,
) -> list[Path]:
    """``count`` debug tasks drawn at random (seeded) among the domain's smallest tasks, as the paper does.

    The pool is every task of the source (debug and evaluation tasks). A task qualifies when the optimal
    planner solves it and both its object number and its optimal plan length are among the
    ``DEBUG_DRAW_SMALLEST`` smallest distinct values of the pool (the paper's Appendix). ``plan_length``
    gives a task's optimal plan length (None: unsolved); by default the shipped optimal plan, else the
    optimal planner. The same domain and seed always draw the same tasks, in a seeded random order (the
    prompt tasks are chosen by index among them). Fewer than ``count`` qualifying tasks: all of them."""
    import random

    from genplan.engine.pddl.loader import load_domain, load_problem

    pool = sorted({*domain.debug_tasks(), *domain.eval_tasks()}, key=lambda p: (natural_key(p), str(p)))
    if not pool:
        return []
    pddl_domain = load_domain(domain.domain_file)
    objects = {task: len(load_problem(task, pddl_domain).objects) for task in pool}
    small_objects = set(sorted(set(objects.values()))[:DEBUG_DRAW_SMALLEST])
    candidates = [task for task in pool if objects[task] in small_objects]
    measure = plan_length or (lambda task: _optimal_plan_length(domain, pddl_domain, task))
    lengths = {task: measure(task) for task in candidates}
    solved = {task: length for task, length in lengths.items() if length is not None}
    small_lengths = set(sorted(set(solved.values()))[:DEBUG_DRAW_SMALLEST])
    qualifying = [task for task, length in solved.items() if length in small_lengths]
    rng = random.Random(f"{domain.name}:{seed}")
    return rng.sample(qualifying, min(count, len(qualifying)))


def _optimal_plan_length(domain: DomainDir, pddl_domain: Any, task: Path) -> int | None:
    from genplan.engine.pddl.loader import load_problem
    from genplan.engine.pddl.plans import load_plan
    from genplan.engine.planner import solve

    shipped = domain.reference_plan(task, "optimal")
    if shipped is not None:
        return len(load_plan(shipped))
    result = solve(pddl_domain, load_problem(task, pddl_domain), optimal=True, timeout=DEBUG_DRAW_PLANNER_TIMEOUT_S)
    return len(result.plan) if result.solved and result.plan is not None else None


def list_domains(root: Path | str) -> list[DomainDir]:
    """Every domain directory directly below ``root`` (one with a domain.toml or a domain.pddl), sorted by
    directory name."""
    base = Path(root)
    if not base.is_dir():
        raise DomainDirError(base, "not a directory")
    dirs = sorted(
        p for p in base.iterdir() if p.is_dir() and ((p / "domain.toml").is_file() or (p / "domain.pddl").is_file())
    )
    return [DomainDir.open(p) for p in dirs]


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DomainDirError(path, f"not valid TOML: {exc}") from exc


def _optional(meta: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    if key not in meta:
        return None
    value = meta[key]
    if not isinstance(value, kind):
        raise DomainDirError(path, f"key '{key}' must be a {kind.__name__}, got {type(value).__name__}")
    return value


DOMAIN_TOML_TEMPLATE = (
    "# genplan domain metadata. Every key is optional: without this file genplan takes the name from\n"
    "# domain.pddl, typed_objects from whether the domain declares :types, and an empty description.\n"
    "\n"
    "# The domain's name as genplan shows it (default: the name in \"(define (domain NAME) ...)\").\n"
    'name = "{name}"\n'
    "\n"
    "# Whether generated programs receive objects as (name, type) tuples (true) or as plain names (false;\n"
    "# type information is then only in the init facts). Default: true when the domain declares types.\n"
    "typed_objects = {typed}\n"
    "\n"
    "# One paragraph in natural language: what the domain is. Optional; the pipeline writes its own\n"
    "# natural-language descriptions of the domain and the tasks from the PDDL.\n"
    'description = ""\n'
    "\n"
    "# Anything else worth knowing (restrictions of the tasks, where they come from). Optional.\n"
    'notes = ""\n'
)


def domain_toml_text(source: DomainDir) -> str:
    """A commented domain.toml for ``source`` with its current (inferred) values."""
    return DOMAIN_TOML_TEMPLATE.format(name=json.dumps(source.name)[1:-1], typed=str(source.typed_objects).lower())


def keyed_by_directory(domain: DomainDir) -> DomainDir:
    """The domain as a grid names it: by the ``name`` its domain.toml gives, else by its directory
    (``data/additional/grippers`` is "grippers"), never by the name its PDDL file declares, which two of the
    paper's domains share (``gripper-strips``). Only the grid's keys change (run directories, batch.json,
    tables); the run itself opens the directory as ever."""
    try:
        named = "name" in tomllib.loads((domain.path / "domain.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        named = False
    return domain if named else replace(domain, name=domain.path.resolve().name)
