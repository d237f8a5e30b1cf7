"""A run anyone can open: `genplan export RUN --html` and `genplan report BATCH --html`, checked as a reader sees
them, in headless chromium (tests/support/browser.py), on runs the engine made against the scripted model server.

The model's key is a canary: the server refuses requests without it (so it certainly went through genplan), and a
person's edit pastes it into a strategy; the page must carry it nowhere.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.browser import browser_page, needs_chromium, section_text
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel
from support.scripted_server import ScriptedServer

from genplan.engine.api import StartRequest, fork, record_edit, start
from genplan.engine.api.share import ExportError, export_batch, export_run
from genplan.engine.llm import ModelSettings

CANARY = "sk-canary-5f1e0c9a7b3d4e2f"
KEY_VARIABLE = "GENPLAN_SHARE_CANARY"  # a name that does not look secret: the run's own key variable is scrubbed too
PROGRAM_LINE = "if ferry_at != start:"  # in the correct program, not in the buggy one


def _run_with_canary(root: Path, preset: str, model: FerryModel | None = None, **parameters: object) -> Path:
    domain = root / "ferry"
    if not domain.exists():
        shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    os.environ[KEY_VARIABLE] = CANARY
    with ScriptedServer(api_key=CANARY) as server:
        server.respond_with(model or FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
        settings = ModelSettings(model=server.model, base_url=server.base_url, api_key_env=KEY_VARIABLE,
                                 retry_base_delay_s=0.01)
        outcome = start(StartRequest(preset, str(domain), root / "runs", parameters=parameters), settings,
                        no_cache=True)
        assert server.requests and all(r.headers.get("authorization") == f"Bearer {CANARY}" for r in server.requests)
    return Path(outcome.run_dir)


@pytest.fixture(scope="module")
def stein_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A Stein run whose first strategy and first program fail a debug task, then a person's edit of its last
    strategy that pastes the key in."""
    run = _run_with_canary(tmp_path_factory.mktemp("share"), "F5-3")
    strategy = (run / "strategies" / "v02.md").read_text()
    record_edit(run, "strategies/v02.md", strategy, strategy + f"\nOur key is {CANARY}, do not share.\n")
    yield run
    os.environ.pop(KEY_VARIABLE, None)


def _genplan(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "genplan.cli.main", *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, KEY_VARIABLE: CANARY})


def _versions_of(run: Path) -> list[str]:
    files = [p for folder in ("nl", "strategies", "reflections", "programs") for p in (run / folder).glob("*")]
    return sorted(str(p.relative_to(run)) for p in files)


