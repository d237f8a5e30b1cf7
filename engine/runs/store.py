"""A run directory: plain files anyone can `cat` or `git diff`, plus the append-only event log.

Layout (all paths relative to the run directory):
    run.json                    what was run: domain, config, model settings (never the key), status
    events.jsonl                one event per line, flushed as it happens
    requests/NNNN-<step>.json   every request exactly as sent (messages, params); see .answers
    responses/NNNN-<step>.json  every response with usage/latency/cost; .md beside it holds the text alone
    nl/domain.md, nl/<task>.md  natural-language descriptions
    strategies/vNN.md           every strategy (pseudocode) version
    reflections/<name>.md       every reflection
    programs/cN-vNN.py          every program version (candidate N, version NN)
    results/<name>.json         validation / debug results
    summary.json                written when the run finishes
    failures/failure-N.txt      the traceback of an internal error the run ended with (each kept)
"""

from __future__ import annotations

import datetime as _dt
import json
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.engine.errors import RunStopped
from genplan.engine.events import ArtifactCreated, Event, read_log
from genplan.engine.runs import RunMeta, layout
from genplan.engine.runs.answers import copy_records, request_record, response_record
from genplan.engine.runs.files import write_json_atomic as write_json_atomic
from genplan.engine.runs.files import write_text_atomic as write_text_atomic
from genplan.engine.runs.lock import INTERRUPTED, owner, owner_alive
from genplan.engine.runs.status import RunStatus

RUNS_SUBDIR = Path(layout.RUNS_SUBDIR)


def new_run_id() -> str:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{secrets.token_hex(2)}"


@dataclass
class RunInfo:
    run_id: str
    path: Path
    status: str
    preset: str
    model: str | None
    created: str


class RunStore:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._log_lock = threading.Lock()
        self._closer: int | None = None  # the thread that closed the run (close), the only one still writing

    def close(self) -> None:
        """The run ends early (ctrl+c, an error) while other threads of it may still work (a request still out):
        from now on only this thread writes into the run, to record how it ended; another's write raises
        RunStopped, so nothing lands in the run after its end."""
        self._closer = threading.get_ident()

    def _writable(self) -> None:
        if self._closer is not None and threading.get_ident() != self._closer:
            raise RunStopped(f"{self.path.name}: the run has ended; nothing more is written into it")

    # ------------------------------------------------------------------ creation
    @classmethod
    def create(cls, root: Path, meta: dict[str, Any], run_id: str | None = None, *,
               existing_dir_ok: bool = False) -> RunStore:
        """A new run directory under `root` (a domain's `.genplan/runs` or an --out directory); with
        ``existing_dir_ok`` a directory the caller made (without a run in it) becomes the run directory."""
        run_id = run_id or new_run_id()
        path = Path(root) / run_id
        path.mkdir(parents=True, exist_ok=existing_dir_ok)
        if layout.is_run_dir(path):
            raise FileExistsError(f"{path}: already a run directory")
        store = cls(path)
        store.write_json(layout.META, {"run_id": run_id, "status": RunStatus.RUNNING, "created": _now(), **meta, **owner()})
        layout.events_file(path).touch()
        return store

    @classmethod
    def open(cls, path: Path) -> RunStore:
        path = Path(path)
        if not layout.meta_file(path).exists():
            raise FileNotFoundError(f"{path}: not a genplan run directory (no {layout.META})")
        store = cls(path)
        store.correct_status()
        return store

    def correct_status(self) -> str:
        """The run's status, after marking a 'running' run whose process is gone as interrupted."""
        try:
            meta = self.meta()
        except (OSError, json.JSONDecodeError):
            return "?"
        status = str(meta.get("status", "?"))
        if status == RunStatus.RUNNING and owner_alive(meta) is False:
            self.update_meta(status=INTERRUPTED)
            return INTERRUPTED
        return status

    def claim(self) -> None:
        """This process now works on the run (a resume): its status is running again, owned by us."""
        self.update_meta(status=RunStatus.RUNNING, **owner())

    @staticmethod
    def runs_dir(domain_dir: Path) -> Path:
        return Path(domain_dir) / RUNS_SUBDIR

    @classmethod
    def list_runs(cls, domain_dir: Path) -> list[RunInfo]:
        return cls.list_runs_in(cls.runs_dir(domain_dir))

    @classmethod
    def list_runs_in(cls, root: Path) -> list[RunInfo]:
        """The runs directly under ``root``; a run whose process died is reported (and marked) interrupted."""
        infos: list[RunInfo] = []
        if not root.is_dir():
            return infos
        for child in sorted(root.iterdir()):
            meta_file = layout.meta_file(child)
            if not meta_file.exists():
                continue
            try:
                meta = json.loads(meta_file.read_text())
            except (OSError, json.JSONDecodeError):
                continue
            if not isinstance(meta, dict):
                continue
            typed = RunMeta.from_dict(meta, run_id=child.name)  # the one typed view of run.json
            status = str(typed.status or meta.get("status", "?"))
            if typed.status == RunStatus.RUNNING and owner_alive(meta) is False:
                status = cls(child).correct_status()
            infos.append(
                RunInfo(
                    run_id=child.name,
                    path=child,
                    status=status,
                    preset=typed.preset or "?",
                    model=typed.model_name,
                    created=typed.created,
                )
            )
        return infos

    # ------------------------------------------------------------------ files
    def file(self, relative: str) -> Path:
        return self.path / relative

    def write_text(self, relative: str, text: str) -> Path:
        self._writable()
        target = self.path / relative
        write_text_atomic(target, text)
        return target

    def write_json(self, relative: str, data: Any) -> Path:
        self._writable()
        target = self.path / relative
        write_json_atomic(target, data)
        return target

    def read_json(self, relative: str) -> Any:
        return json.loads((self.path / relative).read_text(encoding="utf-8"))

    def exists(self, relative: str) -> bool:
        return (self.path / relative).exists()

    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = self.read_json(layout.META)
        return meta

    def update_meta(self, **changes: Any) -> None:
        meta = self.meta()
        meta.update(changes)
        self.write_json(layout.META, meta)

    # ------------------------------------------------------------------ events
    def append_event(self, event: Event) -> None:
        """Append and flush: once written, a killed process (even kill -9) loses nothing. No fsync per
        event: that guards only against power loss and costs milliseconds on a busy disk."""
        self._writable()
        line = event.to_json() + "\n"
        with self._log_lock:
            with open(layout.events_file(self.path), "a", encoding="utf-8") as log:
                log.write(line)
                log.flush()

    def events(self) -> Iterator[Event]:
        """The logged events; a torn last line (a crash mid-write) is skipped."""
        return read_events(self.path)

    def last_seq(self) -> int:
        last = 0
        for event in self.events():
            last = max(last, event.seq)
        return last


