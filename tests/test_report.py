"""`genplan report`: the paper's tables from a hand-built batch directory with known numbers."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from genplan.engine.report.charts import scatter_svg
from genplan.engine.report.data import load_batch
from genplan.engine.report.paper_tables import (
    all_tables,
    budget_by_domain_table,
    budget_table,
    coverage_table,
    error_table,
    planner_table,
)
from genplan.engine.report.render import to_markdown, to_terminal
from genplan.engine.report.write import write_report

SVG = "{http://www.w3.org/2000/svg}"
TASKS = [f"eval/task-{i:03d}" for i in range(4)]


def run(
    batch: Path,
    domain: str,
    preset: str,
    seed: int,
    *,
    status: str = "finished",
    calls: int = 10,
    seconds: float = 100.0,
    solved: tuple[int, ...] = (),
    runtimes: tuple[float, ...] = (0.01, 0.02, 0.04, 0.08),
    lengths: tuple[int, ...] = (10, 12, 14, 16),
    errors: dict[str, int] | None = None,
    evaluation: str = "evaluated",
) -> dict:
    """One run directory: run.json, `calls` answers of 100 + 50 tokens, and evaluation.json."""
    rel = Path("runs") / domain / preset / "m1" / f"seed-{seed}" / "run-0000000000"
    folder = batch / rel
    (folder / "responses").mkdir(parents=True)
    (folder / "run.json").write_text(json.dumps({"status": status, "batch_seconds": seconds}))
    for i in range(calls):
        usage = {"input_tokens": 100, "output_tokens": 50, "reasoning_tokens": 0}
        (folder / "responses" / f"{i + 1:04d}-step.json").write_text(json.dumps({"response": {"usage": usage}}))
    if evaluation == "evaluated":
        results = [
            {"task": t, "status": "solved" if i in solved else "failed", "runtime": runtimes[i], "plan_length": lengths[i]}
            for i, t in enumerate(TASKS)
        ]
        table = {c: 0 for c in ("exception", "timeout", "wrong type", "invalid action", "goal not satisfied", "sandbox error")}
        table.update(errors or {})
        data = {"status": "evaluated", "coverage": len(solved) / 4, "tasks": 4, "solved": len(solved),
                "error_table": table, "results": results}
        (folder / "evaluation.json").write_text(json.dumps(data))
    elif evaluation == "no-program":
        (folder / "evaluation.json").write_text(json.dumps({"status": "no-program", "coverage": 0.0, "results": []}))
    return {"domain": domain, "preset": preset, "model": "m1", "seed": seed, "run_dir": str(rel)}


def planned(batch: Path, domain: str, task: str, status: str, seconds: float, length: int | None) -> None:
    folder = batch / "planner" / domain
    folder.mkdir(parents=True, exist_ok=True)
    record = {"task": task, "planner": "ff", "status": status, "seconds": seconds, "plan_length": length}
    (folder / f"{task.replace('/', '_')}.json").write_text(json.dumps(record))


@pytest.fixture
def batch_dir(tmp_path: Path) -> Path:
    batch = tmp_path / "batch"
    batch.mkdir()
    entries = [
        run(batch, "alpha", "F5-3", 1, solved=(0, 1, 2, 3), seconds=100),
        run(batch, "alpha", "F5-3", 2, solved=(0, 1), seconds=200, errors={"exception": 2}),
        run(batch, "alpha", "F5-3", 3, solved=(0,), seconds=300, errors={"goal not satisfied": 3}),
        run(batch, "alpha", "Sil", 1, calls=2, seconds=50, solved=(0,), runtimes=(0.2, 1, 1, 1),
            errors={"exception": 2, "timeout": 1}),
        run(batch, "alpha", "Sil", 2, calls=2, seconds=50, errors={"goal not satisfied": 4}),
        run(batch, "alpha", "Sil", 3, calls=2, seconds=50, status="failed", evaluation="none"),
        run(batch, "beta", "F5-3", 1, calls=20, seconds=400, solved=(0, 1, 2), errors={"invalid action": 1}),
        run(batch, "beta", "F5-3", 2, calls=20, seconds=400, solved=(0, 1, 3), errors={"invalid action": 1}),
        run(batch, "beta", "F5-3", 3, calls=20, seconds=400, solved=(0, 1, 2, 3), runtimes=(0.05, 1, 1, 1),
            lengths=(5, 1, 1, 1)),
        run(batch, "beta", "Sil", 1, calls=2, seconds=50, solved=(0, 1), runtimes=(0.05, 1, 1, 1),
            lengths=(6, 1, 1, 1), errors={"timeout": 2}),
        # seed 2 of beta/Sil has not run yet: no directory
        {"domain": "beta", "preset": "Sil", "model": "m1", "seed": 2, "run_dir": "runs/beta/Sil/m1/seed-2/run-1"},
        run(batch, "beta", "Sil", 3, calls=2, seconds=50, evaluation="no-program"),
    ]
    planned(batch, "alpha", TASKS[0], "solved", 0.1, 10)
    planned(batch, "alpha", TASKS[1], "solved", 0.01, 10)
    planned(batch, "alpha", TASKS[2], "limit", 45.0, None)
    planned(batch, "alpha", TASKS[3], "solved", 0.8, 20)
    planned(batch, "beta", TASKS[0], "solved", 0.5, 5)
    experiment = {
        "name": "fixture",
        "domains": [{"name": "alpha"}, {"name": "beta"}],
        "presets": [{"label": "F5-3", "config": {"approach": "stein"}}, {"label": "Sil", "config": {"approach": "sil"}}],
        "models": [{"label": "m1"}],
        "seeds": [1, 2, 3],
    }
    (batch / "batch.json").write_text(json.dumps({"experiment": experiment, "entries": entries}))
    return batch


def test_coverage_average_over_seeds_and_best_run(batch_dir: Path) -> None:
    table = coverage_table(load_batch(batch_dir))
    assert table.columns == ["domain", "m1 F5-3 avg", "m1 Sil avg", "m1 F5-3 best", "m1 Sil best"]
    assert table.row("alpha")[1:] == pytest.approx([175 / 3, 25 / 3, 100, 25])  # the failed run counts as 0
    assert table.row("beta")[1:] == pytest.approx([250 / 3, 25, 100, 50])  # the missing seed does not count
    assert table.row("average")[1:] == pytest.approx([(175 / 3 + 250 / 3) / 2, (25 / 3 + 25) / 2, 100, 37.5])


def test_error_types_are_shares_of_runs_with_errors(batch_dir: Path) -> None:
    table = error_table(load_batch(batch_dir))
    head = ["runs", "incomplete runs", "runs with errors", "exception", "timeout", "wrong type", "invalid action",
            "goal not satisfied", "sandbox error"]
    assert table.columns[2:] == head
    assert table.row("m1", "F5-3")[2:] == pytest.approx([6, 0, 4, 25, 0, 0, 50, 25, 0])
    assert table.row("m1", "Sil")[2:] == pytest.approx([5, 2, 3, 100 / 3, 200 / 3, 0, 0, 100 / 3, 0])
    assert table.row("m1", "all")[2:] == pytest.approx([11, 2, 7, 200 / 7, 200 / 7, 0, 200 / 7, 200 / 7, 0])


def test_budget_per_run_with_ratios_between_presets(batch_dir: Path) -> None:
    data = load_batch(batch_dir)
    table = budget_table(data)
    assert table.row("m1", "F5-3")[2:] == pytest.approx([15, 2250, 300])
    assert table.row("m1", "Sil")[2:] == pytest.approx([2, 300, 50])
    assert table.row("m1", "F5-3 / Sil")[2:] == pytest.approx([7.5, 7.5, 6.0])  # the baseline is the reference
    by_domain = budget_by_domain_table(data)
    assert by_domain.row("alpha", "m1", "F5-3")[3:] == pytest.approx([3, 10, 1500, 200])
    assert by_domain.row("beta", "m1", "Sil")[3:] == pytest.approx([2, 2, 300, 50])


def test_planner_comparison_on_commonly_solved_tasks_of_the_best_run(batch_dir: Path) -> None:
    table = planner_table(load_batch(batch_dir))
    assert table.row("m1", "F5-3", "alpha")[3:] == pytest.approx([3, (0.1 + 2 + 0.1) / 3, 200 / 3, 1.0, 200 / 3])
    assert table.row("m1", "F5-3", "beta")[3:] == pytest.approx([1, 0.1, 100, 1.0, 100])
    assert table.row("m1", "F5-3", "all")[3:] == pytest.approx([4, 2.3 / 4, 75, 1.0, 75])
    assert table.row("m1", "Sil", "all")[3:] == pytest.approx([2, 1.05, 50, 1.1, 50])


def test_every_format_is_written_and_parses(batch_dir: Path, tmp_path: Path) -> None:
    data = load_batch(batch_dir)
    out = tmp_path / "report"
    written = {p.name for p in write_report(data, out)}
    assert {"report.md", "report.json", "report.txt", "coverage.svg", "coverage.csv", "errors.csv", "budget.csv",
            "budget_by_domain.csv", "planner.csv", "runtime-m1-F5-3.svg", "length-m1-F5-3.svg",
            "runtime-m1-Sil.svg"} <= written

    rows = list(csv.reader(io.StringIO((out / "coverage.csv").read_text())))
    assert rows[0] == coverage_table(data).columns
    assert rows[1][0] == "alpha" and float(rows[1][1]) == pytest.approx(175 / 3, abs=1e-5)
    budget_rows = list(csv.DictReader(io.StringIO((out / "budget.csv").read_text())))
    assert [r["preset"] for r in budget_rows] == ["F5-3", "Sil", "F5-3 / Sil"]
    assert float(budget_rows[2]["time (s)"]) == 6.0

    tables = json.loads((out / "report.json").read_text())["tables"]
    assert set(tables) == {"coverage", "errors", "budget", "budget_by_domain", "planner"}
    assert tables["coverage"]["rows"][0][1] == pytest.approx(175 / 3)

    coverage = ET.parse(out / "coverage.svg").getroot()
    bars = [e for e in coverage.iter(f"{SVG}rect") if e.get("class") == "bar"]
    assert sorted(round(float(b.get("data-value")), 2) for b in bars) == [8.33, 25.0, 58.33, 83.33]
    assert len([e for e in coverage.iter(f"{SVG}line") if e.get("class") == "best"]) == 4
    texts = [t.text for t in coverage.iter(f"{SVG}text")]
    assert "alpha" in texts and "m1 F5-3" in texts

    scatter = ET.parse(out / "runtime-m1-F5-3.svg").getroot()
    points = [e for e in scatter.iter(f"{SVG}circle") if e.get("class") == "point"]
    assert len(points) == 4 and {p.get("data-group") for p in points} == {"alpha", "beta"}
    diagonal = [e for e in scatter.iter(f"{SVG}line") if e.get("class") == "diagonal"]
    assert len(diagonal) == 1 and diagonal[0].get("stroke") == "#d62728"

    markdown = (out / "report.md").read_text()
    assert "| domain | m1 F5-3 avg |" in markdown and "| alpha | 58.3 | 8.3 | 100.0 | 25.0 |" in markdown
    assert "alpha" in to_terminal([coverage_table(data)]) and "58.3" in to_terminal([coverage_table(data)])


def test_scatter_points_sit_on_log_axes_with_the_diagonal() -> None:
    root = ET.fromstring(scatter_svg([(0.001, 0.001, "a"), (1.0, 10.0, "a"), (0.01, 0.001, "b")], "t", "x", "y"))
    points = {(round(float(c.get("cx"))), round(float(c.get("cy")))) for c in root.iter(f"{SVG}circle")}
    diagonal = next(e for e in root.iter(f"{SVG}line") if e.get("class") == "diagonal")
    x1, y1, x2, y2 = (float(diagonal.get(k)) for k in ("x1", "y1", "x2", "y2"))
    # the point with x == y lies on the diagonal; equal decades are equally far apart
    (ax, ay) = min(points)
    assert ay == pytest.approx(y1 + (y2 - y1) * (ax - x1) / (x2 - x1), abs=1)
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "1e-3" in labels and "1e1" in labels


def test_markdown_escapes_pipes_and_marks_missing_values() -> None:
    from genplan.engine.report.table import PERCENT, TEXT, Table

    table = Table("t", "A title", ["name", "coverage"], [TEXT, PERCENT], [["a|b", None], ["c", 12.345]], ["a note"])
    lines = to_markdown([table]).splitlines()
    assert lines[:4] == ["## A title", "", "| name | coverage |", "| --- | ---: |"]
    assert lines[4:6] == ["| a\\|b | – |", "| c | 12.3 |"]
    assert "a note" in lines


def test_report_command(batch_dir: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "genplan.cli.main", "report", str(batch_dir), "--print", "json", "--out", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tables"]["budget"]["rows"][2][1] == "F5-3 / Sil"
    assert (tmp_path / "r" / "coverage.svg").exists()
    bad = subprocess.run(
        [sys.executable, "-m", "genplan.cli.main", "report", str(tmp_path / "nothing")],
        capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a batch directory" in bad.stderr


def test_optimal_planner_table_beside_the_satisficing_one(batch_dir: Path) -> None:
    """Tables 6 and 7 of the paper compare with both planners; A* + LM-cut results live in planner-optimal/."""
    data = load_batch(batch_dir)
    assert "planner-optimal" not in {t.name for t in all_tables(data)}  # older batches: no empty table
    for (domain, task), record in data.planner.items():
        folder = batch_dir / "planner-optimal" / domain
        folder.mkdir(parents=True, exist_ok=True)
        optimal = {**record, "planner": "astar-lmcut", "seconds": record["seconds"] * 2}
        if optimal["plan_length"]:
            optimal["plan_length"] = max(1, optimal["plan_length"] - 1)
        (folder / f"{task.replace('/', '_')}.json").write_text(json.dumps(optimal))
    data = load_batch(batch_dir)
    tables = {t.name: t for t in all_tables(data)}
    satisficing, optimal_table = tables["planner"], tables["planner-optimal"]
    assert "A* + LM-cut" in optimal_table.title
    sat_row = satisficing.row("m1", "F5-3", "all")
    opt_row = optimal_table.row("m1", "F5-3", "all")
    assert opt_row[3] == sat_row[3]  # the same commonly solved tasks
    assert opt_row[4] == pytest.approx(sat_row[4] / 2)  # the optimal planner took twice as long
    assert opt_row[6] > sat_row[6]  # and found shorter plans