def test_export_writes_one_file_that_loads_nothing_and_holds_no_secret(stein_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "page" / "run.html"
    done = _genplan("export", str(stein_run), "--html", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out} (") and "MB)" in done.stdout
    page = out.read_text(encoding="utf-8")
    assert CANARY not in page and "[redacted]" in page  # the pasted key is gone, and says so
    # nothing from the network: no remote script, stylesheet, image, font or import
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?(https?:)?//""", page)
    assert len(re.findall(r"<script\b", page)) == 2 and "<link" not in page
    for version in _versions_of(stein_run):
        assert version in page, version
    assert "✎ edited" in page  # a person's edit is marked
    assert 'class="hl"' in page and '<span class="k">' in page  # the programs are highlighted by pygments


def test_export_refuses_what_is_no_run_in_one_line(tmp_path: Path) -> None:
    done = _genplan("export", str(tmp_path), "--html", str(tmp_path / "x.html"))
    assert done.returncode == 2 and done.stderr.strip() == f"genplan: {tmp_path}: not a run directory (no run.json)"
    with pytest.raises(ExportError, match="cannot write the page"):
        export_run(FERRY.parent.parent / "tests" / "data" / "runs" / "stein-6a70564", Path("/proc/nope/x.html"))


@needs_chromium
def test_the_page_in_chromium_shows_versions_tasks_feedback_plans_and_a_diff(stein_run: Path, tmp_path: Path) -> None:
    out = export_run(stein_run, tmp_path / "run.html").path
    results = json.loads((stein_run / "results" / "program-c1-v00.json").read_text())
    failed = next(r for r in results if not r["solved"])
    with browser_page() as (page, errors):
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(out.as_uri())
        assert CANARY not in page.content()
        # every version, and every debug task as a column of the results matrix (each section is laid out as
        # it comes into view, as a reader scrolls to it)
        text = section_text(page, "#versions")
        for version in _versions_of(stein_run):
            assert version in text, version
        section_text(page, "#results")
        headers = page.locator("table.matrix thead th").all_inner_texts()
        assert headers[1:] == [f"task-0{i}" for i in range(6)]
        assert page.locator("details.version .edit").count() == 1  # the person's edit, marked ✎
        # a failed cell opens the feedback the model got and the plan stepper at the failing step
        page.locator(f'button.cell[data-title="program c1-v00 on {failed["task"]}"]').click()
        assert page.inner_text("#cell-message") == failed["message"]
        assert page.locator("#stepper").is_visible()
        assert page.locator("#step-actions li.st-failed").count() == 1
        assert "fails" in page.inner_text("#step-label")
        page.click("#step-first")
        assert page.inner_text("#step-label") == "initial state"
        # a diff of the two programs: the line the fix added is marked as added
        programs = [o.get_attribute("value") for o in page.locator("#diff-left option").all()
                    if "programs/" in o.inner_text()]
        page.select_option("#diff-left", programs[0])
        page.select_option("#diff-right", programs[1])
        section_text(page, "#compare")
        added = page.locator("#diff td.add").all_inner_texts()
        assert any(PROGRAM_LINE in line for line in added), added
        assert page.locator("#diff td.del, #diff td.add").count() >= 1
        # a model call opens with its messages and its answer, as recorded
        request = json.loads((stein_run / "requests" / "0001-nl.domain.json").read_text())
        section_text(page, "#timeline")
        call = page.locator("details.call").first
        call.locator("summary").click()
        # the browser fires `toggle` after the click returns: the messages are filled in a moment later
        call.locator("pre.answer").wait_for()
        shown = call.locator("pre.message").all_inner_texts()
        assert shown == [m["content"] for m in request["messages"]]
        assert call.locator("pre.answer").inner_text() == (stein_run / "responses" / "0001-nl.domain.md").read_text()
        shot = tmp_path / "page.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert errors == []
        assert all(url.startswith("file://") for url in requested), requested


@needs_chromium
def test_a_counterexample_shows_its_task_and_the_programs_plan_on_it(stein_run: Path, tmp_path: Path) -> None:
    from genplan.engine.api.versions import counterexample_for

    run = Path(shutil.copytree(stein_run, tmp_path / stein_run.name))
    source = (run / "programs" / "c1-v00.py").read_text()
    record, pddl = counterexample_for(run, "c1-v00", "programs/c1-v00.py", source, stein_run.parent.parent / "ferry",
                                      seconds=10)
    assert record["found"] and pddl
    failure = (record.get("shrunk") or {}).get("failure") or record["failure"]  # shrinking may run out of time
    page_file = export_run(run, tmp_path / "page.html").path
    with browser_page() as (page, errors):
        page.goto(page_file.as_uri())
        shown = section_text(page, "#counterexamples")
        assert "(define (problem" in shown and failure["category"] in shown
        page.get_by_text("step through the program's plan").click()
        assert page.inner_text("#cell-message") == failure["message"]
        assert page.locator("#step-actions li.st-failed").count() == 1
        page.keyboard.press("Escape")
        assert not page.locator("#cell").is_visible()
        assert errors == []


@needs_chromium
def test_an_evaluation_beside_the_run_shows_each_task_and_its_feedback(stein_run: Path, tmp_path: Path) -> None:
    # evaluation.json as a batch writes it: genplan eval's record of the selected program on the eval tasks
    run = Path(shutil.copytree(stein_run, tmp_path / stein_run.name))
    done = _genplan("eval", str(run / "programs" / "c1-v00.py"), str(stein_run.parent.parent / "ferry"), "--tasks",
                    "eval", "--orderings", "1", "--quiet", "--json", str(run / "evaluation.json"))
    assert done.returncode == 1, done.stderr  # the buggy program fails some eval task
    evaluation = json.loads((run / "evaluation.json").read_text())
    failed = next(r for r in evaluation["results"] if r["status"] != "solved")
    page_file = export_run(run, tmp_path / "page.html").path
    with browser_page() as (page, errors):
        page.goto(page_file.as_uri())
        shown = section_text(page, "#results")
        solved = sum(r["status"] == "solved" for r in evaluation["results"])
        assert f"evaluation of c1-v00: {solved} of {len(evaluation['results'])} solved" in shown
        page.locator(f'button.cell[data-title="evaluation of c1-v00 on {failed["task"]}"]').click()
        assert page.inner_text("#cell-message") == failed["message"]
        assert errors == []


def test_a_fork_names_its_parent_and_the_version_it_continues_from(stein_run: Path, tmp_path: Path) -> None:
    text = (stein_run / "strategies" / "v01.md").read_text() + "\nBoard before sailing.\n"
    forked = fork(stein_run, "strategies/v01.md", "strategy", text, root=tmp_path)
    page = export_run(forked, tmp_path / "fork.html").path.read_text()
    # the call numbered as every screen numbers it (its place among the source's calls), not its request id
    meta = json.loads((forked / "run.json").read_text())
    calls = [json.loads(line) for line in (stein_run / "events.jsonl").read_text().splitlines()]
    asked = [e["data"]["request_id"] for e in calls if e["type"] == "request.sent"]
    number = asked.index(meta["forked_at"]) + 1
    made_by = f"fork of {stein_run.name} from strategies/v01.md, call {number} on"
    assert f'<dd data-fact="provenance">{made_by}</dd>' in page


def test_a_batch_report_page_links_a_page_of_each_run(stein_run: Path, tmp_path: Path) -> None:
    # a batch of one run, as genplan batch lays it out (batch.json names each run's directory)
    batch = tmp_path / "batch"
    shutil.copytree(stein_run, batch / "runs" / "ferry-F5-3-1")
    entry = {"domain": "ferry", "preset": "F5-3", "model": "scripted", "seed": 1, "run_dir": "runs/ferry-F5-3-1"}
    experiment = {"name": "one", "domains": [{"name": "ferry"}], "presets": [{"label": "F5-3"}],
                  "models": [{"label": "scripted"}], "seeds": [1]}
    (batch / "batch.json").write_text(json.dumps({"experiment": experiment, "entries": [entry]}))
    done = _genplan("report", str(batch), "--html", "--print", "none")
    assert done.returncode == 0, done.stderr
    report = batch / "report" / "report.html"
    page = report.read_text()
    assert 'href="runs/ferry-F5-3-1.html"' in page and "<svg" in page and CANARY not in page
    # each run's row says what its page's head says: the run's account
    from genplan.engine.api import account

    told = account(batch / "runs" / "ferry-F5-3-1")
    assert f"<td>{told.outcome.status_words}</td><td>{told.outcome.facts.headline}</td>" in page
    run_page = (batch / "report" / "runs" / "ferry-F5-3-1.html").read_text()
    assert 'href="../report.html"' in run_page and CANARY not in run_page
    assert export_batch(batch, tmp_path / "elsewhere" / "r.html").pages == 2


@pytest.mark.parametrize("preset", ["Bas", "Sil"])
def test_the_baselines_pages_show_their_programs_and_checks(preset: str, tmp_path: Path) -> None:
    run = _run_with_canary(tmp_path, preset, FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM]))
    page = export_run(run, tmp_path / "page.html").path.read_text()
    assert f"<dt>approach</dt><dd data-fact=\"approach\">{preset.lower()}</dd>" in page
    assert all(version in page for version in _versions_of(run)) and "programs/" in page
    assert 'class="matrix"' in page and CANARY not in page


