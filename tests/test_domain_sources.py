"""Domain sources: every command on the paper's benchmark layout (the 7 domains of ../shared, and a copy of one
with no file added), on a bare domain file with problems, and one line for a directory that is none of them.

Tests on ../shared skip with a reason when it is absent. The synthetic model used for `genplan run` and
`genplan batch` is test data built here: it answers strategy-plan requests with the benchmark's reference
plans and writes a lookup-table program of those plans (enough to drive the whole pipeline on any domain).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.scripted_server import RecordedRequest, ScriptedServer

from genplan.cli.main import main as cli_main
from genplan.engine.domainlib import BARE, GENPLAN, PAPER, DomainDir, DomainDirError
from genplan.engine.pddl import load_domain, load_problem
from genplan.engine.pddl.encoding import encode_task
from genplan.engine.pddl.plans import load_plan

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
BENCHMARKS = SHARED / "benchmarks"
DOMAINS = ["delivery", "ferry", "gripper", "heavy", "hiking", "miconic", "spanner"]
TINY_PIPELINE = "initial_programs = 1\ncode_rounds = 1\nstrategy_rounds = 1\nprogram_timeout_s = 5\n"


@pytest.fixture(scope="module")
def benchmarks() -> Path:
    if not BENCHMARKS.is_dir():
        pytest.skip(f"../shared not found beside the checkout: {SHARED} (the paper's benchmark data lives there)")
    return BENCHMARKS


@pytest.fixture(scope="module")
def paper_copy(benchmarks: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """ferry copied from the paper's data as it is: no domain.toml, nothing added. The test module checks at
    the end that no command added a file."""
    target = tmp_path_factory.mktemp("paper") / "ferry"
    shutil.copytree(benchmarks / "ferry", target)
    before = sorted(p.relative_to(target) for p in target.rglob("*"))
    yield target
    assert sorted(p.relative_to(target) for p in target.rglob("*")) == before, "a command added a file"


def run_main(*argv: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli_main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def genplan_process(*args: str | Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENPLAN_", "OPENAI_"))}
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"))
    return subprocess.run(
        [sys.executable, "-m", "genplan.cli.main", *map(str, args)],
        capture_output=True, text=True, env=env, timeout=300, stdin=subprocess.DEVNULL, check=False,
    )


def lookup_program(source: DomainDir, tasks: list[Path]) -> str:
    """A program that knows the reference plans of ``tasks`` by their init and goal (synthetic test data)."""
    domain = load_domain(source.domain_file)
    table = []
    for task in tasks:
        encoded = encode_task(load_problem(task, domain), source.typed_objects, domain)
        plan = [step.pddl() for step in load_plan(source.reference_plan(task) or Path("missing"))]
        table.append((sorted(encoded.init), sorted(encoded.goal), plan))
    return (
        f"TABLE = {table!r}\n"
        "PLANS = {(frozenset(map(tuple, i)), frozenset(map(tuple, g))): p for i, g, p in TABLE}\n\n"
        "def generate_solution(objects, init, goal):\n"
        "    return list(PLANS.get((frozenset(init), frozenset(goal)), []))\n"
    )


# ------------------------------------------------------------------ opening


@pytest.mark.parametrize("name", DOMAINS)
def test_the_paper_layout_is_read_from_its_own_files(benchmarks: Path, name: str) -> None:
    source = DomainDir.open(benchmarks / name)
    domain = load_domain(source.domain_file)
    assert source.layout == PAPER and source.name == domain.name and source.typed_objects == domain.typed
    assert [p.name for p in source.debug_tasks()] == [f"instance-{i}.pddl" for i in range(6)]
    final = json.loads((benchmarks / name / "seed_splits_eval.json").read_text())["split_eval_final"]
    assert sorted(p.name for p in source.eval_tasks()) == sorted(final)
    splits = json.loads((benchmarks / name / "seed_splits.json").read_text())
    for key, parts in splits.items():
        seed = int(key.split("-")[0])
        indices = source.prompt_task_indices(seed)
        assert indices is not None and [source.debug_tasks()[i].name for i in indices] == parts["prompt"]
    for task in source.debug_tasks():
        assert source.reference_plan(task) is not None
    assert source.reference_plan(source.debug_tasks()[0], "optimal") == (
        benchmarks / name / "plans_pddl" / "instance-0_plan.txt"
    )
    assert source.probe_tasks() == [] and not source.has_generator
    with pytest.raises(DomainDirError, match="missing generator.py"):
        source.load_generator()


def bare_files(root: Path) -> tuple[Path, list[Path]]:
    """A domain file and three problems with free names, taken from genplan's own ferry."""
    root.mkdir(parents=True, exist_ok=True)
    domain = root / "ferry-domain.pddl"
    shutil.copy(ROOT / "domains" / "ferry" / "domain.pddl", domain)
    problems = []
    for index in range(3):
        problems.append(root / f"p{index + 1}.pddl")
        shutil.copy(ROOT / "domains" / "ferry" / "debug" / f"task-0{index}.pddl", problems[-1])
    return domain, problems


