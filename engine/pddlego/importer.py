"""Replay a published PDDLego+ / PlanGen trial: its logged answers, in order, through genplan's own loop.

The game is the real CoinCollector (the seed whose game gives the trial's whole logged observation sequence)
or, for games that cannot run here (ALFWorld), a
logged environment built from the trial's own observations. genplan's parser, planner and game decide the
path; where that path asks for an answer the original run never gave, the replay stops (``out-of-answers``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from genplan.engine.pddlego.environment import (
    FEEDBACK,
    CoinCollector,
    CoinCollectorConfig,
    LoggedEnvironment,
    StepResult,
    TextEnvironment,
)
from genplan.engine.pddlego.loop import PddlegoConfig, TrialResult
from genplan.engine.pddlego.release import GENPLAN, RELEASE, ReleaseSolver, Rules
from genplan.engine.pddlego.runner import ReplayProvider, TrialSpec, play
from genplan.engine.pddlego.solver import PddlSolver
from genplan.engine.pddlego.tiebreak import TieBreakingSolver
from genplan.engine.pddlego.trial_log import TrialLog, parse_trial_log
from genplan.engine.runs import create
from genplan.engine.runs.run import Run, RunSetup, execute

_TRIAL = re.compile(r"_(\d+)_(\d+)\.txt$")


class ImportError_(ValueError):
    """The log cannot be replayed (one line)."""


def coin_seed(log: TrialLog) -> int:
    """The trial's seed: its position among the logs of the same number of locations in its directory
    (the release ran seeds 0, 1, 2, ... per number of locations)."""
    siblings = []
    for path in log.path.parent.glob("*.txt"):
        match = _TRIAL.search(path.name)
        if match and int(match.group(1)) == log.num_locations:
            siblings.append(int(match.group(2)))
    siblings.sort()
    return siblings.index(log.trial) if log.trial in siblings else 0


SEED_CANDIDATES = 100  # seeds 0..99 are tried: the release's runs number trials from 0 or from 1, up to 100 per size


def reproduces(env: CoinCollector, log: TrialLog) -> bool:
    """Whether ``env`` (its seed set) gives the trial's whole logged observation sequence: the first observation,
    then every executed command's observation, with the game reset and the kept commands replayed after a
    failed step as the loop does (loop.py, ``_Trial.restore``); the command that found the coin must find it."""
    if env.reset() != log.first_observation:
        return False
    kept: list[str] = []
    groups: dict[tuple[int, int], list[Any]] = {}
    for record in log.executed:
        groups.setdefault((record.step, record.outer), []).append(record)
    keys = list(groups)
    for index, key in enumerate(keys):
        if index:
            env.reset()
            for command in kept:
                env.step(command)
        failed = False
        for record in groups[key]:
            result = env.step(record.command)
            if record.found_coin != result.goal_reached:
                return False
            if not record.found_coin and result.observation != record.observation:
                return False
            failed = failed or result.error is not None
        last_of_step = index + 1 == len(keys) or keys[index + 1][0] != key[0]
        if last_of_step and not failed:
            kept += [record.command for record in groups[key]]
    return True


_FIRST_OBSERVATIONS: dict[tuple[int, int], str] = {}  # (locations, seed) -> first observation, per process


def _first_observation(env: CoinCollector, locations: int, seed: int) -> str:
    """The game's first observation for ``seed`` (remembered: a batch of imports asks for the same ones)."""
    key = (locations, seed)
    if key not in _FIRST_OBSERVATIONS:
        env.config = replace(env.config, seed=seed)
        _FIRST_OBSERVATIONS[key] = env.reset()
    return _FIRST_OBSERVATIONS[key]


def coin_environment(log: TrialLog, seed: int | None = None) -> tuple[CoinCollector, int]:
    """The real game of the trial and its seed (:func:`coin_game`, without its note)."""
    env, chosen, _note = coin_game(log, seed)
    return env, chosen


