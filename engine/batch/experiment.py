"""Experiment files: the paper's grid (domains x presets x seeds x models) as a TOML file, checked in full
before anything runs; every problem is reported at once (``ExperimentError``). A ``[games]`` table adds the
grid of the approaches that play a game instead of a domain (PDDLego+, PlanGen): sizes x game seeds x presets x
models."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from genplan.engine.api.budget import Budget, BudgetError
from genplan.engine.api.domains import DomainDir, DomainDirError, keyed_by_directory
from genplan.engine.api.presets import (
    PROMPT_TASKS_BY_SEED,
    Approach,
    Capability,
    ConfigError,
    EvaluationSettings,
    PipelineConfig,
    check_config,
    load_config_file,
    load_preset,
    preset_owner,
    self_evaluation_parameters,
)
from genplan.engine.api.settings import SETTING_NAMES, ModelAccessError, ModelSettings, SettingsError, apply_text_values, resolve_key
from genplan.engine.errors import GenplanError

LABEL_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")
TASK_SETS = ("eval", "debug", "probes")


class ExperimentError(GenplanError):
    """An unusable experiment file; ``problems`` lists every problem found (each one line)."""

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.path = Path(path)
        self.problems = problems
        super().__init__("\n".join(f"{self.path}: {problem}" for problem in problems))


# =====================================================================================  experiment


@dataclass(frozen=True)
class ModelSpec:
    label: str  # the name in the batch directory and the tables
    settings: ModelSettings


class KeptParameters:
    """An approach's parameters as a batch keeps them: a PipelineConfig for an approach whose selected program
    the batch evaluates, a dict for one that evaluates itself."""

    parameters: PipelineConfig | dict[str, Any]

    @property
    def config(self) -> PipelineConfig | None:
        """The configuration a program's evaluation follows (its time limit, function, --faithful toggles)."""
        return self.parameters if isinstance(self.parameters, PipelineConfig) else None

    @property
    def mapping(self) -> dict[str, Any]:
        """The parameters as a dict (a PipelineConfig's fields)."""
        return self.parameters.to_dict() if isinstance(self.parameters, PipelineConfig) else self.parameters


@dataclass(frozen=True)
class PresetSpec(KeptParameters):
    """A preset of the grid: its label, its approach and the approach's parameters for it. Every preset is run
    alike; the registry says whether its runs evaluate themselves (then ``parameters`` is the preset's dict, and
    each entry adds what its run takes of the experiment's evaluation) or leave the program they select to the
    batch's evaluation (then ``parameters`` is the approach's PipelineConfig, the [pipeline] overrides applied;
    split_seed is set per run)."""

    label: str
    approach: str  # the registry's name, e.g. "stein", "autotos"
    parameters: PipelineConfig | dict[str, Any]

    def describe(self) -> dict[str, Any]:
        if isinstance(self.parameters, PipelineConfig):
            return {"label": self.label, "config": self.parameters.to_dict()}
        return {"label": self.label, "config": {"approach": self.approach, **self.parameters}}


@dataclass(frozen=True)
class GameTarget:
    """One game family of a ``[games]`` grid (CoinCollector with 5 rooms): where a domain would be."""

    environment: str  # the approach's target, e.g. "coincollector"
    rooms: int

    @property
    def name(self) -> str:  # the grid's "domain" (directories, tables): coincollector-5
        return f"{self.environment}-{self.rooms}"


@dataclass(frozen=True)
class GamesSpec:
    """The ``[games]`` table: every preset on every game seed of every size."""

    environment: str
    rooms: list[int]
    seeds: list[int]
    presets: list[PresetSpec]

    def describe(self) -> dict[str, Any]:
        return {"environment": self.environment, "rooms": list(self.rooms), "seeds": list(self.seeds),
                "presets": [p.describe() for p in self.presets]}


