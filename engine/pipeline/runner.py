"""The run service of the pipeline approaches (Stein et al.'s strategy refinement and the baselines).

A :class:`Pipeline` is one run: it loads the domain and its debug tasks, starts the approach's ``run`` function
from the registry with itself as that function's :class:`~genplan.engine.approaches.context.PipelineContext`,
and records how the run ended. It offers the approaches the model (through the gateway), the checks
(validator, sandbox), the files (the store) and the event bus, plus the steps several approaches share; the
approaches' own loops live in ``engine/approaches/``. It never knows who watches.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.domainlib import DomainDir
from genplan.engine.errors import RunStopped
from genplan.engine.events import (
    ArtifactCreated,
    DeferredPublisher,
    Event,
    Notice,
    Publish,
    RunFinished,
    RunStarted,
    SelectionMade,
    StepFinished,
    StepStarted,
    ValidationResult,
)
from genplan.engine.extract import extract_nl, extract_plan, extract_plan_as_reference
from genplan.engine.llm import ChatMessage
from genplan.engine.pddl import Domain, load_domain
from genplan.engine.pddl.encoding import PythonTask, render_task
from genplan.engine.pipeline.checks import (
    DebugTask,
    ProgramChecker,
    TaskCheck,
    Version,
    best_version,
    load_debug_tasks,
    validate_model_plan,
)
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.pipeline.conversation import Extractor, assistant, code_extractor, first_block_extractor, or_whole_answer, user
from genplan.engine.pipeline.failures import FailureSelector
from genplan.engine.pipeline.hints import action_hints
from genplan.engine.planner import solve
from genplan.engine.prompts import PromptLibrary
from genplan.engine.runs import layout
from genplan.engine.runs.run import ApproachInfo, Run, RunOutcome, execute
from genplan.engine.runs.status import RunStatus

_BASIC_HEADING = re.compile(
    r"^[\s#*_>]*(domain description|problem\s+(\d+)\s+description)\s*[*_]*\s*:?[*_]*\s*(.*)$", re.IGNORECASE
)


def split_basic_descriptions(answer: str, tasks: int) -> tuple[str, list[str]]:
    """The domain's and each problem's description in an answer to nl_basic (headings "Domain description:"
    and "Problem N description:"). A part the answer lacks is the whole answer, so nothing is lost."""
    parts: dict[str, list[str]] = {}
    current: str | None = None
    for line in answer.splitlines():
        match = _BASIC_HEADING.match(line)
        if match:
            current = "domain" if match.group(2) is None else match.group(2)
            parts[current] = [match.group(3)] if match.group(3).strip() else []
        elif current is not None:
            parts[current].append(line)

    def text(key: str) -> str:
        body = "\n".join(parts.get(key, [])).strip().strip("`").strip()
        return body or answer.strip()

    return text("domain"), [text(str(n)) for n in range(1, tasks + 1)]


# the names earlier code imported from here
__all__ = ["Pipeline", "RunResult", "Version", "assistant", "code_extractor", "user"]

_VERSION_NUMBER = re.compile(r"v(\d+)$")


def _number(label: str) -> int:
    """A version label's number: 4 for ``v04`` and ``c1-v04``."""
    match = _VERSION_NUMBER.search(label)
    return int(match.group(1)) if match else 0

# a pipeline approach's own loop (stein.run, bas.run, sil.run): what it does with its context and checker
PipelineLoopFunction = Callable[[Any, ProgramChecker], None]


@dataclass
class RunResult:
    run_dir: Path
    status: str
    selected_program: Path | None
    debug_solved: int
    debug_total: int
    strategy_versions: int
    programs_generated: int
    totals: dict[str, Any]
    wall_seconds: float
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_dir": str(self.run_dir),
            "status": self.status,
            "selected_program": str(self.selected_program) if self.selected_program else None,
            "debug_solved": self.debug_solved,
            "debug_total": self.debug_total,
            "strategy_versions": self.strategy_versions,
            "programs_generated": self.programs_generated,
            "llm_calls": self.totals.get("calls", 0),
            "cache_hits": self.totals.get("cache_hits", 0),
            "resumed_responses": self.totals.get("resumed", 0),
            "tokens_in": self.totals.get("tokens_in", 0),
            "tokens_out": self.totals.get("tokens_out", 0),
            "cost_usd": round(self.totals.get("cost_usd", 0.0), 6),
            "wall_seconds": round(self.wall_seconds, 3),
            "message": self.message,
        }



