"""Chat completions from any OpenAI-compatible endpoint through the ``openai`` package.

The ``openai`` client's own retries are off (``max_retries=0``): this module retries with
exponential backoff and jitter on rate limits, server errors, timeouts and dropped
connections, honours ``Retry-After`` (bounded by ``retry_max_delay_s``), and stops at once
with a one-line ``ModelAccessError`` on authentication, unknown-model and bad-request errors.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import openai

from genplan.engine.llm.keys import OPENAI_BASE_URL, resolve_key
from genplan.engine.llm.pricing import estimate_cost
from genplan.engine.llm.settings import ModelSettings
from genplan.engine.llm.types import (
    STEP_HEADER,
    ChatRequest,
    ChatResponse,
    DeltaCallback,
    ModelAccessError,
    RetryCallback,
    RetryNotice,
    Usage,
)

log = logging.getLogger("genplan.llm")

# Sent to local servers that need no key (the openai client insists on one).
# Transient HTTP statuses worth another try (as the openai client itself treats them).
RETRY_STATUSES = frozenset({408, 409, 429})
REASONING_FIELDS = ("reasoning_content", "reasoning")


@dataclass
class _Transient(Exception):
    """An attempt failed in a way another attempt may fix."""

    reason: str
    retry_after_s: float | None = None


@dataclass
class _Answer:
    text: str
    reasoning: str | None
    usage: Usage | None
    finish_reason: str | None
    model: str


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text[:200] + ("..." if len(text) > 200 else "")


def _server_message(err: openai.APIStatusError) -> str:
    body = err.body
    if isinstance(body, dict):
        message = body.get("message")
        if not message and isinstance(body.get("error"), dict):
            message = body["error"].get("message")
        if message:
            return " ".join(str(message).split())
    if isinstance(body, str) and body.strip():
        return " ".join(body.split())[:200]
    try:
        text = err.response.text
    except Exception:  # the body may be unreadable; the status alone must do
        text = ""
    return " ".join(text.split())[:200] or "(no message)"


def _retry_after(err: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait, from ``retry-after-ms`` or ``Retry-After``."""
    headers = err.response.headers
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _what_came_back(content_type: str, body: bytes) -> str:
    """A body that is no chat completion, named for a person: "an HTML page titled 'Open WebUI'", "a text/plain
    answer: 'Bad gateway'"."""
    text = body[:4096].decode("utf-8", "replace")
    if "html" in content_type.lower() or text.lstrip().lower().startswith(("<!doctype html", "<html")):
        title = re.search(r"<title[^>]*>(.*?)</title>", text, re.IGNORECASE | re.DOTALL)
        named = " ".join(title.group(1).split())[:60] if title else ""
        return f"an HTML page{f' titled {named!r}' if named else ''}"
    shown = " ".join(text.split())[:60]
    return f"a {content_type or 'body with no content type'}" + (f" answer: {shown!r}" if shown else "")


def _usage_of(raw: Any) -> Usage | None:
    if raw is None:
        return None
    details = getattr(raw, "completion_tokens_details", None)
    reasoning = getattr(details, "reasoning_tokens", None) if details is not None else None
    return Usage(
        input_tokens=int(raw.prompt_tokens or 0),
        output_tokens=int(raw.completion_tokens or 0),
        reasoning_tokens=int(reasoning or 0),
    )


def _reasoning_of(part: Any) -> str | None:
    """Reasoning text servers put beside the answer (DeepSeek/vLLM: reasoning_content, others: reasoning)."""
    extra = getattr(part, "model_extra", None) or {}
    for name in REASONING_FIELDS:
        value = extra.get(name)
        if isinstance(value, str) and value:
            return value
    return None


