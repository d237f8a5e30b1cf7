"""Does a program generalize beyond the evaluation set? Tasks of growing size from the domain's generator.

A *ladder* is a sequence of sizes: ``--sizes cars=10,40,160`` grows one generator parameter (the others
stay at their defaults, or at ``--set`` values); ``--scale 1,2,4`` grows every size parameter together,
as multiples of the largest value in the domain's eval set (EVAL_SPECS; the default where there is none).
Parameters that are percentages or chances are never scaled (they keep their defaults). At each size, ``tasks_per_size`` seeded
tasks are generated and the program runs on each under several input orderings (a task counts as solved
only if every ordering gives a valid plan). A ladder stops at the first size where the program fails a
task. The domain's hand-written probe tasks (``probes/``: what the generator never makes) are evaluated
separately.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.domainlib import DomainDir, DomainDirError
from genplan.engine.errors import GenplanError
from genplan.engine.evaluation import DEFAULT_ORDERINGS, Evaluator, TaskResult, load_tasks
from genplan.engine.pddl import PddlError, load_domain
from genplan.engine.report.table import COUNT, NUMBER, PERCENT, SECONDS, TEXT, Table
from genplan.engine.sandbox import Limits, Program, Sandbox

DEFAULT_SCALE = (1.0, 2.0, 4.0)
DEFAULT_TASKS_PER_SIZE = 3
DEFAULT_SEED = 50_000  # far from the seeds of the debug (1..) and eval (1000..) sets
SOLVED, FAILED, GENERATOR_ERROR, NOT_RUN = "solved", "failed", "generator-error", "not-run"


class GeneralizeError(GenplanError):
    """Bad sizes or an unusable domain (one line)."""


# =====================================================================================  ladders


@dataclass(frozen=True)
class Step:
    ladder: str  # "cars" or "scale"
    label: str  # "cars=40" or "x2"
    sizes: dict[str, int]


def parse_sizes(texts: list[str]) -> dict[str, list[int]]:
    """``["cars=10,20,40", "locations=5"]`` -> {"cars": [10, 20, 40], "locations": [5]}."""
    ladders: dict[str, list[int]] = {}
    for text in texts:
        name, sep, values = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise GeneralizeError(f"--sizes {text!r}: expected NAME=A,B,C (e.g. cars=10,20,40)")
        try:
            numbers = [int(v) for v in values.split(",") if v.strip()]
        except ValueError:
            raise GeneralizeError(f"--sizes {text!r}: the sizes must be integers") from None
        if not numbers:
            raise GeneralizeError(f"--sizes {text!r}: no sizes given")
        if name in ladders:
            raise GeneralizeError(f"--sizes: {name} is given twice")
        ladders[name] = numbers
    return ladders


def parse_scale(text: str) -> list[float]:
    try:
        factors = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise GeneralizeError(f"--scale {text!r}: expected factors like 1,2,4") from None
    if not factors or any(not (f > 0 and math.isfinite(f)) for f in factors):
        raise GeneralizeError(f"--scale {text!r}: expected positive factors like 1,2,4")
    return factors


def parse_fixed(texts: list[str]) -> dict[str, int]:
    fixed: dict[str, int] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        try:
            fixed[name.strip()] = int(value)
        except ValueError:
            raise GeneralizeError(f"--set {text!r}: expected NAME=INTEGER") from None
        if not sep:
            raise GeneralizeError(f"--set {text!r}: expected NAME=INTEGER")
    return fixed


def is_scalable(name: str, help_text: str) -> bool:
    """Counts of things scale; percentages and chances do not."""
    words = f"{name} {help_text}".lower()
    return not any(word in words for word in ("percent", "chance", "probability", "ratio"))


def eval_maxima(domain_dir: DomainDir) -> dict[str, int]:
    """Per size parameter, the largest value in the eval set (the default where EVAL_SPECS lacks it)."""
    try:
        specs = domain_dir.task_specs("eval")
    except DomainDirError:
        specs = []
    seen: dict[str, list[int]] = {}
    for _seed, sizes in specs:
        for name, value in sizes.items():
            seen.setdefault(name, []).append(value)
    return {name: max(seen.get(name) or [default]) for name, (default, _help) in domain_dir.parameters().items()}


def size_ladders(domain_dir: DomainDir, sizes: dict[str, list[int]], fixed: dict[str, int]) -> list[list[Step]]:
    """One ladder per named parameter, the others at their defaults (or --set values)."""
    base = domain_dir.check_sizes(fixed)  # DomainDirError for unknown names
    domain_dir.check_sizes({name: values[0] for name, values in sizes.items()})
    return [
        [Step(name, f"{name}={value}", {**base, name: value}) for value in values] for name, values in sizes.items()
    ]


def scale_ladder(domain_dir: DomainDir, factors: list[float], fixed: dict[str, int]) -> list[Step]:
    """Every size parameter multiplied by each factor, starting from the eval set's largest values."""
    domain_dir.check_sizes(fixed)
    parameters = domain_dir.parameters()
    maxima = eval_maxima(domain_dir)
    steps = []
    for factor in factors:
        sizes = {}
        for name, (default, help_text) in parameters.items():
            if name in fixed:
                sizes[name] = fixed[name]
            elif is_scalable(name, help_text):
                sizes[name] = max(1, round(maxima[name] * factor))
            else:
                sizes[name] = default
        steps.append(Step("scale", f"x{factor:g}", sizes))
    return steps


