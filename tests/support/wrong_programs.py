"""Deliberately wrong generalized plans for the counterexample tests (test data written for genplan).

``forgetful_program(domain)`` works for any domain: it applies the first applicable action (in a fixed order)
that adds a fact not yet true, and never removes a fact from its picture of the state, as if nothing ever
stopped holding after an action (a ferry that never leaves its old location, a gripper whose hand stays
free). It fails on nearly every task whose plan needs a delete; the search finds such a task and shrinks it.
"""

from __future__ import annotations

from genplan.engine.pddl import Domain
from support.ferry_model import CORRECT_PROGRAM

_BODY = '''
def generate_solution(objects, init, goal):
    names = sorted(o[0] if isinstance(o, tuple) else o for o in objects)
    state = set(init)
    wanted = [g for g in goal if g[0] != "not"]
    plan = []

    def matches(action):
        by_pred = {}
        for fact in sorted(state):
            by_pred.setdefault(fact[0], []).append(fact)
        positive = [p for p in action["pre"] if p[2] and p[0] != "="]

        def extend(i, binding):
            if i == len(positive):
                free = [p for p in action["params"] if p not in binding]
                yield from complete(free, binding)
                return
            pred, args, _ = positive[i]
            for fact in by_pred.get(pred, []):
                new = dict(binding)
                ok = len(fact) == len(args) + 1
                for arg, value in zip(args, fact[1:]):
                    if arg.startswith("?"):
                        if new.setdefault(arg, value) != value:
                            ok = False
                    elif arg != value:
                        ok = False
                if ok:
                    yield from extend(i + 1, new)

        def complete(free, binding):
            if not free:
                yield binding
                return
            for name in names:
                yield from complete(free[1:], {**binding, free[0]: name})

        for binding in extend(0, {}):
            value = lambda a: binding.get(a, a)
            good = True
            for pred, args, positive_literal in action["pre"]:
                if pred == "=":
                    same = value(args[0]) == value(args[1])
                    good = good and same == positive_literal
                elif not positive_literal:
                    good = good and (pred, *map(value, args)) not in state
            if good:
                yield binding, value

    for _ in range(500):
        if all(g in state for g in wanted):
            break
        moved = False
        for action in ACTIONS:
            for binding, value in matches(action):
                added = {(pred, *map(value, args)) for pred, args in action["add"]}
                if added - state:
                    state |= added  # the bug: deletes are never applied
                    plan.append("(" + " ".join([action["name"], *(binding[p] for p in action["params"])]) + ")")
                    moved = True
                    break
            if moved:
                break
        if not moved:
            break
    return plan
'''


def forgetful_program(domain: Domain) -> str:
    actions = [
        {
            "name": a.name,
            "params": [p.name for p in a.parameters],
            "pre": [[lit.predicate, list(lit.args), lit.positive] for lit in a.preconditions],
            "add": [[lit.predicate, list(lit.args)] for lit in a.add_effects],
        }
        for a in domain.actions.values()
    ]
    return f"ACTIONS = {actions!r}\n" + _BODY


# A ferry program written for these tests that is right on the generator's tasks and on the probes' corner cases
# too: a car aboard at the start, partial goals, a car that must end on the ferry, a goal for the ferry itself.
FULLY_CORRECT_FERRY = '''
def generate_solution(objects, init, goal):
    ferry = next(f[1] for f in init if f[0] == "at-ferry")
    car_at = {f[1]: f[2] for f in init if f[0] == "at"}
    aboard = next((f[1] for f in init if f[0] == "on"), None)
    wanted_at = {f[1]: f[2] for f in goal if f[0] == "at"}
    wanted_on = next((f[1] for f in goal if f[0] == "on"), None)
    ferry_goal = next((f[1] for f in goal if f[0] == "at-ferry"), None)
    plan = []

    def sail(to):
        nonlocal ferry
        if ferry != to:
            plan.append(f"(sail {ferry} {to})")
            ferry = to

    if aboard is not None:
        sail(wanted_at.get(aboard, ferry))
        plan.append(f"(debark {aboard} {ferry})")
        car_at[aboard] = ferry
    for car in sorted(wanted_at):
        if car_at[car] == wanted_at[car]:
            continue
        sail(car_at[car])
        plan.append(f"(board {car} {ferry})")
        sail(wanted_at[car])
        plan.append(f"(debark {car} {ferry})")
        car_at[car] = ferry
    if wanted_on is not None:
        sail(car_at[wanted_on])
        plan.append(f"(board {wanted_on} {ferry})")
    if ferry_goal is not None:
        sail(ferry_goal)
    return plan
'''


# Right on every debug task of domains/ferry (at most 5 locations, l0..l4) but not beyond: it looks for the
# ferry among the locations it has seen in those tasks only.
FIVE_LOCATIONS_FERRY = 'KNOWN_LOCATIONS = ["l0", "l1", "l2", "l3", "l4"]\n' + CORRECT_PROGRAM.replace(
    'next(fact[1] for fact in init if fact[0] == "at-ferry")',
    'next(loc for loc in KNOWN_LOCATIONS if ("at-ferry", loc) in init)',
)