@dataclass(frozen=True)
class EvalSpec:
    enabled: bool = True
    task_set: str = "eval"
    limit: int = 0  # evaluate on the first `limit` tasks only (0: all)
    orderings: int = 4
    time_limit_s: float = 45.0  # per task and ordering, for every approach (the paper's protocol; Sil included)
    jobs: int = 0  # evaluations at once (0: one per core)
    compare_planner: bool = True
    compare_optimal: bool = True  # also A* + LM-cut (the paper's Tables 6 and 7 report both planners)
    planner_timeout_s: float = 45.0
    memory_mb: int = 2048
    # the optimal planner of compare_optimal: genplan's A* + max(LM-cut, merge-and-shrink), or "lmcut" (A* +
    # LM-cut) when a pipeline preset of the grid runs with --faithful's planner toggle (docs/reproduction.md)
    lm_search: str = "lmcut-max-ms"
    # the satisficing planner of compare_planner: genplan's eager GBFS + FF, or "lazy-preferred" (the reference's
    # lazy GBFS + FF with preferred operators) with --faithful's planner toggle
    ff_search: str = "eager"
    # False with --faithful's no-fallback toggle: the optimal planner's search alone (a refusal is not solved)
    planner_fallback: bool = True
    # the planners' own coverage on the evaluation tasks at these time limits (s); empty: not measured
    planner_coverage: tuple[float, ...] = ()


@dataclass(frozen=True)
class Experiment:
    path: Path
    name: str
    domains: list[DomainDir]
    presets: list[PresetSpec]
    seeds: list[int]
    models: list[ModelSpec]
    evaluation: EvalSpec = field(default_factory=EvalSpec)
    max_concurrent_runs: int = 4
    out: Path | None = None
    games: GamesSpec | None = None  # the [games] grid (PDDLego+, PlanGen trials)
    budget: Budget = field(default_factory=Budget)  # [budget]: caps on the whole batch's model spend

    def describe(self) -> dict[str, Any]:
        """What the batch directory records about the experiment (never an API key)."""
        games = {"games": self.games.describe()} if self.games is not None else {}
        budget = {"budget": self.budget.to_dict()} if self.budget.is_set else {}
        return {**games, **budget,
            "name": self.name,
            "file": str(self.path),
            "domains": [{"name": d.name, "path": str(d.path.resolve())} for d in self.domains],
            "presets": [p.describe() for p in self.presets],
            "seeds": list(self.seeds),
            "models": [{"label": m.label, "settings": m.settings.to_dict()} for m in self.models],
            "evaluation": dict(self.evaluation.__dict__),
            "max_concurrent_runs": self.max_concurrent_runs,
        }


_EXPERIMENT_KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "domains": list,
    "presets": list,
    "seeds": list,
    "eval": bool,
    "eval_tasks": str,
    "eval_limit": int,
    "orderings": int,
    "eval_timeout_s": (int, float),
    "eval_jobs": int,
    "compare_planner": bool,
    "compare_optimal": bool,
    "planner_timeout_s": (int, float),
    "memory_mb": int,
    "planner_coverage": list,
    "max_concurrent_runs": int,
    "out": str,
}
_TYPE_WORDS = {str: "a string", list: "a list", bool: "true or false", int: "an integer", (int, float): "a number"}


def _self_evaluating_spec(approach: Approach[Any], label: str) -> PresetSpec:
    """A preset of an approach that evaluates itself, as the grid runs it: the preset's parameters and its name."""
    return PresetSpec(label, approach.name, {**approach.presets[label], "preset": label})


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file; raise ExperimentError listing every problem."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ExperimentError(file, ["no such file"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExperimentError(file, [f"cannot be read ({exc})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(file, [f"not valid TOML ({exc})"]) from None
    return _Checker(file, data).experiment()


