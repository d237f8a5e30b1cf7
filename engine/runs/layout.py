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
    nl/ strategies/ programs/   the versions of the NL descriptions, strategies and programs a model wrote
    results/<what>-<label>.json the check results of a version on the debug tasks
    pddl/               a PDDLego+/PlanGen trial's domain and problem files, step by step
    observations.md     what a PDDLego+/PlanGen trial saw of its game
    versions/           an AutoToS run's versions of its successor function and goal test
    counterexamples/    a counterexample search's records and tasks (and tasks attached to a fork)

Every path into a run directory is built here (``tests/test_run_files_owned.py`` fails when a module outside
``engine/runs/`` joins a run directory with a name): a path an event or a record names, relative to the run, is
resolved with :func:`in_run`, which refuses one that leaves the directory.

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

NL = "nl"
STRATEGIES = "strategies"
PROGRAMS = "programs"
RESULTS = "results"
PDDL = "pddl"
OBSERVATIONS = "observations.md"
VERSIONS = "versions"
COUNTEREXAMPLES = "counterexamples"
FAILURES = "failures"  # the traceback of each internal error a run ended with (failure-N.txt)
#: where runs on a domain directory go unless told otherwise: ``DOMAIN_DIR/.genplan/runs``
RUNS_SUBDIR = ".genplan/runs"

#: every file name above (the run-file-name test looks for these outside ``engine/runs/``)
RUN_FILES = (META, EVENTS, LOCK, SUMMARY, TRIAL, IMPORT, EVALUATION)


class OutsideRun(ValueError):
    """A path named as relative to a run directory leads out of it."""


def in_run(run_dir: Path, relative: str | Path) -> Path:
    """The file ``relative`` (as an event or a record names it) inside ``run_dir``; OutsideRun when it would
    lead out of the directory (an absolute path, ``..``)."""
    run_dir = Path(run_dir)
    path = run_dir / relative
    if Path(relative).is_absolute() or ".." in Path(relative).parts:
        raise OutsideRun(f"{relative}: not a path inside the run directory {run_dir}")
    return path


def failure_file(run_dir: Path) -> str:
    """Where the traceback of an internal error that ends a run goes, relative to the run: the next free
    ``failures/failure-N.txt`` (a run resumed and failing again keeps each)."""
    number = 1
    while (Path(run_dir) / FAILURES / f"failure-{number}.txt").exists():
        number += 1
    return f"{FAILURES}/failure-{number}.txt"


def nl_dir(run_dir: Path) -> Path:
    return Path(run_dir) / NL


def programs_dir(run_dir: Path) -> Path:
    return Path(run_dir) / PROGRAMS


def results_dir(run_dir: Path) -> Path:
    return Path(run_dir) / RESULTS


def pddl_dir(run_dir: Path) -> Path:
    return Path(run_dir) / PDDL


def observations_file(run_dir: Path) -> Path:
    return Path(run_dir) / OBSERVATIONS


def trial_call_stem(step: int, attempt: int, retry: int) -> str:
    """The files of one PDDLego+/PlanGen solver call, relative to the run, without ``-domain.pddl`` /
    ``-problem.pddl``: ``pddl/s01-a0-r2``."""
    return f"{PDDL}/s{step:02d}-a{attempt}-r{retry}"


def trial_call_file(run_dir: Path, step: int, attempt: int, retry: int, part: str) -> Path:
    """The ``part`` ("domain" or "problem") file of one solver call of a trial."""
    return Path(run_dir) / f"{trial_call_stem(step, attempt, retry)}-{part}.pddl"


def nl_files(run_dir: Path, names: tuple[str, ...]) -> list[Path]:
    """The NL description files of these names (relative to ``nl/``) in a run, in the order given."""
    return [nl_dir(run_dir) / name for name in names]


def versions_dir(run_dir: Path) -> Path:
    return Path(run_dir) / VERSIONS


def counterexamples_dir(run_dir: Path) -> Path:
    return Path(run_dir) / COUNTEREXAMPLES


def page_file(run_dir: Path) -> Path:
    """A run's shared page (``genplan export``) unless told otherwise: beside its files, named after the run."""
    return Path(run_dir) / f"{Path(run_dir).resolve().name}.html"


def default_runs_dir(domain_dir: Path) -> Path:
    """Where runs on ``domain_dir`` go unless a front end is told otherwise (``DOMAIN_DIR/.genplan/runs``)."""
    return Path(domain_dir) / RUNS_SUBDIR


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