# =====================================================================================  running


@dataclass
class StepResult:
    step: Step
    status: str  # solved / failed / generator-error / not-run
    tasks: int = 0
    solved: int = 0
    objects: float | None = None  # mean number of objects of the tasks
    mean_runtime: float | None = None  # seconds per run, over the tasks and orderings that ran
    max_runtime: float | None = None
    mean_plan_length: float | None = None
    failure: str = ""  # the first failure (task: kind: message), or the generator's error
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "ladder": self.step.ladder,
            "label": self.step.label,
            "sizes": self.step.sizes,
            "status": self.status,
            "tasks": self.tasks,
            "solved": self.solved,
            "coverage": self.solved / self.tasks if self.tasks else None,
            "objects": self.objects,
            "mean_runtime": self.mean_runtime,
            "max_runtime": self.max_runtime,
            "mean_plan_length": self.mean_plan_length,
            "failure": self.failure,
            "seconds": self.seconds,
        }


@dataclass
class ProbeResult:
    task: str
    status: str  # solved / failed / unreadable
    kind: str | None = None
    message: str = ""
    runtime: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Generalization:
    program: str
    domain: str
    orderings: int
    time_limit: float
    tasks_per_size: int
    ladders: list[list[StepResult]] = field(default_factory=list)
    probes: list[ProbeResult] | None = None
    seconds: float = 0.0

    @property
    def all_solved(self) -> bool:
        return all(r.status == SOLVED for ladder in self.ladders for r in ladder)

    def to_dict(self) -> dict[str, Any]:
        return {
            "program": self.program,
            "domain": self.domain,
            "orderings": self.orderings,
            "time_limit": self.time_limit,
            "tasks_per_size": self.tasks_per_size,
            "all_sizes_solved": self.all_solved,
            "ladders": [[r.to_dict() for r in ladder] for ladder in self.ladders],
            "probes": [p.to_dict() for p in self.probes] if self.probes is not None else None,
            "seconds": self.seconds,
        }


StepCallback = Callable[[StepResult], None]