class _Checker:
    """Collects every problem of an experiment file instead of stopping at the first."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def experiment(self) -> Experiment:
        for key in sorted(set(self.data) - {"experiment", "pipeline", "models", "games", "budget"}):
            self.problem(f"unknown table or key '{key}' (known: [experiment], [pipeline], [[models]], [games], "
                         "[budget])")
        budget = Budget()
        if "budget" in self.data:
            try:
                budget = Budget.from_table(self.data["budget"], "caps")
            except BudgetError as exc:
                self.problem(str(exc).removeprefix("caps: "))
        table = self.data.get("experiment")
        if not isinstance(table, dict):
            self.problem("missing the [experiment] table")
            table = {}
        values = self.typed_values(table)
        domains = self.domains(values.get("domains"))
        presets = self.presets(values.get("presets"), self.data.get("pipeline", {}), values.get("eval_tasks", "eval"))
        seeds = self.seeds(values.get("seeds", [1, 2, 3]))
        models = self.models(self.data.get("models"))
        games = self.games(self.data.get("games"))
        evaluation = _planner_of(self.evaluation(values, domains), presets)
        name = values.get("name", self.path.stem)
        if not LABEL_PATTERN.match(name):
            self.problem(f"[experiment] name must be a short label (letters, digits, . _ + -), got {name!r}")
        max_runs = values.get("max_concurrent_runs", 4)
        if max_runs < 1:
            self.problem(f"[experiment] max_concurrent_runs must be at least 1, got {max_runs}")
        if self.problems:
            raise ExperimentError(self.path, self.problems)
        out = values.get("out")
        return Experiment(
            path=self.path,
            name=name,
            domains=domains,
            presets=presets,
            seeds=seeds,
            models=models,
            evaluation=evaluation,
            max_concurrent_runs=max_runs,
            out=self.resolve(out) if out else None,
            games=games,
            budget=budget,
        )

    def typed_values(self, table: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, value in table.items():
            kind = _EXPERIMENT_KEYS.get(key)
            if kind is None:
                self.problem(f"[experiment] unknown key '{key}' (known: {', '.join(_EXPERIMENT_KEYS)})")
            elif isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
                self.problem(f"[experiment] {key} must be {_TYPE_WORDS[kind]}, got {value!r}")
            else:
                values[key] = value
        if "games" not in self.data or "domains" in table or "presets" in table:  # [games] alone is a grid too
            for required in ("domains", "presets"):
                if required not in table:
                    self.problem(f"[experiment] missing '{required}'")
        return values

    def resolve(self, text: str) -> Path:
        """Paths are relative to the experiment file's directory (or the working directory)."""
        candidate = Path(text).expanduser()
        if candidate.is_absolute():
            return candidate
        beside = self.path.parent / candidate
        return beside if beside.exists() or not candidate.exists() else candidate

    def domains(self, entries: list[Any] | None) -> list[DomainDir]:
        if entries is None:
            return []
        if not entries:
            self.problem("[experiment] domains is empty")
        opened: list[DomainDir] = []
        for entry in entries:
            if not isinstance(entry, str):
                self.problem(f"[experiment] domains: {entry!r} is not a path")
                continue
            try:
                domain = DomainDir.open(self.resolve(entry))
            except DomainDirError as exc:
                self.problem(f"domain '{entry}': {exc}")
                continue
            if not domain.debug_tasks():
                self.problem(f"domain '{entry}': no debug tasks in {domain.path / 'debug'}")
            domain = keyed_by_directory(domain)
            if any(d.name == domain.name for d in opened):
                self.problem(f"domain '{entry}': the directory name '{domain.name}' is listed twice")
            elif not LABEL_PATTERN.match(domain.name):
                self.problem(f"domain '{entry}': its directory name '{domain.name}' cannot name a directory")
            else:
                opened.append(domain)
        return opened

    def presets(self, entries: list[Any] | None, overrides: Any, task_set: Any = "eval") -> list[PresetSpec]:
        if not isinstance(overrides, dict):
            self.problem("[pipeline] must be a table of pipeline settings")
            overrides = {}
        for key in ("preset", "split_seed"):
            if key in overrides:
                what = "[experiment] presets" if key == "preset" else "[experiment] seeds"
                self.problem(f"[pipeline] {key} cannot be overridden (use {what})")
        overrides = {k: v for k, v in overrides.items() if k not in ("preset", "split_seed")}
        known = set(PipelineConfig.__dataclass_fields__)
        for key in sorted(set(overrides) - known):
            self.problem(f"[pipeline] unknown setting '{key}'")
        overrides = {k: v for k, v in overrides.items() if k in known}
        if entries is None:
            return []
        if not entries:
            self.problem("[experiment] presets is empty")
        specs: list[PresetSpec] = []
        for entry in entries:
            if not isinstance(entry, str):
                self.problem(f"[experiment] presets: {entry!r} is not a preset name")
                continue
            owner = preset_owner(entry)
            if owner is not None and owner[0].self_evaluation is not None:
                spec = self.self_evaluating_preset(entry, owner[0], owner[1], task_set)
                if spec is not None and any(s.label == spec.label for s in specs):
                    self.problem(f"preset '{entry}' is listed twice")
                elif spec is not None:
                    specs.append(spec)
                continue
            try:
                if entry.endswith(".toml"):
                    base, label = load_config_file(self.resolve(entry)), Path(entry).stem
                else:
                    base = load_preset(entry)
                    label = base.preset
            except ConfigError as exc:
                self.problem(f"preset '{entry}': {exc}")
                continue
            try:
                # faithful = "all" (docs/reproduction.md) sets its toggles first; the other settings win over it
                if "faithful" in overrides:
                    base = base.faithfully(str(overrides["faithful"]))
                rest = {k: v for k, v in overrides.items() if k != "faithful"}
                config = check_config(PipelineConfig.from_dict({**base.to_dict(), **rest, "preset": label}))
            except (ConfigError, TypeError) as exc:
                self.problem(f"[pipeline] with preset '{label}': {exc}")
                continue
            if any(s.label == label for s in specs):
                self.problem(f"preset '{entry}' is listed twice")
            elif not LABEL_PATTERN.match(label):
                self.problem(f"preset '{entry}': '{label}' cannot name a directory")
            else:
                specs.append(PresetSpec(label, config.approach, config))
        return specs

    def self_evaluating_preset(self, name: str, approach: Approach[Any], label: str, task_set: str) -> PresetSpec | None:
        """A preset of an approach that evaluates itself; None (after a problem) when the approach cannot run on
        domain directories or cannot evaluate itself as the experiment says (the registry's answer)."""
        if not approach.can(Capability.DOMAIN_DIR):
            where = " or list it in [games] presets" if approach.default_target is not None else ""
            self.problem(f"preset '{name}' belongs to {approach.name}, which does not run on domain directories "
                         f"(it has its own command: {approach.command} --preset {label}{where})")
            return None
        try:
            self_evaluation_parameters(approach.name, EvaluationSettings(task_set=task_set))
        except ConfigError as exc:
            self.problem(f"preset '{name}': {exc}")
            return None
        return _self_evaluating_spec(approach, label)

    def games(self, table: Any) -> GamesSpec | None:
        """The [games] table: presets of approaches that play a game, its sizes and seeds."""
        if table is None:
            return None
        if not isinstance(table, dict):
            self.problem("[games] must be a table")
            return None
        known = {"presets", "rooms", "seeds", "environment"}
        for key in sorted(set(table) - known):
            self.problem(f"[games] unknown key '{key}' (known: {', '.join(sorted(known))})")
        environment = table.get("environment", "coincollector")
        presets: list[PresetSpec] = []
        entries = table.get("presets")
        if not isinstance(entries, list) or not entries:
            self.problem("[games] presets must be a non-empty list of preset names (pddlego-detailed, plangen, ...)")
            entries = []
        for entry in entries:
            owner = preset_owner(entry) if isinstance(entry, str) else None
            if owner is None or not owner[0].can(Capability.GAME) or owner[0].default_target is None:
                self.problem(f"[games] presets: {entry!r} is not the preset of an approach that plays a game")
            elif owner[0].default_target != environment:
                self.problem(f"[games] presets: {owner[1]} plays {owner[0].default_target}, not {environment!r}")
            elif any(p.label == owner[1] for p in presets):
                self.problem(f"[games] presets: '{entry}' is listed twice")
            else:
                presets.append(_self_evaluating_spec(*owner))
        rooms = self.integers(table.get("rooms", [11]), "[games] rooms", 1, 11)
        seeds = self.integers(table.get("seeds", [0]), "[games] seeds", 0, None)
        return GamesSpec(str(environment), rooms, seeds, presets)

    def integers(self, entries: Any, what: str, low: int, high: int | None) -> list[int]:
        if not isinstance(entries, list) or not entries:
            self.problem(f"{what} must be a non-empty list of integers")
            return []
        found: list[int] = []
        for value in entries:
            if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
                self.problem(f"{what}: {value!r} is not an integer from {low}" + (f" to {high}" if high else " up"))
            elif value in found:
                self.problem(f"{what}: {value} is listed twice")
            else:
                found.append(value)
        return found

    def time_limits(self, entries: list[Any]) -> tuple[float, ...]:
        limits: list[float] = []
        for value in entries:
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                self.problem(f"[experiment] planner_coverage: {value!r} is not a time limit in seconds (a positive number)")
            elif float(value) not in limits:
                limits.append(float(value))
        return tuple(sorted(limits))

    def seeds(self, entries: Any) -> list[int]:
        if not isinstance(entries, list) or not entries:
            self.problem("[experiment] seeds must be a non-empty list of integers")
            return []
        seeds: list[int] = []
        for seed in entries:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed not in PROMPT_TASKS_BY_SEED:
                self.problem(f"[experiment] seeds: {seed!r} is not one of {sorted(PROMPT_TASKS_BY_SEED)}")
            elif seed in seeds:
                self.problem(f"[experiment] seeds: {seed} is listed twice")
            else:
                seeds.append(seed)
        return seeds

    def models(self, entries: Any) -> list[ModelSpec]:
        if entries is None:
            self.problem("no [[models]] table: name at least one model")
            return []
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            self.problem("models must be [[models]] tables")
            return []
        specs: list[ModelSpec] = []
        for number, table in enumerate(entries, 1):
            label = table.get("name", table.get("model"))
            where = f"[[models]] #{number}" + (f" ({label})" if isinstance(label, str) else "")
            settings = self.model_settings({k: v for k, v in table.items() if k != "name"}, where)
            if not isinstance(label, str) or not LABEL_PATTERN.match(label):
                self.problem(f"{where}: name must be a short label (letters, digits, . _ + -), got {label!r}")
                continue
            if any(s.label == label for s in specs):
                self.problem(f"{where}: the name '{label}' is used twice")
                continue
            if settings is not None:
                specs.append(ModelSpec(label, settings))
        return specs

    def model_settings(self, table: dict[str, Any], where: str) -> ModelSettings | None:
        """engine.llm's own conversion and range checks, one setting at a time so all problems show."""
        settings = ModelSettings()
        bad = False
        for key, value in table.items():
            if key not in SETTING_NAMES:
                self.problem(f"{where}: unknown setting '{key}' (known: name, {', '.join(SETTING_NAMES)})")
                bad = True
                continue
            try:
                settings = apply_text_values(settings, {key: value}, where=lambda name: f"{where}: {name}")
            except SettingsError as exc:
                self.problem(str(exc))
                bad = True
        if not settings.model:
            self.problem(f"{where}: no model (set model = \"...\")")
            return None
        if bad:
            return None
        try:
            resolve_key(settings)
        except ModelAccessError as exc:
            self.problem(f"{where}: {exc}")
            return None
        return settings

    def evaluation(self, values: dict[str, Any], domains: list[DomainDir]) -> EvalSpec:
        spec = EvalSpec(
            enabled=values.get("eval", True),
            task_set=values.get("eval_tasks", "eval"),
            limit=values.get("eval_limit", 0),
            orderings=values.get("orderings", 4),
            time_limit_s=float(values.get("eval_timeout_s", 45.0)),
            jobs=values.get("eval_jobs", 0),
            compare_planner=values.get("compare_planner", True),
            compare_optimal=values.get("compare_optimal", True),
            planner_timeout_s=float(values.get("planner_timeout_s", 45.0)),
            memory_mb=values.get("memory_mb", 2048),
            planner_coverage=self.time_limits(values.get("planner_coverage", [])),
        )
        if spec.task_set not in TASK_SETS:
            self.problem(f"[experiment] eval_tasks must be one of {', '.join(TASK_SETS)}, got {spec.task_set!r}")
        for key, value, minimum in (
            ("eval_limit", spec.limit, 0),
            ("orderings", spec.orderings, 1),
            ("eval_jobs", spec.jobs, 0),
            ("memory_mb", spec.memory_mb, 64),
        ):
            if value < minimum:
                self.problem(f"[experiment] {key} must be at least {minimum}, got {value}")
        if not spec.time_limit_s > 0:
            self.problem(f"[experiment] eval_timeout_s must be positive, got {spec.time_limit_s}")
        if not spec.planner_timeout_s > 0:
            self.problem(f"[experiment] planner_timeout_s must be positive, got {spec.planner_timeout_s}")
        if spec.enabled and spec.task_set in TASK_SETS:
            for domain in domains:
                if not task_files(domain, spec.task_set):
                    self.problem(f"domain '{domain.name}': no {spec.task_set} tasks to evaluate on")
        return spec