class OpenAIProvider:
    """A Provider talking to one OpenAI-compatible endpoint; safe to use from several threads."""

    def __init__(self, settings: ModelSettings, *, environ: dict[str, str] | None = None,
                 rng: Callable[[], float] = random.random) -> None:
        if not settings.model:
            raise ModelAccessError("no model configured (set [llm] model, GENPLAN_MODEL or --model)",
                                   kind="no-model")
        self.settings = settings
        self.base_url = settings.base_url or OPENAI_BASE_URL
        self._rng = rng
        self._key_given = bool(settings.resolve_api_key(environ))  # False: a local server asked with no key
        self._client = openai.OpenAI(
            api_key=resolve_key(settings, environ),
            base_url=self.base_url,
            max_retries=0,
            timeout=settings.timeout_s,
        )

    def close(self) -> None:
        self._client.close()

    # --- the Provider protocol ---------------------------------------------------------------

    def complete(
        self,
        request: ChatRequest,
        on_delta: DeltaCallback | None = None,
        *,
        on_reasoning: DeltaCallback | None = None,
        on_retry: RetryCallback | None = None,
    ) -> ChatResponse:
        """Send ``request``; retry transient failures; raise ModelAccessError when it cannot succeed.

        An exception raised by a callback aborts the request and propagates unchanged.
        """
        started = time.monotonic()
        arguments = self._arguments(request)
        attempt = 0
        while True:
            attempt += 1
            try:
                answer = self._attempt(arguments, on_delta, on_reasoning)
                break
            except _Transient as failure:
                if attempt > self.settings.max_retries:
                    raise ModelAccessError(
                        f"{self.settings.model} at {self.base_url}: giving up after {attempt} attempt(s) "
                        f"for step {request.step}: {failure.reason}",
                        kind="retries-exhausted",
                    ) from None
                delay = self._delay(attempt, failure.retry_after_s)
                reason = failure.reason
                if failure.retry_after_s is not None and failure.retry_after_s > delay:
                    reason += (f"; the server asked to wait {failure.retry_after_s:g} s, genplan waits at most "
                               f"retry_max_delay_s = {delay:g} s")
                log.info("step %s, attempt %d failed (%s); retrying in %.2fs", request.step, attempt, reason, delay)
                if on_retry is not None:
                    on_retry(RetryNotice(attempt=attempt, delay_s=delay, reason=reason))
                time.sleep(delay)

        cost = estimate_cost(answer.model, answer.usage, self.settings.prices)
        if cost is None and answer.model != self.settings.model:
            cost = estimate_cost(self.settings.model or "", answer.usage, self.settings.prices)
        return ChatResponse(
            text=answer.text,
            model=answer.model,
            reasoning=answer.reasoning,
            usage=answer.usage,
            finish_reason=answer.finish_reason,
            truncated=answer.finish_reason == "length",
            cached=False,
            latency_s=time.monotonic() - started,
            cost_usd=cost,
            attempts=attempt,
        )

    def list_models(self) -> list[str]:
        """The model names the endpoint offers (one attempt; for checking a configuration)."""
        try:
            return [model.id for model in self._client.models.list()]
        except openai.OpenAIError as err:
            try:
                self._raise_for(err)
            except _Transient as failure:
                raise ModelAccessError(f"{self.base_url}: {failure.reason}", kind="unreachable") from None
            raise

    # --- one attempt ---------------------------------------------------------------------------

    def _arguments(self, request: ChatRequest) -> dict[str, Any]:
        params = self.settings.sampling_params(request.params)
        arguments: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [message.to_dict() for message in request.messages],
            "extra_headers": {STEP_HEADER: request.step},
        }
        for name in ("temperature", "top_p", "seed"):
            if params[name] is not None:
                arguments[name] = params[name]
        if params["max_tokens"] is not None:
            arguments[self._max_tokens_field()] = params["max_tokens"]
        if params["extra_body"]:
            arguments["extra_body"] = dict(params["extra_body"])
        return arguments

    def _max_tokens_field(self) -> str:
        if self.settings.max_tokens_field != "auto":
            return self.settings.max_tokens_field
        official = urlsplit(self.base_url).hostname == urlsplit(OPENAI_BASE_URL).hostname
        return "max_completion_tokens" if official else "max_tokens"

    def _attempt(self, arguments: dict[str, Any], on_delta: DeltaCallback | None,
                 on_reasoning: DeltaCallback | None) -> _Answer:
        try:
            if self.settings.stream:
                return self._streamed(arguments, on_delta, on_reasoning)
            return self._whole(arguments, on_delta, on_reasoning)
        except openai.OpenAIError as err:
            self._raise_for(err)
            raise  # _raise_for always raises; this keeps type checkers content
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            # a broken stream becomes a retry here, as a broken connection does above (the client wraps those):
            # a data line that is no JSON, bytes that are no UTF-8
            raise _Transient(f"the answer stream was broken ({type(err).__name__}: {_one_line(err)})") from None

    def _streamed(self, arguments: dict[str, Any], on_delta: DeltaCallback | None,
                  on_reasoning: DeltaCallback | None) -> _Answer:
        text: list[str] = []
        reasoning: list[str] = []
        usage: Usage | None = None
        finish_reason: str | None = None
        model = self.settings.model or ""
        stream = self._client.chat.completions.create(
            **arguments, stream=True, stream_options={"include_usage": True}
        )
        content_type = stream.response.headers.get("content-type", "")
        if "html" in content_type.lower():  # a web page, not an API: asking again brings the same page
            with stream:
                self._not_an_answer(content_type, stream.response.read())
        chunks = 0
        with stream:
            for chunk in stream:
                chunks += 1
                if not hasattr(chunk, "choices"):  # the SDK hands on a data line of JSON that is no object as is
                    raise _Transient(f"the answer stream was broken (a chunk that is no JSON object: {chunk!r:.60})")
                if chunk.model:
                    model = chunk.model
                if chunk.usage is not None:
                    usage = _usage_of(chunk.usage)
                for choice in chunk.choices or ():
                    if choice.index != 0 or choice.delta is None:
                        if choice.index == 0 and choice.finish_reason:
                            finish_reason = choice.finish_reason
                        continue
                    piece = _reasoning_of(choice.delta)
                    if piece:
                        reasoning.append(piece)
                        if on_reasoning is not None:
                            on_reasoning(piece)
                    if choice.delta.content:
                        text.append(choice.delta.content)
                        if on_delta is not None:
                            on_delta(choice.delta.content)
                    if choice.finish_reason:
                        finish_reason = choice.finish_reason
        if finish_reason is None and not chunks and "event-stream" not in content_type.lower():
            self._not_an_answer(content_type, b"")  # no stream at all: something else came back
        if finish_reason is None:
            raise _Transient("the answer stream ended before the answer was complete")
        return _Answer("".join(text), "".join(reasoning) or None, usage, finish_reason, model)

    def _whole(self, arguments: dict[str, Any], on_delta: DeltaCallback | None,
               on_reasoning: DeltaCallback | None) -> _Answer:
        raw = self._client.chat.completions.with_raw_response.create(**arguments)
        completion = raw.parse()
        if not hasattr(completion, "choices"):  # the SDK hands on a body that is no JSON as its text
            self._not_an_answer(raw.headers.get("content-type", ""), raw.content)
        if not completion.choices:
            raise ModelAccessError(f"{self.base_url}: the server answered without any choice",
                                   kind="invalid-response")
        choice = completion.choices[0]
        text = choice.message.content or ""
        reasoning = _reasoning_of(choice.message)
        if reasoning and on_reasoning is not None:
            on_reasoning(reasoning)
        if text and on_delta is not None:
            on_delta(text)
        return _Answer(text, reasoning, _usage_of(completion.usage), choice.finish_reason,
                       completion.model or self.settings.model or "")

    # --- failures ------------------------------------------------------------------------------

    def _not_an_answer(self, content_type: str, body: bytes) -> None:
        """A server that answered with something that is no chat completion (a web page at the base URL): one
        line naming what came back, at once (no retry would bring anything else)."""
        raise ModelAccessError(
            f"{self.settings.model} at {self.base_url}: the server answered with {_what_came_back(content_type, body)}, "
            "not a chat completion; check the base URL (an OpenAI-compatible API's usually ends in /v1)",
            kind="invalid-response")

    def _raise_for(self, err: openai.OpenAIError) -> None:
        """Turn an openai error into _Transient (retry) or ModelAccessError (stop)."""
        where = f"{self.settings.model} at {self.base_url}"
        if isinstance(err, openai.APITimeoutError):
            raise _Transient(f"no answer within {self.settings.timeout_s:g}s (timeout)") from None
        if isinstance(err, openai.APIConnectionError):
            cause = err.__cause__
            detail = f": {' '.join(str(cause).split())}" if cause is not None and str(cause) else ""
            raise _Transient(f"connection failed{detail}") from None
        if isinstance(err, openai.APIResponseValidationError):
            raise ModelAccessError(f"{where}: the server's answer is not a valid chat completion",
                                   kind="invalid-response", status=err.status_code) from None
        if isinstance(err, openai.APIStatusError):
            status = err.status_code
            message = _server_message(err)
            if status == 429 and getattr(err, "code", None) == "insufficient_quota":
                raise ModelAccessError(f"{where}: quota exhausted (HTTP 429): {message}",
                                       kind="quota", status=status) from None
            if status in RETRY_STATUSES or status >= 500:
                label = "rate limited" if status == 429 else "server error"
                raise _Transient(f"{label} (HTTP {status}): {message}", _retry_after(err)) from None
            if status in (401, 403):
                variable = self.settings.api_key_env
                advice = (f"check the key in environment variable {variable}" if self._key_given
                          else f"environment variable {variable} is not set, so no key was sent: set it, or name "
                          "the variable that holds the key with --api-key-env (api_key_env)")
                raise ModelAccessError(f"{where}: authentication failed (HTTP {status}): {message}; {advice}",
                                       kind="auth", status=status) from None
            if status == 404:
                raise ModelAccessError(
                    f"{where}: not found (HTTP 404): {message}; check the model name and the base URL",
                    kind="not-found", status=status) from None
            raise ModelAccessError(f"{where}: request rejected (HTTP {status}): {message}",
                                   kind="bad-request", status=status) from None
        if isinstance(err, openai.APIError):
            # An error event inside a stream: the server failed mid-answer.
            raise _Transient(f"the server reported an error mid-answer: {err.message}") from None
        raise ModelAccessError(f"{where}: {' '.join(str(err).split())}", kind="client") from None

    def _delay(self, attempt: int, retry_after_s: float | None) -> float:
        ceiling = self.settings.retry_max_delay_s
        if retry_after_s is not None:
            return min(retry_after_s, ceiling)
        backoff = min(self.settings.retry_base_delay_s * 2 ** (attempt - 1), ceiling)
        return float(backoff * (0.5 + 0.5 * self._rng()))  # jitter spreads out concurrent retries
