"""`genplan batch`: the experiment grid as ordinary runs against the scripted server, resumable, evaluated."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.cli_process import genplan, isolated_env
from support.multi_domain_model import DomainRouter, ferry_models
from support.scripted_server import ScriptedServer
from support.small_ferry import small_ferry

from genplan.engine.batch import (
    ExperimentError,
    LocalExecutor,
    Progress,
    RayExecutor,
    grid,
    load_experiment,
    run_batch,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

DOMAINS = Path(__file__).resolve().parents[1] / "domains"
TINY_PIPELINE = "[pipeline]\ninitial_programs = 1\ncode_rounds = 1\nprogram_timeout_s = 2\n"


def write_experiment(
    folder: Path,
    server: ScriptedServer,
    *,
    domains: tuple[str | Path, ...] = ("ferry", "ferry-costumed"),  # names under domains/, or directories
    presets: tuple[str, ...] = ("F5-3", "Sil"),
    extra: str = "",
    pipeline: str = TINY_PIPELINE,
) -> Path:
    listed = ", ".join(f'"{DOMAINS / d}"' for d in domains)  # DOMAINS / an absolute directory is that directory
    text = (
        "[experiment]\n"
        'name = "tiny"\n'
        f"domains = [{listed}]\n"
        f"presets = [{', '.join(repr(p).replace(chr(39), chr(34)) for p in presets)}]\n"
        "seeds = [1]\n"
        f"{extra}\n"
        f"{pipeline}\n"
        "[[models]]\n"
        'name = "synthetic"\n'
        f'model = "{server.model}"\n'
        f'base_url = "{server.base_url}"\n'
        "temperature = 0\n"
    )
    path = folder / "experiment.toml"
    path.write_text(text, encoding="utf-8")
    return path


class RunsInFlight:
    """Wraps execute_run to count how many runs are going at once."""

    def __init__(self, execute) -> None:
        self.execute = execute
        self.now = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, job):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            return self.execute(job)
        finally:
            with self.lock:
                self.now -= 1


def test_grid_runs_evaluates_and_a_rerun_skips_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import genplan.engine.batch.executors as executors_module

    in_flight = RunsInFlight(executors_module.execute_run)
    monkeypatch.setattr(executors_module, "execute_run", in_flight)
    with ScriptedServer(fixed_delay_s=0.05) as server:
        server.respond_with(DomainRouter(ferry_models()))
        path = write_experiment(
            tmp_path, server, extra="eval_limit = 3\nmax_concurrent_runs = 2\nplanner_timeout_s = 20"
        )
        experiment = load_experiment(path)
        assert len(grid(experiment)) == 4
        batch_dir = tmp_path / "batch"
        events: list[Progress] = []
        result = run_batch(experiment, batch_dir, progress=events.append, no_cache=True)
        assert result.complete, [(s.run_status, s.evaluated, s.message) for s in result.failed]
        assert result.ran == 4 and result.evaluated == 4
        assert in_flight.most == 2  # bounded, and concurrent
        kinds = [e.kind for e in events]
        assert kinds.count("run-started") == kinds.count("run-done") == kinds.count("eval-done") == 4
        assert events[-1].done == events[-1].total == 4

        batch = json.loads((batch_dir / "batch.json").read_text())
        assert [e["run_status"] for e in batch["entries"]] == ["finished"] * 4
        assert "api_key" not in json.dumps(batch).replace("api_key_env", "")
        for entry in batch["entries"]:
            run_dir = batch_dir / entry["run_dir"]
            parts = Path(entry["run_dir"]).parts
            assert parts[:5] == ("runs", entry["domain"], entry["preset"], "synthetic", "seed-1")
            meta = json.loads((run_dir / "run.json").read_text())
            assert meta["status"] == "finished" and meta["batch"]["preset"] == entry["preset"]
            assert meta["config"]["initial_programs"] == 1 and meta["config"]["code_rounds"] == 1
            evaluation = json.loads((run_dir / "evaluation.json").read_text())
            assert evaluation["coverage"] == 1.0 and evaluation["tasks"] == 3 and evaluation["orderings"] == 4
            assert all(r["planner"]["status"] == "solved" for r in evaluation["results"])
            # both planners of the paper's Tables 6 and 7: GBFS + FF and A* + LM-cut
            assert all(r["optimal_planner"]["status"] == "solved" for r in evaluation["results"])
            assert all(r["optimal_planner"]["length_ratio"] >= r["planner"]["length_ratio"] - 1e-9
                       for r in evaluation["results"])  # an optimal plan is never longer
            assert evaluation["optimal_planner"]["tasks_compared"] == 3
        # each planner ran once per task, shared by every program of the domain
        assert len(list((batch_dir / "planner" / "ferry").glob("*.json"))) == 3
        assert len(list((batch_dir / "planner-optimal" / "ferry").glob("*.json"))) == 3
        assert (batch_dir / "experiment.toml").read_text() == path.read_text()

        asked = len(server.requests)
        stamps = {p: p.stat().st_mtime_ns for p in batch_dir.glob("runs/**/evaluation.json")}
        again = run_batch(load_experiment(path), batch_dir, no_cache=True)
        assert again.complete and again.ran == 0 and again.skipped == 4 and again.evaluated == 0
        assert len(server.requests) == asked  # nothing sent again
        assert {p: p.stat().st_mtime_ns for p in batch_dir.glob("runs/**/evaluation.json")} == stamps
        assert len(list(batch_dir.glob("runs/*/*/*/*/run-*"))) == 4


def test_run_ids_follow_what_determines_a_run(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        first = grid(load_experiment(write_experiment(tmp_path, server)))
        same = grid(load_experiment(write_experiment(tmp_path, server)))
        changed = grid(load_experiment(write_experiment(tmp_path, server, pipeline=TINY_PIPELINE + "max_concurrency = 2\n")))
        two_rounds = TINY_PIPELINE.replace("code_rounds = 1", "code_rounds = 2")
        other = grid(load_experiment(write_experiment(tmp_path, server, pipeline=two_rounds)))
    assert [e.run_id for e in first] == [e.run_id for e in same]
    assert len({e.run_id for e in first}) == 4
    assert [e.run_id for e in first] == [e.run_id for e in changed]  # concurrency does not change the run
    assert all(a.run_id != b.run_id for a, b in zip(first, other))


def test_killed_batch_finishes_on_rerun_without_repeating_requests(tmp_path: Path) -> None:
    with ScriptedServer(fixed_delay_s=0.15) as server:
        server.respond_with(DomainRouter(ferry_models()))
        path = write_experiment(tmp_path, server, presets=("F5-3",), extra="eval = false\nmax_concurrent_runs = 2")
        batch_dir = tmp_path / "batch"
        dry = genplan("batch", str(path), "--out", str(batch_dir), "--dry-run", home=tmp_path)
        assert dry.returncode == 0 and dry.stdout.count("run ") == 2 and not batch_dir.exists()
        proc = subprocess.Popen(
            [sys.executable, "-m", "genplan.cli.main", "batch", str(path), "--out", str(batch_dir), "--no-cache", "--quiet"],
            env=isolated_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while len(list(batch_dir.glob("runs/**/responses/*.json"))) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        answered = len(list(batch_dir.glob("runs/**/responses/*.json")))
        statuses = [json.loads(p.read_text())["status"] for p in batch_dir.glob("runs/**/run.json")]
        assert 10 <= answered and "running" in statuses
        sent_before = len(server.requests)

        done = genplan("batch", str(path), "--out", str(batch_dir), "--no-cache", "--json", home=tmp_path)
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["complete"] and summary["entries"] == 2
        statuses = [json.loads(p.read_text())["status"] for p in batch_dir.glob("runs/**/run.json")]
        assert statuses == ["finished", "finished"]
        total = len(list(batch_dir.glob("runs/**/responses/*.json")))
        # only the requests without an answer on disk went out again
        resent = len(server.requests) - sent_before
        assert resent == total - answered


def test_bad_experiment_lists_every_problem_and_runs_nothing(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        path = tmp_path / "bad.toml"
        path.write_text(
            "[experiment]\n"
            f'domains = ["{DOMAINS / "ferry"}", "{tmp_path / "no-such-domain"}"]\n'
            'presets = ["F5-3", "F9-9"]\n'
            "seeds = [1, 7]\n"
            "colour = \"blue\"\n"
            "[pipeline]\ncode_rounds = -1\n"
            "[[models]]\n"
            f'model = "{server.model}"\nbase_url = "{server.base_url}"\ntemperature = 5\ntop_k = 3\n',
            encoding="utf-8",
        )
        with pytest.raises(ExperimentError) as caught:
            load_experiment(path)
        problems = caught.value.problems
        expected = ["no-such-domain", "F9-9", "7", "colour", "code_rounds", "temperature", "top_k"]
        for word in expected:
            assert sum(word in p for p in problems) >= 1, (word, problems)
        done = genplan("batch", str(path), "--out", str(tmp_path / "batch"), home=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == len(problems) and all(line.startswith(f"genplan: {path}: ") for line in lines)
        assert not (tmp_path / "batch").exists() and not server.requests
        missing = genplan("batch", str(tmp_path / "missing.toml"), home=tmp_path)
        assert missing.returncode == 2 and "no such file" in missing.stderr


def test_missing_api_key_for_a_remote_model_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GENPLAN_TEST_MISSING_KEY", raising=False)
    path = tmp_path / "remote.toml"
    path.write_text(
        f'[experiment]\ndomains = ["{DOMAINS / "ferry"}"]\npresets = ["Sil"]\n'
        '[[models]]\nname = "gpt"\nmodel = "gpt-4o"\napi_key_env = "GENPLAN_TEST_MISSING_KEY"\n',
        encoding="utf-8",
    )
    with pytest.raises(ExperimentError) as caught:
        load_experiment(path)
    assert len(caught.value.problems) == 1 and "GENPLAN_TEST_MISSING_KEY" in caught.value.problems[0]


def test_local_executor_counts_cores_by_default() -> None:
    assert LocalExecutor(3).eval_workers == (os.cpu_count() or 1)
    assert LocalExecutor(3, eval_workers=5).eval_workers == 5


# Not exclusive: the local Ray instance has processes, ports (chosen free by Ray) and a session directory of its
# own, which no other test looks at; it ran alone for 15 s of mostly waiting, the other workers idle.
def test_batch_on_a_local_ray_instance(tmp_path: Path) -> None:
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (the optional extra: pip install 'genplan[ray]')")
    # Keep Ray on the loopback interface (it reads this when imported) and without a token file.
    ray_env = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    saved = {k: os.environ.get(k) for k in ray_env}
    os.environ.update(ray_env)
    import ray
    from ray._private import ray_constants

    ray_constants.ENABLE_RAY_CLUSTER = False  # in case ray was imported before the variable was set
    try:
        context = ray.init(
            address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
        address = context.address_info["gcs_address"]
        assert address.startswith("127.0.0.1:")
        from test_autotos_pddl import FERRY, GOAL

        with ScriptedServer() as server:
            server.on_step("autotos.succ", [FERRY])  # AutoToS's run is a Ray task too
            server.on_step("autotos.goal", [GOAL])
            server.respond_with(DomainRouter(ferry_models()))
            path = write_experiment(  # ferry's small debug tasks: AutoToS's unit-test searches take seconds
                tmp_path, server, domains=(small_ferry(),), presets=("F5-3", "Sil", "AutoToS"),
                extra="eval_limit = 2\ncompare_planner = false",
            )
            batch_dir = tmp_path / "batch"
            done = genplan(
                "batch", str(path), "--out", str(batch_dir), "--ray", address, "--no-cache", "--json",
                home=tmp_path, env=ray_env,
            )
            assert done.returncode == 0, done.stderr[-3000:]
            summary = json.loads(done.stdout)
            assert summary["complete"] and summary["ran"] == 3 and summary["evaluated"] == 2
            assert server.requests  # the runs (Ray tasks) talked to the model
            assert server.steps().count("autotos.succ") == 1
            (own,) = [e for e in json.loads((batch_dir / "batch.json").read_text())["entries"] if e["preset"] == "AutoToS"]
            assert (own["run_status"], own["coverage"]) == ("finished", 1.0)
            for evaluation in batch_dir.glob("runs/**/evaluation.json"):
                assert json.loads(evaluation.read_text())["coverage"] == 1.0
            asked = len(server.requests)
            again = genplan("batch", str(path), "--out", str(batch_dir), "--ray", address, "--json", home=tmp_path, env=ray_env)
            assert again.returncode == 0 and json.loads(again.stdout)["ran"] == 0 and len(server.requests) == asked
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def test_ray_executor_without_ray_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    from genplan.engine.batch import BatchError

    with pytest.raises(BatchError, match=r"genplan\[ray\]"):
        RayExecutor("auto").execute([], lambda _p: None)


def test_every_approach_is_evaluated_at_the_papers_45_seconds(tmp_path: Path) -> None:
    """Sil debugs at its own 30 s, but the evaluation protocol gives every approach the same 45 s."""
    from genplan.engine.batch.results import plan_work

    with ScriptedServer() as server:
        experiment = load_experiment(write_experiment(tmp_path, server, pipeline=""))
        custom = load_experiment(write_experiment(tmp_path, server, pipeline="", extra="eval_timeout_s = 12"))
    work = plan_work(experiment, tmp_path / "batch")
    by_preset = {w.entry.config.preset: w for w in work}
    assert by_preset["Sil"].entry.config.program_timeout_s == 30.0  # debugging keeps Silver's limit
    assert {w.evaluation.time_limit for w in work if w.evaluation} == {45.0}
    assert experiment.evaluation.orderings == 4
    assert {w.evaluation.time_limit for w in plan_work(custom, tmp_path / "b2") if w.evaluation} == {12.0}


def test_an_unreachable_ray_address_is_one_line_at_once(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        path = write_experiment(tmp_path, server)
        started = time.monotonic()
        done = genplan("batch", str(path), "--ray", "127.0.0.1:1", "--out", str(tmp_path / "batch"), home=tmp_path)
    assert time.monotonic() - started < 30
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("genplan: cannot connect to the Ray cluster at 127.0.0.1:1:") and "Traceback" not in done.stderr


def test_an_autotos_preset_runs_its_own_loop_beside_a_pipeline_preset(tmp_path: Path) -> None:
    """AutoToS in the grid: its run lands where batch.json says, evaluates itself (no evaluation.json), shows in
    `genplan report` beside the pipeline preset, and a rerun sends nothing."""
    from test_autotos_pddl import FERRY, GOAL

    from genplan.engine.report.data import load_batch
    from genplan.engine.report.paper_tables import budget_table, coverage_table

    with ScriptedServer() as server:
        server.on_step("autotos.succ", [FERRY])
        server.on_step("autotos.goal", [GOAL])
        server.respond_with(DomainRouter(ferry_models()))  # the pipeline preset's requests
        # ferry's small debug tasks (tests/support/small_ferry.py): AutoToS's unit-test searches take seconds
        path = write_experiment(tmp_path, server, domains=(small_ferry(),), presets=("F5-3", "AutoToS"),
                                extra="eval_limit = 3\nplanner_timeout_s = 20\neval_timeout_s = 30")
        batch_dir = tmp_path / "batch"
        done = genplan("batch", str(path), "--out", str(batch_dir), "--no-cache", "--json", home=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        summary = json.loads(done.stdout)
        assert summary["complete"] and summary["ran"] == 2 and summary["evaluated"] == 1  # AutoToS evaluates itself
        assert ("ferry AutoToS synthetic seed 1: run finished: unit tests passed; 3/3 evaluation tasks solved, "
                "calls: 2 by the model") in done.stderr
        assert server.steps().count("autotos.succ") == 1 and server.steps().count("autotos.goal") == 1

        batch = json.loads((batch_dir / "batch.json").read_text())
        entries = {e["preset"]: e for e in batch["entries"]}
        assert set(entries) == {"F5-3", "AutoToS"}
        own = entries["AutoToS"]
        assert Path(own["run_dir"]).parts[:5] == ("runs", "ferry", "AutoToS", "synthetic", "seed-1")
        assert (own["run_status"], own["evaluated"], own["coverage"]) == ("finished", True, 1.0)
        run_dir = batch_dir / own["run_dir"]
        meta = json.loads((run_dir / "run.json").read_text())
        assert (meta["approach"], meta["preset"], meta["status"]) == ("autotos", "AutoToS", "finished")
        assert meta["batch"]["preset"] == "AutoToS" and meta["config"]["partial_soundness"] is False
        # the experiment's evaluation settings reach the loop
        assert (meta["config"]["eval_limit"], meta["config"]["eval_timeout"]) == (3, 30.0)
        assert meta["result"]["evaluation"]["solved"] == 3 and not (run_dir / "evaluation.json").exists()
        assert entries["F5-3"]["evaluated"] and (batch_dir / entries["F5-3"]["run_dir"] / "evaluation.json").exists()

        report = genplan("report", str(batch_dir), "--no-files", home=tmp_path)
        assert report.returncode == 0, report.stderr
        assert "synthetic AutoToS avg" in report.stdout
        data = load_batch(batch_dir)
        coverage = coverage_table(data)
        ferry = dict(zip(coverage.columns, coverage.rows[0]))
        assert ferry["synthetic AutoToS avg"] == 100.0 and ferry["synthetic F5-3 avg"] == 100.0
        (autotos,) = data.runs_of(preset="AutoToS")
        assert autotos.calls == 2 and autotos.tokens > 0  # from run.json and the event log
        budget = {(row[0], row[1]): row for row in budget_table(data).rows}
        assert budget[("synthetic", "AutoToS")][2] == 2

        asked = len(server.requests)
        again = genplan("batch", str(path), "--out", str(batch_dir), "--no-cache", "--json", home=tmp_path)
        assert again.returncode == 0, again.stderr[-3000:]
        assert json.loads(again.stdout)["ran"] == 0 and len(server.requests) == asked
        assert len(list(batch_dir.glob("runs/ferry/AutoToS/synthetic/seed-1/*"))) == 1

        # an AutoToS run that did not finish (here: as if killed before the goal test's answer came) is resumed in
        # its directory: the answer on disk is not asked again, only the missing one
        meta["status"] = "failed"
        (run_dir / "run.json").write_text(json.dumps(meta))
        for kept in (run_dir / "responses").glob("0002-*"):
            kept.unlink()
        dry = genplan("batch", str(path), "--out", str(batch_dir), "--dry-run", home=tmp_path)
        assert dry.returncode == 0 and "resume   ferry AutoToS synthetic seed 1" in dry.stdout, dry.stdout
        server.on_step("autotos.goal", [GOAL])
        third = genplan("batch", str(path), "--out", str(batch_dir), "--no-cache", "--json", home=tmp_path)
        assert third.returncode == 0, third.stderr[-3000:]
        assert json.loads(third.stdout)["ran"] == 1
        assert server.steps()[asked:] == ["autotos.goal"]  # succ's answer came from the run directory
        resumed = json.loads((run_dir / "run.json").read_text())
        assert resumed["status"] == "finished" and resumed["result"]["resumed"] == 1
        assert resumed["result"]["evaluation"]["solved"] == 3
        assert len(list(batch_dir.glob("runs/ferry/AutoToS/synthetic/seed-1/*"))) == 1


def test_own_loop_presets_in_an_experiment(tmp_path: Path) -> None:
    """AutoToS and AutoToS+PST run on domain directories; PDDLego+'s and PlanGen's presets cannot (one line)."""
    with ScriptedServer() as server:
        path = write_experiment(tmp_path, server, domains=("ferry",), presets=("Sil", "AutoToS", "autotos+pst"),
                                extra="eval_limit = 2")
        experiment = load_experiment(path)
        assert [p.label for p in experiment.presets] == ["Sil", "AutoToS", "AutoToS+PST"]
        entries = {e.preset: e for e in grid(experiment)}
        own = entries["AutoToS+PST"]
        assert own.config is None and own.approach == "autotos" and isinstance(own.parameters, dict)
        assert own.parameters["partial_soundness"] is True and own.parameters["eval_limit"] == 2
        assert own.parameters["eval_timeout"] == 45.0  # the experiment's protocol, not AutoToS's 600 s
        assert entries["AutoToS"].run_id != entries["AutoToS+PST"].run_id
        assert experiment.describe()["presets"][1]["config"]["approach"] == "autotos"

        for preset, command in (("plangen", "genplan pddlego --preset plangen"),
                                ("pddlego-detailed", "genplan pddlego --preset pddlego-detailed")):
            bad = write_experiment(tmp_path, server, domains=("ferry",), presets=("F5-3", preset))
            with pytest.raises(ExperimentError) as caught:
                load_experiment(bad)
            (problem,) = caught.value.problems
            assert problem == (f"preset '{preset}' belongs to {preset.split('-')[0]}, which does not run on domain "
                               f"directories (it has its own command: {command} or list it in [games] presets)")
        done = genplan("batch", str(bad), "--out", str(tmp_path / "batch"), home=tmp_path)
        assert done.returncode == 2 and done.stderr.strip().count("\n") == 0 and "does not run on domain" in done.stderr
        assert not server.requests and not (tmp_path / "batch").exists()

        debug = write_experiment(tmp_path, server, domains=("ferry",), presets=("AutoToS",), extra='eval_tasks = "debug"')
        with pytest.raises(ExperimentError, match="evaluates itself on the eval tasks only"):
            load_experiment(debug)
