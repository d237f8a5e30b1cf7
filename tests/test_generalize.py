"""`genplan generalize`: a program on generated ferry tasks of growing size, and on the probes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.ferry_model import CORRECT_PROGRAM, FERRY

from genplan.engine.domainlib import DomainDir, DomainDirError
from genplan.engine.generalize import (
    NOT_RUN,
    SOLVED,
    GeneralizeError,
    generalization_tables,
    generalize,
    parse_fixed,
    parse_scale,
    parse_sizes,
    scale_ladder,
    size_ladders,
)
from genplan.engine.sandbox import Limits, Program

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

DOMAINS = FERRY.parent
# Correct up to ten cars, then it gives up: a bug only bigger tasks show.
FAILS_ABOVE_TEN_CARS = CORRECT_PROGRAM.replace(
    "    return plan\n", "    if len(car_at) > 10:\n        raise ValueError('too many cars')\n    return plan\n"
)


def test_correct_program_solves_every_size_and_probes_are_reported_apart(tmp_path: Path) -> None:
    ferry = DomainDir.open(FERRY)
    ladders = size_ladders(ferry, {"cars": [2, 8, 32]}, {"locations": 4}) + [scale_ladder(ferry, [0.25, 0.5], {})]
    seen = []
    report = generalize(
        Program.from_source(CORRECT_PROGRAM), ferry, ladders, tasks_per_size=2, limits=Limits(time_limit=10),
        tasks_dir=tmp_path / "tasks", on_step=seen.append,
    )
    assert report.all_solved and len(seen) == 5
    cars, scale = report.ladders
    assert [r.step.label for r in cars] == ["cars=2", "cars=8", "cars=32"]
    assert all(r.status == SOLVED and r.tasks == r.solved == 2 for r in cars + scale)
    assert [r.objects for r in cars] == [6, 12, 36]  # 4 locations + the cars
    assert all(r.mean_runtime is not None and r.max_runtime >= r.mean_runtime for r in cars)
    assert cars[0].mean_plan_length < cars[1].mean_plan_length < cars[2].mean_plan_length
    assert [r.step.sizes for r in scale] == [{"locations": 12, "cars": 25}, {"locations": 25, "cars": 50}]
    # the generated tasks are kept where asked, with the sizes of their step
    kept = sorted((tmp_path / "tasks" / "cars" / "cars-32").glob("*.pddl"))
    assert len(kept) == 2 and "--cars 32" in kept[0].read_text()
    # probes: beyond the generator, reported task by task; the simple program fails some of them
    probes = {p.task: p.status for p in report.probes or []}
    assert set(probes) == {p.stem for p in ferry.probe_tasks()}
    assert probes["other-names"] == SOLVED and probes["car-on-ferry"] == "failed"
    sizes, probe_table = generalization_tables(report)
    assert sizes.column("coverage %") == [100.0] * 5
    assert probe_table.column("probe") == sorted(probes)


def test_a_ladder_stops_at_its_first_failing_size(tmp_path: Path) -> None:
    ferry = DomainDir.open(FERRY)
    ladders = size_ladders(ferry, {"cars": [4, 8, 16, 32]}, {})
    report = generalize(
        Program.from_source(FAILS_ABOVE_TEN_CARS), ferry, ladders, tasks_per_size=2, limits=Limits(time_limit=10),
        probes=False,
    )
    steps = report.ladders[0]
    assert [r.status for r in steps] == [SOLVED, SOLVED, "failed", NOT_RUN]
    assert steps[2].solved == 0 and "too many cars" in steps[2].failure and "exception" in steps[2].failure
    assert steps[3].tasks == 0 and report.probes is None and not report.all_solved


def test_a_size_the_generator_refuses_ends_its_ladder() -> None:
    ferry = DomainDir.open(FERRY)
    report = generalize(
        Program.from_source(CORRECT_PROGRAM), ferry, size_ladders(ferry, {"locations": [2, 1, 3]}, {}),
        tasks_per_size=1, limits=Limits(time_limit=10), probes=False,
    )
    statuses = [r.status for r in report.ladders[0]]
    assert statuses == [SOLVED, "generator-error", NOT_RUN]
    assert "at least 2 locations" in report.ladders[0][1].failure


def test_scale_multiplies_the_eval_maxima_and_leaves_percentages_alone() -> None:
    ferry = DomainDir.open(FERRY)
    biggest = max(sizes["cars"] for _seed, sizes in ferry.task_specs("eval"))
    steps = scale_ladder(ferry, [1, 2], {"locations": 7})
    assert [s.sizes for s in steps] == [{"locations": 7, "cars": biggest}, {"locations": 7, "cars": 2 * biggest}]
    hiking = DomainDir.open(DOMAINS / "hiking")
    defaults = {name: default for name, (default, _help) in hiking.parameters().items()}
    doubled = scale_ladder(hiking, [2], {})[0].sizes
    assert doubled["water_percent"] == defaults["water_percent"] and doubled["hill_percent"] == defaults["hill_percent"]
    assert doubled["rows"] > defaults["rows"]


def test_bad_sizes_are_refused() -> None:
    ferry = DomainDir.open(FERRY)
    assert parse_sizes(["cars=1,2", "locations=3"]) == {"cars": [1, 2], "locations": [3]}
    assert parse_scale("1,2.5") == [1.0, 2.5] and parse_fixed(["cars=3"]) == {"cars": 3}
    for bad in (["cars"], ["cars=a"], ["cars="], ["cars=1", "cars=2"]):
        with pytest.raises(GeneralizeError):
            parse_sizes(bad)
    for bad in ("0", "x", "-1,2"):
        with pytest.raises(GeneralizeError):
            parse_scale(bad)
    with pytest.raises(DomainDirError, match="unknown size parameter"):
        size_ladders(ferry, {"trucks": [1]}, {})


def test_generalize_command(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(CORRECT_PROGRAM)
    bad.write_text(FAILS_ABOVE_TEN_CARS)

    def genplan(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "genplan.cli.main", "generalize", *args],
            capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        )

    done = genplan(str(good), str(FERRY), "--sizes", "cars=2,12", "--tasks-per-size", "1", "--json", "-",
                   "--timeout", "10")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["all_sizes_solved"] and [s["coverage"] for s in result["ladders"][0]] == [1.0, 1.0]
    assert len(result["probes"]) == len(DomainDir.open(FERRY).probe_tasks())
    failed = genplan(str(bad), str(FERRY), "--sizes", "cars=2,12,20", "--tasks-per-size", "1", "--no-probes",
                     "--markdown", str(tmp_path / "out.md"), "--timeout", "10")
    assert failed.returncode == 1
    assert "not-run" in failed.stdout and "| cars | cars=12 |" in (tmp_path / "out.md").read_text()
    refused = genplan(str(good), str(FERRY), "--sizes", "trucks=1,2")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "unknown size parameter" in refused.stderr
