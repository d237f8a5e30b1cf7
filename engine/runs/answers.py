"""A run's requests and answers, by request id.

The model gateway (``engine/runs/gateway.py``) writes one request record per model call,
``requests/NNNN-<step>.json`` (the messages as sent, the parameters, the hash a resume compares), and one
answer record, ``responses/NNNN-<step>.json`` (the response with usage, latency and cost, whether a person
gave it) with the text alone beside it in ``responses/NNNN-<step>.md``. The names come from ``.layout``; every
reader outside ``engine/runs`` reads them through this module (``tests/test_run_files_owned.py`` fails when a
module names those folders itself).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.llm.budget import Spend
from genplan.engine.llm.types import ChatResponse
from genplan.engine.runs import layout
from genplan.engine.runs.files import read_json_or_none


@dataclass(frozen=True)
class RecordFile:
    """One file of a run's request and answer records."""

    folder: str  # layout.REQUESTS or layout.RESPONSES
    request_id: int
    step: str
    path: Path

    @property
    def is_request(self) -> bool:
        return self.folder == layout.REQUESTS


def record_files(run_dir: Path) -> list[RecordFile]:
    """Every request and answer file of a run: the requests first, then the answers, each in file-name order
    (which is request order). Files that are no record (no ``NNNN-`` at the start) are left out."""
    found: list[RecordFile] = []
    for folder in (layout.REQUESTS, layout.RESPONSES):
        directory = Path(run_dir) / folder
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            request_id = layout.record_id(path.name)
            if request_id is not None and path.is_file():
                found.append(RecordFile(folder, request_id, layout.record_step(path.name), path))
    return found


def copy_records(source_dir: Path, target_dir: Path, keep: Callable[[RecordFile], bool]) -> int:
    """Copy the request and answer files of ``source_dir`` that ``keep`` says yes to into ``target_dir`` (same
    names, same bytes); how many were copied. A fork keeps the answers before its edit, a strategy check the
    natural-language descriptions."""
    copied = 0
    for record in record_files(source_dir):
        if keep(record):
            target = Path(target_dir) / record.folder / record.path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(record.path, target)
            copied += 1
    return copied


def request_record(run_dir: Path, request_id: int) -> tuple[str, dict[str, Any]]:
    """The step and the record of request ``request_id`` as sent; FileNotFoundError when the run has none."""
    directory = layout.requests_dir(run_dir)
    for path in sorted(directory.glob(f"{layout.record_stem(request_id, '*')}.json")):
        record = read_json_or_none(path)
        if isinstance(record, dict):
            return layout.record_step(path.name), record
    raise FileNotFoundError(f"{run_dir}: no request {request_id}")


def response_record(run_dir: Path, request_id: int, step: str) -> dict[str, Any] | None:
    """The answer record of request ``request_id`` (``step``); None when it was not answered (or is unreadable)."""
    record = read_json_or_none(Path(run_dir) / layout.response_file(request_id, step))
    return record if isinstance(record, dict) else None


@dataclass(frozen=True)
class Answer:
    """One recorded answer, as the answer record has it."""

    request_id: int
    step: str
    text: str
    human: bool  # a person gave it (step mode's "answer", the manual provider, an edit a fork continues from)
    usage: dict[str, Any] = field(default_factory=dict)  # input_tokens, output_tokens, ...; {} when not known
    record: dict[str, Any] = field(default_factory=dict)  # the whole answer record

    @property
    def tokens(self) -> int:
        """Input plus output tokens (output includes reasoning tokens)."""
        return int(self.usage.get("input_tokens") or 0) + int(self.usage.get("output_tokens") or 0)


def answers(run_dir: Path) -> list[Answer]:
    """Every answer a run recorded, in request order (unreadable records are skipped)."""
    found: list[Answer] = []
    for record_file in record_files(run_dir):
        if record_file.is_request or record_file.path.suffix != ".json":
            continue
        record = read_json_or_none(record_file.path)
        if not isinstance(record, dict):
            continue
        response = record.get("response")
        response = response if isinstance(response, dict) else {}
        usage = response.get("usage")
        found.append(Answer(record_file.request_id, record_file.step, str(response.get("text") or ""),
                            bool(record.get("human")), dict(usage) if isinstance(usage, dict) else {}, record))
    return found


def answer_text(response_file: Path) -> str:
    """The text of the answer a ``ResponseReceived`` event's ``response_file`` holds: the gateway's JSON record
    (its response's text) or the answer itself (a ``.md``). OSError, ValueError when it cannot be read."""
    path = Path(response_file)
    if path.suffix == ".json":
        record = json.loads(path.read_text(encoding="utf-8"))
        return str((record.get("response") or record).get("text", ""))
    return path.read_text(encoding="utf-8", errors="replace")


def recorded_answer(run_dir: Path, which: int | str | Path | None) -> str:
    """The text of a recorded answer: ``which`` is its request id, or the file a ``ResponseReceived`` event names
    (relative to the run directory: the gateway's ``.md`` or ``.json`` answer file, or for an AutoToS run made
    before AutoToS asked through the gateway the answer file itself, ``versions/succ-N.answer.txt``). ``''``
    when the run has no such answer."""
    run_dir = Path(run_dir)
    if which is None or which == "":
        return ""
    if isinstance(which, int):
        candidates = sorted(layout.responses_dir(run_dir).glob(f"{layout.record_stem(which, '*')}.md"))
    else:
        path = Path(which)
        path = path if path.is_absolute() else run_dir / path
        candidates = [path.with_suffix(".md"), path]
    for candidate in candidates:
        try:
            return candidate.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return ""


def spend_on_disk(run_dir: Path, *, cached: bool = False) -> Spend:
    """What the run itself paid the model for, from its answer records: every answer neither cached nor a
    person's, with its tokens and cost (a fork's answers kept from its source, before ``forked_at``, were paid
    by the source and are left out). A resumed run's budget starts from this. ``cached``: count the cached answers
    too, with the tokens of the call that made them and their cost at that call's (what a forecast reckons a new
    run by, which may not find them in the cache)."""
    meta = read_json_or_none(layout.meta_file(Path(run_dir)))
    forked_at = meta.get("forked_at") if isinstance(meta, dict) else None
    spent = Spend()
    for answer in answers(run_dir):
        if answer.human or (isinstance(forked_at, int) and answer.request_id < forked_at):
            continue
        response = answer.record.get("response")
        if not isinstance(response, dict) or (response.get("cached") and not cached):
            continue
        try:
            spent.add(_as_asked(ChatResponse.from_dict(response)))
        except (KeyError, TypeError, ValueError):  # a record of an older writer without text or model
            continue
    return spent


def _as_asked(response: ChatResponse) -> ChatResponse:
    """A cached answer as the call that made it: its cost is not recorded, so it is left unknown (None) unless the
    answer says it cost nothing."""
    if not response.cached:
        return response
    return ChatResponse(text=response.text, model=response.model, usage=response.usage, cached=False, cost_usd=None)
