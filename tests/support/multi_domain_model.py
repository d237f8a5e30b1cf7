"""A synthetic model serving several domains at once (batch tests): ferry and its costumed twin.

Each request is routed to the synthetic model of its domain. The domain shows in the PDDL of the first
prompts; later prompts carry only the model's own descriptions, so the descriptions it writes are tagged
with ``<<domain:NAME>>`` and the tag travels along with them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

from support.ferry_model import CORRECT_PROGRAM, FERRY, FerryModel, optimal_plans
from support.scripted_server import RecordedRequest, Reply

DOMAINS = FERRY.parent
FERRY_COSTUMED = DOMAINS / "ferry-costumed"

# The correct ferry program in the costume of domains/ferry-costumed (a squirrel carrying nuts).
COSTUMED_PROGRAM = (
    CORRECT_PROGRAM.replace('"at-ferry"', '"squirrel-in"')
    .replace('fact[0] == "at"', 'fact[0] == "lies-in"')
    .replace('fact[0] != "at"', 'fact[0] != "lies-in"')
    .replace("(sail ", "(leap ")
    .replace("(board ", "(grab ")
    .replace("(debark ", "(drop-off ")
)

_TAG = re.compile(r"<<domain:([^>]+)>>")
_PDDL_DOMAIN = re.compile(r"\(:?domain\s+([^\s()]+)\s*\)", re.I)
DESCRIBING_STEPS = ("nl.domain", "baseline.summary")


def domain_model(domain_dir: Path, programs: list[str]) -> FerryModel:
    return FerryModel(programs=programs, plans=optimal_plans(domain_dir))


def ferry_models() -> dict[str, FerryModel]:
    """The synthetic models of domains/ferry and domains/ferry-costumed, both answering correct programs."""
    return {
        "ferry": domain_model(FERRY, [CORRECT_PROGRAM]),
        "ferry-costumed": domain_model(FERRY_COSTUMED, [COSTUMED_PROGRAM]),
    }


class DomainRouter:
    """Sends each request to the model of its domain; thread-safe (batches run requests concurrently)."""

    def __init__(self, models: dict[str, Callable[[RecordedRequest], Reply | str | None]]) -> None:
        self.models = models
        self._lock = threading.Lock()

    @staticmethod
    def domain_of(request: RecordedRequest) -> str | None:
        texts = [str(m.get("content", "")) for m in request.messages]
        for text in texts:
            tagged = _TAG.search(text)
            if tagged:
                return tagged.group(1)
        for text in texts:
            named = _PDDL_DOMAIN.search(text)
            if named:
                return named.group(1).lower()
        return None

    def __call__(self, request: RecordedRequest) -> Reply | str | None:
        name = self.domain_of(request)
        model = self.models.get(name or "")
        if model is None:
            return Reply.error(400, f"synthetic router: no model for domain {name!r}")
        with self._lock:  # the synthetic models count requests per step
            answer = model(request)
        if request.step in DESCRIBING_STEPS and isinstance(answer, str):
            answer = f"{answer} <<domain:{name}>>"
        return answer
