"""`genplan reproduce` on the paper's data layout as the reference repository ships it (``data/silver/<domain>``
and ``data/additional/<domain>``, 17 domains, two of them declaring the PDDL name ``gripper-strips``): one batch,
domains keyed by their directory, every domain printed beside the paper's published numbers (shipped in
engine/report/stein2026.toml), the planners' coverage beside the paper's lm/ff columns; and a figure that does not
exist prints as "–" instead of 0.

The data tree is built here from genplan's own domains, renamed to the PDDL names of the paper's files (so the
test needs neither the reference repository nor ../shared)."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from support.cli_process import genplan as run_genplan
from support.scripted_server import RecordedRequest, Reply, ScriptedServer

ROOT = Path(__file__).resolve().parents[1]
# directory -> the domain name its PDDL declares in the paper's data
SILVER = {"delivery": "trapnewspapers", "ferry": "ferry", "gripper": "gripper-strips", "heavy": "heavy-pack",
          "hiking": "hiking", "miconic": "miconic", "spanner": "spanner"}
ADDITIONAL = {"beluga": "beluga", "blocksworld": "blocksworld-4ops", "goldminer": "gold-miner-typed",
              "grippers": "gripper-strips", "logistics": "logistics-strips", "minigrid": "grid", "rovers": "rover",
              "satellite": "satellite", "transport": "transport", "visitall": "grid-visit-all"}
PROGRAM = """The program:

