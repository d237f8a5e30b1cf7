"""The AutoToS search harness itself, in process: what a state's key merges, and that the per-call limit
measures the model's functions rather than the collector's work on the harness's own states."""

from __future__ import annotations

import copy
import gc

from hypothesis import given, settings
from hypothesis import strategies as st

from genplan.engine.autotos import harness

GC_PROBE = '''
import gc
seen = []

def succ(state):
    seen.append(gc.isenabled())
    if len(state) == 1:
        return []
    return [[state[0] + state[1]] + state[2:], [state[0] * state[1]] + state[2:]]
'''
GOAL = "def is_goal(state):\n    return state == [24]\n"


def test_24_game_keys_compare_numbers_by_value_and_never_round() -> None:
    assert harness._str("24game", [1, 2]) == harness._str("24game", [2.0, 1.0])
    assert harness._str("24game", [-0.0]) == harness._str("24game", [0])
    # two results of different arithmetic that agree to 9 digits are different states: merging them lost
    # solutions whose last step only hits 24 exactly from one of them (24 Game logs, docs/autotos.md)
    near = 8 / 3
    assert near != near + 4e-16
    assert harness._str("24game", [near, 3]) != harness._str("24game", [near + 4e-16, 3])


def test_searches_run_without_the_cyclic_collector_and_restore_it() -> None:
    request = {"op": "evaluate", "domain": "24game", "call_timeout": 1.0,
               "succ": {"source": GC_PROBE, "name": "succ"}, "goal": {"source": GOAL, "name": "is_goal"},
               "instances": [{"init": [4, 6], "extra": [], "goal_extra": []}], "search_timeout": 10}
    assert gc.isenabled()
    answer = harness.handle(request)
    assert answer["ok"] and answer["results"][0]["path"] == [[4, 6], [24]]
    assert gc.isenabled()  # restored
    functions = harness.Functions(request)
    seen = functions.succ.__globals__["seen"]
    harness._soundness(functions, request, checks=False)
    assert seen and not any(seen)  # every call of the model's function ran with the collector off


# A graph of named states for the search-order tests: each state is a one-word list (PrOntoQA's shape).
GRAPH_SUCC = '''
EDGES = {EDGES}

def succ(state):
    return [[name] for name in EDGES[state[0]]]
'''
GRAPH_GOAL = "def is_goal(state):\n    return state == ['g']\n"


def _search(edges: dict[str, list[str]], depth_first: bool) -> tuple[dict, harness.Search]:
    request = {"op": "evaluate", "domain": "prontoqa", "call_timeout": 1.0,
               "succ": {"source": GRAPH_SUCC.replace("{EDGES}", repr(edges)), "name": "succ"},
               "goal": {"source": GRAPH_GOAL, "name": "is_goal"}}
    search = harness.Search(harness.Functions(request), [], [], checks=False, pst=False, deadline=float("inf"),
                            depth_first=depth_first)
    return {"path": search.run(["s"])}, search


def test_bfs_goal_tests_a_state_when_it_is_taken_from_the_queue() -> None:
    # s -> a, b; a -> c; b -> g. Tested at generation, g would end the search after 3 expansions; the release's
    # BFS (whose logged counts genplan reproduces) expands s, a, b and c before it takes g from the queue.
    result, search = _search({"s": ["a", "b"], "a": ["c"], "b": ["g"], "c": [], "g": []}, depth_first=False)
    assert result["path"] == [["s"], ["b"], ["g"]]
    assert (search.expanded, search.generated) == (4, 4)


def test_dfs_closes_a_state_when_it_is_expanded_and_keeps_its_latest_parent() -> None:
    # s -> a, b (b is taken first); b -> a; a -> g. A visited-at-generation DFS would give s, a, g; with the
    # release's closed list the a pushed by b is expanded first, so the path runs through b.
    result, search = _search({"s": ["a", "b"], "b": ["a"], "a": ["g"], "g": []}, depth_first=True)
    assert result["path"] == [["s"], ["b"], ["a"], ["g"]]
    assert (search.expanded, search.generated) == (3, 4)


