"""genplan's own AutoToS instances: correct functions pass every generated unit test and solve every
generated instance (validated, optimal where the paper asks for it); the data is self-consistent."""

from __future__ import annotations

import pytest

from genplan.engine.autotos.domains import blocks_children, game24_children
from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.autotos.generators import GENERATORS, solvable_24
from genplan.engine.autotos.loop import AutoToS, Settings

SUCC = {
    "24game": '''def succ(state):
    out = []
    for i in range(len(state)):
        for j in range(i + 1, len(state)):
            a, b = state[i], state[j]
            rest = [state[k] for k in range(len(state)) if k not in (i, j)]
            values = [a + b, a - b, b - a, a * b] + ([a / b] if b else []) + ([b / a] if a else [])
            out.extend(rest + [v] for v in values)
    return out
''',
    "blocksworld": '''def succ(state):
    import copy
    out = []
    def make(change):
        s = copy.deepcopy(state)
        change(s)
        out.append(s)
    if state["arm-empty"]:
        for b in state["clear"]:
            if b in state["on-table"]:
                def pick(s, b=b):
                    s["clear"].remove(b); s["on-table"].remove(b); s["arm-empty"] = False; s["holding"] = b
                make(pick)
            for x, y in state["on"]:
                if x == b:
                    def unstack(s, x=x, y=y):
                        s["clear"].remove(x); s["clear"].append(y); s["on"].remove((x, y))
                        s["arm-empty"] = False; s["holding"] = x
                    make(unstack)
    else:
        h = state["holding"]
        def put(s):
            s["clear"].append(h); s["on-table"].append(h); s["arm-empty"] = True; s["holding"] = None
        make(put)
        for b in state["clear"]:
            def stack(s, b=b):
                s["clear"].remove(b); s["clear"].append(h); s["on"].append((h, b))
                s["arm-empty"] = True; s["holding"] = None
            make(stack)
    return out
''',
    "prontoqa": '''def succ(state, rules):
    return [state | {b} for a, b in rules if a in state and b not in state]
''',
    "sokoban": '''def succ(state, grid):
    out = []
    px, py = state["at-player"]
    stones = list(state["at-stone"])
    def free(x, y):
        return 0 <= x < len(grid) and 0 <= y < len(grid[x]) and grid[x][y] != 1 and (x, y) not in stones
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        x, y = px + dx, py + dy
        if free(x, y):
            out.append({"at-player": (x, y), "at-stone": list(stones)})
        elif (x, y) in stones and free(x + dx, y + dy):
            moved = [s if s != (x, y) else (x + dx, y + dy) for s in stones]
            out.append({"at-player": (x, y), "at-stone": moved})
    return out
''',
}
GOAL = {
    "24game": "def is_goal(state):\n    return len(state) == 1 and abs(state[0] - 24) < 1e-6\n",
    "blocksworld": "def is_goal(state, goal):\n    return all(p in state['on'] for p in goal['on'])\n",
    "prontoqa": "def is_goal(state, target):\n    return target in state\n",
    "sokoban": "def is_goal(state, grid):\n    return all(grid[x][y] == 2 for x, y in state['at-stone'])\n",
}


@pytest.fixture(scope="module")
def executor():
    ex = SandboxExecutor(hash_seed=0)
    yield ex
    ex.close()


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_correct_functions_pass_the_generated_tests_and_solve_every_instance(executor, name):
    domain = GENERATORS[name](seed=2)
    answers = {"succ": f"```python\n{SUCC[name]}```", "goal": f"```python\n{GOAL[name]}```"}
    loop = AutoToS(domain, lambda target, _prompt: answers[target], executor, Settings())
    outcome = loop.run()
    assert outcome.rounds == [], [r.feedback for r in outcome.rounds]
    assert outcome.evaluation is not None
    assert outcome.evaluation.failed == 0, outcome.evaluation.reasons
    assert outcome.evaluation.solved == len(domain.eval_instances) > 0


def test_generated_24_puzzles_are_solvable_and_seeded():
    first, again = GENERATORS["24game"](seed=5), GENERATORS["24game"](seed=5)
    assert [i.init for i in first.eval_instances] == [i.init for i in again.eval_instances]
    assert all(solvable_24(i.init) for i in first.eval_instances)
    assert not solvable_24([1, 1, 1, 1])
    assert len(first.completeness_cases[0]["successors"]) <= len(game24_children(first.unit_instances[0].init))


def test_generated_blocks_goals_differ_from_the_start():
    domain = GENERATORS["blocksworld"](seed=4)
    assert all(i.info["optimal"] >= 0 for i in domain.eval_instances)
    case = domain.completeness_cases[0]
    assert case["successors"] == blocks_children(case["state"])