def coin_game(log: TrialLog, seed: int | None = None) -> tuple[CoinCollector, int, str | None]:
    """The real game of the trial, its seed, and a note when the log does not decide the seed alone.

    Given ``seed``, that game (its first observation must be the logged one). Else the seed whose game
    reproduces the trial's whole observation sequence (:func:`reproduces`; a first observation alone does not
    tell small games apart) among seeds 0..99 and the trial's position and number. ImportError_ (one line,
    naming --seed) when none does. Where several do (games alike along everything the trial saw), the trial's
    position among the logs of its size is taken if it is one of them, else its number, else the smallest;
    the note says so and names --seed."""
    if seed is not None:
        env = CoinCollector(CoinCollectorConfig(num_locations=log.num_locations, seed=seed))
        if env.reset() != log.first_observation:
            raise ImportError_(f"{log.path.name}: seed {seed} does not give the logged first observation")
        return env, seed, None
    preferred = [coin_seed(log), log.trial]
    order = list(dict.fromkeys([*preferred, *range(SEED_CANDIDATES)]))
    env = CoinCollector(CoinCollectorConfig(num_locations=log.num_locations, seed=order[0]))
    matches = []
    for candidate in order:  # one game, reset with each seed: starting the game is what costs
        if _first_observation(env, log.num_locations, candidate) != log.first_observation:
            continue
        env.config = replace(env.config, seed=candidate)
        if reproduces(env, log):
            matches.append(candidate)
    if not matches:
        raise ImportError_(f"{log.path.name}: no CoinCollector seed in 0..{SEED_CANDIDATES - 1} reproduces the "
                           f"logged observations ({log.num_locations} locations); give the seed with --seed")
    chosen = matches[0]  # in the order tried: position, number, then ascending
    note = None
    if len(matches) > 1:
        why = {preferred[0]: "the trial's position among the logs of its size", preferred[1]: "the trial's number"}
        note = (f"seeds {', '.join(map(str, sorted(matches)))} all reproduce the logged observations; seed {chosen} "
                f"({why.get(chosen, 'the smallest')}) is used; choose another with --seed")
    env.config = replace(env.config, seed=chosen)
    return env, chosen, note


def logged_environment(log: TrialLog, rules: Rules = GENPLAN) -> LoggedEnvironment:
    """A game that answers with the trial's own observations, keyed by the commands since the game's (re)start, in
    the order the loop under ``rules`` sends them: the kept commands of the finished steps, then the attempt's."""
    feedback = FEEDBACK.get(log.environment, FEEDBACK["coincollector"])
    goto_continues = rules.goto_failure_continues(log.environment)
    replays = rules.replay_after_reset(log.environment, log.approach)
    transitions: dict[tuple[str, ...], StepResult] = {}
    kept: list[str] = []
    groups: dict[tuple[int, int], list[Any]] = {}
    for record in log.executed:
        groups.setdefault((record.step, record.outer), []).append(record)
    keys = list(groups)
    for index, key in enumerate(keys):
        if key[1] > 0 and not replays:
            kept = []  # the release's ALFWorld PlanGen started the game again with nothing replayed
        history = list(kept)
        passed = True
        group = groups[key]
        for position, record in enumerate(group):
            history.append(record.command)
            error = None if record.found_coin else feedback(record.command, record.observation)
            transitions[tuple(history)] = StepResult(record.command, record.observation, error, record.found_coin)
            if error is not None:
                last = position + 1 == len(group)
                passed = passed and not (last or not (goto_continues and record.command.startswith("go to")))
        last_of_step = index + 1 == len(keys) or keys[index + 1][0] != key[0]
        if last_of_step and passed:
            kept = history
    return LoggedEnvironment(log.environment, log.first_observation, transitions, log.valid_actions, log.task)


