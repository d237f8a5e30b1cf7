"""Where things are in a run directory: every file and folder name, in one place.

Nothing outside ``engine/runs/`` names a run file (``tests/test_run_files_owned.py`` fails when one does);
it asks this module instead. Layout (paths relative to the run directory)::

    run.json            what was run: domain, config, model settings (never the key), status, owner
    events.jsonl        one event per line, flushed as it happens
    run.lock            the flock held by the process working on the run
    summary.json        the run's outcome, written when it finishes
    trial.json          a PDDLego+/PlanGen trial's record (outcome, steps, error counts)
    import.json         what an AutoToS log import reproduced, and where it left the log's path
    evaluation.json     batch: the selected program on the evaluation tasks
    requests/NNNN-<step>.json   every request as sent (messages, params, hash)
    responses/NNNN-<step>.json  every answer as received (usage, latency, cost, whether a person gave it);
    responses/NNNN-<step>.md    the answer's text alone

This module imports nothing of genplan, so any module can use it without an import circle.
"""

from __future__ import annotations

from pathlib import Path

META = "run.json"
EVENTS = "events.jsonl"
LOCK = "run.lock"
SUMMARY = "summary.json"
TRIAL = "trial.json"
IMPORT = "import.json"
EVALUATION = "evaluation.json"
REQUESTS = "requests"
RESPONSES = "responses"

#: every file name above (the run-file-name test looks for these outside ``engine/runs/``)
RUN_FILES = (META, EVENTS, LOCK, SUMMARY, TRIAL, IMPORT, EVALUATION)


def meta_file(run_dir: Path) -> Path:
    return Path(run_dir) / META


def events_file(run_dir: Path) -> Path:
    return Path(run_dir) / EVENTS


def lock_file(run_dir: Path) -> Path:
    return Path(run_dir) / LOCK


def summary_file(run_dir: Path) -> Path:
    return Path(run_dir) / SUMMARY


def trial_file(run_dir: Path) -> Path:
    return Path(run_dir) / TRIAL


def import_file(run_dir: Path) -> Path:
    return Path(run_dir) / IMPORT


def evaluation_file(run_dir: Path) -> Path:
    return Path(run_dir) / EVALUATION


def record_stem(request_id: int, step: str) -> str:
    """The name a request and its answer share: ``NNNN-<step>`` (``0003-code.generate``)."""
    return f"{request_id:04d}-{step}"


def request_file(request_id: int, step: str) -> str:
    """The request as sent, relative to the run directory (events name it so): ``requests/NNNN-<step>.json``."""
    return f"{REQUESTS}/{record_stem(request_id, step)}.json"


def response_file(request_id: int, step: str, suffix: str = ".json") -> str:
    """The answer, relative to the run directory: ``responses/NNNN-<step>.json`` (the record), ``.md`` (its
    text alone)."""
    return f"{RESPONSES}/{record_stem(request_id, step)}{suffix}"


def requests_dir(run_dir: Path) -> Path:
    return Path(run_dir) / REQUESTS


def responses_dir(run_dir: Path) -> Path:
    return Path(run_dir) / RESPONSES


def record_id(name: str) -> int | None:
    """The request id a record file's name starts with (``0003-code.generate.json`` -> 3), None for another file."""
    digits = name[:4]
    return int(digits) if len(name) > 4 and digits.isdigit() and name[4] == "-" else None


def record_step(name: str) -> str:
    """The step a record file's name holds (``0003-code.generate.json`` -> ``code.generate``)."""
    stem = name[5:]
    for suffix in (".json", ".md"):
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


def is_run_dir(path: Path) -> bool:
    """Whether ``path`` is a genplan run directory (it has a ``run.json``)."""
    return meta_file(path).is_file()


def run_dirs_in(root: Path) -> list[Path]:
    """The run directories directly under ``root``, sorted by name (none when ``root`` is no directory)."""
    root = Path(root)
    if not root.is_dir():
        return []
    return [child for child in sorted(root.iterdir()) if is_run_dir(child)]


def holds_runs(path: Path) -> bool:
    """Whether ``path`` is a directory with at least one run directory directly in it."""
    path = Path(path)
    return path.is_dir() and any(is_run_dir(child) for child in path.iterdir())
