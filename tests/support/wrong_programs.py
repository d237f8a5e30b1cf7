"""Deliberately wrong generalized plans for the counterexample tests (test data written for genplan).

``forgetful_program(domain)`` works for any domain: it applies the first applicable action (in a fixed order)
that adds a fact not yet true, and never removes a fact from its picture of the state, as if nothing ever
stopped holding after an action (a ferry that never leaves its old location, a gripper whose hand stays
free). It fails on nearly every task whose plan needs a delete; the search finds such a task and shrinks it.
"""

from __future__ import annotations


from genplan.engine.pddl import Domain

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
