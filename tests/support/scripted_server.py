"""A scripted OpenAI-compatible HTTP server: the test double for every model call in genplan.

It is a real HTTP server on 127.0.0.1 (a free port), so tests drive the real ``openai``
client over real HTTP, streaming included. What it answers comes from a script::

    with ScriptedServer() as server:                        # or the ``scripted_server`` fixture
        server.enqueue("first answer", Reply.rate_limited(retry_after=0.1), "third answer")
        server.on_step("strategy.plan", ["plan for task 0", "plan for task 1"])
        server.respond_with(lambda req: Reply.answer(f"echo {req.messages[-1]['content']}"))
        ... point ModelSettings(base_url=server.base_url, model=server.model) at it ...
        assert server.steps() == ["nl.domain", "strategy.plan", ...]

For each ``POST /v1/chat/completions`` the reply is taken from, in order: the queue of the
request's ``X-Genplan-Step`` (``on_step``), the general queue (``enqueue``), the responder
(``respond_with``), ``fallback``; with none of them an HTTP 400 explains that the script ran
out (a 400 is not retried, so a test with a missing reply fails fast and clearly).
A script entry is a ``Reply`` or a plain string (= ``Reply.answer(text)``).

Every request is recorded (``requests``: JSON body, headers, step). ``fixed_delay_s`` delays
every answer (for benchmarks of concurrent pipelines); ``max_in_flight`` tells how many
requests were being answered at the same time at most. ``GET /v1/models`` lists ``models``.
With ``known_models`` set, other model names get OpenAI's 404 "model_not_found"; with
``api_key`` set, requests without ``Authorization: Bearer <api_key>`` get a 401.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

STEP_HEADER = "x-genplan-step"
DEFAULT_MODEL = "scripted-model"


@dataclass
class Reply:
    """What the server does for one request. Build with the class methods."""

    text: str = ""
    reasoning: str | None = None
    reasoning_field: str = "reasoning_content"  # DeepSeek/vLLM style; some servers use "reasoning"
    finish_reason: str | None = "stop"  # None: the stream ends without saying why
    status: int = 200
    error_message: str = ""
    error_code: str | None = None
    error_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # before the response starts
    drop_after_chunks: int | None = None  # close the connection after this many stream chunks
    send_usage: bool = True  # False: like servers that never report usage
    usage: dict[str, int] | None = None  # prompt/completion/reasoning tokens; None: counted words
    chunk_chars: int = 8  # stream the text in pieces of this many characters
    chunk_delay_s: float = 0.0  # pause between stream chunks
    raw_lines: dict[int, bytes] = field(default_factory=dict)  # stream index -> raw bytes sent before that event
    page: bytes | None = None  # sent as the whole body instead of an answer (a web page, a proxy's notice)
    content_type: str = "text/html; charset=utf-8"  # the page's

    @classmethod
    def answer(cls, text: str, *, reasoning: str | None = None, **options: Any) -> Reply:
        """A normal answer; ``reasoning`` is sent as ``reasoning_content``."""
        return cls(text=text, reasoning=reasoning, **options)

    @classmethod
    def web_page(cls, body: str, *, status: int = 200, content_type: str = "text/html; charset=utf-8") -> Reply:
        """Not an API's answer at all: ``body`` as it is (a web page: a base URL that names a site, not its API)."""
        return cls(status=status, page=body.encode("utf-8"), content_type=content_type)

    @classmethod
    def truncated(cls, text: str, **options: Any) -> Reply:
        """An answer cut off by the token limit (finish_reason "length")."""
        return cls(text=text, finish_reason="length", **options)

    @classmethod
    def error(cls, status: int, message: str = "scripted error", *, code: str | None = None,
              type: str | None = None, headers: dict[str, str] | None = None, delay_s: float = 0.0) -> Reply:
        """An HTTP error with an OpenAI-style JSON error body."""
        return cls(status=status, error_message=message, error_code=code, error_type=type,
                   headers=dict(headers or {}), delay_s=delay_s)

    @classmethod
    def rate_limited(cls, retry_after: float | None = None, *, retry_after_ms: float | None = None) -> Reply:
        """HTTP 429, optionally with ``Retry-After`` (seconds) or ``retry-after-ms``."""
        headers: dict[str, str] = {}
        if retry_after is not None:
            headers["Retry-After"] = f"{retry_after:g}"
        if retry_after_ms is not None:
            headers["retry-after-ms"] = f"{retry_after_ms:g}"
        return cls.error(429, "Rate limit reached, slow down.", code="rate_limit_exceeded",
                         type="requests", headers=headers)

    @classmethod
    def server_error(cls, status: int = 500, message: str = "The server had an error.") -> Reply:
        return cls.error(status, message, type="server_error")

    @classmethod
    def dropped(cls, after_chunks: int = 0, text: str = "this answer never arrives in full") -> Reply:
        """Close the connection: at once (0), or mid-stream after ``after_chunks`` chunks."""
        return cls(text=text, drop_after_chunks=after_chunks)

    @classmethod
    def broken_stream(cls, kind: str, text: str = "an answer whose stream breaks") -> Reply:
        """A stream with one broken event after the first piece: ``not-json`` (a data line that is no JSON),
        ``not-utf8`` (bytes that are no UTF-8) or ``null-delta`` (a chunk whose delta is null)."""
        raw = {
            "not-json": b"data: {this is not json\n\n",
            "not-utf8": b"data: \xff\xfe\xfd\n\n",
            "null-delta": json.dumps({"id": "chatcmpl-broken", "object": "chat.completion.chunk", "created": 0,
                                      "model": "m", "choices": [{"index": 0, "delta": None, "finish_reason": None}]}
                                     ).join([b"data: ".decode(), "\n\n"]).encode(),
        }[kind]
        return cls(text=text, raw_lines={2: raw})

    @classmethod
    def slow(cls, text: str, delay_s: float) -> Reply:
        """An answer that starts only after ``delay_s`` seconds (for timeouts)."""
        return cls(text=text, delay_s=delay_s)


