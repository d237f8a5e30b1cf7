"""A batch of 12 runs at 4 concurrent runs against the same batch one run at a time; then the CPU use of
evaluating the batch's 12 programs.

The scripted OpenAI-compatible server answers every request after a fixed delay (a synthetic model for
domains/ferry and domains/ferry-costumed; 2 domains x 2 presets (F5-3, Sil) x 3 seeds). Goal (issue 6):
4 concurrent runs take at most a third of the time of one at a time. The evaluation of the 12 selected
programs (each on its domain's 32 eval tasks x 4 orderings) runs in a `genplan batch` subprocess; its
CPU time (the whole process tree, from getrusage of the waited-for children) over wall time x cores is
the utilisation (goal: both cores busy). The machine's load is printed too: other processes on the same
cores lower both numbers. Run: .venv/bin/python benchmarks/bench_batch.py
(BENCH_EVAL_JOBS=N sets the experiment's eval_jobs, the evaluations at once; default one per core.)
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.multi_domain_model import DomainRouter, ferry_models  # noqa: E402
from support.scripted_server import ScriptedServer  # noqa: E402

from genplan.engine.batch import grid, load_experiment, run_batch  # noqa: E402

DELAY_S = 0.5
DOMAINS = ROOT / "domains"


def experiment(folder: Path, server: ScriptedServer, concurrent: int, evaluate: bool) -> Path:
    path = folder / f"experiment-{concurrent}-{'eval' if evaluate else 'runs'}.toml"
    path.write_text(
        "[experiment]\n"
        'name = "bench"\n'
        f'domains = ["{DOMAINS / "ferry"}", "{DOMAINS / "ferry-costumed"}"]\n'
        'presets = ["F5-3", "Sil"]\n'
        "seeds = [1, 2, 3]\n"
        f"eval = {'true' if evaluate else 'false'}\n"
        "compare_planner = false\n"
        f"eval_jobs = {os.environ.get('BENCH_EVAL_JOBS', '0')}\n"
        f"max_concurrent_runs = {concurrent}\n"
        "[[models]]\n"
        'name = "synthetic"\n'
        f'model = "{server.model}"\n'
        f'base_url = "{server.base_url}"\n',
        encoding="utf-8",
    )
    return path


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far."""
    import psutil

    times = psutil.cpu_times()
    busy = sum(getattr(times, name, 0.0) for name in ("user", "nice", "system", "irq", "softirq", "steal"))
    return busy, busy + times.idle + getattr(times, "iowait", 0.0)


def main() -> None:
    cores = os.cpu_count() or 1
    with ScriptedServer(fixed_delay_s=DELAY_S) as server, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server.respond_with(DomainRouter(ferry_models()))
        seconds = {}
        for concurrent in (1, 4):
            path = experiment(folder, server, concurrent, evaluate=False)
            batch_dir = folder / f"batch-{concurrent}"
            started = time.perf_counter()
            result = run_batch(load_experiment(path), batch_dir, no_cache=True)
            seconds[concurrent] = time.perf_counter() - started
            assert result.complete and result.ran == 12, [s.describe() for s in result.failed]
        requests = len(server.requests)
        runs = len(grid(load_experiment(path)))
        print(f"{runs} runs (2 domains x F5-3, Sil x 3 seeds), {requests // 2} model requests per batch, "
              f"{DELAY_S:.2f} s answer delay, {cores} cores")
        print(f"1 run at a time:  {seconds[1]:6.2f} s")
        print(f"4 runs at a time: {seconds[4]:6.2f} s")
        print(f"ratio 4/1: {seconds[4] / seconds[1]:.2f} (goal <= 0.33)")

        # evaluate the 12 programs of the concurrent batch in a subprocess and account for its whole tree
        path = experiment(folder, server, 4, evaluate=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        machine_before = machine_busy()
        load_before = os.getloadavg()[0]
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "genplan.cli.main", "batch", str(path), "--out", str(folder / "batch-4"), "--quiet"],
            capture_output=True, text=True,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        machine_after = machine_busy()
        assert done.returncode == 0, done.stderr + done.stdout
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        machine = (machine_after[0] - machine_before[0]) / max(machine_after[1] - machine_before[1], 1e-9)
        print(f"evaluating 12 programs (32 eval tasks x 4 orderings each): {wall:.1f} s wall, {cpu:.1f} s CPU")
        print(f"CPU utilisation of the evaluation: {cpu / (wall * cores):.0%} of {cores} cores "
              f"(machine busy {machine:.0%}, load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after)")
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