def test_a_bare_domain_file_with_problems(tmp_path: Path) -> None:
    domain, problems = bare_files(tmp_path / "bare")
    given = DomainDir.open(domain, tasks=problems[:2])
    assert given.layout == BARE and given.domain_file == domain and given.name == "ferry"
    assert given.debug_tasks() == problems[:2] and given.eval_tasks() == problems[:2]
    beside = DomainDir.open(domain)  # the problems beside it
    assert beside.debug_tasks() == problems and not beside.typed_objects
    # a directory with domain.pddl and a problems/ folder; seven problems: six debug, one for evaluation
    folder = tmp_path / "dir"
    (folder / "problems").mkdir(parents=True)
    shutil.copy(domain, folder / "domain.pddl")
    for index in range(7):
        shutil.copy(problems[index % 3], folder / "problems" / f"q{index}.pddl")
    opened = DomainDir.open(folder)
    assert opened.layout == BARE and len(opened.debug_tasks()) == 6 and [p.name for p in opened.eval_tasks()] == ["q6.pddl"]


def test_domain_toml_is_optional_in_genplans_layout(tmp_path: Path) -> None:
    copy = tmp_path / "ferry"
    shutil.copytree(ROOT / "domains" / "ferry", copy, ignore=shutil.ignore_patterns(".genplan"))
    (copy / "domain.toml").unlink()
    source = DomainDir.open(copy)
    assert (source.layout, source.name, source.typed_objects, source.description) == (GENPLAN, "ferry", False, "")
    assert len(source.debug_tasks()) == 6 and source.has_generator


def test_genplan_init_writes_a_commented_domain_toml(tmp_path: Path, benchmarks: Path) -> None:
    copy = tmp_path / "spanner"
    shutil.copytree(benchmarks / "spanner", copy)
    code, out, _ = run_main("init", copy)
    text = (copy / "domain.toml").read_text()
    assert code == 0 and "wrote" in out and text.count("# ") >= 6
    assert 'name = "spanner"' in text and "typed_objects = true" in text
    source = DomainDir.open(copy)
    assert source.layout == PAPER and source.name == "spanner" and source.typed_objects
    code, _, err = run_main("init", copy)
    assert code == 2 and "already exists" in err and err.count("\n") == 1


NOT_A_DOMAIN_COMMANDS = [
    ("validate", "{dir}", "p.pddl", "plan.txt"),
    ("plan", "{dir}", "p.pddl"),
    ("show", "{dir}", "p.pddl"),
    ("eval", "{prog}", "{dir}"),
    ("generalize", "{prog}", "{dir}"),
    ("init", "{dir}"),
]


@pytest.mark.parametrize("argv", NOT_A_DOMAIN_COMMANDS, ids=lambda a: a[0])
def test_a_directory_that_is_no_domain_gets_one_line_saying_what_was_expected(tmp_path: Path, argv: tuple[str, ...]) -> None:
    (tmp_path / "notes.txt").write_text("no PDDL here\n")
    program = tmp_path / "prog.py"
    program.write_text("def generate_solution(objects, init, goal):\n    return []\n")
    code, _, err = run_main(*(a.format(dir=tmp_path, prog=program) for a in argv))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "problems_pddl/" in err and "debug/ and eval/" in err, err