```python
def get_plan(objects, init, goal):
    return []

def generate_solution(objects, init, goal):
    return []
```
"""


def paper_tree(root: Path) -> Path:
    """data/silver/<d> and data/additional/<d> in the paper's layout: domain.pddl, problems_pddl/instance-N.pddl
    (instance-0..5 the debug tasks, instance-6 the evaluation task), each renamed to the paper's PDDL name."""
    data = root / "data"
    for collection, domains in (("silver", SILVER), ("additional", ADDITIONAL)):
        for directory, pddl_name in domains.items():
            source = ROOT / "domains" / directory
            own = re.search(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", (source / "domain.pddl").read_text()).group(1)  # type: ignore[union-attr]
            target = data / collection / directory
            (target / "problems_pddl").mkdir(parents=True)
            rename = re.compile(rf"(\(\s*(?:domain|:domain)\s+){re.escape(own)}(?=[\s)])", re.IGNORECASE)
            (target / "domain.pddl").write_text(rename.sub(rf"\g<1>{pddl_name}", (source / "domain.pddl").read_text()))
            tasks = sorted((source / "debug").glob("*.pddl"))[:6]
            for index, task in enumerate([*tasks, tasks[0]]):
                text = rename.sub(rf"\g<1>{pddl_name}", task.read_text())
                (target / "problems_pddl" / f"instance-{index}.pddl").write_text(text)
    (data / "silver" / "readme.md").write_text("the Silver et al. domains\n")
    return data


def answer(request: RecordedRequest) -> Reply:
    if request.step and request.step.startswith(("baseline.code", "baseline.fix", "code.")):
        return Reply.answer(PROGRAM)
    return Reply.answer("1. Look at the goal.\n2. Reach it one object at a time.")


def genplan(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    # the built-in search instead of Fast Downward: these tasks are tiny and its start-up is not
    return run_genplan(*args, home=home, env={"GENPLAN_FAST_DOWNWARD": str(home / "no-fast-downward")}, timeout=600)


def rows_of(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text().splitlines()))


def test_the_papers_17_domains_run_as_one_grid_beside_the_published_numbers(tmp_path: Path) -> None:
    data = paper_tree(tmp_path)
    out = tmp_path / "grid"
    listing = genplan("reproduce", str(data), "--model", "m", "--presets", "Sil", "--seeds", "1", "--dry-run",
                      home=tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert "grippers       additional/grippers        PDDL gripper-strips" in listing.stdout
    assert "gripper        silver/gripper             PDDL gripper-strips" in listing.stdout
    assert listing.stdout.count("published: yes") == 17 and "published: no" not in listing.stdout
    assert not out.exists()  # a dry run writes nothing

    with ScriptedServer() as server:
        server.respond_with(answer)
        grid = ("reproduce", str(data), "--model", server.model, "--base-url", server.base_url, "--presets", "Sil",
                "--seeds", "1", "--out", str(out), "--set", "silver_fixes=0", "--eval-limit", "1", "--eval-timeout",
                "5", "--planner-limits", "5,20", "--max-concurrent-runs", "2", "--no-cache")
        done = genplan(*grid, "--quiet", home=tmp_path)
        asked = len(server.requests)
        for lost in (out / "planner-coverage" / "ff" / "ferry").glob("*.json"):
            lost.unlink()
        again = genplan(*grid, home=tmp_path)  # a rerun resumes: asks nothing, plans only what is missing
        assert again.returncode == 0, again.stderr[-2000:]
        assert len(server.requests) == asked and "planner coverage: 1 planner runs (limit 20 s each)" in again.stderr
    assert done.returncode == 0, done.stderr[-3000:]
    assert "listed twice" not in done.stderr + done.stdout

    batch = json.loads((out / "batch.json").read_text())  # one batch holds the whole grid
    names = set(SILVER) | set(ADDITIONAL)
    assert {e["domain"] for e in batch["entries"]} == names and len(batch["entries"]) == 17
    assert all(e["run_status"] == "finished" and e["evaluated"] for e in batch["entries"])
    assert {p.name for p in (out / "runs").iterdir()} == names  # run directories named by directory too

    # every domain beside its published numbers (Tables 1 and 2), matched by directory name
    coverage = {r["domain"]: r for r in rows_of(out / "report" / "paper-coverage.csv")}
    assert set(coverage) == names | {"average"}
    published_columns = [c for c in rows_of(out / "report" / "paper-coverage.csv")[0] if c.startswith(
        ("gpt-4o", "llama-3.3", "deepseek", "qwen3-thinking"))]
    assert len(published_columns) == 8
    for domain, row in coverage.items():
        assert row["preset"] == "Sil" and row["genplan mean"] == "0.0", domain  # the program returns no plan
        # no empty published row; the one cell the paper's text lost (see stein2026.toml) is the only gap
        assert [c for c in published_columns if row[c] == ""] == (["llama-3.3 best"] if domain == "beluga" else [])
    # Table 1 (gpt-4o Si1, mean / best) and Table 2 (qwen3-thinking Si1) for the domains the PDDL names hid
    for domain, gpt_mean, gpt_best, qwen_mean in (("grippers", 100, 100, 98), ("gripper", 79, 100, 43),
                                                  ("delivery", 100, 100, 70), ("minigrid", 0, 0, 14),
                                                  ("rovers", 0, 0, 0), ("visitall", 70, 100, 32)):
        row = coverage[domain]
        assert (float(row["gpt-4o mean"]), float(row["gpt-4o best"]), float(row["qwen3-thinking mean"])) == (
            gpt_mean, gpt_best, qwen_mean), domain
    assert float(coverage["average"]["gpt-4o mean"]) == 37 and float(coverage["average"]["deepseek mean"]) == 56

    # the planners' coverage on the evaluation tasks at the configured limits, beside the paper's lm / ff
    planners = {r["domain"]: r for r in rows_of(out / "report" / "planner-coverage.csv")}
    assert set(planners) == names | {"average"}
    for domain in names:
        row = planners[domain]
        assert row["tasks"] == "1" and row["genplan ff 20 s"] == "100.0", (domain, row)
        assert {row["genplan lm 5 s"], row["genplan lm 20 s"]} <= {"0.0", "100.0"}
        assert all(row[f"paper {p} {t}"] != "" for p in ("lm", "ff") for t in ("45 s", "30 min")), domain
    assert float(planners["spanner"]["paper ff 30 min"]) == 59 and float(planners["delivery"]["paper lm 45 s"]) == 0
    assert len(list((out / "planner-coverage" / "ff").glob("*/*.json"))) == 17

    # Table 9 beside the grid's calls; the terminal shows every table
    budget = rows_of(out / "report" / "paper-budget.csv")
    assert [r["source"] for r in budget] == [f"genplan {server.model}", "paper gpt-4o", "paper llama-3.3",
                                             "paper deepseek", "paper qwen3-thinking"]
    assert float(budget[3]["calls"]) == 9.0 and budget[3]["tokens"] == ""  # DeepSeek Si1: not reported
    for title in ("Coverage beside the paper's published coverage", "symbolic planners' coverage",
                  "beside the paper's (Table 9)"):
        assert title in done.stdout
    assert "grippers" in done.stdout and "–" in done.stdout

    # genplan report --paper gives the same tables for any batch directory
    report = genplan("report", str(out), "--paper", "--print", "json", "--no-files", home=tmp_path)
    tables = json.loads(report.stdout)["tables"]
    assert {"paper-coverage", "planner-coverage", "paper-budget", "paper-errors"} <= set(tables)
    assert len(tables["paper-coverage"]["rows"]) == 18


def test_two_domain_directories_of_one_name_are_refused(tmp_path: Path) -> None:
    data = paper_tree(tmp_path)
    twin = data / "additional" / "ferry"
    twin.mkdir()
    for item in (data / "silver" / "ferry").rglob("*"):
        if item.is_file():
            (twin / item.relative_to(data / "silver" / "ferry")).parent.mkdir(parents=True, exist_ok=True)
            (twin / item.relative_to(data / "silver" / "ferry")).write_text(item.read_text())
    result = genplan("reproduce", str(data), "--model", "m", "--dry-run", home=tmp_path)
    assert result.returncode == 2
    assert "two domain directories are named 'ferry'" in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_missing_figure_prints_as_a_dash_not_zero(tmp_path: Path) -> None:
    """The paper's layout ships plans, which stand in for the planner without a runtime: the time column of
    program vs planner has nothing to compare and must not say 0 %."""
    from genplan.engine.report.data import BatchData, RunRecord
    from genplan.engine.report.paper_tables import planner_table
    from genplan.engine.report.render import to_terminal

    run_dir = tmp_path / "run"
    evaluation = {"coverage": 1.0, "results": [{"task": "instance-6", "status": "solved", "runtime": 0.01,
                                                 "plan_length": 4}]}
    run = RunRecord("ferry", "F5-3", "m", 1, run_dir, "finished", evaluation=evaluation)
    shipped = {"task": "instance-6", "planner": "reference plan (plans_gbfs)", "status": "solved", "seconds": 0.0,
               "plan_length": 4}
    data = BatchData(tmp_path, "b", ["ferry"], ["F5-3"], ["m"], [1], {"F5-3": "stein"}, [run],
                     planner={("ferry", "instance-6"): shipped})
    table = planner_table(data)
    row = table.row("m", "F5-3", "ferry")
    assert row[3] == 1 and row[4] is None and row[5] is None  # no runtime ratio, no "faster" share
    assert row[7] == 100.0  # the plan lengths are known
    line = next(t for t in to_terminal([table]).splitlines() if "│ ferry" in t)
    assert [cell.strip() for cell in line.split("│")[5:7]] == ["–", "–"]
    timed = {**shipped, "planner": "fast-downward GBFS + FF (ff)", "seconds": 0.5}
    data.planner = {("ferry", "instance-6"): timed}
    assert planner_table(data).row("m", "F5-3", "ferry")[5] == 100.0


@pytest.mark.parametrize("bad", ["x", "-"])
def test_bad_planner_limits_are_one_line(tmp_path: Path, bad: str) -> None:
    from genplan.cli.main import main

    data = paper_tree(tmp_path)
    assert main(["reproduce", str(data), "--model", "m", "--planner-limits", bad, "--dry-run"]) == 2


def test_planner_coverage_counts_within_each_limit_and_survives_a_broken_task(tmp_path: Path) -> None:
    from genplan.engine.batch import load_experiment
    from genplan.engine.batch.planner_coverage import run_planner_coverage
    from genplan.engine.report.beside_paper import planner_coverage_table
    from genplan.engine.report.data import load_batch
    from genplan.engine.report.paper import load_paper_numbers

    data = paper_tree(tmp_path)
    ferry = data / "silver" / "ferry"
    (ferry / "problems_pddl" / "instance-7.pddl").write_text("(define (problem broken) (:domain ferry)")
    experiment = tmp_path / "grid.toml"
    experiment.write_text(
        f'[experiment]\nname = "g"\ndomains = ["{ferry}"]\npresets = ["Sil"]\nseeds = [1]\n'
        "planner_coverage = [30, 0.000001]\n\n[[models]]\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n")
    loaded = load_experiment(experiment)
    assert loaded.evaluation.planner_coverage == (0.000001, 30.0)
    os.environ["GENPLAN_FAST_DOWNWARD"] = str(tmp_path / "none")  # the built-in search: instant on these tasks
    try:
        assert run_planner_coverage(loaded, tmp_path / "batch") == 4  # 2 tasks x 2 planners
        assert run_planner_coverage(loaded, tmp_path / "batch") == 0  # all known
    finally:
        del os.environ["GENPLAN_FAST_DOWNWARD"]
    broken = json.loads((tmp_path / "batch" / "planner-coverage" / "ff" / "ferry" / "instance-7.json").read_text())
    assert broken["status"] == "error" and broken["message"]
    (tmp_path / "batch" / "batch.json").write_text(json.dumps({"experiment": loaded.describe(), "entries": []}))
    table = planner_coverage_table(load_batch(tmp_path / "batch"), load_paper_numbers())
    row = table.row("ferry")
    assert row[:6] == ["ferry", 2, 0.0, 50.0, 0.0, 50.0]  # nothing within a microsecond; the good task within 30 s
    assert row[6:] == [31.0, 43.0, 100.0, 100.0]  # the paper's lm / ff at 45 s and 30 min


def test_planner_coverage_limits_are_checked(tmp_path: Path) -> None:
    from genplan.engine.batch import ExperimentError, load_experiment

    experiment = tmp_path / "grid.toml"
    experiment.write_text(
        f'[experiment]\ndomains = ["{ROOT / "domains" / "ferry"}"]\npresets = ["Sil"]\n'
        'planner_coverage = [45, 0, "x"]\n\n[[models]]\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n')
    with pytest.raises(ExperimentError) as caught:
        load_experiment(experiment)
    assert [p for p in caught.value.problems if "planner_coverage" in p] == [
        "[experiment] planner_coverage: 0 is not a time limit in seconds (a positive number)",
        "[experiment] planner_coverage: 'x' is not a time limit in seconds (a positive number)",
    ]


def test_costumed_and_anonymized_domains_sit_beside_table3(tmp_path: Path) -> None:
    from genplan.engine.report.beside_paper import tables_beside_paper
    from genplan.engine.report.data import BatchData, RunRecord
    from genplan.engine.report.paper import load_paper_numbers

    runs = [RunRecord(d, "F5-3", "m", 1, tmp_path / d, "finished", evaluation={"coverage": c, "results": []})
            for d, c in (("ferry-costumed", 0.5), ("anonymized1", 0.25), ("ferry", 1.0))]
    data = BatchData(tmp_path, "b", ["ferry", "ferry-costumed", "anonymized1"], ["F5-3"], ["m"], [1],
                     {"F5-3": "stein"}, runs,
                     domain_paths={d: str(ROOT / "domains" / d) for d in ("ferry", "ferry-costumed", "anonymized1")})
    tables = {t.name: t for t in tables_beside_paper(data, load_paper_numbers())}
    variants = tables["paper-variants"]
    assert variants.rows == [["ferry-costumed", "ferry", "costume", "m", 50.0, 50.0, 100.0, 100.0],
                             ["anonymized1", "delivery", "anonymized", "m", 25.0, 25.0, 100.0, 100.0]]
    coverage = tables["paper-coverage"]
    assert [r[0] for r in coverage.rows] == ["ferry", "average"]
    assert "not in the paper: ferry-costumed, anonymized1" in coverage.notes


def test_a_dry_run_shows_the_published_figures_and_the_faithful_toggles(tmp_path: Path, capsys) -> None:
    from genplan.cli.main import main
    from genplan.engine.pipeline.faithful import TOGGLES

    data = paper_tree(tmp_path)

    def dry_run(*extra: str) -> list[str]:
        assert main(["reproduce", str(data), "--model", "m", "--presets", "F5-3,Sil", "--seeds", "1", "--dry-run",
                     *extra]) == 0
        return capsys.readouterr().out.splitlines()

    plain = dry_run()
    ferry = plain.index(next(line for line in plain if line.startswith("ferry ")))
    # the paper's Table 1/2 row for ferry: each preset shown, per model (mean, best), and its planners
    assert plain[ferry + 1].startswith("    F5-3: gpt-4o 100 % (best 100 %)")
    assert plain[ferry + 2].startswith("    Sil: gpt-4o ")
    assert plain[ferry + 3].startswith("    planners: lm 45 s ") and "ff 30 min" in plain[ferry + 3]
    assert plain[-1] == "faithful toggles: none (genplan's own behaviour; --faithful for the reference code's)"
    faithful = dry_run("--faithful-except", "planner")
    assert faithful[-1] == "faithful toggles in force: " + ", ".join(t for t in TOGGLES if t != "planner")
    assert faithful[:-1] == plain[:-1]
    assert main(["reproduce", str(data), "--model", "m", "--dry-run", "--faithful-except", "nope"]) == 2


def refining(request: RecordedRequest) -> Reply:
    """Every program fails every task, so that F5-3's code debugging runs: its candidates are checked, reflected on
    and revised at once in the pipeline's threads, each answer parsed on the host (the place a reproduce grid once
    lost gripper's run to CPython's AST race, tests/test_parse_threads.py)."""
    if request.step and request.step.startswith("code.") and request.step != "code.reflect":
        return Reply.answer(PROGRAM)
    if request.step and request.step.endswith("reflect"):
        return Reply.answer("The plan is empty: the program never looks at the goal.")
    if request.step and request.step.startswith("strategy.") and request.step != "strategy.plan":
        return Reply.answer("Reasoning.\n\nPseudocode:\n1. Look at the goal.\n2. Reach it one object at a time.")
    return Reply.answer("1. Look at the goal.\n2. Reach it one object at a time.")


def test_a_refining_grid_of_the_17_domains_ends_with_every_run_finished(tmp_path: Path) -> None:
    """The pipeline's own concurrency fails no run: the 17 domains as one F5-3 grid (two candidates, a round of
    code debugging each, run two at a time), every run finished, none failed, no internal error kept."""
    data = paper_tree(tmp_path)
    out = tmp_path / "grid"
    with ScriptedServer() as server:
        server.respond_with(refining)
        done = genplan("reproduce", str(data), "--model", server.model, "--base-url", server.base_url,
                       "--presets", "F5-3", "--seeds", "1", "--out", str(out), "--set", "initial_programs=2",
                       "--set", "strategy_rounds=0", "--set", "code_rounds=1", "--eval-limit", "1",
                       "--eval-timeout", "5", "--planner-limits", "5", "--max-concurrent-runs", "2", "--no-cache",
                       "--quiet", home=tmp_path)
        revisions = len(server.requests_for("code.revise"))
    assert done.returncode == 0, done.stderr[-3000:]
    batch = json.loads((out / "batch.json").read_text())
    assert len(batch["entries"]) == 17
    assert [(e["domain"], e["run_status"]) for e in batch["entries"] if e["run_status"] != "finished"] == []
    runs = [out / e["run_dir"] for e in batch["entries"]]
    assert len(set(runs)) == 17
    for run in runs:
        meta = json.loads((run / "run.json").read_text())
        assert meta["status"] == "finished" and not meta.get("error"), (run.name, meta.get("error"))
        assert not (run / "failures").exists(), run.name
    assert revisions == 17 * 2  # each run revised both of its candidates