def test_an_initial_goal_state_is_a_path_of_one_state_without_expansions() -> None:
    request = {"op": "evaluate", "domain": "prontoqa", "call_timeout": 1.0,
               "succ": {"source": GRAPH_SUCC.replace("{EDGES}", "{}"), "name": "succ"},
               "goal": {"source": GRAPH_GOAL, "name": "is_goal"}}
    for depth_first in (False, True):
        search = harness.Search(harness.Functions(request), [], [], checks=False, pst=False, deadline=float("inf"),
                                depth_first=depth_first)
        assert search.run(["g"]) == [["g"]] and search.expanded == 0


# ------------------------------------------------------------------ the per-call clock and the copying
SPIN = '''
import time

def succ(state):
    if state == [1, 2]:
        end = time.monotonic() + 5
        while time.monotonic() < end:  # busy: only the clock's signal stops it
            pass
    return [[state[0] + state[1]]]
'''


def _request(succ: str, init: list, call_timeout: float = 0.2) -> dict:
    return {"op": "evaluate", "domain": "24game", "call_timeout": call_timeout,
            "succ": {"source": succ, "name": "succ"}, "goal": {"source": GOAL, "name": "is_goal"},
            "instances": [{"init": init, "extra": [], "goal_extra": []}], "search_timeout": 10}


def test_a_call_over_its_limit_is_stopped_and_the_callers_alarm_is_given_back() -> None:
    import signal
    import time

    def callers_handler(_signum, _frame) -> None:
        raise AssertionError("the caller's alarm went off during the test")

    previous = signal.signal(signal.SIGALRM, callers_handler)
    signal.setitimer(signal.ITIMER_REAL, 60.0)  # as pytest-timeout's would be
    try:
        started = time.monotonic()
        answer = harness.handle(_request(SPIN, [1, 2]))
        elapsed = time.monotonic() - started
        assert answer["ok"] and answer["results"][0]["error"] == "succ-timeout"
        assert 0.2 <= elapsed < 4.0  # stopped at its limit (a tick late at most), long before the 5 s spin ends
        assert signal.getsignal(signal.SIGALRM) is callers_handler
        remaining, interval = signal.getitimer(signal.ITIMER_REAL)
        assert 50.0 < remaining <= 60.0 and interval == 0.0
        # a request whose calls all finish in time leaves the caller's alarm as it found it too
        assert harness.handle(_request(SPIN, [4, 20]))["results"][0]["path"] == [[4, 20], [24]]
        assert signal.getsignal(signal.SIGALRM) is callers_handler
        assert 50.0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 60.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# a call that waits (as a busy machine makes a call wait for the processor), where SPIN computes
WAIT = '''
import time

def succ(state):
    time.sleep(0.6)
    return [[state[0] + state[1]]] if len(state) == 2 else []
'''


def test_the_cpu_clock_counts_what_a_call_computes_not_how_long_it_waits() -> None:
    for clock, waiting in (("wall", "succ-timeout"), ("cpu", None)):
        answer = harness.handle({**_request(WAIT, [4, 20], call_timeout=0.3), "clock": clock})
        assert answer["ok"] and answer["results"][0].get("error") == waiting, (clock, answer)
        spinning = harness.handle({**_request(SPIN, [1, 2], call_timeout=0.3), "clock": clock})
        assert spinning["results"][0]["error"] == "succ-timeout", clock
    assert harness.handle({**_request(WAIT, [4, 20]), "clock": "cpu"})["results"][0]["path"] == [[4, 20], [24]]
    # the search's own limit counts the same clock: 0.5 s, and a call that waits 0.6 s
    slow_search = {**_request(WAIT, [4, 20], call_timeout=5.0), "search_timeout": 0.5, "clock": "cpu"}
    assert harness.handle(slow_search)["results"][0].get("error") is None
    assert harness.handle({**slow_search, "clock": "wall"})["results"][0]["error"] == "search-timeout"


COPIES = '''
import copy

def succ(state):
    if len(state) < 2:
        return []
    inner = [state[0]]
    pair = copy.deepcopy([inner, inner, {"again": inner}])
    assert pair[0] is pair[1] is pair[2]["again"] and pair[0] is not inner and pair[0] == inner
    ring = []
    ring.append(ring)
    twin = copy.deepcopy(ring)
    assert twin[0] is twin and twin is not ring
    return [[state[0] + state[1]]] + ([KEYED] if getattr(copy, "id", id) is not id else [])
'''


