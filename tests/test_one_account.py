"""One account of a run everywhere: for a run of every approach (Stein's F5-3, Bas, Sil, the plug-in of
tests/support/guess_approach.py, AutoToS live and imported, a PDDLego+ trial live and imported, a fork of an edit,
a Silver import), the same facts -- the model recorded, how the run was made, its outcome, its calls by kind and
its tokens by kind -- are read from ``--json``, from the exported page in headless chromium and from the app's
screen (Pilot), and must agree with one another and with the run's event log (read here line by line, not
through the account's code).

Runs are made against the scripted server (tests/support) or imported from ../shared's published logs (those
kinds skip, saying why, when ../shared is absent; the live trial needs Java).
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support.browser import browser_page, needs_chromium
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel
from support.scripted_server import RecordedRequest, ScriptedServer
from test_tui_support import config_for, make_app, ready, wait_for

from genplan.cli.main import main
from genplan.engine.api.runs import Tokens
from genplan.engine.api.share import export_run

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
AUTOTOS = SHARED / "autotos"
AUTOTOS_LOG = AUTOTOS / "clean_logs" / "24game" / "gpt4-mini-val_logs" / "script_log_20240802_235031.txt"
SILVER = SHARED / "model-responses" / "silver2024" / "pg3-hiking_0_chatgpt4"
HIKING = SHARED / "benchmarks" / "hiking"
TRIAL_LOGS = SHARED / "pddlego-plus" / "output" / "CoinCollector" / "CC_PDDLego+_4o"
KINDS = ("model", "cache", "log", "resumed", "person")
# how the app's line and the CLI's words name each kind of call (engine/runs/account.count_words)
CALL_WORDS = {"by the model": "model", "from the cache": "cache", "from the log": "log",
              "kept from before": "resumed", "by a person": "person"}


@dataclass(frozen=True)
class Facts:
    model: str
    provenance: str
    outcome: str
    calls: dict[str, int]  # kind -> calls, kinds with none left out
    tokens_billed: str
    tokens_cached: str


# -------------------------------------------------------------------------------------------- the readers
def from_json(shown: dict[str, Any]) -> Facts:
    account = shown["account"]
    counts = account["counts"]
    return Facts(account["who"]["model"] or "none recorded", account["who"]["provenance"]["words"],
                 account["outcome"]["facts"]["headline"], {k: counts[k] for k in KINDS if counts[k]},
                 Tokens(**counts["tokens_billed"]).words, Tokens(**counts["tokens_cached"]).words)


def from_page(run_dir: Path, out: Path) -> Facts:
    page_file = export_run(run_dir, out).path
    with browser_page() as (page, errors):
        page.goto(page_file.as_uri())

        def fact(key: str) -> str:
            return str(page.inner_text(f'#account dd[data-fact="{key}"]')).strip()

        calls = {kind: int(fact(f"calls-{kind}")) for kind in KINDS}
        facts = Facts(fact("model"), fact("provenance"), fact("outcome"), {k: n for k, n in calls.items() if n},
                      fact("tokens-billed"), fact("tokens-cached"))
        assert errors == []
    return facts


def from_app_line(line: str) -> Facts:
    """The account's line under the app's run header: model · made by · status · outcome · calls · tokens · time."""
    parts = line.split(" · ")
    model, provenance, _status, outcome, calls, tokens = parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]
    counted = {}
    for part in calls.removeprefix("calls: ").split(", "):
        number, words = part.split(" ", 1)
        counted[CALL_WORDS[words]] = int(number)
    billed, cached = tokens.removeprefix("tokens billed ").split(", from the cache ")
    return Facts(model.removeprefix("model "), provenance, outcome, counted, billed, cached.split(", in the log ")[0])


async def from_app(run_dir: Path, domain: Path | None, root: Path) -> Facts:
    runs = run_dir.parent
    if domain is None:
        app = make_app(runs, config_for(root, None), runs_dir=runs, no_domain=True, run=run_dir.name)
    else:
        app = make_app(domain, config_for(root, None), runs_dir=runs, run=str(run_dir))
    async with app.run_test(size=(200, 40)) as pilot:
        await ready(pilot, app)
        header = app.query_one("#run-header")
        await wait_for(pilot, lambda: "\n" in str(header.render()), timeout=60, what="the run's account in the app")
        line = str(header.render()).split("\n", 1)[1]
    return from_app_line(line)


def from_log(run_dir: Path) -> tuple[dict[str, int], str, str]:
    """Calls by kind and tokens billed and served from the cache, counted from the event log's lines."""
    meta = json.loads((run_dir / "run.json").read_text())
    imported = bool(meta.get("import") or meta.get("imported_from"))
    first: dict[int, dict[str, Any]] = {}
    for line in (run_dir / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        data = event.get("data", {})
        if event.get("type") == "response.received" and data.get("request_id") not in first:
            first[data["request_id"]] = data
    calls: dict[str, int] = {}
    tokens: dict[str, list[tuple[int | None, int | None]]] = {"model": [], "cache": []}
    for data in first.values():
        kind = ("person" if data.get("human") else "resumed" if data.get("resumed") else
                "cache" if data.get("cached") else "log" if imported else "model")
        calls[kind] = calls.get(kind, 0) + 1
        if kind in tokens:
            tokens[kind].append((data.get("tokens_in"), data.get("tokens_out")))

    def words(pairs: list[tuple[int | None, int | None]]) -> str:
        if not pairs:
            return Tokens(0, 0).words
        ins, outs = [p[0] for p in pairs if p[0] is not None], [p[1] for p in pairs if p[1] is not None]
        return Tokens(sum(ins) if ins else None, sum(outs) if outs else None).words

    return calls, words(tokens["model"]), words(tokens["cache"])


# ------------------------------------------------------------------------------------------- the runs
def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def model_flags(server: ScriptedServer) -> list[str]:
    return ["--model", server.model, "--base-url", server.base_url, "--quiet"]


def buggy_then_fixed() -> FerryModel:
    return FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM])


