"""Host-side parses of model code from many threads at once never fail (gh-106905).

CPython 3.11 up to 3.11.8 (this machine's is 3.11.7) counts the AST constructor's recursion depth in state that
all threads share; two threads inside ``ast.parse`` at once corrupt it and the parse raises ``SystemError: AST
constructor recursion depth mismatch`` — a reproduce grid lost gripper's run to it at a ``code.revise`` answer.
A thread switch inside ``ast.parse`` happens when the collector runs during it and something it runs gives up
the interpreter (a finalizer that does I/O: the HTTP client's objects in a run). The stress here makes that happen
at every collection (a collector callback that yields, collections every few hundred allocations), so the race
shows within a second without genplan's lock (``test_the_stress_shows_the_race_without_the_lock``) and never
with it: every host-side path that parses or compiles a model's text goes through engine/python_text.py.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

import pytest

from genplan.engine import python_text
from genplan.engine.api.versions import compile_quietly
from genplan.engine.autotos.extract import definitions_only, extract_as_released, extract_function
from genplan.engine.extract import extract_code
from genplan.engine.extract.code_segments import parse_python
from genplan.engine.pddlego.trial_log import _literal_list
from genplan.engine.sandbox.program import Program
from genplan.tui.code_check import check_python

# a program of the size and depth a model writes: many helpers, nested comprehensions and literals
HELPERS = "\n".join(
    f"def helper_{i}(objects, init, goal):\n"
    f"    table = {{k: [(a, b, {{'deep': [[(x, y) for x in a] for y in b]}}) for a, b in v] for k, v in init}}\n"
    f"    return [(name, [o for o in objects if o[1] == name and (o[0] in table or not goal)]) for name in table]\n"
    for i in range(25)
)
PROGRAM = HELPERS + "\n\ndef generate_solution(objects, init, goal):\n    return [f'(noop {o})' for o in objects]\n"
SUCCESSOR = "def successor_states(state):\n    return [state]\n\n\n" + HELPERS
ANSWER = f"The program:\n\n```python\n{PROGRAM}```\n"
LITERAL = repr([[f"(at o{i} l{j})" for j in range(8)] for i in range(40)])


def _every_path() -> list[Callable[[], object]]:
    """Each host-side parse or compile of a model's text, with a check that it gave the right answer."""

    def check(value: object) -> object:
        assert value, "a host-side check of valid code said it was not"
        return value

    return [
        lambda: check(parse_python(PROGRAM)[0] is not None),
        lambda: check(extract_code(ANSWER).ok),
        lambda: check(Program.from_source(PROGRAM).syntax_problem() is None),
        lambda: check(Program.from_source(PROGRAM).defines_function()),
        lambda: check(extract_function(f"```python\n{SUCCESSOR}```", "succ") is not None),
        lambda: check(definitions_only(SUCCESSOR) == SUCCESSOR),
        lambda: check(extract_as_released(f"```python\n{SUCCESSOR}```", "succ").syntax_error is None),  # type: ignore[union-attr]
        lambda: check(compile_quietly(PROGRAM) is not None),
        lambda: check(check_python(PROGRAM) == []),
        lambda: check(_literal_list(LITERAL) is not None),
    ]


@contextmanager
def _switching_collector() -> Iterator[None]:
    """The collector runs every few hundred allocations and gives up the interpreter each time it does."""

    def yield_interpreter(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            time.sleep(0)

    threshold = gc.get_threshold()
    gc.set_threshold(300, threshold[1], threshold[2])
    gc.callbacks.append(yield_interpreter)
    try:
        yield
    finally:
        gc.callbacks.remove(yield_interpreter)
        gc.set_threshold(*threshold)


def _hammer(paths: list[Callable[[], object]], threads: int = 4, rounds: int = 2) -> list[BaseException]:
    """Every path ``rounds`` times in each of ``threads`` threads started together; the errors raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def work(offset: int) -> None:
        start.wait()
        for round_ in range(rounds):
            for index in range(len(paths)):
                try:
                    paths[(index + offset + round_) % len(paths)]()
                except BaseException as exc:  # noqa: BLE001 - every failure is the finding
                    errors.append(exc)

    with _switching_collector():
        workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    return errors


def test_host_side_parses_in_many_threads_at_once_never_fail() -> None:
    errors = _hammer(_every_path())
    assert errors == []


@pytest.mark.skipif(sys.version_info >= (3, 11, 9), reason="this Python counts the AST's depth per parse (gh-106905 fixed)")
def test_the_stress_shows_the_race_without_the_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: on this Python the same stress, with genplan's lock taken away, makes parses fail with the
    race's SystemError, so the test above would catch the lock's loss."""
    monkeypatch.setattr(python_text, "_COMPILER", nullcontext())
    errors = _hammer(_every_path())
    assert any(isinstance(e, SystemError) and "recursion depth mismatch" in str(e) for e in errors), errors[:3]