def test_every_screenshot_of_the_sharing_guide_is_made_by_its_script() -> None:
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("shots", root / "docs" / "make_sharing_screenshots.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    linked = set(re.findall(r"screenshots/(share-[a-z]+)\.png", (root / "docs" / "sharing.md").read_text()))
    assert linked == {name for name, _ in script.SHOTS}
    for name in linked:
        assert (root / "docs" / "screenshots" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_chromium
def test_the_page_stepper_stops_at_a_failing_step_and_says_which_steps_never_ran(stein_run: Path,
                                                                                tmp_path: Path) -> None:
    """The page shows the engine's trace: ▶ never walks past the action that failed (nothing after it ran), the end
    does not claim every step ran, and steps are numbered as the feedback beside them numbers them."""
    results = json.loads((stein_run / "results" / "program-c1-v00.json").read_text())
    failed = next(r for r in results if not r["solved"] and " at step " in r["message"])
    number = int(re.search(r" at step (\d+) ", failed["message"]).group(1))  # the feedback's own numbering
    out = export_run(stein_run, tmp_path / "run.html").path
    with browser_page() as (page, errors):
        page.goto(out.as_uri())
        section_text(page, "#results")
        page.locator(f'button.cell[data-title="program c1-v00 on {failed["task"]}"]').click()
        label = page.inner_text("#step-label")
        assert f"the next step, {number}, fails" in label, label
        failing = page.locator("#step-actions li.st-failed")
        assert failing.count() == 1 and failing.get_attribute("value") == str(number)
        steps = page.locator("#step-actions li").count()
        not_run = page.locator("#step-actions li.st-not-run").count()
        assert not_run == steps - (number + 1) and not_run > 0  # ferry's buggy plans fail before their end
        assert "were not run" in label or "was not run" in label
        state = page.locator("#step-state li").all_inner_texts()
        for _ in range(3):  # ▶ past the failure: nothing ran there, the stepper stays where the plan stopped
            page.click("#step-next")
            assert page.inner_text("#step-label") == label
            assert page.locator("#step-state li").all_inner_texts() == state
        assert "every step ran" not in page.inner_text("#step-label")
        page.click("#step-first")
        page.click("#step-fail")  # the failing step: the state it failed in, not the state after it
        assert page.inner_text("#step-label") == label
        assert errors == []


@needs_chromium
def test_the_page_says_when_and_by_which_genplan_it_was_exported_and_that_a_live_run_was_taken_mid_run(
        stein_run: Path, tmp_path: Path) -> None:
    import genplan

    run = Path(shutil.copytree(stein_run, tmp_path / stein_run.name))
    finished = export_run(run, tmp_path / "done.html").path.read_text()
    exported = re.search(r'<dd data-fact="exported">([^<]*)</dd>', finished)
    assert exported is not None and f"by genplan {genplan.__version__}" in exported.group(1)
    assert "taken mid-run" not in exported.group(1)
    meta = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**meta, "status": "running", "pid": os.getpid()}))
    live = export_run(run, tmp_path / "live.html").path.read_text()
    assert "taken mid-run" in re.search(r'<dd data-fact="exported">([^<]*)</dd>', live).group(1)
