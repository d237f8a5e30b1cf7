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


def start(server: ScriptedServer, root: Path, budget: Budget | None) -> api.RunOutcome:
    request, _ = api.start_request("F5-3", str(FERRY), root)
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
    asked = len(scripted_server.requests)
    # the cap is 5 answers' worth; the requests of NL tasks go out concurrently, so it may be passed by one
    assert 5 <= asked <= 6
    spent = spend_of(capped.run_dir)
    assert spent.calls == asked and spent.tokens == asked * (TOKENS_IN + TOKENS_OUT)
    assert spent.tokens_out == asked * TOKENS_OUT  # reasoning is part of the output
    assert spent.cost_usd == pytest.approx(asked * CALL_COST)
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