@dataclass
class ImportResult:
    run_dir: Path
    outcome: str
    reason: str
    calls: int
    steps: int
    solver_errors: int
    simulation_errors: int
    log_outcome: str
    log_calls: int
    log_steps: int
    seed: int | None
    seed_note: str | None = None  # several seeds reproduce the trial: which was taken, and --seed

    def to_dict(self) -> dict[str, Any]:
        return {"run_dir": str(self.run_dir), "outcome": self.outcome, "calls": self.calls, "steps": self.steps,
                "solver_errors": self.solver_errors, "simulation_errors": self.simulation_errors}


def import_trial(path: str | Path, root: Path, *, environment: str = "auto", seed: int | None = None,
                 solver: PddlSolver | None = None, planner: str = "auto", ties: str = "logged",
                 rules: Rules = RELEASE) -> ImportResult:
    """Replay the trial log at ``path`` into a new run under ``root``.

    ``environment``: "auto" (the real game where it runs here, else the logged one), "real" or "logged";
    ``planner``: "auto" (genplan's own search, Fast Downward for what it cannot finish quickly),
    "fast-downward" or "builtin"; ``ties``: "logged" (where genplan's plan and the logged one are equally good
    plans of the same files, execute the logged one; see tiebreak.py) or "genplan" (always genplan's own plan);
    ``rules``: the release's rules where its code differed from genplan's loop (release.py; its step limits
    apply either way), or genplan's own. In CoinCollector both are genplan's (measured as faithful as they are).
    """
    log = parse_trial_log(path)
    env: TextEnvironment
    used_seed: int | None = None
    seed_note: str | None = None
    wants_real = environment == "real" or (environment == "auto" and log.environment == "coincollector")
    if wants_real:
        if log.environment != "coincollector":
            raise ImportError_(f"{log.path.name}: only CoinCollector runs here; use the logged environment")
        env, used_seed, seed_note = coin_game(log, seed)
    else:
        env = logged_environment(log, rules)
    mapper = rules.mapper(log.environment)
    style = "simple" if log.goal_type == "subgoal" else "detailed"
    spec = TrialSpec(
        approach=log.approach,
        config=PddlegoConfig(style=style, max_steps=rules.step_limit(log.environment, log.approach),
                             goto_failure_continues=rules.goto_failure_continues(log.environment),
                             replay_after_reset=rules.replay_after_reset(log.environment, log.approach)),
        environment={"name": log.environment, "kind": "real" if wants_real else "logged", "seed": used_seed,
                     "num_locations": log.num_locations if log.environment == "coincollector" else None,
                     "group": log.group},
        preset=f"{'PDDLego+' if log.approach == 'pddlego' else 'PlanGen'}",
        extra={"imported_from": str(log.path), "condition": log.condition, "trial": log.trial, **rules.to_dict(),
               "log": {"outcome": "success" if log.success else "failure", "calls": len(log.calls),
                       "steps": log.steps}},
    )
    provider = ReplayProvider(log.answers(), model=log.model)
    if solver is None and rules.release and log.environment == "alfworld":
        solver = ReleaseSolver(mapper, log, lambda: provider.used, planner=planner)
    elif solver is None:
        solver = (TieBreakingSolver(mapper, log, lambda: provider.used, planner=planner) if ties == "logged"
                  else PddlSolver(mapper, planner=planner))
    # the replay is a run like any other: the recorded answers come through the run's gateway
    store = create(Path(root), {**spec.meta(), "model": {"model": log.model}})
    outcome = execute(Run(store, RunSetup(provider, model={"model": log.model})),
                      lambda run: play(run, env, spec, solver))
    if isinstance(outcome.value, Exception):  # only a replay provider answers: not expected
        raise outcome.value
    result: TrialResult = outcome.value
    if isinstance(solver, TieBreakingSolver) and solver.decisions:
        store.write_json("tie_breaks.json", solver.decisions)  # every plan taken from the log, and why
    metrics = result.to_dict()
    return ImportResult(store.path, result.outcome, result.reason, result.calls, result.steps,
                        metrics["solver_errors"], metrics["simulation_errors"],
                        "success" if log.success else "failure", len(log.calls), log.steps, used_seed, seed_note)