def in_threads(calls: list[Callable[[], Any]], workers: int) -> list[Any]:
    """Each call in one of ``workers`` threads; the results in order, the first error (in order) raised once all
    have ended. The threads are daemons and take no further call once the caller has left (ctrl+c while it
    waited): a run interrupted while requests are out ends at once, not when their answers come (the run's
    store takes nothing more from them, ``RunStore.close``)."""
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException | None] = [None] * len(calls)
    pending = iter(range(len(calls)))
    lock = threading.Lock()
    left = threading.Event()

    def work() -> None:
        while not left.is_set():
            with lock:
                index = next(pending, None)
            if index is None:
                return
            try:
                results[index] = calls[index]()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                errors[index] = exc

    threads = [threading.Thread(target=work, name=f"genplan-request-{n}", daemon=True)
               for n in range(max(1, min(workers, len(calls))))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        left.set()
    for error in errors:
        if error is not None:
            raise error
    return results

class Pipeline:
    """A pipeline approach's context on its run: the Run's model, files and events, plus the domain, the debug
    tasks, the versions so far and the steps the approaches share."""

    def __init__(self, run: Run, domain_dir: DomainDir, config: PipelineConfig, approach: ApproachInfo,
                 loop: PipelineLoopFunction | None = None) -> None:
        self.context = run  # the one Run context every approach gets; everything below is the pipeline's layer
        self.domain_dir = domain_dir
        self.config = config
        self.store = run.store
        self.bus = run.bus
        self.gateway = run.gateway
        self.prompts = run.setup.prompts or PromptLibrary()
        self.approach = approach
        self.loop = loop
        base_variant = approach.prompt_variant
        self.variant = f"{base_variant}-reasoning" if run.setup.reasoning else base_variant
        self.feedback_style = approach.feedback_style
        self.controller = run.controller
        self.domain: Domain = load_domain(domain_dir.domain_file)
        self.tasks: list[DebugTask] = load_debug_tasks(self.domain, domain_dir.debug_tasks(), domain_dir.typed_objects)
        self.strategies: list[Version] = []
        self.programs: list[Version] = []
        self.domain_nl = ""
        # "continue with this task" (the TUI): tasks the run gets as debug tasks when the version it continues
        # from is checked, so that everything before stays as it was
        meta = self.store.meta() if layout.is_run_dir(self.store.path) else {}
        self._extra_tasks: list[str] = [str(f) for f in meta.get("extra_debug_tasks") or []]
        self._extra_tasks_at = meta.get("edited_version")
        self._answer = threading.local()  # per thread: the id of the last answer extracted

    @classmethod
    def on(cls, run: Run, loop: PipelineLoopFunction) -> Pipeline:
        """The pipeline layer on a run of a pipeline approach (its target: the domain directory; its parameters:
        the PipelineConfig; its approach: the registry's record)."""
        if not isinstance(run.parameters, PipelineConfig):
            raise TypeError(f"a pipeline run needs a PipelineConfig, not {type(run.parameters).__name__}")
        if run.approach is None:
            raise TypeError("a pipeline run needs its approach's record")
        return cls(run, DomainDir.open(Path(run.target)), run.parameters, run.approach, loop)

    # ================================================================== running
    def run(self) -> RunResult:
        """Carry out the run (one process at a time per run directory: RunBusy otherwise)."""
        result: RunResult = execute(self.context, lambda _run: self.outcome()).value
        return result

    def outcome(self) -> RunOutcome:
        """The approach's loop on this context, and how it ended (a stop is an ending, an error is raised)."""
        start = time.monotonic()
        self.bus.publish(RunStarted(
            domain=self.domain_dir.name,
            preset=self.config.preset,
            approach=self.config.approach,
            debug_tasks=[t.name for t in self.tasks],
        ))
        checker = ProgramChecker(
            self.domain, self.tasks, self.config.program_timeout_s, self.config.function_name, self.feedback_style,
            orderings=self.config.debug_orderings, import_check=self.config.import_check,
            ordered_sets=self.config.ordering_style == "ordered-sets",
            redraw_seed=self.config.split_seed if self.config.ordering_draws == "per-check" else None,
        )
        if self.config.get_plan_accepted and self.config.function_name != "get_plan":
            checker.also_accepted = ("get_plan",)  # --faithful's get-plan: the reference runs either function
        if self.loop is None:
            raise TypeError("this pipeline context was made without the approach's loop")
        try:
            self.loop(self, checker)
            status, message = RunStatus.FINISHED, ""
        except RunStopped as exc:  # a person stopped it, in step mode or when answering
            status, message = RunStatus.STOPPED, str(exc)
        finally:
            checker.close()
        result = self._result(status, message, time.monotonic() - start)
        summary = result.to_dict()
        return RunOutcome(RunStatus(status), RunFinished(**summary), summary=summary, value=result)

    def _result(self, status: str, message: str, seconds: float) -> RunResult:
        # Silver et al. use the last program; everyone else selects on the debug tasks
        best = self.programs[-1] if self.approach.select_last and self.programs else self.best(self.programs)
        return RunResult(
            run_dir=self.store.path,
            status=status,
            selected_program=self.store.file(best.file) if best else None,
            debug_solved=best.solved if best else 0,
            debug_total=len(self.tasks),
            strategy_versions=len(self.strategies),
            programs_generated=len(self.programs),
            totals=self.gateway.totals.to_dict(),
            wall_seconds=seconds,
            message=message,
        )

    best = staticmethod(best_version)

    # ================================================================== model access
    def system(self) -> ChatMessage:
        return ChatMessage("system", self.prompts.render("system", self.variant))

    def render(self, name: str, **variables: Any) -> str:
        if self.config.reference_prompts:  # --faithful's prompt content (docs/reproduction.md)
            variables = {"reference_prompts": True, **variables}
        return self.prompts.render(name, self.variant, **variables)

    def reserve_ids(self) -> list[int]:
        return [self.context.next_id() for _ in range(1 + self.config.extraction_retries)]

    def ask_extract(
        self,
        step: str,
        messages: list[ChatMessage],
        extractor: Extractor,
        expected: str,
        ids: list[int] | None = None,
        publish: Publish | None = None,
        **context: Any,
    ) -> tuple[Any, list[ChatMessage], str]:
        """Ask, extract; an answer with nothing usable is fed back once. Returns (value|None, history, reason).
        With ``code_extraction = "first-block"`` (--faithful) a program is the first ```python block, else the
        whole answer, and never asked for again."""
        if expected == "code" and self.config.code_extraction == "first-block":
            extractor, ids = first_block_extractor, (ids or [self.context.next_id()])[:1]
        if expected == "strategy" and self.config.answer_extraction == "reference":
            extractor = or_whole_answer(extractor)
        ids = ids or self.reserve_ids()
        reason = ""
        for attempt, request_id in enumerate(ids):
            response = self.context.ask(step, messages, request_id=request_id, publish=publish, **context)
            if response.truncated:
                (publish or self.bus.publish)(Notice(
                    level="warning", request_id=request_id,
                    message=f"{step}: the answer was cut off by the token limit (max_tokens)",
                ))
            messages = [*messages, assistant(response.text)]
            got = extractor(response.text)
            self._answer.id = request_id  # which answer the next artefact comes from (for forking)
            if got.ok:
                return got.value, messages, ""
            reason = got.reason
            (publish or self.bus.publish)(Notice(
                level="warning", message=f"{step}: nothing usable in the answer ({reason})", request_id=request_id,
            ))
            if attempt + 1 < len(ids):
                messages = [*messages, user(self.render("extraction_failed", expected=expected, reason=reason))]
        return None, messages, reason

    @property
    def concurrency(self) -> int:
        """Step mode needs one request at a time (a person answers them in order); a controller that is
        only watching at the moment lets independent requests run concurrently."""
        if self.controller is None:
            return self.config.max_concurrency
        wants_to_pause = getattr(self.controller, "wants_to_pause", None)
        return self.config.max_concurrency if wants_to_pause is not None and not wants_to_pause() else 1

    def concurrently(self, jobs: list[Callable[[DeferredPublisher], Any]]) -> list[Any]:
        """Run independent jobs at once; their logged events are flushed in job order afterwards."""
        publishers = [DeferredPublisher(self.bus) for _ in jobs]
        if self.concurrency == 1 or len(jobs) == 1:
            results = []
            for job, pub in zip(jobs, publishers):
                results.append(job(pub))
                pub.flush()
            return results
        calls: list[Callable[[], Any]] = [functools.partial(job, pub) for job, pub in zip(jobs, publishers)]
        try:
            results = in_threads(calls, self.concurrency)
        except KeyboardInterrupt:
            raise  # ctrl+c while jobs may still be under way: nothing more of theirs goes on the log
        except BaseException:
            # a job ended the run (a stop, the budget's cap, a model that failed): every job has ended by now, and
            # the answers the others got are on the log, as on disk
            for pub in publishers:
                pub.flush()
            raise
        for pub in publishers:
            pub.flush()
        return results

    @property
    def last_answer_id(self) -> int | None:
        return getattr(self._answer, "id", None)

    def artifact(self, kind: str, relative: str, text: str, request_id: int | None = None, **data: Any) -> str:
        """Write an artefact; its event names the request whose answer it came from, so that an edited
        version can continue the run from exactly there (see store.fork_run)."""
        return self.context.artifact(kind, relative, text,
                                     request_id if request_id is not None else self.last_answer_id, **data)

    def publish(self, event: Event) -> None:
        self.bus.publish(event)

    def write_result(self, relative: str, data: Any) -> None:
        self.store.write_json(relative, data)

    def publish_checks(self, what: str, version: str, checks: list[TaskCheck]) -> None:
        for check in checks:
            self.bus.publish(ValidationResult(
                what=what, version=version, task=check.task, valid=check.solved,
                kind=check.kind, message=check.message, plan=check.output,
            ))

    # ---------------------------------------------------------------- 1) NL
    def nl_phase(self) -> None:
        self.bus.publish(StepStarted(phase="nl"))
        first = [self.system(), user(self.render("nl_domain", domain_pddl=self.domain.source, anonymized=self.domain_dir.anonymized))]
        text, history, _ = self.ask_extract("nl.domain", first, extract_nl, "nl")
        self.domain_nl = text or history[-1].content
        self.artifact("nl_domain", "nl/domain.md", self.domain_nl)
        id_blocks = [self.reserve_ids() for _ in self.tasks]

        def describe(task: DebugTask, ids: list[int]) -> Callable[[DeferredPublisher], tuple[str, int | None]]:
            def job(pub: DeferredPublisher) -> tuple[str, int | None]:
                messages = [*history, user(self.render("nl_task", task_pddl=task.pddl))]
                value, after, _ = self.ask_extract("nl.task", messages, extract_nl, "nl", ids, pub.publish, task=task.name)
                return value or after[-1].content, self.last_answer_id

            return job

        descriptions = self.concurrently([describe(t, ids) for t, ids in zip(self.tasks, id_blocks)])
        for task, (description, answer_id) in zip(self.tasks, descriptions):
            task.nl = description
            self.artifact("nl_task", f"nl/{task.name}.md", description, request_id=answer_id, task=task.name)
        self.bus.publish(StepFinished(phase="nl"))

    def basic_nl_phase(self) -> None:
        """Bas with --faithful (the reference's basic description agent): one request with the PDDL domain and
        the two prompt tasks, answered with the domain's and both tasks' descriptions; then one request per
        further debug task (domain and that task). The domain description of the first answer is kept."""
        self.bus.publish(StepStarted(phase="nl"))
        # with --faithful's extraction toggle each description is asked for once, as the reference's agent
        # does, whatever the answer holds (a part it lacks is the whole answer); else an unusable one is retried
        once = self.config.code_extraction == "first-block"

        def new_ids() -> list[int]:
            return [self.context.next_id()] if once else self.reserve_ids()

        prompt_tasks = self.prompt_tasks()
        first = [self.system(), user(self.render("nl_basic", domain_pddl=self.domain.source,
                                                 tasks=[t.pddl for t in prompt_tasks]))]
        text, history, _ = self.ask_extract("nl.domain", first, extract_nl, "nl", new_ids())
        answer = text or history[-1].content
        domain_nl, task_nls = split_basic_descriptions(answer, len(prompt_tasks))
        self.domain_nl = domain_nl
        self.artifact("nl_domain", "nl/domain.md", self.domain_nl)
        for task, description in zip(prompt_tasks, task_nls):
            task.nl = description
            self.artifact("nl_task", f"nl/{task.name}.md", description, task=task.name)
        others = [t for t in self.tasks if t not in prompt_tasks]
        if self.config.bas_nl_conversation:
            # --faithful's bas-nl: the reference's agent asks for each further task in the same conversation
            # (agents/agent_description_gen_basic.py, generate_descriptions_additional_tasks), one after another
            for task in others:
                messages = [*history, user(self.render("nl_basic", domain_pddl=self.domain.source, tasks=[task.pddl]))]
                value, history, _ = self.ask_extract("nl.task", messages, extract_nl, "nl", new_ids(), task=task.name)
                task.nl = split_basic_descriptions(value or history[-1].content, 1)[1][0]
                self.artifact("nl_task", f"nl/{task.name}.md", task.nl, task=task.name)
            self.bus.publish(StepFinished(phase="nl"))
            return
        id_blocks = [new_ids() for _ in others]

        def describe(task: DebugTask, ids: list[int]) -> Callable[[DeferredPublisher], tuple[str, int | None]]:
            def job(pub: DeferredPublisher) -> tuple[str, int | None]:
                messages = [self.system(), user(self.render("nl_basic", domain_pddl=self.domain.source, tasks=[task.pddl]))]
                value, after, _ = self.ask_extract("nl.task", messages, extract_nl, "nl", ids, pub.publish, task=task.name)
                return split_basic_descriptions(value or after[-1].content, 1)[1][0], self.last_answer_id

            return job

        descriptions = self.concurrently([describe(t, ids) for t, ids in zip(others, id_blocks)])
        for task, (description, answer_id) in zip(others, descriptions):
            task.nl = description
            self.artifact("nl_task", f"nl/{task.name}.md", description, request_id=answer_id, task=task.name)
        self.bus.publish(StepFinished(phase="nl"))

    # ---------------------------------------------------------------- 2) strategy
    def prompt_tasks(self) -> list[DebugTask]:
        # the source's own split (the paper's seed_splits.json) wins over the built-in table
        indices = self.domain_dir.prompt_task_indices(self.config.split_seed) or self.config.prompt_task_indices
        return [self.tasks[i] for i in indices if i < len(self.tasks)] or self.tasks[:2]

    def add_strategy(self, text: str, response_text: str) -> Version:
        # the next number after the highest so far, as the run names it (past a person's edits; a fork from an edit
        # starts at its source's name of the edit)
        label = f"v{max((_number(s.label) for s in self.strategies), default=0) + 1:02d}"
        label = Path(self.context.version_name(f"strategies/{label}.md")).stem
        file = self.artifact("strategy", f"strategies/{label}.md", text, version=label)
        version = Version("strategy", label, text, file, response_text=response_text)
        self.strategies.append(version)
        return version

    def failure_selector(self, salt: int) -> FailureSelector:
        """A fresh selection state per debugging loop, seeded by the split seed and the loop (salt 0 is the
        strategy loop, candidates count from 1)."""
        rule = self.config.failure_selection
        if rule == "reference-code" and salt == 0:
            rule = "reference-code-strategy"  # the reference's strategy debugging knows no error groups
        return FailureSelector(rule, seed=1000 * self.config.split_seed + salt)

    def action_hints(self) -> list[str]:
        return action_hints(list(self.domain.actions.values()), self.config.typed_action_hints)

    def select_strategy(self) -> Version | None:
        best = self.best(self.strategies)
        if best is not None:
            self.bus.publish(SelectionMade(kind="strategy", version=best.label, solved=best.solved, total=len(self.tasks)))
        return best

    def validate_strategy(self, version: Version) -> dict[str, list[ChatMessage]]:
        """2.2: the model plans every debug task by following the strategy; the validator checks the plans."""
        self.bus.publish(StepStarted(phase="strategy-validation", version=version.label))
        outcomes = self.plan_with_strategy(version, self.tasks, "strategy.plan")
        version.checks = [check for check, _ in outcomes]
        self.publish_checks("strategy", version.label, version.checks)
        self.store.write_json(f"results/strategy-{version.label}.json", [c.to_dict() for c in version.checks])
        self.bus.publish(StepFinished(phase="strategy-validation", version=version.label, solved=version.solved))
        return {check.task: history for check, history in outcomes}

    def plan_with_strategy(
        self, version: Version, tasks: list[DebugTask], step: str, template: str = "strategy_plan"
    ) -> list[tuple[TaskCheck, list[ChatMessage]]]:
        """The model plans each task by following the strategy (one request each, concurrently); ``template``
        is the prompt (the final check's own, ``strategy_final_check``, with --faithful)."""
        actions = self.action_hints()
        names = list(self.domain.actions)
        id_blocks = [self.reserve_ids() for _ in tasks]
        reference = self.config.answer_extraction == "reference"  # --faithful's answers: as the reference takes plans

        def plan_job(task: DebugTask, ids: list[int]) -> Callable[[DeferredPublisher], tuple[TaskCheck, list[ChatMessage]]]:
            def job(pub: DeferredPublisher) -> tuple[TaskCheck, list[ChatMessage]]:
                messages = [
                    self.system(),
                    user(
                        self.render(
                            template, domain_nl=self.domain_nl, task_nl=task.nl, pseudocode=version.text, actions=actions
                        )
                    ),
                ]
                plan, history, reason = self.ask_extract(
                    step, messages, extract_plan_as_reference if reference else (lambda t: extract_plan(t, names)),
                    "plan", ids, pub.publish,
                    task=task.name, version=version.label,
                )
                return validate_model_plan(self.domain, task, plan, self.feedback_style, reason), history

            return job

        return self.concurrently([plan_job(t, ids) for t, ids in zip(tasks, id_blocks)])

    # ---------------------------------------------------------------- 3) code
    def example(self, final_check: Mapping[str, TaskCheck] | None = None) -> tuple[DebugTask, list[str]]:
        """A debug task with a correct plan: a prompt task the chosen strategy planned correctly in the final
        check, else one the model planned correctly during strategy validation (latest strategies first),
        else the optimal planner's plan for the first prompt task. With ``example_choice = "latest-plan"``
        (--faithful's selection) only each task's latest plan counts (:meth:`latest_plans`): the first task,
        prompt tasks first, whose latest plan is correct, else the planner's plan for the first prompt task."""
        if self.config.example_choice == "latest-plan":
            latest = self.latest_plans(final_check or {})
            prompt = self.prompt_tasks()
            for task in [*prompt, *(t for t in self.tasks if t not in prompt)]:
                check = latest.get(task.name)
                if check is not None and check.solved and check.output:
                    return task, check.output
        else:
            for task in self.prompt_tasks():
                check = (final_check or {}).get(task.name)
                if check is not None and check.solved and check.output:
                    return task, check.output
            for version in reversed(self.strategies):
                for check in version.checks:
                    if check.solved and check.output:
                        return next(t for t in self.tasks if t.name == check.task), check.output
        task = self.prompt_tasks()[0]
        reference = self.domain_dir.reference_plan(task.path, "optimal")  # a shipped plan spares the planner
        if reference is not None:
            from genplan.engine.pddl.plans import load_plan

            self.bus.publish(Notice(level="info", message=f"example plan for {task.name}: {reference.name}"))
            return task, [step.pddl() for step in load_plan(reference)]
        result = solve(self.domain, task.problem, optimal=True, timeout=60.0, lm_search=self.config.lm_search,
                       fallback=self.config.planner_fallback)
        level = "info" if result.solved else "warning"  # a fault or "unknown" is no plan to show the model
        self.bus.publish(Notice(level=level, message=f"example plan for {task.name}: {result.summary()}"))
        return task, result.plan or []

    def latest_plans(self, final_check: Mapping[str, TaskCheck]) -> dict[str, TaskCheck]:
        """Each task's latest planning with a strategy: the reference keeps one generated plan per task and
        overwrites it on every planning, with None when the plan is invalid (agents/agent_plan_generation.py,
        update_task_plan), so the final check's verdict on a prompt task replaces validation's."""
        latest: dict[str, TaskCheck] = {}
        for version in self.strategies:
            latest.update({c.task: c for c in version.checks})
        latest.update(final_check)
        return latest

    def code_spec(self, example_task: PythonTask, example_plan: list[str] | None) -> dict[str, Any]:
        return {
            "typed_objects": self.domain_dir.typed_objects,
            "predicates": [p.pddl() for p in self.domain.predicates.values()],
            "actions": self.action_hints(),
            "example_task": render_task(example_task),
            "example_plan": example_plan,
        }

    def add_program(
        self, candidate: int, code: str, response_text: str, checker: ProgramChecker, stop_at_first_failure: bool = False
    ) -> Version:
        numbers = [_number(p.label) for p in self.programs if p.label.startswith(f"c{candidate}-")]
        label = f"c{candidate}-v{max(numbers, default=-1) + 1:02d}"
        label = Path(self.context.version_name(f"programs/{label}.py")).stem
        file = self.artifact("program", f"programs/{label}.py", code, version=label, candidate=candidate)
        version = Version("program", label, code, file, response_text=response_text)
        if self._extra_tasks and file == self._extra_tasks_at:
            self._add_debug_tasks([self._run_task(relative) for relative in self._extra_tasks], checker)
            self._extra_tasks = []
        self.bus.publish(StepStarted(phase="program-check", version=label))
        version.checks = checker.check(code, stop_at_first_failure)
        self.publish_checks("program", label, version.checks)
        self.store.write_json(f"results/program-{label}.json", [c.to_dict() for c in version.checks])
        self.bus.publish(StepFinished(phase="program-check", version=label, solved=version.solved))
        self.programs.append(version)
        return version

    # ---------------------------------------------------------------- beyond the paper: counterexamples
    def _run_task(self, relative: str) -> DebugTask:
        """A task file of the run directory as a debug task (named after its file)."""
        path = self.store.file(relative)
        return load_debug_tasks(self.domain, [path], self.domain_dir.typed_objects)[0]

    def _add_debug_tasks(self, tasks: list[DebugTask], checker: ProgramChecker) -> None:
        known = {t.name for t in self.tasks}
        self.tasks.extend(t for t in tasks if t.name not in known)
        checker.tasks = self.tasks

    def add_counterexample(self, version: Version, checker: ProgramChecker) -> bool:
        from genplan.engine.counterexample import SearchBudget
        from genplan.engine.counterexample.record import record_file, search_for_version

        label, config = version.label, self.config
        record = record_file(label)
        self.bus.publish(StepStarted(phase="counterexample", version=label))
        # the debug checks' time limit: a program slower than a shorter limit would be "caught" here, pass the
        # check again, and leave a task in the debug set that says nothing
        budget = SearchBudget(seconds=config.counterexample_seconds, shrink_seconds=config.counterexample_seconds,
                              max_tasks=config.counterexample_max_tasks,
                              orderings=config.debug_orderings, time_limit=config.program_timeout_s)
        # a resumed run reads the record of a search that ran before it was killed
        data, _searched = search_for_version(
            self.store, label, version.file, version.text, config.function_name, self.domain_dir, self.domain,
            seed=config.split_seed, budget=budget, probes=config.counterexample_probes,
        )
        if not data.get("task"):
            self.bus.publish(Notice(level="info", message=(
                f"no counterexample for {label}: it solved all {data.get('tasks_tried')} tasks tried "
                f"({data.get('search_seconds', 0.0):.1f} s)")))
            self.bus.publish(StepFinished(phase="counterexample", version=label, solved=0))
            return False
        task = self._run_task(data["task"])
        original, shrunk = data.get("original_size") or {}, data.get("shrunk_size") or {}
        self.bus.publish(ArtifactCreated(kind="counterexample", file=data["task"], version=label, task=task.name, extra={
            "source": data.get("source"), "record": record, "original_size": original, "shrunk_size": shrunk,
            "shrink_steps": (data.get("shrunk") or {}).get("steps"), "tasks_tried": data.get("tasks_tried"),
        }))
        self.bus.publish(Notice(level="info", message=(
            f"counterexample for {label} ({data.get('source')}), shrunk from {original.get('objects')} to "
            f"{shrunk.get('objects')} objects: debug task {task.name} from now on")))
        self._add_debug_tasks([task], checker)
        self.bus.publish(StepStarted(phase="program-check", version=label))
        version.checks = checker.check(version.text)
        self.publish_checks("program", label, version.checks)
        self.store.write_json(f"results/program-{label}.json", [c.to_dict() for c in version.checks])
        self.bus.publish(StepFinished(phase="program-check", version=label, solved=version.solved))
        self.bus.publish(StepFinished(phase="counterexample", version=label, solved=1))
        return True