def read_events(run_dir: Path) -> Iterator[Event]:
    """A run directory's logged events, oldest first, without opening the run (its status is left as it is);
    none when it has no log. A torn last line (a crash mid-write) is skipped."""
    log = layout.events_file(run_dir)
    if not log.exists():
        return
    with open(log, encoding="utf-8") as handle:
        yield from read_log(handle)


def _now() -> str:
    return _dt.datetime.now().isoformat(timespec="seconds")


def fork_run(source: RunStore, root: Path, request_id: int, answer: str,
             extra_meta: dict[str, Any] | None = None, *, stem: str | None = None) -> RunStore:
    """A new run that keeps `source`'s answers before `request_id`, takes `answer` as the answer to
    `request_id`, and (when run) asks everything after it anew: "continue from here" with an edit.
    ``stem``: its name is ``<stem>-<date>-<time>`` (as its approach names a new run: AutoToS's); else a plain id.

    Running the pipeline on the fork replays the kept answers from disk (nothing is sent again) and
    continues with the edited one — an edited strategy goes to validation, an edited reflection to the
    revision request, an edited program to debugging.
    """
    from genplan.engine.runs import create_named

    # a fork of an imported run is not an import: a model answers what follows the edit
    meta = {k: v for k, v in source.meta().items() if k not in ("run_id", "status", "created", "imported_from", "import")}
    fork_meta = {**meta, "forked_from": str(source.path), "forked_at": request_id, **(extra_meta or {})}
    fork = create_named(Path(root), stem, fork_meta) if stem else RunStore.create(Path(root), fork_meta)
    # the requests up to the edited one as sent, the answers before it as received
    copy_records(source.path, fork.path, lambda record: record.request_id < request_id
                 or (record.is_request and record.request_id == request_id))
    step, request = request_record(source.path, request_id)
    original = response_record(source.path, request_id, step)
    original_hash = original["original_hash"] if original is not None else request["hash"]
    fork.write_text(layout.response_file(request_id, step, ".md"), answer)
    fork.write_json(
        layout.response_file(request_id, step),
        {
            "id": request_id,
            "step": request["step"],
            "request_hash": request["hash"],
            "original_hash": original_hash,
            "human": True,
            "response": {"text": answer, "model": "human", "cost_usd": 0.0},
        },
    )
    return fork


def artifact_request_id(store: RunStore, relative_file: str) -> int:
    """The request whose answer produced an artefact (strategy, reflection, program version)."""
    for event in store.events():
        if isinstance(event, ArtifactCreated) and event.file == relative_file and event.request_id is not None:
            return int(event.request_id)
    raise FileNotFoundError(f"{store.path / relative_file}: no answer of this run wrote this file")
