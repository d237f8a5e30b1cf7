"""Programs written for the counterexample tests of issue 37, each with one known bug and its fixed variant.

They differ from the programs of docs/counterexamples.md and of tests/support/wrong_programs.py on purpose:
the shrinker must find the *same* bug in them, and the fixed variant must solve what it hands back.
"""

from __future__ import annotations

# Blocksworld: take every tower apart onto the table, then build the goal towers bottom up. The bug: the
# blocks are sorted into a fixed number of height levels, so a tower of five blocks or more raises IndexError.
_BLOCKS = '''
def generate_solution(objects, init, goal):
    blocks = sorted(o[0] if isinstance(o, tuple) else o for o in objects)
    below = {f[1]: f[2] for f in init if f[0] == "on"}
    plan = [f"(put-down {f[1]})" for f in init if f[0] == "holding"]

    def height(block):
        count = 0
        while block in below:
            block, count = below[block], count + 1
        return count

    levels = [[] for _ in range(LEVELS)]
    for block in blocks:
        levels[height(block)].append(block)
    for level in reversed(levels[1:]):
        for block in level:
            plan += [f"(unstack {block} {below[block]})", f"(put-down {block})"]
    target = {f[1]: f[2] for f in goal if f[0] == "on"}

    def goal_height(block):
        return 1 + goal_height(target[block]) if target[block] in target else 1

    for block in sorted(target, key=lambda b: (goal_height(b), b)):
        plan += [f"(pick-up {block})", f"(stack {block} {target[block]})"]
    return plan
'''
TALL_TOWER_BLOCKS = _BLOCKS.replace("LEVELS", "4")
TALL_TOWER_BLOCKS_FIXED = _BLOCKS.replace("LEVELS", "len(blocks) + 1")

# Blocksworld: the same plan, but the program believes a block is clear only when it is on the table
# (a block on top of a tower it forgets to unstack first): the bug shows as an unsatisfied precondition.
_LAZY = '''
def generate_solution(objects, init, goal):
    below = {f[1]: f[2] for f in init if f[0] == "on"}
    plan = [f"(put-down {f[1]})" for f in init if f[0] == "holding"]

    def height(block):
        count = 0
        while block in below:
            block, count = below[block], count + 1
        return count

    for block in sorted(below, key=lambda b: (-height(b), b)):
        if HEIGHT_TEST:
            plan += [f"(unstack {block} {below[block]})", f"(put-down {block})"]
    target = {f[1]: f[2] for f in goal if f[0] == "on"}

    def goal_height(block):
        return 1 + goal_height(target[block]) if target[block] in target else 1

    for block in sorted(target, key=lambda b: (goal_height(b), b)):
        plan += [f"(pick-up {block})", f"(stack {block} {target[block]})"]
    return plan
'''
SKIPS_THIRD_LEVEL = _LAZY.replace("HEIGHT_TEST", "height(block) != 3")
SKIPS_THIRD_LEVEL_FIXED = _LAZY.replace("HEIGHT_TEST", "True")

# Ferry: carry each car to its goal, the ferry's place kept up to date. The bug: with four locations and as many
# cars, the last car is never unloaded (no debug task of genplan's ferry is such a task; one with a car removed is).
_FERRY = '''
def generate_solution(objects, init, goal):
    ferry_at = next(f[1] for f in init if f[0] == "at-ferry")
    car_at = {f[1]: f[2] for f in init if f[0] == "at"}
    cars = [f[1] for f in init if f[0] == "car"]
    locations = [f[1] for f in init if f[0] == "location"]
    plan = []
    for fact in sorted(goal):
        if fact[0] != "at" or car_at.get(fact[1]) == fact[2]:
            continue
        car, target = fact[1], fact[2]
        if ferry_at != car_at[car]:
            plan.append(f"(sail {ferry_at} {car_at[car]})")
        plan += [f"(board {car} {car_at[car]})", f"(sail {car_at[car]} {target})", f"(debark {car} {target})"]
        ferry_at = target
    if SAME_COUNT and plan:
        plan.pop()
    return plan
'''
PAIRS_CARS_WITH_LOCATIONS = _FERRY.replace("SAME_COUNT", "len(cars) == len(locations) == 4")
PAIRS_CARS_WITH_LOCATIONS_FIXED = _FERRY.replace("SAME_COUNT", "False")

# Miconic: the lift collects every waiting passenger floor by floor, then takes them to their destinations,
# floors ordered by how many floors lie below each (read from the static ``above`` facts). The bug: the car takes
# at most three passengers; the others are never boarded. A task without one ``above`` fact (two floors neither
# above nor below each other) is one no generator writes, and this program's fixed variant fails it.
_MICONIC = '''
def generate_solution(objects, init, goal):
    floors = sorted(o for o, t in objects if t == "floor")
    above = {(f[1], f[2]) for f in init if f[0] == "above"}
    height = {f: sum(1 for g in floors if (g, f) in above) for f in floors}
    origin = {f[1]: f[2] for f in init if f[0] == "origin"}
    destin = {f[1]: f[2] for f in init if f[0] == "destin"}
    lift = next(f[1] for f in init if f[0] == "lift-at")
    plan = []

    def move(to):
        nonlocal lift
        if to != lift:
            plan.append(f"({'up' if height[to] > height[lift] else 'down'} {lift} {to})")
            lift = to

    boarded = []
    for person in sorted(fact[1] for fact in goal if fact[0] == "served"):
        move(origin[person])
        if len(boarded) < CAPACITY:
            plan.append(f"(board {lift} {person})")
            boarded.append(person)
    for person in boarded:
        move(destin[person])
        plan.append(f"(depart {lift} {person})")
    return plan
'''
THREE_SEAT_LIFT = _MICONIC.replace("CAPACITY", "3")
THREE_SEAT_LIFT_FIXED = _MICONIC.replace("CAPACITY", "10 ** 9")
