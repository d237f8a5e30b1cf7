"""Where the batch's work runs: local threads (a bounded number of concurrent runs, one evaluation per
core) or a Ray cluster (runs and evaluations as Ray tasks; ``ray`` is an optional extra)."""

from __future__ import annotations

import concurrent.futures as futures
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from genplan.engine.api.programs import Sandbox
from genplan.engine.batch.jobs import Entry, EvalJob, JobKind, JobStatus, Outcome, RunJob, execute_evaluation, execute_run
from genplan.engine.errors import GenplanError


class BatchError(GenplanError):
    """The batch cannot be carried out (one line)."""


@dataclass
class Progress:
    """What the executor tells its watcher: kind is run-started / run-done / eval-started / eval-done."""

    kind: str
    entry: Entry
    outcome: Outcome | None = None
    done: int = 0
    total: int = 0
    budget: dict[str, Any] | None = None  # the batch's caps and spend so far (BudgetMeter.record), when capped


ProgressCallback = Callable[[Progress], None]


@dataclass
class Work:
    """What one entry still needs."""

    entry: Entry
    run: RunJob | None  # None: finished before; an AutoToS run or a trial evaluates itself: no evaluation job
    evaluation: EvalJob | None


class Executor:
    """Runs the work of a batch; subclasses decide where (this machine, a Ray cluster)."""

    max_concurrent_runs: int = 4

    def execute(self, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        raise NotImplementedError


def default_eval_workers(jobs: int) -> int:
    return jobs or os.cpu_count() or 1


class LocalExecutor(Executor):
    """Runs and evaluations in threads of this process. At most `max_concurrent_runs` runs at once (their
    model requests are I/O bound); evaluations are CPU bound, but the work happens in the sandbox's
    processes, so `eval_workers` evaluations at once (default: one per core), each running two tasks at
    once, keep the cores busy. The evaluations share one sandbox and the parsed tasks of each domain."""

    def __init__(self, max_concurrent_runs: int = 4, eval_workers: int = 0) -> None:
        self.max_concurrent_runs = max_concurrent_runs
        self.eval_workers = default_eval_workers(eval_workers)

    def execute(self, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        outcomes: dict[str, list[Outcome]] = {item.entry.key: [] for item in work}
        total, done = len(work), 0
        run_pool = futures.ThreadPoolExecutor(max(1, self.max_concurrent_runs), thread_name_prefix="genplan-run")
        eval_pool = futures.ThreadPoolExecutor(self.eval_workers, thread_name_prefix="genplan-evaluation")
        sandbox = Sandbox()  # its servers start on the first evaluation
        pending: dict[futures.Future[Any], tuple[Work, JobKind]] = {}

        def evaluate(item: Work) -> bool:
            if item.evaluation is None:
                return False
            progress(Progress("eval-started", item.entry, done=done, total=total))
            pending[eval_pool.submit(execute_evaluation, item.evaluation, sandbox)] = (item, JobKind.EVALUATION)
            return True

        def run(item: Work) -> Outcome:
            progress(Progress("run-started", item.entry, done=done, total=total))  # when a pool thread takes it
            assert item.run is not None
            return execute_run(item.run)

        try:
            for item in work:
                if item.run is not None:
                    pending[run_pool.submit(run, item)] = (item, JobKind.RUN)
                elif not evaluate(item):
                    done += 1
            while pending:
                finished, _ = futures.wait(list(pending), return_when=futures.FIRST_COMPLETED)
                for future in finished:
                    item, kind = pending.pop(future)
                    outcome = _result_of(future, item, kind)
                    outcomes[item.entry.key].append(outcome)
                    if kind == JobKind.RUN:
                        progress(Progress("run-done", item.entry, outcome, done, total))
                        if not outcome.status.run_done or not evaluate(item):
                            done += 1
                    else:
                        done += 1
                        progress(Progress("eval-done", item.entry, outcome, done, total))
        finally:
            run_pool.shutdown(wait=True, cancel_futures=True)
            eval_pool.shutdown(wait=True, cancel_futures=True)
            sandbox.close()
        return outcomes


def _result_of(future: futures.Future[Any], item: Work, kind: JobKind) -> Outcome:
    try:
        outcome: Outcome = future.result()
        return outcome
    except Exception as exc:  # noqa: BLE001 - a worker that died (e.g. out of memory) fails only its entry
        return Outcome(kind, JobStatus.FAILED, str(item.entry.run_dir), f"{type(exc).__name__}: {exc}")


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """BatchError at once when a ``host:port`` (or ``ray://host:port``) Ray address accepts no connection.
    Other forms ("auto", "local") are left to Ray."""
    match = re.fullmatch(r"(?:ray://)?\[?([^\]/]+?)\]?:(\d+)", address.strip())
    if match is None:
        return
    host, port = match.group(1), int(match.group(2))
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except OSError as exc:
        raise BatchError(
            f"cannot connect to the Ray cluster at {address}: {exc.strerror or exc} (is `ray start --head` running there?)"
        ) from None


class RayExecutor(Executor):
    """The same work as Ray tasks on a cluster (`pip install 'genplan[ray]'`).

    The batch directory must be on a file system every node sees (the runs write there). API keys are
    handed to the workers through the job's runtime environment (the variables named by api_key_env).
    Runs are I/O bound and reserve no CPU; each evaluation reserves one CPU, so a cluster with N CPUs
    evaluates N programs at once.
    """

    def __init__(self, address: str, max_concurrent_runs: int = 4, env_vars: dict[str, str] | None = None) -> None:
        self.address = address
        self.max_concurrent_runs = max_concurrent_runs
        self.env_vars = env_vars or {}

    def execute(self, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        try:
            import ray
        except ImportError:
            raise BatchError("--ray needs the optional dependency ray (pip install 'genplan[ray]')") from None
        started_here = not ray.is_initialized()
        if started_here:
            check_reachable(self.address)  # ray.init would retry an unreachable address for minutes
            try:
                ray.init(
                    address=self.address,
                    runtime_env={"env_vars": self.env_vars} if self.env_vars else None,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except Exception as exc:  # noqa: BLE001 - connection problems as one line
                raise BatchError(f"cannot connect to the Ray cluster at {self.address}: {exc}") from None
        try:
            return self._execute(ray, work, progress)
        finally:
            if started_here:
                ray.shutdown()

    def _execute(self, ray: Any, work: list[Work], progress: ProgressCallback) -> dict[str, list[Outcome]]:
        remote_run = ray.remote(num_cpus=0, max_retries=0)(execute_run)
        remote_eval = ray.remote(num_cpus=1, max_retries=0)(execute_evaluation)
        outcomes: dict[str, list[Outcome]] = {item.entry.key: [] for item in work}
        waiting = [item for item in work if item.run is not None]
        pending: dict[Any, tuple[Work, JobKind]] = {}
        total, done, running = len(work), 0, 0

        def evaluate(item: Work) -> bool:
            if item.evaluation is None:
                return False
            progress(Progress("eval-started", item.entry, done=done, total=total))
            pending[remote_eval.remote(item.evaluation)] = (item, JobKind.EVALUATION)
            return True

        for item in work:
            if item.run is None and not evaluate(item):
                done += 1
        while waiting or pending:
            while waiting and running < self.max_concurrent_runs:
                item = waiting.pop(0)
                progress(Progress("run-started", item.entry, done=done, total=total))
                pending[remote_run.remote(item.run)] = (item, JobKind.RUN)
                running += 1
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                item, kind = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a task that died fails only its entry
                    outcome = Outcome(kind, JobStatus.FAILED, str(item.entry.run_dir), f"{type(exc).__name__}: {exc}")
                outcomes[item.entry.key].append(outcome)
                if kind == JobKind.RUN:
                    running -= 1
                    progress(Progress("run-done", item.entry, outcome, done, total))
                    if not outcome.status.run_done or not evaluate(item):
                        done += 1
                else:
                    done += 1
                    progress(Progress("eval-done", item.entry, outcome, done, total))
        return outcomes
