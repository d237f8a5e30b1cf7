"""Replaying one conversation of Silver et al.'s released cache through genplan's Sil baseline.

The cache holds the model's answers of one conversation as ``<k>-response.txt`` (0: the domain summary,
2: the strategy, 3: the first program, later ones the fixes after feedback). They are given back in order as
the model's answers while genplan's own checks decide what is asked next: when genplan's check finds a
program good where Silver's found a failure, the conversation ends earlier than the log; asking for more
answers than the log holds ends the run with a clear error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from genplan.engine.llm.replay import REPLAY_MODEL, RecordedAnswers, ReplayExhausted

__all__ = ["ENVIRONMENTS", "REPLAY_MODEL", "TABLE_NAMES", "ReplayExhausted", "SilverConversation", "SilverLogError",
           "SilverReplayProvider", "read_conversation"]
# Silver's cache env names -> the benchmark domain (Stein et al.'s names; "Forest" in Silver's tables is hiking)
ENVIRONMENTS = {
    "pg3-trapnewspapers": "delivery",
    "pg3-hiking": "hiking",
    "pg3-manymiconic": "miconic",
    "pg3-spannerlearning": "spanner",
    "pg3-heavypack": "heavy",
}
# Silver et al.'s Table 1 names for the same environments
TABLE_NAMES = {"delivery": "Delivery", "hiking": "Forest", "miconic": "Miconic", "spanner": "Spanner", "heavy": "Heavy"}
_FOLDER = re.compile(r"^(?P<env>.+)_(?P<seed>\d+)_(?P<exp>[A-Za-z0-9-]+)$")


class SilverLogError(Exception):
    """The folder is not one conversation of the cache (one line)."""


@dataclass(frozen=True)
class SilverConversation:
    path: Path
    environment: str  # as in the cache: pg3-hiking, pg3-hiking-ablated, ...
    seed: int
    experiment: str  # chatgpt4, chatgpt3, chatgpt4-no-cot, chatgpt4-no-words
    responses: tuple[str, ...]  # in the order of their numbers

    @property
    def ablated(self) -> bool:
        return self.environment.endswith("-ablated")

    @property
    def domain(self) -> str | None:
        """The benchmark domain this environment corresponds to, or None when it maps to none."""
        return ENVIRONMENTS.get(self.environment.removesuffix("-ablated"))


def read_conversation(folder: str | Path) -> SilverConversation:
    path = Path(folder)
    if not path.is_dir():
        raise SilverLogError(f"{path}: not a directory")
    match = _FOLDER.match(path.name)
    if match is None:
        raise SilverLogError(f"{path}: expected a folder named <env>_<seed>_<exp> (as in the released cache)")
    numbered: list[tuple[int, Path]] = []
    for file in path.glob("*-response.txt"):
        number = file.name.split("-", 1)[0]
        if number.isdigit():
            numbered.append((int(number), file))
    if not numbered:
        raise SilverLogError(f"{path}: no <k>-response.txt files")
    responses = tuple(file.read_text(encoding="utf-8", errors="replace") for _, file in sorted(numbered))
    return SilverConversation(path, match["env"], int(match["seed"]), match["exp"], responses)


class SilverReplayProvider(RecordedAnswers):
    """A Provider whose answers are the conversation's responses, in order."""

    source = "conversation"

    def __init__(self, conversation: SilverConversation) -> None:
        super().__init__(conversation.responses)
        self.conversation = conversation
