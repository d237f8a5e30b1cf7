"""The AutoToS loop: ask for a successor function and a goal test, check them with unit tests, feed the
failures back, and finally solve the evaluation instances with plain search.

Steps (paper, Section 4): 1 the two first prompts; 2 goal unit tests (feedback until they pass); 3 soundness
by search on the unit-test instances (per-call limit, input-mutation check, optional partial soundness
test, and whether a reported goal really is one — a goal failure goes back to step 2); 4 completeness
against known successor sets (a failure goes back to step 3). At most ``max_goal_feedback`` and
``max_succ_feedback`` feedback rounds per function (9 each: 10 calls per function in all).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from genplan.engine.autotos import harness, messages
from genplan.engine.autotos.domains import Instance, SearchDomain
from genplan.engine.autotos.executor import Executor, SandboxOutOfMemory
from genplan.engine.autotos.extract import ExtractedFunction, extract_as_released, extract_function
from genplan.engine.errors import RunStopped
from genplan.engine.feedback import autotos as feedback

# ask(target, prompt, history) -> the model's answer; target is "succ" or "goal".
Ask = Callable[[str, str], str]
CPU_CLOCK_SLACK = 4.0  # with Settings.clock "cpu", the sandbox's wall-clock limits are this many times longer


@dataclass(frozen=True)
class Settings:
    partial_soundness: bool = True  # "+PST"
    # The paper checks every successor generated at an expansion, one equal to a state already seen included;
    # False skips those, as the release's PrOntoQA runs of DeepSeek and Llama did (session.log_settings).
    pst_on_seen_states: bool = True
    max_goal_feedback: int = 9
    max_succ_feedback: int = 9
    call_timeout: float = 1.0  # seconds per succ / goal call
    soundness_timeout: float = 600.0  # seconds per unit-test search (the paper limits every search to 600 s)
    eval_timeout: float = 600.0  # seconds per evaluation search (the paper's limit)
    completeness: bool = True  # step 4 (optional in the paper)
    evaluate: bool = True
    eval_limit: int | None = None  # only the first N evaluation instances
    eval_chunk: int = 64  # instances per sandboxed evaluation run
    search: str = "bfs"  # evaluation search: bfs (dfs for crosswords) or gbfs (greedy, goal count; PDDL family)
    record_transitions: int = 2000  # PDDL family: transitions per unit-test search replayed by the simulator
    # True: validate solutions as the release did where its validation differs from genplan's (BlocksWorld: the
    # actions the states show, not the states; session.log_settings); what only it accepts is counted apart
    release_validation: bool = False
    # How the function is taken out of an answer: "genplan" (the whole first fenced block with a function) or
    # "release" (the AutoToS release's cut, extract.extract_as_released; a syntax error there is a parse error
    # and the first successor function is asked again until one is found, before the goal test is asked)
    extraction: str = "genplan"
    # True: a unit-test search that stopped at a state the goal test accepted but genplan's own goal check
    # rejects fails the goal test (genplan's stricter soundness test). False: as the release tests soundness, the
    # search passes; the state is reported in ``Outcome.findings`` instead
    goal_reached_check: bool = True
    # What call_timeout, soundness_timeout and eval_timeout count: "wall" (seconds on the clock, the paper's
    # rule) or "cpu" (the sandboxed process's CPU seconds: on an idle machine the same, on a busy one the same
    # verdicts, which an import of a published log needs; session.log_settings). With "cpu" the sandbox's own
    # wall-clock limit, a safety net, is CPU_CLOCK_SLACK times longer.
    clock: str = "wall"
    # A unit-test search that filled the sandbox's memory (the search's watermark, harness.MEMORY_WATERMARK) is
    # fed back to the model, and the run goes on. False: as genplan's "search memory" feedback (genplan's words:
    # how many states the search held). True: as the release's "search timeout" (the release had no memory
    # limit: such a search ran on until its time limit; session.log_settings)
    memory_as_timeout: bool = False


@dataclass
class Round:
    """One failed check and the feedback it produced (one model call follows)."""

    number: int  # 1-based, over both functions
    phase: str  # goal | soundness | completeness | parse
    target: str  # the function asked for again: succ | goal
    check: str  # the harness's failure kind
    category: str  # one of feedback.CATEGORIES
    failure: dict[str, Any]
    feedback: str


@dataclass
class Version:
    target: str
    number: int  # 1, 2, ... per function
    name: str | None
    source: str | None  # None when no function could be extracted
    answer: str


@dataclass
class Evaluation:
    solved: int = 0
    failed: int = 0
    timeouts: int = 0  # failed because the search ran out of time (separate from invalid solutions)
    invalid: int = 0  # a solution that the validator rejected
    unsolved: int = 0  # the search ended without a solution
    errors: int = 0  # the functions raised or the run crashed
    expanded: int = 0
    generated: int = 0
    # solved only by the release's validation (release_validation): genplan's own rejects these solutions
    release_only: int = 0
    # of the errors: the search ran out of the sandbox's memory (itself, or in a model function that raised
    # MemoryError), a limit of genplan's that the release did not have (--memory gives more)
    out_of_memory: int = 0
    reasons: dict[str, str] = field(default_factory=dict)  # failed instance -> why (first 50)


@dataclass
class Outcome:
    calls: int = 0
    rounds: list[Round] = field(default_factory=list)
    versions: list[Version] = field(default_factory=list)
    stopped: str | None = None  # "goal" / "succ": an iteration limit ended the run before evaluation
    first_sound_call: int | None = None  # calls when soundness first passed
    evaluation: Evaluation | None = None
    error: str | None = None  # the model could not be used (replay out of answers, endpoint failing): run cut short
    halted: bool = False  # the person stopped the run (before a model call): cut short, not failed
    resumed: int = 0  # answers taken from the run directory (a resumed run) instead of being asked again
    # what genplan's stricter checks found where they were not allowed to steer the run (goal_reached_check off)
    findings: list[str] = field(default_factory=list)

    @property
    def categories(self) -> dict[str, int]:
        return dict(Counter(r.category for r in self.rounds))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["categories"] = self.categories
        return data


class LoopObserver:
    """What the loop tells as it goes (this one tells no one; ``session.RunEvents`` makes the run's events)."""

    def prompt(self, target: str, call: int) -> None:
        """A request for ``target`` is about to be asked (call ``call`` of the run)."""

    def version(self, version: Version) -> None:
        """An answer came, and the function found in it (``version.source`` None: none)."""

    def round(self, round_: Round) -> None:
        """A check failed; its feedback is asked next."""

    def passed(self, check: str) -> None:
        """The goal, soundness or completeness tests passed."""

    def limit(self, target: str, rounds: int) -> None:
        """The feedback rounds of ``target`` are spent: the loop ends before the evaluation."""

    def evaluation(self, done: int, total: int, solved: int, seconds: float) -> None:
        """``done`` of ``total`` evaluation instances searched so far."""


class EvaluationStopped(RunStopped):
    """The person asked to stop while the evaluation ran: ``done`` of ``total`` instances were searched."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"stopped during the evaluation, {done} of {total} instances searched")
        self.done = done
        self.total = total


class AutoToS:
    def __init__(self, domain: SearchDomain, ask: Ask, executor: Executor, settings: Settings | None = None,
                 observer: LoopObserver | None = None, examples: dict[str, Any] | None = None,
                 stop_requested: Callable[[], bool] | None = None) -> None:
        self.domain = domain
        # asked between evaluation chunks (a front end's stop; model calls are stopped by ``ask`` itself)
        self.stop_requested = stop_requested or (lambda: False)
        self.ask = ask
        self.executor = executor
        self.settings = settings or Settings()
        self.observe = observer or LoopObserver()
        self.examples = examples or default_examples(domain)
        self.outcome = Outcome()
        self.functions: dict[str, ExtractedFunction | None] = {"succ": None, "goal": None}
        self.feedback_rounds = {"succ": 0, "goal": 0}

    # ------------------------------------------------------------------ model calls
    def _call(self, target: str, prompt: str) -> None:
        self.observe.prompt(target, self.outcome.calls + 1)
        answer = self.ask(target, prompt)
        self.outcome.calls += 1
        extracted = (extract_as_released(answer, target) if self.settings.extraction == "release"
                     else extract_function(answer, target))
        self.functions[target] = extracted
        number = 1 + sum(1 for v in self.outcome.versions if v.target == target)
        version = Version(target, number, extracted.name if extracted else None,
                          extracted.source if extracted else None, answer)
        self.outcome.versions.append(version)
        self.observe.version(version)

    def _feedback(self, phase: str, failure: dict[str, Any], context: dict[str, Any]) -> bool:
        """Send feedback for ``failure``; False when the function's feedback budget is spent."""
        check = failure["failure"]
        target = "goal" if check in feedback.GOAL_FAILURES or failure.get("target") == "goal" else "succ"
        limit = self.settings.max_goal_feedback if target == "goal" else self.settings.max_succ_feedback
        if self.feedback_rounds[target] >= limit:
            self.outcome.stopped = target
            self.observe.limit(target, self.feedback_rounds[target])
            return False
        self.feedback_rounds[target] += 1
        text = feedback.feedback(self.domain.name, failure, context, self.settings.call_timeout)
        round_ = Round(len(self.outcome.rounds) + 1, phase, target, check,
                       feedback.CATEGORY_OF.get(check, "succ exception"), failure, text)
        self.outcome.rounds.append(round_)
        self.observe.round(round_)
        self._call(target, text)
        return True

    def _spec(self, target: str) -> dict[str, str] | None:
        function = self.functions[target]
        return None if function is None else {"source": function.source, "name": function.name}

    def _request(self, op: str, **fields: Any) -> dict[str, Any]:
        # the goal tests load only the goal test: a fault of the successor code is not the goal test's
        succ = None if op == "goal_tests" else self._spec("succ")
        return {"op": op, "domain": self.domain.name, "call_timeout": self.settings.call_timeout,
                "clock": self.settings.clock, "succ": succ, "goal": self._spec("goal"), **fields}

    def _wall_limit(self, seconds: float) -> float:
        """The sandbox's wall-clock limit for a run whose searches may take ``seconds`` by the settings' clock."""
        return seconds * CPU_CLOCK_SLACK if self.settings.clock == "cpu" else seconds

    def _unusable(self, target: str) -> dict[str, Any] | None:
        """The parse failure of ``target``'s latest answer (no function found, or code that does not compile
        under the release's rule), else None."""
        function = self.functions[target]
        if function is None:
            return {"failure": "parse-error", "target": target}
        if function.syntax_error is not None:
            return {"failure": "parse-error", "target": target, "error": function.syntax_error}
        return None

    # ------------------------------------------------------------------ the checks
    def _goal_tests(self) -> dict[str, Any]:
        unusable = self._unusable("goal")
        if unusable is not None:
            return unusable
        cases = self.domain.goal_cases
        result = self.executor.run(self._request("goal_tests", cases=cases), self._wall_limit(30.0 + len(cases) * 2))
        return self._blame(result, "goal")

    def _soundness(self) -> tuple[dict[str, Any], dict[str, Any]]:
        unusable = self._unusable("succ")
        if unusable is not None:
            return unusable, {}
        instances = [_instance_json(i) for i in self.domain.unit_instances]
        checks_transitions = self.domain.check_transitions is not None
        request = self._request("soundness", instances=instances, pst=self.settings.partial_soundness,
                                pst_on_seen=self.settings.pst_on_seen_states,
                                search_timeout=self.settings.soundness_timeout, depth_first=self.domain.depth_first,
                                record=self.settings.record_transitions if checks_transitions else 0)
        result = self._blame(self.executor.run(request, self._wall_limit(self.settings.soundness_timeout * len(instances) + 30.0)), "succ")
        index = result.get("instance")
        instance = self.domain.unit_instances[index] if isinstance(index, int) and 0 <= index < len(instances) else None
        context = self.domain.context(instance.goal_extra or instance.extra) if instance else {}
        if instance is not None and "grid" in context:
            context = {"grid": instance.extra[0]}
        if result.get("failure") == "search-memory" and self.settings.memory_as_timeout:
            # the release had no memory limit: its search of such a function ran on into its time limit
            result = {**result, "failure": "search-timeout", "stopped_by": "memory"}
        if result.get("failure") == "goal-exception":
            # During the search the goal test only sees states made by succ: an exception there is
            # reported as a fault found while testing the successor function (as the paper's runs do).
            result = {**result, "failure": "succ-exception", "in_goal_test": True}
        if "failure" in result:
            return self._recheck(result), context
        not_goals: list[tuple[str, Any]] = []  # (instance, state) where genplan's goal check was not allowed to steer
        for index, (item, inst) in enumerate(zip(result.get("results", []), self.domain.unit_instances)):
            if checks_transitions:
                # Soundness of every transition the search saw, replayed by genplan's simulator.
                assert self.domain.check_transitions is not None
                unsound = self.domain.check_transitions(index, item.get("transitions") or [])
                if unsound is not None:
                    return unsound, {}
            path = item.get("path")
            if path and not self.domain.reached_goal(inst, path[-1]):
                # The search stopped at a state the goal test accepted, but it is not a goal: goal unsound.
                if self.settings.goal_reached_check:
                    return ({"failure": "goal-wrong", "state": path[-1], "expected": False},
                            self.domain.context(inst.goal_extra or inst.extra))
                not_goals.append((inst.name, path[-1]))
        if not_goals:
            names = ", ".join(name for name, _ in not_goals)
            self.outcome.findings.append(
                f"after call {self.outcome.calls}: the release accepted a goal test that accepts a non-goal state "
                f"(the search stopped at one on unit-test instance{'s' if len(not_goals) > 1 else ''} {names}; "
                f"{not_goals[0][0]}: {_short(not_goals[0][1])})")
        return {"ok": True}, {}

    def _completeness(self) -> tuple[dict[str, Any], dict[str, Any]]:
        cases = self.domain.completeness_cases
        result = self._blame(self.executor.run(self._request("completeness", cases=cases), self._wall_limit(30.0 + 2 * len(cases))), "succ")
        context: dict[str, Any] = {}
        if result.get("failure") == "incomplete":
            extra = result.get("extra") or []
            context = {"grid": extra[0]} if self.domain.name == "sokoban" and extra else self.domain.context(extra)
            known = [c for c in cases if c["state"] == result.get("state")]
            if not known or any(m not in known[0]["successors"] for m in result.get("missing", [])):
                return {"failure": "succ-exception", "error": "the harness reported successors it was not given"}, {}
        return result, context

    def _blame(self, result: dict[str, Any], target: str) -> dict[str, Any]:
        """Map run-level failures (a crash, a sandbox time-out of the whole request) onto the function tested."""
        kind = result.get("failure")
        if kind == "crash":
            return {"failure": f"{target}-exception", "state": None, "error": result.get("error", "crash")}
        if kind == "search-timeout" and target == "goal":
            return {"failure": "goal-timeout", "state": None}
        if kind == "out-of-memory":  # our limit, not the function's failure: the run ends and says how to lift it
            raise SandboxOutOfMemory(int(result["memory_bytes"]))
        if kind == "sandbox":
            raise RuntimeError(f"the sandbox failed: {result.get('error')}")
        return result

    def _recheck(self, result: dict[str, Any]) -> dict[str, Any]:
        """The child's claim of a partial-soundness failure, checked again in the parent."""
        if result.get("failure") == "pst":
            domain = self.domain.name
            parent = harness.to_state(domain, result.get("state")) if result.get("state") is not None else None
            child = harness.to_state(domain, result.get("successor")) if result.get("successor") is not None else None
            try:
                confirmed = parent is not None and child is not None and harness.partial_soundness(domain, parent, child)
            except Exception:  # noqa: BLE001 - a malformed successor is a failure in its own right
                confirmed = "malformed"
            if not confirmed:
                return {"failure": "succ-exception", "error": "the sandboxed search reported a transition that passes the test"}
        return result

    # ------------------------------------------------------------------ the loop
    def run(self) -> Outcome:
        succ_prompt, goal_prompt = messages.first_prompts(self.domain.name, self.examples)
        self._call("succ", succ_prompt)
        if self.settings.extraction == "release":
            # the release asks for the successor function until it can extract one, and only then for the goal test
            while (unusable := self._unusable("succ")) is not None:
                if not self._feedback("soundness", unusable, {}):
                    return self.outcome
        self._call("goal", goal_prompt)
        while True:
            result = self._goal_tests()
            if "failure" in result:
                context = self.domain.context(result.get("extra") or [])
                if not self._feedback("goal", result, context):
                    return self.outcome
                continue
            self.observe.passed("goal")
            result, context = self._soundness()
            if "failure" in result:
                if not self._feedback("soundness", result, context):
                    return self.outcome
                continue
            self.observe.passed("soundness")
            if self.outcome.first_sound_call is None:
                self.outcome.first_sound_call = self.outcome.calls
            if self.settings.completeness:
                result, context = self._completeness()
                if "failure" in result:
                    if not self._feedback("completeness", result, context):
                        return self.outcome
                    continue
                self.observe.passed("completeness")
            break
        if self.settings.evaluate:
            self.outcome.evaluation = self.evaluate()
        return self.outcome

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, instances: list[Instance] | None = None) -> Evaluation:
        """Solve the instances by BFS (DFS for crosswords) without the checks; the parent validates each
        solution. Sandboxed runs take ``eval_chunk`` instances at once; a chunk that fails as a whole is
        run again one instance at a time, so one bad instance costs only itself."""
        todo = list(instances if instances is not None else self.domain.eval_instances)
        if self.settings.eval_limit is not None:
            todo = todo[: self.settings.eval_limit]
        result = Evaluation()
        started = time.monotonic()
        chunk = max(1, self.settings.eval_chunk)
        for first in range(0, len(todo), chunk):
            if self.stop_requested():
                raise EvaluationStopped(first, len(todo))
            part = todo[first: first + chunk]
            answers = self._evaluate_part(part)
            if answers is None:
                answers = [self._evaluate_part([one]) for one in part]  # type: ignore[misc]
                answers = [a[0] if a else {"error": "crash"} for a in answers]  # type: ignore[index]
            for instance, answer in zip(part, answers):
                self._score(result, instance, answer)
            self.observe.evaluation(min(first + chunk, len(todo)), len(todo), result.solved, time.monotonic() - started)
        return result

    def _evaluate_part(self, part: list[Instance]) -> list[dict[str, Any]] | None:
        request = self._request("evaluate", instances=[_instance_json(i) for i in part],
                                search_timeout=self.settings.eval_timeout, depth_first=self.domain.depth_first,
                                greedy=self.settings.search == "gbfs")
        answer = self.executor.run(request, self._wall_limit(self.settings.eval_timeout * len(part) + 30.0))
        if "failure" in answer:
            if len(part) == 1:
                kind = {"search-timeout": "timeout", "out-of-memory": "out-of-memory"}.get(answer["failure"], "error")
                return [{"error": kind, "detail": answer.get("error", "")}]
            return None
        results = answer.get("results")
        if not isinstance(results, list) or len(results) != len(part):
            return None
        return results

    def _score(self, result: Evaluation, instance: Instance, answer: dict[str, Any]) -> None:
        result.expanded += int(answer.get("expanded", 0) or 0)
        result.generated += int(answer.get("generated", 0) or 0)
        error = answer.get("error")
        if error:
            if error in ("search-timeout", "timeout"):
                result.timeouts += 1
                reason = "search timeout"
            elif error == "out-of-memory" or answer.get("out_of_memory"):
                result.errors += 1
                result.out_of_memory += 1
                where = f" ({error.removesuffix('-exception')} raised MemoryError)" if error != "out-of-memory" else ""
                reason = f"out of the sandbox's memory{where}; --memory GIB gives it more"
            else:
                result.errors += 1
                reason = f"error: {error}"
        else:
            path = answer.get("path")
            try:
                if self.domain.validate_actions is not None:
                    actions = answer.get("actions") if path is not None else None
                    problem = self.domain.validate_actions(instance, actions)
                else:
                    problem = self.domain.validate(instance, path)
            except Exception as exc:  # noqa: BLE001 - a malformed claim is an invalid solution
                problem = f"malformed solution ({type(exc).__name__})"
            as_released = self.domain.validate_as_released if self.settings.release_validation else None
            if problem is not None and path and as_released is not None and as_released(instance, path) is None:
                result.release_only += 1
                problem = None
            if problem is None:
                result.solved += 1
                return
            reason = problem
            if path is None:
                result.unsolved += 1
            else:
                result.invalid += 1
        result.failed += 1
        if len(result.reasons) < 50:
            result.reasons[instance.name] = reason


def _short(state: Any, limit: int = 200) -> str:
    text = repr(state)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _instance_json(instance: Instance) -> dict[str, Any]:
    return {"init": instance.init, "extra": instance.extra, "goal_extra": instance.goal_extra}


def default_examples(domain: SearchDomain) -> dict[str, Any]:
    """The example input of the first prompts, taken from the domain's first unit-test instance."""
    first = domain.unit_instances[0] if domain.unit_instances else None
    examples: dict[str, Any] = {"example_state": harness.to_state(domain.name, first.init) if first else None}
    if first is not None and domain.name == "blocksworld":
        examples["example_goal"] = harness.to_state("blocksworld", {**first.goal_extra[0], "on": first.goal_extra[0]["on"]})
        examples["example_goal"] = {k: v for k, v in examples["example_goal"].items() if k in ("clear", "on-table", "on")}
    if first is not None and domain.name == "crossword":
        examples["horizontal"], examples["vertical"] = first.extra
    if domain.examples:
        return dict(domain.examples)
    if first is not None and domain.name == "sokoban":
        examples["example_grid"] = first.extra[0]
    return examples
