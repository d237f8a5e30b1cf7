"""The example task each initial program candidate sees.

With ``shuffle_all`` (the reference code) every candidate, the first included, gets its own random order
of objects and goal facts; the initial state stays sorted, and an ordering another candidate already got
is drawn again (up to a bound: tiny tasks may not have enough distinct orderings). Without it, candidate
1 sees the file order and later ones a shuffle (genplan's older rule).
"""

from __future__ import annotations

import random

from genplan.engine.pddl.encoding import PythonTask

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


def _sorted(items: list[object]) -> list[object]:
    try:
        return sorted(items)  # type: ignore[type-var]
    except TypeError:  # mixed kinds (a negated goal beside plain facts): a stable textual order
        return sorted(items, key=repr)


def sorted_task(task: PythonTask) -> PythonTask:
    """The task as the reference code shows it in prompts (utils/helper.py, create_problem_str without
    shuffling): objects, initial state and goal each sorted."""
    return PythonTask(_sorted(list(task.objects)), _sorted(list(task.init)), _sorted(list(task.goal)))  # type: ignore[arg-type]
