"""The AutoToS search harness itself, in process: what a state's key merges, and that the per-call limit
measures the model's functions rather than the collector's work on the harness's own states."""

from __future__ import annotations

import gc

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