def test_deep_copies_in_the_sandbox_keep_shared_and_cyclic_parts_without_audit_events() -> None:
    from genplan.engine.autotos.executor import InProcessExecutor, SandboxExecutor

    source = COPIES.replace("KEYED", "[state[0] * state[1]]")
    request = _request(source, [4, 6], call_timeout=1.0)
    executor = SandboxExecutor()
    try:
        sandboxed = executor.run(request, 30.0)
    finally:
        executor.close()
    in_process = InProcessExecutor().run(request, 30.0)
    # both searches pass the copy checks; only the sandboxed one sees copy's memo keyed without id()
    # (one more successor there: 4 * 6, the goal), and in-process the caller's copy module is untouched
    assert sandboxed["ok"] and sandboxed["results"][0]["path"] == [[4, 6], [24]], sandboxed
    assert in_process["ok"] and in_process["results"][0]["path"] is None and in_process["results"][0]["expanded"] == 2
    import copy

    assert "id" not in vars(copy)


# ------------------------------------------------------------------ the sandboxed child's deepcopy
def _shape(value: object, original: object, seen: dict[int, int] | None = None) -> object:
    """A copy's structure as plain data: types, atomic values, which parts are the original's own objects, and
    which are one object reached twice (shared parts, cycles) by their first place in a depth-first walk."""
    seen = {} if seen is None else seen
    if id(value) in seen:
        return ("again", seen[id(value)])
    kind = type(value).__name__
    if not isinstance(value, (list, dict, tuple)):
        return (kind, repr(value), value is original)
    seen[id(value)] = len(seen)
    if isinstance(value, dict):
        assert isinstance(original, dict)
        parts = [(_shape(k, ko, seen), _shape(v, original[ko], seen)) for (k, v), ko in zip(value.items(), original)]
    else:
        assert isinstance(original, (list, tuple))
        parts = [_shape(v, o, seen) for v, o in zip(value, original)]
    return (kind, value is original, parts)


def _plain_states() -> st.SearchStrategy[object]:
    atoms = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3))
    keys = st.one_of(atoms, st.tuples(atoms, atoms))
    return st.recursive(atoms, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(keys, inner, max_size=3)), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_plain_states(), st.lists(st.integers(min_value=0, max_value=5), max_size=4))
def test_the_plain_deepcopy_makes_what_copy_deepcopy_makes(state: object, reuse: list[int]) -> None:
    # some parts reached twice (a shared list, a tuple holding it), then the same with a list that holds itself
    shared = [state, [1, 2]]
    wrapped: list[object] = [state, shared, (shared, 3), {"s": shared}]
    wrapped += [wrapped[i % len(wrapped)] for i in reuse]
    ring = [*wrapped]
    ring.append(ring)
    standard = harness._STANDARD_DEEPCOPY
    fallbacks = []
    harness._STANDARD_DEEPCOPY = lambda *args: fallbacks.append(args) or standard(*args)  # type: ignore[assignment]
    try:
        for value in (state, wrapped, ring):
            assert _shape(harness.plain_deepcopy(value), value) == _shape(copy.deepcopy(value), value)
    finally:
        harness._STANDARD_DEEPCOPY = standard
    assert fallbacks == [(state, None)] * (type(state) not in (list, dict, tuple))  # an atomic state only


def test_the_plain_deepcopy_hands_other_values_to_copy_deepcopy() -> None:
    # a set inside, a subclass of list, a memo given by the caller, nesting deeper than it copies itself
    class Tagged(list):  # type: ignore[type-arg]
        pass

    deep: list[object] = []
    for _ in range(300):
        deep = [deep]
    for value in ([{1, 2}, [3]], Tagged([1]), deep):
        copied = harness.plain_deepcopy(value)
        assert copied == value and copied is not value and type(copied) is type(value)
    memo: dict[int, object] = {}
    inner = [1]
    assert harness.plain_deepcopy([inner], memo)[0] is memo[id(inner)]
    assert harness.plain_deepcopy({1: [2]}, {id(inner): "x"}) == {1: [2]}