def no_code(request: RecordedRequest) -> str | None:
    return "I would rather not write a program." if "code" in (request.step or "") else None


@dataclass
class Made:
    run_dir: Path
    shown: dict[str, Any]  # what --json printed
    domain: Path | None  # the domain directory the app opens on (None: the runs alone)


def _domain(root: Path) -> Path:
    domain = root / "ferry"
    if not domain.exists():
        shutil.copytree(FERRY, domain, ignore=shutil.ignore_patterns(".genplan"))
    return domain


def pipeline_run(preset: str, model: Callable[[], FerryModel]) -> Callable[[Path, pytest.CaptureFixture[str]], Made]:
    def make(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
        domain = _domain(root)
        with ScriptedServer() as server:
            server.respond_with(model())  # a new one each time: it counts the answers it gave
            shown = cli(capsys, "run", str(domain), "--preset", preset, "--out", str(root / "runs"), "--json",
                        *model_flags(server))
        return Made(Path(shown["run_dir"]), shown, domain)
    return make


def fork_of_an_edit(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    source = pipeline_run("F5-3", buggy_then_fixed)(root, capsys)
    edited = root / "edited.py"
    edited.write_text((source.run_dir / "programs" / "c1-v00.py").read_text() + "\n# checked by a person\n")
    capsys.readouterr()
    assert main(["edit", str(source.run_dir), "programs/c1-v00.py", str(edited)]) == 0
    version = capsys.readouterr().out.strip()
    with ScriptedServer() as server:
        server.respond_with(FerryModel(programs=[CORRECT_PROGRAM]))
        shown = cli(capsys, "fork", str(source.run_dir), "--from", version, "--json", *model_flags(server)[:4])
    return Made(Path(shown["run_dir"]), shown, source.domain)


def plugin(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    from support.guess_approach import register_guess
    from test_toy_everywhere import ferry_plan

    register_guess()  # unregistered by the fixture below
    domain = _domain(root)
    with ScriptedServer() as server:
        server.respond_with(lambda request: ferry_plan())
        shown = cli(capsys, "run", str(domain), "--preset", "Guess", "--eval", "--out", str(root / "runs"), "--json",
                    *model_flags(server))
    return Made(Path(shown["run_dir"]), shown, domain)


def autotos_live(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    from support.small_ferry import small_ferry
    from test_autotos_pddl import FERRY as SUCC
    from test_autotos_pddl import GOAL

    ferry = small_ferry()
    with ScriptedServer() as server:
        server.on_step("autotos.succ", [SUCC])
        server.on_step("autotos.goal", [GOAL])
        shown = cli(capsys, "run", str(ferry), "--preset", "AutoToS", "--out", str(root / "runs"), "--json",
                    *model_flags(server))
    return Made(Path(shown["run_dir"]), shown, None)


def autotos_import(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    if not AUTOTOS_LOG.is_file():
        pytest.skip(f"the AutoToS release is absent ({AUTOTOS_LOG} not found beside the checkout)")
    shown = cli(capsys, "import", "autotos", str(AUTOTOS_LOG), "--data", str(AUTOTOS), "--no-eval", "--quiet",
                "--runs", str(root / "runs"), "--json")
    return Made(Path(shown["run_dir"]), shown, None)


def trial_live(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    from test_pddlego_loop import TO_BACKYARD, TO_PANTRY

    from genplan.engine.pddlego.environment import java_available

    if not java_available():
        pytest.skip("CoinCollector needs a Java runtime (java not on PATH)")
    with ScriptedServer() as server:
        server.enqueue(TO_PANTRY, TO_BACKYARD)
        (shown,) = cli(capsys, "pddlego", "--preset", "pddlego-detailed", "--seeds", "1", "--locations", "5",
                       "--out", str(root / "out"), "--json", *model_flags(server)[:4])
    return Made(Path(shown["run_dir"]), shown, None)


def trial_import(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    logs = sorted(TRIAL_LOGS.glob("*.txt")) if TRIAL_LOGS.is_dir() else []
    if not logs:
        pytest.skip(f"the PDDLego+ logs are absent ({TRIAL_LOGS} not found beside the checkout)")
    shown = cli(capsys, "import", "pddlego", str(logs[0]), "--env", "logged", "--out", str(root / "out"), "--json")
    return Made(Path(shown["run_dir"]), shown, None)


def silver_import(root: Path, capsys: pytest.CaptureFixture[str]) -> Made:
    if not SILVER.is_dir() or not HIKING.is_dir():
        pytest.skip(f"Silver et al.'s cache or the benchmarks are absent ({SILVER}, {HIKING})")
    domain = root / "hiking"
    shutil.copytree(HIKING, domain)
    shown = cli(capsys, "import", "silver", str(SILVER), "--domain", str(domain), "--runs", str(root / "runs"),
                "--json")
    return Made(Path(shown["run_dir"]), shown, domain)


RUNS: dict[str, Callable[[Path, pytest.CaptureFixture[str]], Made]] = {
    "stein-F5-3": pipeline_run("F5-3", buggy_then_fixed),
    "bas-without-a-program": pipeline_run("Bas", lambda: FerryModel(extra=no_code)),
    "sil": pipeline_run("Sil", lambda: FerryModel(programs=[BUGGY_PROGRAM, CORRECT_PROGRAM])),
    "fork-of-an-edit": fork_of_an_edit,
    "plugin-guess": plugin,
    "autotos-live": autotos_live,
    "autotos-import": autotos_import,
    "trial-live": trial_live,
    "trial-import": trial_import,
    "silver-import": silver_import,
}


@pytest.fixture
def guess_registered() -> Iterator[None]:
    from support.guess_approach import unregister_guess

    yield
    unregister_guess()


@needs_chromium
@pytest.mark.parametrize("kind", list(RUNS))
async def test_the_json_the_page_and_the_app_say_the_same_of_a_run_as_its_log(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        guess_registered: None) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    made = RUNS[kind](tmp_path, capsys)
    json_facts = from_json(made.shown)
    # playwright's sync API in a thread of its own: this test's loop runs the app
    page_facts = await asyncio.to_thread(from_page, made.run_dir, tmp_path / "page.html")
    app_facts = await from_app(made.run_dir, made.domain, tmp_path)
    assert page_facts == json_facts, kind
    assert app_facts == json_facts, kind
    # the event log, read line by line
    calls, billed, cached = from_log(made.run_dir)
    assert json_facts.calls == calls
    assert (json_facts.tokens_billed, json_facts.tokens_cached) == (billed, cached)
    meta = json.loads((made.run_dir / "run.json").read_text())
    assert json_facts.model == (meta.get("model") or {}).get("model", "none recorded")
    # what each kind of run is and achieved, as the approach says it
    expected = {
        "stein-F5-3": r"^program c1-v\d\d selected: 6/6 debug tasks solved$",
        "bas-without-a-program": r"^no program selected \(0/6 debug tasks solved\)$",
        "sil": r"^program c1-v\d\d selected: \d/6 debug tasks solved$",
        "fork-of-an-edit": r"^program c1-v\d\d\S* selected: 6/6 debug tasks solved$",
        "plugin-guess": r"^1/1 tasks of its own evaluation solved$",
        "autotos-live": r"^unit tests passed; no evaluation$",
        "autotos-import": r"^unit tests passed; no evaluation$",
        "trial-live": r"^trial succeeded after 2 steps$",
        "trial-import": r"^trial (succeeded|failed \(.+\)) after \d+ steps?$",
        "silver-import": r"^(program .+ selected|no program selected)",
    }[kind]
    assert re.search(expected, json_facts.outcome), json_facts.outcome
    provenance = {"fork-of-an-edit": "fork of ", "autotos-import": "import of a published autotos log: ",
                  "trial-import": "import of a published pddlego log: ",
                  "silver-import": "import of a published silver log: "}.get(kind, "live")
    assert json_facts.provenance.startswith(provenance), json_facts.provenance
    if kind.endswith("-import"):  # an import's log has no token figures: "not logged", never 0
        assert "log" in json_facts.calls and "model" not in json_facts.calls
    if kind in ("autotos-import", "trial-import"):  # the log's own result beside genplan's, in the page's head
        logged = made.shown["account"]["outcome"]["facts"]["log_result"]
        assert logged and f'<dd data-fact="log-result">{logged}</dd>' in (tmp_path / "page.html").read_text()


def _compare_default(page_file: Path) -> tuple[str, str, str]:
    """The two versions the page's compare opens on, and what it says of them."""
    with browser_page() as (page, errors):
        page.goto(page_file.as_uri())
        left = page.eval_on_selector("#diff-left", "s => s.selectedOptions.length ? s.selectedOptions[0].text : ''")
        right = page.eval_on_selector("#diff-right", "s => s.selectedOptions.length ? s.selectedOptions[0].text : ''")
        said = str(page.eval_on_selector("#diff", "e => e.textContent"))  # laid out or not
        assert errors == []
    return left, right, said


@needs_chromium
@pytest.mark.parametrize("kind", ["autotos-live", "bas-without-a-program", "stein-F5-3"])
def test_compare_opens_on_two_versions_of_one_artefact(kind: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Never a goal test beside a successor function (AutoToS), never two tasks' descriptions (Bas): the latest
    version of an artefact and the one before it, and two identical texts are said to be identical."""
    from genplan.engine.share.collect import artefact_of

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    made = RUNS[kind](tmp_path, capsys)
    left, right, said = _compare_default(export_run(made.run_dir, tmp_path / "page.html").path)
    if kind == "autotos-live":  # one successor function and one goal test: nothing of one artefact to compare
        assert (left, right) != ("function: versions/goal-1.py", "function: versions/succ-1.py")
        assert not right and "fewer than two versions of one artefact" in said
        return
    if kind == "stein-F5-3":  # two programs of c1 at least
        assert left and right, said
    if not right:
        assert "fewer than two versions of one artefact" in said
        return
    (left_kind, left_file), (right_kind, right_file) = (text.split(": ", 1) for text in (left, right))
    assert artefact_of(left_kind, left_file) == artefact_of(right_kind, right_file) and left_file != right_file
    if (made.run_dir / left_file).read_text() == (made.run_dir / right_file).read_text():
        assert "the two versions are the same" in said
