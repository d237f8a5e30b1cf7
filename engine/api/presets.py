"""What a front end offers to start: the approaches and their capabilities, the presets (a pipeline preset's
configuration), the reference-faithful toggles, the configuration a run used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from genplan.engine.approaches import (
    APPROACHES,
    Approach,
    Capability,
    EvaluationSettings,
    RunOptions,
    get_approach,
    preset_owner,
    start_target,
)
from genplan.engine.approaches.presets import check_config, load_config_file, load_preset, preset_names
from genplan.engine.autotos.domains import DOMAINS as AUTOTOS_DOMAINS
from genplan.engine.errors import GenplanError
from genplan.engine.pipeline.config import PROMPT_TASKS_BY_SEED, ConfigError, PipelineConfig
from genplan.engine.pipeline.faithful import FAITHFUL_HELP, FaithfulError, except_spec, faithful_except_help, parse_spec

__all__ = [
    "APPROACHES", "AUTOTOS_DOMAINS", "Approach", "Capability", "ConfigError", "EvaluationSettings", "FAITHFUL_HELP",
    "FaithfulError", "PROMPT_TASKS_BY_SEED", "PipelineConfig", "RunOptions", "approaches", "autotos_generates", "check_config",
    "check_domain_preset", "domain_presets", "evaluates_itself", "except_spec", "faithful_except_help",
    "get_approach", "has_pipeline_settings", "load_config_file", "load_preset", "reruns_versions",
    "self_evaluation_parameters",
    "own_loop_preset", "parse_spec", "preset_names", "preset_owner", "run_config", "start_target",
    "startable_on_domain",
]

DEFAULT_PRESET = "F5-3"  # the configuration of a program that no run made


def approaches() -> list[Approach[Any]]:
    """Every registered approach, in registration order."""
    return list(APPROACHES.values())


def run_config(run_dir: Path | None) -> PipelineConfig:
    """The pipeline configuration a run used (its time limit, function name, approach); for no run, an old or
    hand-edited run.json: the default preset's."""
    from genplan.engine.runs import read_meta

    if run_dir is not None:
        try:
            return PipelineConfig.of_run(read_meta(Path(run_dir)))
        except (OSError, ValueError, TypeError, ConfigError):
            pass
    return load_preset(DEFAULT_PRESET)


def evaluates_itself(approach: str) -> bool:
    """Whether a run of the approach evaluates itself (AutoToS, a game trial), rather than leaving the program it
    selects to be evaluated after it (a batch's evaluation job, ``genplan run --eval``)."""
    return get_approach(approach).self_evaluation is not None


def self_evaluation_parameters(approach: str, asked: EvaluationSettings) -> dict[str, Any]:
    """The parameters that make a run of ``approach`` (one that evaluates itself) evaluate as ``asked``; ConfigError
    (one line) when it cannot."""
    hook = get_approach(approach).self_evaluation
    if hook is None:
        raise ConfigError(f"{approach} does not evaluate its own runs")
    try:
        return dict(hook(asked))
    except GenplanError as exc:
        raise ConfigError(str(exc)) from None


def has_pipeline_settings(preset: str) -> bool:
    """Whether the preset's settings are a pipeline configuration, so a screen offers its limits and the
    reference-faithful toggles (F5-3, Bas, a plug-in's preset); False for AutoToS's, a trial's, or no preset."""
    try:
        load_preset(preset)
    except ConfigError:
        return False
    return True


def reruns_versions(approach: Approach[Any] | None) -> bool:
    """Whether a screen offers rerunning a run's versions: its approach writes programs checked on debug tasks
    (None: a run of before that names no approach, a pipeline run)."""
    return approach is None or approach.can(Capability.PROGRAMS)


def startable_on_domain(approach: Approach[Any]) -> bool:
    """Can a front end opened on a domain directory start this approach (on the directory, or in its game)?"""
    return approach.can(Capability.DOMAIN_DIR) or approach.default_target is not None


def _own_loop_on_domain(approach: Approach[Any]) -> bool:
    """An approach with its own loop (no programs) that a front end opened on a domain directory can start."""
    return not approach.can(Capability.PROGRAMS) and startable_on_domain(approach)


def own_loop_preset(preset: str) -> tuple[Approach[Any], str] | None:
    """(approach, the preset's own spelling) when ``preset`` belongs to an approach with its own loop that a front
    end opened on a domain directory can start (AutoToS, AutoToS+PST, pddlego-detailed, plangen, ...); None for a
    pipeline preset (or none)."""
    owner = preset_owner(preset)
    return owner if owner is not None and _own_loop_on_domain(owner[0]) else None


def domain_presets() -> list[str]:
    """The presets a front end opened on a domain directory offers: the pipeline's, then the own-loop approaches'
    it can start."""
    own = [name for approach in approaches() if _own_loop_on_domain(approach) for name in approach.presets]
    return [*preset_names(), *own]


def check_domain_preset(preset: str) -> str:
    """The preset's own spelling; ConfigError (one line) when no approach has it or it cannot run on a domain."""
    owner = own_loop_preset(preset)
    if owner is not None:
        return owner[1]
    other = preset_owner(preset)
    if other is not None and not other[0].can(Capability.PROGRAMS):
        raise ConfigError(f"preset {other[1]} belongs to {other[0].name}, which runs on no domain directory "
                          f"(it has its own command: {other[0].command} --preset {other[1]})")
    load_preset(preset)
    return preset


def autotos_generates(domain: str) -> bool:
    """Can genplan make the evaluation instances of this AutoToS domain itself (no ``--data`` needed)?"""
    from genplan.engine.autotos.generators import GENERATORS

    return domain in GENERATORS