def first_line(text: str, limit: int = 160) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    line = lines[-1] if lines and lines[0].startswith("The code raised") else (lines[0] if lines else "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _summarise(step: Step, results: list[TaskResult], seconds: float) -> StepResult:
    runs = [o for r in results for o in r.orderings]
    lengths = [r.plan_length for r in results if r.solved and r.plan_length is not None]
    failed = next((r for r in results if not r.solved), None)
    return StepResult(
        step=step,
        status=FAILED if failed else SOLVED,
        tasks=len(results),
        solved=sum(r.solved for r in results),
        objects=sum(len(r.task.python.objects) for r in results) / len(results) if results else None,
        mean_runtime=sum(o.outcome.runtime for o in runs) / len(runs) if runs else None,
        max_runtime=max((o.outcome.runtime for o in runs), default=None),
        mean_plan_length=sum(lengths) / len(lengths) if lengths else None,
        failure=f"{failed.name}: {failed.error_kind}: {first_line(failed.message)}" if failed else "",
        seconds=seconds,
    )


def generalize(
    program: Program,
    domain_dir: DomainDir,
    ladders: list[list[Step]],
    *,
    tasks_per_size: int = DEFAULT_TASKS_PER_SIZE,
    orderings: int = DEFAULT_ORDERINGS,
    limits: Limits | None = None,
    jobs: int = 0,
    seed: int = DEFAULT_SEED,
    tasks_dir: Path | None = None,
    probes: bool = True,
    on_step: StepCallback | None = None,
) -> Generalization:
    """Evaluate `program` up every ladder (stopping a ladder at its first failing size) and on the probes.

    The generated tasks are written to `tasks_dir` (kept) or to a temporary directory (removed)."""
    if tasks_per_size < 1:
        raise GeneralizeError(f"tasks per size must be at least 1, got {tasks_per_size}")
    limits = limits or Limits()
    jobs = jobs or os.cpu_count() or 1
    started = time.monotonic()
    domain = load_domain(domain_dir.domain_file)
    report = Generalization(program.path or "<program>", domain_dir.name, orderings, limits.time_limit, tasks_per_size)
    with tempfile.TemporaryDirectory(prefix="genplan-generalize-") as scratch, Sandbox(limits) as sandbox:
        root = Path(tasks_dir) if tasks_dir is not None else Path(scratch)

        def evaluate(tasks: list[Any]) -> list[TaskResult]:
            evaluator = Evaluator(domain, tasks, limits=limits, sandbox=sandbox)
            return evaluator.evaluate(program, orderings=orderings, jobs=jobs)

        for number, ladder in enumerate(ladders):
            results: list[StepResult] = []
            stopped = False
            for index, step in enumerate(ladder):
                if stopped:
                    results.append(StepResult(step, NOT_RUN))
                    continue
                step_started = time.monotonic()
                folder = root / step.ladder / step.label.replace("=", "-")
                try:
                    files = _generate(domain_dir, step, folder, seed + 1000 * (100 * number + index), tasks_per_size)
                    tasks = load_tasks(domain, files, domain_dir.typed_objects, root=root)
                except (DomainDirError, PddlError) as exc:
                    result = StepResult(step, GENERATOR_ERROR, failure=str(exc), seconds=time.monotonic() - step_started)
                else:
                    result = _summarise(step, evaluate(tasks), time.monotonic() - step_started)
                stopped = result.status != SOLVED
                results.append(result)
                if on_step:
                    on_step(result)
            report.ladders.append(results)
        if probes:
            report.probes = _probes(domain, domain_dir, evaluate)
    report.seconds = time.monotonic() - started
    return report


def _generate(domain_dir: DomainDir, step: Step, folder: Path, first_seed: int, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for i in range(count):
        path = folder / f"task-{i:02d}.pddl"
        path.write_text(domain_dir.generate(first_seed + i, **step.sizes), encoding="utf-8")
        files.append(path)
    return files


def _probes(domain: Any, domain_dir: DomainDir, evaluate: Callable[[list[Any]], list[TaskResult]]) -> list[ProbeResult]:
    """Each probe on its own: one the parser refuses is reported, not fatal."""
    readable, results = [], []
    for path in domain_dir.probe_tasks():
        try:
            readable.extend(load_tasks(domain, [path], domain_dir.typed_objects, root=domain_dir.path))
        except PddlError as exc:
            results.append(ProbeResult(path.stem, "unreadable", message=str(exc)))
    for result in evaluate(readable) if readable else []:
        results.append(
            ProbeResult(
                Path(result.name).name,
                result.status,
                result.error_kind,
                first_line(result.message),
                result.runtime,
            )
        )
    return sorted(results, key=lambda p: p.task)


# =====================================================================================  tables


def generalization_tables(report: Generalization) -> list[Table]:
    rows = []
    for ladder in report.ladders:
        for r in ladder:
            sizes = " ".join(f"{k}={v}" for k, v in r.step.sizes.items())
            coverage = 100.0 * r.solved / r.tasks if r.tasks else None
            rows.append(
                [r.step.ladder, r.step.label, sizes, r.status, r.tasks, coverage, r.objects, r.mean_runtime,
                 r.max_runtime, r.mean_plan_length, r.failure]
            )
    tables = [
        Table(
            "sizes",
            f"{report.domain}: {report.program} on generated tasks of growing size "
            f"({report.tasks_per_size} per size, {report.orderings} orderings)",
            ["ladder", "step", "sizes", "status", "tasks", "coverage %", "objects", "mean runtime (s)",
             "max runtime (s)", "mean plan length", "first failure"],
            [TEXT, TEXT, TEXT, TEXT, COUNT, PERCENT, NUMBER, SECONDS, SECONDS, NUMBER, TEXT],
            rows,
            ["a ladder stops at its first size with a failed task (later sizes: not-run)"],
        )
    ]
    if report.probes is not None:
        solved = sum(p.status == SOLVED for p in report.probes)
        tables.append(
            Table(
                "probes",
                f"{report.domain}: probe tasks beyond the generator ({solved}/{len(report.probes)} solved)",
                ["probe", "status", "error", "runtime (s)", "message"],
                [TEXT, TEXT, TEXT, SECONDS, TEXT],
                [[p.task, p.status, p.kind, p.runtime, p.message] for p in report.probes],
            )
        )
    return tables
