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
