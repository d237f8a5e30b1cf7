"""What an approach may use while it runs: the run context.

An approach asks the model and extracts (``ask_extract``), renders prompts of its prompt set (``system``,
``render``), writes artefacts (``artifact``, ``add_strategy``, ``add_program`` — the latter checks the
program too), publishes events (``publish``) and reads the domain and the debug tasks. It never sees the
store, the gateway, the event bus or who watches. ``engine.approaches.stein.Pipeline`` is today's
implementation of this protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from ..domainlib import DomainDir
    from ..extract import Extraction
    from ..llm import ChatMessage
    from ..pddl import Domain
    from ..pipeline.checks import DebugTask, ProgramChecker
    from ..pipeline.config import PipelineConfig
    from .stein import Version


class RunContext(Protocol):
    config: "PipelineConfig"
    domain: "Domain"
    domain_dir: "DomainDir"
    tasks: "list[DebugTask]"
    strategies: "list[Version]"
    programs: "list[Version]"

    # ---------------------------------------------------------------- prompts and the model
    def system(self) -> "ChatMessage": ...

    def render(self, name: str, **variables: Any) -> str: ...

    def ask_extract(
        self,
        step: str,
        messages: "list[ChatMessage]",
        extractor: "Callable[[str], Extraction[Any]]",
        expected: str,
        ids: list[int] | None = None,
        publish: Callable[..., Any] | None = None,
        **context: Any,
    ) -> "tuple[Any, list[ChatMessage], str]": ...

    # ---------------------------------------------------------------- artefacts and checks
    def artifact(self, kind: str, relative: str, text: str, request_id: int | None = None, **data: Any) -> str: ...

    def write_result(self, relative: str, data: Any) -> None: ...

    def add_strategy(self, text: str, response_text: str) -> "Version": ...

    def add_program(
        self,
        candidate: int,
        code: str,
        response_text: str,
        checker: "ProgramChecker",
        stop_at_first_failure: bool = False,
    ) -> "Version": ...

    # ---------------------------------------------------------------- tasks and examples
    def prompt_tasks(self) -> "list[DebugTask]": ...

    def example(self) -> "tuple[DebugTask, list[str]]": ...

    def code_spec(self, example_task: Any, example_plan: list[str]) -> dict[str, Any]: ...

    def best(self, versions: "list[Version]") -> "Version | None": ...

    # ---------------------------------------------------------------- events
    def publish(self, event_type: str, /, **data: Any) -> None: ...