def task_files(domain: DomainDir, task_set: str) -> list[Path]:
    return {"eval": domain.eval_tasks, "debug": domain.debug_tasks, "probes": domain.probe_tasks}[task_set]()


def api_key_environment(experiment: Experiment) -> dict[str, str]:
    """The API key variables the models name, as set here (handed to Ray workers)."""
    names = {m.settings.api_key_env for m in experiment.models}
    return {name: os.environ[name] for name in names if os.environ.get(name)}


def with_max_concurrent_runs(experiment: Experiment, value: int | None) -> Experiment:
    return experiment if value is None else replace(experiment, max_concurrent_runs=value)


def _planner_of(evaluation: EvalSpec, presets: list[PresetSpec]) -> EvalSpec:
    """The batch's optimal planner is A* + LM-cut and its satisficing planner lazy GBFS + FF with preferred
    operators when a pipeline preset asks for them (--faithful's planner)."""
    if any(p.config is not None and p.config.lm_search == "lmcut" for p in presets):
        evaluation = replace(evaluation, lm_search="lmcut")
    if any(p.config is not None and p.config.ff_search == "lazy-preferred" for p in presets):
        evaluation = replace(evaluation, ff_search="lazy-preferred")
    if any(p.config is not None and not p.config.planner_fallback for p in presets):
        evaluation = replace(evaluation, planner_fallback=False)
    return evaluation


def with_faithful(experiment: Experiment, spec: str | None) -> Experiment:
    """Every pipeline preset of the experiment with the --faithful toggles of ``spec`` (None: unchanged); a preset
    of an approach that evaluates itself (AutoToS, PDDLego+) has none. With the planner toggle the evaluation's optimal planner is
    A* + LM-cut."""
    if spec is None:
        return experiment
    presets = [replace(p, parameters=p.config.faithfully(spec)) if p.config is not None else p
               for p in experiment.presets]
    return replace(experiment, presets=presets, evaluation=_planner_of(experiment.evaluation, presets))
