"""The loops of PDDLego+ and of PlanGen, the LLM-as-planner baseline (Gong et al. 2025).

PDDLego+, per time step: the model writes a domain and a problem file from the observations so far; the
planner plans; a planner error goes back to the model (inner loop, up to ``max_solver_retries``); the plan
is mapped to game commands and executed; a failed command resets the game, replays the commands of the
earlier steps and goes back to the model (outer loop, up to ``max_attempts`` per step). At most
``max_steps`` steps; the trial succeeds when the game says the goal is reached.

PlanGen has the same outer loop, but the model names the command itself (one per call), no PDDL.

The loop knows nothing about who watches: it reports through ``Listener`` and asks the model through
``Ask``; ``runner.py`` connects both to a genplan Run (its gateway, events and files).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from genplan.engine.errors import RunStopped
from genplan.engine.feedback import pddlego as feedback
from genplan.engine.pddlego.environment import StepResult, TextEnvironment, summarize
from genplan.engine.pddlego.solver import PddlSolver, SolverOutcome
from genplan.engine.prompts import PromptLibrary

VARIANT = "pddlego"
SUCCESS, FAILURE = "success", "failure"
# why a failed trial ended
ABORT_SOLVER, ABORT_SIMULATION, STEP_LIMIT, UNRECORDED = "solver", "simulation", "step-limit", "unrecorded"
NO_COMMAND = "no-command"  # PlanGen: the answer named no command


@dataclass(frozen=True)
class PddlegoConfig:
    style: str = "detailed"  # "detailed" (goal template and hints) | "simple" (a coarse recipe)
    fixed_domain: str | None = None  # ablation: the domain file is given; the model writes the problem only
    max_steps: int = 20
    max_attempts: int = 5  # outer loop: executions of a plan per step (the first one and 4 after errors)
    max_solver_retries: int = 5  # inner loop: calls after a planner error, per attempt
    repeat_threshold: int = 3  # warn when the same command sequence ends the history this many times
    # the release's ALFWorld rules (engine/pddlego/release.py), for imports: a 'go to' the game refuses does not end
    # the attempt unless it was the last command; PlanGen did not replay the finished steps after a reset
    goto_failure_continues: bool = False
    replay_after_reset: bool = True


@dataclass
class CallInfo:
    """Where a model call happens: time step, outer attempt and inner retry (all 0-based)."""

    step: int
    attempt: int
    retry: int


class Ask(Protocol):
    def __call__(self, step_name: str, prompt: str, where: CallInfo) -> str: ...


class Listener(Protocol):
    """What the loop reports. Every method has a no-op default in ``SilentListener``."""

    def step_started(self, step: int) -> None: ...
    def attempt_started(self, step: int, attempt: int, replayed: list[str]) -> None: ...
    def files_written(self, where: CallInfo, domain: str | None, problem: str | None) -> None: ...
    def solver_result(self, where: CallInfo, outcome: SolverOutcome) -> None: ...
    def command_executed(self, step: int, attempt: int, result: StepResult) -> None: ...
    def warning(self, step: int, message: str) -> None: ...


class SilentListener:
    def step_started(self, step: int) -> None: ...
    def attempt_started(self, step: int, attempt: int, replayed: list[str]) -> None: ...
    def files_written(self, where: CallInfo, domain: str | None, problem: str | None) -> None: ...
    def solver_result(self, where: CallInfo, outcome: SolverOutcome) -> None: ...
    def command_executed(self, step: int, attempt: int, result: StepResult) -> None: ...
    def warning(self, step: int, message: str) -> None: ...


@dataclass
class TrialResult:
    outcome: str  # SUCCESS | FAILURE
    reason: str  # "" on success, else ABORT_SOLVER | ABORT_SIMULATION | STEP_LIMIT | UNRECORDED
    calls: int
    # per time step, per outer attempt that reached the model: [attempt (1-based), solver retries]
    # (PlanGen: retries always 0) — the shape of the release's result tables
    record: list[list[list[int]]] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)  # every command that was executed and kept
    domain: str | None = None
    problem: str | None = None

    @property
    def steps(self) -> int:
        return len(self.record)

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "reason": self.reason, "calls": self.calls, "steps": self.steps,
                "record": self.record, "commands": self.commands, **metrics_of(self.record, self.outcome == SUCCESS, self.reason)}


def metrics_of(record: list[list[list[int]]], success: bool, reason: str) -> dict[str, int]:
    """The paper's error counts for one trial. At most one solver error per outer attempt and one
    simulation error per step are counted; an error is fixed unless the trial ended on it."""
    solver_errors = solver_fixed = simulation_errors = simulation_fixed = 0
    last_step = len(record) - 1
    for i, attempts in enumerate(record):
        for j, (_, retries) in enumerate(attempts):
            if retries:
                solver_errors += 1
                ended_here = i == last_step and j == len(attempts) - 1 and reason == ABORT_SOLVER
                solver_fixed += 0 if ended_here else 1
        if len(attempts) > 1:
            simulation_errors += 1
            simulation_fixed += 1 if i != last_step or success or reason != ABORT_SIMULATION else 0
    return {"solver_errors": solver_errors, "solver_fixed": solver_fixed, "simulation_errors": simulation_errors,
            "simulation_fixed": simulation_fixed, "abort_solver": int(reason == ABORT_SOLVER),
            "abort_simulation": int(reason == ABORT_SIMULATION)}


def repeats_at_end(commands: list[str], times: int) -> bool:
    """Whether some command sequence occurs ``times`` times back to back at the end of ``commands``."""
    n = len(commands)
    for length in range(1, n // times + 1):
        tail = commands[n - length:]
        if all(commands[n - k * length: n - (k - 1) * length] == tail for k in range(2, times + 1)):
            return True
    return False


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_json_answer(text: str) -> dict[str, Any] | None:
    """The JSON object of an answer: the whole text, a fenced block, or the outermost braces."""
    candidates = [text.strip()]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(text)]
    if "{" in text and "}" in text:
        candidates.append(text[text.index("{"): text.rindex("}") + 1])
    if "</think>" in text:
        candidates.insert(0, text.split("</think>", 1)[1].strip())
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, ValueError):
            continue
        if isinstance(value, dict):
            return value
    return None


def _text_field(answer: dict[str, Any] | None, key: str) -> str | None:
    value = answer.get(key) if answer else None
    return value if isinstance(value, str) and value.strip() else None


class _Trial:
    """State shared by both loops: the game, the history the model is shown, the kept commands."""

    def __init__(self, env: TextEnvironment, listener: Listener, config: PddlegoConfig = PddlegoConfig()) -> None:
        self.env = env
        self.listener = listener
        self.config = config
        first = env.reset()
        self.latest = "Action: look around\n" + summarize(first) + "\n"
        self.history = self.latest
        self.pending_observations: list[str] = []
        self.kept: list[str] = []  # commands of completed steps, replayed after a reset
        self.planned: list[str] = []  # every command any plan contained (for the repetition warning)
        self.calls = 0

    def restore(self) -> None:
        """Back to the state at the start of this step: reset and replay the kept commands (under the release's
        PlanGen rule for ALFWorld: back to the game's start, the kept commands forgotten)."""
        self.env.reset()
        if not self.config.replay_after_reset:
            self.kept = []
        for command in self.kept:
            self.env.step(command)

    def take_observations(self) -> str:
        if self.pending_observations:
            self.latest = "\n".join(self.pending_observations)
            self.pending_observations = []
        return self.latest

    def execute(self, step: int, attempt: int, commands: list[str]) -> tuple[str, str | None]:
        """Run ``commands``; returns ("goal" | "ok" | "error" | "unrecorded", the error message)."""
        memory = ""
        for index, command in enumerate(commands):
            result = self.env.step(command)
            self.listener.command_executed(step, attempt, result)
            if result.unrecorded:
                return "unrecorded", result.error
            if result.goal_reached:
                self.kept.extend(commands[: index + 1])
                return "goal", None
            brief = f"Action: {command}\n{summarize(result.observation)}\n"
            self.pending_observations.append(brief)
            if result.error:
                last = index + 1 == len(commands)
                if last or not (self.config.goto_failure_continues and command.startswith("go to")):
                    return "error", result.error
                continue  # the release went on with the next planned command (its memory skips this one)
            memory += brief
        self.kept.extend(commands)
        self.history += memory
        return "ok", None


def run_pddlego(env: TextEnvironment, ask: Ask, solver: PddlSolver, prompts: PromptLibrary,
                config: PddlegoConfig = PddlegoConfig(), listener: Listener | None = None) -> TrialResult:
    """One PDDLego+ trial in ``env``."""
    record: list[list[list[int]]] = []
    trial = _Trial(env, listener or SilentListener(), config)
    try:
        return _pddlego(trial, ask, solver, prompts, config, record)
    except RunStopped as stop:  # a stop, or no answer to be had: the trial ends as a failure with its reason
        return TrialResult(FAILURE, stop.reason, trial.calls, record, trial.kept)


def _pddlego(trial: _Trial, ask: Ask, solver: PddlSolver, prompts: PromptLibrary, config: PddlegoConfig,
             record: list[list[list[int]]]) -> TrialResult:
    env, listener = trial.env, trial.listener
    domain: str | None = config.fixed_domain
    problem: str | None = None

    def files(where: CallInfo, solver_error: str | None, simulation_error: str | None) -> SolverOutcome:
        nonlocal domain, problem
        common = {"environment": env.name, "style": config.style, "task": env.task,
                  "observation": trial.latest, "commands": _shown_commands(env), "fixed_domain": config.fixed_domain}
        if trial.calls == 0:
            prompt = prompts.render("pddl_initial", VARIANT, **common)
        else:
            prompt = prompts.render("pddl_update", VARIANT, **common, previous_domain=domain or "(none)",
                                    previous_problem=problem or "(none)", history=trial.history,
                                    solver_error=solver_error, simulation_error=simulation_error,
                                    repeating=repeats_at_end(trial.planned, config.repeat_threshold))
        text = ask("pddlego.pddl", prompt, where)
        trial.calls += 1
        answer = parse_json_answer(text)
        if config.fixed_domain is None:
            domain = _text_field(answer, "df")
        problem = _text_field(answer, "pf")
        listener.files_written(where, domain, problem)
        if answer is None:
            outcome = SolverOutcome(None, feedback.not_json())
        else:
            outcome = solver.solve(domain, problem)
        listener.solver_result(where, outcome)
        return outcome

    for step in range(config.max_steps):
        listener.step_started(step)
        attempts: list[list[int]] = []
        record.append(attempts)
        simulation_error: str | None = None
        for attempt in range(config.max_attempts):
            if attempt:
                trial.restore()
            listener.attempt_started(step, attempt, list(trial.kept))
            trial.take_observations()
            outcome = files(CallInfo(step, attempt, 0), None, simulation_error)
            retry = 0
            while not outcome.ok and retry < config.max_solver_retries:
                retry += 1
                outcome = files(CallInfo(step, attempt, retry), outcome.error, simulation_error)
            attempts.append([attempt + 1, retry])
            if not outcome.ok:
                return TrialResult(FAILURE, ABORT_SOLVER, trial.calls, record, trial.kept, domain, problem)
            commands = outcome.commands or []
            trial.planned.extend(commands)
            status, message = trial.execute(step, attempt, commands)
            if status == "goal":
                return TrialResult(SUCCESS, "", trial.calls, record, trial.kept, domain, problem)
            if status == "unrecorded":
                return TrialResult(FAILURE, UNRECORDED, trial.calls, record, trial.kept, domain, problem)
            if status == "ok":
                break
            simulation_error = message
            listener.warning(step, message or "")
        else:
            return TrialResult(FAILURE, ABORT_SIMULATION, trial.calls, record, trial.kept, domain, problem)
    return TrialResult(FAILURE, STEP_LIMIT, trial.calls, record, trial.kept, domain, problem)


def run_plangen(env: TextEnvironment, ask: Ask, prompts: PromptLibrary, config: PddlegoConfig = PddlegoConfig(),
                listener: Listener | None = None) -> TrialResult:
    """One PlanGen trial: the model names the next command; failures go back to it (outer loop only)."""
    record: list[list[list[int]]] = []
    trial = _Trial(env, listener or SilentListener(), config)
    try:
        return _plangen(trial, ask, prompts, config, record)
    except RunStopped as stop:  # a stop, or no answer to be had: the trial ends as a failure with its reason
        return TrialResult(FAILURE, stop.reason, trial.calls, record, trial.kept)


def _plangen(trial: _Trial, ask: Ask, prompts: PromptLibrary, config: PddlegoConfig,
             record: list[list[list[int]]]) -> TrialResult:
    env, listener = trial.env, trial.listener
    for step in range(config.max_steps):
        listener.step_started(step)
        attempts: list[list[int]] = []
        record.append(attempts)
        simulation_error: str | None = None
        for attempt in range(config.max_attempts):
            if attempt:
                trial.restore()
            listener.attempt_started(step, attempt, list(trial.kept))
            trial.take_observations()
            prompt = prompts.render("plangen", VARIANT, environment=env.name, task=env.task,
                                    observation=trial.latest, commands=_shown_commands(env),
                                    history=trial.history, simulation_error=simulation_error)
            text = ask("pddlego.plangen", prompt, CallInfo(step, attempt, 0))
            trial.calls += 1
            answer = parse_json_answer(text)
            attempts.append([attempt + 1, 0])
            raw = answer.get("actions") if answer else None
            commands = [str(c) for c in raw] if isinstance(raw, list) else []
            if not commands:
                return TrialResult(FAILURE, NO_COMMAND, trial.calls, record, trial.kept)
            trial.planned.extend(commands)
            status, message = trial.execute(step, attempt, commands)
            if status == "goal":
                return TrialResult(SUCCESS, "", trial.calls, record, trial.kept)
            if status == "unrecorded":
                return TrialResult(FAILURE, UNRECORDED, trial.calls, record, trial.kept)
            if status == "ok":
                break
            simulation_error = message
            listener.warning(step, message or "")
        else:
            return TrialResult(FAILURE, ABORT_SIMULATION, trial.calls, record, trial.kept)
    return TrialResult(FAILURE, STEP_LIMIT, trial.calls, record, trial.kept)


def _shown_commands(env: TextEnvironment) -> list[str]:
    """The valid commands without the two that never help (looking around again, the inventory)."""
    return [c for c in env.valid_commands() if c not in ("look around", "inventory")]

