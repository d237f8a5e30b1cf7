"""Text environments behind one small adapter: reset, step, valid commands, goal reached.

PDDLego+ and PlanGen talk to a partially observable text game only through ``TextEnvironment``.
``CoinCollector`` is the real game of the ``textworld-express`` package (a Java program driven over a
local bridge); ``LoggedEnvironment`` answers from a recorded trial, so published trials of games we cannot
run here (ALFWorld) can still be replayed.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import Any, Protocol

from genplan.engine.feedback import pddlego as feedback

# What the game prints when a command fails; the loop turns these into precise feedback.
_CLOSED_DOOR = "You can't move there, the door is closed."
_ALREADY_OPEN = "That is already open."
_NOT_UNDERSTOOD = "I'm not sure what you mean."


@dataclass(frozen=True)
class StepResult:
    """What one command did. ``error`` is feedback for the model when the command failed in the game;
    ``unrecorded`` means a logged environment has no observation for this command."""

    command: str
    observation: str
    error: str | None = None
    goal_reached: bool = False
    unrecorded: bool = False


class TextEnvironment(Protocol):
    name: str

    def reset(self) -> str:
        """Start the game anew (same layout every time); returns the first observation."""
        ...

    def step(self, command: str) -> StepResult: ...

    def valid_commands(self) -> list[str]: ...

    @property
    def task(self) -> str:
        """The goal in words, as the game states it."""
        ...

    @property
    def goal_reached(self) -> bool: ...


def summarize(observation: str) -> str:
    """The room's name and its exits: what the agent is told each step (furniture is left out)."""
    lines = observation.split("\n")
    if len(lines) == 1:
        return observation
    return lines[0].split(". ")[0] + ". " + lines[1]


def coin_failure(command: str, observation: str) -> str | None:
    """What kind of failure a CoinCollector command met (a key of ``feedback.pddlego.COMMAND_FAILURES``), or
    None when it did not fail; the game's own text is vague, so the kind is read from it."""
    if _CLOSED_DOOR in observation:
        return "closed-door"
    if _ALREADY_OPEN in observation:
        return "already-open"
    if _NOT_UNDERSTOOD in observation:
        if "open door" in command:
            return "no-door"
        if "move" in command:
            return "cannot-move"
        return "not-accepted"
    return None


def coin_feedback(command: str, observation: str) -> str | None:
    """Precise feedback for a failed CoinCollector command, else None."""
    kind = coin_failure(command, observation)
    return None if kind is None else feedback.command_failed(kind, command)


def java_available() -> bool:
    return shutil.which("java") is not None


class EnvironmentUnavailable(RuntimeError):
    """The environment cannot run on this machine (one line saying what is missing)."""


@dataclass
class CoinCollectorConfig:
    """One CoinCollector game as the paper configures it: doors on, no distractor items, train fold."""

    num_locations: int = 11
    seed: int = 0
    include_doors: bool = True
    distractor_items: int = 0
    fold: str = "train"
    step_limit: int = 100

    def game_params(self) -> str:
        return (f"numLocations={self.num_locations},numDistractorItems={self.distractor_items},"
                f"includeDoors={int(self.include_doors)},limitInventorySize=0")


class CoinCollector:
    """The CoinCollector game of textworld-express. Seeing the coin takes it (the paper's rule: the task
    succeeds once the coin appears in an observation), and the game then confirms the task is done."""

    name = "coincollector"

    @staticmethod
    def require_available() -> None:
        """Raise EnvironmentUnavailable (one line) when the game cannot run on this machine."""
        import importlib.util

        if not java_available():
            raise EnvironmentUnavailable(
                "CoinCollector needs a Java runtime (textworld-express runs the game in Java): "
                "install one, e.g. apt-get install default-jre-headless")
        if importlib.util.find_spec("textworld_express") is None:  # pragma: no cover - a dependency of genplan
            raise EnvironmentUnavailable("textworld-express is not installed (pip install textworld-express)")

    def __init__(self, config: CoinCollectorConfig | None = None) -> None:
        self.config = config or CoinCollectorConfig()
        self.require_available()
        try:
            from textworld_express import TextWorldExpressEnv  # type: ignore[import-untyped]
        except ImportError:  # pragma: no cover - a dependency of genplan
            raise EnvironmentUnavailable("textworld-express is not installed (pip install textworld-express)") from None
        self._env: Any = TextWorldExpressEnv(envStepLimit=self.config.step_limit)
        self._env.load(gameName="coin", gameParams=self.config.game_params())
        self._infos: dict[str, Any] = {}
        self._done = False

    def reset(self) -> str:
        observation, self._infos = self._env.reset(seed=self.config.seed, gameFold=self.config.fold,
                                                   generateGoldPath=True)
        self._done = False
        return str(observation)

    def gold_path(self) -> list[str]:
        return [str(a) for a in self._env.getGoldActionSequence()]

    def step(self, command: str) -> StepResult:
        observation, _reward, _done, self._infos = self._env.step(command)
        observation = str(observation)
        if "coin" in observation:
            _, _, _, self._infos = self._env.step("take coin")
            self._done = bool(self._infos.get("tasksuccess"))
            return StepResult(command, observation, None, self._done)
        return StepResult(command, observation, coin_feedback(command, observation))

    def valid_commands(self) -> list[str]:
        return sorted(str(c) for c in self._infos.get("validActions", []))

    @property
    def task(self) -> str:
        return str(self._infos.get("taskDescription", "Find the coin and take it."))

    @property
    def goal_reached(self) -> bool:
        return self._done


@dataclass
class LoggedEnvironment:
    """A game that answers from a recorded trial: the observation that followed each command after the
    same earlier commands since the start. Commands the trial never tried come back ``unrecorded``."""

    name: str
    first_observation: str
    transitions: dict[tuple[str, ...], StepResult]
    commands: list[str] = field(default_factory=list)
    task_text: str = ""
    _history: list[str] = field(default_factory=list)
    _done: bool = False

    def reset(self) -> str:
        self._history = []
        self._done = False
        return self.first_observation

    def step(self, command: str) -> StepResult:
        self._history.append(command)
        recorded = self.transitions.get(tuple(self._history))
        if recorded is None:
            return StepResult(command, "", f"The action '{command}' was never tried in the recorded trial.",
                              unrecorded=True)
        self._done = recorded.goal_reached
        return recorded

    def valid_commands(self) -> list[str]:
        return list(self.commands)

    @property
    def task(self) -> str:
        return self.task_text

    @property
    def goal_reached(self) -> bool:
        return self._done


def alfworld_feedback(command: str, observation: str) -> str | None:
    """ALFWorld answers every impossible command with the same words; say which command it was."""
    if observation.strip().startswith("Nothing happens"):
        return (f"The action '{command}' failed: nothing happened. Check that you are at the right receptacle, "
                "that it is open, and that you hold what the action needs.")
    return None


FEEDBACK = {"coincollector": coin_feedback, "alfworld": alfworld_feedback}
