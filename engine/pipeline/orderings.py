"""The example task each initial program candidate sees.

With ``shuffle_all`` (the reference code) every candidate, the first included, gets its own random order
of objects and goal facts; the initial state stays sorted, and an ordering another candidate already got
is drawn again (up to a bound: tiny tasks may not have enough distinct orderings). Without it, candidate
1 sees the file order and later ones a shuffle (genplan's older rule).
"""

from __future__ import annotations

import random

from ..pddl.encoding import PythonTask

_MAX_DRAWS = 50


def _key(task: PythonTask) -> tuple[tuple[object, ...], tuple[object, ...]]:
    return tuple(task.objects), tuple(task.goal)


def candidate_examples(task: PythonTask, candidates: int, seed: int, shuffle_all: bool = True) -> list[PythonTask]:
    """One example encoding per candidate (index 0 is candidate 1)."""
    if not shuffle_all:
        out = [task]
        for candidate in range(2, candidates + 1):
            rng = random.Random(1000 * seed + candidate)
            objects, goal = list(task.objects), list(task.goal)
            rng.shuffle(objects)
            rng.shuffle(goal)
            out.append(PythonTask(objects, list(task.init), goal))
        return out[:candidates]
    rng = random.Random(seed)
    init = sorted(task.init)
    seen: set[tuple[tuple[object, ...], tuple[object, ...]]] = set()
    out = []
    for _ in range(candidates):
        for _draw in range(_MAX_DRAWS):
            objects, goal = list(task.objects), list(task.goal)
            rng.shuffle(objects)
            rng.shuffle(goal)
            shuffled = PythonTask(objects, list(init), goal)
            if _key(shuffled) not in seen:
                break
        seen.add(_key(shuffled))
        out.append(shuffled)
    return out
