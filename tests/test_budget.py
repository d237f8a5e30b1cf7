"""Caps on a run's spend (calls, tokens, dollars), kept before each model request against a scripted server whose
answers carry known token counts: the run stops at the cap with the reason "budget" on its record, and goes on
with a higher cap to the same result as a run with no cap, asking nothing twice."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from support.ferry_model import CLEAN_RUN_CALLS, FERRY, FerryModel
from support.scripted_server import RecordedRequest, Reply, ScriptedServer

from genplan.engine import api
from genplan.engine.api.budget import Budget, BudgetError, BudgetMeter, BudgetReached, Spend, check_budget, spend_of
from genplan.engine.llm import ChatResponse, ModelSettings, Price, Usage

# every answer of the scripted model costs this many tokens (the server's `usage`)
TOKENS_IN, TOKENS_OUT, REASONING = 1000, 200, 50
PRICE = Price(2.0, 10.0)  # USD per million tokens: 1000 in + 200 out = $0.004 a call
CALL_COST = (TOKENS_IN * 2.0 + TOKENS_OUT * 10.0) / 1e6


class CountedFerry(FerryModel):
    """FerryModel's answers, each with the same known token counts (reasoning counted in the output)."""

    def __call__(self, request: RecordedRequest) -> Reply | str | None:
        answer = super().__call__(request)
        text = answer.text if isinstance(answer, Reply) else answer
        if text is None:
            return None
        return Reply.answer(text, usage={"prompt_tokens": TOKENS_IN, "completion_tokens": TOKENS_OUT,
                                         "reasoning_tokens": REASONING})


def settings_for(server: ScriptedServer) -> ModelSettings:
    return ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01,
                         prices={server.model: PRICE})


def start(server: ScriptedServer, root: Path, budget: Budget | None, domain: Path = FERRY) -> api.RunOutcome:
    request, _ = api.start_request("F5-3", str(domain), root)
    return api.start(request, settings_for(server), no_cache=True, budget=budget)


def selected_text(outcome: api.RunOutcome) -> str:
    selected = api.report(outcome).details["selected_program"]
    return Path(selected).read_text(encoding="utf-8")


