"""domains/ferry with only its four smallest debug tasks, for the tests that run AutoToS on ferry.

AutoToS's unit tests search the debug tasks with the model's successor function (sandboxed, once per soundness
round), and the soundness and completeness checks replay what those searches saw. Ferry's task-04 (4 locations,
5 cars) has 9,216 reachable states and task-05 (5 locations, 6 cars) 171,875; task-00 to task-03 have at most
567. The tests need these searches to happen -- a soundness round, its feedback, the checks passed -- not their
size: on the four small tasks a test's AutoToS run takes seconds instead of half a minute (issue 34).

Everything else is domains/ferry's as it is (domain.pddl, domain.toml, the eval tasks, generator, probes, README),
without its ``.genplan`` directory, and the copy's directory is named ``ferry`` as the domain's is: run names
(``autotos-pddl-ferry-...``) and batch paths (``runs/ferry/AutoToS/...``) read as they do on domains/ferry.

- ``small_ferry_copy(root)``: a copy at ``root/ferry``, for a test that writes into its domain (the TUI puts its
  runs in ``DOMAIN/.genplan/runs``) or needs it at a place of its own.
- ``small_ferry()``: one copy per process, made on first use and removed at exit, for module constants and runs
  that write elsewhere (``--out``, a runs directory given).
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from support.ferry_model import FERRY

# task-00 .. task-03 of domains/ferry/debug: 2-3 locations, 1-4 cars, at most 567 reachable states each
SMALL_DEBUG_TASKS = frozenset({"task-00.pddl", "task-01.pddl", "task-02.pddl", "task-03.pddl"})


def _left_out(directory: str, names: list[str]) -> set[str]:
    """What copytree leaves out of a directory of domains/ferry: the runs of the checkout's own use, and the
    debug tasks but the small ones."""
    if Path(directory) == FERRY / "debug":
        return {name for name in names if name.endswith(".pddl") and name not in SMALL_DEBUG_TASKS}
    return {".genplan"} & set(names)


def small_ferry_copy(root: Path) -> Path:
    """``root/ferry``: domains/ferry with only its four smallest debug tasks (see this module's docstring)."""
    target = root / "ferry"
    shutil.copytree(FERRY, target, ignore=_left_out)
    return target


@functools.cache
def small_ferry() -> Path:
    """This process's ``small_ferry_copy``, in a temporary directory removed when the process exits. Only read by
    the tests: a run on it must write elsewhere (``--out``, a runs directory given)."""
    root = Path(tempfile.mkdtemp(prefix="genplan-small-ferry-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return small_ferry_copy(root)
