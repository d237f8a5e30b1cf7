"""What a pipeline approach sees of its run: :class:`PipelineContext`.

A pipeline approach (``stein``, ``bas``, ``sil``, a test's toy) is a function ``run(ctx, checker)``. It asks the
model and extracts (``ask_extract``), renders its prompts (``system``, ``render``), writes artefacts and
results (``artifact``, ``write_result``), checks them (``add_strategy`` / ``validate_strategy`` for strategies,
``add_program`` for programs) and publishes events (``publish``) — through this protocol only, never through
the run's store, gateway or event bus. The run service (:class:`~genplan.engine.pipeline.runner.Pipeline`)
implements it; an import-linter contract keeps ``engine/approaches`` from importing the runner.

The steps more than one approach shares (the NL descriptions, planning with a strategy and validating the
plans, the example plan, the code prompt's domain facts) are offered here too, so that each approach's module
holds only its own loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from genplan.engine.approaches import Capability, RunOptions, get_approach
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.pipeline.conversation import answer_for
from genplan.engine.pipeline.layer import PipelineLoop
from genplan.engine.runs.run import NewRun

if TYPE_CHECKING:
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.events import Event, Publish
    from genplan.engine.llm import ChatMessage
    from genplan.engine.pddl import Domain
    from genplan.engine.pddl.encoding import PythonTask
    from genplan.engine.pipeline.checks import DebugTask, ProgramChecker, TaskCheck, Version
    from genplan.engine.pipeline.conversation import Extractor
    from genplan.engine.pipeline.failures import FailureSelector


class PipelineContext(Protocol):
    """One run of a pipeline approach, as the approach sees it."""

    # ------------------------------------------------------------ what the run is about (read it, do not replace it)
    @property
    def config(self) -> PipelineConfig: ...
    @property
    def domain(self) -> Domain: ...
    @property
    def domain_dir(self) -> DomainDir: ...
    @property
    def tasks(self) -> list[DebugTask]: ...  # the debug tasks (their ``nl`` is filled by ``nl_phase``)
    @property
    def domain_nl(self) -> str: ...  # the domain's NL description ("" before ``nl_phase``)
    @property
    def strategies(self) -> list[Version]: ...  # every strategy version so far, in order
    @property
    def programs(self) -> list[Version]: ...  # every program version so far, in order

    # ------------------------------------------------------------ the model
    def system(self) -> ChatMessage: ...
    def render(self, name: str, **variables: Any) -> str: ...
    def ask_extract(
        self, step: str, messages: list[ChatMessage], extractor: Extractor, expected: str,
        ids: list[int] | None = None, publish: Publish | None = None, **context: Any,
    ) -> tuple[Any, list[ChatMessage], str]:
        """Ask, extract; an answer with nothing usable is fed back (``extraction_retries`` times).
        Returns (the value or None, the conversation with the answer, why nothing was usable)."""
        ...

    # ------------------------------------------------------------ files and events
    def publish(self, event: Event) -> None: ...
    def artifact(self, kind: str, relative: str, text: str, request_id: int | None = None, **data: Any) -> str:
        """Write an artefact in the run directory; its event names the answer it came from."""
        ...
    def write_result(self, relative: str, data: Any) -> None:
        """Write a check result (JSON) in the run directory."""
        ...
    def publish_checks(self, what: str, version: str, checks: list[TaskCheck]) -> None: ...

    # ------------------------------------------------------------ shared steps
    def nl_phase(self) -> None:
        """The NL description of the domain, then of every debug task."""
        ...
    def basic_nl_phase(self) -> None:
        """Bas with --faithful: the reference's basic descriptions (domain plus the two prompt tasks in one
        request, then one request per further debug task)."""
        ...
    def prompt_tasks(self) -> list[DebugTask]:
        """The debug tasks shown in prompts (the split's two)."""
        ...
    def add_strategy(self, text: str, response_text: str) -> Version: ...
    def validate_strategy(self, version: Version) -> dict[str, list[ChatMessage]]:
        """The model plans every debug task by the strategy; the validator checks the plans. Returns each
        task's conversation."""
        ...
    def plan_with_strategy(
        self, version: Version, tasks: list[DebugTask], step: str, template: str = "strategy_plan"
    ) -> list[tuple[TaskCheck, list[ChatMessage]]]: ...
    def select_strategy(self) -> Version | None: ...
    def failure_selector(self, salt: int) -> FailureSelector: ...
    def example(self, final_check: Mapping[str, TaskCheck] | None = None) -> tuple[DebugTask, list[str]]:
        """A debug task with a correct plan, for the code prompt."""
        ...
    def latest_plans(self, final_check: Mapping[str, TaskCheck]) -> dict[str, TaskCheck]:
        """Each task's latest planning with a strategy (the final check's replacing validation's)."""
        ...
    def code_spec(self, example_task: PythonTask, example_plan: list[str] | None) -> dict[str, Any]:
        """The code prompt's domain facts: typed objects, predicates, actions, the example."""
        ...
    def add_program(
        self, candidate: int, code: str, response_text: str, checker: ProgramChecker,
        stop_at_first_failure: bool = False,
    ) -> Version:
        """Write a program version and check it on the debug tasks."""
        ...
    def add_counterexample(self, version: Version, checker: ProgramChecker) -> bool:
        """Search a task ``version`` fails on (a run resumed after the search reads its record instead); if
        one is found, its shrunk task becomes a debug task and ``version`` is checked again. Whether one was."""
        ...


PIPELINE_CAPABILITIES = frozenset({Capability.RESUME, Capability.STEP, Capability.FORK, Capability.DOMAIN_DIR,
                                   Capability.PROGRAMS})


def pipeline_fields(name: str, function_name: str, loop: Callable[[PipelineContext, ProgramChecker], None]
                    ) -> dict[str, Any]:
    """The registry fields every pipeline approach shares: its run (its loop on the pipeline layer built on the
    Run), its typed parameters (a PipelineConfig), its new run's record, how an unfinished run is reopened and
    what an edited file answers in a fork."""

    def parameters(values: Mapping[str, Any]) -> PipelineConfig:
        # "faithful" names the reference-faithful toggles (engine/pipeline/faithful.py): set over the preset, and
        # what a person set besides wins over them (as in a configuration file)
        values = dict(values)
        spec = values.pop("faithful", None)
        config = PipelineConfig.from_dict({"approach": name, "function_name": function_name, **values})
        if not spec:
            return config
        preset = get_approach(name).presets.get(str(values.get("preset")), {})
        given = {k: v for k, v in values.items() if k != "preset" and (k not in preset or preset[k] != v)}
        return replace(config.faithfully(str(spec)), **given)

    return {"run": PipelineLoop(loop), "parameters": parameters, "new_run": _new_run, "reopen": _reopen,
            "edited_answer": _edited_answer, "capabilities": PIPELINE_CAPABILITIES, "take_options": _take_options}


def _take_options(options: RunOptions) -> tuple[dict[str, Any], list[str]]:
    """The run options that are pipeline settings (the seed picks the prompt tasks: split_seed); the memory of
    sandboxed searches is not one (a program's limits are the evaluation's)."""
    names = {"seed": "split_seed", "max_concurrency": "max_concurrency", "faithful": "faithful"}
    given = options.given()
    return {names[key]: value for key, value in given.items() if key in names}, [k for k in given if k not in names]


def _new_run(target: str, config: PipelineConfig) -> NewRun:
    return NewRun({"domain_dir": str(Path(target).resolve()), "config": config.to_dict()})


def _reopen(meta: dict[str, Any]) -> tuple[str, PipelineConfig]:
    return str(meta.get("domain_dir") or ""), PipelineConfig.from_stored(meta.get("config") or {})


def _edited_answer(run_dir: Path, relative: str, kind: str, text: str) -> str:
    return answer_for(kind, text)
