"""The manual provider: a person answers; and make_provider's choice of provider."""

from __future__ import annotations

import io
import threading
import time

import pytest

from genplan.engine.errors import RunStopped
from genplan.engine.llm import (
    AnswerCancelled,
    ChatMessage,
    ChatRequest,
    ManualProvider,
    ModelAccessError,
    ModelSettings,
    make_provider,
    stdin_answerer,
)


def ask(step: str = "nl.domain") -> ChatRequest:
    return ChatRequest(step, [ChatMessage("system", "be brief"), ChatMessage("user", "describe ferry")])


def test_the_person_sees_the_request_and_their_answer_comes_back():
    seen: list[ChatRequest] = []

    def person(request: ChatRequest) -> str:
        seen.append(request)
        return "A ferry moves cars."

    deltas: list[str] = []
    response = ManualProvider(person).complete(ask(), on_delta=deltas.append)
    assert seen == [ask()]
    assert response.text == "A ferry moves cars." and deltas == ["A ferry moves cars."]
    assert response.model == "manual" and response.cost_usd == 0.0 and response.usage is None
    assert not response.cached and not response.truncated


def test_declining_to_answer_cancels_the_run():
    with pytest.raises(AnswerCancelled) as caught:
        ManualProvider(lambda request: None).complete(ask())
    # a stop, not a model failure: the one stop exception every approach and front end handles
    assert isinstance(caught.value, RunStopped) and not isinstance(caught.value, ModelAccessError)
    assert caught.value.reason == "stopped"


def test_concurrent_requests_reach_the_person_one_at_a_time():
    active = 0
    most = 0
    lock = threading.Lock()

    def person(request: ChatRequest) -> str:
        nonlocal active, most
        with lock:
            active += 1
            most = max(most, active)
        time.sleep(0.05)
        with lock:
            active -= 1
        return request.step

    provider = ManualProvider(person)
    steps = ["nl.task", "strategy.plan", "code.generate"]
    answers: list[str] = []
    threads = [threading.Thread(target=lambda s=s: answers.append(provider.complete(ask(s)).text)) for s in steps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == sorted(steps) and most == 1


def test_stdin_answerer_reads_up_to_the_end_mark():
    shown = io.StringIO()
    answer = stdin_answerer(io.StringIO("line one\nline two\n.\nnot read\n"), shown)
    assert answer(ask("strategy.generate")) == "line one\nline two"
    assert "strategy.generate" in shown.getvalue() and "describe ferry" in shown.getvalue()
    assert stdin_answerer(io.StringIO("to the end\n"), io.StringIO())(ask()) == "to the end"
    assert stdin_answerer(io.StringIO(""), io.StringIO())(ask()) is None


def test_make_provider_falls_back_to_the_person_when_no_model_is_set():
    provider = make_provider(ModelSettings(), manual_answer=lambda request: "by hand")
    assert isinstance(provider, ManualProvider)
    assert provider.complete(ask()).text == "by hand"
    with pytest.raises(ModelAccessError, match="no model configured") as caught:
        make_provider(ModelSettings())
    assert caught.value.kind == "no-model"