ScriptEntry = Reply | str
Responder = Callable[["RecordedRequest"], "ScriptEntry | None"]


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict[str, Any]
    received_at: float

    @property
    def step(self) -> str | None:
        return self.headers.get(STEP_HEADER)

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))


def _as_reply(entry: ScriptEntry) -> Reply:
    return Reply.answer(entry) if isinstance(entry, str) else entry


def _word_count(text: str | None) -> int:
    return len(text.split()) if text else 0


class ScriptedServer:
    """See the module docstring. Use as a context manager or call start()/stop()."""

    def __init__(self, *, model: str = DEFAULT_MODEL, fixed_delay_s: float = 0.0,
                 known_models: Iterable[str] | None = None, api_key: str | None = None) -> None:
        self.model = model
        self.fixed_delay_s = fixed_delay_s
        self.known_models: set[str] | None = set(known_models) if known_models is not None else None
        self.api_key = api_key
        self.fallback: ScriptEntry | None = None
        self._queue: deque[Reply] = deque()
        self._step_queues: dict[str, deque[Reply]] = {}
        self._responder: Responder | None = None
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._in_flight = 0
        self.max_in_flight = 0
        self._stopping = threading.Event()
        self._httpd: _Httpd | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> ScriptedServer:
        self._httpd = _Httpd(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-llm-server",
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.close_all_connections()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, e.g. ``http://127.0.0.1:43211/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # --- the script ------------------------------------------------------------------------

    def enqueue(self, *entries: ScriptEntry) -> None:
        """Answers for the next requests of any step, in order."""
        with self._lock:
            self._queue.extend(_as_reply(entry) for entry in entries)

    def on_step(self, step: str, entries: ScriptEntry | Iterable[ScriptEntry]) -> None:
        """Answers for the next requests whose ``X-Genplan-Step`` header is ``step``."""
        if isinstance(entries, (str, Reply)):
            entries = [entries]
        with self._lock:
            self._step_queues.setdefault(step, deque()).extend(_as_reply(entry) for entry in entries)

    def respond_with(self, responder: Responder | None) -> None:
        """A callable deciding the reply when no queue has one; it may return None to pass."""
        with self._lock:
            self._responder = responder

    def pending(self) -> int:
        """How many queued replies are still unused."""
        with self._lock:
            return len(self._queue) + sum(len(queue) for queue in self._step_queues.values())

    # --- what happened ---------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every chat-completion request so far, in arrival order (a copy)."""
        with self._lock:
            return list(self._requests)

    def requests_for(self, step: str) -> list[RecordedRequest]:
        return [request for request in self.requests if request.step == step]

    def steps(self) -> list[str | None]:
        return [request.step for request in self.requests]

    def wait_until_quiet(self, quiet_s: float = 1.0, timeout_s: float = 20.0) -> None:
        """Until no request has come in for ``quiet_s`` and none is being answered. After a client is killed,
        what it had sent may still wait in a socket for a handler thread (on a loaded machine, longer than
        the kill takes); a ``clear()`` before those are recorded would count them as the next client's."""
        deadline = time.monotonic() + timeout_s
        seen, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            with self._lock:
                count, busy = len(self._requests), self._in_flight
            if count != seen or busy:
                seen, since = count, time.monotonic()
            elif time.monotonic() - since >= quiet_s:
                return
            time.sleep(0.05)
        raise AssertionError(f"the scripted server was not quiet for {quiet_s:g} s within {timeout_s:g} s")

    def clear(self) -> None:
        """Forget recorded requests and queued replies."""
        with self._lock:
            self._requests.clear()
            self._queue.clear()
            self._step_queues.clear()
            self.max_in_flight = 0

    # --- used by the handler ---------------------------------------------------------------

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _done(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _choose(self, request: RecordedRequest) -> Reply:
        with self._lock:
            queue = self._step_queues.get(request.step or "")
            if queue:
                return queue.popleft()
            if self._queue:
                return self._queue.popleft()
            responder = self._responder
        if responder is not None:
            entry = responder(request)
            if entry is not None:
                return _as_reply(entry)
        if self.fallback is not None:
            return _as_reply(self.fallback)
        return Reply.error(400, f"scripted server has no reply left for step {request.step!r}",
                           type="invalid_request_error", code="script_exhausted")

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


class _Httpd(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type, script: ScriptedServer) -> None:
        super().__init__(address, handler)
        self.script = script
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    def track(self, connection: socket.socket, alive: bool) -> None:
        with self._connections_lock:
            (self._connections.add if alive else self._connections.discard)(connection)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients dropping kept-alive connections is normal; anything else is printed."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    def close_all_connections(self) -> None:
        """Kept-alive client connections would otherwise hold handler threads open."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming, like real servers
    server: _Httpd

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, False)

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    # --- routes ------------------------------------------------------------------------------

    def do_GET(self) -> None:
        script = self.server.script
        if self.path.rstrip("/") == "/v1/models":
            names = sorted(script.known_models) if script.known_models is not None else [script.model]
            data = [{"id": name, "object": "model", "created": 0, "owned_by": "scripted"} for name in names]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(Reply.error(404, f"no route {self.path}"))

    def do_POST(self) -> None:
        script = self.server.script
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_error(Reply.error(404, f"no route {self.path}"))
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send_error(Reply.error(400, "request body is not JSON"))
            return
        request = RecordedRequest(method="POST", path=self.path, received_at=time.monotonic(),
                                  headers={k.lower(): v for k, v in self.headers.items()}, body=body)
        script._record(request)
        try:
            self._answer(script, request)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True  # the client gave up (e.g. its timeout): nothing to do
        finally:
            script._done()

    # --- answering -----------------------------------------------------------------------------

    def _answer(self, script: ScriptedServer, request: RecordedRequest) -> None:
        if script.api_key is not None and request.headers.get("authorization") != f"Bearer {script.api_key}":
            self._send_error(Reply.error(401, "Incorrect API key provided.", code="invalid_api_key",
                                         type="invalid_request_error"))
            return
        if script.known_models is not None and request.model not in script.known_models:
            self._send_error(Reply.error(404, f"The model `{request.model}` does not exist.",
                                         code="model_not_found", type="invalid_request_error"))
            return
        reply = script._choose(request)
        script._sleep(script.fixed_delay_s + reply.delay_s)
        if reply.page is not None:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.page)))
            self.end_headers()
            self.wfile.write(reply.page)
            self.wfile.flush()
        elif reply.status != 200:
            self._send_error(reply)
        elif reply.drop_after_chunks == 0:
            self._drop()
        elif request.stream:
            include_usage = bool((request.body.get("stream_options") or {}).get("include_usage"))
            self._send_stream(script, request, reply, include_usage)
        else:
            self._send_json(200, self._completion(request, reply), reply.headers)

    def _usage(self, request: RecordedRequest, reply: Reply) -> dict[str, Any]:
        counts = reply.usage or {}
        prompt = counts.get("prompt_tokens",
                            sum(_word_count(str(m.get("content", ""))) for m in request.messages))
        reasoning = counts.get("reasoning_tokens", _word_count(reply.reasoning))
        completion = counts.get("completion_tokens", _word_count(reply.text) + reasoning)
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "completion_tokens_details": {"reasoning_tokens": reasoning},
        }

    def _completion(self, request: RecordedRequest, reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.reasoning is not None:
            message[reply.reasoning_field] = reply.reasoning
        result: dict[str, Any] = {
            "id": f"chatcmpl-scripted-{id(reply)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.model or "",
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
        }
        if reply.send_usage:
            result["usage"] = self._usage(request, reply)
        return result

    def _send_stream(self, script: ScriptedServer, request: RecordedRequest, reply: Reply,
                     include_usage: bool) -> None:
        base = {"id": f"chatcmpl-scripted-{id(reply)}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": request.model or ""}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        def pieces(text: str) -> list[str]:
            size = max(1, reply.chunk_chars)
            return [text[i:i + size] for i in range(0, len(text), size)]

        events: list[dict[str, Any]] = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({reply.reasoning_field: piece}) for piece in pieces(reply.reasoning or "")]
        events += [chunk({"content": piece}) for piece in pieces(reply.text)]
        events.append(chunk({}, reply.finish_reason))
        if include_usage and reply.send_usage:
            events.append({**base, "choices": [], "usage": self._usage(request, reply)})

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        for index, event in enumerate(events):
            if reply.drop_after_chunks is not None and index >= reply.drop_after_chunks:
                self._drop()
                return
            if index in reply.raw_lines:
                self._write_chunk(reply.raw_lines[index])
            self._write_chunk(f"data: {json.dumps(event)}\n\n".encode())
            script._sleep(reply.chunk_delay_s)
        self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # --- low level -----------------------------------------------------------------------------

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_error(self, reply: Reply) -> None:
        error = {"message": reply.error_message, "type": reply.error_type, "param": None, "code": reply.error_code}
        self._send_json(reply.status, {"error": error}, reply.headers)

    def _drop(self) -> None:
        """Close the connection abruptly, mid-response or before it."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
