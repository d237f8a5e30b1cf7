"""Request/response records round-trip through JSON; price lookup and cost estimates."""

from __future__ import annotations

import json

import pytest

from genplan.engine.llm import (
    STEPS,
    ChatMessage,
    ChatRequest,
    ChatResponse,
    Price,
    Usage,
    estimate_cost,
    price_for,
)


def test_requests_and_responses_round_trip_through_json():
    request = ChatRequest("code.revise", [ChatMessage("user", "fix it")], {"temperature": 0.2, "extra_body": {"a": 1}})
    assert ChatRequest.from_dict(json.loads(json.dumps(request.to_dict()))) == request
    response = ChatResponse(text="ok", model="m", reasoning="r", usage=Usage(3, 4, 1), finish_reason="length",
                            truncated=True, cached=True, latency_s=1.5, cost_usd=0.25, attempts=2)
    assert ChatResponse.from_dict(json.loads(json.dumps(response.to_dict()))) == response
    bare = ChatResponse(text="", model="manual")
    assert ChatResponse.from_dict(json.loads(json.dumps(bare.to_dict()))) == bare


def test_steps_roles_and_parameters_are_checked():
    assert len(STEPS) == 17 and "baseline.fix" in STEPS and "autotos.succ" in STEPS and "pddlego.pddl" in STEPS
    with pytest.raises(ValueError, match="unknown pipeline step"):
        ChatRequest("strategy.think", [])  # a typo in a built-in family
    for bad in ("plan", "Guess.plan", "guess/../plan", "guess.plan\nX-Other: 1"):  # no header or path tricks
        with pytest.raises(ValueError, match="unknown pipeline step"):
            ChatRequest(bad, [])
    assert ChatRequest("guess.plan", []).step == "guess.plan"  # a plug-in approach's own step: no edit here
    with pytest.raises(ValueError, match="unknown request parameter"):
        ChatRequest("nl.domain", [], {"n": 3})
    with pytest.raises(ValueError, match="unknown chat role"):
        ChatMessage("robot", "hi")


def test_prices_match_dated_snapshots_and_prefer_the_longest_name():
    assert price_for("gpt-4o-2024-08-06") == Price(2.50, 10.00)
    assert price_for("gpt-4o-mini-2024-07-18") == Price(0.15, 0.60)
    assert price_for("gpt-4") == Price(30.0, 60.0)
    assert price_for("gpt-4o") != price_for("gpt-4")
    assert price_for("llama3.3:70b") is None
    assert price_for("gpt-4o", {"gpt-4o": Price(1, 2)}) == Price(1, 2)


def test_cost_estimates():
    usage = Usage(input_tokens=2_000, output_tokens=1_000, reasoning_tokens=600)
    assert estimate_cost("deepseek-reasoner", usage) == pytest.approx((2_000 * 0.28 + 1_000 * 0.42) / 1e6)
    assert estimate_cost("unknown-model", usage) is None
    assert estimate_cost("gpt-4o", None) is None
    assert estimate_cost("local", usage, {"local": Price(0, 0)}) == 0.0