def meta(run_dir: Path) -> dict:
    return json.loads((run_dir / "run.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------------ the meter itself
def response(tokens_in: int = TOKENS_IN, tokens_out: int = TOKENS_OUT, cost: float | None = CALL_COST,
             cached: bool = False) -> ChatResponse:
    return ChatResponse("x", "m", usage=Usage(tokens_in, tokens_out, REASONING), cost_usd=cost, cached=cached)


def test_the_meter_refuses_at_each_cap_and_counts_neither_cached_answers_nor_failures() -> None:
    meter = BudgetMeter(Budget(max_calls=2))
    for _ in range(2):
        meter.acquire("nl.task")
        meter.release(response())
    with pytest.raises(BudgetReached) as refused:
        meter.acquire("nl.task")
    assert refused.value.reason == "budget" and "2 of --max-calls 2" in str(refused.value)
    tokens = BudgetMeter(Budget(max_total_tokens=2 * (TOKENS_IN + TOKENS_OUT)))
    tokens.acquire()
    tokens.release(None)  # a request that failed: nothing spent
    tokens.acquire()
    tokens.release(response(cached=True))  # a cached answer costs nothing
    assert tokens.snapshot() == Spend()
    for _ in range(2):
        tokens.acquire()
        tokens.release(response())
    with pytest.raises(BudgetReached):
        tokens.acquire()
    cost = BudgetMeter(Budget(max_cost=CALL_COST * 1.5))
    cost.acquire()
    cost.release(response())
    cost.acquire()  # $0.004 of $0.006: one more may go, and passes the cap by less than its own worth
    cost.release(response())
    with pytest.raises(BudgetReached):
        cost.acquire()
    assert cost.snapshot().cost_usd == pytest.approx(2 * CALL_COST)


def test_concurrent_requests_wait_rather_than_pass_a_cap_together() -> None:
    """Requests in flight are reckoned at the largest answer's size: of ten threads asking at once under a cap of
    two and a half answers' tokens, three are sent (the cap passed by at most one answer) and seven refused."""
    meter = BudgetMeter(Budget(max_total_tokens=int(2.5 * (TOKENS_IN + TOKENS_OUT))))
    meter.acquire()
    meter.release(response())  # one answer known: its size
    sent, refused = [], []
    gate = threading.Barrier(10)

    def ask() -> None:
        gate.wait()
        try:
            meter.acquire()
        except BudgetReached:
            refused.append(1)
            return
        sent.append(1)
        meter.release(response())

    threads = [threading.Thread(target=ask) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert meter.snapshot().tokens <= 2.5 * (TOKENS_IN + TOKENS_OUT) + (TOKENS_IN + TOKENS_OUT)
    assert len(sent) == 2 and len(refused) == 8  # 1 before + 2 now = 3 answers = 3600 tokens of a 3000 cap


def test_a_batch_meter_is_charged_by_its_runs_and_stops_them_all() -> None:
    batch = BudgetMeter(Budget(max_calls=3), scope="batch")
    runs = [BudgetMeter(Budget(), parent=batch) for _ in range(2)]
    for meter in (runs[0], runs[1], runs[0]):
        meter.acquire()
        meter.release(response())
    assert batch.snapshot().calls == 3 and runs[0].snapshot().calls == 2
    with pytest.raises(BudgetReached) as refused:
        runs[1].acquire("code.generate")
    assert "the batch's budget is spent" in str(refused.value) and runs[1].reached
    with pytest.raises(BudgetReached):  # the run's own place was given back: it is refused again, not stuck
        runs[1].acquire("code.generate")
    assert runs[1].snapshot().calls == 1


def test_a_cost_cap_needs_a_price_and_bad_caps_are_one_line() -> None:
    with pytest.raises(BudgetError, match="no price known for model local-model"):
        check_budget(Budget(max_cost=1.0), ModelSettings(model="local-model"))
    check_budget(Budget(max_cost=1.0), ModelSettings(model="gpt-4o"))  # genplan's list has it
    check_budget(Budget(max_calls=3), ModelSettings(model="local-model"))
    with pytest.raises(BudgetError, match="max_calls must be a non-negative whole number"):
        Budget.from_table({"max_calls": -1}, "config.toml")
    with pytest.raises(BudgetError, match="unknown key"):
        Budget.from_table({"max_dollars": 1}, "config.toml")


# ------------------------------------------------------------------------------------------------ runs on the server
@pytest.mark.parametrize("cap", [
    Budget(max_calls=5),
    Budget(max_total_tokens=5 * (TOKENS_IN + TOKENS_OUT)),
    Budget(max_cost=5 * CALL_COST),
], ids=["calls", "tokens", "cost"])
def test_a_capped_run_stops_at_the_cap_and_resumes_to_the_uncapped_result(
        cap: Budget, scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(CountedFerry())
    free = start(scripted_server, tmp_path / "free", None)
    assert free.status == "finished"
    free_calls = len(scripted_server.requests)
    assert free_calls == CLEAN_RUN_CALLS

    scripted_server.clear()
    scripted_server.respond_with(CountedFerry())
    capped = start(scripted_server, tmp_path / "capped", cap)
    assert capped.status == "stopped"
    record = meta(capped.run_dir)
    assert record["stop_reason"] == "budget" and record["status"] == "stopped"
    account = api.account(Path(capped.run_dir))  # what every front end says of it: not a person's stop
    assert account.outcome.status_words == "stopped at a cap of its budget"
    asked = len(scripted_server.requests)
    # the cap is 5 answers' worth; the requests of NL tasks go out concurrently, so it may be passed by one
    assert 5 <= asked <= 6
    spent = spend_of(capped.run_dir)
    assert spent.calls == asked and spent.tokens == asked * (TOKENS_IN + TOKENS_OUT)
    assert spent.tokens_out == asked * TOKENS_OUT  # reasoning is part of the output
    assert spent.cost_usd == pytest.approx(asked * CALL_COST)
    # the run's account (the app, the page, --json) counts the same spend
    assert account.counts.cost_usd == pytest.approx(asked * CALL_COST)
    assert account.counts.cost_words == f"${asked * CALL_COST:.4f}"
    assert record["budget"]["spent"]["calls"] == asked and "reached" in record["budget"]
    assert "budget" in api.message(capped)

    # the same cap again: nothing more is asked, the run stops at once
    again = api.resume(capped.run_dir, settings_for(scripted_server), no_cache=True, budget=cap)
    assert again.status == "stopped" and len(scripted_server.requests) == asked
    # a higher cap: the run goes on, asks only what it had not, and ends as the uncapped run
    higher = Budget(*(None if v is None else v * 100 for v in cap.to_tuple()))
    done = api.resume(capped.run_dir, settings_for(scripted_server), no_cache=True, budget=higher)
    assert done.status == "finished"
    assert len(scripted_server.requests) == free_calls  # nothing asked twice
    assert selected_text(done) == selected_text(free)
    assert api.report(done).details["debug_solved"] == api.report(free).details["debug_solved"]
    assert "stop_reason" not in meta(done.run_dir) or meta(done.run_dir)["status"] == "finished"
    assert spend_of(done.run_dir).calls == free_calls


def test_cached_answers_cost_nothing_against_a_cap(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    scripted_server.respond_with(CountedFerry())
    settings = settings_for(scripted_server)
    request, _ = api.start_request("F5-3", str(FERRY), tmp_path / "first")
    cache = tmp_path / "cache"
    assert api.start(request, settings, cache_dir=cache).status == "finished"
    asked = len(scripted_server.requests)
    request, _ = api.start_request("F5-3", str(FERRY), tmp_path / "second")
    # a cap of no call at all: every answer comes from the cache, so the run finishes
    second = api.start(request, settings, cache_dir=cache, budget=Budget(max_calls=0))
    assert second.status == "finished" and len(scripted_server.requests) == asked
    assert spend_of(second.run_dir) == Spend()


# ------------------------------------------------------------------------------------------------ a batch
def test_a_batch_capped_mid_way_stops_and_resumes_to_the_end(tmp_path: Path) -> None:
    """Two domains x two presets, one run at a time, capped at 10 model calls: the batch stops mid-way (the run at
    the cap stopped with the reason "budget", the later ones not started), says how far it got, and run again with
    a higher cap ends with the same answers as an uncapped batch, nothing asked twice."""
    from support.multi_domain_model import DomainRouter, ferry_models
    from test_batch import write_experiment

    from genplan.engine.batch import load_experiment, run_batch

    with ScriptedServer() as server:
        server.respond_with(DomainRouter(ferry_models()))
        path = write_experiment(tmp_path, server, extra="eval = false\nmax_concurrent_runs = 1")
        free = run_batch(load_experiment(path), tmp_path / "free", no_cache=True)
        assert free.complete
        free_calls = len(server.requests)
        assert free_calls > 12

        server.clear()
        server.respond_with(DomainRouter(ferry_models()))
        capped = run_batch(load_experiment(path), tmp_path / "capped", no_cache=True, budget=Budget(max_calls=10))
        assert not capped.complete and len(server.requests) == 10  # a calls cap is never passed
        assert capped.budget is not None and capped.budget["spent"]["calls"] == 10 and capped.budget["reached"]
        assert capped.stopped_at_budget == 1 and capped.not_started >= 1
        statuses = [state.run_status for state in capped.states]
        assert "stopped" in statuses and None in statuses
        batch = json.loads((tmp_path / "capped" / "batch.json").read_text())
        assert batch["budget"]["caps"] == {"max_calls": 10}

        done = run_batch(load_experiment(path), tmp_path / "capped", no_cache=True, budget=Budget(max_calls=1000))
        assert done.complete and done.budget is not None and "reached" not in done.budget
        assert len(server.requests) == free_calls  # the batch went on where it stopped
        assert done.budget["spent"]["calls"] == free_calls
        for ours, theirs in zip(done.states, free.states, strict=True):
            assert ours.entry.key == theirs.entry.key and ours.run_status == theirs.run_status == "finished"
            program = (tmp_path / "capped" / ours.entry.run_dir / "summary.json")
            reference = (tmp_path / "free" / theirs.entry.run_dir / "summary.json")
            assert json.loads(program.read_text())["debug_solved"] == json.loads(reference.read_text())["debug_solved"]


# ------------------------------------------------------------------------------------------------ the command line
def test_genplan_run_capped_by_calls_stops_says_so_and_resumes_with_a_higher_cap(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    from support.cli_process import genplan

    scripted_server.respond_with(CountedFerry())
    model = ["--model", scripted_server.model, "--base-url", scripted_server.base_url]
    capped = genplan("run", str(FERRY), *model, "--out", str(tmp_path / "runs"), "--json", "--max-calls", "4",
                     home=tmp_path)
    assert capped.returncode == 0, capped.stderr
    summary = json.loads(capped.stdout)
    assert summary["status"] == "stopped" and summary["stop_reason"] == "budget"
    assert summary["budget"]["caps"] == {"max_calls": 4} and summary["budget"]["spent"]["calls"] == 4
    assert len(scripted_server.requests) == 4
    assert "stopped at the budget (4 of --max-calls 4 model calls made)" in capped.stderr
    # the progress line: the spend beside the cap (the scripted model has no price: said, not guessed)
    assert "spent $0.0000 (+1 call(s) of no known price), 1 of 4 calls, 1,200 tokens" in capped.stderr
    resumed = genplan("run", "--resume", summary["run_dir"], "--json", "--max-calls", "100", home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    done = json.loads(resumed.stdout)
    assert done["status"] == "finished" and done["stop_reason"] is None and done["debug_solved"] == 6
    # the four answers were not asked again: every request went out once (the final strategy check's two plans come
    # from the response cache, as in any run of genplan run), and the run's spend over both sessions is theirs
    asked = [json.dumps(r.body["messages"], sort_keys=True) for r in scripted_server.requests]
    assert len(asked) == len(set(asked)) == done["budget"]["spent"]["calls"] == CLEAN_RUN_CALLS - 2
    bad = genplan("run", str(FERRY), *model, "--max-cost", "1", home=tmp_path)
    assert bad.returncode == 2 and f"no price known for model {scripted_server.model}" in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_a_forecast_is_the_sum_of_its_parts(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    """Two finished runs of F5-3 on ferry (one with the cheaper scripted answers): `genplan run --dry-run` forecasts
    the range between them at the model's price, and a batch's dry run adds its lines up to its total."""
    import shutil

    from support.cli_process import genplan

    config = tmp_path / "config" / "genplan" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[prices."{scripted_server.model}"]\ninput = 2.0\noutput = 10.0\n', encoding="utf-8")
    domain = Path(shutil.copytree(FERRY, tmp_path / "ferry", ignore=shutil.ignore_patterns(".genplan")))
    runs = domain / ".genplan" / "runs"  # where genplan run puts a domain's runs, and a forecast finds them
    scripted_server.respond_with(CountedFerry())
    assert start(scripted_server, runs, None, domain).status == "finished"
    scripted_server.clear()
    scripted_server.respond_with(FerryModel())  # words counted: fewer tokens
    assert start(scripted_server, runs, None, domain).status == "finished"
    spends = sorted((spend_of(run) for run in runs.iterdir()), key=lambda s: s.tokens)
    assert spends[0].tokens < spends[1].tokens

    model = ["--model", scripted_server.model, "--base-url", scripted_server.base_url]
    shown = genplan("run", str(domain), *model, "--dry-run", "--json", home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    forecast = json.loads(shown.stdout)
    [figure] = forecast["figures"]
    assert figure["source"] == "genplan" and figure["basis"] == "genplan's 2 earlier run(s)"
    assert figure["calls"] == {"low": CLEAN_RUN_CALLS, "high": CLEAN_RUN_CALLS}
    assert figure["tokens"] == {"low": spends[0].tokens, "high": spends[1].tokens}
    low = (spends[0].tokens_in * 2.0 + spends[0].tokens_out * 10.0) / 1e6
    high = (spends[1].tokens_in * 2.0 + spends[1].tokens_out * 10.0) / 1e6
    assert figure["cost_usd"] == {"low": pytest.approx(low), "high": pytest.approx(high)}
    assert forecast["total"]["cost"] == figure["cost_usd"]
    assert len(list(runs.iterdir())) == 2  # a dry run makes no run
    text = genplan("run", str(domain), *model, "--dry-run", home=tmp_path)
    assert "genplan's 2 earlier run(s)" in text.stdout and "total" in text.stdout

    # a batch: ferry (genplan's runs) and ferry-costumed (none: the paper's figures, not for this model: all of its)
    experiment = tmp_path / "experiment.toml"
    experiment.write_text(
        "[experiment]\nname = \"forecast\"\n"
        f"domains = [\"{domain}\", \"{FERRY.parent / 'ferry-costumed'}\"]\npresets = [\"F5-3\", \"Sil\"]\n"
        "seeds = [1, 2]\n\n[[models]]\nname = \"m\"\n"
        f"model = \"{scripted_server.model}\"\nbase_url = \"{scripted_server.base_url}\"\n", encoding="utf-8")
    listed = genplan("batch", str(experiment), "--out", str(tmp_path / "batch"), "--dry-run", "--json", home=tmp_path)
    assert listed.returncode == 0, listed.stderr
    result = json.loads(listed.stdout)["forecast"]
    figures, total = result["figures"], result["total"]
    assert [(f["domain"], f["preset"], f["runs"]) for f in figures] == [
        ("ferry", "F5-3", 2), ("ferry", "Sil", 2), ("ferry-costumed", "F5-3", 2), ("ferry-costumed", "Sil", 2)]
    assert figures[1]["source"] == "published" and "other models" in figures[1]["basis"]
    for name in ("calls", "tokens"):
        assert total[name]["low"] == pytest.approx(sum(f[name]["low"] for f in figures))
        assert total[name]["high"] == pytest.approx(sum(f[name]["high"] for f in figures))
    # a batch reads no config file: its model has no price there, and a cost is not guessed
    assert all(f["cost_usd"] is None for f in figures) and total["cost"] is None
    assert result["prices"] == {scripted_server.model: None}
    # ferry F5-3: two runs, each the range of genplan's own
    assert figures[0]["source"] == "genplan" and figures[0]["calls"]["low"] == 2 * CLEAN_RUN_CALLS
    assert figures[0]["tokens"] == {"low": 2 * spends[0].tokens, "high": 2 * spends[1].tokens}


def test_a_reproduce_dry_run_for_gpt_4o_forecasts_the_papers_grid_from_the_published_tables(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_reproduce_paper_grid import paper_tree

    from genplan.cli.main import main
    from genplan.engine.report.paper import load_paper_numbers

    data = paper_tree(tmp_path)
    assert main(["reproduce", str(data), "--model", "gpt-4o", "--dry-run"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    ferry_f53 = next(line for line in lines if line.split()[:2] == ["ferry", "F5-3"])
    assert "published (gpt-4o, mean per run over the paper's domains)" in ferry_f53
    f3_6 = next(line for line in lines if line.split()[:2] == ["ferry", "F3-6"])
    assert "no earlier run, no published figure" in f3_6  # Table 9 has no F3-6 row: not guessed
    total = next(line for line in lines if line.split()[:1] == ["total"])
    assert "$" in total and "204" in total.split()  # 17 domains x 4 presets x 3 seeds
    assert "price of gpt-4o: $2.5 in / $10 out per million tokens" in out
    # the same as JSON: each domain's figure is the paper's per-run mean times its 3 seeds; the total their sum
    assert main(["reproduce", str(data), "--model", "gpt-4o", "--dry-run", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    paper = load_paper_numbers()
    calls, tokens, _time = paper.budget[("gpt-4o", "F5-3")]
    ferry = next(f for f in result["figures"] if f["domain"] == "ferry" and f["preset"] == "F5-3")
    assert ferry["calls"]["low"] == pytest.approx(3 * calls) and ferry["tokens"]["high"] == pytest.approx(3 * tokens)
    assert ferry["cost_usd"] == {"low": pytest.approx(3 * tokens * 2.5 / 1e6), "high": pytest.approx(3 * tokens * 10 / 1e6)}
    forecast_lines = [f for f in result["figures"] if f["calls"] is not None]
    assert len({f["domain"] for f in result["figures"]}) == 17 and len(forecast_lines) == 17 * 3
    assert result["total"]["calls"]["low"] == pytest.approx(sum(f["calls"]["low"] for f in forecast_lines))
    assert result["total"]["calls_missing"] == 17  # the F3-6 lines


# ------------------------------------------------------------------------------------------------ the app
async def test_the_apps_totals_bar_shows_the_spend_beside_the_caps_and_the_run_stops_at_them(
        scripted_server: ScriptedServer, tmp_path: Path) -> None:
    from test_tui_support import config_for, ferry_copy, make_app, ready, wait_for

    from genplan.tui.widgets.totals_bar import TotalsBar

    scripted_server.respond_with(CountedFerry())
    domain = ferry_copy(tmp_path)
    app = make_app(domain, config_for(tmp_path, scripted_server), budget=Budget(max_calls=3))
    runs = domain / ".genplan" / "runs"
    async with app.run_test(size=(160, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: runs.is_dir() and any(runs.iterdir()), what="the run")
        await wait_for(pilot, lambda: app.runner.session is None, timeout=60, what="the run to stop at its cap")
        await wait_for(pilot, lambda: "calls 3 of 3" in app.query_one(TotalsBar).full_text, what="the totals bar")
    assert len(scripted_server.requests) == 3
    [run_dir] = list(runs.iterdir())
    record = meta(run_dir)
    assert record["status"] == "stopped" and record["stop_reason"] == "budget"


async def test_the_apps_caps_are_the_settings_files_under_the_command_lines(scripted_server: ScriptedServer,
                                                                            tmp_path: Path) -> None:
    """genplan-tui reads the settings file's [budget] with its settings, after the first frame (importing the
    engine's API before it cost the first screen a tenth of a second): the caps in force are that table's with the
    command line's over them, and a bad value is the settings' one-line error."""
    from test_tui_support import config_for, ferry_copy, make_app, ready, wait_for

    domain = ferry_copy(tmp_path)
    config = config_for(tmp_path, scripted_server)
    config.write_text(config.read_text() + "\n[budget]\nmax_calls = 7\nmax_cost = 1.5\n")
    app = make_app(domain, config, budget=Budget(max_calls=3))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.ctx.prefs is not None, what="the settings")
        caps = app.runner.caps()
        assert (caps.max_calls, caps.max_cost) == (3, 1.5) and app.ctx.settings_error is None
    config.write_text(config.read_text().replace("max_calls = 7", 'max_calls = "many"'))
    app = make_app(domain, config)
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: app.ctx.settings_error is not None, what="the settings' error")
        assert "max_calls" in app.ctx.settings_error


# ------------------------------------------------------------------------------------------------ the report
def test_the_report_shows_each_runs_cost_beside_the_forecast(tmp_path: Path) -> None:
    """Two seeds of F5-3 on one domain with gpt-4o, each of 3 answers at $0.004 (one more from the cache, free):
    the report's cost table sums them per domain and in all, beside the forecast from the paper's Table 9."""
    from genplan.engine.report.data import load_batch
    from genplan.engine.report.paper import load_paper_numbers
    from genplan.engine.report.paper_tables import all_tables, cost_table

    batch = tmp_path / "batch"
    entries = []
    for seed in (1, 2):
        relative = Path("runs") / "ferry" / "F5-3" / "gpt" / f"seed-{seed}" / "run-x"
        folder = batch / relative
        (folder / "responses").mkdir(parents=True)
        (folder / "run.json").write_text(json.dumps({"status": "finished", "model": {"model": "gpt-4o"},
                                                     "config": {"preset": "F5-3"}}))
        for index in range(4):
            answer = response(cached=index == 3, cost=0.0 if index == 3 else CALL_COST).to_dict()
            (folder / "responses" / f"{index + 1:04d}-nl.task.json").write_text(json.dumps({"response": answer}))
        entries.append({"domain": "ferry", "preset": "F5-3", "model": "gpt", "seed": seed, "run_dir": str(relative)})
    experiment = {"name": "priced", "domains": [{"name": "ferry"}], "presets": [{"label": "F5-3"}],
                  "models": [{"label": "gpt"}], "seeds": [1, 2]}
    (batch / "batch.json").write_text(json.dumps({"experiment": experiment, "entries": entries}))
    data = load_batch(batch)
    table = cost_table(data)
    assert table is not None and "cost" in [t.name for t in all_tables(data)]
    row = table.row("ferry", "gpt", "F5-3")
    # calls and tokens as the report's other tables count them (every answer, the cached one too); the cost is the
    # model's calls' alone
    assert row[3:7] == [2, 8, 8 * (TOKENS_IN + TOKENS_OUT), pytest.approx(6 * CALL_COST)]
    calls, tokens, _seconds = load_paper_numbers().budget[("gpt-4o", "F5-3")]
    assert row[7:9] == [pytest.approx(2 * calls), pytest.approx(2 * calls)]
    assert row[9:] == [pytest.approx(2 * tokens * 2.5 / 1e6), pytest.approx(2 * tokens * 10 / 1e6)]
    assert table.row("all", "gpt", "F5-3")[6] == pytest.approx(6 * CALL_COST)


# ------------------------------------------------------------------------------------------------ AutoToS
def test_an_autotos_run_stops_at_its_cap_and_goes_on_with_a_higher_one(
        scripted_server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """AutoToS on a small ferry: a successor function with a bug, the goal test, the fixed function. Capped at two
    calls it stops before the feedback round's call (the reason "budget" in run.json and its message); resumed
    with a higher cap it asks only that call and passes, as it would have without a cap."""
    from support.small_ferry import small_ferry
    from test_autotos_pddl import FERRY as FERRY_SUCC
    from test_autotos_pddl import FERRY_BOARD_KEEPS_EMPTY, GOAL

    from genplan.cli.main import main

    scripted_server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, FERRY_SUCC])
    scripted_server.on_step("autotos.goal", [GOAL])
    model = ["--model", scripted_server.model, "--base-url", scripted_server.base_url]
    code = main(["autotos", str(small_ferry()), "--no-eval", *model, "--runs", str(tmp_path / "runs"), "--json",
                 "--quiet", "--no-cache", "--max-calls", "2"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["status"] == "stopped" and summary["calls"] == 2
    assert scripted_server.steps() == ["autotos.succ", "autotos.goal"]
    run_dir = Path(summary["run_dir"])
    record = meta(run_dir)
    assert record["stop_reason"] == "budget" and record["budget"]["spent"]["calls"] == 2
    last = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()][-1]
    assert last["data"]["status"] == "stopped" and "budget is spent" in last["data"]["message"]
    code = main(["run", "--resume", str(run_dir), "--json", "--quiet", "--no-cache", "--max-calls", "5"])
    done = json.loads(capsys.readouterr().out)
    assert code == 0 and done["status"] == "finished" and done["calls"] == 3
    assert scripted_server.steps() == ["autotos.succ", "autotos.goal", "autotos.succ"]  # nothing asked twice
    assert meta(run_dir).get("stop_reason") is None


# ------------------------------------------------------------------------------------------------ a PDDLego+ trial
def test_a_trial_stops_at_its_cap_and_goes_on_with_a_higher_one(
        scripted_server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_pddlego_loop import TO_BACKYARD, TO_PANTRY

    from genplan.cli.main import main
    from genplan.engine.pddlego.environment import java_available

    if not java_available():
        pytest.skip("CoinCollector needs a Java runtime (java not on PATH)")
    scripted_server.enqueue(TO_PANTRY, TO_BACKYARD)
    model = ["--model", scripted_server.model, "--base-url", scripted_server.base_url]
    code = main(["pddlego", "--locations", "5", "--seeds", "1", *model, "--out", str(tmp_path / "out"), "--json",
                 "--no-cache", "--max-calls", "1"])
    [trial] = json.loads(capsys.readouterr().out)
    assert code == 0 and trial["reason"] == "budget" and trial["calls"] == 1
    run_dir = Path(trial["run_dir"])
    assert meta(run_dir)["status"] == "stopped" and meta(run_dir)["stop_reason"] == "budget"
    assert len(scripted_server.requests) == 1
    code = main(["run", "--resume", str(run_dir), "--json", "--quiet", "--no-cache", "--max-calls", "5"])
    done = json.loads(capsys.readouterr().out)
    assert code == 0 and done["outcome"] == "success" and done["calls"] == 2
    assert len(scripted_server.requests) == 2  # the first answer came from disk