def test_run_and_the_tui_say_the_same_for_a_directory_that_is_no_domain(tmp_path: Path) -> None:
    from genplan.tui.main import main as tui_main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert tui_main([str(tmp_path)]) == 2
    assert err.getvalue().count("\n") == 1 and "problems_pddl/" in err.getvalue()
    done = genplan_process("run", tmp_path, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", home=tmp_path)
    assert done.returncode == 2 and "problems_pddl/" in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------------ validate, show, plan


@pytest.mark.parametrize("name", DOMAINS)
def test_validate_show_and_plan_on_a_paper_directory(benchmarks: Path, name: str) -> None:
    directory = benchmarks / name
    for task in ("instance-0", "instance-5.pddl"):
        code, out, err = run_main("validate", directory, task)  # the reference plan by default
        assert (code, out.strip()) == (0, "The plan is valid."), err
    code, out, err = run_main("validate", directory, "instance-1", directory / "plans_gbfs" / "instance-1_plan.txt")
    assert code == 0, err
    code, out, _ = run_main("show", directory, "instance-2", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["goal"] and shown["init"]
    assert all(isinstance(o, list) for o in shown["objects"]) == DomainDir.open(directory).typed_objects
    code, out, err = run_main("plan", directory, "instance-0", "--json")
    reference = load_plan(directory / "plans_pddl" / "instance-0_plan.txt")
    assert code == 0 and len(json.loads(out)["plan"]) == len(reference), err
    code, _, err = run_main("show", directory, "instance-999")
    assert code == 2 and "no task of that name" in err


def test_validate_show_and_plan_on_bare_files(tmp_path: Path) -> None:
    domain, problems = bare_files(tmp_path)
    code, out, err = run_main("plan", domain, problems[0], "--json")
    assert code == 0, err
    plan_file = tmp_path / "plan.txt"
    plan_file.write_text("\n".join(json.loads(out)["plan"]) + "\n")
    assert run_main("validate", domain, problems[0], plan_file)[0] == 0
    assert run_main("show", domain, problems[1])[0] == 0
    code, _, err = run_main("validate", tmp_path, "p1")  # bare sources ship no plans
    assert code == 2 and "no reference plan" in err


def test_every_command_on_a_paper_directory_copied_without_adding_a_file(paper_copy: Path, tmp_path: Path) -> None:
    assert run_main("validate", paper_copy, "instance-3")[0] == 0
    assert run_main("show", paper_copy, "instance-3")[0] == 0
    assert run_main("plan", paper_copy, "instance-3")[0] == 0
    program = tmp_path / "prog.py"
    source = DomainDir.open(paper_copy)
    program.write_text(lookup_program(source, source.debug_tasks()))
    code, out, err = run_main("eval", program, paper_copy, "--tasks", "debug", "--orderings", "2")
    assert code == 0 and "coverage: 6/6" in out, out + err
    code, _, err = run_main("generalize", program, paper_copy)
    assert code == 2 and "missing generator.py" in err and err.count("\n") == 1


# ------------------------------------------------------------------ eval and generalize


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", DOMAINS)
def test_eval_on_a_paper_directory(benchmarks: Path, name: str, tmp_path: Path) -> None:
    source = DomainDir.open(benchmarks / name)
    program = tmp_path / "prog.py"
    program.write_text(lookup_program(source, source.debug_tasks()))
    code, out, err = run_main("eval", program, benchmarks / name, "--tasks", "debug", "--orderings", "2",
                              "--json", "-", "--compare-planner")
    report = json.loads(out)
    assert code == 0 and report["coverage"] == 1.0 and len(report["results"]) == 6, err
    # the reference plans (plans_gbfs) stand in for the satisficing planner
    for result in report["results"]:
        assert result["planner"]["planner"] == "reference plan (plans_gbfs)", result["planner"]
        assert result["planner"]["length_ratio"] is not None
    # the default task set is the paper's evaluation split: the lookup program knows none of those tasks
    code, out, _ = run_main("eval", program, benchmarks / name, "--orderings", "1", "--json", "-")
    assert code == 1 and len(json.loads(out)["results"]) == len(source.eval_tasks())


def test_eval_on_a_bare_domain_file_with_task_files(tmp_path: Path) -> None:
    from support.ferry_model import CORRECT_PROGRAM

    domain, problems = bare_files(tmp_path)
    program = tmp_path / "prog.py"
    program.write_text(CORRECT_PROGRAM)
    code, out, err = run_main("eval", program, domain, "--tasks", problems[0], problems[2], "--orderings", "2")
    assert code == 0 and "coverage: 2/2" in out, out + err
    code, out, err = run_main("eval", program, tmp_path, "--orderings", "1")  # the directory: problems beside
    assert code == 0 and "coverage: 3/3" in out, out + err
    code, _, err = run_main("generalize", program, domain, "--scale", "1,2")
    assert code == 2 and "missing generator.py" in err and err.count("\n") == 1, err


@pytest.mark.parametrize("name", DOMAINS)
def test_generalize_needs_a_generator_and_says_so(benchmarks: Path, name: str, tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text("def generate_solution(objects, init, goal):\n    return []\n")
    code, _, err = run_main("generalize", program, benchmarks / name, "--scale", "1,2")
    assert code == 2 and "missing generator.py" in err and err.count("\n") == 1, err


# ------------------------------------------------------------------ run and batch (scripted model)


class ReferenceModel:
    """Synthetic answers for any paper-layout domain: descriptions tagged with the task file, strategy plans
    from the reference plans, and a lookup-table program (test data, not model output)."""

    def __init__(self, sources: list[DomainDir]) -> None:
        self.tasks: dict[str, tuple[DomainDir, Path]] = {}
        self.programs: dict[str, str] = {}
        for source in sources:
            for task in source.debug_tasks():
                self.tasks[f"{source.name}/{task.stem}"] = (source, task)
            self.programs[source.name] = lookup_program(source, source.debug_tasks())
        self.texts = {key: task.read_text() for key, (_, task) in self.tasks.items()}

    def _tag(self, text: str) -> str | None:
        return next((key for key, pddl in self.texts.items() if pddl.strip() in text), None)

    def __call__(self, request: RecordedRequest) -> str | None:
        step = request.step or ""
        text = "\n".join(str(m["content"]) for m in request.messages)
        if step == "nl.domain":
            names = [s.name for s, _ in self.tasks.values() if f"(domain {s.name})" in text.lower()]
            return f"SYNTHETIC domain description <<{names[0] if names else '?'}>>."
        if step == "nl.task":
            return f"SYNTHETIC description of task [[{self._tag(request.messages[-1]['content'])}]]."
        if step in ("strategy.generate", "strategy.revise"):
            return "Reasoning.\n\nPseudocode:\n1. follow the reference plan"
        if step == "strategy.plan":
            match = re.search(r"\[\[([^\]]+)\]\]", str(request.messages[-1]["content"]))
            source, task = self.tasks[match.group(1)] if match else next(iter(self.tasks.values()))
            plan = [s.pddl() for s in load_plan(source.reference_plan(task) or Path("missing"))]
            return "Following the strategy:\n```\n" + "\n".join(plan) + "\n```"
        if step in ("strategy.reflect", "code.reflect"):
            return "SYNTHETIC reflection."
        if step.startswith(("code.", "baseline.")):
            domain = re.search(r"<<([^>]+)>>", text)
            program = self.programs.get(domain.group(1) if domain else "", next(iter(self.programs.values())))
            if "get_plan" in text:
                program = program.replace("def generate_solution(", "def get_plan(")
            return f"Here is the program.\n\n```python\n{program.strip()}\n```\n"
        return None


@pytest.mark.timeout(900)
def test_run_on_every_paper_directory_and_a_bare_one(benchmarks: Path, paper_copy: Path, tmp_path: Path) -> None:
    targets: list[Path] = [benchmarks / name for name in DOMAINS] + [paper_copy]
    sources = [DomainDir.open(p) for p in targets]
    config = tmp_path / "pipeline.toml"
    config.write_text(TINY_PIPELINE)
    with ScriptedServer() as server:
        server.respond_with(ReferenceModel(sources))
        for seed, target in enumerate(targets, start=1):
            seed = (seed - 1) % 3 + 1
            done = genplan_process(
                "run", target, "--model", server.model, "--base-url", server.base_url, "--pipeline-config", config,
                "--seed", str(seed), "--out", tmp_path / "runs", "--json", "--quiet", "--no-cache", home=tmp_path,
            )
            assert done.returncode == 0, (target, done.stderr[-2000:])
            summary: dict[str, Any] = json.loads(done.stdout)
            assert summary["debug_solved"] == summary["debug_total"] == 6, (target, summary)
            run_dir = Path(summary["run_dir"])
            events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
            started = next(e["data"] for e in events if e["type"] == "run.started")
            assert started["debug_tasks"] == [f"instance-{i}" for i in range(6)]
            # the prompt tasks are those of the paper's split for this seed
            split = json.loads((target / "seed_splits.json").read_text())
            prompt = next(v["prompt"] for k, v in split.items() if k.startswith(f"{seed}-"))
            strategy_prompt = next(r for r in server.requests if r.step == "strategy.generate"
                                   and any(f"[[{DomainDir.open(target).name}/" in str(m["content"]) for m in r.messages))
            shown = re.findall(r"\[\[[^/]+/([^\]]+)\]\]", str(strategy_prompt.messages[-1]["content"]))
            assert shown == [p.removesuffix(".pddl") for p in prompt], (target, shown, prompt)
    # a bare domain file with problems: the run finds them beside it
    _domain, problems = bare_files(tmp_path / "bare")
    with ScriptedServer() as server:
        from support.ferry_model import FerryModel

        server.respond_with(FerryModel())
        done = genplan_process("run", tmp_path / "bare", "--model", server.model, "--base-url", server.base_url,
                               "--pipeline-config", config, "--out", tmp_path / "runs-bare", "--json", "--quiet",
                               home=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        assert json.loads(done.stdout)["debug_total"] == len(problems)


@pytest.mark.timeout(600)
def test_batch_checks_every_kind_of_source(benchmarks: Path, tmp_path: Path) -> None:
    _domain, _problems = bare_files(tmp_path / "bare")
    (tmp_path / "bare" / "domain.toml").write_text('name = "ferry-bare"\n')  # the paper's ferry is listed too
    listed = [str(benchmarks / name) for name in DOMAINS] + [str(tmp_path / "bare" / "ferry-domain.pddl")]
    experiment = tmp_path / "experiment.toml"
    experiment.write_text(
        "[experiment]\nname = \"sources\"\n"
        f"domains = [{', '.join(json.dumps(p) for p in listed)}]\n"
        'presets = ["F5-3"]\nseeds = [1]\n\n'
        "[[models]]\nname = \"synthetic\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"
    )
    done = genplan_process("batch", experiment, "--dry-run", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("run ") == len(listed), done.stdout
    # keyed by domain.toml's name, else by directory (not by the PDDL names trapnewspapers, gripper-strips, ...)
    for name in ("ferry-bare", "delivery", "ferry", "gripper", "heavy", "hiking", "miconic", "spanner"):
        assert f" {name} F5-3 synthetic seed 1 " in done.stdout
    assert "trapnewspapers" not in done.stdout and "heavy-pack" not in done.stdout


# ------------------------------------------------------------------ the TUI


@pytest.mark.parametrize("name", DOMAINS)
def test_the_tui_opens_a_paper_directory(benchmarks: Path, name: str) -> None:
    from genplan.tui.domain_info import load_domain_info

    info = load_domain_info(benchmarks / name)
    assert info.error is None and info.domain is not None and info.directory is not None
    labels = [t.label for t in info.tasks]
    assert labels[:6] == [f"debug/instance-{i}" for i in range(6)]
    assert len(labels) == 6 + len(info.directory.eval_tasks())
    assert info.python_text(info.tasks[0]).startswith("objects = {")


async def test_the_tui_app_on_a_copied_paper_directory(paper_copy: Path, tmp_path: Path) -> None:
    from test_tui_support import config_for, make_app, ready

    from genplan.tui.widgets.panels import TasksPanel

    app = make_app(paper_copy, config_for(tmp_path, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("2")
        labels = [t.label for t in app.query_one(TasksPanel).tasks]
        assert labels[0] == "debug/instance-0" and any(label.startswith("eval/") for label in labels)


def test_the_tui_accepts_a_bare_domain_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import genplan.tui.app as app_module
    from genplan.tui.main import main as tui_main

    domain, _ = bare_files(tmp_path)
    shutil.move(domain, tmp_path / "domain.pddl")
    opened: list[Path] = []

    class FakeApp:
        def __init__(self, options: Any) -> None:
            opened.append(options.domain_dir)

        def run(self) -> None:
            pass

    monkeypatch.setattr(app_module, "GenplanApp", FakeApp)
    assert tui_main([str(tmp_path / "domain.pddl")]) == 0 and opened == [tmp_path]


def test_batch_evaluation_compares_with_the_shipped_plans(paper_copy: Path, tmp_path: Path) -> None:
    from genplan.engine.batch.jobs import attach_planner_results
    from genplan.engine.evaluation import Evaluator, load_tasks
    from genplan.engine.sandbox import Limits, Program, Sandbox

    source = DomainDir.open(paper_copy)
    domain = load_domain(source.domain_file)
    tasks = load_tasks(domain, source.debug_tasks()[:2], source.typed_objects, root=source.path)
    program_file = tmp_path / "prog.py"
    program_file.write_text(lookup_program(source, source.debug_tasks()))
    limits = Limits(time_limit=10)
    sandbox = Sandbox(limits)
    try:
        with Evaluator(domain, tasks, limits=limits, sandbox=sandbox) as evaluator:
            results = evaluator.evaluate(Program.from_file(program_file), orderings=1, jobs=1)
    finally:
        sandbox.close()
    assert all(r.solved for r in results)
    attach_planner_results(domain, results, tmp_path / "planner", 5.0,
                           reference=lambda task: source.reference_plan(task, "satisficing"))
    for result in results:
        assert result.planner is not None and result.planner.planner == "reference plan (plans_gbfs)"
        gbfs = load_plan(paper_copy / "plans_gbfs" / f"{result.task.path.stem}_plan.txt")
        assert result.planner.plan_length == len(gbfs)
