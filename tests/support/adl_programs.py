"""Correct generalized programs for the two ADL domains of the library (domains/briefcase: conditional
effects; domains/recycling: a quantified goal), and wrong variants of them, as test data.

A compound goal condition reaches a program as one nested tuple in ``goal`` (``('forall', (('?i', 'item'),),
('exists', ...))``, see docs/pddl.md). The programs read the facts the goal asks for outright
(``('at', o, l)``, ``('robot-at', l)``, ...; also inside an ``('and', ...)``), skip negated and quantified
parts, and do what recycling's quantified goal asks (every item in a bin accepting its material) from ``init``.
"""

from __future__ import annotations

BRIEFCASE_PROGRAM = '''
def generate_solution(objects, init, goal):
    def goal_facts(node):
        if isinstance(node, tuple) and node and node[0] in ("not", "or", "imply", "forall", "exists"):
            return  # only facts the goal asks for outright
        if isinstance(node, tuple) and node and all(isinstance(x, str) for x in node):
            yield node
        elif isinstance(node, (tuple, list, set, frozenset)):
            for part in node:
                yield from goal_facts(part)

    wanted = list(goal_facts(list(goal)))
    here = next(fact[1] for fact in init if fact[0] == "is-at")
    where = {fact[1]: fact[2] for fact in init if fact[0] == "at"}
    inside = {fact[1] for fact in init if fact[0] == "in"}
    target = {fact[1]: fact[2] for fact in wanted if fact[0] == "at" and len(fact) == 3}
    keep_inside = sorted(fact[1] for fact in wanted if fact[0] == "in")
    case_goal = next((fact[1] for fact in wanted if fact[0] == "is-at"), None)
    plan = []

    def move(to):
        nonlocal here
        if to != here:
            plan.append(f"(move {here} {to})")
            for thing in inside:
                where[thing] = to
            here = to

    # Empty the briefcase first: whatever stays inside would travel along with every move.
    for thing in sorted(inside):
        plan.append(f"(take-out {thing})")
    inside.clear()
    for thing in sorted(target):
        if where[thing] == target[thing]:
            continue
        move(where[thing])
        plan.append(f"(put-in {thing} {here})")
        inside.add(thing)
        move(target[thing])
        plan.append(f"(take-out {thing})")
        inside.discard(thing)
    for thing in keep_inside:
        move(where[thing])
        plan.append(f"(put-in {thing} {here})")
        inside.add(thing)
    if case_goal is not None:
        move(case_goal)
    return plan
'''

# Never takes an object out: it travels on with the briefcase (the conditional effect of every later move),
# so every delivery but the last is undone.
BRIEFCASE_NEVER_TAKES_OUT = BRIEFCASE_PROGRAM.replace(
    '''        plan.append(f"(take-out {thing})")
        inside.discard(thing)
''', "")

# Forgets to put an object in (and so to take it out): the briefcase goes to the object and on to the
# object's goal, but the move's conditional effect never fires for it, so the object stays where it lies.
BRIEFCASE_NEVER_PUTS_IN = BRIEFCASE_PROGRAM.replace(
    '''        plan.append(f"(put-in {thing} {here})")
        inside.add(thing)
        move(target[thing])
        plan.append(f"(take-out {thing})")
        inside.discard(thing)
''', '''        move(target[thing])
''')

RECYCLING_PROGRAM = '''
from collections import deque


def generate_solution(objects, init, goal):
    def goal_facts(node):
        if isinstance(node, tuple) and node and node[0] in ("not", "or", "imply", "forall", "exists"):
            return  # only facts the goal asks for outright
        if isinstance(node, tuple) and node and all(isinstance(x, str) for x in node):
            yield node
        elif isinstance(node, (tuple, list, set, frozenset)):
            for part in node:
                yield from goal_facts(part)

    robot_goal = next((fact[1] for fact in goal_facts(list(goal)) if fact[0] == "robot-at" and len(fact) == 2), None)
    here = next(fact[1] for fact in init if fact[0] == "robot-at")
    neighbours = {}
    for fact in init:
        if fact[0] == "connected":
            neighbours.setdefault(fact[1], []).append(fact[2])
    for places in neighbours.values():
        places.sort()
    bin_at = {fact[1]: fact[2] for fact in init if fact[0] == "bin-at"}
    accepts = {}
    for fact in init:
        if fact[0] == "accepts":
            accepts.setdefault(fact[1], set()).add(fact[2])
    made_of = {}
    for fact in init:
        if fact[0] == "made-of":
            made_of.setdefault(fact[1], set()).add(fact[2])
    lying = {fact[1]: fact[2] for fact in init if fact[0] == "at"}
    in_bin = {fact[1]: fact[2] for fact in init if fact[0] == "in"}
    held = next((fact[1] for fact in init if fact[0] == "holding"), None)
    plan = []

    def path(start, end):
        before = {start: None}
        queue = deque([start])
        while queue:
            place = queue.popleft()
            if place == end:
                break
            for nxt in neighbours.get(place, []):
                if nxt not in before:
                    before[nxt] = place
                    queue.append(nxt)
        steps = []
        while end != start:
            steps.append(end)
            end = before[end]
        return steps[::-1]

    def go(to):
        nonlocal here
        for nxt in path(here, to):
            plan.append(f"(move {here} {nxt})")
            here = nxt

    def distance(start, end):
        return len(path(start, end))

    def right_bin(item):
        fitting = [b for b in sorted(bin_at) if accepts.get(b, set()) & made_of.get(item, set())]
        return min(fitting, key=lambda b: (distance(here, bin_at[b]), b))

    def sort_held(item):
        target = right_bin(item)
        go(bin_at[target])
        plan.append(f"(deposit {item} {target} {here})")

    if held is not None:
        sort_held(held)
    items = sorted(set(made_of) | set(lying) | set(in_bin))
    for item in items:
        if item in in_bin and accepts.get(in_bin[item], set()) & made_of.get(item, set()):
            continue
        if item in in_bin:
            go(bin_at[in_bin[item]])
            plan.append(f"(take {item} {in_bin[item]} {here})")
        elif item in lying:
            go(lying[item])
            plan.append(f"(pick {item} {here})")
        else:
            continue
        sort_held(item)
    if robot_goal is not None:
        go(robot_goal)
    return plan
'''

# Picks up every item first and sorts afterwards: the second pick breaks the universal precondition
# (forall (?j - item) (not (holding ?j))).
RECYCLING_PICKS_TWO = RECYCLING_PROGRAM.replace(
    '''        sort_held(item)
    if robot_goal''', '''    for item in items:
        if any(step.startswith(("(pick " + item + " ", "(take " + item + " ")) for step in plan):
            sort_held(item)
    if robot_goal''')

# Throws every item into the nearest bin, whatever it accepts: the quantified goal fails for the items whose
# material that bin does not take.
RECYCLING_ANY_BIN = RECYCLING_PROGRAM.replace(
    "fitting = [b for b in sorted(bin_at) if accepts.get(b, set()) & made_of.get(item, set())]",
    "fitting = sorted(bin_at)",
)
